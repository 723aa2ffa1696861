//! `brett tune`: tune the evaluation weights by self-play (Mühle or Dame).
//!
//! For each weight in turn, two variants (the weight raised and lowered by a
//! step) each play a match against the current weights at a fixed depth from
//! varied openings, both colours per opening. A variant that scores clearly
//! better is adopted. Fixed-depth games are reproducible and do not depend
//! on the machine's speed (nor on `--threads`: every game has its own engine).

use clap::builder::TypedValueParser as _;
use std::sync::Mutex;

use anyhow::Result;
use games::{LiveGame, Variant};
use search::Engine;

/// Arguments of `brett tune`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game whose evaluation is tuned.
    #[arg(long, value_enum, default_value_t = Variant::Muehle)]
    game: Variant,
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
    /// Random plies (placements or moves) at the start of each game pair.
    #[arg(long, default_value_t = 4)]
    opening_plies: usize,
    /// Seed for the openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// A game still going after this many plies is scored a draw.
    #[arg(long, default_value_t = 300)]
    max_plies: usize,
    /// Games played at the same time (the result does not depend on it).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Tune only these weights (comma-separated names; default: all but the unit).
    #[arg(long)]
    only: Option<String>,
    /// Start from the hand-set weights instead of the tuned ones (Dame only:
    /// `Weights::DEFAULT` instead of `Weights::TUNED`).
    #[arg(long)]
    from_default: bool,
    /// Mühle: play --games self-play games (from --seed, random moves in
    /// the first 0 to --opening-plies plies and with --random-share, else
    /// searched to --depth) and write their positions at and just before
    /// the end of placing (--label-in-hand) and early in the moving phase
    /// (--label-moving-plies), labelled with the databases' value, to FILE.
    /// Needs the standard databases (`brett tablebase build`). Resumable:
    /// run again with the same options and finished chunks of 1000 games
    /// are kept.
    /// Dame: every quiet position of the games with the game's result;
    /// with the Dame databases installed, a position they hold with its
    /// exact value, and the others with the value of the game's first
    /// position they hold.
    /// Resumable too: run again on the file with the same options (or more
    /// --games) and the games it finished are kept, the rest played.
    #[arg(long, value_name = "FILE")]
    make_labels: Option<std::path::PathBuf>,
    /// Share of random moves after the opening (with --make-labels).
    #[arg(long, default_value_t = 0.1)]
    random_share: f64,
    /// Mühle, with --make-labels: label the placing positions with at most
    /// this many stones in hand (both sides together); above 2 the placing
    /// solver finds the value (win, draw or loss, without the distance).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(0..=12))]
    label_in_hand: u32,
    /// Mühle, with --make-labels: go on this many plies into the moving
    /// phase, labelling each position (probed).
    #[arg(long, default_value_t = 0)]
    label_moving_plies: usize,
    /// Mühle: fit the evaluation weights to the labelled positions of FILE
    /// (written by --make-labels) and print them.
    #[arg(long, value_name = "FILE")]
    labels: Option<std::path::PathBuf>,
    /// Gradient steps of the --labels fit.
    #[arg(long, default_value_t = 2000)]
    iterations: usize,
    /// How strongly the --labels fit keeps each weight near its start (the
    /// loss gains RIDGE/2 · (change/100)² per weight; Mühle: with
    /// --patterns).
    #[arg(long, default_value_t = 0.002)]
    ridge: f64,
    /// With --labels, fit the pattern weights (docs/ENGINE.md "Dame
    /// evaluation", "Mühle: patterns") together with the linear weights,
    /// print the linear weights and write the pattern table to FILE (the
    /// format of `crates/dame/data/patterns-*.bin`,
    /// `crates/muehle/data/patterns.bin`); --iterations full-batch steps.
    #[arg(long, value_name = "FILE")]
    patterns: Option<std::path::PathBuf>,
    /// How strongly the --patterns fit keeps each pattern entry near
    /// 0 (the loss gains RIDGE/2 · (entry/100)² per entry).
    #[arg(long, default_value_t = 0.0003)]
    pattern_ridge: f64,
    /// Dame: start the --patterns fit from this table (the format of
    /// `crates/dame/data/patterns-*.bin`, e.g. the board's table in use)
    /// instead of from zero; the held-out loss printed first is then the
    /// starting table's.
    #[arg(long, value_name = "FILE", requires = "patterns")]
    patterns_from: Option<std::path::PathBuf>,
    /// Mühle: fit the side tables only and leave the ring tables at 0 (to
    /// compare what the rings add).
    #[arg(long, requires = "patterns")]
    no_rings: bool,
    /// Mühle, with --labels: fit a network that corrects the evaluation
    /// (docs/ENGINE.md "Mühle: network") to the labelled positions and
    /// write it to FILE; play with it with `brett --mill-network FILE …`.
    #[arg(long, value_name = "FILE", conflicts_with = "patterns")]
    network: Option<std::path::PathBuf>,
    /// Passes over the positions of the --network fit.
    #[arg(long, default_value_t = 12, requires = "network")]
    epochs: usize,
    /// Units of the first hidden layer of the --network fit: 64, 128 or
    /// 256 (the built-in network's; a wider network learns more and costs
    /// the search more time a position).
    #[arg(long, default_value_t = 256, requires = "network",
          value_parser = clap::builder::PossibleValuesParser::new(["64", "128", "256"])
              .map(|s| s.parse::<usize>().expect("one of the values")))]
    network_width: usize,
    /// Tune nothing: play the weights in use against the hand-set ones
    /// (Dame: `TUNED` against `DEFAULT`) over --games games and report
    /// wins, draws and losses.
    #[arg(long)]
    compare: bool,
}

