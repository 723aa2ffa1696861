use std::time::Instant;

use anyhow::Result;
use muehle::perft::{perft, perft_divide};

/// Arguments of `brett perft`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Rule set (preset and options).
    #[arg(long, default_value = "standard", long_help = super::RULES_HELP)]
    rules: String,
    /// Start from this position string instead of the start position.
    #[arg(long)]
    position: Option<String>,
    /// Print the count after each first move at the last depth.
    #[arg(long)]
    divide: bool,
    /// Deepest depth to count (every depth from 1 up to it is printed).
    depth: u32,
}

pub fn run(args: Args) -> Result<()> {
    let rules = super::parse_rules(&args.rules)?;
    let pos = super::start_position(rules, args.position.as_deref())?;
    for depth in 1..=args.depth {
        let t = Instant::now();
        let nodes = perft(&pos, depth);
        println!(
            "depth {depth} nodes {nodes} time {:.3}",
            t.elapsed().as_secs_f64()
        );
    }
    if args.divide && args.depth > 0 {
        for (m, n) in perft_divide(&pos, args.depth) {
            println!("{m} {n}");
        }
    }
    Ok(())
}
