//! Exact win/draw/loss values of placing-phase positions: an alpha-beta
//! search over the remaining placements down to the databases of the
//! moving phase, with a transposition table keyed by the position's
//! symmetry class.
//!
//! Three values only (win, draw, loss for the side to move), so the window
//! is narrow and most of the tree is cut: with good ordering a draw is
//! proven by one move of the side to move against every reply. The
//! no-mill counter is not looked at: the values are those of the
//! databases (which count no plies).
//!
//! In play ([`sound_moves`]) the solver runs at the root of a search while
//! few enough stones are in hand; the search then chooses only among the
//! moves that keep the value. Its table is shared by every search of the
//! process (values of positions do not depend on the game they occur in),
//! so each move of a game starts where the last one left off.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::{Mutex, OnceLock};

use arrayvec::ArrayVec;
use muehle::{Color, MAX_MOVES, Move, Phase, Position, Symmetry};
use search::SolveBudget;
use tablebase::{Tablebase, Variant};

/// Win (1), draw (0) or loss (−1) for the side to move.
pub type Wdl = i8;

/// What the table knows of a position: bounds on its value and the move
/// that gave the best one.
#[derive(Clone, Copy)]
struct Entry {
    lower: Wdl,
    upper: Wdl,
    best: Option<Move>,
}

/// Why a value could not be found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unsolved {
    /// The budget ran out (nodes, time or the stop flag).
    Budget,
    /// A position after placing is not in the databases (sector not
    /// built, other rules).
    Missing,
}

