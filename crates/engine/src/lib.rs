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
use search::Status;

/// The search's view of a position's outcome: over, and a draw or a loss
/// for the side to move (the side to move never wins by the position).
pub(crate) fn search_status<R: Reason>(outcome: Option<Outcome<R>>) -> Status {
    match outcome {
        None => Status::Ongoing,
        Some(o) if o.winner.is_none() => Status::Draw,
        Some(_) => Status::Lost,
    }
}
