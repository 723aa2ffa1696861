//! `brett analyze`: the best moves of a position, with scores, lines and reasons.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use anyhow::Result;
use engine::muehle::explain::explain_move;
use search::{Engine, Limits};

use super::game::{CliGame, Setup, Variant};

/// Arguments of `brett analyze`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Position: a Mühle position string or a Dame FEN (default: the start).
    position: Option<String>,
    /// The game.
    #[arg(long, value_enum, default_value_t = Variant::Muehle)]
    game: Variant,
    /// Rule set: for Mühle a preset with options; for Dame a preset or options
    /// applied to the game's preset.
    #[arg(long, default_value = "standard", long_help = super::game::RULES_HELP)]
    rules: String,
    /// Thinking time in seconds.
    #[arg(long, default_value_t = 2.0)]
    time: f64,
    /// Search to this depth instead (ignores --time).
    #[arg(long)]
    depth: Option<u32>,
    /// Number of best moves to show.
    #[arg(long, default_value_t = 3)]
    lines: usize,
    /// Moves played from the position first, e.g. "d6 f4 d2".
    #[arg(long)]
    moves: Option<String>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Print each completed depth while thinking.
    #[arg(long)]
    verbose: bool,
}

pub fn run(args: Args) -> Result<()> {
    let position = args.position.as_deref();
    match Setup::parse(args.game, Some(&args.rules))? {
        Setup::Muehle(rules) => {
            let game: muehle::Game = start(muehle::Game::start_or(rules, position)?, &args)?;
            let pos = *game.position();
            if let Some(tb) = engine::muehle::databases::for_rules(&rules)
                && !game.is_over()
                && let Ok(Some(value)) = tb.probe(&pos)
                && let Ok(Some(moves)) = tb.probe_moves(&pos)
            {
                println!(
                    "\nPerfect play: {}",
                    engine::muehle::databases::verdict(pos.turn(), value)
                );
                println!("Every move (value for the side to move):");
                for (m, v) in moves {
                    println!("  {:<12} {v}", m.to_string());
                }
            }
            report(&args, &game, |pv, score| {
                pv.first()
                    .map(|mv| explain_move(&pos, *mv, Some(score)))
                    .unwrap_or_default()
            });
        }
        Setup::Dame(_, rules) => {
            let game: dame::Game = start(dame::Game::start_or(rules, position)?, &args)?;
            let pos = *game.position();
            report(&args, &game, |pv, score| {
                engine::dame::explain::explain_move(&pos, pv, Some(score))
            });
        }
    }
    Ok(())
}

/// The game from `start` after `--moves`, drawn with its status.
fn start<G: CliGame>(start: G::Position, args: &Args) -> Result<G> {
    let mut game = G::from_start(start);
    if let Some(moves) = &args.moves {
        let tokens: Vec<&str> = moves.split_whitespace().collect();
        game.play_tokens(&tokens)
            .map_err(|e| anyhow::anyhow!("--moves: {e}"))?;
    }
    print!("{}", game.render());
    if let Some((_, words)) = game.outcome() {
        println!("\nThe game is over: {words}.");
    }
    Ok(game)
}

/// Search `root` as `args` say and print the best lines with their reasons.
fn report<G: CliGame>(
    args: &Args,
    game: &G,
    why: impl Fn(&[G::Move], search::Score) -> Vec<String>,
) {
    if game.is_over() {
        return;
    }
    let engine = Engine::new(args.hash, args.threads);
    let limits = match args.depth {
        Some(d) => Limits::depth(d),
        None => Limits::movetime(Duration::from_secs_f64(args.time.max(0.01))),
    };
    let stop = AtomicBool::new(false);
    let verbose = args.verbose;
    let result = engine.search(
        &game.searchable(),
        &game.history(),
        limits,
        args.lines.max(1),
        &stop,
        &mut |i| {
            if verbose {
                println!("{}", super::engine::info_line(i));
            }
        },
    );
    println!(
        "\nBest moves for {} (depth {}, {:.2} s, {} nodes):",
        game.turn().title(),
        result.depth,
        result.time.as_secs_f64(),
        result.nodes
    );
    for (n, (score, pv)) in result.lines.iter().enumerate() {
        let Some(mv) = pv.first() else { continue };
        let line: Vec<String> = pv.iter().map(|m| m.to_string()).collect();
        println!(
            "{:>2}. {:<12} {:>10}   {}",
            n + 1,
            mv.to_string(),
            score.to_string(),
            line.join(" ")
        );
        println!("    why: {}", why(pv, *score).join("; "));
    }
}
