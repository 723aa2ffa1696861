//! A small network that corrects Mühle's evaluation, learnt from the
//! perfect-play databases.
//!
//! The linear terms and the patterns ([`crate::eval`], [`crate::pattern`])
//! see what players name: mills, threats, mobility, blocked stones. What
//! they miss is how the stones stand together over the whole board. The
//! network looks at the raw position, from the side to move: its stones on
//! the 24 points, the opponent's, and the stones each has in hand (one of
//! ten); [`INPUTS`] inputs, of which at most 20 are set. Two hidden layers
//! (the first of 64, 128 or 256 units, [`WIDTHS`]; the second of [`H2`]),
//! each clipped to [0, 1], give one number: a
//! correction of the evaluation's logit (the score divided by [`SCALE`]),
//! fitted with the evaluation in place (`brett tune --labels FILE --network
//! OUT`, docs/ENGINE.md). So the evaluation with the network is the
//! evaluation plus [`SCALE`] times the network's output.
//!
//! It runs in integers: the first layer is summed over the inputs that are
//! set (a column of `i16`, one a unit), the others are dot products of
//! `i16`. A file holds the weights as little-endian `i16` in the order
//! first layer (input by input), its biases, second layer (unit by unit),
//! its biases, output weights, output bias; its size tells the width of
//! the first layer ([`values`]); [`Network::from_bytes`] reads it. The
//! fixed-point scales: the hidden units run from 0 to [`ONE`]; the
//! first layer's weights and biases are multiplied by [`ONE`], the second
//! and the output layer's weights by [`W_ONE`], their biases by
//! [`ONE`] × [`W_ONE`].
//!
//! Only Nine Men's Morris has a network: a board with diagonal lines, or
//! with more stones a side, has none.
//!
//! brett has one built in ([`built_in`], `crates/muehle/data/network.bin`,
//! docs/ENGINE.md "Mühle: network"); [`install`] puts another in its place,
//! [`set_enabled`] turns the correction off.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicPtr, Ordering};

use crate::{Bitboard, Position};

/// Inputs: the side to move's stones on the 24 points, the opponent's,
/// the side to move's stones in hand (0 to 9, one input each), the
/// opponent's.
pub const INPUTS: usize = 24 + 24 + 10 + 10;
/// Units of the first hidden layer of the built-in network.
pub const H1: usize = 256;
/// The widths a network's first hidden layer may have (a file's size
/// tells which it has).
pub const WIDTHS: [usize; 3] = [64, 128, 256];
/// The widest first hidden layer.
pub const MAX_H1: usize = 256;
/// Units of the second hidden layer.
pub const H2: usize = 16;
/// Inputs that can be set at once: 18 stones and two counts in hand.
pub const MAX_ACTIVE: usize = 20;
/// A hidden unit's value 1 in fixed point.
pub const ONE: i32 = 127;
/// A weight of 1 in the second and the output layer.
pub const W_ONE: i32 = 64;
/// Hundredths of a stone per unit of the network's output (the
/// evaluation's logit scale).
pub const SCALE: i32 = 160;
/// The largest correction, in hundredths of a stone (eight units of the
/// logit).
pub const MAX_CORRECTION: i32 = 8 * SCALE;
/// The correction applies to positions with at most this many stones in
/// hand (both sides together): the end of placing and the moving phase,
/// the positions the labels cover (`brett tune --make-labels
/// --label-in-hand 6`). Earlier in placing a network has seen nothing to
/// learn from, and the evaluation stands alone.
pub const MAX_IN_HAND: u8 = 6;

/// The `i16` values of a network file whose first hidden layer has `h1`
/// units.
pub const fn values(h1: usize) -> usize {
    INPUTS * h1 + h1 + H2 * h1 + H2 + H2 + 1
}

/// The `i16` values of the built-in network's file.
pub const VALUES: usize = values(H1);

/// A network file of none of the sizes a network has.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error(
    "a Mühle network file holds {} bytes (a first layer of {} units), this one {found}",
    sizes_text(),
    widths_text()
)]
pub struct NetworkError {
    /// The size of the file given.
    pub found: usize,
}

fn sizes_text() -> String {
    let sizes: Vec<String> = WIDTHS
        .iter()
        .map(|&w| (2 * values(w)).to_string())
        .collect();
    or_list(&sizes)
}

fn widths_text() -> String {
    let widths: Vec<String> = WIDTHS.iter().map(|w| w.to_string()).collect();
    or_list(&widths)
}

fn or_list(items: &[String]) -> String {
    match items.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => items.join(""),
    }
}

