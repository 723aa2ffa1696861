//! Iterative deepening, principal-variation search and quiescence.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::tt::{Bound, TranspositionTable};
use crate::{DRAW, Game, Limits, MATE, MATE_BOUND, Score, SolveBudget, Status};

const INF: i32 = MATE + 1;
const MAX_PLY: usize = 128;
/// Quiescence goes at most this many plies beyond the nominal depth.
const MAX_QDEPTH: i32 = 12;
/// Extensions (critical positions, single replies) on one path.
const MAX_EXTENSIONS: u8 = 2;
/// Extensions on one path, counting singular extensions.
const MAX_SINGULAR_EXTENSIONS: u8 = 4;
/// The least depth at which a node checks whether its table move is
/// singular.
const SINGULAR_DEPTH: i32 = 8;

/// What the engine reports after each completed depth (one per line in
/// multi-PV mode).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo<M> {
    /// The depth completed.
    pub depth: u32,
    /// The deepest ply reached (extensions and quiescence included).
    pub seldepth: u32,
    /// 1-based number of the line (multi-PV).
    pub multipv: usize,
    /// The line's score.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Nodes a second.
    pub nps: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Permille of the transposition table used in this search.
    pub hashfull: u32,
    /// The line (principal variation).
    pub pv: Vec<M>,
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<M> {
    /// The best move (`None` if the game is over at the root).
    pub best: Option<M>,
    /// The best move's score.
    pub score: Score,
    /// The last completed depth.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time the search took.
    pub time: Duration,
    /// The best lines, best first (as many as multi-PV asked for).
    pub lines: Vec<(Score, Vec<M>)>,
}

/// A searching engine: a transposition table shared by its threads.
pub struct Engine {
    tt: Arc<TranspositionTable>,
    threads: usize,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new(16, 1)
    }
}

impl Engine {
    /// An engine with a `hash_mib` MiB transposition table and `threads` threads.
    pub fn new(hash_mib: usize, threads: usize) -> Engine {
        Engine {
            tt: Arc::new(TranspositionTable::new(hash_mib)),
            threads: threads.clamp(1, 64),
        }
    }

    /// Resize the transposition table (clears it).
    pub fn set_hash(&mut self, mib: usize) {
        self.tt = Arc::new(TranspositionTable::new(mib));
    }

    /// Number of search threads.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.clamp(1, 64);
    }

    /// Number of search threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Size of the transposition table in MiB.
    pub fn hash_mib(&self) -> usize {
        self.tt.size_mib()
    }

    /// Forget all earlier searches (a new game).
    pub fn clear(&self) {
        self.tt.clear();
    }

    /// Search `root`. `history` holds the hashes of the positions before it
    /// in the game (oldest first) for repetition; `multipv` the number of
    /// best lines wanted; `stop` ends the search at once when set (the
    /// caller clears it before). `on_info` hears each completed depth.
    pub fn search<G: Game>(
        &self,
        root: &G,
        history: &[u64],
        limits: Limits,
        multipv: usize,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchInfo<G::Move>),
    ) -> SearchResult<G::Move> {
        self.tt.new_search();
        let start = Instant::now();
        let done = AtomicBool::new(false);
        let counters: Vec<AtomicU64> = (0..self.threads).map(|_| AtomicU64::new(0)).collect();
        let shared = Shared {
            tt: &self.tt,
            stop,
            done: &done,
            counters: &counters,
            start,
        };
        std::thread::scope(|scope| {
            for id in 1..self.threads {
                let shared = &shared;
                let root = root.clone();
                scope.spawn(move || {
                    let helper_limits = Limits {
                        no_databases: limits.no_databases,
                        // Helpers search the book's move too.
                        book: limits.book && multipv <= 1,
                        ..Limits::default()
                    };
                    let mut helper =
                        Searcher::new(shared, id, root.clone(), history, helper_limits, 1);
                    helper.iterate(&mut |_| {});
                });
            }
            let mut main = Searcher::new(&shared, 0, root.clone(), history, limits, multipv.max(1));
            let result = main.iterate(on_info);
            done.store(true, Ordering::Relaxed);
            result
        })
    }
}

struct Shared<'a> {
    tt: &'a TranspositionTable,
    stop: &'a AtomicBool,
    done: &'a AtomicBool,
    counters: &'a [AtomicU64],
    start: Instant,
}

impl Shared<'_> {
    fn total_nodes(&self) -> u64 {
        self.counters
            .iter()
            .map(|c| c.load(Ordering::Relaxed))
            .sum()
    }
}

