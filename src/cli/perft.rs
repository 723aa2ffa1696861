use std::time::Instant;

use anyhow::Result;

use super::game::Variant;

/// Arguments of `brett perft`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game.
    #[arg(long, value_enum, default_value_t = Variant::Muehle)]
    game: Variant,
    /// Rule set: for Mühle a preset with options (default standard); for Dame
    /// a preset (dame, dame-100, dame-fr, international) or options applied to
    /// the game's preset, e.g. 'huffing=on'.
    #[arg(long, long_help = super::game::RULES_HELP)]
    rules: Option<String>,
    /// Start from this position (Mühle position string, or Dame FEN such as
    /// W:W31-50:B1-20) instead of the start position.
    #[arg(long)]
    position: Option<String>,
    /// Print the count after each first move at the last depth.
    #[arg(long)]
    divide: bool,
    /// Deepest depth to count (every depth from 1 up to it is printed).
    depth: u32,
}

pub fn run(args: Args) -> Result<()> {
    let setup = super::game::setup(args.game, args.rules.as_deref())?;
    let game = super::game::start(setup, args.position.as_deref())?;
    let game = game.local();
    for depth in 1..=args.depth {
        let t = Instant::now();
        let nodes = game.perft(depth);
        println!(
            "depth {depth} nodes {nodes} time {:.3}",
            t.elapsed().as_secs_f64()
        );
    }
    if args.divide && args.depth > 0 {
        for (m, n) in game.perft_divide(args.depth) {
            println!("{m} {n}");
        }
    }
    Ok(())
}
