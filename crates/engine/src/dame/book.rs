//! Dame's opening book: for early positions of the four presets (`dame`,
//! `dame-fr`, `dame-100`, `international`), the best moves of a deep
//! search, best first, with their scores. Level 10 plays the first where
//! the book holds the position (switch: [`crate::book::set_enabled`],
//! engine option `Book`); the book built into brett is
//! `crates/engine/data/dame-book.bin`, made and extended by
//! `brett tablebase book --game …` (resumable: [`extend`]).
//!
//! File format (little-endian): the magic `BRETTDO1`, the number of records
//! (u32), then the records sorted by key. A record is 21 bytes: the key
//! (u64, [`key`]), [`LINES`] moves with their scores (u16 move, i16 score
//! in hundredths of a man for the side to move; the move `0xFFFF` where a
//! record holds fewer), the depth of the search (u8).
//!
//! A move is stored as its from square's bit (bits 0–5), its to square's
//! bit (bits 6–11) and, in bits 12–15, its index among the legal moves with
//! the same from and to squares ordered by the bitboard of the pieces they
//! capture (0 unless two captures share both squares).

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock, RwLock};

use dame::{Color, Move, Position, RuleSet};

const MAGIC: &[u8; 8] = b"BRETTDO1";
/// Moves a record holds.
pub const LINES: usize = 3;
const RECORD: usize = 8 + 4 * LINES + 1;
const NO_MOVE: u16 = 0xFFFF;

/// The book built into brett.
static BUILT_IN: &[u8] = include_bytes!("../../data/dame-book.bin");

pub use crate::book::BookError;

/// A book entry: up to [`LINES`] moves (encoded, see the module) with
/// their scores, best first, and the depth of the search that found them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The moves, encoded, with their scores (hundredths of a man, for the
    /// side to move), best first.
    pub moves: Vec<(u16, i16)>,
    /// The depth of the search.
    pub depth: u8,
}

/// An opening book.
#[derive(Clone, Debug, Default)]
pub struct Book {
    entries: HashMap<u64, Entry>,
}

fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The book's key of `pos`: its preset's index in [`dame::PRESETS`], the
/// side to move, and the bitboards of White's pieces, Black's pieces and
/// the kings, mixed (`None` for rules that are not a preset).
pub fn key(pos: &Position) -> Option<u64> {
    let name = pos.rules().preset_name()?;
    let preset = dame::PRESETS.iter().position(|p| *p == name)? as u64;
    let turn = u64::from(pos.turn() == Color::Black);
    let tag = mix((preset << 1) | turn);
    let kings = pos.kings(Color::White).0 | pos.kings(Color::Black).0;
    Some(mix(
        pos.pieces(Color::White).0 ^ mix(pos.pieces(Color::Black).0 ^ mix(kings ^ tag))
    ))
}

/// `mv` (legal in `pos`) in the book's encoding.
pub fn encode(pos: &Position, mv: &Move) -> u16 {
    let (from, to) = (mv.from().bit(), mv.to().bit());
    let nth = same_squares(pos, from, to)
        .iter()
        .position(|m| m.captured() == mv.captured())
        .unwrap_or(0);
    u16::from(from) | (u16::from(to) << 6) | ((nth.min(15) as u16) << 12)
}

/// The legal move of `pos` the encoding `code` names, if any.
pub fn decode(pos: &Position, code: u16) -> Option<Move> {
    if code == NO_MOVE {
        return None;
    }
    let (from, to, nth) = (
        (code & 63) as u8,
        ((code >> 6) & 63) as u8,
        usize::from(code >> 12),
    );
    same_squares(pos, from, to).get(nth).copied()
}

