//! How long the placing solver needs to answer at ply `PLY` (default 7):
//! `placing_speed DIR [COUNT] [SEED]` plays `PLY` random placements, then
//! times, each on a new table, the exact value (`solve`, what the engine
//! asked first before) and the draw proof (`not_lost`, what it asks first
//! now). Prints the median, 90th percentile and maximum of each, and how
//! many answered within 350 ms (the solver's share of a 500 ms move).
use std::time::Instant;

use engine::muehle::placing::{PlacingSolver, PlacingTable};
use muehle::{Position, RuleSet};
use tablebase::{Tablebase, Variant};

fn percentile(v: &mut [f64], p: f64) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[((v.len() - 1) as f64 * p).round() as usize]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let count: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(40);
    let mut seed: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    let ply: usize = std::env::var("PLY")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(7);
    let rules = RuleSet::STANDARD;
    let tb = Tablebase::new(&args[1], Variant::of(&rules));
    let stop = std::sync::atomic::AtomicBool::new(false);
    let t = Instant::now();
    tb.warm_wdl(15, &stop);
    println!("warm: {:.1} s", t.elapsed().as_secs_f64());
    let (mut exact, mut draw) = (Vec::new(), Vec::new());
    for _ in 0..count {
        let mut pos = Position::new(rules);
        for _ in 0..ply {
            let moves = pos.legal_moves();
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            pos.play_unchecked(moves[(seed % moves.len() as u64) as usize]);
        }
        let table = PlacingTable::new(20_000_000);
        let t = Instant::now();
        let v = PlacingSolver::new(&tb, &table, u64::MAX).solve(&pos);
        exact.push(t.elapsed().as_secs_f64());
        let table = PlacingTable::new(20_000_000);
        let t = Instant::now();
        let d = PlacingSolver::new(&tb, &table, u64::MAX).not_lost(&pos);
        draw.push(t.elapsed().as_secs_f64());
        println!(
            "{} value {v:?} not lost {d:?}: exact {:.3} s, draw proof {:.3} s",
            pos,
            exact.last().unwrap(),
            draw.last().unwrap()
        );
    }
    for (name, v) in [
        ("exact value (solve)", &mut exact),
        ("draw proof (not_lost)", &mut draw),
    ] {
        let within = v.iter().filter(|&&s| s <= 0.35).count();
        println!(
            "{name}: median {:.3} s, p90 {:.3} s, max {:.3} s, within 350 ms {within} of {}",
            percentile(v, 0.5),
            percentile(v, 0.9),
            percentile(v, 1.0),
            v.len()
        );
    }
}
