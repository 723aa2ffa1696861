//! Indexing the positions of a sector with the 16 board symmetries reduced.
//!
//! A position of sector `a-b` is a pair of point sets: the side to move's
//! `a` stones `w` and the opponent's `b` stones `o`. Its index is
//!
//! ```text
//! index = rep_index(w) · C(24 − a, b) + colex_rank(compress(s(o), ¬rep))
//! ```
//!
//! where `rep` is the smallest image of `w` under the 16 symmetries (as a
//! 24-bit number), `rep_index` its number among those representatives, and
//! `s` the symmetry taking `w` to `rep`. When several symmetries take `w` to
//! `rep` (a symmetric `w`), the one giving the smallest rank for the
//! opponent's stones is used, so every symmetry class has exactly one index.
//! Indices of the other members of such a class are never used (the builder
//! marks them as "no position").
//!
//! `compress` squeezes the opponent's stones into the `24 − a` points not
//! taken by `rep`; the colex rank of a `k`-subset `{p1 < … < pk}` is
//! `Σ C(pi, i)` — the order of the subsets as 24-bit numbers.

use std::sync::LazyLock;

use muehle::{Bitboard, Symmetry};

/// All 24 points.
pub const FULL: u32 = 0x00FF_FFFF;

/// `C(n, k)` for `n, k ≤ 24`.
pub const BINOM: [[u64; 25]; 25] = {
    let mut t = [[0u64; 25]; 25];
    let mut n = 0;
    while n < 25 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
};

/// `C(n, k)`, 0 when `k > n`.
#[inline]
pub const fn binom(n: u32, k: u32) -> u64 {
    if k > n || n > 24 {
        0
    } else {
        BINOM[n as usize][k as usize]
    }
}

/// Points in each byte (the default x86-64 target has no popcount
/// instruction, and this is on the builder's hottest path).
const POP8: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = (i as u32).count_ones() as u8;
        i += 1;
    }
    t
};

struct Tables {
    /// `rank[j][byte][before]`: the colex contribution of byte `j` of a set
    /// whose lower bytes hold `before` points.
    rank: Box<[[[u32; 25]; 256]; 3]>,
    /// `pext[mask][value]`: the bits of `value` under `mask`, packed.
    pext: Box<[[u8; 256]; 256]>,
    /// `pdep[mask][value]`: the low bits of `value` spread onto `mask`.
    pdep: Box<[[u8; 256]; 256]>,
    /// `sym[s][j][byte]`: the image of byte `j` under symmetry `s`.
    sym: Box<[[[u32; 256]; 3]; 16]>,
}

static TABLES: LazyLock<Tables> = LazyLock::new(|| {
    let mut rank = Box::new([[[0u32; 25]; 256]; 3]);
    for (j, tj) in rank.iter_mut().enumerate() {
        for (byte, tb) in tj.iter_mut().enumerate() {
            for (before, slot) in tb.iter_mut().enumerate() {
                let mut sum = 0u64;
                let mut ord = before as u32;
                for q in 0..8 {
                    if byte & (1 << q) != 0 {
                        ord += 1;
                        sum += binom(8 * j as u32 + q, ord);
                    }
                }
                *slot = sum as u32;
            }
        }
    }
    let mut pext = Box::new([[0u8; 256]; 256]);
    let mut pdep = Box::new([[0u8; 256]; 256]);
    for mask in 0..256usize {
        for value in 0..256usize {
            let (mut packed, mut spread, mut k) = (0u8, 0u8, 0);
            for q in 0..8 {
                if mask & (1 << q) != 0 {
                    if value & (1 << q) != 0 {
                        packed |= 1 << k;
                    }
                    if value & (1 << k) != 0 {
                        spread |= 1 << q;
                    }
                    k += 1;
                }
            }
            pext[mask][value] = packed;
            pdep[mask][value] = spread;
        }
    }
    let mut sym = Box::new([[[0u32; 256]; 3]; 16]);
    for (s, ts) in Symmetry::ALL.iter().zip(sym.iter_mut()) {
        for (j, tj) in ts.iter_mut().enumerate() {
            for (byte, slot) in tj.iter_mut().enumerate() {
                *slot = s.apply(Bitboard((byte as u32) << (8 * j))).0;
            }
        }
    }
    Tables {
        rank,
        pext,
        pdep,
        sym,
    }
});

