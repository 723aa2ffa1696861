//! Mühle's opening book: a move for early placing positions (standard
//! removal and flying rules), computed by brett — the search's choice,
//! proven by the placing solver ([`crate::muehle::placing`]) not to lose where the
//! proof fits its budget — and stored compactly (11 bytes a position).
//!
//! Positions are stored by symmetry class; a lookup maps the stored move
//! back to the position asked about. Level 10 plays the book's move where
//! the book has one (switch: [`set_enabled`], engine option `Book`); the
//! book built into brett is `crates/engine/data/muehle-book.bin`, made and
//! extended by `brett tablebase book` (resumable).
//!
//! File format (little-endian): the magic `BRETTBK1`, the number of records
//! (u32), then the records sorted by key: key (u64: side to move's points
//! in bits 0–23 of the class's smallest image shifted left 24, the other's
//! in bits 0–23, the side to move's stones in hand at bit 48, the other's at
//! bit 52), the move in that image (u16, [`Move::to_u16`]), flags (u8:
//! [`PROVEN`]).

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock, RwLock};

use muehle::{Color, Move, Position, Symmetry};
use tablebase::Variant;

const MAGIC: &[u8; 8] = b"BRETTBK1";
const RECORD: usize = 11;

/// Flag: the move is proven not to lose (the position after it is at
/// best a draw for the opponent).
pub const PROVEN: u8 = 1;

/// The book built into brett.
static BUILT_IN: &[u8] = include_bytes!("../../data/muehle-book.bin");

/// The switch of both games' books ([`crate::book`]).
pub use crate::book::{enabled, set_enabled};

/// A book entry: the move (in the class's smallest image) and flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The move, in the class's smallest image.
    pub mv: Move,
    /// The flags ([`PROVEN`]).
    pub flags: u8,
}

pub use crate::book::BookError;

/// An opening book.
#[derive(Clone, Debug, Default)]
pub struct Book {
    entries: HashMap<u64, Entry>,
}

/// The key of the position's symmetry class, and the symmetry that maps the
/// position to the class's smallest image.
pub fn key(pos: &Position) -> (u64, Symmetry) {
    let us = pos.turn();
    let (a, b) = (pos.stones(us), pos.stones(us.other()));
    let hands = (u64::from(pos.in_hand(us)) << 48) | (u64::from(pos.in_hand(us.other())) << 52);
    let mut best = (u64::MAX, Symmetry::IDENTITY);
    for s in Symmetry::ALL {
        let k = (u64::from(s.apply(a).0) << 24) | u64::from(s.apply(b).0);
        if k < best.0 {
            best = (k, s);
        }
    }
    (best.0 | hands, best.1)
}

impl Book {
    /// An empty book.
    pub fn new() -> Book {
        Book::default()
    }

    /// Positions held.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no position is held.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Whether the position's class is held.
    pub fn contains(&self, pos: &Position) -> bool {
        self.entries.contains_key(&key(pos).0)
    }

    /// The book's move for `pos` (mapped to `pos`'s orientation) and its
    /// flags, if the book holds the position and the move is legal there.
    pub fn get(&self, pos: &Position) -> Option<(Move, u8)> {
        let (k, sym) = key(pos);
        let e = self.entries.get(&k)?;
        let mv = sym.inverse().apply_move(e.mv);
        pos.is_legal(mv).then_some((mv, e.flags))
    }

    /// Hold `mv` (legal in `pos`) for `pos`'s class.
    pub fn insert(&mut self, pos: &Position, mv: Move, flags: u8) {
        let (k, sym) = key(pos);
        self.entries.insert(
            k,
            Entry {
                mv: sym.apply_move(mv),
                flags,
            },
        );
    }

