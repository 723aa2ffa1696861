//! The subcommands.

pub mod analyze;
pub mod bench;
pub mod engine;
pub mod matches;
pub mod perft;
pub mod play;
pub mod serve;
pub mod show;

use anyhow::{Context, Result};
use muehle::{Position, RuleSet};

/// Help text for `--rules`.
pub const RULES_HELP: &str = "Rule set: a preset (standard, ravensburger, seed-000, no-flying), optionally followed by options, e.g. 'standard,flying=off,no-mill=40'. Options: removal=tournament|strict, flying=on|off, no-mill=N|off (plies), repetition=N|off";

/// Parse `--rules`.
pub fn parse_rules(s: &str) -> Result<RuleSet> {
    s.parse::<RuleSet>().context("--rules")
}

/// The start position, or `position` under `rules`.
pub fn start_position(rules: RuleSet, position: Option<&str>) -> Result<Position> {
    match position {
        None => Ok(Position::new(rules)),
        Some(s) => Position::from_fen(s, rules).with_context(|| format!("position '{s}'")),
    }
}
