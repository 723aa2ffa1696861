//! A move: one complete turn.

use std::fmt;
use std::str::FromStr;

use crate::Square;

const NONE: u16 = 31;

/// One complete turn: a placement (`d6`), a slide or flight (`g7-g4`), plus
/// the removed opponent stone when the turn closes a mill (`d6xb4`,
/// `f2-f4xd5`). Packed into 16 bits.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u16);

/// Error for text that is not a move in our notation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseMoveError {
    /// The text is empty.
    #[error("empty move")]
    Empty,
    /// The text is not in the move notation.
    #[error("'{text}' is not a move: {why} (examples: d6, g7-g4, d6xb4, f2-f4xd5)")]
    Syntax {
        /// The text, trimmed.
        text: String,
        /// What is wrong with it.
        why: String,
    },
}

impl Move {
    /// A placement on `to`.
    pub const fn place(to: Square) -> Move {
        Move(to.index() as u16 | NONE << 5 | NONE << 10)
    }

    /// A slide or flight from `from` to `to`.
    pub const fn slide(from: Square, to: Square) -> Move {
        Move(to.index() as u16 | (from.index() as u16) << 5 | NONE << 10)
    }

    /// The same move, removing the stone on `sq`.
    pub const fn with_removal(self, sq: Square) -> Move {
        Move(self.0 & !(0x1F << 10) | (sq.index() as u16) << 10)
    }

    /// The same move without a removal.
    pub const fn without_removal(self) -> Move {
        Move(self.0 | NONE << 10)
    }

    /// The point the stone is placed on or moved to.
    pub const fn to(self) -> Square {
        Square::new_unchecked((self.0 & 0x1F) as u8)
    }

    /// The point a moved stone leaves; `None` for a placement.
    pub const fn from(self) -> Option<Square> {
        let f = (self.0 >> 5) & 0x1F;
        if f == NONE {
            None
        } else {
            Some(Square::new_unchecked(f as u8))
        }
    }

    /// The removed opponent stone, if the move closes a mill and removes one.
    pub const fn removal(self) -> Option<Square> {
        let r = (self.0 >> 10) & 0x1F;
        if r == NONE {
            None
        } else {
            Some(Square::new_unchecked(r as u8))
        }
    }

    /// Whether this is a placement.
    pub const fn is_place(self) -> bool {
        self.from().is_none()
    }

    /// The packed 16-bit form.
    pub const fn to_u16(self) -> u16 {
        self.0
    }

    /// From the packed 16-bit form, if it is a valid move encoding.
    pub fn from_u16(v: u16) -> Option<Move> {
        let to = v & 0x1F;
        let from = (v >> 5) & 0x1F;
        let rem = (v >> 10) & 0x1F;
        let ok = v >> 15 == 0
            && to < 24
            && (from < 24 || from == NONE)
            && (rem < 24 || rem == NONE)
            && from != to
            && rem != to;
        ok.then_some(Move(v))
    }

    /// Parse our notation, without a position: `d6`, `g7-g4`, `d6xb4`,
    /// `f2-f4xd5`. Upper-case letters are accepted; `:` is accepted for `-`.
    pub fn parse(text: &str) -> Result<Move, ParseMoveError> {
        let t = text.trim();
        if t.is_empty() {
            return Err(ParseMoveError::Empty);
        }
        let syntax = |why: &str| ParseMoveError::Syntax {
            text: t.to_string(),
            why: why.to_string(),
        };
        let lower = t.to_ascii_lowercase();
        let (main, removal) = match lower.split_once('x') {
            Some((m, r)) => (m, Some(r)),
            None => (lower.as_str(), None),
        };
        if main.is_empty() {
            return Err(syntax("a removal 'xb4' needs the move before it"));
        }
        let (from, to) = match main.split_once(['-', ':']) {
            Some((f, to)) => (Some(f), to),
            None => (None, main),
        };
        let sq = |s: &str, role: &str| {
            s.parse::<Square>()
                .map_err(|_| syntax(&format!("'{s}' ({role}) is not a point of the board")))
        };
        let to_sq = sq(to, "target point")?;
        let mut mv = match from {
            Some(f) => {
                let from_sq = sq(f, "start point")?;
                if from_sq == to_sq {
                    return Err(syntax("a stone must move to another point"));
                }
                Move::slide(from_sq, to_sq)
            }
            None => Move::place(to_sq),
        };
        if let Some(r) = removal {
            let r_sq = sq(r, "removed stone")?;
            if r_sq == to_sq {
                return Err(syntax("the removed stone cannot stand on the target point"));
            }
            mv = mv.with_removal(r_sq);
        }
        Ok(mv)
    }
}

impl FromStr for Move {
    type Err = ParseMoveError;
    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        Move::parse(s)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(from) = self.from() {
            write!(f, "{from}-")?;
        }
        write!(f, "{}", self.to())?;
        if let Some(r) = self.removal() {
            write!(f, "x{r}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({self})")
    }
}

/// Join removal tokens written on their own (`d6`, `xb4`, as engines of the
/// Sanmill family send them) to the move before them: `["d6", "xb4", "f4"]`
/// becomes `["d6xb4", "f4"]`. A leading removal token is kept as it is (and
/// fails to parse later with a clear message).
pub fn join_removal_tokens<'a, I: IntoIterator<Item = &'a str>>(tokens: I) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for tok in tokens {
        let is_removal = tok.len() > 1 && matches!(tok.as_bytes()[0], b'x' | b'X');
        match out.last_mut() {
            Some(prev) if is_removal && !prev.contains(['x', 'X']) => prev.push_str(tok),
            _ => out.push(tok.to_string()),
        }
    }
    out
}
