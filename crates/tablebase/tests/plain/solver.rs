//! A plain solver of the moving phase for the tests: every placement of the
//! stones is its own position (no symmetries), the rules come from the rules
//! crate alone, and nothing of the `tablebase` crate is used.
//!
//! Values are kept as `u16` codes: `n` is a loss in `n` plies, `WIN | n` a
//! win in `n`, [`DRAW`] a draw.
//!
//! A group (a sector `a-b` and its swap `b-a`) is solved by retrograde
//! analysis in rounds: round `n` settles exactly the positions whose value
//! has distance `n`, then takes back their moves. Successors are counted with
//! the rules crate's move generator; predecessors are generated here, with
//! the rules crate deciding whether the opponent flies and whether its move
//! closed a mill with a stone to remove (then it left the group).
//!
//! Finally every position is checked against all its successors through the
//! rules crate's move generator ([`check`]). A table that agrees with its
//! successors everywhere is the exact solution: by induction on the distance
//! `d`, a position is labelled a win or loss in `d` exactly when it is one
//! (a labelled win in `d` has a successor labelled a loss in `d - 1` and none
//! shorter, a labelled loss in `d` has only successors labelled wins, the
//! longest in `d - 1`), so what is left, the draws, is right as well.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU8, AtomicU16, AtomicUsize, Ordering::Relaxed};

use muehle::{Bitboard, Color, Move, Phase, Position, RuleSet, Setup};

/// All 24 points.
pub const FULL: u32 = 0x00FF_FFFF;
/// Code flag of a win.
pub const WIN: u16 = 0x8000;
/// Code of a draw.
pub const DRAW: u16 = 0xFFFE;
/// Code of a position not settled yet.
const UNKNOWN: u16 = 0xFFFF;
/// `aux` flag: a move out of the group wins (low bits: its distance).
const PENDING_WIN: u16 = 0x8000;
/// `aux` flag: a move out of the group draws, so the position is no loss.
const NO_LOSS: u16 = 0x4000;

/// `C(n, k)` for `n, k <= 24`, by Pascal's triangle.
static BINOM: [[usize; 25]; 25] = {
    let mut t = [[0usize; 25]; 25];
    let mut n = 0;
    while n < 25 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + t[n - 1][k];
            k += 1;
        }
        n += 1;
    }
    t
};

/// The rank of a set among the sets of its size, in increasing order of the
/// sets as numbers: `sum C(p_i, i)` over its points `p_1 < p_2 < ...`.
#[inline]
fn rank(set: u32) -> usize {
    let byte = |j: u32| ((set >> (8 * j)) & 0xFF) as usize;
    let below1 = (set & 0xFF).count_ones() as usize;
    let below2 = (set & 0xFFFF).count_ones() as usize;
    (RANK_BYTES[0][byte(0)][0] + RANK_BYTES[1][byte(1)][below1] + RANK_BYTES[2][byte(2)][below2])
        as usize
}

/// `RANK_BYTES[j][byte][below]`: what the points of byte `j` add to the rank
/// of a set with `below` points in the lower bytes.
static RANK_BYTES: [[[u32; 25]; 256]; 3] = {
    let mut t = [[[0u32; 25]; 256]; 3];
    let mut j = 0;
    while j < 3 {
        let mut byte = 0;
        while byte < 256 {
            let mut below = 0;
            while below < 25 {
                let (mut sum, mut i, mut q) = (0, below, 0);
                while q < 8 {
                    if byte & (1 << q) != 0 && i < 24 {
                        i += 1;
                        sum += BINOM[8 * j + q][i];
                    }
                    q += 1;
                }
                t[j][byte][below] = sum as u32;
                below += 1;
            }
            byte += 1;
        }
        j += 1;
    }
    t
};

/// The rank of `set` renumbered on the points not in `taken`: the rank of
/// [`squeeze`]`(set, taken)`.
#[inline]
fn rank_on(set: u32, taken: u32) -> usize {
    let mut r = 0;
    let mut i = 0;
    let mut s = set;
    while s != 0 {
        let p = s.trailing_zeros();
        i += 1;
        r += BINOM[(p - (taken & ((1 << p) - 1)).count_ones()) as usize][i];
        s &= s - 1;
    }
    r
}

/// The `k`-set of rank `r` (inverse of [`rank`]).
fn unrank(mut r: usize, k: usize) -> u32 {
    let mut set = 0;
    let mut p = 24;
    for i in (1..=k).rev() {
        p -= 1;
        while BINOM[p][i] > r {
            p -= 1;
        }
        r -= BINOM[p][i];
        set |= 1 << p;
    }
    set
}

