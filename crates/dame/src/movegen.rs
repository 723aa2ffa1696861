//! Allocation-free move generation on the padded bitboards (see
//! [`crate::board`]), monomorphised per board so every shift is a constant.
//!
//! Direction indices: 0 up-left, 1 up-right, 2 down-left, 3 down-right
//! ("up" is towards Black's back row, the way White's men move).

use crate::{BoardSize, Color, KingCapture, KingLanding, Move, MoveList, Promotion, RuleSet};

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
        Color::White => fwd::<true>(),
        Color::Black => fwd::<false>(),
    }
}

const ALL_DIRS: [usize; 4] = [0, 1, 2, 3];

/// The forward directions of the side to move (`W`: White).
#[inline(always)]
const fn fwd<const W: bool>() -> [usize; 2] {
    if W { [0, 1] } else { [2, 3] }
}

/// Run `$body` once per direction men of the side to move capture in
/// (`$w`: White; `$b`: backward too), forward directions first, with `$d` a
/// constant (so the shifts compile to single instructions).
macro_rules! for_man_capture_dirs {
    ($w:expr, $b:expr, $d:ident => $body:block) => {{
        if $w {
            for_man_capture_dirs!(@dirs [0, 1], [2, 3], $b, $d => $body)
        } else {
            for_man_capture_dirs!(@dirs [2, 3], [0, 1], $b, $d => $body)
        }
    }};
    // The forward directions, then the backward ones if `$b`.
    (@dirs [$f0:literal, $f1:literal], [$b0:literal, $b1:literal], $b:expr, $d:ident => $body:block) => {{
        for_man_capture_dirs!(@one $f0, $d => $body);
        for_man_capture_dirs!(@one $f1, $d => $body);
        if $b {
            for_man_capture_dirs!(@one $b0, $d => $body);
            for_man_capture_dirs!(@one $b1, $d => $body);
        }
    }};
    (@one $dir:literal, $d:ident => $body:block) => {{
        const $d: usize = $dir;
        $body
    }};
}

/// Call `$f::<G, W, B>` for the side to move and the backward-capture option
/// (compile-time constants in the hot paths).
macro_rules! dispatch {
    ($f:ident::<$g:ty>($s:expr, $rules:expr $(, $arg:expr)*)) => {
        match ($s.us, $rules.men_capture_backward) {
            (Color::White, false) => $f::<$g, true, false>($s, $rules $(, $arg)*),
            (Color::Black, false) => $f::<$g, false, false>($s, $rules $(, $arg)*),
            (Color::White, true) => $f::<$g, true, true>($s, $rules $(, $arg)*),
            (Color::Black, true) => $f::<$g, false, true>($s, $rules $(, $arg)*),
        }
    };
}

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

/// The men in `men` that can jump an `opp` piece in direction `D` onto an
/// empty square (the direction is a constant, so every shift is one
/// instruction).
#[inline(always)]
fn jumpers_d<G: Geo, const D: usize>(men: u64, opp: u64, empty: u64) -> u64 {
    let back = opposite(D);
    men & shift::<G>(opp, back) & shift::<G>(shift::<G>(empty, back), back)
}

/// The men in `men` that can jump an `opp` piece forward (`W`: White's
/// forward) onto an empty square, one set for each forward direction.
#[inline(always)]
fn forward_jumpers<G: Geo, const W: bool>(men: u64, opp: u64, empty: u64) -> (u64, u64) {
    if W {
        (
            jumpers_d::<G, 0>(men, opp, empty),
            jumpers_d::<G, 1>(men, opp, empty),
        )
    } else {
        (
            jumpers_d::<G, 2>(men, opp, empty),
            jumpers_d::<G, 3>(men, opp, empty),
        )
    }
}

