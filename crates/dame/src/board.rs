//! The two boards, their squares and bitboards.
//!
//! Only the dark squares are played on. They are numbered row by row from
//! the top as seen by White (Black's back row first), left to right: on
//! 10×10 these are the standard square numbers 1–50 (square 1 is b10,
//! square 50 is i1); on 8×8 the same scheme gives 1 = b8 … 32 = g1, but the
//! squares are *named* algebraically (`a1` … `h8`, a1 dark).
//!
//! Internally a square is a bit of a `u64` in a padded ("ghost square")
//! layout: every two rows of `h` squares (`h` = 4 or 5) are followed by one
//! unused bit, so the square number `n` (1-based) sits at bit
//! `(n - 1) + (n - 1) / (2h)`. In that layout the four diagonal neighbours
//! of every square are at bit distances `h` and `h + 1` (down-left,
//! down-right) and `-(h + 1)` and `-h` (up-left, up-right); a step off the
//! board lands on a ghost bit or outside the board mask. Move generation
//! shifts whole bitboards by these distances.

use std::fmt;
use std::ops::Not;
use std::str::FromStr;

use crate::Color;

/// The board: 8×8 (Dame) or 10×10 (Dame 100, international draughts).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Default)]
pub enum BoardSize {
    /// 8×8, 32 dark squares, 12 men each on three rows.
    #[default]
    Eight,
    /// 10×10, 50 dark squares, 20 men each on four rows.
    Ten,
}

const MASK8: u64 = ((1u64 << 35) - 1) & !(1 << 8 | 1 << 17 | 1 << 26);
const MASK10: u64 = ((1u64 << 54) - 1) & !(1 << 10 | 1 << 21 | 1 << 32 | 1 << 43);

impl BoardSize {
    /// Squares along one side: 8 or 10.
    pub const fn side(self) -> u8 {
        match self {
            BoardSize::Eight => 8,
            BoardSize::Ten => 10,
        }
    }

    /// Number of dark squares: 32 or 50.
    pub const fn squares(self) -> usize {
        match self {
            BoardSize::Eight => 32,
            BoardSize::Ten => 50,
        }
    }

    /// Dark squares per row: 4 or 5.
    pub const fn per_row(self) -> u8 {
        self.side() / 2
    }

    /// Men each side starts with: 12 or 20.
    pub const fn men_per_side(self) -> u32 {
        match self {
            BoardSize::Eight => 12,
            BoardSize::Ten => 20,
        }
    }

    /// Rows each side fills at the start: 3 or 4.
    pub const fn start_rows(self) -> u8 {
        match self {
            BoardSize::Eight => 3,
            BoardSize::Ten => 4,
        }
    }

    /// All dark squares.
    pub const fn mask(self) -> Bitboard {
        match self {
            BoardSize::Eight => Bitboard(MASK8),
            BoardSize::Ten => Bitboard(MASK10),
        }
    }

    /// The squares of row `row`, counted from the top (Black's back row is
    /// row 0). Empty for a row off the board.
    pub const fn row(self, row: u8) -> Bitboard {
        if row >= self.side() {
            return Bitboard::EMPTY;
        }
        let h = self.per_row() as u32;
        let start = (row as u32 / 2) * (2 * h + 1) + (row as u32 % 2) * h;
        Bitboard(((1u64 << h) - 1) << start)
    }

    /// The row where `c`'s men are crowned: the opponent's back row
    /// (the top row for White, the bottom row for Black).
    pub const fn promotion_row(self, c: Color) -> Bitboard {
        match c {
            Color::White => self.row(0),
            Color::Black => self.row(self.side() - 1),
        }
    }

    /// `c`'s own back row (the row nearest to that player).
    pub const fn back_row(self, c: Color) -> Bitboard {
        self.promotion_row(c.other())
    }

    /// The squares `c`'s men stand on at the start.
    pub const fn start_squares(self, c: Color) -> Bitboard {
        let n = self.start_rows();
        let mut bb = 0;
        let mut i = 0;
        while i < n {
            let row = match c {
                Color::White => self.side() - 1 - i,
                Color::Black => i,
            };
            bb |= self.row(row).0;
            i += 1;
        }
        Bitboard(bb)
    }

