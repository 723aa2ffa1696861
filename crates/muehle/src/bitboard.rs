//! A set of points as a 24-bit mask.

use std::fmt;
use std::ops::Not;

use crate::Square;

/// A set of points of the board, one bit per [`Square`] index.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Bitboard(pub u32);

/// Bits of all 24 points.
pub(crate) const FULL: u32 = 0x00FF_FFFF;
/// Corners (even ring positions) in all three rings.
const CORNERS: u32 = 0x0055_5555;
/// Side midpoints (odd ring positions) in all three rings.
pub(crate) const MIDPOINTS: u32 = 0x00AA_AAAA;

/// Points in each 12-bit half of a board (the default x86-64 target has no
/// popcount instruction; two table reads are about three times cheaper
/// than the bit-twiddling `count_ones` there, and counting is on the
/// engine's hottest path).
static POP12: [u8; 4096] = {
    let mut t = [0u8; 4096];
    let mut i = 0;
    while i < 4096 {
        t[i] = (i as u32).count_ones() as u8;
        i += 1;
    }
    t
};

/// The number of set bits of `x` (a set of points, 24 bits).
#[inline]
const fn pop(x: u32) -> u32 {
    if x >> 24 == 0 {
        POP12[(x & 0xFFF) as usize] as u32 + POP12[(x >> 12) as usize] as u32
    } else {
        x.count_ones()
    }
}

impl Bitboard {
    /// No points.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 24 points.
    pub const FULL: Bitboard = Bitboard(FULL);
    /// The 12 corner points.
    pub const CORNERS: Bitboard = Bitboard(CORNERS);
    /// The 12 side midpoints.
    pub const MIDPOINTS: Bitboard = Bitboard(MIDPOINTS);

    /// Number of points in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        pop(self.0)
    }

    boardgame::bitboard_queries!(Square, sq => sq.index());

    /// The lowest-index point, if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new_unchecked(self.0.trailing_zeros() as u8))
        }
    }

    /// The complement within the 24 points.
    #[inline]
    pub const fn complement(self) -> Bitboard {
        Bitboard(!self.0 & FULL)
    }

    /// Rotate every ring by `n` positions clockwise (`n` in 0..8), all three
    /// rings at once. `n = 2` is a quarter turn of the board.
    #[inline]
    pub const fn rotate_rings(self, n: u32) -> Bitboard {
        let n = n % 8;
        if n == 0 {
            return self;
        }
        let hi = (0xFFu32 << n) & 0xFF;
        let lo = 0xFFu32 >> (8 - n);
        let hi = hi | hi << 8 | hi << 16;
        let lo = lo | lo << 8 | lo << 16;
        Bitboard(((self.0 << n) & hi) | ((self.0 >> (8 - n)) & lo))
    }

    /// The points of this colour's stones that stand in a closed mill, given
    /// that `self` is the set of one colour's stones (standard board; see
    /// [`crate::Board`] for the others).
    #[inline]
    pub const fn in_mills(self) -> Bitboard {
        Geometry::STANDARD.in_mills(self)
    }

    /// The number of closed mills of this set (one colour's stones, standard board).
    #[inline]
    pub const fn mill_count(self) -> u32 {
        Geometry::STANDARD.mill_count(self)
    }

    /// The number of slides from a point of this set to a neighbouring
    /// point of `targets` (standard board).
    #[inline]
    pub const fn slides_to(self, targets: Bitboard) -> u32 {
        Geometry::STANDARD.slides_to(self, targets)
    }

    /// The points that would complete a mill of `self` (one colour's stones)
    /// if a stone of that colour stood there (standard board). Occupied
    /// points are included; intersect with the empty points for placements.
    #[inline]
    pub const fn mill_completions(self) -> Bitboard {
        Geometry::STANDARD.mill_completions(self)
    }

    /// Whether a stone of this set's colour standing on `sq` is part of a
    /// closed mill (the set is that colour's stones, with `sq` counted in;
    /// standard board).
    #[inline]
    pub const fn closes_mill_at(self, sq: Square) -> bool {
        crate::Board::NINE.closes_mill_at(self, sq)
    }

    /// The points joined by a line to at least one point of the set
    /// (standard board).
    #[inline]
    pub const fn neighbours(self) -> Bitboard {
        Geometry::STANDARD.neighbours(self)
    }

    /// Iterate over the points in index order.
    #[inline]
    pub fn iter(self) -> BitboardIter {
        BitboardIter(self.0)
    }
}

/// The bit operations of a board of three concentric squares whose sides
/// are all lines: `across` holds the points (the same positions in every
/// ring) through which a line runs across the squares. The standard board
/// has them at the side midpoints; the board with diagonals at every point.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Geometry {
    pub(crate) across: u32,
}

impl Geometry {
    pub(crate) const STANDARD: Geometry = Geometry::new(MIDPOINTS);

    pub(crate) const fn new(across: u32) -> Geometry {
        Geometry { across }
    }

