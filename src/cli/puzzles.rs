//! `brett puzzles generate`: "find the best move" puzzles from the databases
//! (Mühle, and Dame endings), and from Dame shot suites.

use std::path::{Path, PathBuf};

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
        /// The game: `muehle` (default), or a Dame rule set (`dame`,
        /// `dame-fr`, `dame-100`, `international`) for Dame puzzles.
        #[arg(long, default_value = "muehle")]
        game: String,
        /// Dame: endings of at most this many pieces (0: none).
        #[arg(long, default_value_t = 5)]
        pieces: u32,
        /// Dame: a shot suite (`name ; rules ; FEN ; depth ; solutions`
        /// under its verification comments) whose shots are added after the
        /// endings.
        #[arg(long)]
        shots: Option<PathBuf>,
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
        game,
        pieces,
        shots,
        count,
        rules,
        dir,
        sectors,
        seed,
        out,
    } = args.command;
    let dir = dir.unwrap_or_else(tablebase::default_dir);
    if let Some(dame) = super::tablebase::dame_game(&game)? {
        let list = dame_puzzles(&dame, &dir, pieces, shots.as_deref(), count, seed)?;
        return write(&list, out.as_deref());
    }
    if shots.is_some() {
        bail!("--shots is for Dame puzzles (--game dame, …)");
    }
    let rules = parse_rules(&rules)?;
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
    write(&list, out.as_deref())
}

/// `list` as pretty JSON to `out`, or to standard output.
fn write(list: &[serde_json::Value], out: Option<&Path>) -> Result<()> {
    let text = serde_json::to_string_pretty(list)? + "\n";
    match out {
        Some(path) => {
            std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))?
        }
        None => print!("{text}"),
    }
    Ok(())
}

/// Dame puzzles: `count` endings of at most `pieces` pieces from the
/// tables built in `dir` and the shots of the suite `shots` (those of
/// `rules`), easiest first. Ids are
/// `<rules>-<n>` (`dame-1`, …), so they never meet Mühle's numbers.
fn dame_puzzles(
    rules: &dame::RuleSet,
    dir: &Path,
    pieces: u32,
    shots: Option<&Path>,
    count: usize,
    seed: u64,
) -> Result<Vec<serde_json::Value>> {
    use engine::dame::puzzles;
    let mut list = Vec::new();
    if pieces > 0 && count > 0 {
        let tb = tablebase::dame::DameTablebase::new(dir);
        let found = puzzles::endings(&tb, *rules, pieces, count, seed);
        if found.is_empty() {
            bail!(
                "no Dame table of '{rules}' with up to {pieces} pieces is built in {}: build them with \
                 `brett tablebase build --game {rules} --pieces {pieces}` (or give --pieces 0 and --shots)",
                dir.display()
            );
        }
        if found.len() < count {
            eprintln!("found {} endings of {count} asked for", found.len());
        }
        list.extend(found);
    }
    if let Some(path) = shots {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        let found = puzzles::shots(&text).with_context(|| format!("{}", path.display()))?;
        let all = found.len();
        let found: Vec<_> = found
            .into_iter()
            .filter(|p| p.rules == rules.to_string())
            .collect();
        if found.len() < all {
            eprintln!(
                "{}: {} of {all} shots are for other rules than '{rules}' and left out",
                path.display(),
                all - found.len()
            );
        }
        list.extend(found);
    }
    // Easy ones first, endings and shots mixed.
    list.sort_by_key(|p| p.difficulty);
    let name = rules.to_string();
    let game = super::Variant::from_name(&name)
        .map(super::Variant::name)
        .with_context(|| format!("no game of the catalogue plays the rules '{name}'"))?;
    Ok(list
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let mut entry = serde_json::json!({
                "id": format!("{name}-{}", i + 1),
                "game": game,
                "position": p.position,
                "rules": p.rules,
                "goal": p.goal,
                "accept": p.accept,
                "solution": p.solution,
                "difficulty": p.difficulty,
            });
            if let Some(v) = p.value {
                entry["value"] = serde_json::json!(v.to_string());
            }
            if p.goal == "shot" {
                entry["gain"] = serde_json::json!(p.gain);
            }
            entry
        })
        .collect())
}