    /// `"8x8"` or `"10x10"`.
    pub const fn name(self) -> &'static str {
        match self {
            BoardSize::Eight => "8x8",
            BoardSize::Ten => "10x10",
        }
    }

    /// Parse `8`, `8x8`, `10`, `10x10` (also with `×`).
    pub fn from_name(s: &str) -> Option<BoardSize> {
        match s.trim().to_ascii_lowercase().replace('×', "x").as_str() {
            "8" | "8x8" => Some(BoardSize::Eight),
            "10" | "10x10" => Some(BoardSize::Ten),
            _ => None,
        }
    }

    /// The bit of the 0-based dense index (square number − 1).
    #[inline]
    pub(crate) const fn bit_of_index(self, index: u8) -> u8 {
        index + index / (2 * self.per_row())
    }

    /// The 0-based dense index of a bit (which must be a square).
    #[inline]
    pub(crate) const fn index_of_bit(self, bit: u8) -> u8 {
        bit - bit / (2 * self.per_row() + 1)
    }
}

impl fmt::Display for BoardSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Algebraic names of the 8×8 dark squares, by square number − 1.
#[rustfmt::skip]
const NAMES8: [&str; 32] = [
    "b8", "d8", "f8", "h8", "a7", "c7", "e7", "g7", "b6", "d6", "f6", "h6",
    "a5", "c5", "e5", "g5", "b4", "d4", "f4", "h4", "a3", "c3", "e3", "g3",
    "b2", "d2", "f2", "h2", "a1", "c1", "e1", "g1",
];

/// Numbers of the 10×10 dark squares, by square number − 1.
#[rustfmt::skip]
const NAMES10: [&str; 50] = [
    "1", "2", "3", "4", "5", "6", "7", "8", "9", "10",
    "11", "12", "13", "14", "15", "16", "17", "18", "19", "20",
    "21", "22", "23", "24", "25", "26", "27", "28", "29", "30",
    "31", "32", "33", "34", "35", "36", "37", "38", "39", "40",
    "41", "42", "43", "44", "45", "46", "47", "48", "49", "50",
];

/// A dark square of an 8×8 or 10×10 board. It knows its board, so it prints
/// itself in that board's notation: `c3` on 8×8, `32` on 10×10.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    size: BoardSize,
    bit: u8,
}

/// Error for text that names no square.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseSquareError {
    /// The text names no dark square of the 8×8 board.
    #[error("'{0}' is not a dark square of the 8×8 board (squares a1, c1, … h8 with a1 dark)")]
    NotOn8x8(String),
    /// The text names no square of the 10×10 board.
    #[error("'{0}' is not a square of the 10×10 board (squares are numbered 1 to 50)")]
    NotOn10x10(String),
    /// The text names no square of either board.
    #[error("'{0}' is not a square: 8×8 squares are named a1 … h8, 10×10 squares 1 … 50")]
    Unknown(String),
}

impl Square {
    /// The square at padded bit `bit` of a board, if that bit is a square.
    pub const fn from_bit(size: BoardSize, bit: u8) -> Option<Square> {
        if bit < 64 && size.mask().0 & (1u64 << bit) != 0 {
            Some(Square { size, bit })
        } else {
            None
        }
    }

    /// The square at a bit the caller knows to be a square.
    #[inline]
    pub(crate) const fn from_bit_unchecked(size: BoardSize, bit: u8) -> Square {
        Square { size, bit }
    }

    /// The square with number `number` (1-based, row by row from the top as
    /// White sees the board: 1–50 on 10×10, 1 = b8 … 32 = g1 on 8×8).
    pub const fn from_number(size: BoardSize, number: u8) -> Option<Square> {
        if number == 0 || number as usize > size.squares() {
            return None;
        }
        Some(Square {
            size,
            bit: size.bit_of_index(number - 1),
        })
    }

    /// The square at `file` (0 = a, the left edge for White) and `rank`
    /// (0 = White's back row), if it is dark.
    pub const fn from_coords(size: BoardSize, file: u8, rank: u8) -> Option<Square> {
        let side = size.side();
        if file >= side || rank >= side || !(file + rank).is_multiple_of(2) {
            return None;
        }
        let row = side - 1 - rank;
        Square::from_number(size, row * size.per_row() + file / 2 + 1)
    }

    /// The board this square belongs to.
    #[inline]
    pub const fn size(self) -> BoardSize {
        self.size
    }

