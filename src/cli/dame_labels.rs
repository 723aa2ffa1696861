//! `brett tune --game dame|international|… --make-labels` and `--labels`:
//! Dame positions labelled with the result of the self-play game they
//! occurred in, and the evaluation weights fitted to them (Texel's method).
//!
//! The recipe (docs/ENGINE.md, "Dame evaluation"): game `i` uses seed
//! `--seed + i`; its first 0 to `--opening-plies` plies are random legal
//! moves, later plies a random move with probability `--random-share`, else
//! the engine's move at `--depth` with the weights in use. A game ends by
//! the rules (including repetition and the move limits) or after
//! `--max-plies` plies (a draw). Every position after the opening in which
//! the side to move has no capture (quiet: the evaluation is meant for
//! those) is written with the game's result for the side to move. With the
//! Dame databases installed, a position they hold is written with its exact
//! value instead, and the game's result is the value of the first position
//! of the game they hold (the self-play does not use them). The file
//! depends only on the options, the databases (their piece count is on the
//! options line) and the weights in use.

use std::io::{BufRead, BufWriter, Write};
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::AtomicBool;

use anyhow::{Context, Result, bail};
use dame::eval::{self, FEATURES, WEIGHT_NAMES, Weights};
use dame::{Color, Game, Position, RuleSet};
use engine::DameState;
use engine::texel::{Table, fit_table};
use search::{Engine, Limits};

/// Options of the label generation (Mühle's, with a game's length limit
/// besides).
pub struct MakeOptions {
    /// The options Mühle's labels take too.
    pub common: super::labels::MakeOptions,
    /// A game still going after this many plies ends (a draw).
    pub max_plies: usize,
}

/// A value for the side to move as a label: 1, ½ or 0.
fn label_of(v: search::Exact) -> f64 {
    match v {
        search::Exact::Win(_) => 1.0,
        search::Exact::Draw => 0.5,
        search::Exact::Loss(_) => 0.0,
    }
}

/// The most pieces up to which the installed databases hold every table of
/// `rules` (none: 0).
fn database_pieces(rules: RuleSet) -> u32 {
    let Some(tb) = engine::dame::databases::installed() else {
        return 0;
    };
    let max = engine::dame::databases::MAX_PIECES;
    (2..=max)
        .take_while(|&n| {
            tablebase::dame::Material::all_up_to(n)
                .into_iter()
                .all(|m| tb.try_file(&rules, m).is_some())
        })
        .last()
        .unwrap_or(0)
}

/// The quiet positions of game `i`, each with its exact value from the
/// databases if they hold it (for the side to move), and White's result
/// (1, ½, 0): the databases' value of the first position of the game they
/// hold, else the game's result.
fn one_game(rules: RuleSet, limits: &MakeOptions, i: usize) -> (Vec<(Position, Option<f64>)>, f64) {
    let (positions, played, white) = play_one(rules, limits, i);
    let probe = engine::dame::databases::probe;
    let white = played
        .iter()
        .find_map(|pos| {
            probe(pos).map(|v| match pos.turn() {
                Color::White => label_of(v),
                Color::Black => 1.0 - label_of(v),
            })
        })
        .unwrap_or(white);
    let labelled = positions
        .into_iter()
        .map(|pos| {
            let v = probe(&pos).map(label_of);
            (pos, v)
        })
        .collect();
    (labelled, white)
}

