//! Perft from the start (or a FEN) in release mode, with timing:
//!
//! ```text
//! cargo run -p dame --release --example perft -- [rules] [depth] [fen]
//! cargo run -p dame --release --example perft -- international 9
//! ```

use std::time::Instant;

/// CPU time of this thread in seconds (Linux), to measure fairly on a
/// machine shared with other work; `None` elsewhere.
fn cpu_seconds() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

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
    let mut total_cpu = 0f64;
    for d in 1..=depth {
        let t = Instant::now();
        let c = cpu_seconds();
        let n = perft(&pos, d);
        let secs = t.elapsed().as_secs_f64();
        let cpu = match (c, cpu_seconds()) {
            (Some(a), Some(b)) => b - a,
            _ => secs,
        };
        total_nodes += n;
        total_secs += secs;
        total_cpu += cpu;
        println!(
            "depth {d:2}  {n:>15}  {secs:8.3} s  {:7.1} M leaves/s (wall)  {:7.1} M leaves/s (cpu)",
            n as f64 / secs.max(1e-9) / 1e6,
            n as f64 / cpu.max(1e-9) / 1e6
        );
    }
    println!(
        "total {total_nodes} leaves in {total_secs:.3} s wall, {total_cpu:.3} s cpu: {:.1} M leaves/s (wall), {:.1} M leaves/s (cpu)",
        total_nodes as f64 / total_secs.max(1e-9) / 1e6,
        total_nodes as f64 / total_cpu.max(1e-9) / 1e6
    );
}
