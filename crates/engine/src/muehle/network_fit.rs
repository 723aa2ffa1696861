//! Fitting Mühle's network ([`muehle::network`]) to positions labelled by
//! the databases: a logistic regression of the value (win 1, draw ½, loss 0
//! for the side to move) on the evaluation's logit plus the network's
//! output, by minibatch gradient steps (Adam). Each position is seen under a
//! random one of the board's 16 symmetries in each pass, as the values do
//! not change under them.

use muehle::network::{self, H2, INPUTS, MAX_ACTIVE, MAX_H1, Network};
use muehle::{Bitboard, Position, Symmetry};
use rayon::prelude::*;

/// Positions a thread sums the gradient of at a time (a batch is cut into
/// parts of this size).
const GRADIENT_PART: usize = 128;
/// Positions a thread sums the loss of at a time.
const LOSS_PART: usize = 4096;

/// A labelled position for the network fit.
#[derive(Clone, Copy, Debug)]
pub struct NetSample {
    ours: Bitboard,
    theirs: Bitboard,
    hand: [u8; 2],
    /// The evaluation in use (the tuned weights, and a network if one is
    /// installed: the fit then corrects that), divided by
    /// [`network::SCALE`].
    base: f32,
    /// The value for the side to move: 1, ½ or 0.
    target: f32,
}

impl NetSample {
    /// `pos` with its value `target` (1, ½, 0 for the side to move).
    pub fn new(pos: &Position, target: f32) -> NetSample {
        let us = pos.turn();
        let base = muehle::eval::evaluate_terms(pos, &muehle::eval::Weights::TUNED);
        NetSample {
            ours: pos.stones(us),
            theirs: pos.stones(us.other()),
            hand: [pos.in_hand(us), pos.in_hand(us.other())],
            base: base as f32 / network::SCALE as f32,
            target,
        }
    }

    /// The inputs that are set, under the symmetry `sym`.
    fn active(&self, sym: Symmetry, out: &mut [u16; MAX_ACTIVE]) -> usize {
        network::active_of(
            sym.apply(self.ours),
            sym.apply(self.theirs),
            self.hand[0],
            self.hand[1],
            out,
        )
    }
}

/// Options of the fit.
#[derive(Clone, Copy, Debug)]
pub struct NetOptions {
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions a gradient step.
    pub batch: usize,
    /// Adam's step size at the start (it falls linearly to a tenth).
    pub rate: f32,
    /// Seed of the start weights, the order and the symmetries.
    pub seed: u64,
    /// Units of the first hidden layer (one of [`network::WIDTHS`]).
    pub width: usize,
}

impl Default for NetOptions {
    fn default() -> NetOptions {
        NetOptions {
            epochs: 12,
            batch: 512,
            rate: 0.002,
            seed: 1,
            width: network::H1,
        }
    }
}

/// The weights in floating point, in the order of the network file.
#[derive(Clone, Debug)]
struct Float {
    /// Units of the first hidden layer.
    h1: usize,
    w: Vec<f32>,
    /// Where each part starts in `w`.
    at: Offsets,
}

/// Where the parts of a network's weights start, in the order of the
/// network file, for a first layer of some width.
#[derive(Clone, Copy, Debug)]
struct Offsets {
    w1: usize,
    b1: usize,
    w2: usize,
    b2: usize,
    w3: usize,
    b3: usize,
    params: usize,
}

impl Offsets {
    fn new(h1: usize) -> Offsets {
        let w1 = 0;
        let b1 = w1 + INPUTS * h1;
        let w2 = b1 + h1;
        let b2 = w2 + H2 * h1;
        let w3 = b2 + H2;
        let b3 = w3 + H2;
        Offsets {
            w1,
            b1,
            w2,
            b2,
            w3,
            b3,
            params: b3 + 1,
        }
    }
}

/// What one forward pass keeps for the backward pass (the first layer's
/// units in the first `h1` places).
struct Pass {
    a1: [f32; MAX_H1],
    h1: [f32; MAX_H1],
    a2: [f32; H2],
    h2: [f32; H2],
    /// The logit: the evaluation's and the network's.
    z: f32,
}