    /// Entries by key (for statistics).
    pub fn entries(&self) -> impl Iterator<Item = (u64, Entry)> + '_ {
        self.entries.iter().map(|(&k, &e)| (k, e))
    }

    /// The book in the file format.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut keys: Vec<u64> = self.entries.keys().copied().collect();
        keys.sort_unstable();
        let rests: Vec<[u8; 3]> = keys
            .iter()
            .map(|k| {
                let e = self.entries[k];
                let [a, b] = e.mv.to_u16().to_le_bytes();
                [a, b, e.flags]
            })
            .collect();
        crate::book::encode(
            MAGIC,
            RECORD,
            keys.iter().zip(&rests).map(|(&k, r)| (k, &r[..])),
        )
    }

    /// Read a book from the file format; `name` is for messages.
    pub fn from_bytes(bytes: &[u8], name: &str) -> Result<Book, BookError> {
        let records = crate::book::decode(bytes, MAGIC, RECORD, name)?;
        let mut entries = HashMap::with_capacity(records.len());
        for (i, (k, r)) in records.into_iter().enumerate() {
            let mv = Move::from_u16(u16::from_le_bytes([r[0], r[1]]))
                .ok_or_else(|| BookError::BadMove(name.into(), i))?;
            entries.insert(k, Entry { mv, flags: r[2] });
        }
        Ok(Book { entries })
    }

    /// Read a book file.
    pub fn read(path: &Path) -> Result<Book, BookError> {
        Book::from_bytes(&crate::book::read(path)?, &path.display().to_string())
    }

    /// Write the book to `path` (through a temporary file, so a reader
    /// never sees half a book).
    pub fn write(&self, path: &Path) -> Result<(), BookError> {
        crate::book::write(path, &self.to_bytes())
    }
}

/// The book built into brett.
pub fn built_in() -> &'static Book {
    static BOOK: OnceLock<Book> = OnceLock::new();
    BOOK.get_or_init(|| Book::from_bytes(BUILT_IN, "the built-in book").unwrap_or_default())
}

static INSTALLED: RwLock<Option<Arc<Book>>> = RwLock::new(None);

/// Play from `book` instead of the built-in one (`None`: the built-in one
/// again).
pub fn install(book: Option<Book>) {
    *INSTALLED.write().unwrap_or_else(|e| e.into_inner()) = book.map(Arc::new);
}