/// The men of the side to move that can jump in some allowed direction.
#[inline(always)]
fn man_jumpers<G: Geo, const W: bool, const B: bool>(s: &Sides) -> u64 {
    let men = s.men();
    if men == 0 {
        return 0;
    }
    let empty = s.empty::<G>();
    let up = || jumpers_d::<G, 0>(men, s.opp, empty) | jumpers_d::<G, 1>(men, s.opp, empty);
    let down = || jumpers_d::<G, 2>(men, s.opp, empty) | jumpers_d::<G, 3>(men, s.opp, empty);
    match (W, B) {
        (true, false) => up(),
        (false, false) => down(),
        _ => up() | down(),
    }
}

/// Whether a king in `kings` can capture in direction `D`: slide over empty
/// squares (`long`: [`KingCapture::Long`]; else only from the next
/// square), then an opponent piece with an empty square behind it.
#[inline(always)]
fn king_captures_d<G: Geo, const D: usize>(kings: u64, opp: u64, empty: u64, long: bool) -> bool {
    let mut fill = kings;
    if long {
        let mut x = shift::<G>(kings, D) & empty;
        while x != 0 {
            fill |= x;
            x = shift::<G>(x, D) & empty;
        }
    }
    let targets = shift::<G>(fill, D) & opp;
    shift::<G>(targets, D) & empty != 0
}

/// Whether some king of the side to move can capture.
#[inline(always)]
fn kings_can_capture<G: Geo>(s: &Sides, rules: &RuleSet) -> bool {
    let kings = s.own_kings();
    if kings == 0 {
        return false;
    }
    let empty = s.empty::<G>();
    let long = rules.king_capture == KingCapture::Long;
    king_captures_d::<G, 0>(kings, s.opp, empty, long)
        || king_captures_d::<G, 1>(kings, s.opp, empty, long)
        || king_captures_d::<G, 2>(kings, s.opp, empty, long)
        || king_captures_d::<G, 3>(kings, s.opp, empty, long)
}

#[inline(always)]
fn capture_exists_c<G: Geo, const W: bool, const B: bool>(s: &Sides, rules: &RuleSet) -> bool {
    man_jumpers::<G, W, B>(s) != 0 || kings_can_capture::<G>(s, rules)
}

/// Whether the side to move has any capture.
#[inline]
pub(crate) fn capture_exists<G: Geo>(s: &Sides, rules: &RuleSet) -> bool {
    dispatch!(capture_exists_c::<G>(s, rules))
}

/// The number of king moves without capture in direction `D`.
#[inline(always)]
fn king_quiet_d<G: Geo, const D: usize>(kings: u64, empty: u64) -> u32 {
    let mut n = 0;
    let mut x = shift::<G>(kings, D) & empty;
    while x != 0 {
        n += x.count_ones();
        x = shift::<G>(x, D) & empty;
    }
    n
}

#[inline(always)]
fn count_quiet_c<G: Geo, const W: bool>(s: &Sides) -> u64 {
    let empty = s.empty::<G>();
    let men = s.men();
    let mut n = if W {
        (shift::<G>(men, 0) & empty).count_ones() + (shift::<G>(men, 1) & empty).count_ones()
    } else {
        (shift::<G>(men, 2) & empty).count_ones() + (shift::<G>(men, 3) & empty).count_ones()
    };
    let kings = s.own_kings();
    if kings != 0 {
        n += king_quiet_d::<G, 0>(kings, empty)
            + king_quiet_d::<G, 1>(kings, empty)
            + king_quiet_d::<G, 2>(kings, empty)
            + king_quiet_d::<G, 3>(kings, empty);
    }
    u64::from(n)
}

/// The number of moves without capture.
#[inline]
pub(crate) fn count_quiet<G: Geo>(s: &Sides) -> u64 {
    match s.us {
        Color::White => count_quiet_c::<G, true>(s),
        Color::Black => count_quiet_c::<G, false>(s),
    }
}

