//! Moves: one complete turn with its whole capture path, and the text form.

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};

use arrayvec::ArrayVec;

use crate::{Bitboard, BoardSize, ParseSquareError, Square};

/// The most squares a move's path can have: the start and one landing square
/// per captured piece (at most 20 on 10×10).
pub const MAX_PATH: usize = 21;

/// One complete turn: a step or flight to an empty square (`c3-d4`,
/// `32-28`), or a capture with the start, every landing square and the set
/// of captured pieces (`c3xe5xg7`, `28x19x10`).
///
/// Two moves are *equal* when they have the same board, start, end and set
/// of captured pieces: the rules count such moves once, whichever path they
/// take. The path kept is the first one the generator found.
#[derive(Clone, Copy)]
pub struct Move {
    captured: Bitboard,
    path: [u8; MAX_PATH],
    len: u8,
    size: BoardSize,
}

impl Move {
    /// A move without capture from `from` to `to` (both on the same board).
    pub fn quiet(from: Square, to: Square) -> Move {
        let mut path = [0; MAX_PATH];
        path[0] = from.bit();
        path[1] = to.bit();
        Move {
            captured: Bitboard::EMPTY,
            path,
            len: 2,
            size: from.size(),
        }
    }

    /// A capture along `path` (the start, then each landing square) taking
    /// the pieces in `captured`. `None` unless the path has one landing
    /// square per captured piece, at least one, all on one board.
    pub fn capture(path: &[Square], captured: Bitboard) -> Option<Move> {
        let size = path.first()?.size();
        let n = captured.count() as usize;
        if n == 0
            || path.len() != n + 1
            || path.len() > MAX_PATH
            || path.iter().any(|s| s.size() != size)
            || (captured - size.mask()).any()
        {
            return None;
        }
        let mut p = [0; MAX_PATH];
        for (i, s) in path.iter().enumerate() {
            p[i] = s.bit();
        }
        Some(Move {
            captured,
            path: p,
            len: path.len() as u8,
            size,
        })
    }

    /// A move without capture from raw bits, for the generator.
    #[inline(always)]
    pub(crate) fn quiet_raw(size: BoardSize, from: u8, to: u8) -> Move {
        let mut path = [0; MAX_PATH];
        path[0] = from;
        path[1] = to;
        Move {
            captured: Bitboard::EMPTY,
            path,
            len: 2,
            size,
        }
    }

    /// A capture from the generator's path buffer (`n` squares used).
    #[inline(always)]
    pub(crate) fn capture_raw(size: BoardSize, buf: &[u8; 32], n: usize, captured: u64) -> Move {
        debug_assert!((2..=MAX_PATH).contains(&n));
        let mut path = [0; MAX_PATH];
        path.copy_from_slice(&buf[..MAX_PATH]);
        Move {
            captured: Bitboard(captured),
            path,
            len: n.min(MAX_PATH) as u8,
            size,
        }
    }

    /// The board.
    #[inline]
    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// The start square.
    #[inline]
    pub fn from(&self) -> Square {
        Square::from_bit_unchecked(self.size, self.path[0])
    }

    /// The square where the piece ends (may equal the start after a capture
    /// that goes round in a circle).
    #[inline]
    pub fn to(&self) -> Square {
        Square::from_bit_unchecked(self.size, self.path[self.len as usize - 1])
    }

    #[inline]
    pub(crate) fn start_bit(&self) -> u8 {
        self.path[0]
    }

    #[inline]
    pub(crate) fn end_bit(&self) -> u8 {
        self.path[self.len as usize - 1]
    }

    /// The captured pieces (empty for a move without capture).
    #[inline]
    pub fn captured(&self) -> Bitboard {
        self.captured
    }

    /// Whether the move captures.
    #[inline]
    pub fn is_capture(&self) -> bool {
        self.captured.any()
    }

    /// Number of captured pieces.
    #[inline]
    pub fn capture_count(&self) -> u32 {
        self.captured.count()
    }

    /// The start and then every landing square (for a move without capture:
    /// start and end).
    pub fn path(&self) -> impl ExactSizeIterator<Item = Square> + '_ {
        let size = self.size;
        self.path[..self.len as usize]
            .iter()
            .map(move |&b| Square::from_bit_unchecked(size, b))
    }

    /// The move with only start and end: `c3xg7` instead of `c3xe5xg7`.
    pub fn short_notation(&self) -> String {
        let sep = if self.is_capture() { 'x' } else { '-' };
        format!("{}{sep}{}", self.from(), self.to())
    }

    fn key(&self) -> (BoardSize, u8, u8, u64) {
        (
            self.size,
            self.from().number(),
            self.to().number(),
            self.captured.0,
        )
    }
}

