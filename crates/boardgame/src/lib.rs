//! What brett's games, Mühle and Dame, share: the [`Color`] of a side, the
//! [`Rules`] a position answers to (moves, their notation, the
//! [`Outcome`] with its [`Reason`]), the [`Session`] of a game being
//! played (history, undo, draw offers, resignation, tags) and the syntax
//! of game records ([`record`]: `[Tag "value"]` header lines and wrapped
//! move text, as in PGN and PDN, and the errors of reading one), the text
//! form of rule sets ([`rules_text`]), and errors as codes and parameters
//! ([`ErrorDetail`]) for a user interface to word in its language; the
//! stream of Zobrist keys ([`zobrist`]) the games' hashes are drawn from;
//! [`perft`], the move-generator check, with the reader of its tables; and
//! [`tables`], the decoder of the weight tables built into an evaluation.
//!
//! The rules crates re-export [`Color`] (`muehle::Color`, `dame::Color` are
//! this type) and build their `Game` on [`Session`].

#![warn(missing_docs)]

mod bitboard;
pub mod clock;
mod color;
mod detail;
pub mod perft;
pub mod record;
mod rules;
pub mod rules_text;
mod session;
pub mod tables;
pub mod zobrist;

pub use clock::{Clock, TimeControl};
pub use color::Color;
pub use detail::{Detailed, ErrorDetail, color_param};
pub use rules::{Outcome, Reason, Rules};
pub use session::{DeclaredError, GameError, Session};
