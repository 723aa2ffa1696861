//! # muehle — the rules of Mühle (Nine Men's Morris)
//!
//! Exact rules with every option of the project's rule book, on the boards
//! of Nine and Twelve Men's Morris and Lasker Morris ([`Board`]): [`Square`]s
//! named like chess squares (`a1` … `g7`), [`Bitboard`]s over the 24 points,
//! [`Setup`] (unchecked) and [`Position`] (validated) with allocation-free
//! legal move generation, the position string, [`Move`] notation (`d6`,
//! `g7-g4`, `d6xb4`, `f2-f4xd5`), [`Game`] with draw detection and game
//! records, [`perft`](perft::perft) and the 16 board [`Symmetry`]s.
//!
//! ```
//! use muehle::{Game, RuleSet};
//! let mut game = Game::new(RuleSet::STANDARD);
//! game.play_str("d6").unwrap();
//! game.play_str("f4").unwrap();
//! assert_eq!(game.position().fen(), ".../.W./.../....B./.../.../... w 8 8 0 2");
//! ```

#![warn(missing_docs)]

mod bitboard;
mod board;
mod detail;
pub mod eval;
mod game;
mod mv;
pub mod network;
pub mod pattern;
pub mod perft;
mod position;
mod record;
mod rules;
mod square;
pub mod symmetry;
mod zobrist;

pub use bitboard::{Bitboard, BitboardIter, MILLS};
pub use board::{Board, MAX_LINES};
pub use boardgame::Color;
pub use game::{Game, GameError};
pub use mv::{Move, ParseMoveError, join_removal_tokens};
pub use position::{
    EndReason, MAX_MOVES, MoveError, MoveList, Outcome, ParsePositionError, Phase, Position,
    PositionError, STONES_PER_SIDE, Setup,
};
pub use record::RecordError;
pub use rules::{PRESETS, ParseRulesError, RemovalRule, RuleSet};
pub use square::{ParseSquareError, Square};
pub use symmetry::Symmetry;