impl Args {
    /// The options of `--make-labels`.
    fn label_options(&self) -> super::labels::MakeOptions {
        super::labels::MakeOptions {
            games: self.games,
            seed: self.seed,
            depth: self.depth,
            opening_plies: self.opening_plies,
            random_share: self.random_share,
            threads: self.threads,
            in_hand: self.label_in_hand,
            moving_plies: self.label_moving_plies,
        }
    }
}

/// A game whose evaluation can be tuned: its weights as named integers and
/// its games.
pub trait Tunable: Sync {
    /// The weights.
    type Weights: Copy + Send + Sync + 'static;
    /// The names of the weights; the first is the unit and is not tuned.
    const NAMES: &'static [&'static str];
    /// Weight `i` (in the order of `NAMES`), to read or change.
    fn slot(w: &mut Self::Weights, i: usize) -> &mut i32;
    /// Weight `i`.
    fn get(w: &Self::Weights, i: usize) -> i32 {
        *Self::slot(&mut { *w }, i)
    }
    /// Set weight `i`.
    fn set(w: &mut Self::Weights, i: usize, v: i32) {
        *Self::slot(w, i) = v;
    }
    /// A new game from the start.
    fn new_game(&self) -> LiveGame;

    /// A random opening of `plies` plies (as move indices to replay), from `rng`.
    fn opening(&self, plies: usize, rng: &mut fastrand::Rng) -> Vec<usize> {
        let mut game = self.new_game();
        let mut opening = Vec::new();
        for _ in 0..plies {
            let moves = game.local().legal_moves();
            if moves.is_empty() {
                break;
            }
            let i = rng.usize(0..moves.len());
            opening.push(i);
            let _ = game.local_mut().play_text(&moves[i]);
        }
        opening
    }

    /// Play one game from `opening` (move indices) with fixed-depth searches;
    /// White's score (1, ½, 0).
    fn play(
        &self,
        white: &'static Self::Weights,
        black: &'static Self::Weights,
        opening: &[usize],
        depth: u32,
        max_plies: usize,
    ) -> f64 {
        let mut game = self.new_game();
        for &i in opening {
            let moves = game.local().legal_moves();
            let played = moves.get(i).map(|m| game.local_mut().play_text(m));
            if !matches!(played, Some(Ok(()))) {
                break;
            }
        }
        let engine = Engine::new(4, 1);
        while game.ending().is_none() && game.ply() < max_plies {
            let weights = if game.turn() == games::Color::White {
                white
            } else {
                black
            };
            match game.local().best_move_with(&engine, depth, weights) {
                Some(m) if game.local_mut().play_text(&m).is_ok() => {}
                _ => break,
            }
        }
        match game.ending().and_then(|e| e.winner) {
            Some(games::Color::White) => 1.0,
            Some(games::Color::Black) => 0.0,
            None => 0.5,
        }
    }
}

/// Mühle under a rule set.
pub struct MuehleTune(pub muehle::RuleSet);

