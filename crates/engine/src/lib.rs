pub mod book;
pub mod dame_databases;
pub mod dame_game;
pub mod dame_shots;
pub mod databases;
pub mod explain;
pub mod explain_dame;
pub mod level;
pub mod muehle_game;
pub mod placing;
pub mod puzzles;
pub mod texel;

pub use dame_game::{DameState, WeightedDame};
pub use level::{Choice, LevelPlayer, LevelSpec};
pub use muehle_game::{MuehleState, WeightedMuehle};
