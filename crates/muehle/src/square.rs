//! The 24 points of the Mühle board.
//!
//! Points are numbered ring by ring: ring 0 is the outer square, ring 1 the
//! middle one, ring 2 the inner one. Within a ring, position `k` runs
//! clockwise from the top-left corner: 0 top-left, 1 top-middle, 2 top-right,
//! 3 right-middle, 4 bottom-right, 5 bottom-middle, 6 bottom-left, 7 left-middle.
//! Even `k` are corners, odd `k` are side midpoints (the points joined to the
//! neighbouring rings). This layout makes rotations and reflections of the
//! board cheap bit operations (see [`crate::symmetry`]).

use std::fmt;
use std::str::FromStr;

use crate::Bitboard;

/// One of the 24 points, named like a chess square (`a1` … `g7`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Square(u8);

/// The names of the points in index order.
#[rustfmt::skip]
const NAMES: [&str; 24] = [
    "a7", "d7", "g7", "g4", "g1", "d1", "a1", "a4", // outer ring
    "b6", "d6", "f6", "f4", "f2", "d2", "b2", "b4", // middle ring
    "c5", "d5", "e5", "e4", "e3", "d3", "c3", "c4", // inner ring
];

/// File (0 = a … 6 = g) and rank (0 = 1 … 6 = 7) of each point.
#[rustfmt::skip]
const COORDS: [(u8, u8); 24] = [
    (0, 6), (3, 6), (6, 6), (6, 3), (6, 0), (3, 0), (0, 0), (0, 3),
    (1, 5), (3, 5), (5, 5), (5, 3), (5, 1), (3, 1), (1, 1), (1, 3),
    (2, 4), (3, 4), (4, 4), (4, 3), (4, 2), (3, 2), (2, 2), (2, 3),
];

/// Error for a string that names no point of the board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "'{0}' is not a point of the Mühle board (points are a1, a4, a7, b2, b4, b6, c3, c4, c5, d1, d2, d3, d5, d6, d7, e3, e4, e5, f2, f4, f6, g1, g4, g7)"
)]
pub struct ParseSquareError(pub String);

impl Square {
    /// Number of points.
    pub const COUNT: usize = 24;

    /// All points in index order.
    pub const ALL: [Square; 24] = {
        let mut all = [Square(0); 24];
        let mut i = 0;
        while i < 24 {
            all[i] = Square(i as u8);
            i += 1;
        }
        all
    };

    /// The point with the given index (0..24), if any.
    pub const fn new(index: u8) -> Option<Square> {
        if index < 24 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The point with the given index. The caller guarantees `index < 24`.
    pub(crate) const fn new_unchecked(index: u8) -> Square {
        debug_assert!(index < 24);
        Square(index)
    }

    /// The point at `ring` (0 outer, 1 middle, 2 inner) and clockwise position `k`.
    pub const fn from_ring(ring: u8, k: u8) -> Option<Square> {
        if ring < 3 && k < 8 {
            Some(Square(ring * 8 + k))
        } else {
            None
        }
    }

    /// Index 0..24.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Ring: 0 outer, 1 middle, 2 inner.
    pub const fn ring(self) -> u8 {
        self.0 / 8
    }

    /// Clockwise position in the ring, 0 = top-left corner.
    pub const fn ring_pos(self) -> u8 {
        self.0 % 8
    }

    /// Whether this point is a corner of its ring (two neighbours only).
    pub const fn is_corner(self) -> bool {
        self.0.is_multiple_of(2)
    }

    /// File 0..7 (a..g).
    pub const fn file(self) -> u8 {
        COORDS[self.0 as usize].0
    }

    /// Rank 0..7 (1..7).
    pub const fn rank(self) -> u8 {
        COORDS[self.0 as usize].1
    }

    /// The point at file `file` (0 = a) and rank `rank` (0 = 1), if there is one.
    pub fn from_coords(file: u8, rank: u8) -> Option<Square> {
        COORDS
            .iter()
            .position(|&c| c == (file, rank))
            .map(|i| Square(i as u8))
    }

    /// The name, e.g. `"d6"`.
    pub const fn name(self) -> &'static str {
        NAMES[self.0 as usize]
    }

    /// The single-point bitboard.
    pub const fn bb(self) -> Bitboard {
        Bitboard(1 << self.0)
    }

    /// The points joined to this one by a line of the standard board (see
    /// [`crate::Board::neighbours_of`] for the others).
    pub const fn neighbours(self) -> Bitboard {
        crate::Board::NINE.neighbours_of(self)
    }

    /// Parse from the two ASCII bytes of a name (`b"d6"`).
    pub fn from_ascii(s: &[u8]) -> Result<Square, ParseSquareError> {
        let err = || ParseSquareError(String::from_utf8_lossy(s).into_owned());
        if s.len() != 2 {
            return Err(err());
        }
        let file = s[0].to_ascii_lowercase().wrapping_sub(b'a');
        let rank = s[1].wrapping_sub(b'1');
        if file > 6 || rank > 6 {
            return Err(err());
        }
        Square::from_coords(file, rank).ok_or_else(err)
    }
}

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        Square::from_ascii(s.as_bytes())
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
