//! Pattern evaluation: the men in small regions of the board, each region
//! read as a base-3 number that indexes a table of learned weights.
//!
//! The strongest draughts programs evaluate this way (Scan and its
//! successors, from their public descriptions): a formation of a few men —
//! a tail, a fork, a hook, a locked wing — is worth what the games say it
//! is worth, which no hand-made term counts as well. brett's regions are
//! the 4 × 4 blocks of the board at even files and ranks, overlapping by
//! two rows and two files: 9 on 8×8, 16 on 10×10, each with 8 playable
//! squares, so 3⁸ = 6,561 entries a region. Each square reads 0 (empty or
//! a king), 1 (a man of the side to move) or 2 (an opponent man), always
//! from the side to move's point of view: for Black the board is turned
//! half a turn, so one table serves both colours and the tempo of having
//! the move is learned with it.
//!
//! The tables have a middle-game and an endgame part, mixed by
//! [`crate::eval::phase`] like the other weights; they are fitted to game
//! results (`brett tune --game … --labels FILE --patterns OUT`).

use crate::{BoardSize, Color, Position, Square};
use boardgame::tables::decode_i16;

/// Playable squares in a region.
pub const REGION_SQUARES: usize = 8;

/// Entries of one region's table: 3⁸.
pub const PATTERNS: usize = 6561;

/// The most regions on a board (10×10).
pub const MAX_REGIONS: usize = 16;

/// The number of regions on a board.
pub const fn regions(size: BoardSize) -> usize {
    match size {
        BoardSize::Eight => 9,
        BoardSize::Ten => 16,
    }
}

/// For each colour to move and each region, the bit of each of the
/// region's squares in the padded bitboard (the board turned for Black).
struct Layout {
    bits: [[[u8; REGION_SQUARES]; MAX_REGIONS]; 2],
}

const fn layout(size: BoardSize) -> Layout {
    let side = size.side();
    let mut bits = [[[0u8; REGION_SQUARES]; MAX_REGIONS]; 2];
    let per_row = (side - 2) / 2;
    let mut region = 0;
    while region < regions(size) {
        let fx = (region as u8 % per_row) * 2;
        let ry = (region as u8 / per_row) * 2;
        let mut colour = 0;
        while colour < 2 {
            let mut k = 0;
            let mut dr = 0;
            while dr < 4 {
                let mut df = 0;
                while df < 4 {
                    let (mut file, mut rank) = (fx + df, ry + dr);
                    if colour == 1 {
                        file = side - 1 - file;
                        rank = side - 1 - rank;
                    }
                    if let Some(sq) = Square::from_coords(size, file, rank) {
                        bits[colour][region][k] = sq.bb().0.trailing_zeros() as u8;
                        k += 1;
                    }
                    df += 1;
                }
                dr += 1;
            }
            assert!(k == REGION_SQUARES);
            colour += 1;
        }
        region += 1;
    }
    Layout { bits }
}

const LAYOUT8: Layout = layout(BoardSize::Eight);
const LAYOUT10: Layout = layout(BoardSize::Ten);

/// Bytes of the padded bitboard that hold squares: bits 0–34 on 8×8,
/// 0–53 on 10×10.
const BYTES8: usize = 5;
const BYTES10: usize = 7;

/// For each colour to move, each byte of the bitboard and each value of
/// that byte, what its set bits add to every region's index (the digit
/// weight 3^(7 − k) of each of the region's squares k in that byte). A
/// region's index is then the sum over the bytes of the own men's entries
/// plus twice the opponent men's: a few table reads for all regions at
/// once instead of a digit at a time.
type Digits<const B: usize> = [[[[u16; MAX_REGIONS]; 256]; B]; 2];

