//! Fitting Mühle's pattern weights ([`muehle::pattern`]) together with the
//! linear weights ([`muehle::eval::Weights`]) to the databases' values.
//!
//! The model is the evaluation's: the linear terms plus, for each of the
//! four sides and the three rings, the entry of its pattern in the tables
//! of the position's phase; through a logistic curve of a fixed scale
//! (fitted first, with the starting weights) it should predict each
//! position's result for the side to move. Adam on the mean cross-entropy,
//! full batches; each position touches seven pattern entries (four without
//! the rings, [`PatternOptions::rings`]). A ridge pulls every pattern entry towards
//! 0, so that patterns seldom seen stay near nothing, and every linear
//! weight towards its start. The stone's weight stays 100 (the unit).

use muehle::Position;
use muehle::eval::{FEATURES, Weights, features};
use muehle::pattern::{ENTRIES, REGIONS, RING_START, SIDES, entries};

use crate::texel::{Adam, fit_scale, mean_cross_entropy, sigmoid};

/// A labelled position, prepared for the fit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PatternSample {
    /// The linear features for the side to move.
    pub row: [f32; FEATURES],
    /// The places of its pattern values ([`muehle::pattern::entries`]).
    pub idx: [u32; REGIONS],
    /// The result for the side to move: 1, ½ or 0.
    pub target: f32,
}

impl PatternSample {
    /// Prepare `pos` with its result for the side to move.
    pub fn new(pos: &Position, target: f32) -> PatternSample {
        PatternSample {
            row: features(pos).map(|x| x as f32),
            idx: entries(pos),
            target,
        }
    }
}

/// How [`fit_patterns`] fits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PatternOptions {
    /// Full-batch Adam steps.
    pub epochs: usize,
    /// Adam's step size, in hundredths of a stone.
    pub rate: f64,
    /// Pull of each pattern entry towards 0: the loss gains
    /// `ridge / 2 · (w / 100)²` per entry.
    pub pattern_ridge: f64,
    /// Pull of each linear weight towards its start, likewise.
    pub linear_ridge: f64,
    /// Fit the ring tables too; without, they stay 0 and only the sides'
    /// tables are fitted (to compare).
    pub rings: bool,
}

/// What [`fit_patterns`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct PatternFit {
    /// The linear weights (patterns: none).
    pub linear: Weights,
    /// The pattern values ([`ENTRIES`], as `muehle::pattern` reads them).
    pub patterns: Vec<i16>,
    /// The logistic scale (fixed during the fit).
    pub scale: f64,
    /// Mean cross-entropy of the training samples, before and after.
    pub train: (f64, f64),
    /// Mean cross-entropy of the held-out samples, before and after.
    pub held_out: (f64, f64),
}

fn eval(s: &PatternSample, linear: &[f64], patterns: &[f64]) -> f64 {
    let lin: f64 = s
        .row
        .iter()
        .zip(linear)
        .map(|(&f, w)| f64::from(f) * w)
        .sum();
    lin + s.idx.iter().map(|&i| patterns[i as usize]).sum::<f64>()
}

fn loss(samples: &[PatternSample], linear: &[f64], patterns: &[f64], k: f64) -> f64 {
    mean_cross_entropy(
        k,
        samples
            .iter()
            .map(|s| (eval(s, linear, patterns), f64::from(s.target))),
    )
}

/// Fit the pattern and linear weights to `train` from `start` (its
/// patterns, if any, are the starting table), reporting the loss on `test`
/// too.
pub fn fit_patterns(
    train: &[PatternSample],
    test: &[PatternSample],
    start: &Weights,
    options: &PatternOptions,
) -> PatternFit {
    let n_pat = ENTRIES;
    let mut linear: Vec<f64> = start.to_array().iter().map(|&x| f64::from(x)).collect();
    let start_linear = linear.clone();
    let mut patterns: Vec<f64> = match start.patterns {
        Some(p) => p.values.iter().map(|&x| f64::from(x)).collect(),
        None => vec![0.0; n_pat],
    };
    if !options.rings {
        patterns[RING_START..].iter_mut().for_each(|x| *x = 0.0);
    }
    // The entries fitted: all, or the sides' only.
    let used = if options.rings { REGIONS } else { SIDES };
    // The scale of the curve, with the starting weights.
    let k = fit_scale(40, |k| loss(train, &linear, &patterns, k));
    let train_before = loss(train, &linear, &patterns, k);
    let test_before = loss(test, &linear, &patterns, k);
    let n = train.len().max(1) as f64;
    let (mut adam_lin, mut adam_pat) = (Adam::new(FEATURES), Adam::new(n_pat));
    let mut g_lin = vec![0f64; FEATURES];
    let mut g_pat = vec![0f64; n_pat];
    for t in 1..=options.epochs {
        g_lin.iter_mut().for_each(|x| *x = 0.0);
        g_pat.iter_mut().for_each(|x| *x = 0.0);
        for s in train {
            let d = (sigmoid(eval(s, &linear, &patterns) / k) - f64::from(s.target)) / k;
            for (g, &f) in g_lin.iter_mut().zip(&s.row) {
                *g += d * f64::from(f);
            }
            for &i in &s.idx[..used] {
                g_pat[i as usize] += d;
            }
        }
        for i in 0..n_pat {
            g_pat[i] = g_pat[i] / n + options.pattern_ridge * patterns[i] / 10_000.0;
        }
        for i in 0..FEATURES {
            g_lin[i] =
                g_lin[i] / n + options.linear_ridge * (linear[i] - start_linear[i]) / 10_000.0;
        }
        adam_pat.step(&mut patterns, &g_pat, t, options.rate, None);
        // The stone is the unit.
        adam_lin.step(&mut linear, &g_lin, t, options.rate, Some(0));
    }
    let linear_i: Vec<i32> = linear.iter().map(|x| x.round() as i32).collect();
    let patterns_i: Vec<i16> = patterns
        .iter()
        .map(|x| x.round().clamp(f64::from(i16::MIN), f64::from(i16::MAX)) as i16)
        .collect();
    let lin_f: Vec<f64> = linear_i.iter().map(|&x| f64::from(x)).collect();
    let pat_f: Vec<f64> = patterns_i.iter().map(|&x| f64::from(x)).collect();
    let mut arr = [0i32; FEATURES];
    arr.copy_from_slice(&linear_i);
    PatternFit {
        train: (train_before, loss(train, &lin_f, &pat_f, k)),
        held_out: (test_before, loss(test, &lin_f, &pat_f, k)),
        linear: Weights::from_array(arr),
        patterns: patterns_i,
        scale: k,
    }
}

