//! A static evaluation of Dame positions, for engines.
//!
//! The rules crate knows nothing of search; this module only measures a
//! position. Scores are in hundredths of a man (100 ≈ one man), positive
//! when good for the side to move.
//!
//! The evaluation is linear in [`FEATURES`] counts ([`features`], each the
//! side to move's count minus the opponent's), tapered between a
//! middle-game and an endgame weight by the number of pieces on the board
//! ([`phase`]), and then scaled towards a draw in endings the stronger side
//! cannot win ([`draw_scale`]). The counts are what draughts players and
//! programs look at: material, tempo (development), the centre, the balance
//! of the wings, formations (men backed by two men, advanced men without
//! support, isolated and locked men), the back rank guard, mobility, men
//! that nothing can stop from being crowned, kings on the main diagonal,
//! pieces the opponent can take, and the tempo of the endgame. The weights
//! are fitted to the results of self-play games (`brett tune --game …
//! --make-labels` / `--labels`, docs/ENGINE.md "Dame evaluation"), one set
//! for each board.

use crate::movegen::{self, G8, G10, Geo};
use crate::pattern::PatternWeights;
use crate::{BoardSize, Color, Position, RuleSet, Square};

/// Number of evaluation features.
pub const FEATURES: usize = 17;

/// The features' names, in the order of [`features`].
pub const NAMES: [&str; FEATURES] = [
    "man",
    "king",
    "tempo",
    "centre",
    "back_rank",
    "mobility",
    "king_mobility",
    "runaway",
    "runaway_closeness",
    "imbalance",
    "backed",
    "advanced_alone",
    "isolated",
    "locked",
    "main_diagonal",
    "attacked",
    "attacked_twice",
];

/// Index of each feature in [`features`] and in the weight arrays.
pub mod f {
    /// Men.
    pub const MAN: usize = 0;
    /// Kings.
    pub const KING: usize = 1;
    /// Sum over the men of the rows each has advanced from its back row.
    pub const TEMPO: usize = 2;
    /// Pieces on the centre squares (the two middle rows, files c–f or c–h).
    pub const CENTRE: usize = 3;
    /// Men on their own back row while the opponent still has men (they
    /// keep the opponent's men from being crowned).
    pub const BACK_RANK: usize = 4;
    /// Moves of men without capture (as if this side were to move).
    pub const MOBILITY: usize = 5;
    /// Moves of kings without capture.
    pub const KING_MOBILITY: usize = 6;
    /// Men whose whole forward cone up to the promotion row is empty:
    /// nothing can stand in their way.
    pub const RUNAWAY: usize = 7;
    /// Sum over those men of the rows they have already advanced.
    pub const RUNAWAY_CLOSENESS: usize = 8;
    /// |men on the left half − men on the right half|: a lopsided side is
    /// cramped on one wing and weak on the other.
    pub const IMBALANCE: usize = 9;
    /// Men with both squares diagonally behind them held (by own pieces or
    /// the edge): the "tail" and "fork" formations.
    pub const BACKED: usize = 10;
    /// Men in the opponent's half with neither square behind them held:
    /// outposts without support, easily exchanged off or won.
    pub const ADVANCED_ALONE: usize = 11;
    /// Men with no own piece on any of the four diagonal neighbours.
    pub const ISOLATED: usize = 12;
    /// Men with no free square ahead (hooked or locked in).
    pub const LOCKED: usize = 13;
    /// Kings on the main diagonal (a1–h8, 46–5), which a lone king holds
    /// to draw.
    pub const MAIN_DIAGONAL: usize = 14;
    /// Own pieces an opponent piece could jump right now if it were the
    /// opponent's move (threats the side must answer).
    pub const ATTACKED: usize = 15;
    /// One less than [`ATTACKED`], never below 0: a double threat is worse
    /// than twice a single one.
    pub const ATTACKED_TWICE: usize = 16;
}

/// The weights of the evaluation, hundredths of a man per unit of each
/// feature, in the middle game (all pieces on the board) and the endgame
/// (none); between the two they are mixed by [`phase`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Middle-game weights, by feature.
    pub mid: [i32; FEATURES],
    /// Endgame weights, by feature.
    pub end: [i32; FEATURES],
    /// The pattern weights added to the linear part, if any
    /// ([`crate::pattern`]).
    pub patterns: Option<&'static PatternWeights>,
}

