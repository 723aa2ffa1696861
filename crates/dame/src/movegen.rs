//! Allocation-free move generation on the padded bitboards (see
//! [`crate::board`]), monomorphised per board so every shift is a constant.
//!
//! Direction indices: 0 up-left, 1 up-right, 2 down-left, 3 down-right
//! ("up" is towards Black's back row, the way White's men move).

use crate::{BoardSize, Color, KingLanding, Move, MoveList, Promotion, RuleSet};

/// A board geometry: squares per row and the mask of real squares.
pub(crate) trait Geo {
    const SIZE: BoardSize;
    /// Dark squares per row.
    const H: u32;
    /// Bits that are squares.
    const MASK: u64;
}

pub(crate) struct G8;
pub(crate) struct G10;

impl Geo for G8 {
    const SIZE: BoardSize = BoardSize::Eight;
    const H: u32 = 4;
    const MASK: u64 = BoardSize::Eight.mask().0;
}

impl Geo for G10 {
    const SIZE: BoardSize = BoardSize::Ten;
    const H: u32 = 5;
    const MASK: u64 = BoardSize::Ten.mask().0;
}

/// Shift every bit one step in direction `dir`. Bits leaving the board end
/// on ghost bits or outside the mask; callers intersect with real sets.
#[inline(always)]
pub(crate) fn shift<G: Geo>(b: u64, dir: usize) -> u64 {
    match dir {
        0 => b >> (G::H + 1),
        1 => b >> G::H,
        2 => b << G::H,
        _ => b << (G::H + 1),
    }
}

/// The opposite direction.
#[inline(always)]
pub(crate) const fn opposite(dir: usize) -> usize {
    3 - dir
}

/// The directions a man of `c` moves in.
#[inline(always)]
pub(crate) const fn forward(c: Color) -> [usize; 2] {
    match c {
        Color::White => [0, 1],
        Color::Black => [2, 3],
    }
}

const ALL_DIRS: [usize; 4] = [0, 1, 2, 3];

/// The raw board of the side to move, as generation sees it.
#[derive(Clone, Copy)]
pub(crate) struct Sides {
    pub us: Color,
    pub own: u64,
    pub opp: u64,
    pub kings: u64,
}

impl Sides {
    #[inline(always)]
    fn men(&self) -> u64 {
        self.own & !self.kings
    }
    #[inline(always)]
    fn own_kings(&self) -> u64 {
        self.own & self.kings
    }
    #[inline(always)]
    fn empty<G: Geo>(&self) -> u64 {
        G::MASK & !(self.own | self.opp)
    }
}

/// The men of the side to move that can jump in some allowed direction.
#[inline(always)]
fn man_jumpers<G: Geo>(s: &Sides, rules: &RuleSet) -> u64 {
    let men = s.men();
    if men == 0 {
        return 0;
    }
    let empty = s.empty::<G>();
    let mut j = 0;
    let dirs: &[usize] = if rules.men_capture_backward {
        &ALL_DIRS
    } else {
        &forward(s.us)
    };
    for &d in dirs {
        let back = opposite(d);
        j |= men & shift::<G>(s.opp, back) & shift::<G>(shift::<G>(empty, back), back);
    }
    j
}

/// Whether some king of the side to move can capture.
#[inline(always)]
fn kings_can_capture<G: Geo>(s: &Sides) -> bool {
    let kings = s.own_kings();
    if kings == 0 {
        return false;
    }
    let empty = s.empty::<G>();
    for d in ALL_DIRS {
        let mut fill = kings;
        let mut x = shift::<G>(kings, d) & empty;
        while x != 0 {
            fill |= x;
            x = shift::<G>(x, d) & empty;
        }
        let targets = shift::<G>(fill, d) & s.opp;
        if shift::<G>(targets, d) & empty != 0 {
            return true;
        }
    }
    false
}

/// Whether the side to move has any capture.
#[inline]
pub(crate) fn capture_exists<G: Geo>(s: &Sides, rules: &RuleSet) -> bool {
    man_jumpers::<G>(s, rules) != 0 || kings_can_capture::<G>(s)
}

