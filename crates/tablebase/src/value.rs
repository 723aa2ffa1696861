//! The value of a position for the side to move.

use std::fmt;

/// The value of a position for the side to move, with the distance to the
/// end in plies (a mill move with its removal is one ply): the winner's
/// shortest way, the loser's longest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The side to move wins in this many plies (at least 1).
    Win(u16),
    /// Neither side can force a win.
    Draw,
    /// The side to move loses in this many plies (0: it has lost already:
    /// blocked, or two stones left).
    Loss(u16),
}

impl Value {
    /// The value of the position before a move that leads to `self` (seen
    /// from the other side, one ply longer).
    pub fn back(self) -> Value {
        match self {
            Value::Win(n) => Value::Loss(n + 1),
            Value::Loss(n) => Value::Win(n + 1),
            Value::Draw => Value::Draw,
        }
    }

    /// Order for the side to move: higher is better (fast wins, draws,
    /// slow losses).
    pub fn rank(self) -> i32 {
        match self {
            Value::Win(n) => 100_000 - i32::from(n),
            Value::Draw => 0,
            Value::Loss(n) => -100_000 + i32::from(n),
        }
    }

    /// Win, draw or loss, without the distance.
    pub fn wdl(self) -> Wdl {
        match self {
            Value::Win(_) => Wdl::Win,
            Value::Draw => Wdl::Draw,
            Value::Loss(_) => Wdl::Loss,
        }
    }

    /// Whether the values agree on win, draw or loss.
    pub fn same_result(self, other: Value) -> bool {
        matches!(
            (self, other),
            (Value::Win(_), Value::Win(_))
                | (Value::Draw, Value::Draw)
                | (Value::Loss(_), Value::Loss(_))
        )
    }

    /// The build code: loss in d = 2d, win in d = 2d − 1 (the order in
    /// which the builder settles positions).
    pub(crate) fn code(self) -> u16 {
        match self {
            Value::Loss(d) => 2 * d,
            Value::Win(d) => 2 * d - 1,
            Value::Draw => DRAW,
        }
    }

    /// The value of a build code (not [`UNKNOWN`] or [`NONE`]).
    pub(crate) fn from_code(c: u16) -> Value {
        if c == DRAW {
            Value::Draw
        } else if c.is_multiple_of(2) {
            Value::Loss(c / 2)
        } else {
            Value::Win(c / 2 + 1)
        }
    }
}

/// Win, draw or loss for the side to move, without the distance (what a
/// solver needs; read through a cache that holds 16 times more positions
/// than the values with distances).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Wdl {
    /// The side to move loses.
    Loss,
    /// A draw.
    Draw,
    /// The side to move wins.
    Win,
}

impl Wdl {
    /// The value for the other side.
    pub fn flip(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::Draw => Wdl::Draw,
            Wdl::Win => Wdl::Loss,
        }
    }

    /// −1, 0 or 1.
    pub fn signum(self) -> i8 {
        match self {
            Wdl::Loss => -1,
            Wdl::Draw => 0,
            Wdl::Win => 1,
        }
    }

    /// The 2-bit code of a build code (3: no position).
    pub(crate) fn bits_of_code(c: u16) -> u8 {
        if c == NONE {
            3
        } else if c == DRAW {
            1
        } else if c.is_multiple_of(2) {
            0
        } else {
            2
        }
    }

    pub(crate) fn from_bits(b: u8) -> Option<Wdl> {
        match b {
            0 => Some(Wdl::Loss),
            1 => Some(Wdl::Draw),
            2 => Some(Wdl::Win),
            _ => None,
        }
    }
}

/// `win N`, `draw` or `loss N`.
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(n) => write!(f, "win {n}"),
            Value::Draw => f.write_str("draw"),
            Value::Loss(n) => write!(f, "loss {n}"),
        }
    }
}

/// Build code: not settled yet.
pub(crate) const UNKNOWN: u16 = u16::MAX;
/// Build code: the index stands for no position (another index of the same
/// symmetry class is used).
pub(crate) const NONE: u16 = u16::MAX - 1;
/// Build code: a draw.
pub(crate) const DRAW: u16 = u16::MAX - 2;
/// Codes below this are wins and losses.
pub(crate) const MAX_CODE: u16 = u16::MAX - 3;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_order_by_distance() {
        for v in [
            Value::Loss(0),
            Value::Win(1),
            Value::Loss(1),
            Value::Win(2),
            Value::Draw,
        ] {
            assert_eq!(Value::from_code(v.code()), v);
        }
        assert!(Value::Win(1).code() < Value::Loss(1).code());
        assert_eq!(Value::Loss(3).back(), Value::Win(4));
        assert!(Value::Win(3).rank() > Value::Win(5).rank());
        assert!(Value::Loss(9).rank() > Value::Loss(2).rank());
    }
}