/// Names of all weights: `mid.` and `end.` before each feature's name (the
/// order of [`Weights::to_vec`]).
pub const WEIGHT_NAMES: [&str; 2 * FEATURES] = [
    "mid.man",
    "mid.king",
    "mid.tempo",
    "mid.centre",
    "mid.back_rank",
    "mid.mobility",
    "mid.king_mobility",
    "mid.runaway",
    "mid.runaway_closeness",
    "mid.imbalance",
    "mid.backed",
    "mid.advanced_alone",
    "mid.isolated",
    "mid.locked",
    "mid.main_diagonal",
    "mid.attacked",
    "mid.attacked_twice",
    "end.man",
    "end.king",
    "end.tempo",
    "end.centre",
    "end.back_rank",
    "end.mobility",
    "end.king_mobility",
    "end.runaway",
    "end.runaway_closeness",
    "end.imbalance",
    "end.backed",
    "end.advanced_alone",
    "end.isolated",
    "end.locked",
    "end.main_diagonal",
    "end.attacked",
    "end.attacked_twice",
];

impl Weights {
    /// The hand-set weights, from draughts practice: the start of the fit.
    pub const DEFAULT: Weights = Weights {
        //     man king tempo centre back mob kmob run runc imb backed alone iso lock diag att att2
        mid: [
            100, 300, 2, 6, 8, 2, 1, 60, 10, -3, 3, -6, -4, -2, 5, -10, -30,
        ],
        end: [
            100, 300, 4, 2, 2, 2, 2, 100, 15, -1, 1, -3, -2, -2, 10, -10, -30,
        ],
        patterns: None,
    };

    /// The weights in use for `size` under its reference rules (8×8:
    /// `dame`; 10×10: `international`), fitted to self-play results
    /// (docs/ENGINE.md, "Dame evaluation"). [`Weights::for_rules`] picks by
    /// the whole rule set, and is what the engine evaluates with.
    pub const fn tuned(size: BoardSize) -> &'static Weights {
        match size {
            BoardSize::Eight => &Weights::TUNED_8,
            BoardSize::Ten => &Weights::TUNED_10,
        }
    }

    /// The weights in use for `rules`: the board's ([`Weights::tuned`]),
    /// except where men capture in the other directions than in the game
    /// the board's weights were fitted to: on 10×10 forward only
    /// (`dame-100`, [`Weights::TUNED_100`]) and on 8×8 backward too
    /// (`dame-fr`, [`Weights::TUNED_FR`]). There men stand and are attacked
    /// differently, and the weights are fitted to games under those rules.
    pub const fn for_rules(rules: &RuleSet) -> &'static Weights {
        match (rules.board, rules.men_capture_backward) {
            (BoardSize::Ten, false) => &Weights::TUNED_100,
            (BoardSize::Eight, true) => &Weights::TUNED_FR,
            (size, _) => Weights::tuned(size),
        }
    }

    /// Fitted on 8×8 (`dame`).
    pub const TUNED_8: Weights = Weights {
        mid: [
            100, 117, -3, -8, 5, 25, 20, -60, 18, -3, 21, -9, -6, 7, -56, -9, 1,
        ],
        end: [
            87, 340, 10, -7, 44, 18, -1, -46, 16, -3, -7, 24, -15, -8, 17, -25, -14,
        ],
        patterns: Some(&crate::pattern::PATTERNS_8),
    };

    /// Fitted on 8×8 with men capturing backward too (`dame-fr`).
    pub const TUNED_FR: Weights = Weights {
        mid: [
            100, 114, -2, -19, -2, 17, 18, -64, 27, -3, 15, -35, -2, 10, -63, -18, -6,
        ],
        end: [
            121, 343, 8, 1, 26, 18, -1, -60, 17, -7, -14, 26, -13, 0, 21, -24, -20,
        ],
        patterns: Some(&crate::pattern::PATTERNS_FR),
    };

    /// Fitted on 10×10 (`international`).
    pub const TUNED_10: Weights = Weights {
        mid: [
            100, 262, -2, -17, -12, 10, 49, -37, 36, 6, 2, -23, 0, 1, 4, -8, -10,
        ],
        end: [
            43, 80, 5, -5, 28, 7, -6, -39, 3, -17, -3, 15, -5, 6, -5, -34, 11,
        ],
        patterns: Some(&crate::pattern::PATTERNS_10),
    };

    /// Fitted on 10×10 with men capturing forward only (`dame-100`).
    pub const TUNED_100: Weights = Weights {
        mid: [
            100, 108, -9, 3, -4, -2, -3, -43, 18, -5, -4, -12, 1, -2, -10, -4, 1,
        ],
        end: [
            49, 292, 9, -5, 37, 14, 4, -53, 14, 0, 5, 28, -10, 4, 1, -21, 4,
        ],
        patterns: Some(&crate::pattern::PATTERNS_100),
    };

    /// All weights, middle game first (the order of [`WEIGHT_NAMES`]).
    pub fn to_vec(&self) -> Vec<i32> {
        self.mid.iter().chain(self.end.iter()).copied().collect()
    }

    /// Weight `i` in the order of [`WEIGHT_NAMES`], to read or change.
    pub fn slot(&mut self, i: usize) -> &mut i32 {
        if i < FEATURES {
            &mut self.mid[i]
        } else {
            &mut self.end[i - FEATURES]
        }
    }
}