/// A hasher for the 128-bit keys (already well mixed in their low bits
/// only after multiplying).
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_u128(&mut self, k: u128) {
        let x = (k as u64) ^ ((k >> 64) as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        let x = (x ^ (x >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        self.0 = x ^ (x >> 32);
    }
}

type Shard = HashMap<u128, Entry, BuildHasherDefault<KeyHasher>>;

const SHARDS: usize = 64;

/// The solver's table: positions (by symmetry class) with bounds on their
/// value, in shards that threads lock one at a time. A shard that reaches
/// its share of the capacity is emptied.
pub struct PlacingTable {
    shards: Vec<Mutex<Shard>>,
    per_shard: usize,
}

impl PlacingTable {
    /// A table for about `capacity` positions (about 40 bytes each).
    pub fn new(capacity: usize) -> PlacingTable {
        PlacingTable {
            shards: (0..SHARDS).map(|_| Mutex::new(Shard::default())).collect(),
            per_shard: (capacity / SHARDS).max(1),
        }
    }

    fn shard(&self, k: u128) -> std::sync::MutexGuard<'_, Shard> {
        let i = ((k as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58) as usize % SHARDS;
        self.shards[i].lock().unwrap_or_else(|e| e.into_inner())
    }

    fn get(&self, k: u128) -> Option<Entry> {
        self.shard(k).get(&k).copied()
    }

    fn store(&self, k: u128, f: impl FnOnce(&mut Entry)) {
        let mut shard = self.shard(k);
        if shard.len() >= self.per_shard && !shard.contains_key(&k) {
            shard.clear();
        }
        let e = shard.entry(k).or_insert(Entry {
            lower: -1,
            upper: 1,
            best: None,
        });
        f(e);
    }

    /// Positions held.
    pub fn len(&self) -> usize {
        self.shards
            .iter()
            .map(|s| s.lock().unwrap_or_else(|e| e.into_inner()).len())
            .sum()
    }

    /// Whether no position is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The key of the position's symmetry class: the smallest of its 16 images
/// (side to move's stones, the other's), with both hands.
fn key(pos: &Position) -> u128 {
    let us = pos.turn();
    let (a, b) = (pos.stones(us), pos.stones(us.other()));
    let hands = (u128::from(pos.in_hand(us)) << 8) | u128::from(pos.in_hand(us.other()));
    let mut best = u64::MAX;
    for s in Symmetry::ALL {
        let k = (u64::from(s.apply(a).0) << 24) | u64::from(s.apply(b).0);
        best = best.min(k);
    }
    (hands << 64) | u128::from(best)
}

/// Moves are ordered by the evaluation of the position after them when at
/// least this many stones are in hand.
const EVAL_ORDER_IN_HAND: u32 = 4;

/// How many nodes pass between looks at the budget (the clock).
const CHECK_EVERY: u64 = 256;

/// The solver: a search over placements with a budget, on a table.
pub struct PlacingSolver<'a> {
    tb: &'a Tablebase,
    table: &'a PlacingTable,
    nodes: u64,
    /// Stop after this many nodes (of [`PlacingSolver::nodes`]).
    limit: u64,
    /// Time, nodes and stop flag for the solver's life.
    budget: Option<&'a SolveBudget<'a>>,
}

impl<'a> PlacingSolver<'a> {
    /// A solver probing `tb`, keeping what it learns in `table`, with at
    /// most `nodes` nodes for its life.
    pub fn new(tb: &'a Tablebase, table: &'a PlacingTable, nodes: u64) -> PlacingSolver<'a> {
        PlacingSolver {
            tb,
            table,
            nodes: 0,
            limit: nodes,
            budget: None,
        }
    }

    /// A solver that stops when `budget` is spent.
    pub fn with_budget(
        tb: &'a Tablebase,
        table: &'a PlacingTable,
        budget: &'a SolveBudget<'a>,
    ) -> PlacingSolver<'a> {
        PlacingSolver {
            tb,
            table,
            nodes: 0,
            limit: u64::MAX,
            budget: Some(budget),
        }
    }

    /// Nodes visited so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The exact value of `pos` for the side to move (placing or moving
    /// phase).
    pub fn solve(&mut self, pos: &Position) -> Result<Wdl, Unsolved> {
        self.search(pos, -1, 1)
    }

    /// Every legal move with its exact value for the side to move (the
    /// value after the move, seen back), best first.
    pub fn solve_moves(&mut self, pos: &Position) -> Result<Vec<(Move, Wdl)>, Unsolved> {
        let mut out = Vec::new();
        for m in self.ordered(pos, None) {
            let mut child = *pos;
            child.play_unchecked(m);
            let v = -self.search(&child, -1, 1)?;
            out.push((m, v));
        }
        out.sort_by_key(|&(_, v)| -v);
        Ok(out)
    }

    /// Whether the side to move holds at least a draw in `pos`: a null
    /// window at the draw, far cheaper than [`PlacingSolver::solve`] in a
    /// drawn position (one move that holds against every reply proves it;
    /// no winning try has to be refuted).
    pub fn not_lost(&mut self, pos: &Position) -> Result<bool, Unsolved> {
        Ok(self.search(pos, -1, 0)? >= 0)
    }

    /// Whether `m` keeps `value`, the value of `pos` for the side to move
    /// (a move that is not a mistake).
    pub fn keeps(&mut self, pos: &Position, m: Move, value: Wdl) -> Result<bool, Unsolved> {
        let mut child = *pos;
        child.play_unchecked(m);
        // A null window: does the opponent get at most −value?
        let v = self.search(&child, -value, -value + 1)?;
        Ok(v <= -value)
    }

    fn over_budget(&self) -> bool {
        if self.nodes >= self.limit {
            return true;
        }
        match self.budget {
            Some(b) => self.nodes.is_multiple_of(CHECK_EVERY) && b.exhausted(self.nodes),
            None => false,
        }
    }

    fn leaf(&mut self, pos: &Position) -> Option<Result<Wdl, Unsolved>> {
        if let Some(o) = pos.outcome() {
            return Some(Ok(match o.winner {
                None => 0,
                Some(w) if w == pos.turn() => 1,
                Some(_) => -1,
            }));
        }
        if pos.in_hand(Color::White) == 0 && pos.in_hand(Color::Black) == 0 {
            return Some(
                self.tb
                    .probe_wdl(pos)
                    .map(|w| w.signum())
                    .ok_or(Unsolved::Missing),
            );
        }
        None
    }

    /// The moves, most promising first: the table's move, mills, blocks of
    /// the opponent's mills, then (with enough stones in hand) by the
    /// evaluation of the position after the move, points that prepare own
    /// mills, points on more lines.
    pub(crate) fn ordered(&self, pos: &Position, first: Option<Move>) -> ArrayVec<Move, MAX_MOVES> {
        let us = pos.turn();
        let them = us.other();
        let board = pos.board();
        let opp = pos.stones(them);
        let mut block = board.mill_completions(opp) & pos.empty();
        if pos.phase(them) == Phase::Moving {
            block &= board.neighbours(opp);
        }
        let own = board.mill_completions(pos.stones(us)) & pos.empty();
        let deep = u32::from(pos.in_hand(us)) + u32::from(pos.in_hand(them)) >= EVAL_ORDER_IN_HAND;
        let mut moves = pos.legal_moves();
        let mut hints: ArrayVec<i64, MAX_MOVES> = moves
            .iter()
            .map(|&m| {
                let mut hint: i64 = 0;
                if Some(m) == first {
                    hint += 1 << 40;
                }
                if m.removal().is_some() {
                    hint += 1 << 36;
                }
                if block.contains(m.to()) {
                    hint += 1 << 35;
                }
                if deep {
                    let mut child = *pos;
                    child.play_unchecked(m);
                    hint -= i64::from(muehle::eval::evaluate(&child)) << 4;
                }
                if own.contains(m.to()) {
                    hint += 8;
                }
                hint + i64::from(board.neighbours_of(m.to()).count())
            })
            .collect();
        // Insertion sort, best first (few moves).
        for i in 1..moves.len() {
            let mut j = i;
            while j > 0 && hints[j - 1] < hints[j] {
                hints.swap(j - 1, j);
                moves.swap(j - 1, j);
                j -= 1;
            }
        }
        moves
    }

    fn search(&mut self, pos: &Position, mut alpha: Wdl, mut beta: Wdl) -> Result<Wdl, Unsolved> {
        self.nodes += 1;
        if let Some(v) = self.leaf(pos) {
            return v;
        }
        if self.over_budget() {
            return Err(Unsolved::Budget);
        }
        let k = key(pos);
        let mut first = None;
        if let Some(e) = self.table.get(k) {
            if e.lower == e.upper || e.lower >= beta {
                return Ok(e.lower);
            }
            if e.upper <= alpha {
                return Ok(e.upper);
            }
            alpha = alpha.max(e.lower);
            beta = beta.min(e.upper);
            first = e.best;
        }
        let (alpha0, beta0) = (alpha, beta);
        let mut best = -1;
        let mut best_move = None;
        for m in self.ordered(pos, first) {
            let mut child = *pos;
            child.play_unchecked(m);
            let v = -self.search(&child, -beta, -alpha)?;
            if best_move.is_none() || v > best {
                best = v;
                best_move = Some(m);
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        self.table.store(k, |e| {
            if best <= alpha0 {
                e.upper = e.upper.min(best);
            } else if best >= beta0 {
                e.lower = e.lower.max(best);
            } else {
                e.lower = best;
                e.upper = best;
            }
            e.lower = e.lower.min(e.upper);
            e.best = best_move;
        });
        Ok(best)
    }
}

/// The table every search of this process shares.
fn shared_table() -> &'static PlacingTable {
    static TABLE: OnceLock<PlacingTable> = OnceLock::new();
    TABLE.get_or_init(|| PlacingTable::new(SHARED_CAPACITY))
}

/// Positions the shared table holds at most (about 160 MB).
const SHARED_CAPACITY: usize = 4_000_000;

/// The solver starts when at most this many stones are still in hand (both
/// sides together): from earlier positions its tree is too big for the
/// time of a move.
pub const SOLVE_IN_HAND: u32 = 12;

/// Moves of a placing position that keep its value (a draw or a win),
/// found by the solver within `budget` on the databases `tb`.
///
/// The cheaper question comes first: is the position lost? A null window
/// at the draw (value ≥ 0?) needs one move that holds the draw against
/// every reply, not a refutation of every winning try, so it is proven in a
/// fraction of the time of the exact value. Then the solver asks whether
/// the position is won; if that is not answered in time, the value kept is
/// the draw it has proven. Last it proves further moves in its order of
/// promise until the budget ends, so the search can choose among them.
/// `None` when not even the draw is proven in time, when the position is
/// lost anyway (every move keeps that), outside placing, or when `tb` is
/// for other rules.
pub fn sound_moves(tb: &Tablebase, pos: &Position, budget: &SolveBudget) -> Option<Vec<Move>> {
    let in_hand = u32::from(pos.in_hand(Color::White)) + u32::from(pos.in_hand(Color::Black));
    if in_hand == 0
        || in_hand > SOLVE_IN_HAND
        || Variant::for_rules(pos.rules()) != Some(tb.variant())
        || pos.is_game_over()
    {
        return None;
    }
    let mut solver = PlacingSolver::with_budget(tb, shared_table(), budget);
    if !solver.not_lost(pos).ok()? {
        return None;
    }
    // The move that held the draw (the table's best after a fail high).
    let drawing = shared_table().get(key(pos)).and_then(|e| e.best);
    // Is it won? Half of what is left, so that a draw leaves time to prove
    // more than one move.
    let half = SolveBudget {
        deadline: budget.deadline.map(|d| {
            let now = std::time::Instant::now();
            now + d.saturating_duration_since(now) / 2
        }),
        nodes: budget.nodes.saturating_sub(solver.nodes()) / 2,
        stop: budget.stop,
    };
    let mut win_check = PlacingSolver::with_budget(tb, shared_table(), &half);
    let value = match win_check.search(pos, 0, 1) {
        Ok(v) if v > 0 => 1,
        _ => 0,
    };
    solver.nodes += win_check.nodes();
    let first = if value > 0 {
        shared_table().get(key(pos)).and_then(|e| e.best)
    } else {
        drawing
    };
    let mut sound = Vec::new();
    if value == 0
        && let Some(m) = drawing
    {
        // Proven by the first search: kept even if the budget is spent.
        sound.push(m);
    }
    for m in solver.ordered(pos, first) {
        if sound.contains(&m) {
            continue;
        }
        match solver.keeps(pos, m, value) {
            Ok(true) => sound.push(m),
            Ok(false) => {}
            Err(_) => break,
        }
    }
    (!sound.is_empty()).then_some(sound)
}

/// [`sound_moves`] without a limit: every move that keeps the value (for
/// tests and analysis; may take long early in placing).
pub fn all_sound_moves(tb: &Tablebase, pos: &Position) -> Option<Vec<Move>> {
    let stop = std::sync::atomic::AtomicBool::new(false);
    let budget = SolveBudget {
        deadline: None,
        nodes: u64::MAX,
        stop: &stop,
    };
    sound_moves(tb, pos, &budget)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetric_positions_share_a_key() {
        let rules = muehle::RuleSet::STANDARD;
        let mut a = Position::new(rules);
        let mut b = Position::new(rules);
        for (x, y) in [("a1", "g7"), ("d2", "d6"), ("b4", "f4")] {
            a.play_unchecked(a.parse_move(x).expect("move"));
            b.play_unchecked(b.parse_move(y).expect("move"));
        }
        assert_eq!(key(&a), key(&b));
        let mut c = Position::new(rules);
        for x in ["a1", "d2", "b6"] {
            c.play_unchecked(c.parse_move(x).expect("move"));
        }
        assert_ne!(key(&a), key(&c));
    }
}
