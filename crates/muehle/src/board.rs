//! The board as data: the points, the lines that make mills, the stones each
//! side brings and when a side flies. Everything else follows from it at
//! compile time: the adjacency (neighbouring points of a line), each point's
//! mill partners, and the masks the move generator's bit operations use.
//!
//! All boards of the mill family played here have the 24 points of three
//! concentric squares ([`Square`]). Their lines are sides of a square
//! (`a7 d7 g7`) or run across the squares from a point of the outer one to
//! the same point of the inner one (`d7 d6 d5`, and on the board with
//! diagonals `a7 b6 c5`). [`Board::new`] checks that at compile time.

use std::fmt;

use crate::bitboard::{FULL, Geometry};
use crate::{Bitboard, Square};

/// Most lines a board of 24 points can have here: 12 sides and 8 lines across.
pub const MAX_LINES: usize = 20;

/// A board of the mill family: the lines that make mills, the stones per side
/// and when a side flies. The three boards played are [`Board::NINE`],
/// [`Board::TWELVE`] and [`Board::LASKER`].
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    name: &'static str,
    lines: [[Square; 3]; MAX_LINES],
    line_count: usize,
    stones: u8,
    fly_at: u8,
    adjacent: [u32; 24],
    partners: [[u32; 3]; 24],
    partner_count: [u8; 24],
    geometry: Geometry,
}

/// The sixteen lines of the standard board (RULES.md Part 1).
const SIDES_AND_MIDDLES: [[&str; 3]; 16] = [
    ["a7", "d7", "g7"],
    ["b6", "d6", "f6"],
    ["c5", "d5", "e5"],
    ["a4", "b4", "c4"],
    ["e4", "f4", "g4"],
    ["c3", "d3", "e3"],
    ["b2", "d2", "f2"],
    ["a1", "d1", "g1"],
    ["a1", "a4", "a7"],
    ["b2", "b4", "b6"],
    ["c3", "c4", "c5"],
    ["d1", "d2", "d3"],
    ["d5", "d6", "d7"],
    ["e3", "e4", "e5"],
    ["f2", "f4", "f6"],
    ["g1", "g4", "g7"],
];

/// The four diagonals joining the corners of the squares.
const DIAGONALS: [[&str; 3]; 4] = [
    ["a7", "b6", "c5"],
    ["g7", "f6", "e5"],
    ["a1", "b2", "c3"],
    ["g1", "f2", "e3"],
];

const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The point named `name` (compile time).
const fn point(name: &str) -> Square {
    let mut i = 0;
    while i < 24 {
        let sq = Square::new_unchecked(i as u8);
        if same(sq.name(), name) {
            return sq;
        }
        i += 1;
    }
    panic!("a line names a point that is not on the board");
}

