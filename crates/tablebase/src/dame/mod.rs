//! Endgame databases for Dame (draughts): every position with a few pieces
//! on 8×8 or 10×10, under one rule set, solved by retrograde analysis.
//!
//! - A [`Material`] names the pieces of the side to move and of the
//!   opponent (men and kings). One table per material holds the positions
//!   with that material *for the side to move*: a position with Black to
//!   move is looked up turned by 180° with the colours swapped (the boards
//!   have that symmetry, so every position is stored once).
//! - [`Layout`] numbers the positions of a material: each group of pieces
//!   (the mover's men, the mover's kings, the opponent's men, the
//!   opponent's kings) is a combination of the squares it may stand on
//!   (men never on their promotion row); indices whose groups overlap stand
//!   for no position.
//! - [`Value`](crate::Value)s for the side to move with the distance to the end of the
//!   game in plies (the winner's shortest, the loser's longest), under the
//!   rules without the king-move counter (see below).
//! - The FMJD ending limits ([`dame::RuleSet::king_vs_three_draw`],
//!   [`dame::RuleSet::king_vs_two_draw`]) are exact: a table of a counted
//!   ending (a lone king against one to three pieces with a king) holds
//!   one value per index *and* per value of the ending counter (0 up to
//!   the limit), solved layer by layer from the limit down.
//! - The king-move counter (50 plies of king moves without capture) is
//!   not in the tables: a value is the value with that counter at 0 and no
//!   draw by it at all. It is exact whenever the game ends before the
//!   counter could reach its limit: a win or loss in `n` plies holds in a
//!   position with the counter at `c` if `n <= limit - c` (the probe of
//!   the engine refuses the others; draws always hold, a draw rule only
//!   adds draws). Threefold repetition changes no value.
//! - Huffing rule sets are not covered (skipping a capture changes every
//!   value); every preset plays without it.

mod build;
mod file;
mod probe;

use std::fmt;
use std::str::FromStr;
use std::sync::LazyLock;

use dame::{Bitboard, BoardSize, Color, Position, RuleSet, Setup, Square};

pub use build::{
    DameBuildEvent, DameBuildReport, DamePlan, PlannedTable, TableReport, build_dame, plan_dame,
};
pub use file::{
    DAME_FORMAT_VERSION, DEFAULT_DAME_CACHE, DameFile, DameStats, dame_cache_bytes,
    set_dame_cache_limit,
};
pub use probe::{DameTablebase, DameVerifyReport, dame_path, verify_dame};

/// The pieces of a table: the side to move's (`m` men, `k` kings) and the
/// opponent's. Written `KKM-K` (the mover's kings and men, then the
/// opponent's).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Material {
    /// Men of the side to move.
    pub wm: u8,
    /// Kings of the side to move.
    pub wk: u8,
    /// Men of the opponent.
    pub bm: u8,
    /// Kings of the opponent.
    pub bk: u8,
}

impl Material {
    /// The material from its counts (mover's men and kings, opponent's men
    /// and kings).
    pub const fn new(wm: u8, wk: u8, bm: u8, bk: u8) -> Material {
        Material { wm, wk, bm, bk }
    }

    /// All pieces.
    pub const fn pieces(self) -> u32 {
        self.wm as u32 + self.wk as u32 + self.bm as u32 + self.bk as u32
    }

    /// All men.
    pub const fn men(self) -> u32 {
        self.wm as u32 + self.bm as u32
    }

    /// The same pieces with the other side to move.
    pub const fn mirror(self) -> Material {
        Material {
            wm: self.bm,
            wk: self.bk,
            bm: self.wm,
            bk: self.wk,
        }
    }

    /// Whether the mirror is the material itself.
    pub const fn symmetric(self) -> bool {
        self.wm == self.bm && self.wk == self.bk
    }

    /// The material of a position, seen from the side to move.
    pub fn of(pos: &Position) -> Material {
        let us = pos.turn();
        let them = us.other();
        Material {
            wm: pos.men(us).count() as u8,
            wk: pos.kings(us).count() as u8,
            bm: pos.men(them).count() as u8,
            bk: pos.kings(them).count() as u8,
        }
    }

    /// Every material with at least one piece a side and at most `pieces`
    /// pieces, in build order (fewer pieces first, then fewer men: a
    /// capture or a promotion leads to a material earlier in the list).
    pub fn all_up_to(pieces: u32) -> Vec<Material> {
        let mut out = Vec::new();
        let p = pieces.min(12) as u8;
        for wm in 0..=p {
            for wk in 0..=p - wm {
                for bm in 0..=p - wm - wk {
                    for bk in 0..=p - wm - wk - bm {
                        let m = Material::new(wm, wk, bm, bk);
                        if wm + wk > 0 && bm + bk > 0 {
                            out.push(m);
                        }
                    }
                }
            }
        }
        out.sort_by_key(|m| m.order_key());
        out
    }

