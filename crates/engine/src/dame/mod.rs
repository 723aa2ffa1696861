//! The engine's Dame: the searchable position, the endgame databases, the
//! shots of the tactical suites and the words that explain a move.

pub mod book;
pub mod databases;
pub mod explain;
pub mod game;
pub mod pattern_fit;
pub mod puzzles;
pub mod shots;

pub use game::{DameState, best_huff};