impl Float {
    fn new(seed: u64, h1: usize) -> Float {
        assert!(network::WIDTHS.contains(&h1), "a first layer of {h1} units");
        let at = Offsets::new(h1);
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut w = vec![0.0f32; at.params];
        let mut uniform = |a: f32| (rng.f32() * 2.0 - 1.0) * a;
        // The start weights of the second layer shrink with the width, so
        // that its units start in the same range as with 64 units.
        let fan = (64.0 / h1 as f32).sqrt();
        for x in &mut w[at.w1..at.b1] {
            *x = uniform(0.2);
        }
        for x in &mut w[at.b1..at.w2] {
            *x = 0.3 + uniform(0.1);
        }
        for x in &mut w[at.w2..at.b2] {
            *x = uniform(0.15 * fan);
        }
        for x in &mut w[at.b2..at.w3] {
            *x = 0.3 + uniform(0.1);
        }
        for x in &mut w[at.w3..at.b3] {
            *x = uniform(0.05);
        }
        Float { h1, w, at }
    }

    fn forward(&self, set: &[u16], base: f32) -> Pass {
        let (w, at, n) = (&self.w, self.at, self.h1);
        let mut a1 = [0.0f32; MAX_H1];
        a1[..n].copy_from_slice(&w[at.b1..at.w2]);
        for &i in set {
            let col = &w[at.w1 + usize::from(i) * n..at.w1 + (usize::from(i) + 1) * n];
            for (a, c) in a1[..n].iter_mut().zip(col) {
                *a += c;
            }
        }
        let h1 = a1.map(|a| a.clamp(0.0, 1.0));
        let mut a2 = [0.0f32; H2];
        for (k, a) in a2.iter_mut().enumerate() {
            let row = &w[at.w2 + k * n..at.w2 + (k + 1) * n];
            *a = w[at.b2 + k] + row.iter().zip(&h1[..n]).map(|(x, h)| x * h).sum::<f32>();
        }
        let h2 = a2.map(|a| a.clamp(0.0, 1.0));
        let z = base
            + w[at.b3]
            + w[at.w3..at.b3]
                .iter()
                .zip(&h2)
                .map(|(x, h)| x * h)
                .sum::<f32>();
        Pass { a1, h1, a2, h2, z }
    }

    /// Add the gradient of the cross-entropy at one position to `g`.
    fn backward(&self, set: &[u16], pass: &Pass, target: f32, g: &mut [f32]) {
        let (w, at, n) = (&self.w, self.at, self.h1);
        let dz = sigmoid(pass.z) - target;
        g[at.b3] += dz;
        let mut d2 = [0.0f32; H2];
        for k in 0..H2 {
            g[at.w3 + k] += dz * pass.h2[k];
            if pass.a2[k] > 0.0 && pass.a2[k] < 1.0 {
                d2[k] = dz * w[at.w3 + k];
            }
        }
        let mut d1 = [0.0f32; MAX_H1];
        for (k, &d) in d2.iter().enumerate() {
            if d == 0.0 {
                continue;
            }
            g[at.b2 + k] += d;
            let row = at.w2 + k * n;
            for j in 0..n {
                g[row + j] += d * pass.h1[j];
                d1[j] += d * w[row + j];
            }
        }
        for j in 0..n {
            if !(pass.a1[j] > 0.0 && pass.a1[j] < 1.0) {
                d1[j] = 0.0;
            }
            g[at.b1 + j] += d1[j];
        }
        for &i in set {
            let col = at.w1 + usize::from(i) * n;
            for j in 0..n {
                g[col + j] += d1[j];
            }
        }
    }

