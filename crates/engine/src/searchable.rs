//! What the searchable forms of both games share: a position and the
//! weights it is evaluated with.

use boardgame::{Outcome, Reason};
use search::Status;

/// A game's position with the weights of its evaluation, as the search
/// sees it ([`crate::MuehleState`], [`crate::WeightedMuehle`],
/// [`crate::DameState`], [`crate::WeightedDame`]).
pub(crate) trait Searchable: Sized {
    /// The game's position.
    type Position;
    /// The weights of the game's evaluation.
    type Weights;

    /// The position.
    fn pos(&self) -> &Self::Position;

    /// The weights the position is evaluated with.
    fn weights(&self) -> &Self::Weights;

    /// The same form (same weights) for another position.
    fn with_pos(&self, pos: Self::Position) -> Self;
}

/// The search's view of a position's outcome: over, and a draw or a loss
/// for the side to move (the side to move never wins by the position).
pub(crate) fn status<R: Reason>(outcome: Option<Outcome<R>>) -> Status {
    match outcome {
        None => Status::Ongoing,
        Some(o) if o.winner.is_none() => Status::Draw,
        Some(_) => Status::Lost,
    }
}