/// The book's move for `pos` in play (the installed book, else the built-in
/// one): standard removal and flying rules, placing phase, book switched on.
pub fn book_move(pos: &Position) -> Option<Move> {
    if !enabled()
        || Variant::for_rules(pos.rules()) != Some(Variant::STANDARD)
        || (pos.in_hand(Color::White) == 0 && pos.in_hand(Color::Black) == 0)
    {
        return None;
    }
    let installed = INSTALLED.read().unwrap_or_else(|e| e.into_inner()).clone();
    match installed {
        Some(book) => book.get(pos).map(|(m, _)| m),
        None => built_in().get(pos).map(|(m, _)| m),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use muehle::RuleSet;

    fn play(moves: &[&str]) -> Position {
        let mut p = Position::new(RuleSet::STANDARD);
        for m in moves {
            p.play_unchecked(p.parse_move(m).expect("move"));
        }
        p
    }

    #[test]
    fn a_move_is_found_for_every_image_of_the_position() {
        let pos = play(&["a1", "d2", "b4"]);
        let mv = pos.parse_move("f4").unwrap();
        let mut book = Book::new();
        book.insert(&pos, mv, PROVEN);
        assert_eq!(book.get(&pos), Some((mv, PROVEN)));
        for s in Symmetry::ALL {
            let image = pos.transformed(s);
            assert_eq!(book.get(&image), Some((s.apply_move(mv), PROVEN)), "{s:?}");
        }
        assert_eq!(book.get(&play(&["a1", "d2", "b6"])), None);
    }

    #[test]
    fn the_file_format_round_trips_and_refuses_damage() {
        let mut book = Book::new();
        for moves in [&["d2"][..], &["d2", "d6"], &["a1", "g7", "d1"]] {
            let pos = play(moves);
            let mv = pos.legal_moves()[3];
            book.insert(&pos, mv, 0);
        }
        let bytes = book.to_bytes();
        assert_eq!(bytes.len(), 12 + 3 * RECORD);
        let back = Book::from_bytes(&bytes, "t").unwrap();
        assert_eq!(back.len(), 3);
        for moves in [&["d2"][..], &["d2", "d6"], &["a1", "g7", "d1"]] {
            let pos = play(moves);
            assert_eq!(back.get(&pos), book.get(&pos));
        }
        assert!(matches!(
            Book::from_bytes(b"BRETTBK0", "t"),
            Err(BookError::Magic(_))
        ));
        assert!(matches!(
            Book::from_bytes(&bytes[..bytes.len() - 1], "t"),
            Err(BookError::Length(_))
        ));
        let mut swapped = bytes.clone();
        swapped[12..12 + RECORD].copy_from_slice(&bytes[12 + RECORD..12 + 2 * RECORD]);
        assert!(matches!(
            Book::from_bytes(&swapped, "t"),
            Err(BookError::Unsorted(..))
        ));
    }

    #[test]
    fn the_built_in_book_reads() {
        assert_eq!(
            Book::from_bytes(BUILT_IN, "built-in").unwrap().len(),
            built_in().len()
        );
    }
}

/// How [`extend`] makes a book.
#[derive(Clone, Copy, Debug)]
pub struct BuildOptions {
    /// Every position up to this many plies after the start is held (so
    /// any opening of that length, by either side, is covered).
    pub roots_ply: u32,
    /// Further positions are those after the book's move and any reply,
    /// up to this many plies after the start.
    pub max_ply: u32,
    /// Depth of the search that proposes the moves.
    pub depth: u32,
    /// Moves the search proposes, best first; the first one the solver
    /// proves not to lose is taken.
    pub candidates: usize,
    /// Solver nodes for one proof (an unproven move is kept unproven).
    pub budget: u64,
    /// Positions worked on at the same time.
    pub threads: usize,
    /// Positions earlier than this ply (counted by the stones placed) get
    /// the search's move unproven: proofs there do not fit any budget.
    pub prove_from_ply: u32,
}

/// The book's move for `pos`: the first of the search's proposals the
/// solver proves not to lose (else any move it proves so, else the first
/// proposal unproven), with its flags and the solver nodes spent.
fn choose(
    engine: &search::Engine,
    tb: &tablebase::Tablebase,
    table: &crate::muehle::placing::PlacingTable,
    pos: &Position,
    options: &BuildOptions,
) -> (Move, u8, u64) {
    use crate::muehle::placing::PlacingSolver;
    let stop = AtomicBool::new(false);
    let result = engine.search(
        &crate::MuehleState::new(*pos),
        &[],
        search::Limits::depth(options.depth),
        options.candidates.max(2),
        &stop,
        &mut |_| {},
    );
    let mut candidates: Vec<Move> = result
        .lines
        .iter()
        .filter_map(|l| l.1.first().copied())
        .collect();
    if candidates.is_empty() {
        candidates.extend(result.best);
    }
    if candidates.is_empty() {
        candidates.push(pos.legal_moves()[0]);
    }
    candidates.truncate(options.candidates.max(1));
    let ply = 18 - u32::from(pos.in_hand(Color::White)) - u32::from(pos.in_hand(Color::Black));
    if ply < options.prove_from_ply {
        return (candidates[0], 0, 0);
    }
    let mut nodes = 0;
    let mut unproven = None;
    let prove = |m: Move, nodes: &mut u64| {
        let mut solver = PlacingSolver::new(tb, table, options.budget);
        let r = solver.keeps(pos, m, 0);
        *nodes += solver.nodes();
        r
    };
    for &m in &candidates {
        match prove(m, &mut nodes) {
            Ok(true) => return (m, PROVEN, nodes),
            Ok(false) => {}
            Err(_) => {
                // Out of budget: the others would be too.
                unproven = Some(m);
                break;
            }
        }
    }
    if let Some(m) = unproven {
        return (m, 0, nodes);
    }
    // Every proposal loses: any move that does not.
    for m in pos.legal_moves() {
        if prove(m, &mut nodes) == Ok(true) {
            return (m, PROVEN, nodes);
        }
    }
    (candidates[0], 0, nodes)
}

/// One position done by [`extend`].
#[derive(Clone, Copy, Debug)]
pub struct Step {
    /// The ply of the positions being done.
    pub ply: u32,
    /// Positions of this ply done so far, and in all.
    pub done: usize,
    /// The positions of this ply in all.
    pub total: usize,
    /// Whether the move was proven not to lose.
    pub proven: bool,
    /// Solver nodes spent on it.
    pub nodes: u64,
}

/// Give every position the options cover a move, ply by ply from `start`,
/// skipping positions the book already holds (so an interrupted build
/// resumes where it stopped). `after_each` sees the book after every new
/// position (to save it, report progress) and stops the build by returning
/// false.
pub fn extend(
    book: &mut Book,
    tb: &tablebase::Tablebase,
    table: &crate::muehle::placing::PlacingTable,
    start: &Position,
    options: &BuildOptions,
    after_each: &mut dyn FnMut(&Book, Step) -> bool,
) {
    let stop = AtomicBool::new(false);
    let placing = |p: &Position| {
        !p.is_game_over() && (p.in_hand(Color::White) > 0 || p.in_hand(Color::Black) > 0)
    };
    let mut levels: Vec<Vec<Position>> = vec![vec![*start]];
    for ply in 0..=options.max_ply {
        let ply_index = ply as usize;
        if levels.len() <= ply_index {
            levels.push(Vec::new());
        }
        let level = std::mem::take(&mut levels[ply_index]);
        let todo: Vec<Position> = level
            .iter()
            .filter(|p| placing(p) && !book.contains(p))
            .copied()
            .collect();
        let total = todo.len();
        let next_index = std::sync::atomic::AtomicUsize::new(0);
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::scope(|scope| {
            for _ in 0..options.threads.max(1) {
                let tx = tx.clone();
                let (todo, next_index, stop) = (&todo, &next_index, &stop);
                scope.spawn(move || {
                    let engine = search::Engine::new(64, 1);
                    loop {
                        let i = next_index.fetch_add(1, Ordering::Relaxed);
                        if i >= todo.len() || stop.load(Ordering::Relaxed) {
                            break;
                        }
                        let choice = choose(&engine, tb, table, &todo[i], options);
                        if tx.send((i, choice)).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(tx);
            for (done, (i, (mv, flags, nodes))) in (1..).zip(rx) {
                book.insert(&todo[i], mv, flags);
                let step = Step {
                    ply,
                    done,
                    total,
                    proven: flags & PROVEN != 0,
                    nodes,
                };
                if !stop.load(Ordering::Relaxed) && !after_each(book, step) {
                    stop.store(true, Ordering::Relaxed);
                }
            }
        });
        if stop.load(Ordering::Relaxed) {
            return;
        }
        // The next levels: every child up to `roots_ply`, then the book's
        // move and every reply.
        let mut seen: std::collections::HashSet<u64> = std::collections::HashSet::new();
        let mut next = Vec::new();
        let mut after_next = Vec::new();
        for pos in &level {
            if !placing(pos) {
                continue;
            }
            if ply < options.roots_ply {
                for m in pos.legal_moves() {
                    let mut c = *pos;
                    c.play_unchecked(m);
                    if seen.insert(key(&c).0) {
                        next.push(c);
                    }
                }
            }
            if let Some((m, _)) = book.get(pos) {
                let mut after = *pos;
                after.play_unchecked(m);
                if !placing(&after) {
                    continue;
                }
                for r in after.legal_moves() {
                    let mut c = after;
                    c.play_unchecked(r);
                    after_next.push(c);
                }
            }
        }
        let at = ply_index + 1;
        while levels.len() <= at + 1 {
            levels.push(Vec::new());
        }
        // Positions already queued for a level are kept once.
        let mut queued: std::collections::HashSet<u64> =
            levels[at].iter().map(|p| key(p).0).collect();
        for c in next {
            if queued.insert(key(&c).0) {
                levels[at].push(c);
            }
        }
        let mut queued: std::collections::HashSet<u64> =
            levels[at + 1].iter().map(|p| key(p).0).collect();
        for c in after_next {
            if queued.insert(key(&c).0) {
                levels[at + 1].push(c);
            }
        }
    }
}