/// The next larger number with as many bits (Gosper).
fn next_set(s: u32) -> u32 {
    let low = s & s.wrapping_neg();
    let r = s + low;
    (((r ^ s) >> 2) / low) | r
}

/// `set` (disjoint from `taken`) renumbered on the points not in `taken`.
fn squeeze(set: u32, taken: u32) -> u32 {
    let mut out = 0;
    let mut s = set;
    while s != 0 {
        let p = s.trailing_zeros();
        out |= 1 << (p - (taken & ((1 << p) - 1)).count_ones());
        s &= s - 1;
    }
    out
}

/// The inverse of [`squeeze`]: bit `k` of `sub` stands for the `k`-th point
/// of `free`.
fn spread(sub: u32, free: u32) -> u32 {
    let mut out = 0;
    let mut f = free;
    let mut k = 0;
    while f != 0 {
        let p = f & f.wrapping_neg();
        if sub & (1 << k) != 0 {
            out |= p;
        }
        k += 1;
        f &= f - 1;
    }
    out
}

/// The positions with `a` stones to move against `b`:
/// `index = rank(mover) * C(24 - a, b) + rank(other squeezed onto the free points)`.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    pub a: u32,
    pub b: u32,
    /// Positions per set of the mover's stones.
    pub per: usize,
    /// Positions in all.
    pub size: usize,
    /// Sets of the mover's stones.
    pub movers: usize,
}

impl Shape {
    pub fn new(a: u32, b: u32) -> Shape {
        let per = BINOM[24 - a as usize][b as usize];
        let movers = BINOM[24][a as usize];
        Shape {
            a,
            b,
            per,
            size: movers * per,
            movers,
        }
    }

    #[inline]
    pub fn index(&self, mover: u32, other: u32) -> usize {
        rank(mover) * self.per + rank_on(other, mover)
    }

    /// The mover's stones of block `r` (positions `r * per ..`).
    pub fn mover(&self, r: usize) -> u32 {
        unrank(r, self.a as usize)
    }

    /// The opponent's stones of position `j` in the block of `mover`.
    pub fn other(&self, mover: u32, j: usize) -> u32 {
        spread(unrank(j, self.b as usize), !mover & FULL)
    }

    /// Every position of block `r` in index order: `f(j, mover, other)`.
    pub fn for_each_in_block(&self, r: usize, mut f: impl FnMut(usize, u32, u32)) {
        let mover = self.mover(r);
        let free = !mover & FULL;
        let mut sub: u32 = (1 << self.b) - 1;
        for j in 0..self.per {
            f(j, mover, spread(sub, free));
            sub = next_set(sub);
        }
    }

    /// Every position whose opponent's stones are set number `r` (of
    /// `C(24, b)`): `f(mover, other)`. Their successors lie together.
    pub fn for_each_with_other(&self, r: usize, mut f: impl FnMut(u32, u32)) {
        let other = unrank(r, self.b as usize);
        let free = !other & FULL;
        let mut sub: u32 = (1 << self.a) - 1;
        for _ in 0..BINOM[24 - self.b as usize][self.a as usize] {
            f(spread(sub, free), other);
            sub = next_set(sub);
        }
    }
}

/// A code in words: `win N`, `draw` or `loss N`.
pub fn describe(code: u16) -> String {
    match code {
        DRAW => "draw".to_string(),
        UNKNOWN => "unknown".to_string(),
        c if c & WIN != 0 => format!("win {}", c & !WIN),
        c => format!("loss {c}"),
    }
}

/// The code of the position before a move to a position of code `c`.
fn back(c: u16) -> u16 {
    match c {
        DRAW => DRAW,
        c if c & WIN != 0 => (c & !WIN) + 1,
        c => WIN | (c + 1),
    }
}

/// Order for the side to move: higher is better.
fn goodness(c: u16) -> i32 {
    match c {
        DRAW => 0,
        c if c & WIN != 0 => 100_000 - i32::from(c & !WIN),
        c => -100_000 + i32::from(c),
    }
}

/// The position with `mover`'s stones (White) to move against `other`'s
/// (Black), nothing in hand, the no-mill counter at 0.
pub fn position(rules: RuleSet, mover: u32, other: u32) -> Position {
    Position::from_setup(
        Setup {
            stones: [Bitboard(mover), Bitboard(other)],
            in_hand: [0, 0],
            turn: Color::White,
            plies_since_mill: 0,
            move_number: 1,
        },
        rules,
    )
    .expect("a valid position")
}

