//! The subcommands.

pub mod admin;
pub mod analyze;
pub mod bench;
pub mod dame_labels;
pub mod db;
pub mod dxp;
pub mod engine;
pub mod game;
pub mod hub;
pub mod labels;
pub mod matches;
pub mod perft;
pub mod play;
pub mod puzzles;
pub mod search_job;
pub mod serve;
pub mod show;
pub mod tablebase;
pub mod tune;

pub use game::{RULES_HELP, Variant, parse_rules};

/// The arguments of a command that is a choice of subcommands (`brett db
/// …`, `brett puzzles …`, `brett tablebase …`).
#[derive(clap::Args, Debug)]
pub struct Subcommands<C: clap::Subcommand> {
    // The chosen one.
    #[command(subcommand)]
    pub command: C,
}