/// The number of moves without capture.
#[inline]
pub(crate) fn count_quiet<G: Geo>(s: &Sides) -> u64 {
    let empty = s.empty::<G>();
    let men = s.men();
    let [a, b] = forward(s.us);
    let mut n =
        (shift::<G>(men, a) & empty).count_ones() + (shift::<G>(men, b) & empty).count_ones();
    let kings = s.own_kings();
    if kings != 0 {
        for d in ALL_DIRS {
            let mut x = shift::<G>(kings, d) & empty;
            while x != 0 {
                n += x.count_ones();
                x = shift::<G>(x, d) & empty;
            }
        }
    }
    u64::from(n)
}

/// Append the moves without capture.
pub(crate) fn gen_quiet<G: Geo>(s: &Sides, list: &mut MoveList) {
    let empty = s.empty::<G>();
    let men = s.men();
    for d in forward(s.us) {
        let mut targets = shift::<G>(men, d) & empty;
        let back = opposite(d);
        while targets != 0 {
            let t = targets & targets.wrapping_neg();
            targets ^= t;
            let from = shift::<G>(t, back);
            list.push(Move::from_raw(
                G::SIZE,
                &[from.trailing_zeros() as u8, t.trailing_zeros() as u8],
                0,
            ));
        }
    }
    let mut kings = s.own_kings();
    while kings != 0 {
        let k = kings & kings.wrapping_neg();
        kings ^= k;
        let kb = k.trailing_zeros() as u8;
        for d in ALL_DIRS {
            let mut x = shift::<G>(k, d) & empty;
            while x != 0 {
                list.push(Move::from_raw(G::SIZE, &[kb, x.trailing_zeros() as u8], 0));
                x = shift::<G>(x, d) & empty;
            }
        }
    }
}

/// The state of the capture search for one moving piece.
struct Capturer<'a, G: Geo> {
    rules: &'a RuleSet,
    /// Opponent pieces (captured ones stay here until the move ends).
    opp: u64,
    /// Empty squares; the moving piece's start square counts as empty.
    empty: u64,
    /// The mover's promotion row.
    promo: u64,
    /// Directions men capture in.
    man_dirs: &'a [usize],
    /// Start, then landing squares so far.
    path: [u8; 32],
    list: &'a mut MoveList,
    /// Captured count of the moves in the list (majority rule).
    max: u32,
    _g: std::marker::PhantomData<G>,
}

impl<G: Geo> Capturer<'_, G> {
    #[inline]
    fn emit(&mut self, captured: u64, n: usize) {
        let c = captured.count_ones();
        if self.rules.majority_capture {
            if c < self.max {
                return;
            }
            if c > self.max {
                self.list.clear();
                self.max = c;
            }
        }
        let from = self.path[0];
        let to = self.path[n - 1];
        if c >= 2
            && self
                .list
                .iter()
                .any(|m| m.captured().0 == captured && m.from_bit() == from && m.to_bit() == to)
        {
            return;
        }
        self.list
            .push(Move::from_raw(G::SIZE, &self.path[..n], captured));
    }

    /// Continue a man's capture from bit `cur`; `n` squares are in the path.
    fn man(&mut self, cur: u8, captured: u64, n: usize) {
        let cur_bb = 1u64 << cur;
        let mut found = false;
        for i in 0..self.man_dirs.len() {
            let d = self.man_dirs[i];
            let v = shift::<G>(cur_bb, d);
            if v & self.opp & !captured == 0 {
                continue;
            }
            let l = shift::<G>(v, d);
            if l & self.empty == 0 {
                continue;
            }
            found = true;
            let lb = l.trailing_zeros() as u8;
            self.path[n] = lb;
            if self.rules.promotion == Promotion::Immediate && l & self.promo != 0 {
                // Crowned on reaching the back row: the move ends here.
                self.emit(captured | v, n + 1);
            } else {
                self.man(lb, captured | v, n + 1);
            }
        }
        if !found && captured != 0 {
            self.emit(captured, n);
        }
    }

    /// Whether a king on `sq` could capture a piece not in `captured`.
    #[inline]
    fn king_can_continue(&self, sq: u64, captured: u64) -> bool {
        for d in ALL_DIRS {
            let mut s = shift::<G>(sq, d);
            while s & self.empty != 0 {
                s = shift::<G>(s, d);
            }
            if s & self.opp & !captured != 0 && shift::<G>(s, d) & self.empty != 0 {
                return true;
            }
        }
        false
    }

    /// Continue a king's capture from bit `cur`.
    fn king(&mut self, cur: u8, captured: u64, n: usize) {
        let mut found = false;
        for d in ALL_DIRS {
            let mut s = shift::<G>(1u64 << cur, d);
            while s & self.empty != 0 {
                s = shift::<G>(s, d);
            }
            if s & self.opp & !captured == 0 {
                continue;
            }
            let mut l = shift::<G>(s, d);
            if l & self.empty == 0 {
                continue;
            }
            found = true;
            let cap = captured | s;
            match self.rules.king_landing {
                KingLanding::DirectlyBehind => {
                    let lb = l.trailing_zeros() as u8;
                    self.path[n] = lb;
                    self.king(lb, cap, n + 1);
                }
                KingLanding::AnywhereBehind => {
                    let mut lands = 0u64;
                    let mut going_on = 0u64;
                    while l & self.empty != 0 {
                        lands |= l;
                        if self.king_can_continue(l, cap) {
                            going_on |= l;
                        }
                        l = shift::<G>(l, d);
                    }
                    // Where the capture can go on, the king must land so.
                    let mut choice = if going_on != 0 { going_on } else { lands };
                    while choice != 0 {
                        let lb = choice.trailing_zeros() as u8;
                        choice &= choice - 1;
                        self.path[n] = lb;
                        self.king(lb, cap, n + 1);
                    }
                }
            }
        }
        if !found && captured != 0 {
            self.emit(captured, n);
        }
    }
}