/// The pieces a full board starts with (both sides): the full weight of the
/// middle game.
pub const fn full_phase(size: BoardSize) -> i32 {
    2 * size.men_per_side() as i32
}

/// The phase of `pos`: the pieces on the board, at most [`full_phase`].
#[inline(always)]
pub fn phase(pos: &Position) -> i32 {
    (pos.occupied().count() as i32).min(full_phase(pos.size()))
}

/// Squares at `rank` (0 = White's back row).
const fn rank_mask(size: BoardSize, rank: u8) -> u64 {
    size.row(size.side() - 1 - rank).0
}

/// Squares on the files left of the middle (`left`) or right of it.
const fn half_mask(size: BoardSize, left: bool) -> u64 {
    let side = size.side();
    let mut bb = 0u64;
    let mut rank = 0;
    while rank < side {
        let mut file = 0;
        while file < side {
            if (file < side / 2) == left
                && let Some(sq) = Square::from_coords(size, file, rank)
            {
                bb |= sq.bb().0;
            }
            file += 1;
        }
        rank += 1;
    }
    bb
}

/// The centre squares: files c–f (8×8) or c–h (10×10) on the two middle
/// rows.
const fn centre_mask(size: BoardSize) -> u64 {
    let side = size.side();
    let mut bb = 0u64;
    let mut rank = side / 2 - 1;
    while rank <= side / 2 {
        let mut file = 2;
        while file < side - 2 {
            if let Some(sq) = Square::from_coords(size, file, rank) {
                bb |= sq.bb().0;
            }
            file += 1;
        }
        rank += 1;
    }
    bb
}

/// The main diagonal (the long one, a1 to the far corner).
const fn diagonal_mask(size: BoardSize) -> u64 {
    let mut bb = 0u64;
    let mut i = 0;
    while i < size.side() {
        if let Some(sq) = Square::from_coords(size, i, i) {
            bb |= sq.bb().0;
        }
        i += 1;
    }
    bb
}

/// The masks of one board.
struct Masks {
    ranks: [u64; 10],
    left: u64,
    right: u64,
    centre: u64,
    diagonal: u64,
}

const fn masks(size: BoardSize) -> Masks {
    let mut ranks = [0u64; 10];
    let mut r = 0;
    while r < size.side() {
        ranks[r as usize] = rank_mask(size, r);
        r += 1;
    }
    Masks {
        ranks,
        left: half_mask(size, true),
        right: half_mask(size, false),
        centre: centre_mask(size),
        diagonal: diagonal_mask(size),
    }
}

const MASKS8: Masks = masks(BoardSize::Eight);
const MASKS10: Masks = masks(BoardSize::Ten);

/// The squares whose neighbour in direction `dir` is in `set`.
#[inline(always)]
fn from_dir<G: Geo>(set: u64, dir: usize) -> u64 {
    movegen::shift::<G>(set, movegen::opposite(dir)) & G::MASK
}

/// The squares whose forward cone (every square a man moving in the
/// directions `fwd` could reach on its way to the promotion row, the
/// square itself not included) is empty. Found a row at a time from the
/// promotion row, where the cone is empty: a square's cone is free when
/// each forward neighbour on the board is empty and has a free cone.
#[inline(always)]
fn free_cones<G: Geo>(empty: u64, fwd: [usize; 2]) -> u64 {
    let mut free = G::MASK;
    for _ in 1..G::SIZE.side() {
        let blocked = G::MASK & !(empty & free);
        let next = G::MASK & !(from_dir::<G>(blocked, fwd[0]) | from_dir::<G>(blocked, fwd[1]));
        if next == free {
            break;
        }
        free = next;
    }
    free
}

