//! Moves and moves taken back on bare point sets, for the builder.

use muehle::{Bitboard, Square};

use super::index::FULL;
use crate::Variant;

/// Neighbours of each point.
pub(crate) static ADJ: [u32; 24] = {
    let mut t = [0u32; 24];
    let mut i = 0;
    while i < 24 {
        t[i] = match Square::new(i as u8) {
            Some(sq) => sq.neighbours().0,
            None => 0,
        };
        i += 1;
    }
    t
};

/// For each point, the two mills through it, each as the mask of its other
/// two points.
static PARTNERS: [[u32; 2]; 24] = {
    let mut t = [[0u32; 2]; 24];
    let mut sq = 0;
    while sq < 24 {
        let mut found = 0;
        let mut m = 0;
        while m < 16 {
            let mill = muehle::MILLS[m].0;
            if mill & (1 << sq) != 0 && found < 2 {
                t[sq][found] = mill & !(1 << sq);
                found += 1;
            }
            m += 1;
        }
        sq += 1;
    }
    t
};

/// Whether the stone of `set` on point `sq` stands in a closed mill.
#[inline]
pub(crate) fn in_mill_at(set: u32, sq: u32) -> bool {
    let [p, q] = PARTNERS[sq as usize];
    set & p == p || set & q == q
}

/// Calls `f(next_mover, next_other, removed)` for every legal move of the
/// side to move with the points `mover` against `other` (moving phase, no
/// stones in hand): the position after the move as seen by the opponent,
/// who moves next, and whether the move removed one of the opponent's stones.
/// Returns the number of moves (0: blocked).
#[inline]
pub(crate) fn for_each_move(
    variant: Variant,
    mover: u32,
    other: u32,
    mut f: impl FnMut(u32, u32, bool),
) -> u32 {
    let empty = !(mover | other) & FULL;
    let flies = variant.flies(mover.count_ones());
    let mut removable = None;
    let mut count = 0;
    let mut froms = mover;
    while froms != 0 {
        let from = froms.trailing_zeros();
        froms &= froms - 1;
        let mut targets = if flies {
            empty
        } else {
            ADJ[from as usize] & empty
        };
        if targets == 0 {
            continue;
        }
        let rest = mover ^ (1 << from);
        let closers = Bitboard(rest).mill_completions().0;
        while targets != 0 {
            let to = targets.trailing_zeros();
            targets &= targets - 1;
            let after = rest | 1 << to;
            if closers & (1 << to) != 0 {
                let rem =
                    *removable.get_or_insert_with(|| variant.removable(other, other.count_ones()));
                if rem != 0 {
                    let mut r = rem;
                    while r != 0 {
                        let sq = r.trailing_zeros();
                        r &= r - 1;
                        f(other ^ (1 << sq), after, true);
                        count += 1;
                    }
                    continue;
                }
            }
            f(other, after, false);
            count += 1;
        }
    }
    count
}

/// Calls `f(previous_other)` for every move without a removal that the
/// opponent (`other`) can have made to reach this position, with the side
/// to move holding `mover`: the opponent's points before that move. The
/// position before is (`previous_other` to move, against `mover`).
#[inline]
pub(crate) fn for_each_unmove(variant: Variant, mover: u32, other: u32, mut f: impl FnMut(u32)) {
    let empty = !(mover | other) & FULL;
    let flew = variant.flies(other.count_ones());
    // A move that closed a mill removed a stone unless nothing was removable
    // (the strict rule only); such moves are taken back elsewhere.
    let mill_without_removal = variant.removable(mover, mover.count_ones()) == 0;
    let mut tos = other;
    while tos != 0 {
        let to = tos.trailing_zeros();
        tos &= tos - 1;
        if !mill_without_removal && in_mill_at(other, to) {
            continue;
        }
        let mut froms = if flew {
            empty
        } else {
            ADJ[to as usize] & empty
        };
        let rest = other ^ (1 << to);
        while froms != 0 {
            let from = froms.trailing_zeros();
            froms &= froms - 1;
            f(rest | 1 << from);
        }
    }
}
