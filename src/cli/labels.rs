//! `brett tune --make-labels` and `brett tune --labels`: Mühle positions
//! at and just before the end of placing, labelled with their value from
//! the perfect-play databases, and the evaluation weights fitted to them.
//!
//! The recipe (docs/ENGINE.md): self-play games from the start, each ply a
//! random legal move with probability `--random-share` (and always during
//! the first 0 to `--opening-plies` plies), else the engine's move at
//! `--depth` without databases. Every position of a game with at most two
//! stones left in hand on both sides together (the last two placements and
//! the first position of the moving phase) is labelled: positions of the
//! moving phase are probed, the others get the exact value of a search over
//! the remaining placements down to the databases. Game `i` uses seed
//! `--seed + i`, so the file depends only on the options.

use std::io::{BufRead, BufWriter, Write};
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use anyhow::{Context, Result, bail};
use engine::MuehleState;
use engine::texel::{Sample, fit};
use muehle::eval::{NAMES, Weights, features};
use muehle::{Color, Position, RuleSet};
use search::{Engine, Limits};
use tablebase::{Tablebase, Value};

/// Options of the label generation.
pub struct MakeOptions {
    pub games: usize,
    pub seed: u64,
    pub depth: u32,
    pub opening_plies: usize,
    pub random_share: f64,
    pub threads: usize,
}

/// Positions with their values.
type Labelled = Vec<(Position, Value)>;

/// The labelled positions of game number `i`.
fn one_game(tb: &Tablebase, options: &MakeOptions, i: usize) -> Labelled {
    let rules = RuleSet::STANDARD;
    let mut rng = fastrand::Rng::with_seed(options.seed.wrapping_add(i as u64));
    let opening = rng.usize(0..=options.opening_plies);
    let engine = Engine::new(4, 1);
    let stop = AtomicBool::new(false);
    let mut pos = Position::new(rules);
    let mut history: Vec<u64> = Vec::new();
    let mut out = Vec::new();
    for ply in 0.. {
        let in_hand = pos.in_hand(Color::White) + pos.in_hand(Color::Black);
        if in_hand <= 2
            && let Some(v) = engine::muehle::databases::exact_value(tb, &pos, 2)
        {
            out.push((pos, v));
        }
        if in_hand == 0 || pos.outcome().is_some() {
            break;
        }
        let moves = pos.legal_moves();
        let m = if ply < opening || rng.f64() < options.random_share {
            moves[rng.usize(0..moves.len())]
        } else {
            let state = MuehleState::with_weights(pos, &Weights::TUNED);
            let limits = Limits {
                no_databases: true,
                ..Limits::depth(options.depth)
            };
            match engine
                .search(&state, &history, limits, 1, &stop, &mut |_| {})
                .best
            {
                Some(m) => m,
                None => break,
            }
        };
        history.push(pos.hash());
        pos.play_unchecked(m);
    }
    out
}

/// Run `work(i)` for every game `i` below `games` on `threads` threads
/// (each takes the next game when it is done with one).
pub(crate) fn for_each_game(threads: usize, games: usize, work: impl Fn(usize) + Sync) {
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= games {
                        break;
                    }
                    work(i);
                }
            });
        }
    });
}

/// Play the games and write `FEN<TAB>value` lines to `path`.
pub fn make(tb: &Tablebase, path: &Path, options: &MakeOptions) -> Result<()> {
    let results: Mutex<Vec<(usize, Labelled)>> = Mutex::new(Vec::new());
    let started = std::time::Instant::now();
    super::labels::for_each_game(options.threads, options.games, |i| {
        let labelled = one_game(tb, options, i);
        let mut r = results.lock().unwrap_or_else(|e| e.into_inner());
        r.push((i, labelled));
        if r.len().is_multiple_of(500) {
            eprintln!(
                "{} of {} games ({:.0} s)",
                r.len(),
                options.games,
                started.elapsed().as_secs_f64()
            );
        }
    });
    let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.sort_by_key(|(i, _)| *i);
    let file =
        std::fs::File::create(path).with_context(|| format!("cannot write {}", path.display()))?;
    let mut w = BufWriter::new(file);
    let (mut n, mut wins, mut draws) = (0usize, 0usize, 0usize);
    for (_, game) in &results {
        for (pos, v) in game {
            writeln!(w, "{}\t{v}", pos.fen())?;
            n += 1;
            match v {
                Value::Win(_) => wins += 1,
                Value::Draw => draws += 1,
                Value::Loss(_) => {}
            }
        }
    }
    w.flush()?;
    println!(
        "{n} positions from {} games written to {} ({wins} won, {draws} drawn, {} lost for the side to move; {:.0} s)",
        options.games,
        path.display(),
        n - wins - draws,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Read a label file: each line a position string, a tab and `win N`,
/// `draw` or `loss N`.
pub fn read(path: &Path) -> Result<Vec<Sample>> {
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut samples = Vec::new();
    for (n, line) in std::io::BufReader::new(file).lines().enumerate() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let Some((fen, value)) = line.split_once('\t') else {
            bail!(
                "{}:{}: expected a position, a tab and a value",
                path.display(),
                n + 1
            );
        };
        let pos = Position::from_fen(fen, RuleSet::STANDARD)
            .with_context(|| format!("{}:{}: bad position", path.display(), n + 1))?;
        let target = match value.split_whitespace().next() {
            Some("win") => 1.0,
            Some("draw") => 0.5,
            Some("loss") => 0.0,
            _ => bail!("{}:{}: bad value '{value}'", path.display(), n + 1),
        };
        samples.push(Sample {
            features: features(&pos),
            target,
        });
    }
    Ok(samples)
}

/// Fit the weights to a label file and print them.
pub fn fit_file(path: &Path, iterations: usize) -> Result<Weights> {
    let samples = read(path)?;
    if samples.len() < 100 {
        bail!(
            "{} holds {} positions; the fit needs at least 100",
            path.display(),
            samples.len()
        );
    }
    // Every tenth position is held out to check the fit on unseen data.
    let (mut train, mut test) = (Vec::new(), Vec::new());
    for (i, s) in samples.into_iter().enumerate() {
        if i % 10 == 9 {
            test.push(s);
        } else {
            train.push(s);
        }
    }
    let start = Weights::TUNED;
    let r = fit(&train, start, &[0], iterations);
    let f = |w: &Weights| w.to_array().map(f64::from);
    println!(
        "{} positions fitted, {} held out; scale {:.0}",
        train.len(),
        test.len(),
        r.scale
    );
    println!(
        "loss (mean cross-entropy) fitted set {:.4} → {:.4}, held-out set {:.4} → {:.4}",
        r.loss_before,
        r.loss_after,
        engine::texel::loss(&test, &f(&start), r.scale),
        engine::texel::loss(&test, &f(&r.weights), r.scale)
    );
    println!("\nWeights:");
    for (name, (old, new)) in NAMES
        .iter()
        .zip(start.to_array().iter().zip(r.weights.to_array()))
    {
        println!(
            "    {name}: {new},{}",
            if *old != new {
                format!("  // was {old}")
            } else {
                String::new()
            }
        );
    }
    Ok(r.weights)
}
