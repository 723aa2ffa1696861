//! Fit Dame pattern weights to a label file (`brett tune --game G
//! --make-labels FILE`): `dame_patterns RULES FILE [OUT]` with the options
//! in the environment (EPOCHS, RATE, RIDGE, LRIDGE, LINEAR=1, MAX=n
//! positions). Every tenth block of BLOCK (2,000) lines is held out (whole games, mostly). Prints the losses; with
//! OUT writes the table (little-endian i16: middle game, then endgame).
use std::io::{BufRead, Write};

use dame::eval::Weights;
use dame::{Position, RuleSet};
use engine::dame::pattern_fit::{PatternOptions, PatternSample, fit_patterns};

fn env<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rules = RuleSet::preset(&args[1]).expect("rules");
    let start = *Weights::tuned(rules.board);
    let max: usize = env("MAX", usize::MAX);
    let block: usize = env("BLOCK", 2000);
    let file = std::fs::File::open(&args[2]).expect("label file");
    let (mut train, mut test) = (Vec::new(), Vec::new());
    let t0 = std::time::Instant::now();
    for (i, line) in std::io::BufReader::new(file).lines().enumerate() {
        let line = line.unwrap();
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        if train.len() + test.len() >= max {
            break;
        }
        let Some((fen, v)) = line.split_once('\t') else {
            continue;
        };
        let Ok(pos) = Position::from_fen(fen, rules) else {
            continue;
        };
        let target: f32 = v.trim().parse().unwrap();
        let s = PatternSample::new(&pos, target, &start);
        if (i / block) % 10 == 9 {
            test.push(s)
        } else {
            train.push(s)
        }
    }
    println!(
        "{} train, {} held out, read in {:.1} s",
        train.len(),
        test.len(),
        t0.elapsed().as_secs_f64()
    );
    let options = PatternOptions {
        regions: dame::pattern::regions(rules.board),
        epochs: env("EPOCHS", 300),
        rate: env("RATE", 1.0),
        pattern_ridge: env("RIDGE", 1.0),
        linear_ridge: env("LRIDGE", 0.0007),
        fit_linear: env("LINEAR", 0) == 1,
    };
    let t0 = std::time::Instant::now();
    let fit = fit_patterns(&train, &test, &start, &options);
    println!(
        "{options:?}\nscale {:.0}; train {:.5} -> {:.5}; held out {:.5} -> {:.5}; {:.1} s",
        fit.scale,
        fit.train.0,
        fit.train.1,
        fit.held_out.0,
        fit.held_out.1,
        t0.elapsed().as_secs_f64()
    );
    let nz = fit.mid.iter().filter(|&&x| x != 0).count();
    let max_abs = fit
        .mid
        .iter()
        .chain(&fit.end)
        .map(|x| x.unsigned_abs())
        .max()
        .unwrap_or(0);
    println!(
        "non-zero mid entries {nz} of {}, largest |w| {max_abs}",
        fit.mid.len()
    );
    if options.fit_linear {
        println!("linear: {:?}", fit.linear);
    }
    if let Some(out) = args.get(3) {
        let mut f = std::io::BufWriter::new(std::fs::File::create(out).unwrap());
        for x in fit.mid.iter().chain(&fit.end) {
            f.write_all(&x.to_le_bytes()).unwrap();
        }
        println!("written {out}");
    }
}