/// The squares of side `c`'s pieces (`own`, of which `kings` are kings)
/// that the other side (`opp`, with kings `opp_kings`) could jump now
/// (`flying`: kings capture from a distance, [`crate::KingCapture::Long`]).
#[inline(always)]
fn attacked<G: Geo>(
    own: u64,
    opp_men: u64,
    opp_kings: u64,
    opp_colour: Color,
    backward: bool,
    flying: bool,
    empty: u64,
) -> u64 {
    let mut victims = 0u64;
    let fwd = movegen::forward(opp_colour);
    for dir in 0..4 {
        let man_dir = fwd.contains(&dir) || backward;
        // Victims: own pieces next to an opponent man in `dir` with an
        // empty square beyond.
        let beyond = from_dir::<G>(empty, dir);
        if man_dir {
            victims |= movegen::shift::<G>(opp_men, dir) & own & beyond;
        }
        if opp_kings != 0 {
            // A flying king slides over empty squares, then jumps.
            let mut fill = opp_kings;
            let mut x = if flying {
                movegen::shift::<G>(opp_kings, dir) & empty
            } else {
                0
            };
            while x != 0 {
                fill |= x;
                x = movegen::shift::<G>(x, dir) & empty;
            }
            victims |= movegen::shift::<G>(fill, dir) & own & beyond;
        }
    }
    victims
}

#[inline(always)]
fn side_features<G: Geo>(pos: &Position, c: Color, masks: &Masks, out: &mut [i32; FEATURES]) {
    let size = G::SIZE;
    let side = i32::from(size.side());
    let own = pos.pieces(c).0;
    let opp = pos.pieces(c.other()).0;
    let kings = pos.kings(c).0;
    let men = own & !kings;
    let opp_kings = pos.kings(c.other()).0;
    let opp_men = opp & !opp_kings;
    let empty = G::MASK & !(own | opp);
    let fwd = movegen::forward(c);
    let back = [movegen::opposite(fwd[0]), movegen::opposite(fwd[1])];

    out[f::MAN] = men.count_ones() as i32;
    out[f::KING] = kings.count_ones() as i32;
    let mut tempo = 0;
    for (r, &mask) in masks.ranks.iter().enumerate().take(size.side() as usize) {
        let advanced = match c {
            Color::White => r as i32,
            Color::Black => side - 1 - r as i32,
        };
        tempo += advanced * (men & mask).count_ones() as i32;
    }
    out[f::TEMPO] = tempo;
    out[f::CENTRE] = (own & masks.centre).count_ones() as i32;
    if opp_men != 0 {
        out[f::BACK_RANK] = (men & size.back_row(c).0).count_ones() as i32;
    }
    out[f::MOBILITY] = ((movegen::shift::<G>(men, fwd[0]) & empty).count_ones()
        + (movegen::shift::<G>(men, fwd[1]) & empty).count_ones()) as i32;
    if kings != 0 {
        let mut n = 0;
        for dir in 0..4 {
            let mut x = movegen::shift::<G>(kings, dir) & empty;
            while x != 0 {
                n += x.count_ones() as i32;
                x = movegen::shift::<G>(x, dir) & empty;
            }
        }
        out[f::KING_MOBILITY] = n;
    }
    // Runaways: the forward cone up to the promotion row is empty.
    let free = free_cones::<G>(empty, fwd);
    let mut rest = men & free;
    while rest != 0 {
        let bit = rest.trailing_zeros() as u8;
        rest &= rest - 1;
        let rank = i32::from(Square::from_bit_unchecked(size, bit).rank());
        out[f::RUNAWAY] += 1;
        out[f::RUNAWAY_CLOSENESS] += match c {
            Color::White => rank,
            Color::Black => side - 1 - rank,
        };
    }
    out[f::IMBALANCE] =
        ((men & masks.left).count_ones() as i32 - (men & masks.right).count_ones() as i32).abs();
    // A rear square is held when it is an own piece or off the board.
    let held = |dir: usize| from_dir::<G>(own, dir) | (G::MASK & !from_dir::<G>(G::MASK, dir));
    let held0 = held(back[0]);
    let held1 = held(back[1]);
    out[f::BACKED] = (men & held0 & held1).count_ones() as i32;
    let opp_half: u64 = match c {
        Color::White => masks.ranks[size.side() as usize / 2..size.side() as usize]
            .iter()
            .fold(0, |a, &m| a | m),
        Color::Black => masks.ranks[..size.side() as usize / 2]
            .iter()
            .fold(0, |a, &m| a | m),
    };
    out[f::ADVANCED_ALONE] = (men & opp_half & !held0 & !held1).count_ones() as i32;
    let neighbours = (0..4).fold(0u64, |a, d| a | from_dir::<G>(own, d));
    out[f::ISOLATED] = (men & !neighbours).count_ones() as i32;
    let free_ahead = from_dir::<G>(empty, fwd[0]) | from_dir::<G>(empty, fwd[1]);
    out[f::LOCKED] = (men & !free_ahead).count_ones() as i32;
    out[f::MAIN_DIAGONAL] = (kings & masks.diagonal).count_ones() as i32;
    let hit = attacked::<G>(
        own,
        opp_men,
        opp_kings,
        c.other(),
        pos.rules().men_capture_backward,
        pos.rules().king_capture == crate::KingCapture::Long,
        empty,
    )
    .count_ones() as i32;
    out[f::ATTACKED] = hit;
    out[f::ATTACKED_TWICE] = (hit - 1).max(0);
}

