//! What both games' opening books share: the switch that turns them on and
//! off in play (engine option `Book`, `brett --no-book`), the positions by
//! key and their file container ([`Records`]), the book built in and the
//! one installed ([`Shelf`]), and the builders' workers ([`work_on`]). The
//! books themselves are [`crate::muehle::book`] and [`crate::dame::book`].

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock, RwLock};

static ENABLED: AtomicBool = AtomicBool::new(true);

/// Use the opening books in play (level 10) or not.
pub fn set_enabled(on: bool) {
    ENABLED.store(on, Ordering::Relaxed);
}

/// Whether the opening books are used in play.
pub fn enabled() -> bool {
    ENABLED.load(Ordering::Relaxed)
}

/// Why a book file is refused (either game's).
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    /// The file does not start with the game's magic (the file).
    #[error("{0}: not a brett book of this game (wrong magic)")]
    Magic(String),
    /// The file is truncated or of the wrong length (the file).
    #[error("{0}: truncated or of the wrong length")]
    Length(String),
    /// A record holds no move (the file, the record).
    #[error("{0}: record {1} holds no move")]
    BadMove(String, usize),
    /// The keys are not sorted (the file, the record).
    #[error("{0}: keys are not sorted at record {1}")]
    Unsorted(String, usize),
    /// The file cannot be read or written (the file, the error).
    #[error("{0}: {1}")]
    Io(String, std::io::Error),
}

/// A book's record after its key: the file's magic, the record's size and
/// how it is written and read.
pub trait Record: Clone {
    /// The file's magic (tells the games' books apart).
    const MAGIC: &'static [u8; 8];
    /// Bytes of a record after its key.
    const SIZE: usize;
    /// Append the record's [`Record::SIZE`] bytes.
    fn write_to(&self, out: &mut Vec<u8>);
    /// The record of `bytes` ([`Record::SIZE`] of them); `None` when it
    /// holds no move.
    fn read_from(bytes: &[u8]) -> Option<Self>;
}

/// A book: records by the key of their position (each game's book is this
/// with its own record, key and lookups).
#[derive(Clone, Debug)]
pub struct Records<R> {
    entries: HashMap<u64, R>,
}

impl<R> Default for Records<R> {
    fn default() -> Records<R> {
        Records {
            entries: HashMap::new(),
        }
    }
}

impl<R: Record> Records<R> {
    /// An empty book.
    pub fn new() -> Records<R> {
        Records::default()
    }

    /// Positions held.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no position is held.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The record of key `k`.
    pub fn by_key(&self, k: u64) -> Option<&R> {
        self.entries.get(&k)
    }

    /// Hold `r` for key `k` (in place of what was held).
    pub fn put(&mut self, k: u64, r: R) {
        self.entries.insert(k, r);
    }

    /// Records by key, in no order (for statistics).
    pub fn entries(&self) -> impl Iterator<Item = (u64, &R)> + '_ {
        self.entries.iter().map(|(&k, r)| (k, r))
    }

    /// Add the positions of `other` this book does not hold (books built
    /// apart, e.g. one game each on its own machine). Returns how many.
    pub fn merge(&mut self, other: &Records<R>) -> usize {
        let before = self.entries.len();
        for (k, r) in &other.entries {
            self.entries.entry(*k).or_insert_with(|| r.clone());
        }
        self.entries.len() - before
    }

    /// The book in the file format ([`encode`]).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut keys: Vec<u64> = self.entries.keys().copied().collect();
        keys.sort_unstable();
        let mut rests = Vec::with_capacity(keys.len() * R::SIZE);
        for k in &keys {
            self.entries[k].write_to(&mut rests);
        }
        encode(
            R::MAGIC,
            8 + R::SIZE,
            keys.iter()
                .zip(rests.chunks_exact(R::SIZE.max(1)))
                .map(|(&k, r)| (k, r)),
        )
    }

    /// Read a book from the file format; `name` is for messages.
    pub fn from_bytes(bytes: &[u8], name: &str) -> Result<Records<R>, BookError> {
        let records = decode(bytes, R::MAGIC, 8 + R::SIZE, name)?;
        let mut entries = HashMap::with_capacity(records.len());
        for (i, (k, rest)) in records.into_iter().enumerate() {
            let r = R::read_from(rest).ok_or_else(|| BookError::BadMove(name.into(), i))?;
            entries.insert(k, r);
        }
        Ok(Records { entries })
    }

    /// Read a book file.
    pub fn read(path: &Path) -> Result<Records<R>, BookError> {
        Records::from_bytes(&read(path)?, &path.display().to_string())
    }

    /// Write the book to `path` (through a temporary file, so a reader
    /// never sees half a book).
    pub fn write(&self, path: &Path) -> Result<(), BookError> {
        write(path, &self.to_bytes())
    }
}