    /// The build order key.
    pub(crate) fn order_key(self) -> (u32, u32, Material) {
        let lo = if self <= self.mirror() {
            self
        } else {
            self.mirror()
        };
        (self.pieces(), self.men(), lo)
    }

    /// The materials a move can lead to (a capture, a promotion, or both),
    /// as tables (the opponent to move), over-approximated; materials
    /// where the opponent has nothing left are left out.
    pub fn successors(self) -> Vec<Material> {
        let mut out = Vec::new();
        let mut add = |m: Material| {
            if m.wm + m.wk > 0 && m.bm + m.bk > 0 && !out.contains(&m) {
                out.push(m);
            }
        };
        // Child positions have the opponent to move: the table is the
        // mirror of (mover after, opponent after).
        let movers = if self.wm > 0 {
            vec![(self.wm, self.wk), (self.wm - 1, self.wk + 1)]
        } else {
            vec![(self.wm, self.wk)]
        };
        for &(wm, wk) in &movers {
            for x in 0..=self.bm {
                for y in 0..=self.bk {
                    let promoted = wm != self.wm;
                    if x + y == 0 && !promoted {
                        continue;
                    }
                    add(Material::new(self.bm - x, self.bk - y, wm, wk));
                }
            }
        }
        out
    }

    /// The materials needed to build this one (itself and its mirror
    /// included), in build order.
    pub fn closure(targets: &[Material]) -> Vec<Material> {
        let mut seen: Vec<Material> = Vec::new();
        let mut stack: Vec<Material> = targets.to_vec();
        while let Some(m) = stack.pop() {
            for x in [m, m.mirror()] {
                if !seen.contains(&x) {
                    seen.push(x);
                    stack.extend(x.successors());
                }
            }
        }
        seen.sort_by_key(|m| m.order_key());
        seen
    }
}

/// `KKM-K`: the side to move's kings and men, a dash, the opponent's.
impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = |k: u8, m: u8| "K".repeat(k.into()) + &"M".repeat(m.into());
        write!(f, "{}-{}", side(self.wk, self.wm), side(self.bk, self.bm))
    }
}

/// Reads `KKM-K` (any case).
impl FromStr for Material {
    type Err = String;
    fn from_str(s: &str) -> Result<Material, String> {
        let bad = || {
            format!(
                "'{s}' is not a material: write the kings (K) and men (M) of the side to move, a dash, the opponent's (e.g. KKM-K)"
            )
        };
        let (a, b) = s.trim().split_once('-').ok_or_else(bad)?;
        let side = |t: &str| -> Result<(u8, u8), String> {
            let (mut k, mut m) = (0u8, 0u8);
            for c in t.trim().chars() {
                match c.to_ascii_uppercase() {
                    'K' => k += 1,
                    'M' => m += 1,
                    _ => return Err(bad()),
                }
                if k + m > 12 {
                    return Err(bad());
                }
            }
            if k + m == 0 {
                return Err(bad());
            }
            Ok((m, k))
        };
        let (wm, wk) = side(a)?;
        let (bm, bk) = side(b)?;
        Ok(Material::new(wm, wk, bm, bk))
    }
}

/// The move limit of the counted ending this material forms under the
/// rules (FMJD's 16- and 5-move rules: a lone king against one to three
/// pieces, at least one of them a king), as [`Position::counted_ending`]
/// decides it.
pub fn ending_limit(rules: &RuleSet, m: Material) -> Option<u16> {
    if !rules.counts_endings() || m.pieces() > 4 {
        return None;
    }
    let lone = |men: u8, kings: u8| men == 0 && kings == 1;
    let (sm, sk) = if lone(m.bm, m.bk) {
        (m.wm, m.wk)
    } else if lone(m.wm, m.wk) {
        (m.bm, m.bk)
    } else {
        return None;
    };
    if sk == 0 {
        return None;
    }
    let ending = match sm + sk {
        3 => dame::Ending::KingVsThree,
        1 | 2 => dame::Ending::KingVsTwo,
        _ => return None,
    };
    rules.ending_limit(ending)
}

/// Value layers of a material's table: the ending limit + 1 for a counted
/// ending, else 1.
pub fn layers(rules: &RuleSet, m: Material) -> usize {
    ending_limit(rules, m).map_or(1, |l| usize::from(l) + 1)
}

