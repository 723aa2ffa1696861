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
//! the rules crate's move generator; predecessors are generated here and each
//! is checked with the rules crate (the move must not remove a stone).
//! Finally every position is checked against all its successors through the
//! rules crate's move generator ([`check`]): a table that agrees with its
//! successors everywhere is the exact solution (wins and losses are settled
//! by induction on the distance, all else is a draw).

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
fn rank(set: u32) -> usize {
    let mut r = 0;
    let mut i = 0;
    let mut s = set;
    while s != 0 {
        i += 1;
        r += BINOM[s.trailing_zeros() as usize][i];
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

    pub fn index(&self, mover: u32, other: u32) -> usize {
        rank(mover) * self.per + rank(squeeze(other, mover))
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
}

/// The value of a code.
pub fn value_of(code: u16) -> (char, u16) {
    match code {
        DRAW => ('d', 0),
        c if c & WIN != 0 => ('w', c & !WIN),
        c => ('l', c),
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
    let threads = std::thread::available_parallelism().map_or(2, |t| t.get()).min(8);
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

    // Start: moves out of the group and the number of moves inside it.
    par_for(tasks.len(), |t| {
        let (p, r) = tasks[t];
        let part = &parts[p];
        let sh = part.shape;
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
            top.fetch_max(if win != u16::MAX { win } else { floor }, Relaxed);
        });
    });

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
            for j in 0..sh.per {
                let v = part.vals[r * sh.per + j].load(Relaxed);
                if v != n && v != WIN | n {
                    continue;
                }
                if mover == u32::MAX {
                    mover = sh.mover(r);
                }
                let other = sh.other(mover, j);
                for_each_predecessor(rules, mover, other, |before| {
                    let q = prev.shape.index(before, mover);
                    let slot = &prev.vals[q];
                    if v == n {
                        // A loss in n: the predecessor wins in n + 1.
                        if slot
                            .compare_exchange(UNKNOWN, WIN | (n + 1), Relaxed, Relaxed)
                            .is_ok()
                        {
                            top.fetch_max(n + 1, Relaxed);
                        }
                    } else if slot.load(Relaxed) == UNKNOWN
                        && prev.cnt[q].fetch_sub(1, Relaxed) == 1
                    {
                        // The last of its moves inside the group to a win.
                        let aux = prev.aux[q].load(Relaxed);
                        if aux & (PENDING_WIN | NO_LOSS) == 0 {
                            let d = (n + 1).max(aux);
                            if slot.compare_exchange(UNKNOWN, d, Relaxed, Relaxed).is_ok() {
                                top.fetch_max(d, Relaxed);
                            }
                        }
                    }
                });
            }
        });
        n += 1;
    }

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
    let views: Vec<(Shape, usize, Option<(Shape, &[u16])>, &[u16])> = parts
        .iter()
        .zip(&finals)
        .map(|(p, f)| (p.shape, p.swap, p.lower, f.as_slice()))
        .collect();
    for &(shape, swap, lower, vals) in &views {
        check(rules, shape, vals, (views[swap].0, views[swap].3), lower);
    }
    drop(views);
    drop(parts);
    for (key, f) in keys.into_iter().zip(finals) {
        solved.insert(key, f);
    }
}

/// Every position before the one with `mover` to move against `other` that
/// reaches it by a move without removal (the opponent moved `from` -> `to`):
/// `f(opponent's stones before)`. Each candidate is checked with the rules
/// crate: the move closes no mill, or closes one with nothing removable.
fn for_each_predecessor(rules: RuleSet, mover: u32, other: u32, mut f: impl FnMut(u32)) {
    let now = position(rules, mover, other);
    let flies = now.phase(Color::Black) == Phase::Flying;
    let empty = Bitboard(!(mover | other) & FULL);
    for to in Bitboard(other) {
        let froms = if flies { empty } else { to.neighbours() & empty };
        for from in froms {
            let before = other ^ to.bb().0 ^ from.bb().0;
            let q = position(rules, before, mover);
            let m = Move::slide(from, to);
            if q.closes_mill(m) && q.removable(Color::White).any() {
                continue; // that move removes a stone: it leaves the group
            }
            debug_assert!(q.is_legal(m));
            f(before);
        }
    }
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
    par_for(shape.movers, |r| {
        shape.for_each_in_block(r, |j, mover, other| {
            let pos = position(rules, mover, other);
            let mut best = None::<u16>;
            for m in pos.legal_moves() {
                let (nm, no) = after(&pos, m);
                let c = if nm.count_ones() == shape.b {
                    swap.1[swap.0.index(nm, no)]
                } else {
                    lower_value(lower, nm, no)
                };
                let c = back(c);
                if best.is_none_or(|b| goodness(c) > goodness(b)) {
                    best = Some(c);
                }
            }
            let want = best.unwrap_or(0);
            let have = vals[r * shape.per + j];
            if want != have {
                let mut bad = bad.lock().unwrap();
                if bad.len() < 10 {
                    bad.push(format!(
                        "{} (plain {:?}, successors say {:?})",
                        pos.fen(),
                        value_of(have),
                        value_of(want)
                    ));
                }
            }
        });
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
    for k in 0..=9 {
        let mut s: u32 = (1 << k) - 1;
        for r in 0..BINOM[24][k] {
            assert_eq!(rank(s), r);
            assert_eq!(unrank(r, k), s);
            s = next_set(s);
        }
    }
    let taken = 0b1010_0110_0000_1111_0000_0001;
    let free = !taken & FULL;
    for sub in [0u32, 1, 0b1011, 0xFFFF] {
        let set = spread(sub, free);
        assert_eq!(set & taken, 0);
        assert_eq!(squeeze(set, taken), sub);
    }
}
