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

use std::sync::atomic::AtomicBool;

use muehle::{Color, Move, Position, Symmetry};
use tablebase::Variant;

use crate::book::{Record, Records, Shelf};

/// Flag: the move is proven not to lose (the position after it is at
/// best a draw for the opponent).
pub const PROVEN: u8 = 1;

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

impl Record for Entry {
    const MAGIC: &'static [u8; 8] = b"BRETTBK1";
    const SIZE: usize = 3;

    fn write_to(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.mv.to_u16().to_le_bytes());
        out.push(self.flags);
    }

    fn read_from(r: &[u8]) -> Option<Entry> {
        let mv = Move::from_u16(u16::from_le_bytes([r[0], r[1]]))?;
        Some(Entry { mv, flags: r[2] })
    }
}

pub use crate::book::BookError;

/// An opening book: entries by the key of their position's symmetry class
/// ([`key`]).
pub type Book = Records<Entry>;

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

impl Records<Entry> {
    /// Whether the position's class is held.
    pub fn contains(&self, pos: &Position) -> bool {
        self.by_key(key(pos).0).is_some()
    }

    /// The book's move for `pos` (mapped to `pos`'s orientation) and its
    /// flags, if the book holds the position and the move is legal there.
    pub fn get(&self, pos: &Position) -> Option<(Move, u8)> {
        let (k, sym) = key(pos);
        let e = self.by_key(k)?;
        let mv = sym.inverse().apply_move(e.mv);
        pos.is_legal(mv).then_some((mv, e.flags))
    }

    /// Hold `mv` (legal in `pos`) for `pos`'s class.
    pub fn insert(&mut self, pos: &Position, mv: Move, flags: u8) {
        let (k, sym) = key(pos);
        self.put(
            k,
            Entry {
                mv: sym.apply_move(mv),
                flags,
            },
        );
    }
}

/// The book built into brett.
const BUILT_IN: &[u8] = include_bytes!("../../data/muehle-book.bin");

/// The book built in and the one installed.
static SHELF: Shelf<Entry> = Shelf::new(BUILT_IN, "the built-in book");

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
/// one): standard removal and flying rules, placing phase, book switched on.
pub fn book_move(pos: &Position) -> Option<Move> {
    if Variant::for_rules(pos.rules()) != Some(Variant::STANDARD)
        || (pos.in_hand(Color::White) == 0 && pos.in_hand(Color::Black) == 0)
    {
        return None;
    }
    SHELF.in_play(|book| book.get(pos).map(|(m, _)| m))
}

#[cfg(test)]
mod tests {
    use super::*;
    use muehle::RuleSet;

    const RECORD: usize = 8 + <Entry as Record>::SIZE;

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
    fn the_file_format_round_trips_and_is_told_from_the_other_games() {
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
        // Damage is refused by the container (crate::book's tests); a
        // Dame book is not read as Mühle's.
        let dame = crate::dame::book::Book::new().to_bytes();
        assert!(matches!(
            Book::from_bytes(&dame, "t"),
            Err(BookError::Magic(_))
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

/// The book's move for `pos`: `preferred` (the move played there in a
/// game) if the solver proves it not to lose, else the first of the
/// search's proposals the solver proves so (else any move it proves so,
/// else the first proposal unproven), with its flags and the solver nodes
/// spent.
fn choose(
    engine: &search::Engine,
    tb: &tablebase::Tablebase,
    table: &crate::muehle::placing::PlacingTable,
    pos: &Position,
    preferred: Option<Move>,
    options: &BuildOptions,
) -> (Move, u8, u64) {
    use crate::muehle::placing::PlacingSolver;
    let ply = 18 - u32::from(pos.in_hand(Color::White)) - u32::from(pos.in_hand(Color::Black));
    let mut nodes = 0;
    let prove = |m: Move, nodes: &mut u64| {
        let mut solver = PlacingSolver::new(tb, table, options.budget);
        let r = solver.keeps(pos, m, 0);
        *nodes += solver.nodes();
        r
    };
    if let Some(m) = preferred
        && ply >= options.prove_from_ply
        && pos.is_legal(m)
        && prove(m, &mut nodes) == Ok(true)
    {
        return (m, PROVEN, nodes);
    }
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
    if ply < options.prove_from_ply {
        return (candidates[0], 0, 0);
    }
    let mut unproven = None;
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
        let stopped = hold(
            book,
            &todo,
            options.threads,
            |engine, pos| choose(engine, tb, table, pos, None, options),
            |pos| (pos, ply),
            after_each,
        );
        if stopped {
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

/// Give each position of `played` (a position and the move played there,
/// from games) a move: the move played if the solver proves it not to
/// lose (so the book follows the lines that were played), else as
/// [`extend`] does. Positions the book holds and those out of the placing
/// phase are skipped; the rest are done in the order of their ply.
/// `after_each` is as for [`extend`].
pub fn add_played(
    book: &mut Book,
    tb: &tablebase::Tablebase,
    table: &crate::muehle::placing::PlacingTable,
    played: &[(Position, Move)],
    options: &BuildOptions,
    after_each: &mut dyn FnMut(&Book, Step) -> bool,
) {
    let ply_of =
        |p: &Position| 18 - u32::from(p.in_hand(Color::White)) - u32::from(p.in_hand(Color::Black));
    let mut seen = std::collections::HashSet::new();
    let mut todo: Vec<(Position, Move)> = played
        .iter()
        .filter(|(p, _)| {
            !p.is_game_over()
                && (p.in_hand(Color::White) > 0 || p.in_hand(Color::Black) > 0)
                && Variant::for_rules(p.rules()) == Some(Variant::STANDARD)
                && !book.contains(p)
                && seen.insert(key(p).0)
        })
        .copied()
        .collect();
    todo.sort_by_key(|(p, _)| ply_of(p));
    hold(
        book,
        &todo,
        options.threads,
        |engine, (pos, played)| choose(engine, tb, table, pos, Some(*played), options),
        |(pos, _)| (pos, ply_of(pos)),
        after_each,
    );
}

/// Work on `todo` (the positions, by `at`, with the ply to report) with
/// `threads` threads, each finding its move with `work`, and hold each
/// move in `book` as it comes; `after_each` sees the book after each and
/// stops the work by returning false. Returns whether it was stopped.
fn hold<T: Sync>(
    book: &mut Book,
    todo: &[T],
    threads: usize,
    work: impl Fn(&search::Engine, &T) -> (Move, u8, u64) + Sync,
    at: impl Fn(&T) -> (&Position, u32),
    after_each: &mut dyn FnMut(&Book, Step) -> bool,
) -> bool {
    let total = todo.len();
    let mut going = true;
    crate::book::work_on(todo, threads, work, &mut |i, done, (mv, flags, nodes)| {
        let (pos, ply) = at(&todo[i]);
        book.insert(pos, mv, flags);
        going = going
            && after_each(
                book,
                Step {
                    ply,
                    done,
                    total,
                    proven: flags & PROVEN != 0,
                    nodes,
                },
            );
        going
    })
}
