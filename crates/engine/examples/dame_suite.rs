//! Solve a Dame suite file at a fixed depth with this build's search.
//!
//! ```text
//! cargo run --profile ci -p engine --example dame_suite -- SUITE.txt DEPTH
//! ```
//!
//! `nNODES` instead of DEPTH (`n20000`) searches a fixed number of nodes,
//! `tMS` (`t100`) a fixed time (not reproducible). The line after the misses
//! also gives the mean depth reached.
//!
//! Prints the misses, then `solved N/M at depth D, nodes X` (one thread, a
//! fresh table per case: reproducible).

use std::sync::atomic::AtomicBool;

use dame::{Position, RuleSet};
use engine::DameState;
use search::{Engine, Limits};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let limit = args.get(1).and_then(|d| {
        if let Some(n) = d.strip_prefix('n') {
            n.parse().ok().map(Limits::nodes)
        } else if let Some(ms) = d.strip_prefix('t') {
            ms.parse()
                .ok()
                .map(|ms| Limits::movetime(std::time::Duration::from_millis(ms)))
        } else {
            d.parse().ok().map(Limits::depth)
        }
    });
    let (Some(path), Some(limits)) = (args.first(), limit) else {
        eprintln!("usage: dame_suite SUITE.txt DEPTH|nNODES");
        std::process::exit(2);
    };
    let depth = &args[1];
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(2)
    });
    let (mut solved, mut total, mut nodes, mut depths) = (0, 0, 0u64, 0u64);
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split(';').map(str::trim).collect();
        if f.len() != 5 {
            eprintln!("bad line: {line}");
            continue;
        }
        let Some(rules) = RuleSet::preset(f[1]) else {
            eprintln!("unknown rules: {line}");
            continue;
        };
        let Ok(pos) = Position::from_fen(f[2], rules) else {
            eprintln!("bad position: {line}");
            continue;
        };
        let engine = Engine::new(16, 1);
        let stop = AtomicBool::new(false);
        let r = engine.search(&DameState::new(pos), &[], limits, 1, &stop, &mut |_| {});
        total += 1;
        nodes += r.nodes;
        depths += u64::from(r.depth);
        let best = r.best.map(|m| pos.short_notation(&m)).unwrap_or_default();
        if f[4].split_whitespace().any(|m| m == best) {
            solved += 1;
        } else {
            println!("miss {}: played {best}, expected {}", f[0], f[4]);
        }
    }
    println!(
        "solved {solved}/{total} at {depth}, nodes {nodes}, mean depth {:.2}",
        depths as f64 / f64::from(total.max(1))
    );
}