/// Append the moves without capture.
#[inline(always)]
fn gen_quiet<G: Geo, const W: bool>(s: &Sides, list: &mut MoveList) {
    let empty = s.empty::<G>();
    let men = s.men();
    for d in fwd::<W>() {
        let mut targets = shift::<G>(men, d) & empty;
        let back = opposite(d);
        while targets != 0 {
            let t = targets & targets.wrapping_neg();
            targets ^= t;
            let from = shift::<G>(t, back);
            list.push(Move::quiet_raw(
                G::SIZE,
                from.trailing_zeros() as u8,
                t.trailing_zeros() as u8,
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
                list.push(Move::quiet_raw(G::SIZE, kb, x.trailing_zeros() as u8));
                x = shift::<G>(x, d) & empty;
            }
        }
    }
}

/// Call `f(from, to)` (single bits) for every move without capture.
#[inline(always)]
pub(crate) fn for_each_quiet<G: Geo>(s: &Sides, mut f: impl FnMut(u64, u64)) {
    for_each_quiet_by_kind::<G>(s, |_, from, to| f(from, to));
}

/// Call `f(king, from, to)` (single bits) for every move without capture:
/// the men's moves (`king` false), then the kings' (`king` true).
#[inline(always)]
fn for_each_quiet_by_kind<G: Geo>(s: &Sides, mut f: impl FnMut(bool, u64, u64)) {
    let empty = s.empty::<G>();
    let men = s.men();
    for d in forward(s.us) {
        let back = opposite(d);
        let mut targets = shift::<G>(men, d) & empty;
        while targets != 0 {
            let t = targets & targets.wrapping_neg();
            targets ^= t;
            f(false, shift::<G>(t, back), t);
        }
    }
    let mut kings = s.own_kings();
    while kings != 0 {
        let k = kings & kings.wrapping_neg();
        kings ^= k;
        for d in ALL_DIRS {
            let mut x = shift::<G>(k, d) & empty;
            while x != 0 {
                f(true, k, x & x.wrapping_neg());
                x = shift::<G>(x, d) & empty;
            }
        }
    }
}

/// Where the capture search puts the captures it finds.
pub(crate) trait CaptureSink {
    /// Forget every capture found so far (a longer one was found under the
    /// majority rule).
    fn clear(&mut self);
    /// Whether a capture with this start, end and captured set is held.
    fn contains(&self, from: u8, to: u8, captured: u64) -> bool;
    /// Add a capture: the path buffer with `n` squares used.
    fn add(&mut self, size: BoardSize, path: &[u8; 32], n: usize, captured: u64);
}

impl CaptureSink for MoveList {
    #[inline]
    fn clear(&mut self) {
        MoveList::clear(self);
    }
    #[inline]
    fn contains(&self, from: u8, to: u8, captured: u64) -> bool {
        self.iter()
            .any(|m| m.captured().0 == captured && m.start_bit() == from && m.end_bit() == to)
    }
    #[inline]
    fn add(&mut self, size: BoardSize, path: &[u8; 32], n: usize, captured: u64) {
        self.push(Move::capture_raw(size, path, n, captured));
    }
}

/// Counts captures without building moves; keeps the keys of captures of
/// two or more pieces (only those can have duplicates).
#[derive(Default)]
pub(crate) struct CaptureCounter {
    pub n: u64,
    keys: arrayvec::ArrayVec<(u64, u8, u8), 64>,
    more: Vec<(u64, u8, u8)>,
}

impl CaptureSink for CaptureCounter {
    #[inline]
    fn clear(&mut self) {
        self.n = 0;
        self.keys.clear();
        self.more.clear();
    }
    #[inline]
    fn contains(&self, from: u8, to: u8, captured: u64) -> bool {
        let k = (captured, from, to);
        self.keys.contains(&k) || self.more.contains(&k)
    }
    #[inline]
    fn add(&mut self, _size: BoardSize, path: &[u8; 32], n: usize, captured: u64) {
        self.n += 1;
        if captured.count_ones() >= 2 {
            let k = (captured, path[0], path[n - 1]);
            if let Err(e) = self.keys.try_push(k) {
                self.more.push(e.element());
            }
        }
    }
}

/// The state of the capture search for one moving piece.
struct Capturer<'a, G: Geo, S: CaptureSink, const W: bool, const B: bool> {
    rules: &'a RuleSet,
    /// Opponent pieces (captured ones stay here until the move ends).
    opp: u64,
    /// Empty squares; the moving piece's start square counts as empty.
    empty: u64,
    /// The mover's promotion row.
    promo: u64,
    /// Start, then landing squares so far.
    path: [u8; 32],
    sink: &'a mut S,
    /// Captured count of the moves in the list (majority rule).
    max: u32,
    _g: std::marker::PhantomData<G>,
}

