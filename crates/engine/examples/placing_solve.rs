//! Solve the placing positions of move lists: `placing_solve DIR FILE`
//! (one game a line, moves separated by spaces; a leading `W`/`B` word is
//! skipped) prints, from ply `FROM` (default 8) to ply `TO` (default 17),
//! the exact value for the side to move before and after each move, with
//! the cost. `COLD=1`: a new table for every ply; `WARM=1`: read the
//! sectors that end placing into memory first.
use std::time::Instant;

use engine::muehle::placing::{PlacingSolver, PlacingTable};
use muehle::{Color, Position, RuleSet};
use tablebase::{Tablebase, Variant};

fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (from, to) = (env("FROM", 8), env("TO", 17));
    let cold = std::env::var("COLD").is_ok();
    let rules = RuleSet::STANDARD;
    let tb = Tablebase::new(&args[1], Variant::of(&rules));
    if std::env::var("WARM").is_ok() {
        let t = Instant::now();
        let stop = std::sync::atomic::AtomicBool::new(false);
        tb.warm_wdl(15, &stop);
        println!(
            "warm: {:.1} s, {} MB",
            t.elapsed().as_secs_f64(),
            tablebase::wdl_cache_bytes() >> 20
        );
    }
    let text = std::fs::read_to_string(&args[2]).expect("game file");
    let (mut total_nodes, mut total_time) = (0u64, 0f64);
    for line in text.lines() {
        let moves: Vec<&str> = line
            .split_whitespace()
            .filter(|w| *w != "W" && *w != "B")
            .collect();
        println!("== {line}");
        let mut table = PlacingTable::new(50_000_000);
        let mut pos = Position::new(rules);
        for (ply, text) in moves.iter().enumerate() {
            let m = pos.parse_move(text).expect("move");
            let placing = pos.in_hand(Color::White) > 0 || pos.in_hand(Color::Black) > 0;
            if ply >= from && ply <= to && placing {
                if cold {
                    table = PlacingTable::new(50_000_000);
                }
                let mut solver = PlacingSolver::new(&tb, &table, u64::MAX);
                let t = Instant::now();
                let v = solver.solve(&pos);
                let mut after = pos;
                after.play_unchecked(m);
                let va = solver.solve(&after).map(|v| -v);
                let secs = t.elapsed().as_secs_f64();
                total_nodes += solver.nodes();
                total_time += secs;
                println!(
                    "ply {ply:2} {:?} to move: {v:?}; after {text}: {va:?}  ({} nodes, {secs:.3} s, table {})",
                    pos.turn(),
                    solver.nodes(),
                    table.len()
                );
            }
            pos.play_unchecked(m);
        }
    }
    println!(
        "total: {total_nodes} nodes in {total_time:.2} s ({:.2} M nodes/s)",
        total_nodes as f64 / total_time / 1e6
    );
}