/// The legal moves of `pos` from the square of bit `from` to that of bit
/// `to`, ordered by the pieces they capture.
fn same_squares(pos: &Position, from: u8, to: u8) -> Vec<Move> {
    let mut moves: Vec<Move> = pos
        .strict_moves()
        .iter()
        .filter(|m| m.from().bit() == from && m.to().bit() == to)
        .copied()
        .collect();
    moves.sort_by_key(|m| m.captured().0);
    moves
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

    /// Whether the position is held.
    pub fn contains(&self, pos: &Position) -> bool {
        key(pos).is_some_and(|k| self.entries.contains_key(&k))
    }

    /// The entry of `pos`, if held.
    pub fn entry(&self, pos: &Position) -> Option<&Entry> {
        self.entries.get(&key(pos)?)
    }

    /// The held moves of `pos` that are legal there, with their scores,
    /// best first.
    pub fn moves(&self, pos: &Position) -> Vec<(Move, i16)> {
        self.entry(pos).map_or_else(Vec::new, |e| {
            e.moves
                .iter()
                .filter_map(|&(code, score)| decode(pos, code).map(|m| (m, score)))
                .collect()
        })
    }

    /// The book's move for `pos`: its best held move, if legal there.
    pub fn get(&self, pos: &Position) -> Option<Move> {
        self.moves(pos).first().map(|&(m, _)| m)
    }

    /// Hold `moves` (legal in `pos`, best first, at most [`LINES`] kept)
    /// for `pos`. Nothing is held for rules that are not a preset or
    /// without a move.
    pub fn insert(&mut self, pos: &Position, moves: &[(Move, i16)], depth: u8) {
        let Some(k) = key(pos) else { return };
        if moves.is_empty() {
            return;
        }
        let moves = moves
            .iter()
            .take(LINES)
            .map(|(m, s)| (encode(pos, m), *s))
            .collect();
        self.entries.insert(k, Entry { moves, depth });
    }

    /// Add the positions of `other` this book does not hold (books built
    /// apart, e.g. one game each on its own machine). Returns how many.
    pub fn merge(&mut self, other: &Book) -> usize {
        let before = self.entries.len();
        for (k, e) in &other.entries {
            self.entries.entry(*k).or_insert_with(|| e.clone());
        }
        self.entries.len() - before
    }

    /// Entries by key (for statistics).
    pub fn entries(&self) -> impl Iterator<Item = (u64, &Entry)> + '_ {
        self.entries.iter().map(|(&k, e)| (k, e))
    }

    /// The book in the file format.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut keys: Vec<u64> = self.entries.keys().copied().collect();
        keys.sort_unstable();
        let rests: Vec<Vec<u8>> = keys
            .iter()
            .map(|k| {
                let e = &self.entries[k];
                let mut rest = Vec::with_capacity(RECORD - 8);
                for i in 0..LINES {
                    let (code, score) = e.moves.get(i).copied().unwrap_or((NO_MOVE, 0));
                    rest.extend_from_slice(&code.to_le_bytes());
                    rest.extend_from_slice(&score.to_le_bytes());
                }
                rest.push(e.depth);
                rest
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
            let moves: Vec<(u16, i16)> = r[..4 * LINES]
                .chunks_exact(4)
                .map(|m| {
                    (
                        u16::from_le_bytes([m[0], m[1]]),
                        i16::from_le_bytes([m[2], m[3]]),
                    )
                })
                .take_while(|&(code, _)| code != NO_MOVE)
                .collect();
            if moves.is_empty() {
                return Err(BookError::BadMove(name.into(), i));
            }
            entries.insert(
                k,
                Entry {
                    moves,
                    depth: r[4 * LINES],
                },
            );
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

/// Whether `bytes` start like a Dame book file (to tell it from Mühle's).
pub fn is_dame_book(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// The book built into brett.
pub fn built_in() -> &'static Book {
    static BOOK: OnceLock<Book> = OnceLock::new();
    BOOK.get_or_init(|| Book::from_bytes(BUILT_IN, "the built-in Dame book").unwrap_or_default())
}

static INSTALLED: RwLock<Option<Arc<Book>>> = RwLock::new(None);

/// Play from `book` instead of the built-in one (`None`: the built-in one
/// again).
pub fn install(book: Option<Book>) {
    *INSTALLED.write().unwrap_or_else(|e| e.into_inner()) = book.map(Arc::new);
}

/// The book's move for `pos` in play (the installed book, else the built-in
/// one), with the book switched on.
pub fn book_move(pos: &Position) -> Option<Move> {
    if !crate::book::enabled() {
        return None;
    }
    let installed = INSTALLED.read().unwrap_or_else(|e| e.into_inner()).clone();
    match installed {
        Some(book) => book.get(pos),
        None => built_in().get(pos),
    }
}

/// How [`extend`] makes a book.
#[derive(Clone, Copy, Debug)]
pub struct BuildOptions {
    /// Every position up to this many plies after the start is held (so
    /// any opening of that length, by either side, is covered).
    pub roots_ply: u32,
    /// Further positions are those after the held moves within
    /// [`BuildOptions::margin`] of the best, up to this many plies after
    /// the start.
    pub max_ply: u32,
    /// Depth of the search.
    pub depth: u32,
    /// Moves searched and held per position (1 to [`LINES`]).
    pub lines: usize,
    /// Held moves within this many hundredths of a man of the best are
    /// followed to the next ply.
    pub margin: i32,
    /// Positions worked on at the same time.
    pub threads: usize,
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
    /// Nodes the search spent on it.
    pub nodes: u64,
}

fn score_cp(score: search::Score) -> i16 {
    match score {
        search::Score::Cp(cp) => cp.clamp(-20_000, 20_000) as i16,
        search::Score::Mate(n) if n > 0 => 30_000,
        search::Score::Mate(_) => -30_000,
    }
}

/// The best `lines` moves of `pos` by a search of `depth` (without the
/// databases), with their scores, and the nodes spent.
fn search_moves(
    engine: &search::Engine,
    pos: &Position,
    options: &BuildOptions,
) -> (Vec<(Move, i16)>, u64) {
    let stop = AtomicBool::new(false);
    let limits = search::Limits {
        no_databases: true,
        ..search::Limits::depth(options.depth)
    };
    engine.clear();
    let result = engine.search(
        &crate::DameState::new(*pos),
        &[],
        limits,
        options.lines.clamp(1, LINES),
        &stop,
        &mut |_| {},
    );
    let moves = result
        .lines
        .iter()
        .filter_map(|(s, pv)| pv.first().map(|m| (*m, score_cp(*s))))
        .collect();
    (moves, result.nodes)
}

fn open(p: &Position) -> bool {
    !p.is_game_over() && !p.strict_moves().as_slice().is_empty()
}

/// Give every position the options cover its moves, ply by ply from
/// `start`, skipping positions the book already holds (so an interrupted
/// build resumes where it stopped). A position with a single legal move is
/// not held: its move is followed. `after_each` sees the book after every
/// new position (to save it, report progress) and stops the build by
/// returning false.
pub fn extend(
    book: &mut Book,
    start: &Position,
    options: &BuildOptions,
    after_each: &mut dyn FnMut(&Book, Step) -> bool,
) {
    let stop = AtomicBool::new(false);
    let mut level: Vec<Position> = vec![*start];
    for ply in 0..=options.max_ply {
        let single = |p: &Position| p.strict_moves().as_slice().len() == 1;
        let todo: Vec<Position> = level
            .iter()
            .filter(|p| open(p) && !single(p) && !book.contains(p))
            .copied()
            .collect();
        let total = todo.len();
        let next_index = AtomicUsize::new(0);
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
                        let found = search_moves(&engine, &todo[i], options);
                        if tx.send((i, found)).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(tx);
            for (done, (i, (moves, nodes))) in (1..).zip(rx) {
                book.insert(&todo[i], &moves, options.depth.min(255) as u8);
                let step = Step {
                    ply,
                    done,
                    total,
                    nodes,
                };
                if !stop.load(Ordering::Relaxed) && !after_each(book, step) {
                    stop.store(true, Ordering::Relaxed);
                }
            }
        });
        if stop.load(Ordering::Relaxed) || ply == options.max_ply {
            return;
        }
        // The next level: every child up to `roots_ply`, then the held
        // moves within the margin of the best; a single move is followed.
        let mut seen = std::collections::HashSet::new();
        let mut next = Vec::new();
        for pos in level.iter().filter(|p| open(p)) {
            let moves: Vec<Move> = if ply < options.roots_ply || single(pos) {
                pos.strict_moves().as_slice().to_vec()
            } else {
                let held = book.moves(pos);
                let best = held.first().map_or(0, |&(_, s)| i32::from(s));
                held.iter()
                    .filter(|&&(_, s)| i32::from(s) >= best - options.margin)
                    .map(|&(m, _)| m)
                    .collect()
            };
            for m in moves {
                let mut c = *pos;
                c.play_unchecked(&m);
                if seen.insert(c.hash()) {
                    next.push(c);
                }
            }
        }
        level = next;
    }
}

