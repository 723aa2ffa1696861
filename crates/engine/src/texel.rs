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
    pub features: [i32; FEATURES],
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

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean cross-entropy of `samples` under weights `w` and `scale`.
pub fn loss(samples: &[Sample], w: &[f64; FEATURES], scale: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let total: f64 = samples
        .iter()
        .map(|s| {
            let e: f64 = s
                .features
                .iter()
                .zip(w)
                .map(|(&f, w)| f64::from(f) * w)
                .sum();
            let p = sigmoid(e / scale).clamp(1e-9, 1.0 - 1e-9);
            -(s.target * p.ln() + (1.0 - s.target) * (1.0 - p).ln())
        })
        .sum();
    total / samples.len() as f64
}

fn to_f64(w: &Weights) -> [f64; FEATURES] {
    w.to_array().map(f64::from)
}

/// Fit the weights to `samples`, starting from `start`; the weights whose
/// index is in `fixed` keep their value (at least the unit, the stone).
pub fn fit(samples: &[Sample], start: Weights, fixed: &[usize], iterations: usize) -> Fit {
    let w0 = to_f64(&start);
    // The scale: golden-section search of the loss over 10..5000.
    let (mut lo, mut hi) = (10f64.ln(), 5000f64.ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if loss(samples, &w0, a.exp()) < loss(samples, &w0, b.exp()) {
            hi = b;
        } else {
            lo = a;
        }
    }
    let scale = ((lo + hi) / 2.0).exp();
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
            &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 14],
            400,
        );
        assert!(r.loss_after < r.loss_before, "{r:?}");
        assert!((r.weights.liberty - 25).abs() <= 12, "{r:?}");
        assert!((r.weights.cramped - 80).abs() <= 25, "{r:?}");
        assert_eq!(r.weights.stone, 100);
    }
}
