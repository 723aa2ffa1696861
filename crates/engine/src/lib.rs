//! brett's engine: both games made searchable for [`search`] (laid out as
//! [`muehle`] and [`dame`]), the playing levels, the explanation of moves
//! and the fitting of evaluation weights.

#![warn(missing_docs)]

pub mod dame;
pub mod explain;
pub mod level;
pub mod muehle;
mod searchable;
pub mod texel;

pub use self::dame::{DameState, WeightedDame};
pub use self::muehle::{MuehleState, WeightedMuehle};
pub use level::{Choice, LevelPlayer, LevelSpec};