/// The colex rank of a set of points (any size up to 24).
#[inline]
pub fn colex_rank(set: u32) -> u64 {
    rank_with(&TABLES, set)
}

#[inline(always)]
fn rank_with(t: &Tables, set: u32) -> u64 {
    let b0 = (set & 0xFF) as usize;
    let b1 = ((set >> 8) & 0xFF) as usize;
    let b2 = ((set >> 16) & 0xFF) as usize;
    let c0 = POP8[b0] as usize;
    let c1 = c0 + POP8[b1] as usize;
    u64::from(t.rank[0][b0][0]) + u64::from(t.rank[1][b1][c0]) + u64::from(t.rank[2][b2][c1])
}

/// The `k`-subset of colex rank `rank`.
pub fn colex_unrank(mut rank: u64, k: u32) -> u32 {
    let mut set = 0u32;
    let mut p = 24u32;
    for i in (1..=k).rev() {
        // the largest p with C(p, i) <= rank
        p -= 1;
        while binom(p, i) > rank {
            p -= 1;
        }
        rank -= binom(p, i);
        set |= 1 << p;
    }
    set
}

/// The bits of `value` under `mask`, packed to the low end.
#[cfg(test)]
#[inline]
pub fn pext(value: u32, mask: u32) -> u32 {
    pext_with(&TABLES, value, mask)
}

#[inline(always)]
fn pext_with(t: &Tables, value: u32, mask: u32) -> u32 {
    let m0 = (mask & 0xFF) as usize;
    let m1 = ((mask >> 8) & 0xFF) as usize;
    let m2 = ((mask >> 16) & 0xFF) as usize;
    let n0 = u32::from(POP8[m0]);
    let n1 = n0 + u32::from(POP8[m1]);
    u32::from(t.pext[m0][(value & 0xFF) as usize])
        | u32::from(t.pext[m1][((value >> 8) & 0xFF) as usize]) << n0
        | u32::from(t.pext[m2][((value >> 16) & 0xFF) as usize]) << n1
}

/// The low bits of `value` spread onto the points of `mask`.
#[inline]
pub fn pdep(value: u32, mask: u32) -> u32 {
    let t = &*TABLES;
    let m0 = (mask & 0xFF) as usize;
    let m1 = ((mask >> 8) & 0xFF) as usize;
    let m2 = ((mask >> 16) & 0xFF) as usize;
    let n0 = u32::from(POP8[m0]);
    let n1 = u32::from(POP8[m1]);
    let v1 = value >> n0;
    let v2 = v1 >> n1;
    u32::from(t.pdep[m0][(value & 0xFF) as usize])
        | u32::from(t.pdep[m1][(v1 & 0xFF) as usize]) << 8
        | u32::from(t.pdep[m2][(v2 & 0xFF) as usize]) << 16
}

/// The image of a set of points under symmetry number `s` (0..16,
/// numbered as [`Symmetry::ALL`]).
#[inline]
pub fn apply_sym(s: usize, set: u32) -> u32 {
    sym_with(&TABLES, s, set)
}

#[inline(always)]
fn sym_with(t: &Tables, s: usize, set: u32) -> u32 {
    let t = &t.sym[s];
    t[0][(set & 0xFF) as usize] | t[1][((set >> 8) & 0xFF) as usize] | t[2][(set >> 16) as usize]
}

/// The representatives of the `a`-stone sets under the 16 symmetries.
struct StoneTable {
    /// Representatives in increasing order.
    reps: Vec<u32>,
    /// By colex rank of a set: its representative's number (low 32 bits)
    /// and the mask of the symmetries taking it there (bits 32..48).
    by_rank: Vec<u64>,
}