/// The counts of side `c` alone (in the order of [`NAMES`]); [`features`]
/// is the side to move's minus the opponent's.
pub fn side_counts(pos: &Position, c: Color) -> [i32; FEATURES] {
    let mut out = [0; FEATURES];
    match pos.size() {
        BoardSize::Eight => side_features::<G8>(pos, c, &MASKS8, &mut out),
        BoardSize::Ten => side_features::<G10>(pos, c, &MASKS10, &mut out),
    }
    out
}

/// The centre squares of a board (see [`f::CENTRE`]).
pub fn centre(size: BoardSize) -> crate::Bitboard {
    crate::Bitboard(match size {
        BoardSize::Eight => MASKS8.centre,
        BoardSize::Ten => MASKS10.centre,
    })
}

#[inline(always)]
fn features_on<G: Geo>(pos: &Position, masks: &Masks) -> [i32; FEATURES] {
    let us = pos.turn();
    let mut a = [0; FEATURES];
    let mut b = [0; FEATURES];
    side_features::<G>(pos, us, masks, &mut a);
    side_features::<G>(pos, us.other(), masks, &mut b);
    let mut out = [0; FEATURES];
    for i in 0..FEATURES {
        out[i] = a[i] - b[i];
    }
    out
}

/// The features of `pos`: each the side to move's count minus the
/// opponent's (see [`f`] for their meaning).
#[inline(always)]
pub fn features(pos: &Position) -> [i32; FEATURES] {
    match pos.size() {
        BoardSize::Eight => features_on::<G8>(pos, &MASKS8),
        BoardSize::Ten => features_on::<G10>(pos, &MASKS10),
    }
}

/// The share of a score an ending keeps, in 16ths: 16 normally, less
/// where the side the score favours (`stm_ahead`: the side to move) cannot
/// win, or hardly. Draughts endings against a lone king: one or two pieces
/// cannot win against it on either board, nor three kings against a king on
/// the main diagonal of 10×10; and against a king and a piece, a king and
/// at most one piece more mostly draw.
#[inline(always)]
pub fn draw_scale(pos: &Position, stm_ahead: bool) -> i32 {
    let strong = if stm_ahead {
        pos.turn()
    } else {
        pos.turn().other()
    };
    let weak = strong.other();
    let weak_kings = pos.kings(weak).count();
    if weak_kings == 0 {
        return 16;
    }
    let weak_all = pos.pieces(weak).count();
    let strong_men = pos.men(strong).count();
    let strong_kings = pos.kings(strong).count();
    let strong_all = strong_men + strong_kings;
    if weak_all == 1 {
        let on_diagonal = (pos.kings(weak).0 & diagonal_of(pos.size())) != 0;
        if strong_all <= 2 {
            1
        } else if strong_men == 0
            && strong_kings == 3
            && on_diagonal
            && pos.size() == BoardSize::Ten
        {
            2
        } else {
            16
        }
    } else if strong_kings > 0 && strong_all <= weak_all + 1 && strong_all <= 4 {
        4
    } else {
        16
    }
}

