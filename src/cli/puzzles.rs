//! `brett puzzles generate`: "find the best move" puzzles from the databases.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use tablebase::{Sector, Tablebase, Variant as DbVariant};

use super::{RULES_HELP, parse_rules};

/// `brett puzzles …`
pub type Args = super::Subcommands<Command>;

#[derive(clap::Subcommand, Debug)]
pub enum Command {
    /// Pick positions with exactly one move that keeps the win (or saves
    /// the draw), graded by the distance; prints them as JSON.
    Generate {
        /// How many puzzles.
        #[arg(long, default_value_t = 50)]
        count: usize,
        #[arg(long, default_value = "standard", help = RULES_HELP)]
        rules: String,
        /// The database folder (default: $XDG_DATA_HOME/brett/tablebase).
        #[arg(long)]
        dir: Option<PathBuf>,
        /// Sectors to draw positions from (default: every built one).
        #[arg(long)]
        sectors: Option<String>,
        /// Random seed (the same seed gives the same puzzles).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Write to this file instead of standard output.
        #[arg(long)]
        out: Option<PathBuf>,
    },
}

/// Run `brett puzzles`.
pub fn run(args: Args) -> Result<()> {
    let Command::Generate {
        count,
        rules,
        dir,
        sectors,
        seed,
        out,
    } = args.command;
    let rules = parse_rules(&rules)?;
    let dir = dir.unwrap_or_else(tablebase::default_dir);
    let tb = Tablebase::new(&dir, DbVariant::of(&rules));
    let sectors: Vec<Sector> = match sectors {
        Some(s) => tablebase::parse_sectors(&s)?,
        None => tb.installed(),
    };
    if sectors.is_empty() {
        bail!(
            "no database of '{}' is built in {}: build some with `brett tablebase build --rules {} --up-to 5`",
            DbVariant::of(&rules),
            dir.display(),
            DbVariant::of(&rules)
        );
    }
    let puzzles = engine::muehle::puzzles::generate(&tb, rules, &sectors, count, seed);
    if puzzles.len() < count {
        eprintln!(
            "found {} puzzles of {count} asked for (build more sectors for more)",
            puzzles.len()
        );
    }
    let list: Vec<serde_json::Value> = puzzles
        .iter()
        .enumerate()
        .map(|(i, p)| {
            serde_json::json!({
                "id": i + 1,
                "position": p.position,
                "rules": p.rules,
                "goal": p.goal,
                "value": p.value.to_string(),
                "solution": p.solution.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
                "difficulty": p.difficulty,
            })
        })
        .collect();
    let text = serde_json::to_string_pretty(&list)? + "\n";
    match out {
        Some(path) => {
            std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?
        }
        None => print!("{text}"),
    }
    Ok(())
}
