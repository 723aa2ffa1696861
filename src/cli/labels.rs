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
use engine::muehle::placing::{PlacingSolver, PlacingTable};
use engine::texel::{Sample, fit};
use muehle::eval::{NAMES, Weights, features};
use muehle::{Color, Position, RuleSet};
use search::{Engine, Limits};
use tablebase::Tablebase;

/// Options of the label generation.
pub struct MakeOptions {
    pub games: usize,
    pub seed: u64,
    pub depth: u32,
    pub opening_plies: usize,
    pub random_share: f64,
    pub threads: usize,
    /// Placing positions are labelled once at most this many stones are in
    /// hand (both sides together).
    pub in_hand: u32,
    /// Positions of the moving phase labelled after placing (the game goes
    /// on this many plies).
    pub moving_plies: usize,
}

/// Positions with their values (`win N`, `draw`, `loss N`; without the
/// distance where the placing solver found the value).
type Labelled = Vec<(Position, String)>;

/// The labelled positions of game number `i`.
fn one_game(tb: &Tablebase, table: &PlacingTable, options: &MakeOptions, i: usize) -> Labelled {
    let rules = RuleSet::STANDARD;
    let mut rng = fastrand::Rng::with_seed(options.seed.wrapping_add(i as u64));
    let opening = rng.usize(0..=options.opening_plies);
    let engine = Engine::new(4, 1);
    let stop = AtomicBool::new(false);
    let mut pos = Position::new(rules);
    let mut history: Vec<u64> = Vec::new();
    let mut out = Vec::new();
    let mut moving = 0;
    for ply in 0.. {
        let in_hand = u32::from(pos.in_hand(Color::White) + pos.in_hand(Color::Black));
        if pos.outcome().is_some() {
            break;
        }
        if in_hand <= options.in_hand {
            // The exact value: probed once placing has ended, found by an
            // exact search over the last two placements (with the distance),
            // else by the placing solver (win, draw or loss only).
            let label = if in_hand <= 2 {
                engine::muehle::databases::exact_value(tb, &pos, 2).map(|v| v.to_string())
            } else {
                let mut solver = PlacingSolver::new(tb, table, u64::MAX);
                solver.solve(&pos).ok().map(|v| {
                    match v {
                        1 => "win",
                        0 => "draw",
                        _ => "loss",
                    }
                    .to_string()
                })
            };
            if let Some(label) = label {
                out.push((pos, label));
            }
        }
        if in_hand == 0 {
            if moving >= options.moving_plies {
                break;
            }
            moving += 1;
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

/// Games played and written together: a stopped run resumes after the
/// last finished chunk.
const CHUNK: usize = 1000;

/// The file of chunk `k` of `path` while the labels are being made.
fn chunk_path(path: &Path, k: usize) -> std::path::PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(format!(".chunk{k}"));
    name.into()
}

/// Play the games and write `FEN<TAB>value` lines to `path`. Resumable:
/// every [`CHUNK`] games are written to a file of their own beside `path`
/// (kept when the run stops), and the finished chunks are put together
/// at the end.
pub fn make(tb: &Tablebase, path: &Path, options: &MakeOptions) -> Result<()> {
    let started = std::time::Instant::now();
    // The sectors where placing ends in memory (as far as --tablebase-cache
    // allows): the placing solver is fast then.
    if options.in_hand > 2 {
        tb.warm_wdl(15, &AtomicBool::new(false));
    }
    let table = PlacingTable::new(20_000_000);
    let chunks = options.games.div_ceil(CHUNK);
    for k in 0..chunks {
        let part = chunk_path(path, k);
        if part.exists() {
            continue;
        }
        let first = k * CHUNK;
        let count = CHUNK.min(options.games - first);
        let results: Mutex<Vec<(usize, Labelled)>> = Mutex::new(Vec::new());
        super::labels::for_each_game(options.threads, count, |i| {
            let labelled = one_game(tb, &table, options, first + i);
            let mut r = results.lock().unwrap_or_else(|e| e.into_inner());
            r.push((i, labelled));
        });
        let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
        results.sort_by_key(|(i, _)| *i);
        let mut text = String::new();
        for (_, game) in &results {
            for (pos, v) in game {
                text.push_str(&format!("{}\t{v}\n", pos.fen()));
            }
        }
        let tmp = chunk_path(path, k).with_extension("tmp");
        std::fs::write(&tmp, text).with_context(|| format!("cannot write {}", tmp.display()))?;
        std::fs::rename(&tmp, &part).with_context(|| format!("cannot write {}", part.display()))?;
        eprintln!(
            "{} of {} games ({:.0} s)",
            first + count,
            options.games,
            started.elapsed().as_secs_f64()
        );
    }
    let file =
        std::fs::File::create(path).with_context(|| format!("cannot write {}", path.display()))?;
    let mut w = BufWriter::new(file);
    let (mut n, mut wins, mut draws) = (0usize, 0usize, 0usize);
    for k in 0..chunks {
        let part = chunk_path(path, k);
        let text = std::fs::read_to_string(&part)
            .with_context(|| format!("cannot read {}", part.display()))?;
        for line in text.lines() {
            writeln!(w, "{line}")?;
            n += 1;
            let v = line.split('\t').nth(1).unwrap_or("");
            if v.starts_with("win") {
                wins += 1;
            } else if v == "draw" {
                draws += 1;
            }
        }
    }
    w.flush()?;
    for k in 0..chunks {
        std::fs::remove_file(chunk_path(path, k)).ok();
    }
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
/// `draw` or `loss N` (or `win`, `loss`): the positions with their result
/// for the side to move (1, ½ or 0).
pub fn read_positions(path: &Path) -> Result<Vec<(Position, f64)>> {
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut out = Vec::new();
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
        out.push((pos, target));
    }
    Ok(out)
}

/// A label file of `n` positions is refused for a fit when it holds fewer
/// than 100 (Mühle's and Dame's fits alike).
pub(crate) fn enough_to_fit(path: &Path, n: usize) -> Result<()> {
    if n < 100 {
        bail!(
            "{} holds {n} positions; the fit needs at least 100",
            path.display()
        );
    }
    Ok(())
}

/// A label file's positions for a fit: refused when it holds fewer than
/// 100.
fn read_for_fit(path: &Path) -> Result<Vec<(Position, f64)>> {
    let samples = read_positions(path)?;
    enough_to_fit(path, samples.len())?;
    Ok(samples)
}

/// The samples of a label file for the linear fit.
pub fn read(path: &Path) -> Result<Vec<Sample>> {
    Ok(read_positions(path)?
        .into_iter()
        .map(|(pos, target)| Sample {
            features: features(&pos),
            target,
        })
        .collect())
}

/// Fit the pattern weights with the linear weights to a label file, print
/// the linear weights and write the pattern table to `out` (the format of
/// `crates/muehle/data/patterns.bin`). Positions are held out in blocks
/// (every tenth block of about a hundredth of the file), so that positions
/// of one game are seldom on both sides.
pub fn fit_patterns_file(
    path: &Path,
    epochs: usize,
    pattern_ridge: f64,
    linear_ridge: f64,
    rings: bool,
    out: &Path,
) -> Result<()> {
    use engine::muehle::pattern_fit::{PatternOptions, PatternSample, fit_patterns, to_bytes};
    let samples = read_for_fit(path)?;
    let start = Weights {
        patterns: None,
        ..Weights::TUNED
    };
    let (train, test) = split_held_out(&samples, |(pos, target)| {
        PatternSample::new(pos, *target as f32)
    });
    let options = PatternOptions {
        epochs,
        rate: 1.0,
        pattern_ridge,
        linear_ridge,
        rings,
    };
    let fit = fit_patterns(&train, &test, &start, &options);
    report_pattern_fit(
        (train.len(), test.len()),
        fit.scale,
        (fit.train, fit.held_out),
        "linear weights alone -> with patterns",
    );
    let used = fit.patterns.iter().filter(|&&x| x != 0).count();
    println!("pattern entries used: {used} of {}", fit.patterns.len());
    println!("\nWeights:");
    for (name, (old, new)) in NAMES
        .iter()
        .zip(start.to_array().iter().zip(fit.linear.to_array()))
    {
        println!("    {name}: {new},  // was {old}");
    }
    std::fs::write(out, to_bytes(&fit.patterns))
        .with_context(|| format!("cannot write {}", out.display()))?;
    println!("pattern table written to {}", out.display());
    Ok(())
}

/// Fit the network that corrects the evaluation, its first layer `width`
/// units wide, to a label file (`epochs` passes), print the losses and
/// write the network to `out`. Positions are held out in blocks, as for
/// the patterns.
pub fn fit_network_file(path: &Path, epochs: usize, width: usize, out: &Path) -> Result<()> {
    use engine::muehle::network_fit::{NetOptions, NetSample, fit_network};
    let samples = read_for_fit(path)?;
    let (train, test) = split_held_out(&samples, |(pos, target)| {
        NetSample::new(pos, *target as f32)
    });
    drop(samples);
    println!(
        "{} positions fitted, {} held out, {epochs} passes, a first layer of {width} units",
        train.len(),
        test.len()
    );
    let started = std::time::Instant::now();
    let options = NetOptions {
        epochs,
        width,
        ..NetOptions::default()
    };
    let fit = fit_network(&train, &test, &options, |epoch, held| {
        println!(
            "pass {epoch}: held-out loss {held:.5} ({:.0} s)",
            started.elapsed().as_secs_f64()
        );
    });
    println!(
        "training loss {:.5} -> {:.5}; held-out loss {:.5} -> {:.5} (the evaluation alone -> with the network)",
        fit.train.0, fit.train.1, fit.held_out.0, fit.held_out.1
    );
    std::fs::write(out, fit.network.to_bytes())
        .with_context(|| format!("cannot write {}", out.display()))?;
    println!("network written to {}", out.display());
    Ok(())
}

/// Split labelled positions into a training set and a held-out set, made
/// by `make`: every tenth block of positions is held out. A block is a
/// hundredth of the file (1 to 2,000 positions), so that the positions of
/// one game mostly stay on one side.
pub(crate) fn split_held_out<T, S>(samples: &[T], make: impl Fn(&T) -> S) -> (Vec<S>, Vec<S>) {
    let block = (samples.len() / 100).clamp(1, 2000);
    let (mut train, mut test) = (Vec::new(), Vec::new());
    for (i, x) in samples.iter().enumerate() {
        let s = make(x);
        if (i / block) % 10 == 9 {
            test.push(s);
        } else {
            train.push(s);
        }
    }
    (train, test)
}

/// Print what a pattern fit did: the set sizes `(fitted, held out)`, the
/// scale and the losses `(training, held out)`, each before and after;
/// `what` says what before and after are.
pub(crate) fn report_pattern_fit(
    sizes: (usize, usize),
    scale: f64,
    losses: ((f64, f64), (f64, f64)),
    what: &str,
) {
    let ((train_0, train_1), (test_0, test_1)) = losses;
    println!(
        "{} positions fitted, {} held out; scale {scale:.0}",
        sizes.0, sizes.1
    );
    println!(
        "training loss {train_0:.5} -> {train_1:.5}; held-out loss {test_0:.5} -> {test_1:.5} ({what})"
    );
}

/// Fit the weights to a label file and print them.
pub fn fit_file(path: &Path, iterations: usize) -> Result<Weights> {
    let samples = read(path)?;
    enough_to_fit(path, samples.len())?;
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
