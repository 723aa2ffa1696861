//! Pattern weights of Mühle's evaluation: a value for every way the stones
//! can stand on one side of the board and on one ring, learnt from the
//! perfect-play databases.
//!
//! A *side* is the nine points of one side of the board, three on each
//! ring: the top side is a7 d7 g7, b6 d6 f6, c5 d5 e5 (its three mills and
//! the line d7–d6–d5). The four sides overlap at the corners and turn into
//! each other by the board's quarter turns, so one table serves all four:
//! each side is read in the same order after turning it to the top. A
//! pattern's index counts each point in base 3 (0 empty, 1 the side to
//! move, 2 the opponent), so a side table has 3⁹ = 19,683 entries.
//!
//! A *ring* is the eight points of one square (its four mills around the
//! square), read clockwise from its top-left corner: 3⁸ = 6,561 entries. The
//! outer and the inner square turn into each other by the board's
//! inside-out symmetry, so they share a table; the middle square (joined to
//! both) has its own. The rings see what stretches over the corners, where
//! the sides are cut: a square hemmed in all round, a mill that can be
//! opened on one side and closed on the other.
//!
//! Each kind of table comes twice: for the moving phase (no stone in hand on
//! either side) and for placing. The values are in hundredths of a stone
//! for the side to move and are added to the linear terms
//! ([`crate::eval`]); they are fitted together with the linear weights
//! (`brett tune --labels FILE --patterns OUT`, docs/ENGINE.md) and read from
//! `crates/muehle/data/patterns.bin` (little-endian `i16`: the two side
//! tables, then the ring tables, [`ENTRIES`] in all). A board with diagonal
//! lines has no patterns.

use crate::{Bitboard, Position};

/// Entries of one side table: 3⁹.
pub const PATTERNS: usize = 19_683;
/// Sides of the board.
pub const SIDES: usize = 4;
/// Phases, each with its own tables: moving phase, placing.
pub const TABLES: usize = 2;
/// Entries of one ring table: 3⁸.
pub const RING_PATTERNS: usize = 6_561;
/// Rings (squares) of the board: outer, middle, inner.
pub const RINGS: usize = 3;
/// Ring tables per phase: the outer and inner ring's, the middle ring's.
pub const RING_KINDS: usize = 2;
/// Where the ring tables start among all values.
pub const RING_START: usize = TABLES * PATTERNS;
/// All values: the side tables, then the ring tables.
pub const ENTRIES: usize = RING_START + TABLES * RING_KINDS * RING_PATTERNS;
/// Pattern entries read per position: one per side and one per ring.
pub const REGIONS: usize = SIDES + RINGS;

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

/// The pattern index of each ring (outer, middle, inner) for the side to
/// move of `pos`: its eight points in base 3, clockwise from the top-left
/// corner.
#[inline]
pub fn ring_indices(pos: &Position) -> [u16; RINGS] {
    let us = pos.turn();
    let (own, opp) = (pos.stones(us).0, pos.stones(us.other()).0);
    let mut out = [0u16; RINGS];
    for (r, slot) in out.iter_mut().enumerate() {
        let a = ((own >> (8 * r)) & 0xFF) as usize;
        let b = ((opp >> (8 * r)) & 0xFF) as usize;
        *slot = BASE3[a] + 2 * BASE3[b];
    }
    out
}

/// The places of the values `pos` reads among all [`ENTRIES`]: one for each
/// side, then one for each ring.
#[inline]
pub fn entries(pos: &Position) -> [u32; REGIONS] {
    let t = table(pos);
    let mut out = [0u32; REGIONS];
    for (k, i) in indices(pos).into_iter().enumerate() {
        out[k] = (t * PATTERNS + usize::from(i)) as u32;
    }
    for (r, i) in ring_indices(pos).into_iter().enumerate() {
        let kind = usize::from(r == 1);
        out[SIDES + r] =
            (RING_START + (t * RING_KINDS + kind) * RING_PATTERNS + usize::from(i)) as u32;
    }
    out
}

/// Pattern weights: [`ENTRIES`] values, read at [`entries`].
#[derive(PartialEq, Eq)]
pub struct PatternWeights {
    /// The side tables (`table * PATTERNS + index`), then the ring tables.
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
        entries(pos)
            .iter()
            .map(|&i| i32::from(self.values[i as usize]))
            .sum()
    }
}

static RAW: [i16; ENTRIES] = boardgame::tables::decode_i16(include_bytes!("../data/patterns.bin"));

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

    /// Each ring is read clockwise from its top-left corner; the outer and
    /// inner ring share a table, the middle ring has its own, in each phase.
    #[test]
    fn the_rings_are_read_clockwise_from_the_top_left() {
        let pos: Position = "W.B/.WB/W.B/BW..WB/.W./B.W/... w 0 0 12 20"
            .parse()
            .unwrap();
        let rings = [
            ["a7", "d7", "g7", "g4", "g1", "d1", "a1", "a4"],
            ["b6", "d6", "f6", "f4", "f2", "d2", "b2", "b4"],
            ["c5", "d5", "e5", "e4", "e3", "d3", "c3", "c4"],
        ];
        let idx = ring_indices(&pos);
        for (r, points) in rings.iter().enumerate() {
            let mut nine = [points[0]; 9];
            nine[..8].copy_from_slice(points);
            // The ninth point of `index_by_points` stands for 3⁸: leave it
            // out by reading a point twice and taking the rest.
            let full = index_by_points(&pos, nine);
            let ninth = full / 6561;
            assert_eq!(idx[r], full - ninth * 6561, "ring {r}");
        }
        let e = entries(&pos);
        assert_eq!(table(&pos), 0);
        assert_eq!(e[SIDES] as usize, RING_START + usize::from(idx[0]));
        assert_eq!(
            e[SIDES + 1] as usize,
            RING_START + RING_PATTERNS + usize::from(idx[1])
        );
        assert_eq!(e[SIDES + 2] as usize, RING_START + usize::from(idx[2]));
        let placing = Position::new(RuleSet::STANDARD);
        assert_eq!(
            entries(&placing)[SIDES + 1] as usize,
            RING_START + 3 * RING_PATTERNS
        );
        assert!(e.iter().all(|&i| (i as usize) < ENTRIES));
    }

    /// The table in use has the right size and the start position (an
    /// empty board) is read from the placing table.
    #[test]
    fn the_table_in_use_is_complete() {
        assert_eq!(PATTERNS_IN_USE.values.len(), ENTRIES);
        let start = Position::new(RuleSet::STANDARD);
        assert_eq!(table(&start), 1);
        assert_eq!(indices(&start), [0; SIDES]);
    }
}