struct RootMove<M> {
    mv: M,
    index: u16,
    score: i32,
    pv: Vec<M>,
}

struct Searcher<'a, G: Game> {
    shared: &'a Shared<'a>,
    id: usize,
    root: G,
    limits: Limits,
    multipv: usize,
    soft_deadline: Option<Duration>,
    hard_deadline: Option<Duration>,
    nodes: u64,
    seldepth: usize,
    stopped: bool,
    /// Hashes of the game before the root, then of the search path.
    path: Vec<u64>,
    killers: Vec<[Option<G::Move>; 2]>,
    history: Vec<i32>,
    move_bufs: Vec<Vec<G::Move>>,
    score_bufs: Vec<Vec<i32>>,
    key_bufs: Vec<Vec<i64>>,
    pv: Vec<Vec<G::Move>>,
    /// Extensions on the path to each ply.
    extensions: Vec<u8>,
    /// The root move (index into the searched slice) that beat the first
    /// one in the current root search, searched fully: used when time runs
    /// out before the depth is complete.
    root_new_best: Option<usize>,
}

fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

impl<'a, G: Game> Searcher<'a, G> {
    fn new(
        shared: &'a Shared<'a>,
        id: usize,
        root: G,
        history: &[u64],
        limits: Limits,
        multipv: usize,
    ) -> Self {
        let (soft, hard) = time_budget(&limits);
        let mut path = Vec::with_capacity(history.len() + MAX_PLY + 1);
        path.extend_from_slice(history);
        path.push(root.hash());
        Searcher {
            shared,
            id,
            root,
            limits,
            multipv,
            soft_deadline: soft,
            hard_deadline: hard,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            path,
            killers: vec![[None, None]; MAX_PLY + 2],
            history: vec![0; 2 * G::HISTORY_SIZE],
            move_bufs: (0..MAX_PLY + 2).map(|_| Vec::new()).collect(),
            score_bufs: (0..MAX_PLY + 2).map(|_| Vec::new()).collect(),
            key_bufs: (0..MAX_PLY + 2).map(|_| Vec::new()).collect(),
            pv: (0..MAX_PLY + 2).map(|_| Vec::new()).collect(),
            extensions: vec![0; MAX_PLY + 2],
            root_new_best: None,
        }
    }

    fn elapsed(&self) -> Duration {
        self.shared.start.elapsed()
    }

