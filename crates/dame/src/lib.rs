//! # dame — the rules of Dame (draughts) on 8×8 and 10×10
//!
//! Exact rules with every option of the project's rule book (RULES.md Part
//! 2): [`Square`]s named `a1` … `h8` (8×8) or numbered 1 … 50 (10×10),
//! [`Bitboard`]s in a padded layout, [`RuleSet`] with the presets `dame`,
//! `dame-100`, `dame-fr` and `international`, [`Setup`] (unchecked) and
//! [`Position`] (validated) with allocation-free legal move generation,
//! the FEN (`W:W31-50:B1-20`), [`Move`] with its whole capture path and
//! notation (`c3-d4`, `c3xe5xg7`, `32-28`, `28x19x10`), [`Game`] with draw
//! detection, draw offers, huffing and PDN records, [`perft`](perft::perft)
//! and a static evaluation ([`eval`]).
//!
//! ```
//! use dame::{Game, RuleSet};
//! let mut game = Game::new(RuleSet::INTERNATIONAL);
//! game.play_str("32-28").unwrap();
//! game.play_str("19-23").unwrap();
//! game.play_str("28x19").unwrap();
//! assert_eq!(game.position().fen(), "B:W19,31,33-50:B1-18,20:F2");
//! ```

#![warn(missing_docs)]

mod board;
mod detail;
pub mod eval;
mod game;
mod movegen;
mod mv;
pub mod pattern;
pub mod perft;
mod position;
#[cfg(test)]
mod random_games;
mod record;
mod rules;
mod zobrist;

pub use board::{Bitboard, BitboardIter, BoardSize, ParseSquareError, Square};
pub use boardgame::Color;
pub use game::{Game, GameError, Undone};
pub use mv::{
    INLINE_MOVES, MAX_PATH, Move, MoveList, MoveListIntoIter, MoveText, ParseMoveError,
    parse_huff_token,
};
pub use position::{
    EndReason, MoveError, Outcome, ParseFenError, Piece, PieceKind, Position, PositionError, Setup,
};
pub use record::{RecordError, game_type};
pub use rules::{Ending, KingCapture, KingLanding, PRESETS, ParseRulesError, Promotion, RuleSet};
