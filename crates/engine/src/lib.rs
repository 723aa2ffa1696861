pub mod explain;
pub mod level;
pub mod muehle_game;

pub use level::{Choice, LevelPlayer, LevelSpec};
pub use muehle_game::{MuehleState, WeightedMuehle};