impl Tunable for MuehleTune {
    type Weights = muehle::eval::Weights;
    const NAMES: &'static [&'static str] = &muehle::eval::NAMES;

    fn slot(w: &mut Self::Weights, i: usize) -> &mut i32 {
        // The fields in the order of NAMES.
        match i {
            0 => &mut w.stone,
            1 => &mut w.closed_mill,
            2 => &mut w.open_line,
            3 => &mut w.threat,
            4 => &mut w.double_threat,
            5 => &mut w.zwickmuehle,
            6 => &mut w.mobility,
            7 => &mut w.blocked_stone,
            8 => &mut w.junction,
            9 => &mut w.tempo,
            10 => &mut w.liberty,
            11 => &mut w.placing_mobility,
            12 => &mut w.placing_blocked,
            13 => &mut w.cramped,
            _ => &mut w.flying,
        }
    }

    fn new_game(&self) -> LiveGame {
        LiveGame::Muehle(muehle::Game::new(self.0))
    }
}

/// Dame under a rule set.
pub struct DameTune(pub dame::RuleSet);

impl Tunable for DameTune {
    type Weights = dame::eval::Weights;
    const NAMES: &'static [&'static str] = &dame::eval::WEIGHT_NAMES;

    fn slot(w: &mut Self::Weights, i: usize) -> &mut i32 {
        w.slot(i)
    }

    fn new_game(&self) -> LiveGame {
        LiveGame::Dame(dame::Game::new(self.0))
    }
}

/// The openings of a duel: `pairs` openings from `seed`.
fn openings<T: Tunable>(game: &T, pairs: usize, plies: usize, seed: u64) -> Vec<Vec<usize>> {
    (0..pairs)
        .map(|k| {
            let mut rng =
                fastrand::Rng::with_seed(seed.wrapping_mul(0x9E37_79B9).wrapping_add(k as u64));
            game.opening(plies, &mut rng)
        })
        .collect()
}

/// The score of `cand` against `base`: each opening played twice, `cand`
/// once with each colour; `threads` games at a time.
pub fn duel<T: Tunable>(
    game: &T,
    cand: &'static T::Weights,
    base: &'static T::Weights,
    openings: &[Vec<usize>],
    depth: u32,
    max_plies: usize,
    threads: usize,
) -> f64 {
    let games = Games {
        openings,
        depth,
        max_plies,
        threads,
    };
    let scores = duel_games(game, cand, base, &games);
    if scores.is_empty() {
        return 0.5;
    }
    scores.iter().sum::<f64>() / scores.len() as f64
}

/// The games of a duel: each opening twice, searched to `depth`, adjudicated
/// a draw after `max_plies`, `threads` at a time.
pub struct Games<'a> {
    /// The openings (move indices).
    pub openings: &'a [Vec<usize>],
    /// The depth of every search.
    pub depth: u32,
    /// The plies after which a game is a draw.
    pub max_plies: usize,
    /// Games played at the same time.
    pub threads: usize,
}

/// The games of [`duel`]: `cand`'s score in each, in the order of the
/// openings (`cand` White first).
pub fn duel_games<T: Tunable>(
    game: &T,
    cand: &'static T::Weights,
    base: &'static T::Weights,
    games: &Games<'_>,
) -> Vec<f64> {
    let &Games {
        openings,
        depth,
        max_plies,
        threads,
    } = games;
    let jobs = 2 * openings.len();
    let next = Mutex::new(0usize);
    let scores = Mutex::new(vec![0.0f64; jobs]);
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, 64).min(jobs) {
            scope.spawn(|| {
                loop {
                    let job = {
                        let mut n = next.lock().expect("lock");
                        let j = *n;
                        *n += 1;
                        j
                    };
                    if job >= jobs {
                        return;
                    }
                    let opening = &openings[job / 2];
                    let score = if job % 2 == 0 {
                        game.play(cand, base, opening, depth, max_plies)
                    } else {
                        1.0 - game.play(base, cand, opening, depth, max_plies)
                    };
                    scores.lock().expect("lock")[job] = score;
                }
            });
        }
    });
    scores.into_inner().expect("lock")
}