/// The network's weights in fixed point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    /// Units of the first hidden layer (one of [`WIDTHS`]).
    h1: usize,
    /// The first layer, input by input: `h1` weights each.
    w1: Vec<i16>,
    b1: Vec<i16>,
    /// The second layer, unit by unit: `h1` weights each.
    w2: Vec<i16>,
    /// The second layer by pairs of first-layer units: `w2t[t][k]` holds
    /// the weights of units `2t` and `2t + 1` into unit `k` (the layout of
    /// the sums in [`Network::output`]).
    w2t: Vec<[[i16; 2]; H2]>,
    b2: [i32; H2],
    w3: [i32; H2],
    b3: i32,
}

/// The inputs of `pos` that are set, from the side to move, in `out`;
/// their number. `None` on a board with diagonal lines or with other than
/// nine stones a side (the network was fitted to Nine Men's Morris).
pub fn active(pos: &Position, out: &mut [u16; MAX_ACTIVE]) -> Option<usize> {
    if pos.board().has_diagonals() || pos.board().stones() != 9 {
        return None;
    }
    let us = pos.turn();
    Some(active_of(
        pos.stones(us),
        pos.stones(us.other()),
        pos.in_hand(us),
        pos.in_hand(us.other()),
        out,
    ))
}

/// The inputs that are set for the side to move's stones `ours`, the
/// opponent's `theirs`, and the stones each has in hand; their number.
pub fn active_of(
    ours: Bitboard,
    theirs: Bitboard,
    hand_ours: u8,
    hand_theirs: u8,
    out: &mut [u16; MAX_ACTIVE],
) -> usize {
    let mut n = 0;
    for (offset, set) in [(0u16, ours), (24, theirs)] {
        for sq in set {
            if n < MAX_ACTIVE - 2 {
                out[n] = offset + sq.index() as u16;
                n += 1;
            }
        }
    }
    out[n] = 48 + u16::from(hand_ours.min(9));
    out[n + 1] = 58 + u16::from(hand_theirs.min(9));
    n + 2
}