impl Board {
    /// Nine Men's Morris, the game of the box: 16 lines, nine stones each,
    /// a side with three stones flies.
    pub const NINE: Board = Board::new("nine", &[&SIDES_AND_MIDDLES], 9, 3);
    /// Twelve Men's Morris: the four diagonals joining the corners of the
    /// squares are lines too (for moving and for mills), twelve stones each.
    pub const TWELVE: Board = Board::new("twelve", &[&SIDES_AND_MIDDLES, &DIAGONALS], 12, 3);
    /// Lasker Morris: the standard lines, ten stones each.
    pub const LASKER: Board = Board::new("lasker", &[&SIDES_AND_MIDDLES], 10, 3);
    /// Every board, by [`Board::name`].
    pub const ALL: [&'static Board; 3] = [&Board::NINE, &Board::TWELVE, &Board::LASKER];

    /// A board from its lines (each three points in order along the line),
    /// the stones per side and the number of stones at which a side flies.
    /// Panics (at compile time, for the constants) if a line is not a side of
    /// a square or a line across them, or a point is on no line.
    pub const fn new(name: &'static str, groups: &[&[[&str; 3]]], stones: u8, fly_at: u8) -> Board {
        let mut lines = [[Square::new_unchecked(0); 3]; MAX_LINES];
        let mut line_count = 0;
        let mut adjacent = [0u32; 24];
        let mut across = 0u32;
        let mut sides = 0;
        let mut g = 0;
        while g < groups.len() {
            let mut l = 0;
            while l < groups[g].len() {
                let [a, b, c] = groups[g][l];
                let (a, b, c) = (point(a), point(b), point(c));
                assert!(line_count < MAX_LINES, "too many lines");
                lines[line_count] = [a, b, c];
                line_count += 1;
                adjacent[a.index()] |= 1 << b.index();
                adjacent[b.index()] |= 1 << a.index() | 1 << c.index();
                adjacent[c.index()] |= 1 << b.index();
                // The shapes the bit operations know: a side of a square
                // (corner, middle, corner of one ring) or a line across the
                // rings through the same position of each.
                let (lo, hi) = if a.index() < c.index() {
                    (a, c)
                } else {
                    (c, a)
                };
                if lo.ring() == hi.ring() {
                    assert!(
                        b.ring() == lo.ring() && !b.is_corner(),
                        "a side runs corner, middle, corner"
                    );
                    assert!(
                        (b.ring_pos() + 1) % 8 == lo.ring_pos() % 8
                            || (b.ring_pos() + 7) % 8 == lo.ring_pos() % 8,
                        "a side's points follow each other"
                    );
                    sides += 1;
                } else {
                    assert!(
                        lo.ring() == 0 && b.ring() == 1 && hi.ring() == 2,
                        "a line across runs from the outer to the inner square"
                    );
                    assert!(
                        lo.ring_pos() == b.ring_pos() && b.ring_pos() == hi.ring_pos(),
                        "a line across joins the same position of each square"
                    );
                    across |= 1 << lo.ring_pos();
                }
                l += 1;
            }
            g += 1;
        }
        // Each point's lines, as the masks of the other two points; a point
        // on fewer than three lines repeats its first (the test stays exact).
        let mut partners = [[0u32; 3]; 24];
        let mut partner_count = [0u8; 24];
        let mut sq = 0;
        while sq < 24 {
            let mut found = 0;
            let mut l = 0;
            while l < line_count {
                let m = 1u32 << lines[l][0].index()
                    | 1 << lines[l][1].index()
                    | 1 << lines[l][2].index();
                if m & (1 << sq) != 0 {
                    assert!(found < 3, "a point lies on at most three lines");
                    partners[sq][found] = m & !(1 << sq);
                    found += 1;
                }
                l += 1;
            }
            assert!(
                found >= 2,
                "every point lies on a side of its square and on one more line"
            );
            partner_count[sq] = found as u8;
            while found < 3 {
                partners[sq][found] = partners[sq][0];
                found += 1;
            }
            sq += 1;
        }
        assert!(
            sides == 12,
            "the bit operations need all twelve sides of the squares"
        );
        assert!(
            stones >= 3 && stones <= 12,
            "between 3 and 12 stones a side"
        );
        assert!(
            fly_at >= 3 && fly_at <= stones,
            "a side flies with at least three stones"
        );
        Board {
            name,
            lines,
            line_count,
            stones,
            fly_at,
            adjacent,
            partners,
            partner_count,
            geometry: Geometry::new(across | across << 8 | across << 16),
        }
    }

    /// The board's name: `nine`, `twelve` or `lasker`.
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// The board with this name.
    pub fn named(name: &str) -> Option<&'static Board> {
        Board::ALL.into_iter().find(|b| b.name == name)
    }

    /// The 24 points.
    pub const fn points(&self) -> [Square; 24] {
        Square::ALL
    }

    /// The lines that make mills, each with its three points in order.
    pub fn lines(&self) -> &[[Square; 3]] {
        &self.lines[..self.line_count]
    }

    /// Line `i` (in the order given), for `i` below the number of lines.
    pub const fn line(&self, i: usize) -> [Square; 3] {
        assert!(i < self.line_count);
        self.lines[i]
    }

    /// The lines through `sq`, each as the set of its two other points.
    pub fn mill_partners(&self, sq: Square) -> impl Iterator<Item = Bitboard> + '_ {
        self.partners[sq.index()][..usize::from(self.partner_count[sq.index()])]
            .iter()
            .map(|&m| Bitboard(m))
    }

    /// The points with four neighbours (the strongest points while placing).
    pub const fn junctions(&self) -> Bitboard {
        let mut out = 0;
        let mut sq = 0;
        while sq < 24 {
            if self.adjacent[sq].count_ones() >= 4 {
                out |= 1 << sq;
            }
            sq += 1;
        }
        Bitboard(out)
    }

    /// The mills as sets of points.
    pub fn mills(&self) -> impl Iterator<Item = Bitboard> + '_ {
        self.lines()
            .iter()
            .map(|l| l[0].bb() | l[1].bb() | l[2].bb())
    }

    /// Whether the board has the diagonals joining the corners of the squares.
    pub const fn has_diagonals(&self) -> bool {
        self.geometry.across & !crate::bitboard::MIDPOINTS != 0
    }

    /// Stones each side brings.
    pub const fn stones(&self) -> u8 {
        self.stones
    }

    /// A side with this many stones on the board (none in hand) flies, when
    /// the rules let sides fly.
    pub const fn fly_at(&self) -> u8 {
        self.fly_at
    }

    /// The points joined to `sq` by a line.
    #[inline]
    pub const fn neighbours_of(&self, sq: Square) -> Bitboard {
        Bitboard(self.adjacent[sq.index()])
    }

    /// The points joined by a line to at least one point of `set`.
    #[inline]
    pub const fn neighbours(&self, set: Bitboard) -> Bitboard {
        self.geometry.neighbours(set)
    }

    /// The points of one colour's stones `own` that stand in a closed mill.
    #[inline]
    pub const fn in_mills(&self, own: Bitboard) -> Bitboard {
        self.geometry.in_mills(own)
    }

    /// The number of closed mills of one colour's stones `own`.
    #[inline]
    pub const fn mill_count(&self, own: Bitboard) -> u32 {
        self.geometry.mill_count(own)
    }

    /// The number of slides from a point of `own` to a neighbouring point of
    /// `targets`.
    #[inline]
    pub const fn slides_to(&self, own: Bitboard, targets: Bitboard) -> u32 {
        self.geometry.slides_to(own, targets)
    }

    /// The points that would complete a mill of `own` (one colour's stones)
    /// if a stone of that colour stood there (occupied points included).
    #[inline]
    pub const fn mill_completions(&self, own: Bitboard) -> Bitboard {
        self.geometry.mill_completions(own)
    }

    /// Whether a stone of `own` (with `sq` counted in) standing on `sq` is
    /// part of a closed mill.
    #[inline]
    pub const fn closes_mill_at(&self, own: Bitboard, sq: Square) -> bool {
        let [a, b, c] = self.partners[sq.index()];
        own.0 & a == a || own.0 & b == b || own.0 & c == c
    }

    /// Whether every point holds a stone.
    #[inline]
    pub const fn is_full(&self, occupied: Bitboard) -> bool {
        occupied.0 == FULL
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({})", self.name)
    }
}

