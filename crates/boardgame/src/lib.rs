//! What brett's two games, Mühle and Dame, share: the [`Color`] of a side
//! and the syntax of game records ([`record`]: `[Tag "value"]` header lines
//! and wrapped move text, as in PGN and PDN).
//!
//! The rules crates re-export [`Color`] (`muehle::Color`, `dame::Color` are
//! this type).

mod color;
pub mod record;

pub use color::Color;