    /// Whether to stop now (checked at every node; clocks every 1024 nodes).
    fn check_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.shared.stop.load(Ordering::Relaxed)
            || (self.id > 0 && self.shared.done.load(Ordering::Relaxed))
        {
            self.stopped = true;
            return true;
        }
        if let Some(limit) = self.limits.nodes {
            let total = if self.shared.counters.len() == 1 {
                self.nodes
            } else {
                self.shared.total_nodes()
            };
            if total >= limit {
                self.stopped = true;
                return true;
            }
        }
        if self.nodes & 1023 == 0 {
            self.shared.counters[self.id].store(self.nodes, Ordering::Relaxed);
            if let Some(hard) = self.hard_deadline
                && !self.limits.infinite
                && self.elapsed() >= hard
            {
                self.stopped = true;
                return true;
            }
        }
        false
    }

    /// The root held by the game's databases: the moves in the order of
    /// their values (and the game's preference), no search.
    fn play_from_databases(
        &mut self,
        on_info: &mut dyn FnMut(&SearchInfo<G::Move>),
    ) -> Option<SearchResult<G::Move>> {
        if self.limits.no_databases || self.root.status() != Status::Ongoing {
            return None;
        }
        let mut list = self.root.probe_moves()?;
        if list.is_empty() {
            return None;
        }
        list.sort_by_key(|&(_, exact, pref)| std::cmp::Reverse((exact.rank(), pref)));
        let mut lines = Vec::new();
        for (n, &(mv, exact, _)) in list.iter().take(self.multipv).enumerate() {
            let mut pv = vec![mv];
            if n == 0 {
                // The database line: best moves on both sides.
                let mut pos = self.root.play(mv);
                while pv.len() < 16 && pos.status() == Status::Ongoing {
                    let Some(mut next) = pos.probe_moves() else {
                        break;
                    };
                    next.sort_by_key(|&(_, e, p)| std::cmp::Reverse((e.rank(), p)));
                    let Some(&(m, _, _)) = next.first() else {
                        break;
                    };
                    pv.push(m);
                    pos = pos.play(m);
                }
            }
            lines.push((Score::from_internal(exact.score(0)), pv));
        }
        let time = self.elapsed();
        for (i, (score, pv)) in lines.iter().enumerate() {
            on_info(&SearchInfo {
                depth: 1,
                seldepth: pv.len() as u32,
                multipv: i + 1,
                score: *score,
                nodes: list.len() as u64,
                nps: 0,
                time,
                hashfull: self.shared.tt.hashfull(),
                pv: pv.clone(),
            });
        }
        Some(SearchResult {
            best: Some(list[0].0),
            score: lines[0].0,
            depth: 1,
            nodes: list.len() as u64,
            time,
            lines,
        })
    }

    fn iterate(&mut self, on_info: &mut dyn FnMut(&SearchInfo<G::Move>)) -> SearchResult<G::Move> {
        if let Some(result) = self.play_from_databases(on_info) {
            return result;
        }
        let root = self.root.clone();
        let mut moves = Vec::new();
        if root.status() == Status::Ongoing {
            root.legal_moves(&mut moves);
        }
        let mut root_moves: Vec<RootMove<G::Move>> = moves
            .iter()
            .enumerate()
            .map(|(i, &mv)| RootMove {
                mv,
                index: i as u16,
                score: -INF,
                pv: vec![mv],
            })
            .collect();
        // A game that solves the root tells which moves keep its value: the
        // search chooses among those (one line only: analysis shows all).
        // A move from the game's opening book is the only one searched.
        let book = if self.limits.book
            && !self.limits.infinite
            && self.multipv == 1
            && root_moves.len() > 1
        {
            root.book_move()
                .filter(|m| root_moves.iter().any(|r| r.mv == *m))
        } else {
            None
        };
        if let Some(m) = book {
            root_moves.retain(|r| r.mv == m);
        } else if !self.limits.no_databases
            && self.id == 0
            && self.multipv == 1
            && root_moves.len() > 1
        {
            let budget = SolveBudget {
                deadline: self
                    .soft_deadline
                    .map(|soft| self.shared.start + soft * SOLVE_SHARE / 100),
                nodes: if self.soft_deadline.is_some() {
                    u64::MAX
                } else {
                    SOLVE_NODES
                },
                stop: self.shared.stop,
            };
            if let Some(sound) = root.sound_moves(&budget)
                && root_moves.iter().any(|r| sound.contains(&r.mv))
            {
                root_moves.retain(|r| sound.contains(&r.mv));
            }
        }
        // Table move and the game's hints first.
        if let Some(e) = self.shared.tt.probe(root.hash())
            && let Some(i) = e.move_index
            && let Some(pos) = root_moves.iter().position(|r| r.index == i)
        {
            root_moves[..=pos].rotate_right(1);
        }
        let mut result = SearchResult {
            best: root_moves.first().map(|r| r.mv),
            score: Score::Cp(root.evaluate()),
            depth: 0,
            nodes: 0,
            time: Duration::ZERO,
            lines: Vec::new(),
        };
        if root_moves.is_empty() {
            return result;
        }
        let max_depth = self
            .limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 2)
            .clamp(1, MAX_PLY as u32 - 2);
        let lines = self.multipv.min(root_moves.len());
        let mut prev_scores = vec![0i32; lines];
        // Time use with a clock: the best move so far, how many depths it
        // has stayed best, and its score at the previous depth.
        let mut last_best: Option<G::Move> = None;
        let mut stable_depths = 0u32;
        let mut last_score: Option<i32> = None;
        // Helper threads start one ply deeper on odd ids, so threads spread out.
        let first_depth = if self.id % 2 == 1 {
            2.min(max_depth)
        } else {
            1
        };
        let mut partial: Option<(G::Move, i32, Vec<G::Move>)> = None;
        for depth in first_depth..=max_depth {
            self.seldepth = 0;
            for pv_idx in 0..lines {
                let d = depth as i32;
                let mut window = 25;
                let (mut alpha, mut beta) = if depth >= 4 && prev_scores[pv_idx].abs() < MATE_BOUND
                {
                    (prev_scores[pv_idx] - window, prev_scores[pv_idx] + window)
                } else {
                    (-INF, INF)
                };
                let score = loop {
                    let s = self.root_search(&root, &mut root_moves[pv_idx..], d, alpha, beta);
                    if self.stopped {
                        // Time ran out inside this depth. A move that beat
                        // the previous best there, searched to the full
                        // depth, is the better choice: it is played (one
                        // line only; analysis keeps the completed depths).
                        if let Some(i) = self.root_new_best
                            && lines == 1
                            && self.id == 0
                            && depth > first_depth
                        {
                            let r = &root_moves[pv_idx + i];
                            partial = Some((r.mv, r.score, r.pv.clone()));
                        }
                        break s;
                    }
                    if s <= alpha && alpha > -INF {
                        beta = (alpha + beta) / 2 + 1;
                        alpha = (s - window).max(-INF);
                        window *= 3;
                        if window > 600 {
                            alpha = -INF;
                        }
                    } else if s >= beta && beta < INF {
                        beta = (s + window).min(INF);
                        window *= 3;
                        if window > 600 {
                            beta = INF;
                        }
                    } else {
                        break s;
                    }
                };
                // Stable: equal scores keep their order.
                root_moves[pv_idx..].sort_by_key(|r| std::cmp::Reverse(r.score));
                if self.stopped {
                    break;
                }
                prev_scores[pv_idx] = score;
            }
            if self.stopped && depth > first_depth {
                if let Some((mv, score, pv)) = partial.take() {
                    result.best = Some(mv);
                    result.score = Score::from_internal(score);
                    result.lines = vec![(result.score, pv)];
                }
                break;
            }
            if self.id > 0 {
                if self.stopped {
                    break;
                }
                continue;
            }
            root_moves[..lines].sort_by_key(|r| std::cmp::Reverse(r.score));
            let time = self.elapsed();
            self.shared.counters[0].store(self.nodes, Ordering::Relaxed);
            let nodes = self.shared.total_nodes();
            result.depth = depth;
            result.best = Some(root_moves[0].mv);
            result.score = Score::from_internal(root_moves[0].score);
            result.lines = root_moves[..lines]
                .iter()
                .map(|r| (Score::from_internal(r.score), r.pv.clone()))
                .collect();
            for (i, r) in root_moves[..lines].iter().enumerate() {
                on_info(&SearchInfo {
                    depth,
                    seldepth: self.seldepth.max(depth as usize) as u32,
                    multipv: i + 1,
                    score: Score::from_internal(r.score),
                    nodes,
                    nps: (nodes as f64 / time.as_secs_f64().max(1e-6)) as u64,
                    time,
                    hashfull: self.shared.tt.hashfull(),
                    pv: r.pv.clone(),
                });
            }
            if self.stopped {
                break;
            }
            // A forced win found at full width cannot get better.
            if root_moves[0].score.abs() >= MATE_BOUND
                && depth as i32 >= MATE - root_moves[0].score.abs() + 2
                && self.limits.depth.is_none()
                && !self.limits.infinite
            {
                break;
            }
            if !self.limits.infinite {
                // The only move, on a clock: play it and keep the time.
                // With a fixed time a move there is nothing to keep: the
                // only move is searched on for the whole time, and the
                // table holds the replies to it when the next search starts
                // (unless the caller asks for it at once).
                if root_moves.len() == 1
                    && (self.limits.clock.is_some()
                        || (self.limits.answer_only_move && self.limits.movetime.is_some()))
                {
                    break;
                }
                if let Some(soft) = self.soft_deadline {
                    let best_score = root_moves[0].score;
                    if last_best == Some(root_moves[0].mv) {
                        stable_depths += 1;
                    } else {
                        stable_depths = 0;
                    }
                    let percent = if self.limits.clock.is_some() {
                        soft_percent(stable_depths, last_score, best_score)
                    } else {
                        100
                    };
                    last_best = Some(root_moves[0].mv);
                    last_score = Some(best_score);
                    let mut soft = soft * percent / 100;
                    if let Some(hard) = self.hard_deadline {
                        soft = soft.min(hard);
                    }
                    if time >= soft {
                        break;
                    }
                }
            }
        }
        self.shared.counters[self.id].store(self.nodes, Ordering::Relaxed);
        result.nodes = self.shared.total_nodes();
        result.time = self.elapsed();
        result
    }

    fn root_search(
        &mut self,
        root: &G,
        moves: &mut [RootMove<G::Move>],
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.nodes += 1;
        self.root_new_best = None;
        let mut best = -INF;
        let mut best_index = None;
        let alpha_orig = alpha;
        for i in 0..moves.len() {
            let mv = moves[i].mv;
            let child = root.play(mv);
            self.path.push(child.hash());
            let mut score;
            if i == 0 {
                score = -self.search(&child, depth - 1, -beta, -alpha, 1, true);
            } else {
                score = -self.search(&child, depth - 1, -alpha - 1, -alpha, 1, false);
                if score > alpha && score < beta && !self.stopped {
                    score = -self.search(&child, depth - 1, -beta, -alpha, 1, true);
                }
            }
            self.path.pop();
            if self.stopped {
                // Keep the result of a move searched fully before the stop.
                return if best > -INF { best } else { moves[0].score };
            }
            if i == 0 || score > alpha {
                moves[i].score = score;
                moves[i].pv.clear();
                moves[i].pv.push(mv);
                moves[i].pv.extend_from_slice(&self.pv[1]);
            } else {
                moves[i].score = -INF;
            }
            if score > best {
                best = score;
                best_index = Some(moves[i].index);
            }
            if score > alpha {
                alpha = score;
                if i > 0 {
                    self.root_new_best = Some(i);
                }
                if score >= beta {
                    break;
                }
            }
        }
        let bound = Bound::of(best, alpha_orig, beta);
        self.shared
            .tt
            .store(root.hash(), best_index, best, 0, depth, bound);
        best
    }

    /// The principal variation from `ply`: `m`, then the one found after
    /// it.
    #[inline]
    fn set_pv(&mut self, ply: usize, m: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(m);
        head[ply].extend_from_slice(&tail[0]);
    }

    /// A draw's score for the side to move `ply` plies from the root: the
    /// root side's contempt ([`Limits::contempt`]) on its own moves, the
    /// opposite on the opponent's.
    #[inline]
    fn draw_score(&self, ply: usize) -> i32 {
        if ply.is_multiple_of(2) {
            DRAW - self.limits.contempt
        } else {
            DRAW + self.limits.contempt
        }
    }

    /// A database value as a score `ply` plies from the root (draws with
    /// the contempt).
    #[inline]
    fn exact_score(&self, exact: crate::Exact, ply: usize) -> i32 {
        match exact {
            crate::Exact::Draw => self.draw_score(ply),
            e => e.score(ply),
        }
    }

    fn is_repetition(&self, pos: &G) -> bool {
        if !pos.repetition_is_draw() {
            return false;
        }
        let hash = *self.path.last().expect("path holds the current position");
        let reach = pos.reversible_plies() as usize;
        let n = self.path.len();
        let mut back = 2;
        while back <= reach && back < n {
            if self.path[n - 1 - back] == hash {
                return true;
            }
            back += 1;
        }
        false
    }

    fn search(
        &mut self,
        pos: &G,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        self.pv[ply].clear();
        if self.check_stop() {
            return 0;
        }
        match pos.status() {
            Status::Lost => return -MATE + ply as i32,
            Status::Draw => return self.draw_score(ply),
            Status::Ongoing => {}
        }
        if self.is_repetition(pos) {
            return self.draw_score(ply);
        }
        if !self.limits.no_databases
            && let Some(exact) = pos.probe()
        {
            self.nodes += 1;
            return self.exact_score(exact, ply);
        }
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        // A critical position (a side nearly blocked) is not judged at the
        // horizon: one more ply, at most MAX_EXTENSIONS times on a path.
        let critical = pos.critical();
        let mut extensions = self.extensions[ply - 1];
        if depth <= 0 && critical && extensions < MAX_EXTENSIONS {
            depth = 1;
            extensions += 1;
        }
        self.extensions[ply] = extensions;
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply, 0);
        }
        self.nodes += 1;
        if ply >= MAX_PLY - 1 {
            return pos.evaluate();
        }
        let hash = pos.hash();
        let entry = self.shared.tt.probe(hash);
        if let Some(e) = entry
            && !pv_node
            && e.depth >= depth
        {
            let s = score_from_tt(e.score, ply);
            match e.bound {
                Bound::Exact => return s,
                Bound::Lower if s >= beta => return s,
                Bound::Upper if s <= alpha => return s,
                _ => {}
            }
        }
        let tt_move = entry.and_then(|e| e.move_index);
        if G::REVERSE_FUTILITY > 0
            && !pv_node
            && !critical
            && depth <= 3
            && beta.abs() < MATE_BOUND
            && !pos.must_play_noisy()
        {
            let eval = pos.evaluate();
            if eval - G::REVERSE_FUTILITY * depth >= beta {
                return eval;
            }
        }

        let mut moves = std::mem::take(&mut self.move_bufs[ply]);
        let mut scores = std::mem::take(&mut self.score_bufs[ply]);
        moves.clear();
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            self.move_bufs[ply] = moves;
            self.score_bufs[ply] = scores;
            return -MATE + ply as i32;
        }
        // A forced reply costs no depth (games that ask for it): in every
        // node of a search with a depth limit, and on the principal
        // variation of a timed one (everywhere it costs timed searches
        // more depth than it gains).
        let mut child_depth = depth - 1;
        if moves.len() == 1
            && extensions < MAX_EXTENSIONS
            && (self.limits.depth.is_some() || pv_node)
            && pos.extend_single_reply()
        {
            child_depth = depth;
            self.extensions[ply] = extensions + 1;
        }
        let side = pos.side_to_move();
        pos.order_hints(&moves, &mut scores);
        let killers = self.killers[ply];
        for (i, &m) in moves.iter().enumerate() {
            let hint = scores[i];
            scores[i] = if tt_move == Some(i as u16) {
                10_000_000
            } else {
                if hint > 0 {
                    1_000_000 + hint
                } else if killers[0] == Some(m) {
                    900_000
                } else if killers[1] == Some(m) {
                    899_000
                } else {
                    self.history[side * G::HISTORY_SIZE + pos.history_index(m)] + hint
                }
            };
        }

        // Singular extension: when the table's move beats every other move
        // by a margin (they all fail low against its score less the
        // margin, in a search of half the depth), the table's move is
        // searched a ply deeper. When another move also reaches that
        // bound and it is above beta, two moves cut here (multi-cut).
        let mut singular = None;
        if G::SINGULAR_MARGIN > 0
            && depth >= SINGULAR_DEPTH
            && extensions < MAX_SINGULAR_EXTENSIONS
            && moves.len() > 1
            && let Some(e) = entry
            && let Some(ti) = e.move_index
            && usize::from(ti) < moves.len()
            && e.depth >= depth - 3
            && matches!(e.bound, Bound::Lower | Bound::Exact)
            && score_from_tt(e.score, ply).abs() < MATE_BOUND
        {
            let sbeta = score_from_tt(e.score, ply) - G::SINGULAR_MARGIN * depth;
            let sdepth = (depth - 1) / 2;
            let mut all_low = true;
            for (i, &m) in moves.iter().enumerate() {
                if i == usize::from(ti) {
                    continue;
                }
                let child = pos.play(m);
                self.path.push(child.hash());
                let s = -self.search(&child, sdepth, -sbeta, -sbeta + 1, ply + 1, false);
                self.path.pop();
                if self.stopped {
                    self.move_bufs[ply] = moves;
                    self.score_bufs[ply] = scores;
                    return 0;
                }
                if s >= sbeta {
                    all_low = false;
                    break;
                }
            }
            if all_low {
                singular = Some(ti);
            } else if !pv_node && sbeta >= beta {
                self.move_bufs[ply] = moves;
                self.score_bufs[ply] = scores;
                return sbeta;
            }
        }

        let alpha_orig = alpha;
        let mut best = -INF;
        let mut best_index: Option<u16> = None;
        let mut searched_quiets: [usize; 64] = [0; 64];
        let mut n_quiets = 0;
        let mut keys = std::mem::take(&mut self.key_bufs[ply]);
        fill_keys(&scores, &mut keys);
        for n in 0..moves.len() {
            let pick = pick_next(&mut keys, n);
            let m = moves[pick];
            let order_score = scores[pick];
            let noisy = pos.is_noisy(m);
            let child = pos.play(m);
            if child_depth > 0 {
                // The child probes the table (depth left): fetch its slot
                // while it checks its status, repetitions and databases.
                self.shared.tt.prefetch(child.hash());
            }
            self.path.push(child.hash());
            let mut score;
            if singular == Some(pick as u16) {
                self.extensions[ply] += 1;
                score = -self.search(&child, child_depth + 1, -beta, -alpha, ply + 1, pv_node);
                self.extensions[ply] -= 1;
            } else if n == 0 {
                score = -self.search(&child, child_depth, -beta, -alpha, ply + 1, pv_node);
            } else {
                let mut reduction = 0;
                if depth >= 3 && n >= 3 && !noisy && !critical && order_score < 899_000 {
                    reduction = if G::LOG_REDUCTIONS {
                        log_reduction(depth, n).min(depth - 2)
                    } else {
                        1 + i32::from(n >= 8) + i32::from(depth >= 8 && n >= 16)
                    };
                    if pv_node {
                        reduction -= 1;
                    }
                }
                score = -self.search(
                    &child,
                    child_depth - reduction,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    false,
                );
                if score > alpha && reduction > 0 && !self.stopped {
                    score = -self.search(&child, child_depth, -alpha - 1, -alpha, ply + 1, false);
                }
                if score > alpha && score < beta && pv_node && !self.stopped {
                    score = -self.search(&child, child_depth, -beta, -alpha, ply + 1, true);
                }
            }
            self.path.pop();
            if self.stopped {
                self.move_bufs[ply] = moves;
                self.score_bufs[ply] = scores;
                self.key_bufs[ply] = keys;
                return 0;
            }
            if score > best {
                best = score;
                best_index = Some(pick as u16);
                if score > alpha {
                    alpha = score;
                    self.set_pv(ply, m);
                    if score >= beta {
                        if !noisy {
                            let k = &mut self.killers[ply];
                            if k[0] != Some(m) {
                                k[1] = k[0];
                                k[0] = Some(m);
                            }
                            let bonus = (depth * depth).min(400);
                            let base = side * G::HISTORY_SIZE;
                            let h = &mut self.history[base + pos.history_index(m)];
                            *h += bonus - *h * bonus / 16_384;
                            for &q in &searched_quiets[..n_quiets] {
                                let h = &mut self.history[base + pos.history_index(moves[q])];
                                *h -= bonus + *h * bonus / 16_384;
                            }
                        }
                        break;
                    }
                }
            }
            if !noisy && n_quiets < searched_quiets.len() {
                searched_quiets[n_quiets] = pick;
                n_quiets += 1;
            }
        }
        self.move_bufs[ply] = moves;
        self.score_bufs[ply] = scores;
        self.key_bufs[ply] = keys;
        let bound = Bound::of(best, alpha_orig, beta);
        self.shared
            .tt
            .store(hash, best_index, score_to_tt(best, ply), 0, depth, bound);
        best
    }

    fn qsearch(&mut self, pos: &G, mut alpha: i32, beta: i32, ply: usize, qdepth: i32) -> i32 {
        self.pv[ply].clear();
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY - 1 {
            return pos.evaluate();
        }
        if !self.limits.no_databases
            && let Some(exact) = pos.probe()
        {
            return self.exact_score(exact, ply);
        }
        let forced = pos.must_play_noisy();
        let mut best = -INF;
        // A side that must capture has no standing score: it is evaluated
        // only when it may stand (or the quiescence ends here).
        if !forced || qdepth >= MAX_QDEPTH {
            let stand = pos.evaluate();
            if stand >= beta || qdepth >= MAX_QDEPTH {
                return stand;
            }
            best = stand;
            alpha = alpha.max(stand);
        }
        let mut moves = std::mem::take(&mut self.move_bufs[ply]);
        let mut scores = std::mem::take(&mut self.score_bufs[ply]);
        moves.clear();
        if forced {
            pos.legal_moves(&mut moves);
        } else {
            pos.noisy_moves(&mut moves);
            // The quiet tactics: with a depth limit everywhere, in a
            // timed search on the principal variation (an open window).
            if qdepth == 0 && (self.limits.depth.is_some() || beta - alpha > 1) {
                pos.quiet_tactics(&mut moves);
            }
        }
        pos.order_hints(&moves, &mut scores);
        let mut keys = std::mem::take(&mut self.key_bufs[ply]);
        fill_keys(&scores, &mut keys);
        for n in 0..moves.len() {
            let pick = pick_next(&mut keys, n);
            let m = moves[pick];
            let child = pos.play(m);
            let score = match child.status() {
                Status::Lost => MATE - ply as i32 - 1,
                Status::Draw => -self.draw_score(ply + 1),
                Status::Ongoing => {
                    if self.check_stop() {
                        break;
                    }
                    -self.qsearch(&child, -beta, -alpha, ply + 1, qdepth + 1)
                }
            };
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.set_pv(ply, m);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.move_bufs[ply] = moves;
        self.score_bufs[ply] = scores;
        self.key_bufs[ply] = keys;
        if best == -INF {
            // Forced to move but nothing to play: lost.
            return -MATE + ply as i32;
        }
        best
    }
}