/// The successor after `m`: (stones of the side to move next, of the other).
fn after(p: &Position, m: Move) -> (u32, u32) {
    let mut next = *p;
    next.play_unchecked(m);
    (next.stones(Color::Black).0, next.stones(Color::White).0)
}

/// Run `f(task)` for tasks `0..n` on all cores.
pub fn par_for(n: usize, f: impl Fn(usize) + Sync) {
    let next = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism()
        .map_or(2, |t| t.get())
        .min(8);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                loop {
                    let t = next.fetch_add(1, Relaxed);
                    if t >= n {
                        break;
                    }
                    f(t);
                }
            });
        }
    });
}

/// Solved sectors by `(a, b)`: the codes of all positions.
pub type Solved = HashMap<(u32, u32), Vec<u16>>;

struct Part<'a> {
    shape: Shape,
    /// Part number of the swapped sector.
    swap: usize,
    /// The solved sector a removal leads to; `None`: the opponent is left
    /// with two stones.
    lower: Option<(Shape, &'a [u16])>,
    vals: Vec<AtomicU16>,
    cnt: Vec<AtomicU8>,
    aux: Vec<AtomicU16>,
}

fn atomics16(n: usize, v: u16) -> Vec<AtomicU16> {
    (0..n).map(|_| AtomicU16::new(v)).collect()
}

/// The value of the child after a removal, from the solved sectors.
fn lower_value(lower: Option<(Shape, &[u16])>, mover: u32, other: u32) -> u16 {
    match lower {
        None => {
            assert!(mover.count_ones() < 3);
            0 // the opponent has lost
        }
        Some((s, v)) => v[s.index(mover, other)],
    }
}

