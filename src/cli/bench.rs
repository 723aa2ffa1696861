//! `brett bench`: fixed positions searched to a fixed depth. The total node
//! count is a signature of the search: it changes only when the search does.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use anyhow::Result;
use engine::MuehleState;
use muehle::Position;
use search::{Engine, Limits};

/// The bench positions: the start, three middle games, two endgames.
pub const POSITIONS: [&str; 6] = [
    ".../.../.../....../.../.../... w 9 9 0 1",
    "W.B/.W./.B./.WB.../.W./B../... w 5 5 0 5",
    "W.B/.WB/W.B/BW..WB/.W./B.W/... w 0 0 12 20",
    "WB./B.W/.W./WB..BW/.B./W.B/W.. b 0 0 4 22",
    "W../.B./.../.W..B./..B/.../..W w 0 0 6 40",
    "WW./.B./B../....../.W./.B./... b 0 0 2 45",
];

/// Arguments of `brett bench`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Search depth for every position.
    #[arg(default_value_t = 10)]
    depth: u32,
    /// Instead of a fixed depth, think this many milliseconds per position and
    /// report the depth reached and the speed.
    #[arg(long)]
    movetime: Option<u64>,
    /// Threads (with --movetime).
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

pub fn run(args: Args) -> Result<()> {
    if let Some(ms) = args.movetime {
        return timed(ms, args.threads);
    }
    let mut total_nodes = 0u64;
    let started = Instant::now();
    for fen in POSITIONS {
        let pos: Position = fen.parse()?;
        // A fresh table for every position: the count depends on nothing else.
        let engine = Engine::new(16, 1);
        let stop = AtomicBool::new(false);
        let t = Instant::now();
        let r = engine.search(
            &MuehleState::new(pos),
            &[],
            // The signature must not depend on databases being installed.
            Limits {
                no_databases: true,
                ..Limits::depth(args.depth)
            },
            1,
            &stop,
            &mut |_| {},
        );
        let best = r.best.map_or("none".to_string(), |m| m.to_string());
        println!(
            "{fen:<48} best {best:<10} score {:<8} nodes {:>10} time {:.3}",
            r.score.protocol(),
            r.nodes,
            t.elapsed().as_secs_f64()
        );
        total_nodes += r.nodes;
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "bench depth {} nodes {} nps {} time {:.3}",
        args.depth,
        total_nodes,
        (total_nodes as f64 / secs.max(1e-9)) as u64,
        secs
    );
    Ok(())
}

/// Depth reached and speed in a fixed time, per position.
fn timed(ms: u64, threads: usize) -> Result<()> {
    let mut total_nodes = 0;
    let mut total_secs = 0.0;
    for fen in POSITIONS {
        let pos: Position = fen.parse()?;
        let engine = Engine::new(64, threads);
        let stop = AtomicBool::new(false);
        let r = engine.search(
            &MuehleState::new(pos),
            &[],
            Limits {
                no_databases: true,
                ..Limits::movetime(std::time::Duration::from_millis(ms))
            },
            1,
            &stop,
            &mut |_| {},
        );
        let secs = r.time.as_secs_f64();
        println!(
            "{fen:<48} depth {:>3} nodes {:>10} nps {:>9} score {}",
            r.depth,
            r.nodes,
            (r.nodes as f64 / secs.max(1e-9)) as u64,
            r.score.protocol()
        );
        total_nodes += r.nodes;
        total_secs += secs;
    }
    println!(
        "bench movetime {ms} threads {threads} nodes {total_nodes} nps {}",
        (total_nodes as f64 / total_secs.max(1e-9)) as u64
    );
    Ok(())
}