const fn digits<const B: usize>(size: BoardSize, layout: &Layout) -> Digits<B> {
    let mut table = [[[[0u16; MAX_REGIONS]; 256]; B]; 2];
    let mut colour = 0;
    while colour < 2 {
        let mut region = 0;
        while region < regions(size) {
            let mut k = 0;
            while k < REGION_SQUARES {
                let b = layout.bits[colour][region][k] as usize;
                assert!(b / 8 < B);
                let weight = 3u16.pow((REGION_SQUARES - 1 - k) as u32);
                let mut v = 0;
                while v < 256 {
                    if (v >> (b % 8)) & 1 == 1 {
                        table[colour][b / 8][v][region] += weight;
                    }
                    v += 1;
                }
                k += 1;
            }
            region += 1;
        }
        colour += 1;
    }
    table
}

static DIGITS8: Digits<BYTES8> = digits(BoardSize::Eight, &LAYOUT8);
static DIGITS10: Digits<BYTES10> = digits(BoardSize::Ten, &LAYOUT10);

#[inline(always)]
fn indices_from<const B: usize>(
    table: &[[[u16; MAX_REGIONS]; 256]; B],
    own: u64,
    opp: u64,
) -> [u16; MAX_REGIONS] {
    let mut out = [0u16; MAX_REGIONS];
    for (j, bytes) in table.iter().enumerate() {
        let o = &bytes[((own >> (8 * j)) & 0xff) as usize];
        let p = &bytes[((opp >> (8 * j)) & 0xff) as usize];
        for r in 0..MAX_REGIONS {
            out[r] += o[r] + 2 * p[r];
        }
    }
    out
}

/// The table index of each region of `pos` (the first
/// [`regions`]`(pos.size())` entries), seen from the side to move.
pub fn indices(pos: &Position) -> [u16; MAX_REGIONS] {
    let me = pos.turn();
    let own = pos.men(me).0;
    let opp = pos.men(me.other()).0;
    let colour = usize::from(me == Color::Black);
    match pos.size() {
        BoardSize::Eight => indices_from(&DIGITS8[colour], own, opp),
        BoardSize::Ten => indices_from(&DIGITS10[colour], own, opp),
    }
}

/// The indices read a digit at a time from the layout: the definition
/// the tables of [`indices`] are checked against.
#[cfg(test)]
fn indices_by_digit(pos: &Position) -> [u16; MAX_REGIONS] {
    let me = pos.turn();
    let own = pos.men(me).0;
    let opp = pos.men(me.other()).0;
    let layout = match pos.size() {
        BoardSize::Eight => &LAYOUT8,
        BoardSize::Ten => &LAYOUT10,
    };
    let colour = usize::from(me == Color::Black);
    let mut out = [0u16; MAX_REGIONS];
    for (region, slot) in out.iter_mut().enumerate().take(regions(pos.size())) {
        let mut idx = 0u32;
        for &b in &layout.bits[colour][region] {
            idx = idx * 3 + ((own >> b) & 1) as u32 + 2 * ((opp >> b) & 1) as u32;
        }
        *slot = idx as u16;
    }
    out
}

/// A board's pattern weights: for each region and index, the middle-game
/// and the endgame value (hundredths of a man, for the side to move).
#[derive(PartialEq, Eq)]
pub struct PatternWeights {
    /// Middle-game values, `region * PATTERNS + index`.
    pub mid: &'static [i16],
    /// Endgame values, laid out as `mid`.
    pub end: &'static [i16],
}

impl std::fmt::Debug for PatternWeights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let used = self.mid.iter().filter(|&&x| x != 0).count();
        write!(f, "PatternWeights({} entries, {used} used)", self.mid.len())
    }
}

impl PatternWeights {
    /// The pattern part of the evaluation of `pos`, for the side to move,
    /// mixed by the phase (`phase` of `full`: all middle game).
    pub fn score(&self, pos: &Position, phase: i32, full: i32) -> i32 {
        let idx = indices(pos);
        let (mut mid, mut end) = (0i32, 0i32);
        for (region, &i) in idx.iter().enumerate().take(regions(pos.size())) {
            let at = region * PATTERNS + usize::from(i);
            mid += i32::from(self.mid[at]);
            end += i32::from(self.end[at]);
        }
        (mid * phase + end * (full - phase)) / full
    }
}