    /// Keep the weights where the fixed point holds them: the first
    /// layer within ±8 (20 inputs and the bias then add up within `i16`),
    /// the biases of the later layers within ±4.
    fn clip(&mut self) {
        let at = self.at;
        for x in &mut self.w[at.w1..at.w2] {
            *x = x.clamp(-8.0, 8.0);
        }
        for x in &mut self.w[at.b2..at.w3] {
            *x = x.clamp(-4.0, 4.0);
        }
        self.w[at.b3] = self.w[at.b3].clamp(-4.0, 4.0);
        for x in &mut self.w[at.w2..at.b2] {
            *x = x.clamp(-60.0, 60.0);
        }
        for x in &mut self.w[at.w3..at.b3] {
            *x = x.clamp(-60.0, 60.0);
        }
    }

    fn quantize(&self) -> Network {
        let (w, at) = (&self.w, self.at);
        Network::quantize(
            &w[at.w1..at.b1],
            &w[at.b1..at.w2],
            &w[at.w2..at.b2],
            &w[at.b2..at.w3],
            &w[at.w3..at.b3],
            w[at.b3],
        )
    }
}

fn sigmoid(z: f32) -> f32 {
    1.0 / (1.0 + (-z).exp())
}

/// Cross-entropy of a predicted probability `p` against `target`.
fn cross_entropy(p: f64, target: f64) -> f64 {
    let p = p.clamp(1e-9, 1.0 - 1e-9);
    -(target * p.ln() + (1.0 - target) * (1.0 - p).ln())
}

/// The mean cross-entropy of `samples` under `logit` (each sample's logit).
/// It is summed in parts of a fixed size on the threads there are, and the
/// parts in order, so it does not depend on the number of cores.
fn mean_loss(samples: &[NetSample], logit: impl Fn(&NetSample) -> f64 + Sync) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let parts: Vec<f64> = samples
        .par_chunks(LOSS_PART)
        .map(|part| {
            part.iter()
                .map(|s| cross_entropy(1.0 / (1.0 + (-logit(s)).exp()), f64::from(s.target)))
                .sum()
        })
        .collect();
    parts.iter().sum::<f64>() / samples.len() as f64
}

/// The mean cross-entropy of the evaluation alone, and with `net` (the
/// fixed-point network, as the engine adds it).
pub fn losses(samples: &[NetSample], net: &Network) -> (f64, f64) {
    let alone = mean_loss(samples, |s| f64::from(s.base));
    let with = mean_loss(samples, |s| {
        let mut set = [0u16; MAX_ACTIVE];
        let n = s.active(Symmetry::IDENTITY, &mut set);
        let out = net.output(&set[..n]);
        f64::from(s.base) + f64::from(out) / f64::from(network::ONE * network::W_ONE)
    });
    (alone, with)
}

/// What a fit gives.
#[derive(Debug)]
pub struct NetFit {
    /// The network, in fixed point.
    pub network: Network,
    /// Mean cross-entropy of the training positions: the evaluation alone,
    /// with the network.
    pub train: (f64, f64),
    /// The same on the held-out positions.
    pub held_out: (f64, f64),
}

/// Fit a network to `train`; `test` is only measured. `progress` is
/// called after each pass with its number and the held-out loss so far.
pub fn fit_network(
    train: &[NetSample],
    test: &[NetSample],
    options: &NetOptions,
    progress: impl FnMut(usize, f64),
) -> NetFit {
    let network = fit_float(train, test, options, progress).quantize();
    NetFit {
        train: losses(train, &network),
        held_out: losses(test, &network),
        network,
    }
}

