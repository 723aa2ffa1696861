//! The subcommands.

pub mod analyze;
pub mod bench;
pub mod dame_labels;
pub mod dame_play;
pub mod db;
pub mod dxp;
pub mod engine;
pub mod hub;
pub mod labels;
pub mod matches;
pub mod perft;
pub mod play;
pub mod puzzles;
pub mod serve;
pub mod show;
pub mod tablebase;
pub mod tune;

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

/// The games `--game` selects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, Default)]
pub enum GameKind {
    /// Mühle (Nine Men's Morris).
    #[default]
    Muehle,
    /// Dame on 8×8 (the leaflet's rules).
    Dame,
    /// Dame 100 on 10×10 (the leaflet's rules).
    #[value(name = "dame-100")]
    Dame100,
    /// Dame on 8×8, men capture backward (the French text).
    #[value(name = "dame-fr")]
    DameFr,
    /// International draughts (FMJD) on 10×10.
    International,
}

impl GameKind {
    /// The name used on the command line and in the protocols.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Muehle => "muehle",
            GameKind::Dame => "dame",
            GameKind::Dame100 => "dame-100",
            GameKind::DameFr => "dame-fr",
            GameKind::International => "international",
        }
    }

    /// Parse a name (`muehle`, `mühle`, `dame`, `dame-100`, `dame-fr`, `international`).
    pub fn from_name(s: &str) -> Option<GameKind> {
        match s.trim().to_ascii_lowercase().as_str() {
            "muehle" | "mühle" | "muhle" | "mill" => Some(GameKind::Muehle),
            "dame" => Some(GameKind::Dame),
            "dame-100" | "dame100" => Some(GameKind::Dame100),
            "dame-fr" => Some(GameKind::DameFr),
            "international" => Some(GameKind::International),
            _ => None,
        }
    }
}

/// The Dame rule set of `game`, with `--rules` (a preset, or options
/// `key=value,…` applied to the game's preset).
pub fn dame_rules(game: GameKind, rules: Option<&str>) -> Result<dame::RuleSet> {
    let base = match game {
        GameKind::Dame100 => "dame-100",
        GameKind::DameFr => "dame-fr",
        GameKind::International => "international",
        _ => "dame",
    };
    let text = match rules {
        None => base.to_string(),
        Some(r) if r.split(',').next().is_some_and(|first| first.contains('=')) => {
            format!("{base},{r}")
        }
        Some(r) => r.to_string(),
    };
    text.parse::<dame::RuleSet>().context("--rules")
}

/// The Dame start position, or `position` (FEN) under `rules`.
pub fn dame_position(rules: dame::RuleSet, position: Option<&str>) -> Result<dame::Position> {
    match position {
        None => Ok(dame::Position::new(rules)),
        Some(s) => dame::Position::from_fen(s, rules).with_context(|| format!("position '{s}'")),
    }
}
