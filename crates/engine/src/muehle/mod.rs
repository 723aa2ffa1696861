//! The engine's Mühle: the searchable position, the perfect-play
//! databases, the placing solver, the opening book, puzzles and the words
//! that explain a move.

pub mod book;
pub mod databases;
pub mod explain;
pub mod game;
pub mod network_fit;
pub mod pattern_fit;
pub mod placing;
pub mod puzzles;

pub use game::MuehleState;