impl PartialEq for Move {
    fn eq(&self, other: &Move) -> bool {
        self.size == other.size
            && self.start_bit() == other.start_bit()
            && self.end_bit() == other.end_bit()
            && self.captured == other.captured
    }
}

impl Eq for Move {}

impl Hash for Move {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.key().hash(state);
    }
}

impl PartialOrd for Move {
    fn partial_cmp(&self, other: &Move) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// By board, start square number, end square number, captured set.
impl Ord for Move {
    fn cmp(&self, other: &Move) -> Ordering {
        self.key().cmp(&other.key())
    }
}

/// The full notation: `c3-d4`, `c3xe5xg7`, `32-28`, `28x19x10`.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.is_capture() { "x" } else { "-" };
        for (i, s) in self.path().enumerate() {
            if i > 0 {
                f.write_str(sep)?;
            }
            f.write_str(s.name())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({self})")
    }
}

/// Error for text that is not a move in our notation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseMoveError {
    /// The text is empty.
    #[error("empty move")]
    Empty,
    /// The text is not in the move notation.
    #[error("'{text}' is not a move: {why} (examples: {examples})")]
    Syntax {
        /// The text (shortened).
        text: String,
        /// What is wrong with it.
        why: String,
        /// Moves written in the board's notation.
        examples: &'static str,
    },
    /// A square of the move is not on the board.
    #[error("'{text}': {error}")]
    Square {
        /// The text.
        text: String,
        /// Why the square is not on the board.
        error: ParseSquareError,
    },
}

/// A move as written, before it is matched against the legal moves: the
/// squares in order and whether it was written as a capture (`x`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveText {
    /// Start, then end or every landing square (at least two squares).
    pub squares: ArrayVec<Square, MAX_PATH>,
    /// Whether the squares were joined by `x` (or `:`) rather than `-`.
    pub capture: bool,
}

impl MoveText {
    /// Read `c3-d4`, `c3xe5`, `c3xe5xg7` (8×8) or `32-28`, `28x19`,
    /// `28x19x10` (10×10). `:` is accepted for `x`; upper case is accepted.
    pub fn parse(text: &str, size: BoardSize) -> Result<MoveText, ParseMoveError> {
        let t = text.trim();
        if t.is_empty() {
            return Err(ParseMoveError::Empty);
        }
        let examples = match size {
            BoardSize::Eight => "c3-d4, c3xe5, c3xe5xg7",
            BoardSize::Ten => "32-28, 28x19, 28x19x10",
        };
        let syntax = |why: String| ParseMoveError::Syntax {
            text: t.chars().take(60).collect(),
            why,
            examples,
        };
        let has_dash = t.contains('-');
        let has_x = t.contains(['x', 'X', ':']);
        if has_dash && has_x {
            return Err(syntax("mixes '-' and 'x'".to_string()));
        }
        let parts: Vec<&str> = t.split(['-', 'x', 'X', ':']).collect();
        if parts.len() < 2 {
            return Err(syntax(
                "a move names at least two squares joined by '-' or 'x'".to_string(),
            ));
        }
        if parts.len() > MAX_PATH {
            return Err(syntax(format!(
                "{} squares; a move has at most {MAX_PATH}",
                parts.len()
            )));
        }
        if has_dash && parts.len() > 2 {
            return Err(syntax(
                "a move without capture has two squares; join capture squares with 'x'".to_string(),
            ));
        }
        let mut squares = ArrayVec::new();
        for p in parts {
            if p.trim().is_empty() {
                return Err(syntax("a square is missing".to_string()));
            }
            let sq = Square::parse(p, size).map_err(|error| ParseMoveError::Square {
                text: t.chars().take(60).collect(),
                error,
            })?;
            squares.push(sq);
        }
        Ok(MoveText {
            squares,
            capture: has_x,
        })
    }

    /// The start square (`None` only for a hand-built empty list).
    pub fn from(&self) -> Option<Square> {
        self.squares.first().copied()
    }

    /// The end square (`None` only for a hand-built empty list).
    pub fn to(&self) -> Option<Square> {
        self.squares.last().copied()
    }
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.capture { "x" } else { "-" };
        for (i, s) in self.squares.iter().enumerate() {
            if i > 0 {
                f.write_str(sep)?;
            }
            f.write_str(s.name())?;
        }
        Ok(())
    }
}