/// Solve the group of sector `a-b` (and `b-a`) under `rules`, with the
/// sectors a removal leads to in `solved`; adds the group to `solved`.
pub fn solve_group(rules: RuleSet, a: u32, b: u32, solved: &mut Solved) {
    let mut keys = vec![(a, b)];
    if a != b {
        keys.push((b, a));
    }
    let mut parts: Vec<Part> = keys
        .iter()
        .map(|&(x, y)| {
            let shape = Shape::new(x, y);
            let lower = if y > 3 {
                let v = solved
                    .get(&(y - 1, x))
                    .unwrap_or_else(|| panic!("sector {}-{x} solved first", y - 1));
                Some((Shape::new(y - 1, x), v.as_slice()))
            } else {
                None
            };
            Part {
                shape,
                swap: keys.iter().position(|&k| k == (y, x)).unwrap(),
                lower,
                vals: atomics16(shape.size, UNKNOWN),
                cnt: (0..shape.size).map(|_| AtomicU8::new(0)).collect(),
                aux: atomics16(shape.size, 0),
            }
        })
        .collect();
    let tasks: Vec<(usize, usize)> = parts
        .iter()
        .enumerate()
        .flat_map(|(p, part)| (0..part.shape.movers).map(move |r| (p, r)))
        .collect();
    let top = AtomicU16::new(0);
    let clock = std::time::Instant::now();

    // Start: moves out of the group and the number of moves inside it.
    par_for(tasks.len(), |t| {
        let (p, r) = tasks[t];
        let part = &parts[p];
        let sh = part.shape;
        let mut longest = 0;
        sh.for_each_in_block(r, |j, mover, other| {
            let i = r * sh.per + j;
            assert_eq!(sh.index(mover, other), i, "the index numbers the positions");
            let pos = position(rules, mover, other);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                part.vals[i].store(0, Relaxed);
                return;
            }
            let (mut inside, mut win, mut floor, mut draw) = (0u32, u16::MAX, 0u16, false);
            for &m in &moves {
                let (nm, no) = after(&pos, m);
                assert_eq!(no.count_ones(), sh.a);
                if nm.count_ones() == sh.b {
                    inside += 1;
                    continue;
                }
                assert_eq!(nm.count_ones(), sh.b - 1);
                let c = back(lower_value(part.lower, nm, no));
                match c {
                    DRAW => draw = true,
                    c if c & WIN != 0 => win = win.min(c & !WIN),
                    c => floor = floor.max(c),
                }
            }
            let v = if inside == 0 {
                if win != u16::MAX {
                    WIN | win
                } else if draw {
                    DRAW
                } else {
                    floor
                }
            } else {
                part.cnt[i].store(inside as u8, Relaxed);
                part.aux[i].store(
                    if win != u16::MAX {
                        PENDING_WIN | win
                    } else if draw {
                        NO_LOSS
                    } else {
                        floor
                    },
                    Relaxed,
                );
                UNKNOWN
            };
            part.vals[i].store(v, Relaxed);
            longest = longest.max(if win != u16::MAX { win } else { floor });
        });
        top.fetch_max(longest, Relaxed);
    });

    let t_start = clock.elapsed().as_secs_f64();
    // Rounds: round n settles the positions of distance n, then takes back
    // their moves.
    let mut n: u16 = 0;
    while n <= top.load(Relaxed) {
        if n > 0 {
            // Wins by a move out of the group in n plies (none shorter found).
            par_for(tasks.len(), |t| {
                let (p, r) = tasks[t];
                let part = &parts[p];
                for i in r * part.shape.per..(r + 1) * part.shape.per {
                    if part.aux[i].load(Relaxed) == PENDING_WIN | n
                        && part.vals[i].load(Relaxed) == UNKNOWN
                    {
                        part.vals[i].store(WIN | n, Relaxed);
                    }
                }
            });
        }
        par_for(tasks.len(), |t| {
            let (p, r) = tasks[t];
            let part = &parts[p];
            let sh = part.shape;
            let prev = &parts[part.swap];
            let mut mover = u32::MAX;
            let mut longest = 0;
            for j in 0..sh.per {
                let v = part.vals[r * sh.per + j].load(Relaxed);
                if v != n && v != WIN | n {
                    continue;
                }
                if mover == u32::MAX {
                    mover = sh.mover(r);
                }
                let other = sh.other(mover, j);
                let mut before = [0u32; MAX_PREDECESSORS];
                let k = predecessors(rules, mover, other, &mut before);
                // Indices and values first (the loads overlap), then updates.
                let mut qs = [0usize; MAX_PREDECESSORS];
                for (q, &bf) in qs.iter_mut().zip(&before[..k]) {
                    *q = prev.shape.index(bf, mover);
                }
                let mut now = [0u16; MAX_PREDECESSORS];
                for (c, &q) in now.iter_mut().zip(&qs[..k]) {
                    *c = prev.vals[q].load(Relaxed);
                }
                for (&q, &c) in qs[..k].iter().zip(&now[..k]) {
                    if c != UNKNOWN {
                        continue;
                    }
                    let slot = &prev.vals[q];
                    if v == n {
                        // A loss in n: the predecessor wins in n + 1.
                        if slot
                            .compare_exchange(UNKNOWN, WIN | (n + 1), Relaxed, Relaxed)
                            .is_ok()
                        {
                            longest = longest.max(n + 1);
                        }
                    } else if prev.cnt[q].fetch_sub(1, Relaxed) == 1 {
                        // The last of its moves inside the group to a win.
                        let aux = prev.aux[q].load(Relaxed);
                        if aux & (PENDING_WIN | NO_LOSS) == 0 {
                            let d = (n + 1).max(aux);
                            if slot.compare_exchange(UNKNOWN, d, Relaxed, Relaxed).is_ok() {
                                longest = longest.max(d);
                            }
                        }
                    }
                }
            }
            top.fetch_max(longest, Relaxed);
        });
        n += 1;
    }

    let t_rounds = clock.elapsed().as_secs_f64();
    // What is left is a draw.
    let finals: Vec<Vec<u16>> = parts
        .iter_mut()
        .map(|p| {
            std::mem::take(&mut p.vals)
                .into_iter()
                .map(|v| match v.into_inner() {
                    UNKNOWN => DRAW,
                    c => c,
                })
                .collect()
        })
        .collect();
    for (p, vals) in parts.iter().zip(&finals) {
        let swap = (parts[p.swap].shape, finals[p.swap].as_slice());
        check(rules, p.shape, vals, swap, p.lower);
    }
    eprintln!(
        "  plain {a}-{b}: start {t_start:.1} s, {n} rounds until {t_rounds:.1} s, checked at {:.1} s",
        clock.elapsed().as_secs_f64()
    );
    drop(parts);
    for (key, f) in keys.into_iter().zip(finals) {
        solved.insert(key, f);
    }
}

/// The most predecessors a position can have: three flying stones with 18
/// empty points (sliding: at most 9 stones with 4 neighbours each).
const MAX_PREDECESSORS: usize = 64;

