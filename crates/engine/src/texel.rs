//! Fitting Mühle's evaluation weights to known game values (Texel's
//! method): each labelled position's evaluation, through a logistic curve,
//! should predict its result — 1 won, ½ drawn, 0 lost for the side to move.
//! The evaluation is linear in its features ([`muehle::eval::features`]),
//! so the fit is a logistic regression: the scale of the curve is fitted
//! first (with the starting weights), then every weight not held fixed by
//! gradient descent (Adam) on the mean cross-entropy.

use muehle::eval::{FEATURES, Weights};

/// A labelled position: its features for the side to move and the result
/// for the side to move (1, 0.5 or 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// The features of the position, for the side to move.
    pub features: [i32; FEATURES],
    /// The result for the side to move: 1, 0.5 or 0.
    pub target: f64,
}

/// The result of [`fit`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fit {
    /// The fitted weights (rounded to whole numbers).
    pub weights: Weights,
    /// The logistic scale: a score of `scale` centipawns predicts a result of
    /// about 0.73.
    pub scale: f64,
    /// Mean cross-entropy with the starting weights.
    pub loss_before: f64,
    /// Mean cross-entropy with the fitted weights.
    pub loss_after: f64,
}

pub(crate) fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The cross-entropy of a score `e` (through the logistic curve of
/// `scale`) against the result `target` (1, ½ or 0).
pub(crate) fn cross_entropy(e: f64, target: f64, scale: f64) -> f64 {
    let p = sigmoid(e / scale).clamp(1e-9, 1.0 - 1e-9);
    -(target * p.ln() + (1.0 - target) * (1.0 - p).ln())
}

/// The mean of [`cross_entropy`] over the samples, each given as its score
/// and its result; 0 for none.
pub(crate) fn mean_cross_entropy(
    scale: f64,
    samples: impl ExactSizeIterator<Item = (f64, f64)>,
) -> f64 {
    let n = samples.len();
    if n == 0 {
        return 0.0;
    }
    let total: f64 = samples.map(|(e, t)| cross_entropy(e, t, scale)).sum();
    total / n as f64
}

/// The logistic scale (between 10 and 5000) that makes `loss` smallest:
/// golden-section search on its logarithm, `steps` narrowings.
pub(crate) fn fit_scale(steps: usize, loss: impl Fn(f64) -> f64) -> f64 {
    let (mut lo, mut hi) = (10f64.ln(), 5000f64.ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..steps {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if loss(a.exp()) < loss(b.exp()) {
            hi = b;
        } else {
            lo = a;
        }
    }
    ((lo + hi) / 2.0).exp()
}

/// Mean cross-entropy of `samples` under weights `w` and `scale`.
pub fn loss(samples: &[Sample], w: &[f64; FEATURES], scale: f64) -> f64 {
    mean_cross_entropy(
        scale,
        samples.iter().map(|s| {
            let e: f64 = s
                .features
                .iter()
                .zip(w)
                .map(|(&f, w)| f64::from(f) * w)
                .sum();
            (e, s.target)
        }),
    )
}

fn to_f64(w: &Weights) -> [f64; FEATURES] {
    w.to_array().map(f64::from)
}

/// Fit the weights to `samples`, starting from `start`; the weights whose
/// index is in `fixed` keep their value (at least the unit, the stone).
pub fn fit(samples: &[Sample], start: Weights, fixed: &[usize], iterations: usize) -> Fit {
    let w0 = to_f64(&start);
    // The scale: golden-section search of the loss over 10..5000.
    let scale = fit_scale(60, |k| loss(samples, &w0, k));
    let loss_before = loss(samples, &w0, scale);
    // Adam on the free weights, the whole set each step.
    let mut w = w0;
    let (mut m, mut v) = ([0f64; FEATURES], [0f64; FEATURES]);
    let (b1, b2, rate) = (0.9, 0.999, 0.5);
    let n = samples.len().max(1) as f64;
    for t in 1..=iterations {
        let mut grad = [0f64; FEATURES];
        for s in samples {
            let e: f64 = s
                .features
                .iter()
                .zip(&w)
                .map(|(&f, w)| f64::from(f) * w)
                .sum();
            let d = (sigmoid(e / scale) - s.target) / scale;
            for (g, &f) in grad.iter_mut().zip(&s.features) {
                *g += d * f64::from(f);
            }
        }
        for i in 0..FEATURES {
            if fixed.contains(&i) {
                continue;
            }
            let g = grad[i] / n;
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - b1.powi(t as i32));
            let vh = v[i] / (1.0 - b2.powi(t as i32));
            w[i] -= rate * mh / (vh.sqrt() + 1e-12);
        }
    }
    let rounded = w.map(|x| x.round() as i32);
    let loss_after = loss(samples, &rounded.map(f64::from), scale);
    Fit {
        weights: Weights::from_array(rounded),
        scale,
        loss_before,
        loss_after,
    }
}

/// Adam's moments for a vector of weights (the pattern fits).
pub(crate) struct Adam {
    m: Vec<f64>,
    v: Vec<f64>,
}

impl Adam {
    pub(crate) fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
        }
    }

    /// One step of `w` down `grad` (step `t`, from 1), leaving `skip` alone.
    pub(crate) fn step(
        &mut self,
        w: &mut [f64],
        grad: &[f64],
        t: usize,
        rate: f64,
        skip: Option<usize>,
    ) {
        let (b1, b2) = (0.9f64, 0.999f64);
        let c1 = 1.0 - b1.powi(t as i32);
        let c2 = 1.0 - b2.powi(t as i32);
        for i in 0..w.len() {
            if Some(i) == skip {
                continue;
            }
            let g = grad[i];
            self.m[i] = b1 * self.m[i] + (1.0 - b1) * g;
            self.v[i] = b2 * self.v[i] + (1.0 - b2) * g * g;
            w[i] -= rate * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + 1e-12);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Labels drawn from a known logistic model are fitted back to about
    /// its weights, and the loss falls.
    #[test]
    fn recovers_the_weights_of_a_known_model() {
        let truth = Weights {
            liberty: 25,
            cramped: 80,
            ..Weights::TUNED
        };
        let tw = to_f64(&truth);
        let mut rng = fastrand::Rng::with_seed(5);
        let samples: Vec<Sample> = (0..4000)
            .map(|_| {
                let mut f = [0i32; FEATURES];
                for x in f.iter_mut() {
                    *x = rng.i32(-3..=3);
                }
                f[9] = 1;
                let e: f64 = f.iter().zip(&tw).map(|(&f, w)| f64::from(f) * w).sum();
                let target = if rng.f64() < sigmoid(e / 300.0) {
                    1.0
                } else {
                    0.0
                };
                Sample {
                    features: f,
                    target,
                }
            })
            .collect();
        let start = Weights {
            liberty: 0,
            cramped: 0,
            ..Weights::TUNED
        };
        let r = fit(
            &samples,
            start,
            &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 14, 15, 16, 17],
            400,
        );
        assert!(r.loss_after < r.loss_before, "{r:?}");
        assert!((r.weights.liberty - 25).abs() <= 12, "{r:?}");
        assert!((r.weights.cramped - 80).abs() <= 25, "{r:?}");
        assert_eq!(r.weights.stone, 100);
    }
}