impl Network {
    /// Read a network file (see the module's description); its size tells
    /// the width of its first hidden layer.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        let Some(&h1) = WIDTHS.iter().find(|&&w| bytes.len() == 2 * values(w)) else {
            return Err(NetworkError { found: bytes.len() });
        };
        let v: Vec<i16> = bytes
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        Ok(Network::from_values(&v, h1))
    }

    /// The network of `v`, [`values`]`(h1)` numbers in the order of the
    /// file.
    fn from_values(v: &[i16], h1: usize) -> Network {
        debug_assert!(WIDTHS.contains(&h1) && v.len() == values(h1));
        let mut at = 0;
        let mut take = |n: usize| {
            let s = &v[at..at + n];
            at += n;
            s
        };
        let w1 = take(INPUTS * h1).to_vec();
        let b1 = take(h1).to_vec();
        let w2 = take(H2 * h1).to_vec();
        let b2 = std::array::from_fn(|_| i32::from(take(1)[0]));
        let w3 = std::array::from_fn(|_| i32::from(take(1)[0]));
        let b3 = i32::from(take(1)[0]);
        let w2t = (0..h1 / 2)
            .map(|t| std::array::from_fn(|k| [w2[k * h1 + 2 * t], w2[k * h1 + 2 * t + 1]]))
            .collect();
        Network {
            h1,
            w1,
            b1,
            w2,
            w2t,
            b2,
            w3,
            b3,
        }
    }

    /// Units of the first hidden layer.
    pub fn width(&self) -> usize {
        self.h1
    }

    /// The file of this network.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut v: Vec<i16> = Vec::with_capacity(values(self.h1));
        v.extend_from_slice(&self.w1);
        v.extend_from_slice(&self.b1);
        v.extend_from_slice(&self.w2);
        let narrow = |x: i32| x.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
        v.extend(self.b2.iter().map(|&x| narrow(x)));
        v.extend(self.w3.iter().map(|&x| narrow(x)));
        v.push(narrow(self.b3));
        v.iter().flat_map(|x| x.to_le_bytes()).collect()
    }

    /// The network whose weights are the floating-point `w1` (input by
    /// input), `b1`, `w2` (unit by unit), `b2`, `w3`, `b3`, rounded to the
    /// fixed point (and clipped to what `i16` holds). The first hidden
    /// layer has `b1.len()` units, one of [`WIDTHS`].
    pub fn quantize(
        w1: &[f32],
        b1: &[f32],
        w2: &[f32],
        b2: &[f32],
        w3: &[f32],
        b3: f32,
    ) -> Network {
        let h1 = b1.len();
        assert!(WIDTHS.contains(&h1), "a first layer of {h1} units");
        let q = |x: f32, scale: i32| {
            (x * scale as f32)
                .round()
                .clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16
        };
        let mut v: Vec<i16> = Vec::with_capacity(values(h1));
        v.extend(w1.iter().map(|&x| q(x, ONE)));
        v.extend(b1.iter().map(|&x| q(x, ONE)));
        v.extend(w2.iter().map(|&x| q(x, W_ONE)));
        v.extend(b2.iter().map(|&x| q(x, ONE * W_ONE)));
        v.extend(w3.iter().map(|&x| q(x, W_ONE)));
        v.push(q(b3, ONE * W_ONE));
        assert_eq!(v.len(), values(h1), "the float network's shape");
        Network::from_values(&v, h1)
    }

    /// The output for the inputs `set`, in units of [`ONE`] × [`W_ONE`].
    ///
    /// Where the processor has AVX2 (not the baseline the binary is built
    /// for) a copy compiled for it runs instead: the same integer
    /// arithmetic on twice as wide registers.
    #[inline]
    pub fn output(&self, set: &[u16]) -> i32 {
        match self.h1 {
            64 => self.output_of::<64>(set),
            128 => self.output_of::<128>(set),
            _ => self.output_of::<256>(set),
        }
    }

    /// [`Network::output`] for a first layer of `H` units.
    #[inline(always)]
    fn output_of<const H: usize>(&self, set: &[u16]) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has just been seen to have AVX2, the
            // only feature the copy is compiled for.
            return unsafe { self.output_avx2::<H>(set) };
        }
        self.output_body::<H>(set)
    }

    /// [`Network::output`] without the copy for wider registers.
    #[cfg(test)]
    fn output_plain(&self, set: &[u16]) -> i32 {
        match self.h1 {
            64 => self.output_body::<64>(set),
            128 => self.output_body::<128>(set),
            _ => self.output_body::<256>(set),
        }
    }

    /// [`Network::output_body`] in AVX2 instructions: the first layer in
    /// registers of 16 `i16`, the second a pair of first-layer units at a
    /// time, each pair's two values against the 16 units' two weights in
    /// one multiply-add of neighbouring `i16` (`vpmaddwd`).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn output_avx2<const H: usize>(&self, set: &[u16]) -> i32 {
        use std::arch::x86_64::{
            __m256i, _mm256_add_epi16, _mm256_add_epi32, _mm256_madd_epi16, _mm256_max_epi16,
            _mm256_min_epi16, _mm256_set1_epi16, _mm256_set1_epi32, _mm256_setzero_si256,
        };
        const LANES: usize = 16;
        // Each load and store reads or writes 32 bytes at `p`; every use
        // below points into a slice or an array with at least that much
        // from there.
        macro_rules! load {
            ($p:expr) => {
                // SAFETY: 32 readable bytes at the pointer (see above).
                unsafe { std::arch::x86_64::_mm256_loadu_si256($p.cast::<__m256i>()) }
            };
        }
        macro_rules! store {
            ($p:expr, $v:expr) => {
                // SAFETY: 32 writable bytes at the pointer (see above).
                unsafe { std::arch::x86_64::_mm256_storeu_si256($p.cast::<__m256i>(), $v) }
            };
        }
        let b1 = &self.b1[..H];
        let mut acc = [_mm256_setzero_si256(); MAX_H1 / LANES];
        for (q, a) in acc[..H / LANES].iter_mut().enumerate() {
            *a = load!(b1[q * LANES..].as_ptr());
        }
        for &i in set {
            let col = &self.w1[usize::from(i) * H..usize::from(i) * H + H];
            for (q, a) in acc[..H / LANES].iter_mut().enumerate() {
                *a = _mm256_add_epi16(*a, load!(col[q * LANES..].as_ptr()));
            }
        }
        let (zero, one) = (_mm256_setzero_si256(), _mm256_set1_epi16(ONE as i16));
        let mut h1 = [0i16; MAX_H1];
        for (q, a) in acc[..H / LANES].iter().enumerate() {
            let h = _mm256_min_epi16(_mm256_max_epi16(*a, zero), one);
            store!(h1[q * LANES..].as_mut_ptr(), h);
        }
        let mut lo = load!(self.b2.as_ptr());
        let mut hi = load!(self.b2[H2 / 2..].as_ptr());
        for (t, pair) in self.w2t[..H / 2].iter().enumerate() {
            // No test for units at 0: a branch on them is mispredicted
            // more often than the multiply-add costs.
            let (a, b) = (h1[2 * t], h1[2 * t + 1]);
            let packed = (i32::from(b as u16) << 16) | i32::from(a as u16);
            let h = _mm256_set1_epi32(packed);
            let w = pair.as_flattened();
            lo = _mm256_add_epi32(lo, _mm256_madd_epi16(h, load!(w.as_ptr())));
            hi = _mm256_add_epi32(hi, _mm256_madd_epi16(h, load!(w[LANES..].as_ptr())));
        }
        let mut sums = [0i32; H2];
        store!(sums.as_mut_ptr(), lo);
        store!(sums[H2 / 2..].as_mut_ptr(), hi);
        let mut out = self.b3;
        for (sum, w3) in sums.iter().zip(&self.w3) {
            out += w3 * (sum / W_ONE).clamp(0, ONE);
        }
        out
    }

    /// The arithmetic of [`Network::output`], for a first layer of `H`
    /// units.
    #[inline(always)]
    fn output_body<const H: usize>(&self, set: &[u16]) -> i32 {
        // Summed in i16: the fit keeps each first-layer weight within
        // ±8, so 20 of them and the bias stay within i16.
        let mut acc = [0i16; MAX_H1];
        acc[..H].copy_from_slice(&self.b1[..H]);
        for &i in set {
            let col = &self.w1[usize::from(i) * H..usize::from(i) * H + H];
            for j in 0..H {
                acc[j] = acc[j].wrapping_add(col[j]);
            }
        }
        let one = ONE as i16;
        let mut h1 = [0i16; MAX_H1];
        for j in 0..H {
            h1[j] = acc[j].clamp(0, one);
        }
        // The second layer's sums, a pair of first-layer units at a time.
        // Written as the sum of products of neighbouring `i16` pairs, which
        // the compiler turns into one multiply-add instruction a register.
        let mut sums = self.b2;
        for (t, pair) in self.w2t[..H / 2].iter().enumerate() {
            let h: [i16; 2 * H2] = std::array::from_fn(|i| h1[2 * t + i % 2]);
            let w = pair.as_flattened();
            for (k, sum) in sums.iter_mut().enumerate() {
                *sum += i32::from(h[2 * k]) * i32::from(w[2 * k])
                    + i32::from(h[2 * k + 1]) * i32::from(w[2 * k + 1]);
            }
        }
        let mut out = self.b3;
        for (sum, w3) in sums.iter().zip(&self.w3) {
            out += w3 * (sum / W_ONE).clamp(0, ONE);
        }
        out
    }

    /// The correction of the evaluation of `pos`, in hundredths of a stone
    /// for the side to move (0 on a board with diagonal lines, and with
    /// more than [`MAX_IN_HAND`] stones in hand): at most
    /// [`MAX_CORRECTION`] either way, so that no network can reach the
    /// scores of won and lost games.
    pub fn score(&self, pos: &Position) -> i32 {
        if pos.in_hand(crate::Color::White) + pos.in_hand(crate::Color::Black) > MAX_IN_HAND {
            return 0;
        }
        let mut set = [0u16; MAX_ACTIVE];
        match active(pos, &mut set) {
            Some(n) => {
                let out = i64::from(self.output(&set[..n]));
                let bound = i64::from(MAX_CORRECTION);
                (out * i64::from(SCALE) / i64::from(ONE * W_ONE)).clamp(-bound, bound) as i32
            }
            None => 0,
        }
    }
}

