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

use std::sync::atomic::AtomicBool;

use dame::{Color, Move, Position, RuleSet};

use crate::book::{Record, Records, Shelf};

const MAGIC: &[u8; 8] = b"BRETTDO1";
/// Moves a record holds.
pub const LINES: usize = 3;
const NO_MOVE: u16 = 0xFFFF;

/// The book built into brett.
const BUILT_IN: &[u8] = include_bytes!("../../data/dame-book.bin");

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

impl Record for Entry {
    const MAGIC: &'static [u8; 8] = MAGIC;
    const SIZE: usize = 4 * LINES + 1;

    fn write_to(&self, out: &mut Vec<u8>) {
        for i in 0..LINES {
            let (code, score) = self.moves.get(i).copied().unwrap_or((NO_MOVE, 0));
            out.extend_from_slice(&code.to_le_bytes());
            out.extend_from_slice(&score.to_le_bytes());
        }
        out.push(self.depth);
    }

    fn read_from(r: &[u8]) -> Option<Entry> {
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
        (!moves.is_empty()).then_some(Entry {
            moves,
            depth: r[4 * LINES],
        })
    }
}

/// An opening book: entries by the key of their position ([`key`]).
pub type Book = Records<Entry>;

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

impl Records<Entry> {
    /// Whether the position is held.
    pub fn contains(&self, pos: &Position) -> bool {
        self.entry(pos).is_some()
    }

    /// The entry of `pos`, if held.
    pub fn entry(&self, pos: &Position) -> Option<&Entry> {
        self.by_key(key(pos)?)
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
        self.put(k, Entry { moves, depth });
    }
}

/// Whether `bytes` start like a Dame book file (to tell it from Mühle's).
pub fn is_dame_book(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// The book built in and the one installed.
static SHELF: Shelf<Entry> = Shelf::new(BUILT_IN, "the built-in Dame book");

/// The book built into brett.
pub fn built_in() -> &'static Book {
    SHELF.built_in()
}

/// Play from `book` instead of the built-in one (`None`: the built-in one
/// again).
pub fn install(book: Option<Book>) {
    SHELF.install(book);
}

/// The book's move for `pos` in play (the installed book, else the built-in
/// one), with the book switched on.
pub fn book_move(pos: &Position) -> Option<Move> {
    SHELF.in_play(|book| book.get(pos))
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
    let mut level: Vec<Position> = vec![*start];
    for ply in 0..=options.max_ply {
        let single = |p: &Position| p.strict_moves().as_slice().len() == 1;
        let todo: Vec<Position> = level
            .iter()
            .filter(|p| open(p) && !single(p) && !book.contains(p))
            .copied()
            .collect();
        let total = todo.len();
        let mut going = true;
        let stopped = crate::book::work_on(
            &todo,
            options.threads,
            |engine, pos| search_moves(engine, pos, options),
            &mut |i, done, (moves, nodes): (Vec<(Move, i16)>, u64)| {
                book.insert(&todo[i], &moves, options.depth.min(255) as u8);
                let step = Step {
                    ply,
                    done,
                    total,
                    nodes,
                };
                going = going && after_each(book, step);
                going
            },
        );
        if stopped || ply == options.max_ply {
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

    const RECORD: usize = 8 + <Entry as Record>::SIZE;

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
    fn the_file_format_round_trips_and_is_told_from_the_other_games() {
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
        // Damage is refused by the container (crate::book's tests); a
        // Mühle book is not read as Dame's.
        assert!(matches!(
            Book::from_bytes(&crate::muehle::book::Book::new().to_bytes(), "t"),
            Err(BookError::Magic(_))
        ));
        // A record whose moves are all "no move" holds nothing.
        assert_eq!(Entry::read_from(&[0xFF; 4 * LINES + 1]), None);
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
        assert_eq!(merged.moves(&pos), book.moves(&pos));
        assert_eq!(merged.moves(&fresh), other.moves(&fresh));
    }

    #[test]
    fn the_built_in_book_reads() {
        assert_eq!(
            Book::from_bytes(BUILT_IN, "built-in").unwrap().len(),
            built_in().len()
        );
    }
}