/// The fingerprint of what decides the values: the board and every rule
/// option except huffing (not covered), the king-move counter and
/// repetition (not part of the values).
pub fn rules_fingerprint(rules: &RuleSet) -> u64 {
    let b = |x: bool| u64::from(x);
    let board = b(rules.board == BoardSize::Ten);
    let landing = b(rules.king_landing == dame::KingLanding::AnywhereBehind);
    let short_capture = b(rules.king_capture == dame::KingCapture::Short);
    let promotion = b(rules.promotion == dame::Promotion::EndOfMove);
    let k3 = u64::from(rules.king_vs_three_draw.unwrap_or(0));
    let k2 = u64::from(rules.king_vs_two_draw.unwrap_or(0));
    0x4400_0000_0000_0000
        | board
        | b(rules.men_capture_backward) << 1
        | b(rules.majority_capture) << 2
        | landing << 3
        | promotion << 4
        | b(rules.one_king_each_draw) << 5
        | short_capture << 6
        | k3 << 16
        | k2 << 32
}

/// The name the files of a rule set carry: the preset whose values they
/// are (`dame`, `dame-fr`, `dame-100`, `international`), else `r` and the
/// fingerprint.
pub fn rules_tag(rules: &RuleSet) -> String {
    let fp = rules_fingerprint(rules);
    dame::PRESETS
        .iter()
        .find(|name| RuleSet::preset(name).is_some_and(|p| rules_fingerprint(&p) == fp))
        .map_or_else(|| format!("r{fp:016x}"), |n| n.to_string())
}

/// Whether databases can be built for these rules (huffing off).
pub fn covered(rules: &RuleSet) -> bool {
    !rules.huffing
}

/// A board's squares as dense indices (square number − 1) and their
/// diagonal neighbours.
pub(crate) struct Geometry {
    pub(crate) n: u32,
    dense_bit: [u8; 50],
    bit_dense: [u8; 64],
    /// Neighbour in direction 0 up-left, 1 up-right, 2 down-left,
    /// 3 down-right ("up" towards row 0, the way White's men move);
    /// `NO` off the board.
    pub(crate) nb: [[u8; 4]; 50],
}

pub(crate) const NO: u8 = u8::MAX;

impl Geometry {
    fn new(size: BoardSize) -> Geometry {
        let n = size.squares() as u32;
        let mut g = Geometry {
            n,
            dense_bit: [0; 50],
            bit_dense: [NO; 64],
            nb: [[NO; 4]; 50],
        };
        for d in 0..n as u8 {
            let sq = Square::from_number(size, d + 1).expect("square number on the board");
            g.dense_bit[usize::from(d)] = sq.bit();
            g.bit_dense[usize::from(sq.bit())] = d;
        }
        for d in 0..n as u8 {
            let sq = Square::from_number(size, d + 1).expect("square number on the board");
            let (f, r) = (i32::from(sq.file()), i32::from(sq.rank()));
            for (dir, (df, dr)) in [(-1, 1), (1, 1), (-1, -1), (1, -1)].into_iter().enumerate() {
                let (nf, nr) = (f + df, r + dr);
                if (0..i32::from(size.side())).contains(&nf)
                    && (0..i32::from(size.side())).contains(&nr)
                    && let Some(t) = Square::from_coords(size, nf as u8, nr as u8)
                {
                    g.nb[usize::from(d)][dir] = t.number() - 1;
                }
            }
        }
        g
    }

    pub(crate) fn of(size: BoardSize) -> &'static Geometry {
        static G8: LazyLock<Geometry> = LazyLock::new(|| Geometry::new(BoardSize::Eight));
        static G10: LazyLock<Geometry> = LazyLock::new(|| Geometry::new(BoardSize::Ten));
        match size {
            BoardSize::Eight => &G8,
            BoardSize::Ten => &G10,
        }
    }

    /// A padded bitboard as a set of dense indices.
    #[inline]
    pub(crate) fn dense(&self, bb: Bitboard) -> u64 {
        let mut out = 0;
        let mut bits = bb.0;
        while bits != 0 {
            let b = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            out |= 1u64 << self.bit_dense[b];
        }
        out
    }

    /// A set of dense indices as a padded bitboard.
    #[inline]
    pub(crate) fn padded(&self, dense: u64) -> Bitboard {
        let mut out = 0;
        let mut bits = dense;
        while bits != 0 {
            let d = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            out |= 1u64 << self.dense_bit[d];
        }
        Bitboard(out)
    }

    /// The set turned by 180°.
    #[inline]
    pub(crate) fn flip(&self, dense: u64) -> u64 {
        dense.reverse_bits() >> (64 - self.n)
    }
}