/// Sort keys for the move picker: the score in the high bits, the move's
/// index (inverted, so the earlier of equal scores comes first) in the low.
#[inline]
fn fill_keys(scores: &[i32], keys: &mut Vec<i64>) {
    keys.clear();
    keys.extend(
        scores
            .iter()
            .enumerate()
            .map(|(i, &s)| (i64::from(s) << 16) | (0xFFFF - i as i64)),
    );
}

/// Selection sort, one step: move the best remaining key to position `n`
/// and return the index of its move.
#[inline]
fn pick_next(keys: &mut [i64], n: usize) -> usize {
    let mut best = n;
    for j in n + 1..keys.len() {
        if keys[j] > keys[best] {
            best = j;
        }
    }
    keys.swap(n, best);
    (0xFFFF - (keys[n] & 0xFFFF)) as usize
}

/// The share (percent) of the soft time limit to use with a clock, after a
/// completed depth: more while the best move keeps changing or its score
/// falls, less once it has stayed best for several depths.
fn soft_percent(stable_depths: u32, last_score: Option<i32>, score: i32) -> u32 {
    let mut percent = match stable_depths {
        0 => 150,
        1 => 115,
        2 | 3 => 100,
        _ => 70,
    };
    if let Some(last) = last_score
        && last.abs() < MATE_BOUND
        && score < last - 30
    {
        percent += if score < last - 80 { 100 } else { 50 };
    }
    percent
}

