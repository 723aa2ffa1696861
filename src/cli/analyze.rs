//! `brett analyze`: the best moves of a position, with scores, lines and reasons.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use anyhow::Result;
use engine::MuehleState;
use engine::muehle::explain::explain_move;
use search::{Engine, Limits};

/// Arguments of `brett analyze`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Position: a Mühle position string or a Dame FEN (default: the start).
    position: Option<String>,
    /// The game.
    #[arg(long, value_enum, default_value_t = super::GameKind::Muehle)]
    game: super::GameKind,
    /// Rule set: for Mühle a preset with options; for Dame a preset or options
    /// applied to the game's preset.
    #[arg(long, default_value = "standard", long_help = super::RULES_HELP)]
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
    if args.game != super::GameKind::Muehle {
        return run_dame(args);
    }
    let rules = super::parse_rules(&args.rules)?;
    let start = super::start_position(rules, args.position.as_deref())?;
    let mut game = muehle::Game::from_position(start);
    if let Some(moves) = &args.moves {
        for text in muehle::join_removal_tokens(moves.split_whitespace()) {
            game.play_str(&text)
                .map_err(|e| anyhow::anyhow!("--moves: '{text}': {e}"))?;
        }
    }
    let pos = *game.position();
    print!(
        "{}",
        crate::board::render(&pos, game.moves().last().copied())
    );
    print!("{}", crate::board::status(&pos));
    if let Some(o) = game.outcome() {
        println!("\nThe game is over: {}.", o.describe());
        return Ok(());
    }
    let history: Vec<u64> = (0..game.ply())
        .filter_map(|i| game.position_at(i).map(|p| p.hash()))
        .collect();
    if let Some(tb) = engine::muehle::databases::for_rules(&rules)
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
    let white = pos.turn() == muehle::Color::White;
    report(
        &args,
        &MuehleState::new(pos),
        &history,
        white,
        |pv, score| {
            pv.first()
                .map(|mv| explain_move(&pos, *mv, Some(score)))
                .unwrap_or_default()
        },
    );
    Ok(())
}

fn run_dame(args: Args) -> Result<()> {
    let rules_arg = (args.rules != "standard").then_some(args.rules.as_str());
    let rules = super::dame_rules(args.game, rules_arg)?;
    let start = super::dame_position(rules, args.position.as_deref())?;
    let mut game = dame::Game::from_position(start);
    if let Some(moves) = &args.moves {
        for text in moves.split_whitespace() {
            game.play_str(text)
                .map_err(|e| anyhow::anyhow!("--moves: '{text}': {e}"))?;
        }
    }
    let pos = *game.position();
    print!("{}", crate::board::render_dame(&pos));
    print!("{}", crate::board::dame_status(&pos));
    if let Some(o) = game.outcome() {
        println!("\nThe game is over: {}.", o.describe());
        return Ok(());
    }
    let history: Vec<u64> = (0..game.ply())
        .filter_map(|i| game.position_at(i).map(|p| p.hash()))
        .collect();
    let white = pos.turn() == dame::Color::White;
    report(
        &args,
        &engine::DameState::new(pos),
        &history,
        white,
        |pv, score| engine::dame::explain::explain_move(&pos, pv, Some(score)),
    );
    Ok(())
}

/// Search `root` as `args` say and print the best lines with their reasons.
fn report<G: search::Game>(
    args: &Args,
    root: &G,
    history: &[u64],
    white_to_move: bool,
    why: impl Fn(&[G::Move], search::Score) -> Vec<String>,
) {
    let engine = Engine::new(args.hash, args.threads);
    let limits = match args.depth {
        Some(d) => Limits::depth(d),
        None => Limits::movetime(Duration::from_secs_f64(args.time.max(0.01))),
    };
    let stop = AtomicBool::new(false);
    let verbose = args.verbose;
    let result = engine.search(root, history, limits, args.lines.max(1), &stop, &mut |i| {
        if verbose {
            println!("{}", super::engine::info_line(i));
        }
    });
    println!(
        "\nBest moves for {} (depth {}, {:.2} s, {} nodes):",
        if white_to_move { "White" } else { "Black" },
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