/// Play `cand` against `base` over --games games and print the result.
fn compare<T: Tunable>(game: &T, cand: T::Weights, base: T::Weights, args: &Args) {
    let cand: &'static T::Weights = Box::leak(Box::new(cand));
    let base: &'static T::Weights = Box::leak(Box::new(base));
    let openings = openings(game, args.games.div_ceil(2), args.opening_plies, args.seed);
    let games = Games {
        openings: &openings,
        depth: args.depth,
        max_plies: args.max_plies,
        threads: args.threads,
    };
    let scores = duel_games(game, cand, base, &games);
    let wins = scores.iter().filter(|&&s| s == 1.0).count();
    let losses = scores.iter().filter(|&&s| s == 0.0).count();
    let draws = scores.len() - wins - losses;
    let (e, lo, hi) = super::matches::elo(&scores);
    println!(
        "Tuned vs hand-set weights ({}, depth {}, {} opening plies, seed {}): wins {wins} draws {draws} losses {losses} of {}, score {:.3}",
        args.game.name(),
        args.depth,
        args.opening_plies,
        args.seed,
        scores.len(),
        scores.iter().sum::<f64>() / scores.len().max(1) as f64
    );
    println!("Elo difference: {e:+.0} (95% interval {lo:+.0} to {hi:+.0})");
}

fn tune<T: Tunable>(game: &T, start: T::Weights, args: &Args) -> Result<T::Weights> {
    let only: Option<Vec<&str>> = args
        .only
        .as_deref()
        .map(|s| s.split(',').map(str::trim).collect());
    if let Some(names) = &only {
        for n in names {
            anyhow::ensure!(
                T::NAMES[1..].contains(n),
                "--only: unknown weight '{n}' (weights: {})",
                T::NAMES[1..].join(", ")
            );
        }
    }
    let mut best: &'static T::Weights = Box::leak(Box::new(start));
    let pairs = args.games.div_ceil(2);
    let openings = openings(game, pairs, args.opening_plies, args.seed);
    println!(
        "Tuning {} weights of {}, {} games per variant at depth {}, step ±{:.0} %, {} opening plies",
        T::NAMES.len() - 1,
        args.game.name(),
        pairs * 2,
        args.depth,
        args.step * 100.0,
        args.opening_plies
    );
    print!("Start:");
    for (i, name) in T::NAMES.iter().enumerate() {
        print!(" {name}={}", T::get(best, i));
    }
    println!();
    for round in 1..=args.rounds {
        for (i, name) in T::NAMES.iter().enumerate().skip(1) {
            if only.as_ref().is_some_and(|o| !o.contains(name)) {
                continue;
            }
            let v = T::get(best, i);
            let delta = ((f64::from(v) * args.step).round() as i32).max(2);
            let mut adopted = false;
            for cand_value in [v + delta, (v - delta).max(0)] {
                if cand_value == v {
                    continue;
                }
                let mut w = *best;
                T::set(&mut w, i, cand_value);
                let cand: &'static T::Weights = Box::leak(Box::new(w));
                let score = duel(
                    game,
                    cand,
                    best,
                    &openings,
                    args.depth,
                    args.max_plies,
                    args.threads,
                );
                println!("round {round}: {name:>17} {v:>4} -> {cand_value:>4}: score {score:.3}");
                if score >= args.threshold {
                    best = cand;
                    adopted = true;
                    println!("round {round}: {name:>17} adopted {cand_value}");
                    break;
                }
            }
            if !adopted {
                println!("round {round}: {name:>17} kept {v}");
            }
        }
    }
    println!("\nWeights:");
    for (i, name) in T::NAMES.iter().enumerate() {
        println!("    {name}: {},", T::get(best, i));
    }
    Ok(*best)
}

pub fn run(args: Args) -> Result<()> {
    super::game::setup(args.game, None)?.apply(Tune(&args))
}

/// `brett tune` for the game of `--game`, under its default rules.
struct Tune<'a>(&'a Args);

