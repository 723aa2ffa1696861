//! What both games' opening books share: the switch that turns them on and
//! off in play (engine option `Book`, `brett --no-book`). The books
//! themselves are [`crate::muehle::book`] and [`crate::dame::book`].

use std::sync::atomic::{AtomicBool, Ordering};

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

/// The container both books are stored in: `magic` (8 bytes), the number
/// of records (u32, little-endian), then records of `record` bytes each,
/// sorted by the u64 key they start with. `records` yields (key, rest of
/// the record) in key order.
pub(crate) fn encode<'a>(
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
pub(crate) fn decode<'a>(
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
pub(crate) fn read(path: &std::path::Path) -> Result<Vec<u8>, BookError> {
    std::fs::read(path).map_err(|e| BookError::Io(path.display().to_string(), e))
}

/// Write a book file through a temporary file beside it, so a reader never
/// sees half a book.
pub(crate) fn write(path: &std::path::Path, bytes: &[u8]) -> Result<(), BookError> {
    let name = path.display().to_string();
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, bytes).map_err(|e| BookError::Io(name.clone(), e))?;
    std::fs::rename(&tmp, path).map_err(|e| BookError::Io(name, e))
}