/// Read a huff token: `H` (or `h`) followed by exactly one square of the
/// board, `H28`, `h28` (10×10), `Hc3`, `hc3`, `HC3` (8×8). The one rule
/// every reader of moves and records uses (the PDN reader, the engine
/// protocol's `position … moves`, the server), so that a token is a huff
/// in all of them or in none:
///
/// - the text after the `H` must be one whole square of *this* board, with
///   nothing before or after it: `Hc3` is not a huff on 10×10 and `H28` is
///   not one on 8×8;
/// - a token that reads as a move is a move, never a huff: `h2-g3`,
///   `h4xf6`, `h4xf6xd8` on 8×8 (a move always joins its squares by `-`,
///   `x` or `:`, which no square contains);
/// - a token that is itself a square name is not a huff: on 8×8 `h3` is
///   the square h3 (and so no token at all: neither a huff nor a move),
///   never "a huff of 3". On 10×10, where squares are numbers, `h3` is the
///   huff of square 3, the same as `H3`.
///
/// Returns the square to remove, or `None` when the token is not a huff.
///
/// ```
/// use dame::{BoardSize, Square, parse_huff_token};
/// let c3 = Square::parse("c3", BoardSize::Eight).unwrap();
/// assert_eq!(parse_huff_token("Hc3", BoardSize::Eight), Some(c3));
/// assert_eq!(parse_huff_token("h2-g3", BoardSize::Eight), None);
/// assert_eq!(parse_huff_token("h3", BoardSize::Eight), None);
/// assert_eq!(parse_huff_token("H28", BoardSize::Ten).map(|s| s.number()), Some(28));
/// assert_eq!(parse_huff_token("H28", BoardSize::Eight), None);
/// ```
pub fn parse_huff_token(text: &str, size: BoardSize) -> Option<Square> {
    let t = text.trim();
    let rest = t.strip_prefix(['H', 'h'])?;
    // Exactly one square right after the `H`: no blank, no separator.
    if rest.is_empty()
        || rest.contains(|c: char| c.is_whitespace() || matches!(c, '-' | 'x' | 'X' | ':'))
    {
        return None;
    }
    let square = Square::parse(rest, size).ok()?;
    // A move or a square name is never a huff (with the checks above
    // these cannot match; kept so the rule holds by itself).
    if MoveText::parse(t, size).is_ok() || Square::parse(t, size).is_ok() {
        return None;
    }
    Some(square)
}

/// Moves held on the stack (without allocating) up to this many.
pub const INLINE_MOVES: usize = 128;

/// A list of moves: on the stack up to [`INLINE_MOVES`] moves, on the heap
/// beyond (only in contrived positions with many kings), so generation never
/// fails and never allocates in ordinary play.
#[derive(Clone, Default)]
pub struct MoveList {
    inline: ArrayVec<Move, INLINE_MOVES>,
    /// Holds every move once the inline part overflowed.
    heap: Vec<Move>,
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub fn new() -> MoveList {
        MoveList {
            inline: ArrayVec::new(),
            heap: Vec::new(),
        }
    }

    /// Append a move.
    #[inline]
    pub fn push(&mut self, m: Move) {
        if self.heap.is_empty() {
            if let Err(e) = self.inline.try_push(m) {
                self.heap.reserve(INLINE_MOVES * 2);
                self.heap.extend_from_slice(&self.inline);
                self.heap.push(e.element());
                self.inline.clear();
            }
        } else {
            self.heap.push(m);
        }
    }

    /// Remove every move.
    #[inline]
    pub fn clear(&mut self) {
        self.inline.clear();
        self.heap.clear();
    }

    /// Keep the moves for which `f` is true.
    pub fn retain(&mut self, mut f: impl FnMut(&Move) -> bool) {
        self.inline.retain(|m| f(m));
        self.heap.retain(|m| f(m));
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        if self.heap.is_empty() {
            &self.inline
        } else {
            &self.heap
        }
    }

    /// The moves as a mutable slice (for ordering).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        if self.heap.is_empty() {
            &mut self.inline
        } else {
            &mut self.heap
        }
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    #[inline]
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl std::ops::DerefMut for MoveList {
    #[inline]
    fn deref_mut(&mut self) -> &mut [Move] {
        self.as_mut_slice()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

/// Owning iterator over a [`MoveList`].
pub struct MoveListIntoIter {
    list: MoveList,
    next: usize,
}

impl Iterator for MoveListIntoIter {
    type Item = Move;
    #[inline]
    fn next(&mut self) -> Option<Move> {
        let m = self.list.as_slice().get(self.next).copied();
        self.next += 1;
        m
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.list.len().saturating_sub(self.next);
        (n, Some(n))
    }
}

impl ExactSizeIterator for MoveListIntoIter {}

impl IntoIterator for MoveList {
    type Item = Move;
    type IntoIter = MoveListIntoIter;
    fn into_iter(self) -> MoveListIntoIter {
        MoveListIntoIter {
            list: self,
            next: 0,
        }
    }
}

impl FromIterator<Move> for MoveList {
    fn from_iter<I: IntoIterator<Item = Move>>(iter: I) -> MoveList {
        let mut l = MoveList::new();
        for m in iter {
            l.push(m);
        }
        l
    }
}