/// Labelled samples of a linear evaluation with any number of features
/// (Dame's tapered weights): row `i` of `features` (length `width`) and
/// its result for the side to move (1, ½ or 0).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    /// The number of features of each sample.
    pub width: usize,
    /// The samples' features, one row after another.
    pub features: Vec<f32>,
    /// The samples' results.
    pub targets: Vec<f32>,
}

impl Table {
    /// An empty table of rows `width` long.
    pub fn new(width: usize) -> Table {
        Table {
            width,
            ..Table::default()
        }
    }

    /// Add a sample.
    pub fn push(&mut self, row: &[f32], target: f32) {
        assert_eq!(row.len(), self.width, "row width");
        self.features.extend_from_slice(row);
        self.targets.push(target);
    }

    /// The number of samples.
    pub fn len(&self) -> usize {
        self.targets.len()
    }

    /// Whether there are no samples.
    pub fn is_empty(&self) -> bool {
        self.targets.is_empty()
    }

    fn row(&self, i: usize) -> &[f32] {
        &self.features[i * self.width..(i + 1) * self.width]
    }

    /// Mean cross-entropy under weights `w` and `scale`.
    pub fn loss(&self, w: &[f64], scale: f64) -> f64 {
        mean_cross_entropy(
            scale,
            (0..self.len()).map(|i| {
                let e: f64 = self
                    .row(i)
                    .iter()
                    .zip(w)
                    .map(|(&f, w)| f64::from(f) * w)
                    .sum();
                (e, f64::from(self.targets[i]))
            }),
        )
    }
}

