//! Pattern weights of Mühle's evaluation: a value for every way the stones
//! can stand on one side of the board, learnt from the perfect-play
//! databases.
//!
//! A *side* is the nine points of one side of the board, three on each
//! ring: the top side is a7 d7 g7, b6 d6 f6, c5 d5 e5 (its three mills and
//! the line d7–d6–d5). The four sides overlap at the corners and turn into
//! each other by the board's quarter turns, so one table serves all four:
//! each side is read in the same order after turning it to the top. A
//! pattern's index counts each point in base 3 (0 empty, 1 the side to
//! move, 2 the opponent), so a table has 3⁹ = 19,683 entries.
//!
//! Two tables: one for the moving phase (no stone in hand on either side)
//! and one for placing. The values are in hundredths of a stone for the
//! side to move and are added to the linear terms ([`crate::eval`]); they
//! are fitted together with the linear weights (`brett tune --labels FILE
//! --patterns OUT`, docs/ENGINE.md) and read from
//! `crates/muehle/data/patterns.bin` (the two tables one after the other,
//! little-endian `i16`). A board with diagonal lines has no patterns.

use crate::{Bitboard, Position};

/// Entries of one table: 3⁹.
pub const PATTERNS: usize = 19_683;
/// Sides of the board (regions read per position).
pub const SIDES: usize = 4;
/// Tables: moving phase, placing.
pub const TABLES: usize = 2;

/// The base-3 value of each 9-bit set of points (bit `j` counts `3^j`).
const BASE3: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut m = 0;
    while m < 512 {
        let (mut v, mut p, mut j) = (0u16, 1u16, 0);
        while j < 9 {
            if m & (1 << j) != 0 {
                v += p;
            }
            p *= 3;
            j += 1;
        }
        t[m] = v;
        m += 1;
    }
    t
};

/// The nine points of side `k` (0 top, 1 right, 2 bottom, 3 left) of
/// `set`, turned to the top: bits 0–2 the outer ring from left to right,
/// 3–5 the middle ring, 6–8 the inner ring.
#[inline(always)]
fn side_bits(set: Bitboard, k: u32) -> usize {
    let b = set.0;
    let mut out = 0usize;
    for ring in 0..3 {
        let byte = ((b >> (8 * ring)) & 0xFF) as u8;
        out |= usize::from(byte.rotate_right(2 * k) & 7) << (3 * ring);
    }
    out
}

/// The pattern index of each side for the side to move of `pos`.
#[inline]
pub fn indices(pos: &Position) -> [u16; SIDES] {
    let us = pos.turn();
    let (own, opp) = (pos.stones(us), pos.stones(us.other()));
    let mut out = [0u16; SIDES];
    for (k, slot) in out.iter_mut().enumerate() {
        let k = k as u32;
        *slot = BASE3[side_bits(own, k)] + 2 * BASE3[side_bits(opp, k)];
    }
    out
}

/// The table `pos` is read with: 0 in the moving phase (no stone in hand
/// on either side), 1 while placing.
#[inline]
pub fn table(pos: &Position) -> usize {
    usize::from(pos.in_hand(crate::Color::White) + pos.in_hand(crate::Color::Black) > 0)
}

/// Pattern weights: `TABLES` tables of [`PATTERNS`] values.
#[derive(PartialEq, Eq)]
pub struct PatternWeights {
    /// `table * PATTERNS + index`.
    pub values: &'static [i16],
}

impl std::fmt::Debug for PatternWeights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let used = self.values.iter().filter(|&&x| x != 0).count();
        write!(
            f,
            "PatternWeights({} entries, {used} used)",
            self.values.len()
        )
    }
}

impl PatternWeights {
    /// The pattern part of the evaluation of `pos` for the side to move
    /// (0 on a board with diagonals).
    #[inline]
    pub fn score(&self, pos: &Position) -> i32 {
        if pos.board().has_diagonals() {
            return 0;
        }
        let base = table(pos) * PATTERNS;
        indices(pos)
            .iter()
            .map(|&i| i32::from(self.values[base + usize::from(i)]))
            .sum()
    }
}

static RAW: [i16; TABLES * PATTERNS] =
    boardgame::tables::decode_i16(include_bytes!("../data/patterns.bin"));

/// The pattern weights in use (`crates/muehle/data/patterns.bin`).
pub static PATTERNS_IN_USE: PatternWeights = PatternWeights { values: &RAW };

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{RuleSet, Square};

    fn index_by_points(pos: &Position, points: [&str; 9]) -> u16 {
        let us = pos.turn();
        let mut idx = 0u16;
        for name in points.iter().rev() {
            let sq: Square = name.parse().unwrap();
            let d = if pos.stones(us).contains(sq) {
                1
            } else if pos.stones(us.other()).contains(sq) {
                2
            } else {
                0
            };
            idx = idx * 3 + d;
        }
        idx
    }

    /// Each side is read in the order of the top side turned onto it.
    #[test]
    fn the_four_sides_are_read_turned_to_the_top() {
        let pos: Position = "W.B/.WB/W.B/BW..WB/.W./B.W/... w 0 0 12 20"
            .parse()
            .unwrap();
        let sides = [
            ["a7", "d7", "g7", "b6", "d6", "f6", "c5", "d5", "e5"],
            ["g7", "g4", "g1", "f6", "f4", "f2", "e5", "e4", "e3"],
            ["g1", "d1", "a1", "f2", "d2", "b2", "e3", "d3", "c3"],
            ["a1", "a4", "a7", "b2", "b4", "b6", "c3", "c4", "c5"],
        ];
        let idx = indices(&pos);
        for (k, points) in sides.iter().enumerate() {
            assert_eq!(idx[k], index_by_points(&pos, *points), "side {k}");
        }
        assert!(idx.iter().all(|&i| usize::from(i) < PATTERNS));
    }

    /// The table in use has the right size and the start position (an
    /// empty board) is read from the placing table.
    #[test]
    fn the_table_in_use_is_complete() {
        assert_eq!(PATTERNS_IN_USE.values.len(), TABLES * PATTERNS);
        let start = Position::new(RuleSet::STANDARD);
        assert_eq!(table(&start), 1);
        assert_eq!(indices(&start), [0; SIDES]);
    }
}