/// Game `i`: its quiet positions after the opening, every position it
/// went through, and White's result (1, ½, 0).
fn play_one(rules: RuleSet, limits: &MakeOptions, i: usize) -> (Vec<Position>, Vec<Position>, f64) {
    let options = &limits.common;
    let mut rng = fastrand::Rng::with_seed(options.seed.wrapping_add(i as u64));
    let opening = rng.usize(0..=options.opening_plies);
    let engine = Engine::new(4, 1);
    let stop = AtomicBool::new(false);
    let mut game = Game::new(rules);
    let mut out = Vec::new();
    while !game.is_over() && game.ply() < limits.max_plies {
        let pos = *game.position();
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        let ply = game.ply();
        if ply >= opening && !pos.has_capture() {
            out.push(pos);
        }
        let m = if ply < opening || rng.f64() < options.random_share {
            moves.as_slice()[rng.usize(0..moves.len())]
        } else {
            let history: Vec<u64> = (0..ply)
                .filter_map(|i| game.position_at(i).map(|p| p.hash()))
                .collect();
            let limits = Limits {
                no_databases: true,
                ..Limits::depth(options.depth)
            };
            match engine
                .search(
                    &DameState::new(pos),
                    &history,
                    limits,
                    1,
                    &stop,
                    &mut |_| {},
                )
                .best
            {
                Some(m) => m,
                None => break,
            }
        };
        if game.play(&m).is_err() {
            break;
        }
    }
    let white = match game.outcome().and_then(|o| o.winner) {
        Some(Color::White) => 1.0,
        Some(Color::Black) => 0.0,
        None => 0.5,
    };
    let played = (0..=game.ply())
        .filter_map(|i| game.position_at(i).copied())
        .collect();
    (out, played, white)
}

/// The line after `# rules NAME` that names the options the games depend
/// on (not `--games` nor `--threads`: a run may be extended to more games,
/// and with any number of threads each game is the same), and with
/// databases the pieces up to which they label (`databases=N`).
fn options_line(limits: &MakeOptions, database_pieces: u32) -> String {
    let o = &limits.common;
    let databases = if database_pieces > 0 {
        format!(" databases={database_pieces}")
    } else {
        String::new()
    };
    format!(
        "# options seed={} depth={} opening-plies={} random-share={} max-plies={}{databases}",
        o.seed, o.depth, o.opening_plies, o.random_share, limits.max_plies
    )
}

/// What an earlier run left in a label file: the games it finished and the
/// length of the file up to the end of the last one (a game cut off by a
/// stop is written again).
struct Resumed {
    done: std::collections::HashSet<usize>,
    keep: u64,
    positions: usize,
}

/// Reads the label file an earlier run of the same rules and options left;
/// refuses one of other rules or options.
fn resume(path: &Path, header: &str) -> Result<Resumed> {
    let text = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    if !text.starts_with(header.as_bytes()) {
        let lines = |t: &str| t.lines().take(2).collect::<Vec<_>>().join(" / ");
        bail!(
            "{} holds labels made with other rules or options ({}; asked for: {}); to go on with it, give its options (more --games is fine), else remove it or name another file",
            path.display(),
            lines(&String::from_utf8_lossy(&text)),
            lines(header)
        );
    }
    let mut done = std::collections::HashSet::new();
    let (mut keep, mut positions, mut pending) = (header.len() as u64, 0usize, 0usize);
    let mut at = 0u64;
    for line in text.split_inclusive(|&b| b == b'\n') {
        at += line.len() as u64;
        if at <= header.len() as u64 || !line.ends_with(b"\n") {
            continue;
        }
        if let Some(i) = line
            .strip_prefix(b"# game ")
            .and_then(|r| std::str::from_utf8(r).ok())
            .and_then(|r| r.trim().parse::<usize>().ok())
        {
            done.insert(i);
            keep = at;
            positions += pending;
            pending = 0;
        } else if !line.starts_with(b"#") {
            pending += 1;
        }
    }
    Ok(Resumed {
        done,
        keep,
        positions,
    })
}

