//! Fitting Dame's pattern weights ([`dame::pattern`]) to game results, with
//! the linear weights ([`dame::eval::Weights`]) held or fitted with them.
//!
//! The model is the evaluation's: `draw scale · (linear + patterns)`, the
//! pattern part tapered by the phase; through a logistic curve of a fixed
//! scale (fitted first, with the starting weights alone) it should predict
//! each position's result for the side to move. Adam on the mean
//! cross-entropy, full batches; the pattern gradient is sparse (each
//! position touches one entry a region). A ridge pulls every pattern entry
//! towards 0, so that formations seldom seen stay near nothing, and every
//! linear weight towards its start.

use crate::texel::{Adam, fit_scale, mean_cross_entropy, sigmoid};
use dame::Position;
use dame::eval::{self, FEATURES, Weights};
use dame::pattern::{self, MAX_REGIONS, PATTERNS};

/// A labelled position, prepared for the fit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PatternSample {
    /// The linear features split by the phase (middle game, then endgame),
    /// multiplied by the draw scale.
    pub row: [f32; 2 * FEATURES],
    /// The draw scale (1 normally).
    pub scale: f32,
    /// The middle-game share of the phase (1 with all pieces on the board).
    pub mid: f32,
    /// The pattern index of each region, for the side to move.
    pub idx: [u16; MAX_REGIONS],
    /// The result for the side to move: 1, ½ or 0.
    pub target: f32,
}

impl PatternSample {
    /// Prepare `pos` with its result for the side to move; `start` decides
    /// which side the draw scale takes as ahead.
    pub fn new(pos: &Position, target: f32, start: &Weights) -> PatternSample {
        let feats = eval::features(pos);
        let full = eval::full_phase(pos.size());
        let phase = eval::phase(pos);
        let score = eval::linear(&feats, phase, full, start);
        let scale = eval::draw_scale(pos, score > 0) as f32 / 16.0;
        let mid = phase as f32 / full as f32;
        let mut row = [0f32; 2 * FEATURES];
        for (i, &x) in feats.iter().enumerate() {
            row[i] = x as f32 * mid * scale;
            row[FEATURES + i] = x as f32 * (1.0 - mid) * scale;
        }
        PatternSample {
            row,
            scale,
            mid,
            idx: pattern::indices(pos),
            target,
        }
    }
}

/// What [`fit_patterns`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct PatternFit {
    /// The linear weights (middle game, then endgame), whole numbers.
    pub linear: Vec<i32>,
    /// The pattern weights' middle-game part, `region * 6561 + index`.
    pub mid: Vec<i16>,
    /// The endgame part, laid out as `mid`.
    pub end: Vec<i16>,
    /// The logistic scale (fixed during the fit).
    pub scale: f64,
    /// Mean cross-entropy of the training samples, before and after.
    pub train: (f64, f64),
    /// Mean cross-entropy of the held-out samples, before and after.
    pub held_out: (f64, f64),
}

/// A pattern table to start a fit from (the format of
/// `crates/dame/data/patterns-*.bin`: little-endian `i16`s, the
/// middle-game values of every region and index, then the endgame values).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternTable {
    /// Middle-game values, `region * 6561 + index`.
    pub mid: Vec<i16>,
    /// Endgame values, laid out as `mid`.
    pub end: Vec<i16>,
}

/// Why a table file cannot start a fit.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("a pattern table of {regions} regions has {expected} bytes, this one {found}")]
pub struct TableSizeError {
    /// The regions the fit has.
    pub regions: usize,
    /// The bytes a table of that many regions has.
    pub expected: usize,
    /// The bytes found.
    pub found: usize,
}

impl PatternTable {
    /// Read the bytes of a table file of `regions` regions.
    pub fn from_bytes(bytes: &[u8], regions: usize) -> Result<PatternTable, TableSizeError> {
        let n = regions * PATTERNS;
        if bytes.len() != 4 * n {
            return Err(TableSizeError {
                regions,
                expected: 4 * n,
                found: bytes.len(),
            });
        }
        let values: Vec<i16> = bytes
            .chunks_exact(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]))
            .collect();
        let (mid, end) = values.split_at(n);
        Ok(PatternTable {
            mid: mid.to_vec(),
            end: end.to_vec(),
        })
    }
}