impl<G: Geo, S: CaptureSink, const W: bool, const B: bool> Capturer<'_, G, S, W, B> {
    #[inline]
    fn emit(&mut self, captured: u64, n: usize) {
        let c = captured.count_ones();
        if self.rules.majority_capture {
            if c < self.max {
                return;
            }
            if c > self.max {
                self.sink.clear();
                self.max = c;
            }
        }
        if c >= 2 && self.sink.contains(self.path[0], self.path[n - 1], captured) {
            return;
        }
        self.sink.add(G::SIZE, &self.path, n, captured);
    }

    /// Whether a man on `sq` could jump a piece not in `captured`.
    #[inline(always)]
    fn man_can_continue(&self, sq: u64, captured: u64) -> bool {
        if self.rules.promotion == Promotion::Immediate && sq & self.promo != 0 {
            return false;
        }
        for_man_capture_dirs!(W, B, D => {
            let v = shift::<G>(sq, D);
            if v & self.opp & !captured != 0 && shift::<G>(v, D) & self.empty != 0 {
                return true;
            }
        });
        false
    }

    /// All captures of the men in `men`. A first jump that cannot go on is
    /// emitted at once; the others continue in [`Capturer::man`].
    #[inline]
    fn men(&mut self, men: u64, empty: u64) {
        for_man_capture_dirs!(W, B, D => {
            let back = opposite(D);
            let mut j =
                men & shift::<G>(self.opp, back) & shift::<G>(shift::<G>(empty, back), back);
            while j != 0 {
                let jb = j & j.wrapping_neg();
                j ^= jb;
                let v = shift::<G>(jb, D);
                let l = shift::<G>(v, D);
                let lb = l.trailing_zeros() as u8;
                self.path[0] = jb.trailing_zeros() as u8;
                self.path[1] = lb;
                self.empty = empty | jb;
                if self.man_can_continue(l, v) {
                    self.man(lb, v, 2);
                } else {
                    self.emit(v, 2);
                }
            }
        });
    }

    /// Continue a man's capture from bit `cur`; `n` squares are in the path.
    fn man(&mut self, cur: u8, captured: u64, n: usize) {
        let cur_bb = 1u64 << cur;
        let mut found = false;
        for_man_capture_dirs!(W, B, D => {
            let v = shift::<G>(cur_bb, D);
            let l = shift::<G>(v, D);
            if v & self.opp & !captured != 0 && l & self.empty != 0 {
                found = true;
                let lb = l.trailing_zeros() as u8;
                self.path[n] = lb;
                if self.man_can_continue(l, captured | v) {
                    self.man(lb, captured | v, n + 1);
                } else {
                    self.emit(captured | v, n + 1);
                }
            }
        });
        if !found && captured != 0 {
            self.emit(captured, n);
        }
    }

    /// The first square in direction `d` from a king on `sq` that is not
    /// empty (or off the board): the piece it could jump. Under
    /// [`KingCapture::Short`] only the next square.
    #[inline(always)]
    fn king_target<const LONG: bool>(&self, sq: u64, d: usize) -> u64 {
        let mut s = shift::<G>(sq, d);
        if LONG {
            while s & self.empty != 0 {
                s = shift::<G>(s, d);
            }
        }
        s
    }

    /// Whether a king on `sq` could capture a piece not in `captured`.
    #[inline]
    fn king_can_continue<const LONG: bool>(&self, sq: u64, captured: u64) -> bool {
        for d in ALL_DIRS {
            let s = self.king_target::<LONG>(sq, d);
            if s & self.opp & !captured != 0 && shift::<G>(s, d) & self.empty != 0 {
                return true;
            }
        }
        false
    }

    /// Continue a king's capture from bit `cur` (`LONG`: kings capture
    /// from a distance, [`KingCapture::Long`]).
    fn king<const LONG: bool>(&mut self, cur: u8, captured: u64, n: usize) {
        let mut found = false;
        for d in ALL_DIRS {
            let s = self.king_target::<LONG>(1u64 << cur, d);
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
                    self.king::<LONG>(lb, cap, n + 1);
                }
                KingLanding::AnywhereBehind => {
                    let mut lands = 0u64;
                    let mut going_on = 0u64;
                    while l & self.empty != 0 {
                        lands |= l;
                        if self.king_can_continue::<LONG>(l, cap) {
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
                        self.king::<LONG>(lb, cap, n + 1);
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
/// sink must hold no captures yet.
#[inline(always)]
fn gen_captures<G: Geo, const W: bool, const B: bool, S: CaptureSink>(
    s: &Sides,
    rules: &RuleSet,
    sink: &mut S,
) {
    let empty = s.empty::<G>();
    let mut c = Capturer::<G, S, W, B> {
        rules,
        opp: s.opp,
        empty,
        promo: G::SIZE.promotion_row(s.us).0,
        path: [0; 32],
        sink,
        max: 0,
        _g: std::marker::PhantomData,
    };
    let men = s.men();
    if men != 0 {
        c.men(men, empty);
    }
    if kings_can_capture::<G>(s, rules) {
        let mut kings = s.own_kings();
        while kings != 0 {
            let b = kings.trailing_zeros() as u8;
            kings &= kings - 1;
            c.empty = empty | 1u64 << b;
            c.path[0] = b;
            if rules.king_capture == KingCapture::Long {
                c.king::<true>(b, 0, 1);
            } else {
                c.king::<false>(b, 0, 1);
            }
        }
    }
}

#[inline(always)]
fn generate_c<G: Geo, const W: bool, const B: bool>(
    s: &Sides,
    rules: &RuleSet,
    list: &mut MoveList,
    strict: bool,
) {
    if capture_exists_c::<G, W, B>(s, rules) {
        gen_captures::<G, W, B, MoveList>(s, rules, list);
        if strict || !rules.huffing {
            return;
        }
    }
    gen_quiet::<G, W>(s, list);
}

/// Append all legal moves. With `strict` the capture obligation holds even
/// when huffing is on.
pub(crate) fn generate<G: Geo>(s: &Sides, rules: &RuleSet, list: &mut MoveList, strict: bool) {
    dispatch!(generate_c::<G>(s, rules, list, strict))
}

#[inline(always)]
fn count_c<G: Geo, const W: bool, const B: bool>(s: &Sides, rules: &RuleSet) -> u64 {
    if !B && !kings_can_capture::<G>(s, rules) {
        // Men capturing forward only, no king capture: when no man could go
        // on after its first jump, every capture takes one piece and the
        // captures are counted from the bitboards.
        let men = s.men();
        let empty = s.empty::<G>();
        let (a, b) = forward_jumpers::<G, W>(men, s.opp, empty);
        if a | b == 0 {
            return count_quiet_c::<G, W>(s);
        }
        let (da, db) = if W { (0, 1) } else { (2, 3) };
        let mut landing = shift::<G>(shift::<G>(a, da), da) | shift::<G>(shift::<G>(b, db), db);
        if rules.promotion == Promotion::Immediate {
            landing &= !G::SIZE.promotion_row(s.us).0;
        }
        // The jumpers' squares count as empty: a superset of what any one
        // capture sees, so `go_on == 0` is exact and otherwise the full
        // search below decides.
        let wider = empty | a | b;
        let (go_on_a, go_on_b) = forward_jumpers::<G, W>(landing, s.opp, wider);
        if go_on_a | go_on_b == 0 {
            let n = u64::from(a.count_ones() + b.count_ones());
            return if rules.huffing {
                n + count_quiet_c::<G, W>(s)
            } else {
                n
            };
        }
    }
    if capture_exists_c::<G, W, B>(s, rules) {
        let mut counter = CaptureCounter::default();
        gen_captures::<G, W, B, _>(s, rules, &mut counter);
        let n = counter.n;
        if rules.huffing {
            return n + count_quiet_c::<G, W>(s);
        }
        return n;
    }
    count_quiet_c::<G, W>(s)
}

/// The number of legal moves (bulk counting). The most common case — no
/// kings, men capturing forward only, no capture — is counted inline in a
/// few instructions; everything else in [`count_full`].
#[inline(always)]
pub(crate) fn count<G: Geo>(s: &Sides, rules: &RuleSet) -> u64 {
    match s.us {
        Color::White => count_fast::<G, true>(s, rules),
        Color::Black => count_fast::<G, false>(s, rules),
    }
}

#[inline(always)]
fn count_fast<G: Geo, const W: bool>(s: &Sides, rules: &RuleSet) -> u64 {
    if s.own_kings() == 0 && !rules.men_capture_backward {
        let men = s.own;
        let empty = s.empty::<G>();
        let (a, b) = forward_jumpers::<G, W>(men, s.opp, empty);
        if a | b == 0 {
            let n = if W {
                (shift::<G>(men, 0) & empty).count_ones()
                    + (shift::<G>(men, 1) & empty).count_ones()
            } else {
                (shift::<G>(men, 2) & empty).count_ones()
                    + (shift::<G>(men, 3) & empty).count_ones()
            };
            return u64::from(n);
        }
    }
    count_full::<G>(s, rules)
}

/// [`count`] for every position.
#[inline(never)]
fn count_full<G: Geo>(s: &Sides, rules: &RuleSet) -> u64 {
    dispatch!(count_c::<G>(s, rules))
}

/// Whether the side to move has any legal move.
#[inline]
pub(crate) fn any_move<G: Geo>(s: &Sides, rules: &RuleSet) -> bool {
    capture_exists::<G>(s, rules) || count_quiet::<G>(s) != 0
}

/// perft(2) of a position in which the side to move has no capture (and
/// huffing is off): every move without capture is applied to the bitboards
/// and the replies counted, without building moves or positions. `None`
/// when the position does not qualify. `king_moves` is the position's
/// king-move counter; the draws a child shows by itself count no replies.
/// The ending counter is not kept: the caller does not use this where it
/// could end the game (see `Position::ending_counter_may_move`).
pub(crate) fn perft2_quiet<G: Geo>(s: &Sides, rules: &RuleSet, king_moves: u16) -> Option<u64> {
    if rules.huffing || capture_exists::<G>(s, rules) {
        return None;
    }
    let them = s.us.other();
    let promo = G::SIZE.promotion_row(s.us).0;
    let opp_is_lone_king =
        rules.one_king_each_draw && s.opp.count_ones() == 1 && s.opp & s.kings != 0;
    let child = |own: u64, kings: u64, king_moves: u16| -> u64 {
        if matches!(rules.king_move_draw, Some(n) if king_moves >= n) {
            return 0;
        }
        if opp_is_lone_king && own.count_ones() == 1 && own & kings != 0 {
            return 0; // one king each
        }
        let reply = Sides {
            us: them,
            own: s.opp,
            opp: own,
            kings,
        };
        count::<G>(&reply, rules)
    };
    let mut total = 0;
    let next_king_moves = king_moves.saturating_add(1);
    for_each_quiet_by_kind::<G>(s, |king, from, to| {
        total += if king {
            child(s.own ^ from ^ to, s.kings ^ from ^ to, next_king_moves)
        } else {
            child(s.own ^ from ^ to, s.kings | (to & promo), 0)
        };
    });
    Some(total)
}