/// Random sets of points for the tests of the bit operations.
#[cfg(test)]
pub(crate) fn sample_sets() -> impl Iterator<Item = Bitboard> {
    let mut x = 0x9E37_79B9u32;
    (0..5000).map(move |_| {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        Bitboard(x & FULL)
    })
}

/// Checks that the bit operations of `board` give what its plain list of
/// lines gives, on [`sample_sets`].
#[cfg(test)]
pub(crate) fn check_bit_operations(board: &Board) {
    let mills: Vec<Bitboard> = board.mills().collect();
    for s in sample_sets() {
        let closed: Vec<Bitboard> = mills
            .iter()
            .copied()
            .filter(|&m| s.contains_all(m))
            .collect();
        assert_eq!(board.mill_count(s), closed.len() as u32, "{board:?}");
        let union = closed.iter().fold(Bitboard::EMPTY, |a, &m| a | m);
        assert_eq!(board.in_mills(s), union, "{board:?}");
        let t = s.complement();
        let slides: u32 = s.iter().map(|q| (board.neighbours_of(q) & t).count()).sum();
        assert_eq!(board.slides_to(s, t), slides, "{board:?}");
        let neigh = s
            .iter()
            .fold(Bitboard::EMPTY, |a, q| a | board.neighbours_of(q));
        assert_eq!(board.neighbours(s), neigh, "{board:?}");
        let completions: Bitboard = Square::ALL
            .into_iter()
            .filter(|&q| {
                mills
                    .iter()
                    .any(|&m| m.contains(q) && s.contains_all(m - q.bb()))
            })
            .collect();
        assert_eq!(board.mill_completions(s), completions, "{board:?}");
        for q in Square::ALL {
            let with = s | q.bb();
            let plain = mills.iter().any(|&m| m.contains(q) && with.contains_all(m));
            assert_eq!(board.closes_mill_at(with, q), plain, "{board:?} {q}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bit operations give what the plain lists of lines give, on every
    /// board.
    #[test]
    fn bit_operations_follow_from_the_lines() {
        for board in Board::ALL {
            check_bit_operations(board);
        }
    }

    #[test]
    fn the_boards_have_the_lines_and_stones_of_their_games() {
        assert_eq!(Board::NINE.lines().len(), 16);
        assert_eq!(Board::TWELVE.lines().len(), 20);
        assert_eq!(Board::LASKER.lines().len(), 16);
        assert_eq!(
            [
                Board::NINE.stones(),
                Board::TWELVE.stones(),
                Board::LASKER.stones()
            ],
            [9, 12, 10]
        );
        assert!(Board::TWELVE.has_diagonals() && !Board::NINE.has_diagonals());
        let a7: Square = "a7".parse().unwrap();
        assert_eq!(Board::NINE.neighbours_of(a7).count(), 2);
        assert_eq!(Board::TWELVE.neighbours_of(a7).count(), 3);
        let b6: Square = "b6".parse().unwrap();
        assert_eq!(Board::TWELVE.neighbours_of(b6).count(), 4);
        // The standard board's tables are the ones the plain functions use.
        for sq in Square::ALL {
            assert_eq!(Board::NINE.neighbours_of(sq), sq.neighbours());
        }
    }
}