fn diagonal_of(size: BoardSize) -> u64 {
    match size {
        BoardSize::Eight => MASKS8.diagonal,
        BoardSize::Ten => MASKS10.diagonal,
    }
}

/// The linear score of `features` at `phase` (before [`draw_scale`]).
#[inline(always)]
pub fn linear(features: &[i32; FEATURES], phase: i32, full: i32, w: &Weights) -> i32 {
    let (mut mid, mut end) = (0, 0);
    for ((x, m), e) in features.iter().zip(&w.mid).zip(&w.end) {
        mid += x * m;
        end += x * e;
    }
    (mid * phase + end * (full - phase)) / full
}

/// Evaluate `pos` for the side to move with the given weights.
///
/// The evaluation counts bits all the time; where the processor has the
/// POPCNT instruction (nearly every x86_64 one, but not the baseline the
/// binary is built for) a copy compiled to use it runs instead.
#[inline]
pub fn evaluate_with(pos: &Position, w: &Weights) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the processor has just been seen to have POPCNT, the only
        // feature the copy is compiled for.
        return unsafe { evaluate_popcnt(pos, w) };
    }
    evaluate_body(pos, w)
}

/// [`evaluate_body`] compiled with POPCNT.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn evaluate_popcnt(pos: &Position, w: &Weights) -> i32 {
    evaluate_body(pos, w)
}

#[inline(always)]
fn evaluate_body(pos: &Position, w: &Weights) -> i32 {
    let feats = features(pos);
    let (phase, full) = (phase(pos), full_phase(pos.size()));
    let mut score = linear(&feats, phase, full, w);
    if let Some(p) = w.patterns {
        score += p.score(pos, phase, full);
    }
    let scale = draw_scale(pos, score > 0);
    if scale == 16 {
        score
    } else {
        score * scale / 16
    }
}