/// How [`fit_patterns`] fits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PatternOptions {
    /// Regions on the board ([`pattern::regions`]).
    pub regions: usize,
    /// Full-batch Adam steps.
    pub epochs: usize,
    /// Adam's step size, in hundredths of a man.
    pub rate: f64,
    /// Pull of each pattern entry towards 0: the loss gains
    /// `ridge / 2 · (w / 100)²` per entry.
    pub pattern_ridge: f64,
    /// Pull of each linear weight towards its start, likewise.
    pub linear_ridge: f64,
    /// Whether the linear weights move too (the middle-game man stays 100).
    pub fit_linear: bool,
}

struct Model<'a> {
    linear: &'a [f64],
    mid: &'a [f64],
    end: &'a [f64],
    regions: usize,
}

impl Model<'_> {
    fn eval(&self, s: &PatternSample) -> f64 {
        let mut e: f64 = s
            .row
            .iter()
            .zip(self.linear)
            .map(|(&f, w)| f64::from(f) * w)
            .sum();
        let (mut pm, mut pe) = (0.0, 0.0);
        for r in 0..self.regions {
            let at = r * PATTERNS + usize::from(s.idx[r]);
            pm += self.mid[at];
            pe += self.end[at];
        }
        let m = f64::from(s.mid);
        e += f64::from(s.scale) * (m * pm + (1.0 - m) * pe);
        e
    }

    fn loss(&self, samples: &[PatternSample], k: f64) -> f64 {
        mean_cross_entropy(
            k,
            samples.iter().map(|s| (self.eval(s), f64::from(s.target))),
        )
    }
}