/// The network file built into brett.
const BUILT_IN: &[u8] = include_bytes!("../data/network.bin");
const _: () = assert!(
    BUILT_IN.len() == 2 * VALUES,
    "the built-in network file has the size of a network"
);

/// The network built into brett, read at its first use.
pub fn built_in() -> &'static Network {
    static NET: OnceLock<Network> = OnceLock::new();
    NET.get_or_init(|| {
        Network::from_bytes(BUILT_IN).expect("its size is checked when brett is compiled")
    })
}

/// A network installed in place of the built-in one, if any.
static INSTALLED: AtomicPtr<Network> = AtomicPtr::new(std::ptr::null_mut());
/// Whether the evaluation adds a network at all.
static ENABLED: AtomicBool = AtomicBool::new(true);

/// Make `net` the network [`crate::eval::evaluate`] adds in place of the
/// built-in one (`None`: the built-in one again). A network put out of use
/// stays in memory: a search running in another thread may still read it.
pub fn install(net: Option<Network>) {
    let ptr = net.map_or(std::ptr::null_mut(), |n| Box::into_raw(Box::new(n)));
    INSTALLED.store(ptr, Ordering::Release);
}

/// Whether the evaluation adds the network's correction (on unless turned
/// off: `brett --no-mill-network`).
pub fn set_enabled(on: bool) {
    ENABLED.store(on, Ordering::Release);
}