/// Evaluate `pos` for the side to move with the weights in use for its
/// rules ([`Weights::for_rules`]).
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, Weights::for_rules(pos.rules()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str, rules: RuleSet) -> Position {
        Position::from_fen(fen, rules).expect(fen)
    }

    /// The copy compiled for POPCNT (taken on this processor when it has
    /// the instruction) scores every position of random games exactly as
    /// the plain one does, on both boards.
    #[test]
    fn the_popcnt_copy_of_the_evaluation_agrees_with_the_plain_one() {
        let mut checked = 0;
        for rules in [RuleSet::DAME, RuleSet::DAME_100, RuleSet::DAME_FR] {
            let w = Weights::for_rules(&rules);
            crate::random_games::for_each_position(rules, 0x2545_F491_4F6C_DD1D, 40, 120, |p| {
                assert_eq!(evaluate_with(p, w), evaluate_body(p, w), "{}", p.fen());
                checked += 1;
            });
        }
        assert!(checked > 5_000, "{checked}");
    }

    /// Runaways counted a man at a time, by walking each man's forward
    /// cone row by row: the definition `free_cones` is checked against.
    fn runaways_by_walking(pos: &Position, c: Color) -> (i32, i32) {
        fn walk<G: Geo>(pos: &Position, c: Color) -> (i32, i32) {
            let side = i32::from(G::SIZE.side());
            let empty = G::MASK & !(pos.pieces(c).0 | pos.pieces(c.other()).0);
            let fwd = movegen::forward(c);
            let (mut n, mut closeness) = (0, 0);
            for sq in pos.men(c).squares(G::SIZE) {
                let advanced = match c {
                    Color::White => i32::from(sq.rank()),
                    Color::Black => side - 1 - i32::from(sq.rank()),
                };
                let mut x = sq.bb().0;
                let mut free = true;
                for _ in 0..side - 1 - advanced {
                    x = (movegen::shift::<G>(x, fwd[0]) | movegen::shift::<G>(x, fwd[1])) & G::MASK;
                    free &= x & !empty == 0;
                }
                if free {
                    n += 1;
                    closeness += advanced;
                }
            }
            (n, closeness)
        }
        match pos.size() {
            BoardSize::Eight => walk::<G8>(pos, c),
            BoardSize::Ten => walk::<G10>(pos, c),
        }
    }

    #[test]
    fn runaways_found_by_rows_are_the_men_with_an_empty_forward_cone() {
        let mut runaways = 0;
        for rules in [RuleSet::DAME, RuleSet::INTERNATIONAL] {
            crate::random_games::for_each_position(rules, 0x2545_f491_4f6c_dd1d, 60, 200, |p| {
                for c in [Color::White, Color::Black] {
                    let counts = side_counts(p, c);
                    let walked = runaways_by_walking(p, c);
                    assert_eq!(
                        (counts[f::RUNAWAY], counts[f::RUNAWAY_CLOSENESS]),
                        walked,
                        "{} {c:?}",
                        p.fen()
                    );
                    runaways += walked.0;
                }
            });
        }
        // The games reach positions with runaways, so the check bites.
        assert!(runaways > 100, "{runaways}");
    }

    #[test]
    fn the_start_is_level() {
        for rules in [RuleSet::DAME, RuleSet::INTERNATIONAL] {
            let p = Position::new(rules);
            assert_eq!(features(&p), [0; FEATURES]);
            let w = Weights::tuned(rules.board);
            assert_eq!(linear(&features(&p), phase(&p), full_phase(p.size()), w), 0);
            // The pattern weights read the board from the side to move: the
            // start is worth the same for either side to move, and less
            // than half a man. (Not nothing: the tables learn what having
            // the move is worth. The 8×8 table values it at −0.3 men at
            // the start; in the 60,000 self-play games of its second label
            // run the second player won 26,455 and the first 23,181.)
            let black = Position::from_fen(&format!("B{}", &p.fen()[1..]), rules).unwrap();
            assert_eq!(evaluate(&p), evaluate(&black));
            assert!(evaluate(&p).abs() < 50, "{}", evaluate(&p));
        }
    }

    #[test]
    fn features_are_antisymmetric() {
        // The same position with the other side to move: every feature
        // changes sign (each side's counts do not depend on the turn).
        let w = pos(
            "W:W21,22,28,31,32,35,36,38:B5,7,10,12,17,19,24",
            RuleSet::INTERNATIONAL,
        );
        let b = pos(
            "B:W21,22,28,31,32,35,36,38:B5,7,10,12,17,19,24",
            RuleSet::INTERNATIONAL,
        );
        let fw = features(&w);
        let fb = features(&b);
        for i in 0..FEATURES {
            assert_eq!(fw[i], -fb[i], "{}", NAMES[i]);
        }
    }

    #[test]
    fn attacks_count_pieces_that_can_be_jumped() {
        // 8×8 `dame`: a white man on d4 (square 22? by name) with a black
        // man on e5 diagonally ahead and f6 empty: White to move could take
        // it; Black to move sees its e5 man attacked.
        let p = pos("B:Wd4:Be5", RuleSet::DAME);
        let feats = features(&p);
        // Black to move: Black's man on e5 is attacked (d4 jumps to f6),
        // White's d4 is attacked too (e5 jumps to c3).
        assert_eq!(feats[f::ATTACKED], 0);
        let p = pos("B:Wd4,c3:Be5", RuleSet::DAME);
        // Now c3 covers: Black cannot jump d4, White still attacks e5.
        assert_eq!(features(&p)[f::ATTACKED], 1);
    }

    #[test]
    fn a_runaway_man_is_seen() {
        let p = pos("W:Wc5:BKh2", RuleSet::DAME);
        let feats = features(&p);
        assert_eq!(feats[f::RUNAWAY], 1);
        assert_eq!(feats[f::RUNAWAY_CLOSENESS], 4);
    }

    #[test]
    fn lone_king_endings_are_scaled_to_a_draw() {
        let two_vs_one = pos("W:WK1,K2:BK50", RuleSet::INTERNATIONAL);
        assert_eq!(draw_scale(&two_vs_one, true), 1);
        let three_on_diagonal = pos("W:WK1,K2,K3:BK46", RuleSet::INTERNATIONAL);
        assert_eq!(draw_scale(&three_on_diagonal, true), 2);
        let three_off = pos("W:WK1,K2,K3:BK6", RuleSet::INTERNATIONAL);
        assert_eq!(draw_scale(&three_off, true), 16);
        let men = pos("W:W31,32,33:B20", RuleSet::INTERNATIONAL);
        assert_eq!(draw_scale(&men, true), 16);
        // The king against a man is the side ahead: nothing to scale.
        let king_vs_man = pos("W:WK1:B20", RuleSet::INTERNATIONAL);
        assert_eq!(draw_scale(&king_vs_man, true), 16);
        assert!(evaluate(&king_vs_man) > 0);
    }
}