/// The result of [`fit_table`].
#[derive(Clone, Debug, PartialEq)]
pub struct TableFit {
    /// The fitted weights, rounded to whole numbers.
    pub weights: Vec<i32>,
    /// The logistic scale of the fitted weights.
    pub scale: f64,
    /// The logistic scale fitted with the starting weights.
    pub start_scale: f64,
    /// Mean cross-entropy with the starting weights.
    pub loss_before: f64,
    /// Mean cross-entropy with the fitted weights.
    pub loss_after: f64,
}

/// Fit weights to `table` as [`fit`] does: the scale first, by
/// golden-section search with the starting weights, then Adam on the mean
/// cross-entropy over every weight whose index is not in `fixed`. The
/// model only depends on the weights divided by the scale, so with an
/// `anchor` every weight may move and the result is then multiplied (the
/// scale too) so that the anchor keeps its starting value (the unit: a
/// man is 100). `ridge` pulls every weight towards its start: the loss
/// gains `ridge / 2 · ((w − start) / 100)²` per weight, so that features
/// rarely seen (a king on the main diagonal in the middle game) keep
/// sensible weights.
pub fn fit_table(
    table: &Table,
    start: &[i32],
    fixed: &[usize],
    anchor: Option<usize>,
    ridge: f64,
    iterations: usize,
) -> TableFit {
    assert_eq!(start.len(), table.width, "one weight per feature");
    let w0: Vec<f64> = start.iter().map(|&x| f64::from(x)).collect();
    let scale = fit_scale(50, |k| table.loss(&w0, k));
    let loss_before = table.loss(&w0, scale);
    let k = table.width;
    let mut w = w0;
    let (mut m, mut v) = (vec![0f64; k], vec![0f64; k]);
    let (b1, b2, rate) = (0.9, 0.999, 0.5);
    let n = table.len().max(1) as f64;
    let mut grad = vec![0f64; k];
    for t in 1..=iterations {
        grad.iter_mut().for_each(|g| *g = 0.0);
        for i in 0..table.len() {
            let row = table.row(i);
            let e: f64 = row.iter().zip(&w).map(|(&f, w)| f64::from(f) * w).sum();
            let d = (sigmoid(e / scale) - f64::from(table.targets[i])) / scale;
            for (g, &f) in grad.iter_mut().zip(row) {
                *g += d * f64::from(f);
            }
        }
        for i in 0..k {
            if fixed.contains(&i) {
                continue;
            }
            let g = grad[i] / n + ridge * (w[i] - f64::from(start[i])) / 10_000.0;
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - b1.powi(t as i32));
            let vh = v[i] / (1.0 - b2.powi(t as i32));
            w[i] -= rate * mh / (vh.sqrt() + 1e-12);
        }
    }
    let start_scale = scale;
    let mut scale = scale;
    if let Some(a) = anchor
        && w[a].abs() > 1e-9
    {
        let c = f64::from(start[a]) / w[a];
        w.iter_mut().for_each(|x| *x *= c);
        scale *= c;
    }
    let weights: Vec<i32> = w.iter().map(|x| x.round() as i32).collect();
    let loss_after = table.loss(
        &weights.iter().map(|&x| f64::from(x)).collect::<Vec<_>>(),
        scale,
    );
    TableFit {
        weights,
        scale,
        start_scale,
        loss_before,
        loss_after,
    }
}

#[cfg(test)]
mod table_tests {
    use super::*;

    /// A known logistic model over a table is fitted back to about its
    /// weights.
    #[test]
    fn fit_table_recovers_a_known_model() {
        let truth = [100.0, 40.0, -25.0];
        let mut rng = fastrand::Rng::with_seed(9);
        let mut table = Table::new(3);
        for _ in 0..6000 {
            let row = [
                rng.i32(-2..=2) as f32,
                rng.i32(-3..=3) as f32,
                rng.i32(-3..=3) as f32,
            ];
            let e: f64 = row.iter().zip(&truth).map(|(&f, w)| f64::from(f) * w).sum();
            let target = if rng.f64() < sigmoid(e / 200.0) {
                1.0
            } else {
                0.0
            };
            table.push(&row, target);
        }
        let r = fit_table(&table, &[100, 0, 0], &[], Some(0), 0.0, 1500);
        assert!(r.loss_after < r.loss_before, "{r:?}");
        assert_eq!(r.weights[0], 100);
        assert!((r.weights[1] - 40).abs() <= 10, "{r:?}");
        assert!((r.weights[2] + 25).abs() <= 10, "{r:?}");
        assert!((r.scale - 200.0).abs() < 40.0, "{r:?}");
    }
}