/// A game's books in play: the one built into brett (read at first use)
/// and the one installed in its place (`brett --book FILE`).
pub struct Shelf<R> {
    bytes: &'static [u8],
    name: &'static str,
    built_in: OnceLock<Records<R>>,
    installed: RwLock<Option<Arc<Records<R>>>>,
}

impl<R: Record> Shelf<R> {
    /// The shelf of the built-in book `bytes` (`name` for messages).
    pub const fn new(bytes: &'static [u8], name: &'static str) -> Shelf<R> {
        Shelf {
            bytes,
            name,
            built_in: OnceLock::new(),
            installed: RwLock::new(None),
        }
    }

    /// The book built into brett (empty if it does not read).
    pub fn built_in(&self) -> &Records<R> {
        self.built_in
            .get_or_init(|| Records::from_bytes(self.bytes, self.name).unwrap_or_default())
    }

    /// Play from `book` instead of the built-in one (`None`: the built-in
    /// one again).
    pub fn install(&self, book: Option<Records<R>>) {
        *self.installed.write().unwrap_or_else(|e| e.into_inner()) = book.map(Arc::new);
    }

    /// `f` of the book in play: the installed one, else the built-in one;
    /// `None` when the books are switched off ([`enabled`]).
    pub fn in_play<T>(&self, f: impl FnOnce(&Records<R>) -> Option<T>) -> Option<T> {
        if !enabled() {
            return None;
        }
        let installed = self
            .installed
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        match installed {
            Some(book) => f(&book),
            None => f(self.built_in()),
        }
    }
}