/// The pattern values as the bytes of `crates/muehle/data/patterns.bin`.
pub fn to_bytes(patterns: &[i16]) -> Vec<u8> {
    patterns.iter().flat_map(|x| x.to_le_bytes()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use muehle::pattern::{PATTERNS, RING_PATTERNS};

    /// Samples whose pattern entries are `winning` (won three times in four)
    /// or, half of them, random others among `others` (drawn); every
    /// sample also reads the entries of `fixed`.
    fn samples(
        n: usize,
        rng: &mut fastrand::Rng,
        slot: usize,
        winning: u32,
        others: std::ops::Range<u32>,
    ) -> Vec<PatternSample> {
        (0..n)
            .map(|_| {
                let i = if rng.bool() {
                    winning
                } else {
                    rng.u32(others.clone())
                };
                let target = if i == winning {
                    if rng.u8(0..4) < 3 { 1.0 } else { 0.0 }
                } else {
                    0.5
                };
                let mut idx = [0, 1, 2, 3, RING_START as u32, RING_START as u32 + 1, 5];
                idx[slot] = i;
                PatternSample {
                    row: [0.0; FEATURES],
                    idx,
                    target,
                }
            })
            .collect()
    }

    fn options(rings: bool) -> PatternOptions {
        PatternOptions {
            epochs: 200,
            rate: 1.0,
            pattern_ridge: 0.0003,
            linear_ridge: 0.0007,
            rings,
        }
    }

    fn start() -> Weights {
        Weights {
            patterns: None,
            ..Weights::from_array([0; FEATURES])
        }
    }

    /// Positions whose top side reads one pattern are won three times in
    /// four, the others drawn: the fit gives that pattern a positive value
    /// and lowers the held-out loss.
    #[test]
    fn a_pattern_that_wins_gets_a_positive_weight() {
        let mut rng = fastrand::Rng::with_seed(3);
        let train = samples(4000, &mut rng, 0, 7, 8..PATTERNS as u32);
        let test = samples(1000, &mut rng, 0, 7, 8..PATTERNS as u32);
        let fit = fit_patterns(&train, &test, &start(), &options(true));
        assert!(fit.patterns[7] > 20, "{}", fit.patterns[7]);
        assert!(fit.held_out.1 < fit.held_out.0, "{:?}", fit.held_out);
        assert_eq!(to_bytes(&fit.patterns).len(), 2 * ENTRIES);
    }

    /// The same for a ring's pattern; fitted without the rings, it stays 0.
    #[test]
    fn a_ring_pattern_that_wins_gets_a_positive_weight_when_the_rings_are_fitted() {
        let first = RING_START as u32 + 2 * RING_PATTERNS as u32;
        let winning = first + 7;
        let others = first + 8..first + RING_PATTERNS as u32;
        let mut rng = fastrand::Rng::with_seed(4);
        let train = samples(4000, &mut rng, SIDES + 2, winning, others.clone());
        let test = samples(1000, &mut rng, SIDES + 2, winning, others);
        let fit = fit_patterns(&train, &test, &start(), &options(true));
        assert!(
            fit.patterns[winning as usize] > 20,
            "{}",
            fit.patterns[winning as usize]
        );
        assert!(fit.held_out.1 < fit.held_out.0, "{:?}", fit.held_out);
        let without = fit_patterns(&train, &test, &start(), &options(false));
        assert!(without.patterns[RING_START..].iter().all(|&x| x == 0));
    }
}