/// Late-move reduction by depth and move number: ½ + ln(depth)·ln(n)/2.
fn log_reduction(depth: i32, n: usize) -> i32 {
    static TABLE: std::sync::OnceLock<[[u8; 64]; 64]> = std::sync::OnceLock::new();
    let t = TABLE.get_or_init(|| {
        let mut t = [[0u8; 64]; 64];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (i, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.75 + (d as f64).ln() * (i as f64).ln() / 1.75) as u8;
            }
        }
        t
    });
    i32::from(t[depth.clamp(1, 63) as usize][n.clamp(1, 63)]).max(1)
}

/// The share (percent) of the soft time limit a root solver may use
/// ([`Game::sound_moves`]).
const SOLVE_SHARE: u32 = 70;

/// The nodes a root solver may use when the search has no time limit.
const SOLVE_NODES: u64 = 2_000_000;

/// Soft (do not start another depth) and hard (stop at once) time limits.
fn time_budget(limits: &Limits) -> (Option<Duration>, Option<Duration>) {
    if limits.infinite {
        return (None, None);
    }
    let mut soft: Option<Duration> = None;
    let mut hard: Option<Duration> = None;
    if let Some(t) = limits.movetime {
        soft = Some(t);
        hard = Some(t);
    }
    if let Some(c) = limits.clock {
        let overhead = Duration::from_millis(20);
        let mtg = c.moves_to_go.unwrap_or(30).clamp(1, 50);
        let left = c.time.saturating_sub(overhead);
        let base = left / mtg + c.increment * 3 / 4;
        // The last move before a time control: what is left now is given
        // back with the next control, so most of it is spent (a tenth kept
        // against the overhead of the program that keeps the clock).
        let most = if mtg == 1 { left * 9 / 10 } else { left / 2 };
        let h = (base * 4).min(most).max(Duration::from_millis(1));
        let s = (base * 6 / 10).min(h);
        soft = Some(soft.map_or(s, |x| x.min(s)));
        hard = Some(hard.map_or(h, |x| x.min(h)));
    }
    (soft, hard)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unstable_best_move_gets_more_time_a_stable_one_less() {
        assert_eq!(soft_percent(2, Some(10), 10), 100);
        assert!(soft_percent(0, Some(10), 10) > 100);
        assert!(soft_percent(6, Some(10), 10) < 100);
        // A falling score asks for more, the more it falls.
        let small = soft_percent(2, Some(10), -30);
        let big = soft_percent(2, Some(10), -100);
        assert!(100 < small && small < big, "{small} {big}");
        // Wins and losses are not "falls".
        assert_eq!(soft_percent(2, Some(MATE - 5), 10), 100);
    }

    #[test]
    fn a_clock_leaves_room_for_the_hard_limit() {
        let limits = Limits {
            clock: Some(crate::Clock {
                time: Duration::from_secs(60),
                increment: Duration::ZERO,
                moves_to_go: None,
            }),
            ..Limits::default()
        };
        let (soft, hard) = time_budget(&limits);
        let (soft, hard) = (soft.expect("soft"), hard.expect("hard"));
        // The most the search may stretch the soft limit stays below the hard one.
        assert!(
            soft * soft_percent(0, Some(0), -200) / 100 <= hard,
            "{soft:?} {hard:?}"
        );
    }

    #[test]
    fn the_last_move_before_a_time_control_spends_most_of_the_time() {
        let budget = |moves_to_go| {
            let (soft, hard) = time_budget(&Limits {
                clock: Some(crate::Clock {
                    time: Duration::from_secs(10),
                    increment: Duration::ZERO,
                    moves_to_go: Some(moves_to_go),
                }),
                ..Limits::default()
            });
            (soft.expect("soft"), hard.expect("hard"))
        };
        let (soft, hard) = budget(1);
        // 10 s less the overhead: 5.9 s to start a depth, 8.9 s at most.
        assert!(soft >= Duration::from_millis(5900), "{soft:?}");
        assert!(
            hard >= Duration::from_millis(8900) && hard < Duration::from_secs(9),
            "{hard:?}"
        );
        // Two moves to go: never more than half of what is left.
        let (soft, hard) = budget(2);
        assert!(
            hard <= Duration::from_secs(5) && soft < hard,
            "{soft:?} {hard:?}"
        );
    }
}
