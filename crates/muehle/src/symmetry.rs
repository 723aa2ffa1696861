//! The 16 symmetries of the board: 4 rotations × 2 reflections × swapping the
//! inner and the outer ring. Each maps lines to lines and mills to mills, so
//! symmetric positions have the same legal moves, mapped.

use crate::{Bitboard, Square};

/// Left-right reflection of one ring's 8 bits: position k goes to (2 − k) mod 8.
const MIRROR_BYTE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut v = 0;
    while v < 256 {
        let mut out = 0u8;
        let mut k = 0;
        while k < 8 {
            if v & (1 << k) != 0 {
                out |= 1 << ((10 - k) % 8);
            }
            k += 1;
        }
        t[v] = out;
        v += 1;
    }
    t
};

/// One of the 16 symmetries. Bits 0–1: quarter turns clockwise; bit 2:
/// reflect left-right first; bit 3: swap the inner and outer ring last.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Symmetry(u8);

impl Symmetry {
    /// The identity.
    pub const IDENTITY: Symmetry = Symmetry(0);

    /// All 16 symmetries; the first is the identity.
    pub const ALL: [Symmetry; 16] = {
        let mut all = [Symmetry(0); 16];
        let mut i = 0;
        while i < 16 {
            all[i] = Symmetry(i as u8);
            i += 1;
        }
        all
    };

    /// The symmetry with the given number (0..16).
    pub const fn new(n: u8) -> Option<Symmetry> {
        if n < 16 { Some(Symmetry(n)) } else { None }
    }

    /// Quarter turns clockwise (0..4).
    pub const fn quarter_turns(self) -> u8 {
        self.0 & 3
    }

    /// Whether the board is reflected left-right.
    pub const fn reflects(self) -> bool {
        self.0 & 4 != 0
    }

    /// Whether the inner and outer rings are swapped.
    pub const fn swaps_rings(self) -> bool {
        self.0 & 8 != 0
    }

    /// Map a set of points.
    #[inline]
    pub const fn apply(self, bb: Bitboard) -> Bitboard {
        let mut v = bb.0;
        if self.reflects() {
            v = MIRROR_BYTE[(v & 0xFF) as usize] as u32
                | (MIRROR_BYTE[((v >> 8) & 0xFF) as usize] as u32) << 8
                | (MIRROR_BYTE[((v >> 16) & 0xFF) as usize] as u32) << 16;
        }
        v = Bitboard(v).rotate_rings(2 * self.quarter_turns() as u32).0;
        if self.swaps_rings() {
            v = (v & 0x00FF00) | (v & 0xFF) << 16 | (v >> 16) & 0xFF;
        }
        Bitboard(v)
    }

    /// Map one point.
    pub const fn apply_square(self, sq: Square) -> Square {
        match self.apply(sq.bb()).first() {
            Some(s) => s,
            None => sq, // unreachable: a symmetry maps a point to a point
        }
    }

    /// Map a move.
    pub fn apply_move(self, m: crate::Move) -> crate::Move {
        let to = self.apply_square(m.to());
        let mut out = match m.from() {
            Some(from) => crate::Move::slide(self.apply_square(from), to),
            None => crate::Move::place(to),
        };
        if let Some(r) = m.removal() {
            out = out.with_removal(self.apply_square(r));
        }
        out
    }

    /// The inverse symmetry.
    pub fn inverse(self) -> Symmetry {
        Symmetry::ALL
            .into_iter()
            .find(|s| {
                Square::ALL
                    .iter()
                    .all(|&q| s.apply_square(self.apply_square(q)) == q)
            })
            .unwrap_or(Symmetry::IDENTITY)
    }
}