fn stone_table(a: u32) -> StoneTable {
    let total = binom(24, a) as usize;
    let mut reps = Vec::new();
    let mut by_rank = vec![0u64; total];
    let mut set: u32 = (1u32 << a) - 1;
    for slot in by_rank.iter_mut() {
        let mut best = u32::MAX;
        let mut mask = 0u64;
        for s in 0..16 {
            let img = apply_sym(s, set);
            if img < best {
                best = img;
                mask = 1 << s;
            } else if img == best {
                mask |= 1 << s;
            }
        }
        let rep_index = if best == set {
            reps.push(set);
            reps.len() - 1
        } else {
            // The representative is a smaller number: seen already.
            reps.binary_search(&best).unwrap_or(0)
        };
        *slot = rep_index as u64 | mask << 32;
        if a == 0 {
            break;
        }
        // Gosper's hack: the next larger number with `a` bits.
        let c = set & set.wrapping_neg();
        let r = set + c;
        set = (((r ^ set) >> 2) / c) | r;
    }
    StoneTable { reps, by_rank }
}

static STONES: LazyLock<Vec<StoneTable>> = LazyLock::new(|| (0..=9).map(stone_table).collect());

/// Sides of a sector: the side to move has `a` stones, the opponent `b`
/// (each 3 to 9 in the databases; the index works for 0 to 9).
#[derive(Clone, Copy)]
pub struct SectorIndex {
    a: u32,
    b: u32,
    per_rep: u64,
    size: u64,
    stones: &'static StoneTable,
    tables: &'static Tables,
}

impl PartialEq for SectorIndex {
    fn eq(&self, other: &SectorIndex) -> bool {
        (self.a, self.b) == (other.a, other.b)
    }
}

impl Eq for SectorIndex {}

impl std::fmt::Debug for SectorIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "SectorIndex({}-{}, {} indices)",
            self.a, self.b, self.size
        )
    }
}

/// What the index of a position needs from the mover's stones alone:
/// worked out once and shared by every position with those stones.
#[derive(Clone, Copy, Debug)]
pub struct MoverPart {
    base: u64,
    free: u32,
    mask: u32,
}

impl SectorIndex {
    /// The index of sector `a-b`.
    ///
    /// # Panics
    /// When `a` or `b` is above 9 (callers check sector names first).
    pub fn new(a: u32, b: u32) -> SectorIndex {
        assert!(a <= 9 && b <= 9, "sector {a}-{b} out of range");
        let per_rep = binom(24 - a, b);
        let size = STONES[a as usize].reps.len() as u64 * per_rep;
        SectorIndex {
            a,
            b,
            per_rep,
            size,
            stones: &STONES[a as usize],
            tables: &TABLES,
        }
    }

    /// Stones of the side to move.
    pub fn mover_stones(&self) -> u32 {
        self.a
    }

    /// Stones of the opponent.
    pub fn other_stones(&self) -> u32 {
        self.b
    }

    /// The number of indices (symmetry classes, plus the unused indices of
    /// symmetric stone sets).
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The index of the position where the side to move has the points
    /// `mover` and the opponent `other` (disjoint, `a` and `b` of them).
    #[inline]
    pub fn index(&self, mover: u32, other: u32) -> u64 {
        self.index_with(&self.mover_part(mover), other)
    }

    /// The part of the index that depends on the mover's stones only.
    #[inline]
    pub fn mover_part(&self, mover: u32) -> MoverPart {
        let entry = self.stones.by_rank[rank_with(self.tables, mover) as usize];
        let rep_index = entry & 0xFFFF_FFFF;
        MoverPart {
            base: rep_index * self.per_rep,
            free: !self.stones.reps[rep_index as usize] & FULL,
            mask: (entry >> 32) as u32,
        }
    }

    /// The index of the position with the mover's stones of `part` and the
    /// opponent's points `other`.
    #[inline]
    pub fn index_with(&self, part: &MoverPart, other: u32) -> u64 {
        let t = self.tables;
        let mask = part.mask;
        let sub = if mask & (mask - 1) == 0 {
            rank_with(
                t,
                pext_with(
                    t,
                    sym_with(t, mask.trailing_zeros() as usize, other),
                    part.free,
                ),
            )
        } else {
            let mut best = u64::MAX;
            let mut m = mask;
            while m != 0 {
                let s = m.trailing_zeros() as usize;
                m &= m - 1;
                best = best.min(rank_with(t, pext_with(t, sym_with(t, s, other), part.free)));
            }
            best
        };
        part.base + sub
    }

