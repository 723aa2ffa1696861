//! `brett tune`: tune the Mühle evaluation weights by self-play.
//!
//! For each weight in turn, two variants (the weight raised and lowered by a
//! step) each play a match against the current weights at a fixed depth from
//! varied openings, both colours per opening. A variant that scores clearly
//! better is adopted. Fixed-depth games are reproducible and do not depend
//! on the machine's speed.

use std::sync::atomic::AtomicBool;

use anyhow::Result;
use engine::WeightedMuehle;
use muehle::eval::Weights;
use muehle::{Color, Game, RuleSet};
use search::{Engine, Limits};

/// Arguments of `brett tune`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Games per variant (rounded up to an even number: each opening is played with both colours).
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Search depth of every move.
    #[arg(long, default_value_t = 4)]
    depth: u32,
    /// Passes over all weights.
    #[arg(long, default_value_t = 1)]
    rounds: usize,
    /// Relative step of a change (0.3 = ±30 %).
    #[arg(long, default_value_t = 0.3)]
    step: f64,
    /// Score a variant needs to be adopted (0.5 = equal).
    #[arg(long, default_value_t = 0.55)]
    threshold: f64,
    /// Random placements at the start of each game pair.
    #[arg(long, default_value_t = 4)]
    opening_plies: usize,
    /// Seed for the openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

const NAMES: [&str; 10] = [
    "stone",
    "closed_mill",
    "open_line",
    "threat",
    "double_threat",
    "zwickmuehle",
    "mobility",
    "blocked_stone",
    "junction",
    "tempo",
];

fn get(w: &Weights, i: usize) -> i32 {
    [
        w.stone,
        w.closed_mill,
        w.open_line,
        w.threat,
        w.double_threat,
        w.zwickmuehle,
        w.mobility,
        w.blocked_stone,
        w.junction,
        w.tempo,
    ][i]
}

fn set(w: &mut Weights, i: usize, v: i32) {
    let slot = match i {
        0 => &mut w.stone,
        1 => &mut w.closed_mill,
        2 => &mut w.open_line,
        3 => &mut w.threat,
        4 => &mut w.double_threat,
        5 => &mut w.zwickmuehle,
        6 => &mut w.mobility,
        7 => &mut w.blocked_stone,
        8 => &mut w.junction,
        _ => &mut w.tempo,
    };
    *slot = v;
}

/// One game; returns White's score (1, ½, 0).
fn play(
    white: &'static Weights,
    black: &'static Weights,
    opening: &[muehle::Move],
    depth: u32,
) -> f64 {
    let mut game = Game::new(RuleSet::STANDARD);
    for &m in opening {
        if game.play(m).is_err() {
            break;
        }
    }
    let engine = Engine::new(4, 1);
    let stop = AtomicBool::new(false);
    while !game.is_over() && game.ply() < 300 {
        let pos = *game.position();
        let weights = if pos.turn() == Color::White {
            white
        } else {
            black
        };
        let history: Vec<u64> = (0..game.ply())
            .filter_map(|i| game.position_at(i).map(|p| p.hash()))
            .collect();
        let r = engine.search(
            &WeightedMuehle { pos, weights },
            &history,
            Limits::depth(depth),
            1,
            &stop,
            &mut |_| {},
        );
        match r.best {
            Some(m) => {
                if game.play(m).is_err() {
                    break;
                }
            }
            None => break,
        }
    }
    match game.outcome().and_then(|o| o.winner) {
        Some(Color::White) => 1.0,
        Some(Color::Black) => 0.0,
        None => 0.5,
    }
}

/// The score of `cand` against `base` over `pairs` opening pairs.
fn duel(cand: &'static Weights, base: &'static Weights, args: &Args) -> f64 {
    let pairs = args.games.div_ceil(2);
    let mut total = 0.0;
    for k in 0..pairs {
        let mut rng =
            fastrand::Rng::with_seed(args.seed.wrapping_mul(0x9E37_79B9).wrapping_add(k as u64));
        let mut g = Game::new(RuleSet::STANDARD);
        let mut opening = Vec::new();
        for _ in 0..args.opening_plies {
            let moves = g.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.usize(0..moves.len())];
            opening.push(m);
            let _ = g.play(m);
        }
        total += play(cand, base, &opening, args.depth);
        total += 1.0 - play(base, cand, &opening, args.depth);
    }
    total / (2 * pairs) as f64
}

pub fn run(args: Args) -> Result<()> {
    let mut best: &'static Weights = Box::leak(Box::new(Weights::TUNED));
    println!(
        "Tuning {} weights, {} games per variant at depth {}, step ±{:.0} %",
        NAMES.len(),
        args.games.div_ceil(2) * 2,
        args.depth,
        args.step * 100.0
    );
    for round in 1..=args.rounds {
        for (i, name) in NAMES.iter().enumerate().skip(1) {
            let v = get(best, i);
            let delta = ((f64::from(v) * args.step).round() as i32).max(2);
            let mut adopted = false;
            for cand_value in [v + delta, (v - delta).max(0)] {
                if cand_value == v {
                    continue;
                }
                let mut w = *best;
                set(&mut w, i, cand_value);
                let cand: &'static Weights = Box::leak(Box::new(w));
                let score = duel(cand, best, &args);
                println!("round {round}: {name:>14} {v:>4} -> {cand_value:>4}: score {score:.3}");
                if score >= args.threshold {
                    best = cand;
                    adopted = true;
                    println!("round {round}: {name:>14} adopted {cand_value}");
                    break;
                }
            }
            if !adopted {
                println!("round {round}: {name:>14} kept {v}");
            }
        }
    }
    println!("\nWeights:");
    for (i, name) in NAMES.iter().enumerate() {
        println!("    {name}: {},", get(best, i));
    }
    Ok(())
}