const fn binomials() -> [[u64; 8]; 51] {
    let mut t = [[0u64; 8]; 51];
    let mut n = 0;
    while n <= 50 {
        t[n][0] = 1;
        let mut k = 1;
        while k < 8 {
            t[n][k] = if n == 0 {
                0
            } else {
                t[n - 1][k - 1] + t[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    t
}

static BINOM: [[u64; 8]; 51] = binomials();

#[inline]
fn binom(n: u32, k: u32) -> u64 {
    BINOM[n as usize][k as usize]
}

/// The numbering of a material's positions (side to move "White", i.e.
/// moving up the board). Groups in order: the mover's men (squares below
/// row 0), the mover's kings (all squares), the opponent's men (squares
/// above the last row), the opponent's kings; each group's combination
/// is ranked in colex order over its squares, and the index mixes the
/// ranks with the group sizes as radices.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    material: Material,
    counts: [u32; 4],
    base: [u32; 4],
    span: [u32; 4],
    radix: [u64; 4],
    size: u64,
}

impl Layout {
    /// The layout of `m` on `board`.
    pub fn new(board: BoardSize, m: Material) -> Layout {
        let n = board.squares() as u32;
        let pr = u32::from(board.per_row());
        let counts = [m.wm, m.wk, m.bm, m.bk].map(u32::from);
        let base = [pr, 0, 0, 0];
        let span = [n - pr, n, n - pr, n];
        let radix = [0, 1, 2, 3].map(|g| binom(span[g], counts[g]));
        Layout {
            material: m,
            counts,
            base,
            span,
            radix,
            size: radix.iter().product(),
        }
    }

    /// The material.
    pub fn material(&self) -> Material {
        self.material
    }

    /// The number of indices.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The index of the groups (dense square sets: mover's men, mover's
    /// kings, opponent's men, opponent's kings).
    #[inline]
    pub(crate) fn index(&self, groups: [u64; 4]) -> u64 {
        let mut idx = 0u64;
        for (g, &set) in groups.iter().enumerate() {
            let mut bits = set >> self.base[g];
            let mut rank = 0;
            let mut i = 1;
            while bits != 0 {
                let p = bits.trailing_zeros();
                bits &= bits - 1;
                rank += binom(p, i);
                i += 1;
            }
            idx = idx * self.radix[g] + rank;
        }
        idx
    }

    /// The groups of an index; `None` if two groups overlap (no position).
    #[inline]
    pub(crate) fn groups(&self, index: u64) -> Option<[u64; 4]> {
        let mut out = [0u64; 4];
        let mut rest = index;
        for g in (0..4).rev() {
            let mut rank = rest % self.radix[g];
            rest /= self.radix[g];
            let mut set = 0u64;
            let mut a = self.span[g];
            for k in (1..=self.counts[g]).rev() {
                a -= 1;
                while binom(a, k) > rank {
                    a -= 1;
                }
                rank -= binom(a, k);
                set |= 1u64 << a;
            }
            out[g] = set << self.base[g];
        }
        let total =
            out[0].count_ones() + out[1].count_ones() + out[2].count_ones() + out[3].count_ones();
        if (out[0] | out[1] | out[2] | out[3]).count_ones() != total {
            return None;
        }
        Some(out)
    }
}

/// A position of a table: `index` of `material`'s layout, White to move
/// (the mover's pieces are White's), with the ending counter at
/// `ending_plies` and every other counter at 0.
pub fn position_at(
    rules: &RuleSet,
    material: Material,
    index: u64,
    ending_plies: u16,
) -> Option<Position> {
    let layout = Layout::new(rules.board, material);
    if index >= layout.size() {
        return None;
    }
    let groups = layout.groups(index)?;
    position_of_groups(rules, groups, ending_plies)
}

pub(crate) fn position_of_groups(
    rules: &RuleSet,
    g: [u64; 4],
    ending_plies: u16,
) -> Option<Position> {
    let geo = Geometry::of(rules.board);
    let setup = Setup {
        size: rules.board,
        pieces: [geo.padded(g[0] | g[1]), geo.padded(g[2] | g[3])],
        kings: geo.padded(g[1] | g[3]),
        turn: Color::White,
        king_moves: 0,
        ending_plies,
        move_number: 1,
    };
    Position::from_setup(setup, *rules).ok()
}

/// Where a position is stored: its material (seen from the side to move)
/// and index; `None` when the side to move has no pieces or the opponent
/// none.
pub fn locate(pos: &Position) -> Option<(Material, u64)> {
    let (m, g) = locate_groups(pos)?;
    Some((m, Layout::new(pos.size(), m).index(g)))
}

#[inline]
pub(crate) fn locate_groups(pos: &Position) -> Option<(Material, [u64; 4])> {
    let geo = Geometry::of(pos.size());
    let us = pos.turn();
    let them = us.other();
    let mut g = [
        geo.dense(pos.men(us)),
        geo.dense(pos.kings(us)),
        geo.dense(pos.men(them)),
        geo.dense(pos.kings(them)),
    ];
    if us == Color::Black {
        g = g.map(|x| geo.flip(x));
    }
    let m = Material::new(
        g[0].count_ones() as u8,
        g[1].count_ones() as u8,
        g[2].count_ones() as u8,
        g[3].count_ones() as u8,
    );
    if m.wm + m.wk == 0 || m.bm + m.bk == 0 {
        return None;
    }
    // No table has a group of 8 or more pieces (the index's binomials
    // stop at 7): such a position is simply not held.
    if g.iter().any(|x| x.count_ones() >= 8) {
        return None;
    }
    Some((m, g))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_round_trips_and_marks_overlaps() {
        for board in [BoardSize::Eight, BoardSize::Ten] {
            let m = Material::new(1, 1, 1, 1);
            let l = Layout::new(board, m);
            let mut valid = 0;
            for i in (0..l.size()).step_by(7) {
                if let Some(g) = l.groups(i) {
                    valid += 1;
                    assert_eq!(l.index(g), i);
                }
            }
            assert!(valid > 0);
        }
    }

    #[test]
    fn material_names_and_mirror() {
        let m: Material = "KKM-K".parse().unwrap();
        assert_eq!(m, Material::new(1, 2, 0, 1));
        assert_eq!(m.to_string(), "KKM-K");
        assert_eq!(m.mirror().to_string(), "K-KKM");
        assert!("KX-K".parse::<Material>().is_err());
        assert!("-K".parse::<Material>().is_err());
    }

    #[test]
    fn ending_limits_agree_with_the_position() {
        let rules = RuleSet::INTERNATIONAL;
        let board = rules.board;
        for m in Material::all_up_to(4) {
            let l = Layout::new(board, m);
            let pos = (0..l.size())
                .find_map(|i| position_at(&rules, m, i, 0))
                .unwrap();
            assert_eq!(
                ending_limit(&rules, m),
                pos.counted_ending().map(|(_, n)| n),
                "{m}"
            );
        }
        assert_eq!(
            ending_limit(&RuleSet::DAME, Material::new(0, 3, 0, 1)),
            None
        );
    }

    #[test]
    fn positions_with_large_groups_are_not_held() {
        // Twelve men against one: a group of 8 or more has no index.
        let pos = Position::new(RuleSet::DAME);
        assert!(locate(&pos).is_none());
        let pos = Position::from_fen("W:Wa1,c1,e1,g1,b2,d2,f2,h2:BKh8", RuleSet::DAME).unwrap();
        assert!(locate(&pos).is_none());
    }

    #[test]
    fn locate_turns_black_to_move_positions() {
        let rules = RuleSet::DAME;
        let pos = Position::from_fen("B:Wa1,Kc3:BKh8", rules).unwrap();
        let (m, i) = locate(&pos).unwrap();
        assert_eq!(m, Material::new(0, 1, 1, 1));
        let turned = position_at(&rules, m, i, 0).unwrap();
        // h8 turned is a1, a1 turned h8, c3 turned f6.
        assert_eq!(turned.fen(), "W:WKa1:BKf6,h8");
        assert_eq!(rules_tag(&rules), "dame");
        let mut r = RuleSet::INTERNATIONAL;
        r.king_move_draw = None;
        assert_eq!(rules_tag(&r), "international");
    }

    /// The king's capture from afar (every preset) and from next to the
    /// piece only (`king-capture=short`, the Italian text of 004) give
    /// other values: their files never mix.
    #[test]
    fn the_king_capture_rule_is_part_of_the_fingerprint() {
        for preset in dame::PRESETS {
            let long = RuleSet::preset(preset).unwrap();
            let mut short = long;
            short.king_capture = dame::KingCapture::Short;
            assert_ne!(rules_fingerprint(&long), rules_fingerprint(&short));
            assert_eq!(rules_tag(&long), preset);
            assert_eq!(
                rules_tag(&short),
                format!("r{:016x}", rules_fingerprint(&short))
            );
        }
        // The files of the presets keep their fingerprint (bit 6 is 0).
        assert_eq!(rules_fingerprint(&RuleSet::DAME), 0x4400_0000_0000_0020);
    }
}