/// Work on `todo` with `threads` threads, each with a search engine of its
/// own (64 MiB table, one thread): `work` finds a position's result, and
/// `done` sees each result as it comes, on the calling thread, with the
/// index of its position and how many are done (also the results of
/// positions begun before a stop), and stops the work by returning false.
/// Returns whether the work was stopped.
pub(crate) fn work_on<P: Sync, T: Send>(
    todo: &[P],
    threads: usize,
    work: impl Fn(&search::Engine, &P) -> T + Sync,
    done: &mut dyn FnMut(usize, usize, T) -> bool,
) -> bool {
    let stop = AtomicBool::new(false);
    let next_index = AtomicUsize::new(0);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            let tx = tx.clone();
            let (next_index, stop, work) = (&next_index, &stop, &work);
            scope.spawn(move || {
                let engine = search::Engine::new(64, 1);
                loop {
                    let i = next_index.fetch_add(1, Ordering::Relaxed);
                    if i >= todo.len() || stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let found = work(&engine, &todo[i]);
                    if tx.send((i, found)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for (n, (i, found)) in (1..).zip(rx) {
            if !done(i, n, found) {
                stop.store(true, Ordering::Relaxed);
            }
        }
    });
    stop.load(Ordering::Relaxed)
}

/// The container both books are stored in: `magic` (8 bytes), the number
/// of records (u32, little-endian), then records of `record` bytes each,
/// sorted by the u64 key they start with. `records` yields (key, rest of
/// the record) in key order.
fn encode<'a>(
    magic: &[u8; 8],
    record: usize,
    records: impl ExactSizeIterator<Item = (u64, &'a [u8])>,
) -> Vec<u8> {
    let mut out = Vec::with_capacity(12 + record * records.len());
    out.extend_from_slice(magic);
    out.extend_from_slice(&(records.len() as u32).to_le_bytes());
    for (k, rest) in records {
        out.extend_from_slice(&k.to_le_bytes());
        out.extend_from_slice(rest);
    }
    out
}

/// The records of a container written by [`encode`] (key, rest of the
/// record), checked for the magic, the length and the key order; `name` is
/// for messages.
fn decode<'a>(
    bytes: &'a [u8],
    magic: &[u8; 8],
    record: usize,
    name: &str,
) -> Result<Vec<(u64, &'a [u8])>, BookError> {
    if bytes.len() < 12 || &bytes[..8] != magic {
        return Err(BookError::Magic(name.into()));
    }
    let n = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes")) as usize;
    if Some(bytes.len()) != n.checked_mul(record).and_then(|b| b.checked_add(12)) {
        return Err(BookError::Length(name.into()));
    }
    let mut out = Vec::with_capacity(n);
    for (i, r) in bytes[12..].chunks_exact(record).enumerate() {
        let k = u64::from_le_bytes(r[..8].try_into().expect("8 bytes"));
        if out.last().is_some_and(|&(l, _)| l >= k) {
            return Err(BookError::Unsorted(name.into(), i));
        }
        out.push((k, &r[8..]));
    }
    Ok(out)
}

/// Read a book file's bytes.
fn read(path: &std::path::Path) -> Result<Vec<u8>, BookError> {
    std::fs::read(path).map_err(|e| BookError::Io(path.display().to_string(), e))
}

/// Write a book file through a temporary file beside it, so a reader never
/// sees half a book.
fn write(path: &std::path::Path, bytes: &[u8]) -> Result<(), BookError> {
    let name = path.display().to_string();
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, bytes).map_err(|e| BookError::Io(name.clone(), e))?;
    std::fs::rename(&tmp, path).map_err(|e| BookError::Io(name, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A record of one byte; 0 holds no move.
    #[derive(Clone, Debug, PartialEq)]
    struct Byte(u8);

    impl Record for Byte {
        const MAGIC: &'static [u8; 8] = b"BRETTTS1";
        const SIZE: usize = 1;
        fn write_to(&self, out: &mut Vec<u8>) {
            out.push(self.0);
        }
        fn read_from(bytes: &[u8]) -> Option<Byte> {
            (bytes[0] != 0).then_some(Byte(bytes[0]))
        }
    }

    fn book(pairs: &[(u64, u8)]) -> Records<Byte> {
        let mut b = Records::new();
        for &(k, v) in pairs {
            b.put(k, Byte(v));
        }
        b
    }

    #[test]
    fn the_container_round_trips_and_refuses_damage() {
        let b = book(&[(30, 3), (10, 1), (20, 2)]);
        let bytes = b.to_bytes();
        assert_eq!(bytes.len(), 12 + 3 * 9);
        assert_eq!(&bytes[..8], b"BRETTTS1");
        let back = Records::<Byte>::from_bytes(&bytes, "t").unwrap();
        assert_eq!(back.len(), 3);
        for k in [10, 20, 30] {
            assert_eq!(back.by_key(k), b.by_key(k));
        }
        let err = |bytes: &[u8]| Records::<Byte>::from_bytes(bytes, "t").unwrap_err();
        assert!(matches!(err(b"BRETTBK1\0\0\0\0"), BookError::Magic(_)));
        assert!(matches!(
            err(&bytes[..bytes.len() - 1]),
            BookError::Length(_)
        ));
        let mut swapped = bytes.clone();
        swapped[12..21].copy_from_slice(&bytes[21..30]);
        assert!(matches!(err(&swapped), BookError::Unsorted(_, 1)));
        let mut empty = bytes.clone();
        empty[12 + 9 + 8] = 0;
        assert!(matches!(err(&empty), BookError::BadMove(_, 1)));
    }

    #[test]
    fn merging_adds_what_is_not_held_and_keeps_what_is() {
        let mut b = book(&[(1, 1), (2, 2)]);
        assert_eq!(b.merge(&book(&[(2, 9), (3, 3)])), 1);
        assert_eq!(b.len(), 3);
        assert_eq!(b.by_key(2), Some(&Byte(2)));
        assert_eq!(b.by_key(3), Some(&Byte(3)));
    }

    #[test]
    fn a_book_file_is_written_whole_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.book");
        book(&[(5, 5)]).write(&path).unwrap();
        assert!(!path.with_extension("tmp").exists());
        assert_eq!(
            Records::<Byte>::read(&path).unwrap().by_key(5),
            Some(&Byte(5))
        );
        assert!(matches!(
            Records::<Byte>::read(&dir.path().join("none")),
            Err(BookError::Io(..))
        ));
    }
}