impl games::PerGame for Tune<'_> {
    type Output = Result<()>;

    fn muehle(self, rules: muehle::RuleSet) -> Result<()> {
        let args = self.0;
        if let Some(path) = &args.make_labels {
            let tb = engine::muehle::databases::for_rules(&rules)
                .filter(|tb| !tb.installed().is_empty())
                .ok_or_else(|| {
                    anyhow::anyhow!(
                        "--make-labels needs the standard databases: build them with `brett tablebase build` (or name their folder with --tablebase-dir)"
                    )
                })?;
            return super::labels::make(tb, path, &args.label_options());
        }
        if let Some(path) = &args.labels {
            if let Some(out) = &args.network {
                return super::labels::fit_network_file(path, args.epochs, args.network_width, out);
            }
            if let Some(out) = &args.patterns {
                if args.patterns_from.is_some() {
                    anyhow::bail!(
                        "--patterns-from is for Dame: a Mühle fit starts from no patterns"
                    );
                }
                return super::labels::fit_patterns_file(
                    path,
                    args.iterations,
                    args.pattern_ridge,
                    args.ridge,
                    !args.no_rings,
                    out,
                );
            }
            super::labels::fit_file(path, args.iterations)?;
            return Ok(());
        }
        if args.compare {
            anyhow::bail!(
                "--compare is for Dame (the Mühle tuning log is docs/tune-2026-11-22.log)"
            )
        }
        tune(&MuehleTune(rules), muehle::eval::Weights::TUNED, args)?;
        Ok(())
    }

    fn dame(self, _game: Variant, rules: dame::RuleSet) -> Result<()> {
        let args = self.0;
        if let Some(path) = &args.make_labels {
            let options = super::dame_labels::MakeOptions {
                common: args.label_options(),
                max_plies: args.max_plies,
            };
            let name = rules.preset_name().unwrap_or("dame");
            return super::dame_labels::make(rules, name, path, &options);
        }
        if let Some(path) = &args.labels {
            if let Some(out) = &args.patterns {
                if args.no_rings {
                    anyhow::bail!("--no-rings is for Mühle: Dame's patterns have no rings");
                }
                return super::dame_labels::fit_patterns_file(
                    path,
                    rules,
                    args.iterations,
                    args.pattern_ridge,
                    args.ridge,
                    args.patterns_from.as_deref(),
                    out,
                );
            }
            super::dame_labels::fit_file(
                path,
                rules,
                args.iterations,
                args.ridge,
                args.only.as_deref(),
            )?;
            return Ok(());
        }
        if args.compare {
            compare(
                &DameTune(rules),
                *dame::eval::Weights::for_rules(&rules),
                dame::eval::Weights::DEFAULT,
                args,
            );
            return Ok(());
        }
        let start = if args.from_default {
            dame::eval::Weights::DEFAULT
        } else {
            *dame::eval::Weights::for_rules(&rules)
        };
        tune(&DameTune(rules), start, args)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dame_weights_are_read_and_written_by_name() {
        let mut w = dame::eval::Weights::DEFAULT;
        for i in 0..DameTune::NAMES.len() {
            DameTune::set(&mut w, i, 1000 + i as i32);
        }
        for i in 0..DameTune::NAMES.len() {
            assert_eq!(DameTune::get(&w, i), 1000 + i as i32);
        }
        let n = dame::eval::FEATURES;
        assert_eq!(
            (w.mid[0], w.mid[1], w.end[0]),
            (1000, 1001, 1000 + n as i32)
        );
    }

    #[test]
    fn dame_openings_are_reproducible_and_legal() {
        let game = DameTune(dame::RuleSet::DAME);
        let a = openings(&game, 3, 4, 7);
        assert_eq!(a, openings(&game, 3, 4, 7));
        assert_ne!(a, openings(&game, 3, 4, 8));
        for o in &a {
            assert_eq!(o.len(), 4);
        }
    }

    #[test]
    fn equal_weights_score_exactly_even() {
        // Both games of an opening are the same game with colours swapped.
        let game = DameTune(dame::RuleSet::DAME);
        let w: &'static dame::eval::Weights = Box::leak(Box::new(dame::eval::Weights::DEFAULT));
        let o = openings(&game, 2, 4, 1);
        assert_eq!(duel(&game, w, w, &o, 2, 200, 2), 0.5);
    }

    #[test]
    fn weights_that_ignore_material_lose_the_dame_duel() {
        let game = DameTune(dame::RuleSet::DAME);
        let base: &'static dame::eval::Weights = Box::leak(Box::new(dame::eval::Weights::DEFAULT));
        let mut blind = dame::eval::Weights::DEFAULT;
        let n = dame::eval::FEATURES;
        for i in [0, 1, n, n + 1] {
            DameTune::set(&mut blind, i, 0);
        }
        let blind: &'static dame::eval::Weights = Box::leak(Box::new(blind));
        let o = openings(&game, 3, 2, 1);
        let score = duel(&game, blind, base, &o, 3, 200, 2);
        assert!(score < 0.3, "material-blind weights scored {score}");
    }
}