    #[inline]
    pub(crate) const fn in_mills(self, set: Bitboard) -> Bitboard {
        let o = set.0;
        // Ring mills start at a corner k and cover k, k+1, k+2.
        let r1 = Bitboard(o).rotate_rings(7).0; // bit k set if k+1 occupied
        let r2 = Bitboard(o).rotate_rings(6).0; // bit k set if k+2 occupied
        let start = o & r1 & r2 & CORNERS;
        let ring = start | Bitboard(start).rotate_rings(1).0 | Bitboard(start).rotate_rings(2).0;
        // Mills across the three rings.
        let cross = o & (o >> 8) & (o >> 16) & self.across & 0xFF;
        let cross = cross | cross << 8 | cross << 16;
        Bitboard(ring | cross)
    }

    #[inline]
    pub(crate) const fn mill_count(self, set: Bitboard) -> u32 {
        let o = set.0;
        let r1 = Bitboard(o).rotate_rings(7).0;
        let r2 = Bitboard(o).rotate_rings(6).0;
        let ring = o & r1 & r2 & CORNERS;
        let cross = o & (o >> 8) & (o >> 16) & self.across & 0xFF;
        pop(ring) + pop(cross)
    }

    #[inline]
    pub(crate) const fn slides_to(self, set: Bitboard, targets: Bitboard) -> u32 {
        let o = set.0;
        let e = targets.0;
        let along = pop(o & Bitboard(e).rotate_rings(7).0) + pop(o & Bitboard(e).rotate_rings(1).0);
        let mid = o & self.across;
        let across = pop(mid & (e >> 8)) + pop(mid & (e << 8) & FULL);
        along + across
    }

    #[inline]
    pub(crate) const fn mill_completions(self, set: Bitboard) -> Bitboard {
        let o = set.0;
        let prev1 = Bitboard(o).rotate_rings(1).0; // bit k: k-1 occupied
        let prev2 = Bitboard(o).rotate_rings(2).0; // bit k: k-2 occupied
        let next1 = Bitboard(o).rotate_rings(7).0; // bit k: k+1 occupied
        let next2 = Bitboard(o).rotate_rings(6).0; // bit k: k+2 occupied
        let mid = prev1 & next1 & MIDPOINTS;
        let corner = ((next1 & next2) | (prev1 & prev2)) & CORNERS;
        let b0 = o & 0xFF;
        let b1 = (o >> 8) & 0xFF;
        let b2 = (o >> 16) & 0xFF;
        let cross = ((b1 & b2) | ((b0 & b2) << 8) | ((b0 & b1) << 16)) & self.across;
        Bitboard(mid | corner | cross)
    }

    #[inline]
    pub(crate) const fn neighbours(self, set: Bitboard) -> Bitboard {
        let o = set.0;
        let ring = Bitboard(o).rotate_rings(1).0 | Bitboard(o).rotate_rings(7).0;
        let mid = o & self.across;
        let cross = ((mid << 8) | (mid >> 8)) & self.across;
        Bitboard(ring | cross)
    }
}

/// Iterator over the points of a [`Bitboard`].
#[derive(Clone)]
pub struct BitboardIter(u32);

impl Iterator for BitboardIter {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = Square::new_unchecked(self.0.trailing_zeros() as u8);
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for BitboardIter {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = BitboardIter;
    fn into_iter(self) -> BitboardIter {
        self.iter()
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter()
            .fold(Bitboard::EMPTY, |bb, sq| bb | sq.bb())
    }
}

impl From<Square> for Bitboard {
    fn from(sq: Square) -> Bitboard {
        sq.bb()
    }
}

boardgame::bitboard_ops!(Bitboard);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        self.complement()
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// The 16 mills (lines of three points) as bitboards.
pub const MILLS: [Bitboard; 16] = {
    let mut out = [Bitboard(0); 16];
    let mut i = 0;
    while i < 16 {
        let [a, b, c] = crate::Board::NINE.line(i);
        out[i] = Bitboard(a.bb().0 | b.bb().0 | c.bb().0);
        i += 1;
    }
    out
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Board;
    use crate::board::{check_bit_operations, sample_sets};

    #[test]
    fn bit_tricks_agree_with_plain_loops() {
        // The standard board's operations against its plain list of
        // lines, and the set's own shortcuts are the standard board's.
        check_bit_operations(&Board::NINE);
        assert_eq!(MILLS.len(), Board::NINE.lines().len());
        for s in sample_sets() {
            let t = s.complement();
            assert_eq!(s.mill_count(), Board::NINE.mill_count(s));
            assert_eq!(s.in_mills(), Board::NINE.in_mills(s));
            assert_eq!(s.slides_to(t), Board::NINE.slides_to(s, t));
            assert_eq!(s.neighbours(), Board::NINE.neighbours(s));
            assert_eq!(s.mill_completions(), Board::NINE.mill_completions(s));
            assert!(MILLS.iter().all(|m| Board::NINE.mills().any(|n| n == *m)));
        }
    }
}