/// Append every capture (majority rule applied, duplicates merged). The
/// list must hold no captures yet.
pub(crate) fn gen_captures<G: Geo>(s: &Sides, rules: &RuleSet, list: &mut MoveList) {
    let empty = s.empty::<G>();
    let fwd = forward(s.us);
    let man_dirs: &[usize] = if rules.men_capture_backward {
        &ALL_DIRS
    } else {
        &fwd
    };
    let mut c = Capturer::<G> {
        rules,
        opp: s.opp,
        empty,
        promo: G::SIZE.promotion_row(s.us).0,
        man_dirs,
        path: [0; 32],
        list,
        max: 0,
        _g: std::marker::PhantomData,
    };
    let mut jumpers = man_jumpers::<G>(s, rules);
    while jumpers != 0 {
        let b = jumpers.trailing_zeros() as u8;
        jumpers &= jumpers - 1;
        c.empty = empty | 1u64 << b;
        c.path[0] = b;
        c.man(b, 0, 1);
    }
    if kings_can_capture::<G>(s) {
        let mut kings = s.own_kings();
        while kings != 0 {
            let b = kings.trailing_zeros() as u8;
            kings &= kings - 1;
            c.empty = empty | 1u64 << b;
            c.path[0] = b;
            c.king(b, 0, 1);
        }
    }
}

/// Append all legal moves. With `strict` the capture obligation holds even
/// when huffing is on.
#[inline]
pub(crate) fn generate<G: Geo>(s: &Sides, rules: &RuleSet, list: &mut MoveList, strict: bool) {
    if capture_exists::<G>(s, rules) {
        gen_captures::<G>(s, rules, list);
        if strict || !rules.huffing {
            return;
        }
    }
    gen_quiet::<G>(s, list);
}

/// The number of legal moves (bulk counting).
#[inline]
pub(crate) fn count<G: Geo>(s: &Sides, rules: &RuleSet) -> u64 {
    if capture_exists::<G>(s, rules) {
        let mut list = MoveList::new();
        gen_captures::<G>(s, rules, &mut list);
        let n = list.len() as u64;
        if rules.huffing {
            return n + count_quiet::<G>(s);
        }
        return n;
    }
    count_quiet::<G>(s)
}

/// Whether the side to move has any legal move.
#[inline]
pub(crate) fn any_move<G: Geo>(s: &Sides, rules: &RuleSet) -> bool {
    capture_exists::<G>(s, rules) || count_quiet::<G>(s) != 0
}