const N8: usize = 9 * PATTERNS;

static RAW8: [i16; 2 * N8] = decode_i16(include_bytes!("../data/patterns-8.bin"));

/// The pattern weights in use on 8×8 (`crates/dame/data/patterns-8.bin`,
/// fitted by `brett tune --game dame --labels FILE --patterns OUT`).
pub static PATTERNS_8: PatternWeights = PatternWeights {
    mid: RAW8.split_at(N8).0,
    end: RAW8.split_at(N8).1,
};

static RAW_FR: [i16; 2 * N8] = decode_i16(include_bytes!("../data/patterns-fr.bin"));

/// The pattern weights in use on 8×8 where men capture backward too
/// (`dame-fr`; `crates/dame/data/patterns-fr.bin`, fitted by `brett tune
/// --game dame-fr --labels FILE --patterns OUT`).
pub static PATTERNS_FR: PatternWeights = PatternWeights {
    mid: RAW_FR.split_at(N8).0,
    end: RAW_FR.split_at(N8).1,
};

const N10: usize = 16 * PATTERNS;

static RAW10: [i16; 2 * N10] = decode_i16(include_bytes!("../data/patterns-10.bin"));

/// The pattern weights in use on 10×10 (`crates/dame/data/patterns-10.bin`,
/// fitted by `brett tune --game international --labels FILE --patterns OUT`).
pub static PATTERNS_10: PatternWeights = PatternWeights {
    mid: RAW10.split_at(N10).0,
    end: RAW10.split_at(N10).1,
};

static RAW100: [i16; 2 * N10] = decode_i16(include_bytes!("../data/patterns-100.bin"));

/// The pattern weights in use on 10×10 where men capture forward only
/// (`dame-100`; `crates/dame/data/patterns-100.bin`, fitted by `brett tune
/// --game dame-100 --labels FILE --patterns OUT`).
pub static PATTERNS_100: PatternWeights = PatternWeights {
    mid: RAW100.split_at(N10).0,
    end: RAW100.split_at(N10).1,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RuleSet;

    #[test]
    fn every_playable_square_is_in_a_region_and_regions_mirror_for_black() {
        for (size, layout) in [(BoardSize::Eight, &LAYOUT8), (BoardSize::Ten, &LAYOUT10)] {
            let mut seen = 0u64;
            for region in 0..regions(size) {
                for &b in &layout.bits[0][region] {
                    seen |= 1 << b;
                }
            }
            assert_eq!(seen.count_ones(), size.squares() as u32, "{size:?}");
        }
    }

    #[test]
    fn the_start_reads_the_same_for_both_sides() {
        for rules in [RuleSet::DAME, RuleSet::INTERNATIONAL] {
            let start = Position::new(rules);
            // White to move at the start; the same men with Black to move
            // read the same, the board turned.
            let fen = start.fen();
            let black = Position::from_fen(&format!("B{}", &fen[1..]), rules).unwrap();
            assert_eq!(indices(&start), indices(&black), "{rules:?}");
        }
        // On 10×10 the mover's first four rows are full: 1 in each digit.
        let all_own = (0..REGION_SQUARES).fold(0u16, |a, _| a * 3 + 1);
        assert_eq!(indices(&Position::new(RuleSet::INTERNATIONAL))[0], all_own);
    }

    #[test]
    fn the_byte_tables_read_every_region_as_the_digits_do() {
        // Games of pseudo-random moves on both boards: every position,
        // with either side to move, reads the same both ways.
        for rules in [RuleSet::DAME, RuleSet::INTERNATIONAL] {
            let mut checked = 0;
            crate::random_games::for_each_position(rules, 0x9e37_79b9_7f4a_7c15, 40, 200, |pos| {
                assert_eq!(indices(pos), indices_by_digit(pos), "{}", pos.fen());
                checked += 1;
            });
            assert!(checked > 2_000, "{checked}");
        }
    }
}