/// The rule sets the book is made for, by preset name.
pub fn rules_of(name: &str) -> Option<RuleSet> {
    dame::PRESETS
        .contains(&name)
        .then(|| RuleSet::preset(name))
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(rules: &str, moves: &[&str]) -> Position {
        let mut p = Position::new(RuleSet::preset(rules).unwrap());
        for m in moves {
            let mv = p.parse_move(m).expect("move");
            p.play_unchecked(&mv);
        }
        p
    }

    #[test]
    fn every_legal_move_encodes_and_decodes_to_itself() {
        for (rules, moves) in [
            ("international", &["32-28", "19-23"][..]),
            ("international", &["32-28", "19-23", "28x19", "14x23"]),
            ("dame", &["c3-d4", "f6-e5"]),
            ("dame-fr", &["c3-d4", "d6-c5"]),
        ] {
            let pos = play(rules, moves);
            for m in pos.strict_moves().iter() {
                assert_eq!(decode(&pos, encode(&pos, m)), Some(*m), "{rules} {m:?}");
            }
        }
    }

    #[test]
    fn the_key_tells_rules_and_side_to_move_apart() {
        let a = Position::new(RuleSet::preset("international").unwrap());
        let b = Position::new(RuleSet::preset("dame-100").unwrap());
        assert_ne!(key(&a), key(&b));
        let mut black = a.to_setup();
        black.turn = Color::Black;
        let black = Position::from_setup(black, *a.rules()).unwrap();
        assert_ne!(key(&a), key(&black));
        let mut custom = *a.rules();
        custom.huffing = !custom.huffing;
        assert_eq!(
            key(&Position::from_setup(a.to_setup(), custom).unwrap()),
            None
        );
    }

    #[test]
    fn the_file_format_round_trips_and_refuses_damage() {
        let mut book = Book::new();
        for (rules, moves) in [
            ("international", &[][..]),
            ("international", &["32-28"]),
            ("dame", &["c3-d4"]),
        ] {
            let pos = play(rules, moves);
            let legal: Vec<Move> = pos.strict_moves().iter().copied().collect();
            book.insert(&pos, &[(legal[2], 12), (legal[0], -3)], 7);
        }
        let bytes = book.to_bytes();
        assert_eq!(bytes.len(), 12 + 3 * RECORD);
        let back = Book::from_bytes(&bytes, "t").unwrap();
        assert_eq!(back.len(), 3);
        for (rules, moves) in [
            ("international", &[][..]),
            ("international", &["32-28"]),
            ("dame", &["c3-d4"]),
        ] {
            let pos = play(rules, moves);
            assert_eq!(back.moves(&pos), book.moves(&pos));
            assert_eq!(back.moves(&pos).len(), 2);
            assert_eq!(back.entry(&pos).unwrap().depth, 7);
        }
        assert!(matches!(
            Book::from_bytes(b"BRETTBK1\0\0\0\0", "t"),
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
        // Merging adds what is not held and keeps what is.
        let mut other = Book::new();
        let pos = play("international", &[]);
        let legal: Vec<Move> = pos.strict_moves().iter().copied().collect();
        other.insert(&pos, &[(legal[0], 99)], 9);
        let fresh = play("dame-100", &[]);
        let legal: Vec<Move> = fresh.strict_moves().iter().copied().collect();
        other.insert(&fresh, &[(legal[1], 1)], 9);
        let mut merged = back.clone();
        assert_eq!(merged.merge(&other), 1);
        assert_eq!(merged.len(), 4);
        assert_eq!(merged.moves(&pos), book.moves(&pos));
        assert_eq!(merged.moves(&fresh), other.moves(&fresh));
        let mut empty = bytes.clone();
        for b in &mut empty[12 + 8..12 + 8 + 4 * LINES] {
            *b = 0xFF;
        }
        assert!(matches!(
            Book::from_bytes(&empty, "t"),
            Err(BookError::BadMove(..))
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