/// Play the games and write `FEN<TAB>result` lines to `path` (the result
/// for the side to move: 1, 0.5 or 0), after the lines `# rules NAME` and
/// `# options …`. Each game's lines are written as soon as it ends, followed
/// by `# game I` (in the order of the games with one thread), so a long run
/// can be used while it goes on. Resumable: a run started again on its file
/// with the same options keeps the games the file finished and plays the
/// others (with more `--games`, it goes on to the new number).
pub fn make(rules: RuleSet, rules_name: &str, path: &Path, limits: &MakeOptions) -> Result<()> {
    let options = &limits.common;
    let header = format!(
        "# rules {rules_name}\n{}\n",
        options_line(limits, database_pieces(rules))
    );
    let resumed = if path.exists() {
        Some(resume(path, &header)?)
    } else {
        None
    };
    let file = match &resumed {
        Some(r) => {
            // The finished games stay; what follows the last is cut off.
            let mut f = std::fs::OpenOptions::new()
                .write(true)
                .open(path)
                .with_context(|| format!("cannot write {}", path.display()))?;
            f.set_len(r.keep)
                .with_context(|| format!("cannot write {}", path.display()))?;
            std::io::Seek::seek(&mut f, std::io::SeekFrom::End(0))?;
            f
        }
        None => {
            let mut f = std::fs::File::create(path)
                .with_context(|| format!("cannot write {}", path.display()))?;
            f.write_all(header.as_bytes())?;
            f
        }
    };
    let todo: Vec<usize> = (0..options.games)
        .filter(|i| resumed.as_ref().is_none_or(|r| !r.done.contains(i)))
        .collect();
    if let Some(r) = &resumed {
        eprintln!(
            "{}: {} games ({} positions) kept, {} to play",
            path.display(),
            r.done.len(),
            r.positions,
            todo.len()
        );
    }
    struct Tally {
        w: BufWriter<std::fs::File>,
        games: usize,
        positions: usize,
        white_wins: usize,
        draws: usize,
        error: Option<std::io::Error>,
    }
    let tally = Mutex::new(Tally {
        w: BufWriter::new(file),
        games: 0,
        positions: 0,
        white_wins: 0,
        draws: 0,
        error: None,
    });
    let started = std::time::Instant::now();
    super::labels::for_each_game(options.threads, todo.len(), |j| {
        let i = todo[j];
        let (positions, white) = one_game(rules, limits, i);
        let mut t = tally.lock().unwrap_or_else(|e| e.into_inner());
        let mut text = String::new();
        for (pos, exact) in &positions {
            let result = exact.unwrap_or(match pos.turn() {
                Color::White => white,
                Color::Black => 1.0 - white,
            });
            text.push_str(&format!("{}\t{result}\n", pos.fen()));
        }
        text.push_str(&format!("# game {i}\n"));
        if let Err(e) = t.w.write_all(text.as_bytes()).and_then(|_| t.w.flush()) {
            t.error.get_or_insert(e);
        }
        t.games += 1;
        t.positions += positions.len();
        if white == 1.0 {
            t.white_wins += 1;
        } else if white == 0.5 {
            t.draws += 1;
        }
        if t.games.is_multiple_of(200) {
            eprintln!(
                "{} of {} games, {} positions ({:.0} s)",
                t.games,
                todo.len(),
                t.positions,
                started.elapsed().as_secs_f64()
            );
        }
    });
    let t = tally.into_inner().unwrap_or_else(|e| e.into_inner());
    if let Some(e) = t.error {
        return Err(e).with_context(|| format!("writing {}", path.display()));
    }
    let (kept_games, kept_positions) = resumed
        .as_ref()
        .map_or((0, 0), |r| (r.done.len(), r.positions));
    println!(
        "{} positions from {} games written to {} (White won {}, {} drawn, Black won {} of the {} played now; {:.0} s)",
        kept_positions + t.positions,
        kept_games + t.games,
        path.display(),
        t.white_wins,
        t.draws,
        t.games - t.white_wins - t.draws,
        t.games,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// A label file's positions with their results for the side to move.
pub fn read(path: &Path, rules: RuleSet) -> Result<Vec<(Position, f32)>> {
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut out = Vec::new();
    for (n, line) in std::io::BufReader::new(file).lines().enumerate() {
        let line = line?;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((fen, value)) = line.split_once('\t') else {
            bail!(
                "{}:{}: expected a position, a tab and a result",
                path.display(),
                n + 1
            );
        };
        let pos = Position::from_fen(fen, rules)
            .with_context(|| format!("{}:{}: bad position", path.display(), n + 1))?;
        let target: f32 = match value.trim() {
            "1" => 1.0,
            "0.5" => 0.5,
            "0" => 0.0,
            other => bail!(
                "{}:{}: bad result '{other}' (1, 0.5 or 0)",
                path.display(),
                n + 1
            ),
        };
        out.push((pos, target));
    }
    Ok(out)
}

/// The rules named by a label file's first line, if it has one.
pub fn rules_of(path: &Path) -> Result<Option<String>> {
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut first = String::new();
    std::io::BufReader::new(file).read_line(&mut first)?;
    Ok(first
        .trim()
        .strip_prefix("# rules ")
        .map(|s| s.trim().to_string()))
}

/// A label file's positions for a fit of `rules`' weights: refused when the
/// file names other rules or holds fewer than 100 positions.
fn read_for_fit(path: &Path, rules: RuleSet) -> Result<Vec<(Position, f32)>> {
    if let Some(name) = rules_of(path)?
        && RuleSet::preset(&name) != Some(rules)
    {
        bail!(
            "{} holds positions of the '{name}' rules; fit them with --game {name}",
            path.display()
        );
    }
    let samples = read(path, rules)?;
    super::labels::enough_to_fit(path, samples.len())?;
    Ok(samples)
}

/// One table row: the features split by the phase into their middle-game
/// and endgame parts, scaled as the evaluation scales the ending (with the
/// starting weights deciding which side is ahead).
fn row(pos: &Position, start: &Weights) -> [f32; 2 * FEATURES] {
    let feats = eval::features(pos);
    let full = eval::full_phase(pos.size());
    let phase = eval::phase(pos);
    let score = eval::linear(&feats, phase, full, start);
    let scale = eval::draw_scale(pos, score > 0) as f32 / 16.0;
    let mid = phase as f32 / full as f32;
    let mut r = [0f32; 2 * FEATURES];
    for (i, &x) in feats.iter().enumerate() {
        r[i] = x as f32 * mid * scale;
        r[FEATURES + i] = x as f32 * (1.0 - mid) * scale;
    }
    r
}

/// Fit the weights for `rules`' board to a label file and print them.
/// `only`: fit just these weights (names as in [`WEIGHT_NAMES`]), holding
/// the others; by default every weight moves and the result is scaled so
/// that a man in the middle game stays 100.
pub fn fit_file(
    path: &Path,
    rules: RuleSet,
    iterations: usize,
    ridge: f64,
    only: Option<&str>,
) -> Result<Weights> {
    let fixed: Vec<usize> = match only {
        None => Vec::new(),
        Some(list) => {
            let names: Vec<&str> = list.split(',').map(str::trim).collect();
            for n in &names {
                if !WEIGHT_NAMES.contains(n) {
                    bail!(
                        "--only: unknown weight '{n}' (weights: {})",
                        WEIGHT_NAMES.join(", ")
                    );
                }
            }
            (0..WEIGHT_NAMES.len())
                .filter(|&i| !names.contains(&WEIGHT_NAMES[i]))
                .collect()
        }
    };
    let samples = read_for_fit(path, rules)?;
    let tuned = Weights::for_rules(&rules);
    if tuned.patterns.is_some() {
        println!(
            "Note: this fits the linear weights alone; the board's pattern weights are fitted together with them by --patterns FILE."
        );
    }
    let start = Weights {
        patterns: None,
        ..*tuned
    };
    // Every tenth position is held out to check the fit on unseen data.
    let (mut train, mut test) = (Table::new(2 * FEATURES), Table::new(2 * FEATURES));
    for (i, (pos, target)) in samples.iter().enumerate() {
        let r = row(pos, &start);
        if i % 10 == 9 {
            test.push(&r, *target);
        } else {
            train.push(&r, *target);
        }
    }
    let fit = fit_table(
        &train,
        &start.to_vec(),
        &fixed,
        (!fixed.contains(&eval::f::MAN)).then_some(eval::f::MAN),
        ridge,
        iterations,
    );
    let start_f: Vec<f64> = start.to_vec().iter().map(|&x| f64::from(x)).collect();
    let fitted_f: Vec<f64> = fit.weights.iter().map(|&x| f64::from(x)).collect();
    println!(
        "{} positions fitted, {} held out; scale {:.0}",
        train.len(),
        test.len(),
        fit.scale
    );
    println!(
        "training loss {:.5} -> {:.5}; held-out loss {:.5} -> {:.5}",
        fit.loss_before,
        fit.loss_after,
        test.loss(&start_f, fit.start_scale),
        test.loss(&fitted_f, fit.scale)
    );
    let mut w = start;
    for (i, &v) in fit.weights.iter().enumerate() {
        *w.slot(i) = v;
    }
    println!("\nWeights (mid, end):");
    for ((name, m), e) in WEIGHT_NAMES.iter().zip(&w.mid).zip(&w.end) {
        println!("    {:<22} {m:>5} {e:>5}", name.trim_start_matches("mid."));
    }
    println!("\n    mid: {:?},", w.mid);
    println!("    end: {:?},", w.end);
    Ok(w)
}

/// Fit the pattern weights and the linear weights for `rules`' board to a
/// label file, print the losses and the linear weights, and write the
/// pattern table to `out`. Every tenth block of positions (2,000 in a
/// large file) is held out: whole games, mostly, so the held-out loss is not flattered by
/// positions of the games the fit has seen.
pub fn fit_patterns_file(
    path: &Path,
    rules: RuleSet,
    epochs: usize,
    pattern_ridge: f64,
    linear_ridge: f64,
    from: Option<&Path>,
    out: &Path,
) -> Result<()> {
    use engine::dame::pattern_fit::{PatternOptions, PatternSample, PatternTable, fit_patterns};
    let regions = dame::pattern::regions(rules.board);
    let from = match from {
        Some(p) => {
            let bytes = std::fs::read(p).with_context(|| format!("cannot read {}", p.display()))?;
            Some(
                PatternTable::from_bytes(&bytes, regions)
                    .with_context(|| format!("--patterns-from {}", p.display()))?,
            )
        }
        None => None,
    };
    let samples = read_for_fit(path, rules)?;
    let start = Weights {
        patterns: None,
        ..*Weights::for_rules(&rules)
    };
    let (train, test) = super::labels::split_held_out(&samples, |(pos, target)| {
        PatternSample::new(pos, *target, &start)
    });
    let options = PatternOptions {
        regions,
        epochs,
        rate: 1.0,
        pattern_ridge,
        linear_ridge,
        fit_linear: true,
    };
    let fit = fit_patterns(&train, &test, &start, &options, from.as_ref());
    super::labels::report_pattern_fit(
        (train.len(), test.len()),
        fit.scale,
        (fit.train, fit.held_out),
        if from.is_some() {
            "the starting table -> the fit"
        } else {
            "linear weights alone -> with patterns"
        },
    );
    let used = fit.mid.iter().filter(|&&x| x != 0).count();
    println!("pattern entries used: {used} of {}", fit.mid.len());
    let mut w = start;
    for (i, &v) in fit.linear.iter().enumerate() {
        *w.slot(i) = v;
    }
    println!("\n    mid: {:?},", w.mid);
    println!("    end: {:?},", w.end);
    let mut bytes = Vec::with_capacity(4 * fit.mid.len());
    for x in fit.mid.iter().chain(&fit.end) {
        bytes.extend_from_slice(&x.to_le_bytes());
    }
    std::fs::write(out, bytes).with_context(|| format!("cannot write {}", out.display()))?;
    println!("pattern table written to {}", out.display());
    Ok(())
}