    /// The position (mover's points, opponent's points) of an index.
    #[inline]
    pub fn position(&self, index: u64) -> (u32, u32) {
        let table = &STONES[self.a as usize];
        let mover = table.reps[(index / self.per_rep) as usize];
        let sub = colex_unrank(index % self.per_rep, self.b);
        (mover, pdep(sub, !mover & FULL))
    }

    /// The first index of the block of positions sharing the mover's
    /// stones with `index`, and the number in that block.
    pub fn block_of(&self, index: u64) -> (u64, u64) {
        (index - index % self.per_rep, self.per_rep)
    }

    /// Whether the mover's stones of `index` are mapped onto themselves by
    /// a symmetry other than the identity (only then can an index of the
    /// block be unused).
    pub fn mover_symmetric(&self, index: u64) -> bool {
        let table = &STONES[self.a as usize];
        let rep = table.reps[(index / self.per_rep) as usize];
        (table.by_rank[colex_rank(rep) as usize] >> 32) as u32 != 1
    }

    /// Whether `index` is the one index of its symmetry class.
    pub fn is_canonical(&self, index: u64) -> bool {
        let (m, o) = self.position(index);
        self.index(m, o) == index
    }

    /// [`SectorIndex::class_size`] of the position at a canonical index,
    /// fast when the mover's stones have no symmetry.
    #[inline]
    pub fn class_size_at(&self, index: u64) -> u64 {
        let table = &STONES[self.a as usize];
        let rep = table.reps[(index / self.per_rep) as usize];
        let mask = (table.by_rank[colex_rank(rep) as usize] >> 32) as u32;
        if mask == 1 {
            return 16;
        }
        let (_, other) = self.position(index);
        let mut fixed = 0;
        let mut m = mask;
        while m != 0 {
            let s = m.trailing_zeros() as usize;
            m &= m - 1;
            if apply_sym(s, other) == other {
                fixed += 1;
            }
        }
        16 / fixed
    }

    /// How many positions (all placements, no symmetry reduced) the class
    /// of a canonical index stands for: 16 divided by the number of
    /// symmetries that map the position to itself.
    pub fn class_size(&self, mover: u32, other: u32) -> u64 {
        let fixed = (0..16)
            .filter(|&s| apply_sym(s, mover) == mover && apply_sym(s, other) == other)
            .count() as u64;
        16 / fixed
    }
}

/// The next larger number with the same number of bits (Gosper's hack),
/// for walking the positions of a block in index order.
#[inline]
pub fn next_combination(set: u32) -> u32 {
    let c = set & set.wrapping_neg();
    let r = set + c;
    (((r ^ set) >> 2) / c) | r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colex_rank_and_unrank_agree() {
        for k in 0..=9u32 {
            let n = binom(24, k).min(5000);
            for r in 0..n {
                let set = colex_unrank(r, k);
                assert_eq!(set.count_ones(), k);
                assert_eq!(colex_rank(set), r);
            }
        }
    }

    #[test]
    fn pext_pdep_invert() {
        let mask: u32 = 0x00A5_3C0F;
        for v in 0..(1u32 << mask.count_ones()).min(4096) {
            assert_eq!(pext(pdep(v, mask), mask), v);
        }
    }

    #[test]
    fn sector_3_3_classes_cover_all_placements() {
        let idx = SectorIndex::new(3, 3);
        let mut total = 0;
        for i in 0..idx.size() {
            if idx.is_canonical(i) {
                let (m, o) = idx.position(i);
                total += idx.class_size(m, o);
            }
        }
        assert_eq!(total, 2_691_920);
    }

    #[test]
    fn symmetric_positions_share_an_index() {
        let idx = SectorIndex::new(4, 5);
        let mut rng = fastrand::Rng::with_seed(7);
        for _ in 0..2000 {
            let i = rng.u64(0..idx.size());
            let (m, o) = idx.position(i);
            let c = idx.index(m, o);
            for s in 0..16 {
                assert_eq!(idx.index(apply_sym(s, m), apply_sym(s, o)), c);
            }
        }
    }
}