/// Fit pattern weights (and, with `fit_linear`, the linear weights) to
/// `train`, reporting the loss on `test` too.
pub fn fit_patterns(
    train: &[PatternSample],
    test: &[PatternSample],
    start: &Weights,
    options: &PatternOptions,
    from: Option<&PatternTable>,
) -> PatternFit {
    let n_pat = options.regions * PATTERNS;
    let mut linear: Vec<f64> = start.to_vec().iter().map(|&x| f64::from(x)).collect();
    let start_linear = linear.clone();
    let mut mid = vec![0f64; n_pat];
    let mut end = vec![0f64; n_pat];
    if let Some(table) = from {
        for (w, &x) in mid.iter_mut().zip(&table.mid) {
            *w = f64::from(x);
        }
        for (w, &x) in end.iter_mut().zip(&table.end) {
            *w = f64::from(x);
        }
    }
    // The scale of the curve, with the starting weights.
    let loss_at = |k: f64, linear: &[f64], mid: &[f64], end: &[f64], s: &[PatternSample]| {
        Model {
            linear,
            mid,
            end,
            regions: options.regions,
        }
        .loss(s, k)
    };
    let k = fit_scale(40, |k| loss_at(k, &linear, &mid, &end, train));
    let train_before = loss_at(k, &linear, &mid, &end, train);
    let test_before = loss_at(k, &linear, &mid, &end, test);
    let n = train.len().max(1) as f64;
    let (mut adam_lin, mut adam_mid, mut adam_end) =
        (Adam::new(linear.len()), Adam::new(n_pat), Adam::new(n_pat));
    let mut g_lin = vec![0f64; linear.len()];
    let mut g_mid = vec![0f64; n_pat];
    let mut g_end = vec![0f64; n_pat];
    for t in 1..=options.epochs {
        g_lin.iter_mut().for_each(|x| *x = 0.0);
        g_mid.iter_mut().for_each(|x| *x = 0.0);
        g_end.iter_mut().for_each(|x| *x = 0.0);
        let m = Model {
            linear: &linear,
            mid: &mid,
            end: &end,
            regions: options.regions,
        };
        for s in train {
            let d = (sigmoid(m.eval(s) / k) - f64::from(s.target)) / k;
            if options.fit_linear {
                for (g, &f) in g_lin.iter_mut().zip(&s.row) {
                    *g += d * f64::from(f);
                }
            }
            let dm = d * f64::from(s.scale) * f64::from(s.mid);
            let de = d * f64::from(s.scale) * (1.0 - f64::from(s.mid));
            for r in 0..options.regions {
                let at = r * PATTERNS + usize::from(s.idx[r]);
                g_mid[at] += dm;
                g_end[at] += de;
            }
        }
        for i in 0..n_pat {
            g_mid[i] = g_mid[i] / n + options.pattern_ridge * mid[i] / 10_000.0;
            g_end[i] = g_end[i] / n + options.pattern_ridge * end[i] / 10_000.0;
        }
        adam_mid.step(&mut mid, &g_mid, t, options.rate, None);
        adam_end.step(&mut end, &g_end, t, options.rate, None);
        if options.fit_linear {
            for i in 0..linear.len() {
                g_lin[i] =
                    g_lin[i] / n + options.linear_ridge * (linear[i] - start_linear[i]) / 10_000.0;
            }
            adam_lin.step(&mut linear, &g_lin, t, options.rate, Some(eval::f::MAN));
        }
    }
    let round = |v: &[f64]| -> Vec<i16> {
        v.iter()
            .map(|x| x.round().clamp(f64::from(i16::MIN), f64::from(i16::MAX)) as i16)
            .collect()
    };
    let linear_i: Vec<i32> = linear.iter().map(|x| x.round() as i32).collect();
    let (mid_i, end_i) = (round(&mid), round(&end));
    let back = |v: &[i16]| -> Vec<f64> { v.iter().map(|&x| f64::from(x)).collect() };
    let lin_f: Vec<f64> = linear_i.iter().map(|&x| f64::from(x)).collect();
    let (mid_f, end_f) = (back(&mid_i), back(&end_i));
    PatternFit {
        train: (train_before, loss_at(k, &lin_f, &mid_f, &end_f, train)),
        held_out: (test_before, loss_at(k, &lin_f, &mid_f, &end_f, test)),
        linear: linear_i,
        mid: mid_i,
        end: end_i,
        scale: k,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pattern_that_wins_gets_a_positive_weight() {
        // One region; positions whose region reads 7 are won three times in
        // four, the others drawn: the fit must find entry 7 (and leave the
        // held-out loss lower than the linear weights alone).
        let start = Weights {
            mid: [0; FEATURES],
            end: [0; FEATURES],
            patterns: None,
        };
        let mut rng = fastrand::Rng::with_seed(3);
        let mut make = |n: usize| -> Vec<PatternSample> {
            (0..n)
                .map(|_| {
                    let i = if rng.bool() {
                        7
                    } else {
                        rng.u16(8..PATTERNS as u16)
                    };
                    let mut idx = [0u16; MAX_REGIONS];
                    idx[0] = i;
                    let target = if i == 7 {
                        if rng.u8(0..4) < 3 { 1.0 } else { 0.0 }
                    } else {
                        0.5
                    };
                    PatternSample {
                        row: [0.0; 2 * FEATURES],
                        scale: 1.0,
                        mid: 1.0,
                        idx,
                        target,
                    }
                })
                .collect()
        };
        let (train, test) = (make(4000), make(1000));
        let options = PatternOptions {
            regions: 1,
            epochs: 200,
            rate: 1.0,
            pattern_ridge: 0.0003,
            linear_ridge: 0.0007,
            fit_linear: false,
        };
        let fit = fit_patterns(&train, &test, &start, &options, None);
        assert!(fit.mid[7] > 20, "{}", fit.mid[7]);
        assert!(fit.held_out.1 < fit.held_out.0, "{:?}", fit.held_out);

        // Started from the fitted table, the fit begins where the first one
        // ended: no steps give that table back with its held-out loss, and
        // more steps keep what was learned.
        let mut bytes = Vec::new();
        for x in fit.mid.iter().chain(&fit.end) {
            bytes.extend_from_slice(&x.to_le_bytes());
        }
        let table = PatternTable::from_bytes(&bytes, 1).unwrap();
        let none = PatternOptions {
            epochs: 0,
            ..options
        };
        let again = fit_patterns(&train, &test, &start, &none, Some(&table));
        assert_eq!(
            (again.mid.clone(), again.end.clone()),
            (fit.mid.clone(), fit.end.clone())
        );
        assert!(
            again.held_out.0 < fit.held_out.0,
            "{:?} {:?}",
            again.held_out,
            fit.held_out
        );
        let more = fit_patterns(&train, &test, &start, &options, Some(&table));
        assert!(more.mid[7] > 20, "{}", more.mid[7]);
        assert_eq!(
            PatternTable::from_bytes(&bytes[1..], 1),
            Err(TableSizeError {
                regions: 1,
                expected: 4 * PATTERNS,
                found: 4 * PATTERNS - 1
            })
        );
    }
}
