//! `brett analyze`: the best moves of a position, with scores, lines and reasons.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use anyhow::Result;
use games::LiveGame;
use search::{Engine, Limits};

use super::game::Variant;
use crate::terminal::Terminal;

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
    let setup = super::game::setup(args.game, Some(&args.rules))?;
    let game = start(super::game::start(setup, args.position.as_deref())?, &args)?;
    for line in game.local().perfect_play() {
        println!("{line}");
    }
    report(&args, &game);
    Ok(())
}

/// The game after `--moves`, drawn with its status.
fn start(mut game: LiveGame, args: &Args) -> Result<LiveGame> {
    if let Some(moves) = &args.moves {
        let tokens: Vec<&str> = moves.split_whitespace().collect();
        game.local_mut()
            .play_tokens(&tokens)
            .map_err(|e| anyhow::anyhow!("--moves: {e}"))?;
    }
    print!("{}", game.local().render(&Terminal));
    if let Some(ending) = game.ending() {
        println!("\nThe game is over: {}.", ending.text);
    }
    Ok(game)
}

/// Search the game as `args` say and print the best lines with their reasons.
fn report(args: &Args, game: &LiveGame) {
    if game.ending().is_some() {
        return;
    }
    let engine = Engine::new(args.hash, args.threads);
    let limits = match args.depth {
        Some(d) => Limits::depth(d),
        None => Limits::movetime(Duration::from_secs_f64(args.time.max(0.01))),
    };
    let stop = AtomicBool::new(false);
    let verbose = args.verbose;
    let result = game
        .local()
        .analysis(&engine, limits, args.lines.max(1), &stop, &mut |i| {
            if verbose {
                println!("{}", super::engine::info_line(i));
            }
        });
    println!(
        "\nBest moves for {} (depth {}, {:.2} s, {} nodes):",
        game.turn().title(),
        result.depth,
        result.time_ms as f64 / 1000.0,
        result.nodes
    );
    for (n, line) in result.lines.iter().enumerate() {
        println!(
            "{:>2}. {:<12} {:>10}   {}",
            n + 1,
            line.mv,
            line.score_text,
            line.pv.join(" ")
        );
        println!("    why: {}", line.why.join("; "));
    }
}