/// The positions before the one with `mover` to move against `other` that
/// reach it by a move without removal (the opponent moved a stone
/// `from` -> `to`): the opponent's stones before, into `out`; returns how
/// many. The rules crate decides whether the opponent flies, and whether a
/// move to `to` closes a mill (`other` holds the stones after the move) with
/// a stone to remove (which depends on `mover`'s stones only): then the move
/// left the group.
fn predecessors(
    rules: RuleSet,
    mover: u32,
    other: u32,
    out: &mut [u32; MAX_PREDECESSORS],
) -> usize {
    let now = position(rules, mover, other);
    let flies = now.phase(Color::Black) == Phase::Flying;
    // White plays `other`'s side here: its mills remove `mover`'s stones.
    let removes = position(rules, other, mover).removable(Color::White).any();
    let empty = Bitboard(!(mover | other) & FULL);
    let mut k = 0;
    for to in Bitboard(other) {
        if removes && Bitboard(other).closes_mill_at(to) {
            continue;
        }
        let froms = if flies {
            empty
        } else {
            to.neighbours() & empty
        };
        for from in froms {
            let before = other ^ to.bb().0 ^ from.bb().0;
            debug_assert!(position(rules, before, mover).is_legal(Move::slide(from, to)));
            out[k] = before;
            k += 1;
        }
    }
    k
}

/// Check every position of a solved sector against its successors through
/// the rules crate's move generator: panics on the first disagreements.
fn check(
    rules: RuleSet,
    shape: Shape,
    vals: &[u16],
    swap: (Shape, &[u16]),
    lower: Option<(Shape, &[u16])>,
) {
    let bad = Mutex::new(Vec::new());
    // By the opponent's stones: the successors' values (the opponent to move
    // with these stones) lie together.
    par_for(BINOM[24][shape.b as usize], |r| {
        let other = unrank(r, shape.b as usize);
        // Successor indices: the block of `other`, then the rank of the
        // mover's stones on the points `other` leaves free.
        let base = rank(other) * swap.0.per;
        let mut on_free = [0u8; 24];
        for (p, slot) in on_free.iter_mut().enumerate() {
            *slot = (p as u32 - (other & ((1 << p) - 1)).count_ones()) as u8;
        }
        let successor = |stones: u32| {
            let (mut r, mut i, mut s) = (base, 0, stones);
            while s != 0 {
                i += 1;
                r += BINOM[on_free[s.trailing_zeros() as usize] as usize][i];
                s &= s - 1;
            }
            r
        };
        // The values to check, loaded together.
        let mut movers = Vec::with_capacity(BINOM[24 - shape.b as usize][shape.a as usize]);
        shape.for_each_with_other(r, |mover, _| movers.push(mover));
        let have: Vec<u16> = movers
            .iter()
            .map(|&m| vals[shape.index(m, other)])
            .collect();
        for (&mover, &have) in movers.iter().zip(&have) {
            let pos = position(rules, mover, other);
            let mut best = None::<u16>;
            for m in pos.legal_moves() {
                let (nm, no) = after(&pos, m);
                let c = if nm == other {
                    debug_assert_eq!(successor(no), swap.0.index(nm, no));
                    swap.1[successor(no)]
                } else {
                    lower_value(lower, nm, no)
                };
                let c = back(c);
                if best.is_none_or(|b| goodness(c) > goodness(b)) {
                    best = Some(c);
                }
            }
            let want = best.unwrap_or(0);
            if want != have {
                let mut bad = bad.lock().unwrap();
                if bad.len() < 10 {
                    bad.push(format!(
                        "{} (plain {}, successors say {})",
                        pos.fen(),
                        describe(have),
                        describe(want)
                    ));
                }
            }
        }
    });
    let bad = bad.into_inner().unwrap();
    assert!(
        bad.is_empty(),
        "the plain solution of {}-{} disagrees with its successors:\n{}",
        shape.a,
        shape.b,
        bad.join("\n")
    );
}

#[test]
fn ranks_number_the_sets() {
    for (k, &count) in BINOM[24][..=9].iter().enumerate() {
        let mut s: u32 = (1 << k) - 1;
        for r in 0..count {
            assert_eq!(rank(s), r);
            assert_eq!(unrank(r, k), s);
            if k > 0 {
                s = next_set(s);
            }
        }
    }
    let taken = 0b1010_0110_0000_1111_0000_0001;
    let free = !taken & FULL;
    for sub in [0u32, 1, 0b1011, 0x7FFF] {
        let set = spread(sub, free);
        assert_eq!(set & taken, 0);
        assert_eq!(squeeze(set, taken), sub);
        assert_eq!(rank_on(set, taken), rank(sub));
    }
}