/// The fit in floating point.
fn fit_float(
    train: &[NetSample],
    test: &[NetSample],
    options: &NetOptions,
    mut progress: impl FnMut(usize, f64),
) -> Float {
    let mut net = Float::new(options.seed, options.width);
    let params = net.at.params;
    let mut rng = fastrand::Rng::with_seed(options.seed ^ 0x9e37_79b9);
    let (mut m, mut v) = (vec![0.0f32; params], vec![0.0f32; params]);
    let (beta1, beta2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut step = 0i32;
    let mut order: Vec<usize> = (0..train.len()).collect();
    let batch = options.batch.max(1);
    let mut g = vec![0.0f32; params];
    let mut syms = Vec::with_capacity(batch);
    for epoch in 0..options.epochs {
        rng.shuffle(&mut order);
        let done = epoch as f32 / options.epochs.max(1) as f32;
        let rate = options.rate * (1.0 - 0.9 * done);
        for chunk in order.chunks(batch) {
            // The symmetries are drawn in order, then the batch's gradient
            // is summed in parts of a fixed size on the threads there are,
            // and the parts are added in order: the fit is the same on any
            // number of cores.
            syms.clear();
            syms.extend(chunk.iter().map(|_| Symmetry::ALL[rng.usize(0..16)]));
            let parts: Vec<Vec<f32>> = chunk
                .par_chunks(GRADIENT_PART)
                .zip(syms.par_chunks(GRADIENT_PART))
                .map(|(indices, syms)| {
                    let mut part = vec![0.0f32; params];
                    let mut set = [0u16; MAX_ACTIVE];
                    for (&i, &sym) in indices.iter().zip(syms) {
                        let s = &train[i];
                        let n = s.active(sym, &mut set);
                        let pass = net.forward(&set[..n], s.base);
                        net.backward(&set[..n], &pass, s.target, &mut part);
                    }
                    part
                })
                .collect();
            g.iter_mut().for_each(|x| *x = 0.0);
            for part in &parts {
                for (x, p) in g.iter_mut().zip(part) {
                    *x += p;
                }
            }
            step += 1;
            let scale = 1.0 / chunk.len() as f32;
            let (c1, c2) = (1.0 - beta1.powi(step), 1.0 - beta2.powi(step));
            for p in 0..params {
                let gp = g[p] * scale;
                m[p] = beta1 * m[p] + (1.0 - beta1) * gp;
                v[p] = beta2 * v[p] + (1.0 - beta2) * gp * gp;
                net.w[p] -= rate * (m[p] / c1) / ((v[p] / c2).sqrt() + eps);
            }
            net.clip();
        }
        let (_, held) = losses(test, &net.quantize());
        progress(epoch + 1, held);
    }
    net
}

#[cfg(test)]
mod tests {
    use super::*;
    use muehle::RuleSet;

    /// The gradient of the backward pass is the slope of the loss: each
    /// weight moved a little changes the loss by the gradient times the
    /// move, for each width of the first layer.
    #[test]
    fn the_gradient_is_the_slope_of_the_loss() {
        let pos: Position = ".../.BW/.W./WWBWB./B.B/BW./.BW w 2 2 0 8".parse().unwrap();
        let s = NetSample::new(&pos, 1.0);
        for width in network::WIDTHS {
            let net = Float::new(7, width);
            let at = net.at;
            let mut set = [0u16; MAX_ACTIVE];
            let n = s.active(Symmetry::IDENTITY, &mut set);
            let set = &set[..n];
            let loss = |f: &Float| {
                let p = f.forward(set, s.base);
                cross_entropy(f64::from(sigmoid(p.z)), f64::from(s.target))
            };
            let mut g = vec![0.0f32; at.params];
            net.backward(set, &net.forward(set, s.base), s.target, &mut g);
            let checked = [
                at.w1 + usize::from(set[0]) * width + 3,
                at.w1 + usize::from(set[1]) * width + width - 1,
                at.b1 + 5,
                at.w2 + 17,
                at.w2 + H2 * width - 2,
                at.b2 + 2,
                at.w3 + 1,
                at.b3,
            ];
            for p in checked {
                let h = 1e-3f32;
                let (mut up, mut down) = (net.clone(), net.clone());
                up.w[p] += h;
                down.w[p] -= h;
                let slope = (loss(&up) - loss(&down)) / (2.0 * f64::from(h));
                assert!(
                    (slope - f64::from(g[p])).abs() < 2e-3,
                    "width {width}, weight {p}: slope {slope}, gradient {}",
                    g[p]
                );
            }
        }
    }

    /// The fixed-point network gives the floating-point one's output to
    /// within the rounding, and its file reads back to the same network
    /// of the same width.
    #[test]
    fn the_fixed_point_network_follows_the_float_one() {
        for width in network::WIDTHS {
            let net = Float::new(3, width);
            let q = net.quantize();
            assert_eq!(q.width(), width);
            assert_eq!(q.to_bytes().len(), 2 * network::values(width));
            assert_eq!(Network::from_bytes(&q.to_bytes()), Ok(q.clone()));
            let pos: Position = ".../.BW/.W./WWBWB./B.B/BW./.BW w 2 2 0 8".parse().unwrap();
            let mut set = [0u16; MAX_ACTIVE];
            let n = network::active(&pos, &mut set).expect("the standard board");
            let float = net.forward(&set[..n], 0.0).z;
            let fixed = q.output(&set[..n]) as f32 / (network::ONE * network::W_ONE) as f32;
            assert!(
                (float - fixed).abs() < 0.05,
                "width {width}: float {float}, fixed {fixed}"
            );
        }
    }

    /// A position of the standard rules after a number of random plies
    /// in `plies` (fewer if the game ends).
    fn random_position(rng: &mut fastrand::Rng, plies: std::ops::Range<usize>) -> Position {
        let mut pos = Position::new(RuleSet::STANDARD);
        for _ in 0..rng.usize(plies) {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.is_game_over() {
                break;
            }
            pos = pos.play(moves[rng.usize(0..moves.len())]).unwrap();
        }
        pos
    }

    /// The fit sums its gradients and losses on the threads there are,
    /// and gives the same weights, to the last bit, on one thread as on
    /// three.
    #[test]
    fn the_fit_is_the_same_on_any_number_of_threads() {
        let mut rng = fastrand::Rng::with_seed(9);
        let mut samples = Vec::new();
        while samples.len() < 1500 {
            let pos = random_position(&mut rng, 8..30);
            samples.push(NetSample::new(&pos, [0.0, 0.5, 1.0][rng.usize(0..3)]));
        }
        let (train, test) = samples.split_at(1200);
        let options = NetOptions {
            epochs: 2,
            batch: 400,
            width: 64,
            ..NetOptions::default()
        };
        let fit_on_start = || -> Vec<u32> {
            Float::new(options.seed, options.width)
                .w
                .iter()
                .map(|w| w.to_bits())
                .collect()
        };
        let fit_on = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                let mut held = Vec::new();
                let net = fit_float(train, test, &options, |_, loss| held.push(loss));
                let bits: Vec<u32> = net.w.iter().map(|w| w.to_bits()).collect();
                (bits, held)
            })
        };
        let (one, held_one) = fit_on(1);
        assert_eq!(held_one.len(), 2);
        assert_ne!(one, fit_on_start(), "the fit moved the weights");
        let (three, held_three) = fit_on(3);
        let differ = one.iter().zip(&three).position(|(a, b)| a != b);
        assert_eq!(differ, None, "the first weight that differs");
        assert_eq!(held_one, held_three);
    }

    /// On positions whose value the evaluation cannot tell (a value set by
    /// the points of the stones, the same under every symmetry), the fit
    /// learns it: the held-out loss falls well below the evaluation's.
    #[test]
    fn the_fit_learns_what_the_evaluation_misses() {
        let mut rng = fastrand::Rng::with_seed(5);
        let mut samples = Vec::new();
        let corners: Bitboard = ["b2", "b6", "f2", "f6"]
            .iter()
            .map(|p| p.parse::<muehle::Square>().unwrap())
            .collect();
        while samples.len() < 6000 {
            let pos = random_position(&mut rng, 2..10);
            // A made-up value: won if the side to move has a stone on a
            // corner of the middle ring.
            let ours = pos.stones(pos.turn());
            let target = if (ours & corners).is_empty() {
                0.0
            } else {
                1.0
            };
            samples.push(NetSample::new(&pos, target));
        }
        let (train, test) = samples.split_at(5000);
        let options = NetOptions {
            epochs: 4,
            batch: 64,
            ..NetOptions::default()
        };
        let fit = fit_network(train, test, &options, |_, _| {});
        assert!(
            fit.held_out.1 < 0.5 * fit.held_out.0,
            "held-out loss {:?}",
            fit.held_out
        );
    }
}
