//! Perft from the start (or a FEN) in release mode, with timing:
//!
//! ```text
//! cargo run -p dame --release --example perft -- [rules] [depth] [fen]
//! cargo run -p dame --release --example perft -- international 9
//! ```

use std::time::Instant;

use dame::perft::perft;
use dame::{Position, RuleSet};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rules: RuleSet = match args.first().map(|s| s.parse()) {
        Some(Ok(r)) => r,
        Some(Err(e)) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
        None => RuleSet::DAME,
    };
    let depth: u32 = args.get(1).and_then(|d| d.parse().ok()).unwrap_or(8);
    let pos = match args.get(2) {
        Some(fen) => match Position::from_fen(fen, rules) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(2);
            }
        },
        None => Position::new(rules),
    };
    println!("rules {rules}, position {}", pos.fen());
    let mut total_nodes = 0u64;
    let mut total_secs = 0f64;
    for d in 1..=depth {
        let t = Instant::now();
        let n = perft(&pos, d);
        let secs = t.elapsed().as_secs_f64();
        total_nodes += n;
        total_secs += secs;
        println!(
            "depth {d:2}  {n:>15}  {secs:8.3} s  {:8.1} M leaves/s",
            n as f64 / secs.max(1e-9) / 1e6
        );
    }
    println!(
        "total {total_nodes} leaves in {total_secs:.3} s: {:.1} M leaves/s",
        total_nodes as f64 / total_secs.max(1e-9) / 1e6
    );
}