    /// The padded bit index (see the module documentation).
    #[inline]
    pub const fn bit(self) -> u8 {
        self.bit
    }

    /// The square number (1-based, row by row from the top).
    #[inline]
    pub const fn number(self) -> u8 {
        self.size.index_of_bit(self.bit) + 1
    }

    /// Row counted from the top (0 = Black's back row).
    pub const fn row(self) -> u8 {
        (self.number() - 1) / self.size.per_row()
    }

    /// Rank: 0 = White's back row.
    pub const fn rank(self) -> u8 {
        self.size.side() - 1 - self.row()
    }

    /// File: 0 = a (White's left).
    pub const fn file(self) -> u8 {
        let col = (self.number() - 1) % self.size.per_row();
        if self.row().is_multiple_of(2) {
            2 * col + 1
        } else {
            2 * col
        }
    }

    /// The name in the board's notation: `"c3"` (8×8) or `"32"` (10×10).
    pub const fn name(self) -> &'static str {
        let i = self.size.index_of_bit(self.bit) as usize;
        match self.size {
            BoardSize::Eight => NAMES8[i],
            BoardSize::Ten => NAMES10[i],
        }
    }

    /// The single-square bitboard.
    #[inline]
    pub const fn bb(self) -> Bitboard {
        Bitboard(1 << self.bit)
    }

    /// Parse a square of a given board: `a1` … `h8` on 8×8 (any case),
    /// `1` … `50` on 10×10.
    pub fn parse(text: &str, size: BoardSize) -> Result<Square, ParseSquareError> {
        let t = text.trim();
        match size {
            BoardSize::Eight => {
                let b = t.as_bytes();
                let err = || ParseSquareError::NotOn8x8(t.to_string());
                if b.len() != 2 {
                    return Err(err());
                }
                let file = b[0].to_ascii_lowercase().wrapping_sub(b'a');
                let rank = b[1].wrapping_sub(b'1');
                Square::from_coords(size, file, rank).ok_or_else(err)
            }
            BoardSize::Ten => {
                let err = || ParseSquareError::NotOn10x10(t.to_string());
                if t.is_empty() || t.len() > 2 || !t.bytes().all(|c| c.is_ascii_digit()) {
                    return Err(err());
                }
                let n: u8 = t.parse().map_err(|_| err())?;
                Square::from_number(size, n).ok_or_else(err)
            }
        }
    }
}

/// Parses either board's notation and takes the board from the form:
/// `c3` is an 8×8 square, `32` a 10×10 square.
impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let t = s.trim();
        match t.bytes().next() {
            Some(c) if c.is_ascii_digit() => Square::parse(t, BoardSize::Ten),
            Some(c) if c.is_ascii_alphabetic() => Square::parse(t, BoardSize::Eight),
            _ => Err(ParseSquareError::Unknown(t.to_string())),
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Square({} on {})", self.name(), self.size)
    }
}

/// A set of squares: one bit per square in the padded layout of the module
/// documentation. A bitboard does not know its board; [`Bitboard::squares`]
/// takes it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);

    /// Number of squares in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    boardgame::bitboard_queries!(Square, sq => sq.bit);

    /// The lowest-bit square of the set on board `size`, if any.
    #[inline]
    pub const fn first(self, size: BoardSize) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_bit_unchecked(
                size,
                self.0.trailing_zeros() as u8,
            ))
        }
    }

    /// The squares of the set on board `size`, in square-number order.
    /// Bits that are not squares of that board are skipped.
    #[inline]
    pub const fn squares(self, size: BoardSize) -> BitboardIter {
        BitboardIter {
            bits: self.0 & size.mask().0,
            size,
        }
    }
}

/// Iterator over the squares of a [`Bitboard`].
#[derive(Clone, Debug)]
pub struct BitboardIter {
    bits: u64,
    size: BoardSize,
}

impl Iterator for BitboardIter {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.bits == 0 {
            return None;
        }
        let bit = self.bits.trailing_zeros() as u8;
        self.bits &= self.bits - 1;
        Some(Square::from_bit_unchecked(self.size, bit))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.bits.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for BitboardIter {}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, |bb, s| bb | s.bb())
    }
}

boardgame::bitboard_ops!(Bitboard);

impl Not for Bitboard {
    type Output = Bitboard;
    /// All other bits (including non-squares: intersect with a board mask).
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bitboard({:#x})", self.0)
    }
}
