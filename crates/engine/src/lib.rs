//! brett's engine: both games made searchable for [`search`] (laid out as
//! [`muehle`] and [`dame`], one searchable type each: [`MuehleState`],
//! [`DameState`]), the playing levels, the explanation of moves and the
//! fitting of evaluation weights.

#![warn(missing_docs)]

pub mod book;
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

/// The methods of [`search::Game`] that read the same for both games' search
/// states: a struct holding the game's `pos` and its evaluation `weights`
/// (the game's `eval` module in scope).
macro_rules! state_basics {
    () => {
        #[inline]
        fn hash(&self) -> u64 {
            self.pos.hash()
        }

        /// Every end the position shows by itself (for Dame the draws by the
        /// king-move counter and the move limits of the king endings too).
        fn status(&self) -> search::Status {
            crate::search_status(self.pos.outcome())
        }

        fn evaluate(&self) -> i32 {
            eval::evaluate_with(&self.pos, self.weights)
        }

        fn side_to_move(&self) -> usize {
            self.pos.turn().index()
        }
    };
}
pub(crate) use state_basics;

/// The constructor and accessors every game's search state has beside
/// `new`: a struct of `pos`, `weights` and `databases` (whether the search
/// asks the game's databases, and for Mühle its book and placing solver).
macro_rules! state_weights {
    ($state:ident) => {
        /// `pos` evaluated with other `weights` (self-play tuning), without
        /// the databases (and Mühle's book and placing solver).
        #[inline]
        pub fn with_weights(pos: Position, weights: &'static Weights) -> $state {
            $state {
                pos,
                weights,
                databases: false,
            }
        }

        /// The weights the position is evaluated with.
        #[inline]
        pub fn weights(&self) -> &'static Weights {
            self.weights
        }

        /// Whether the search asks the databases (and Mühle's book and
        /// placing solver).
        #[inline]
        pub fn databases(&self) -> bool {
            self.databases
        }
    };
}
pub(crate) use state_weights;

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