/// The network in use: the one installed, else the built-in one; `None`
/// when turned off.
pub fn in_use() -> Option<&'static Network> {
    if !ENABLED.load(Ordering::Acquire) {
        return None;
    }
    let ptr = INSTALLED.load(Ordering::Acquire);
    // SAFETY: the pointer is null or came from `Box::into_raw` in
    // `install`, and is never freed.
    match unsafe { ptr.as_ref() } {
        Some(net) => Some(net),
        None => Some(built_in()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RuleSet;

    /// The evaluation adds the built-in network unless told otherwise
    /// (`install`, `set_enabled`: tested through the CLI, in processes of
    /// their own, as they change what every search in the process sees),
    /// and it corrects the evaluation of the positions at the end of
    /// placing and in the moving phase, not those before.
    #[test]
    fn the_built_in_network_is_in_use() {
        let net = built_in();
        assert!(std::ptr::eq(in_use().expect("on"), net));
        assert_eq!(net.to_bytes(), BUILT_IN);
        let mut pos = Position::new(RuleSet::STANDARD);
        let mut corrected = 0;
        for i in 0..40 {
            let in_hand = pos.in_hand(crate::Color::White) + pos.in_hand(crate::Color::Black);
            if in_hand > MAX_IN_HAND {
                assert_eq!(net.score(&pos), 0, "{in_hand} in hand");
            } else if net.score(&pos) != 0 {
                corrected += 1;
            }
            assert!(net.score(&pos).abs() <= MAX_CORRECTION);
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.is_game_over() {
                break;
            }
            pos.play_unchecked(moves[i * 5 % moves.len()]);
        }
        assert!(corrected >= 20, "{corrected}");
    }

    /// The inputs are the side to move's stones, the opponent's (24
    /// further on) and the two counts in hand; the other boards have none,
    /// and a network corrects nothing there.
    #[test]
    fn the_inputs_are_the_stones_and_the_counts_in_hand() {
        let pos: Position = ".../.BW/.W./WWBWB./B.B/BW./.BW w 2 2 0 8".parse().unwrap();
        let mut set = [0u16; MAX_ACTIVE];
        let n = active(&pos, &mut set).expect("nine men's morris");
        let us = pos.turn();
        let mut expected: Vec<u16> = pos
            .stones(us)
            .into_iter()
            .map(|s| s.index() as u16)
            .collect();
        expected.extend(
            pos.stones(us.other())
                .into_iter()
                .map(|s| 24 + s.index() as u16),
        );
        expected.extend([48 + 2, 58 + 2]);
        assert_eq!(&set[..n], &expected[..]);

        let file: Vec<u8> = (0..2 * VALUES).map(|i| (i * 7 % 251) as u8).collect();
        let net = Network::from_bytes(&file).expect("the size of a network");
        assert_ne!(net.score(&pos), 0);
        for preset in ["twelve-mens-morris", "lasker-morris"] {
            let other = Position::new(RuleSet::preset(preset).expect("a preset"));
            assert_eq!(active(&other, &mut set), None, "{preset}");
            assert_eq!(net.score(&other), 0, "{preset}");
        }
        // The copy for the processor's wider registers gives the same
        // output as the plain one, for each width of the first layer.
        for width in WIDTHS {
            let bytes: Vec<u8> = (0..2 * values(width))
                .map(|i| (i * 7 % 251) as u8)
                .collect();
            let net = Network::from_bytes(&bytes).expect("the size of a network");
            assert_eq!(net.width(), width);
            assert_eq!(net.to_bytes(), bytes);
            let mut pos = Position::new(RuleSet::STANDARD);
            for i in 0..30 {
                let n = active(&pos, &mut set).expect("nine men's morris");
                assert_eq!(
                    net.output(&set[..n]),
                    net.output_plain(&set[..n]),
                    "{width}"
                );
                let moves = pos.legal_moves();
                if moves.is_empty() || pos.is_game_over() {
                    break;
                }
                pos.play_unchecked(moves[i * 7 % moves.len()]);
            }
        }
        let short = Network::from_bytes(&file[1..]);
        assert_eq!(
            short,
            Err(NetworkError {
                found: 2 * VALUES - 1
            })
        );
        assert_eq!(
            short.unwrap_err().to_string(),
            format!(
                "a Mühle network file holds 10946, 21826 or 43586 bytes (a first layer of 64, 128 or 256 units), this one {}",
                2 * VALUES - 1
            )
        );
    }
}
