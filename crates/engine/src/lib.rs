//! brett's engine: both games made searchable for [`search`] (laid out as
//! [`muehle`] and [`dame`], one searchable type each: [`MuehleState`],
//! [`DameState`]), the playing levels, the explanation of moves and the
//! fitting of evaluation weights.

#![warn(missing_docs)]

pub mod dame;
pub mod explain;
pub mod level;
pub mod muehle;
pub mod texel;

pub use self::dame::DameState;
pub use self::muehle::MuehleState;
pub use level::{Choice, LevelPlayer, LevelSpec};

use boardgame::{Outcome, Reason};
use search::{Exact, Status};

/// The search's view of a position's outcome: over, and a draw or a loss
/// for the side to move (the side to move never wins by the position).
pub(crate) fn search_status<R: Reason>(outcome: Option<Outcome<R>>) -> Status {
    match outcome {
        None => Status::Ongoing,
        Some(o) if o.winner.is_none() => Status::Draw,
        Some(_) => Status::Lost,
    }
}

/// A database value as the search's exact value, if the game's draw
/// counter cannot change it: a win or loss in `n` plies holds when `n` is
/// at most the plies `left` before that draw (`None`: no such rule), a
/// draw always.
pub(crate) fn exact_within(v: tablebase::Value, left: Option<u32>) -> Option<Exact> {
    let fits = |n: u16| left.is_none_or(|l| u32::from(n) <= l);
    match v {
        tablebase::Value::Win(n) if fits(n) => Some(Exact::Win(u32::from(n))),
        tablebase::Value::Loss(n) if fits(n) => Some(Exact::Loss(u32::from(n))),
        tablebase::Value::Draw => Some(Exact::Draw),
        _ => None,
    }
}
