//! The games as the commands see them, from the catalogue crate `games`:
//! [`Variant`] (what `--game` names), [`Setup`] (the game with its rules,
//! read once from `--game` and `--rules`) and [`LiveGame`] (a game being
//! played: `play`, `analyze`, `perft`, `match`, `engine`), whose
//! [`games::LocalGame`] view says what differs between the games.

use anyhow::{Context, Result};
use games::LiveGame;

/// Help text for `--rules`.
pub const RULES_HELP: &str = "Rule set: a preset (standard, ravensburger, seed-000, no-flying), optionally followed by options, e.g. 'standard,flying=off,no-mill=40'. Options: removal=tournament|strict, flying=on|off, no-mill=N|off (plies), repetition=N|off";

/// The games `--game` selects: the catalogue's.
pub use games::{Setup, Variant};

/// Parse a Mühle `--rules`.
pub fn parse_rules(s: &str) -> Result<muehle::RuleSet> {
    s.parse::<muehle::RuleSet>().context("--rules")
}

/// `--game` with `--rules` (see [`Setup::parse`]).
pub fn setup(game: Variant, rules: Option<&str>) -> Result<Setup> {
    Setup::parse(game, rules).context("--rules")
}

/// A game of `setup` from its start, or from `position` (`--position`).
pub fn start(setup: Setup, position: Option<&str>) -> Result<LiveGame> {
    setup
        .start(position)
        .map_err(anyhow::Error::msg)
        .with_context(|| format!("position '{}'", position.unwrap_or_default()))
}
