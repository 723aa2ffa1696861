//! The generic search on a game small enough to know the truth: tic-tac-toe.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use search::{Engine, Game, Limits, Score, Status};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Ttt {
    cells: [u8; 9], // 0 empty, 1 x, 2 o
    x_to_move: bool,
}

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

impl Ttt {
    fn new() -> Ttt {
        Ttt {
            cells: [0; 9],
            x_to_move: true,
        }
    }
    fn from(s: &str, x_to_move: bool) -> Ttt {
        let mut cells = [0; 9];
        for (i, c) in s.chars().enumerate() {
            cells[i] = match c {
                'x' => 1,
                'o' => 2,
                _ => 0,
            };
        }
        Ttt { cells, x_to_move }
    }
    fn winner(&self) -> u8 {
        for l in LINES {
            let v = self.cells[l[0]];
            if v != 0 && v == self.cells[l[1]] && v == self.cells[l[2]] {
                return v;
            }
        }
        0
    }
}

impl Game for Ttt {
    type Move = u8;
    const HISTORY_SIZE: usize = 9;

    fn legal_moves(&self, moves: &mut Vec<u8>) {
        if self.status() != Status::Ongoing {
            return;
        }
        moves.extend((0..9u8).filter(|&i| self.cells[i as usize] == 0));
    }
    fn play(&self, mv: u8) -> Ttt {
        let mut n = *self;
        n.cells[mv as usize] = if self.x_to_move { 1 } else { 2 };
        n.x_to_move = !self.x_to_move;
        n
    }
    fn hash(&self) -> u64 {
        let mut h = u64::from(self.x_to_move);
        for c in self.cells {
            h = h.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ u64::from(c + 1);
        }
        h
    }
    fn status(&self) -> Status {
        match self.winner() {
            0 if self.cells.iter().all(|&c| c != 0) => Status::Draw,
            0 => Status::Ongoing,
            // The side that just moved made the line: the side to move lost.
            _ => Status::Lost,
        }
    }
    fn evaluate(&self) -> i32 {
        // Deliberately weak: centre control only.
        let me = if self.x_to_move { 1 } else { 2 };
        match self.cells[4] {
            0 => 0,
            v if v == me => 10,
            _ => -10,
        }
    }
    fn side_to_move(&self) -> usize {
        usize::from(!self.x_to_move)
    }
    fn reversible_plies(&self) -> u32 {
        0
    }
    fn is_noisy(&self, _mv: u8) -> bool {
        false
    }
    fn order_hint(&self, _mv: u8) -> i32 {
        0
    }
    fn history_index(&self, mv: u8) -> usize {
        mv as usize
    }
    /// A book for the empty board: an edge square (a draw, but not the
    /// search's choice).
    fn book_move(&self) -> Option<u8> {
        (self.cells == [0; 9]).then_some(BOOK_MOVE)
    }
    /// No quiet tactics, but the calls are counted (on the searching
    /// thread: a one-thread search runs on the caller's).
    fn quiet_tactics(&self, _moves: &mut Vec<u8>) {
        QUIET_TACTICS_CALLS.with(|c| c.set(c.get() + 1));
    }
}

thread_local! {
    static QUIET_TACTICS_CALLS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

const BOOK_MOVE: u8 = 1;

fn search(pos: &Ttt, limits: Limits) -> search::SearchResult<u8> {
    let engine = Engine::new(1, 1);
    let stop = AtomicBool::new(false);
    engine.search(pos, &[], limits, 1, &stop, &mut |_| {})
}

#[test]
fn perfect_play_from_the_start_is_a_draw() {
    let r = search(&Ttt::new(), Limits::depth(20));
    assert_eq!(r.score, Score::Cp(0), "{r:?}");
}

#[test]
fn finds_the_immediate_win_as_win_in_one() {
    // x x . / o o . / . . .  — x to move wins at 2.
    let pos = Ttt::from("xx.oo....", true);
    let r = search(&pos, Limits::depth(3));
    assert_eq!(r.best, Some(2));
    assert_eq!(r.score, Score::Mate(1));
}

#[test]
fn blocks_the_opponents_line() {
    // o o . / x . . / x . .  — hmm: x to move must block at 2 (o threatens 0-1-2),
    // x's own threat 0-3-6 is blocked by o at 0, so blocking is the only move that does not lose.
    let pos = Ttt::from("oo.x..x..", true);
    let r = search(&pos, Limits::depth(9));
    assert_eq!(r.best, Some(2));
}

#[test]
fn a_fork_is_a_win_in_two() {
    // x . o / . o . / . . x, x to move: o threatens 2-4-6, so x blocks on 6,
    // which threatens 0-3-6 and 6-7-8 at once: o can stop only one.
    let pos = Ttt::from("x.o.o...x", true);
    let r = search(&pos, Limits::depth(9));
    assert_eq!(r.score, Score::Mate(2), "{r:?}");
    assert_eq!(r.best, Some(6), "{r:?}");
    // The line ends with the win.
    let line = &r.lines[0].1;
    let mut p = pos;
    for &m in line {
        p = p.play(m);
    }
    assert_eq!(p.status(), Status::Lost);
}

#[test]
fn a_lost_position_reports_loss_in_n() {
    // o to move after x's fork on 0, 6, 8 (o on 2 and 4): x threatens 3 and 7.
    let pos = Ttt::from("x.o.o.x.x", false);
    let r = search(&pos, Limits::depth(9));
    assert_eq!(r.score, Score::Mate(-1), "{r:?}");
}

#[test]
fn fixed_depth_single_thread_search_is_reproducible() {
    let a = search(&Ttt::new(), Limits::depth(7));
    let b = search(&Ttt::new(), Limits::depth(7));
    assert_eq!((a.best, a.score, a.nodes), (b.best, b.score, b.nodes));
}

#[test]
fn node_limit_is_respected() {
    let r = search(&Ttt::new(), Limits::nodes(200));
    assert!(r.nodes <= 210, "searched {} nodes", r.nodes);
    assert!(r.best.is_some());
}

#[test]
fn stop_ends_an_infinite_search_at_once() {
    let engine = Arc::new(Engine::new(1, 2));
    let stop = Arc::new(AtomicBool::new(false));
    let (e, s) = (engine.clone(), stop.clone());
    let handle = std::thread::spawn(move || {
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        e.search(&Ttt::new(), &[], limits, 1, &s, &mut |_| {})
    });
    std::thread::sleep(Duration::from_millis(100));
    let t = Instant::now();
    stop.store(true, Ordering::Relaxed);
    let r = handle.join().expect("search thread");
    assert!(
        t.elapsed() < Duration::from_millis(500),
        "took {:?} to stop",
        t.elapsed()
    );
    assert!(r.best.is_some());
}

#[test]
fn the_game_over_at_the_root_gives_no_move() {
    let pos = Ttt::from("xxxoo....", false);
    let r = search(&pos, Limits::depth(3));
    assert_eq!(r.best, None);
}

#[test]
fn multipv_returns_distinct_lines_best_first() {
    let engine = Engine::new(1, 1);
    let stop = AtomicBool::new(false);
    let pos = Ttt::from("xx.oo....", true);
    let r = engine.search(&pos, &[], Limits::depth(5), 3, &stop, &mut |_| {});
    assert_eq!(r.lines.len(), 3);
    assert_eq!(r.lines[0].1[0], 2);
    assert_eq!(r.lines[0].0, Score::Mate(1));
    let firsts: std::collections::HashSet<u8> = r.lines.iter().map(|l| l.1[0]).collect();
    assert_eq!(firsts.len(), 3);
}

#[test]
fn movetime_is_kept() {
    let engine = Engine::new(1, 1);
    let stop = AtomicBool::new(false);
    let t = Instant::now();
    let limits = Limits {
        movetime: Some(Duration::from_millis(150)),
        ..Limits::default()
    };
    let r = engine.search(&Ttt::new(), &[], limits, 1, &stop, &mut |_| {});
    assert!(r.best.is_some());
    assert!(t.elapsed() < Duration::from_millis(1000));
}

/// The game-theoretic value by plain minimax: 1 win, 0 draw, -1 loss, and the
/// number of plies to the end under best play (win fast, lose slow).
fn minimax(p: &Ttt) -> (i32, i32) {
    match p.status() {
        Status::Lost => return (-1, 0),
        Status::Draw => return (0, 0),
        Status::Ongoing => {}
    }
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    moves
        .iter()
        .map(|&m| {
            let (v, d) = minimax(&p.play(m));
            (-v, d + 1)
        })
        .max_by_key(|&(v, d)| if v > 0 { (v, -d) } else { (v, d) })
        .expect("an ongoing position has moves")
}

#[test]
fn every_reachable_position_gets_its_true_value() {
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![Ttt::new()];
    let mut wrong = Vec::new();
    while let Some(p) = stack.pop() {
        if !seen.insert(p) || p.status() != Status::Ongoing {
            continue;
        }
        let (v, plies) = minimax(&p);
        let r = search(&p, Limits::depth(12));
        let expected = match v {
            1 => Score::Mate((plies + 1) / 2),
            -1 => Score::Mate(-(plies / 2)),
            _ => Score::Cp(0),
        };
        if r.score != expected {
            wrong.push(format!("{p:?}: expected {expected:?}, got {:?}", r.score));
        }
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        stack.extend(moves.into_iter().map(|m| p.play(m)));
    }
    assert!(seen.len() > 5000);
    assert!(
        wrong.is_empty(),
        "{} wrong, e.g. {:?}",
        wrong.len(),
        &wrong[..wrong.len().min(3)]
    );
}

#[test]
fn a_single_legal_move_is_played_at_once_on_a_clock_and_searched_on_with_a_fixed_time() {
    // x o x / x o o / o x . — x to move has only the last square.
    let pos = Ttt::from("xoxxooox.", true);
    let clock = Limits {
        clock: Some(search::Clock {
            time: Duration::from_secs(60),
            increment: Duration::ZERO,
            moves_to_go: None,
        }),
        ..Limits::default()
    };
    let r = search(&pos, clock);
    assert_eq!(r.best, Some(8));
    assert_eq!(r.depth, 1, "a forced move is not thought over");
    // A fixed time a move cannot be kept for later: the only move is
    // searched on (filling the table for the next search).
    let r = search(&pos, Limits::movetime(Duration::from_millis(200)));
    assert_eq!(r.best, Some(8));
    assert!(r.depth > 1, "searched on: depth {}", r.depth);
    // Unless asked for at once (a person waits, the table is not kept).
    let at_once = Limits {
        answer_only_move: true,
        ..Limits::movetime(Duration::from_secs(60))
    };
    let r = search(&pos, at_once);
    assert_eq!((r.best, r.depth), (Some(8), 1));
    // A fixed depth is searched to the end all the same.
    let r = search(&pos, Limits::depth(5));
    assert_eq!(r.depth, 5);
}

#[test]
fn draws_cost_the_root_side_its_contempt() {
    // Perfect play from the start is a draw: 0 without contempt, −7 for
    // the side to move with a contempt of 7, whoever that side is.
    let exact = search(&Ttt::new(), Limits::depth(20));
    assert_eq!(exact.score, Score::Cp(0));
    let with = |pos: &Ttt| {
        search(
            pos,
            Limits {
                depth: Some(20),
                contempt: 7,
                ..Limits::default()
            },
        )
    };
    assert_eq!(with(&Ttt::new()).score, Score::Cp(-7));
    let o_to_move = Ttt::from("....x....", false);
    assert_eq!(with(&o_to_move).score, Score::Cp(-7));
    // A forced win stays a win.
    assert_eq!(with(&Ttt::from("x.o.o...x", true)).score, Score::Mate(2));
}

#[test]
fn a_better_move_found_in_an_unfinished_depth_is_played() {
    // x to move must block o's line 2-4-6 on 6 (which also wins); the
    // shallow depths prefer other moves. With node limits that stop the
    // search inside a depth, the answer either is the best move of the
    // last finished depth, or a move that beat it in the unfinished one.
    let pos = Ttt::from("x.o.o...x", true);
    let mut partial = 0;
    for n in 1..3000 {
        let r = search(&pos, Limits::nodes(n));
        if r.depth == 0 {
            continue;
        }
        let finished = search(&pos, Limits::depth(r.depth));
        if r.best != finished.best {
            partial += 1;
            // Only the winning block beats the finished depth's choice.
            assert_eq!(r.best, Some(6), "at {n} nodes: {r:?} vs {finished:?}");
        }
    }
    assert!(
        partial > 0,
        "no node limit stopped inside a depth after a new best move"
    );
}

#[test]
fn a_playing_search_plays_the_book_move_and_analysis_does_not() {
    let start = Ttt::new();
    let own = search(&start, Limits::depth(9)).best.expect("a move");
    assert_ne!(own, BOOK_MOVE, "the book's move is not the search's own");
    let playing = Limits::depth(9).playing::<Ttt>();
    assert!(playing.book);
    let r = search(&start, playing);
    // The book's move is searched alone: its value is still exact.
    assert_eq!((r.best, r.score), (Some(BOOK_MOVE), Score::Cp(0)));
    assert_eq!(r.lines[0].1.first(), Some(&BOOK_MOVE));
    // On a clock it is answered at once.
    let clock = Limits {
        clock: Some(search::Clock {
            time: Duration::from_secs(60),
            increment: Duration::ZERO,
            moves_to_go: None,
        }),
        book: true,
        ..Limits::default()
    };
    let r = search(&start, clock);
    assert_eq!((r.best, r.depth), (Some(BOOK_MOVE), 1));
    // With two threads the helpers search it too.
    let stop = AtomicBool::new(false);
    let r = Engine::new(1, 2).search(&start, &[], playing, 1, &stop, &mut |_| {});
    assert_eq!(r.best, Some(BOOK_MOVE));
    // Analysis shows every move: two lines, or an infinite search.
    let r = Engine::new(1, 1).search(&start, &[], playing, 2, &stop, &mut |_| {});
    assert_eq!(r.lines.len(), 2);
    let infinite = Limits {
        infinite: true,
        ..playing
    };
    let stop = Arc::new(AtomicBool::new(false));
    let stopper = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(100));
            stop.store(true, Ordering::Relaxed);
        })
    };
    let r = Engine::new(1, 1).search(&start, &[], infinite, 1, &stop, &mut |_| {});
    stopper.join().unwrap();
    assert_eq!(r.best, Some(own));
}

/// The quiet tactics are asked for at every horizon of a search with a
/// depth limit, and in a search limited by nodes or time only on the
/// principal variation: there too, but in a small share of the horizons.
#[test]
fn a_timed_search_asks_for_the_quiet_tactics_on_the_principal_variation_only() {
    let pos = Ttt::from("x...o....", true);
    let run = |limits: Limits| {
        let before = QUIET_TACTICS_CALLS.with(|c| c.get());
        let r = search(&pos, limits);
        (QUIET_TACTICS_CALLS.with(|c| c.get()) - before, r.nodes)
    };
    let (with_depth, depth_nodes) = run(Limits::depth(4));
    let (by_nodes, nodes) = run(Limits::nodes(depth_nodes));
    println!("depth 4: {with_depth} calls in {depth_nodes} nodes; by nodes: {by_nodes} in {nodes}");
    assert!(with_depth > 0);
    assert!(by_nodes > 0, "the principal variation's horizons ask too");
    assert!(
        by_nodes * 4 < with_depth,
        "the other horizons do not: {by_nodes} calls by nodes, {with_depth} with a depth limit"
    );
}

/// Tic-tac-toe with singular extensions (the search's own test game has
/// them off): the same positions, moves and evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Singular(Ttt);

impl Game for Singular {
    type Move = u8;
    const HISTORY_SIZE: usize = 9;
    const SINGULAR_MARGIN: i32 = 1;

    fn legal_moves(&self, moves: &mut Vec<u8>) {
        self.0.legal_moves(moves);
    }
    fn play(&self, mv: u8) -> Singular {
        Singular(self.0.play(mv))
    }
    fn hash(&self) -> u64 {
        self.0.hash()
    }
    fn status(&self) -> Status {
        self.0.status()
    }
    fn evaluate(&self) -> i32 {
        self.0.evaluate()
    }
    fn side_to_move(&self) -> usize {
        self.0.side_to_move()
    }
    fn reversible_plies(&self) -> u32 {
        self.0.reversible_plies()
    }
    fn is_noisy(&self, mv: u8) -> bool {
        self.0.is_noisy(mv)
    }
    fn order_hint(&self, mv: u8) -> i32 {
        self.0.order_hint(mv)
    }
    fn history_index(&self, mv: u8) -> usize {
        self.0.history_index(mv)
    }
}

#[test]
fn singular_extensions_change_the_tree_and_keep_every_true_value() {
    let engine = Engine::new(1, 1);
    let stop = AtomicBool::new(false);
    let run = |p: &Singular| {
        engine.clear();
        engine.search(p, &[], Limits::depth(12), 1, &stop, &mut |_| {})
    };
    // They run: the same search from the start visits other nodes.
    let with = run(&Singular(Ttt::new()));
    let without = search(&Ttt::new(), Limits::depth(12));
    assert_eq!(with.score, Score::Cp(0));
    assert_ne!(with.nodes, without.nodes, "no singular extension was made");
    // And they cut nothing they should not: every value stays exact.
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![Ttt::new()];
    let mut wrong = Vec::new();
    while let Some(p) = stack.pop() {
        if !seen.insert(p) || p.status() != Status::Ongoing {
            continue;
        }
        let (v, plies) = minimax(&p);
        let expected = match v {
            1 => Score::Mate((plies + 1) / 2),
            -1 => Score::Mate(-(plies / 2)),
            _ => Score::Cp(0),
        };
        let r = run(&Singular(p));
        if r.score != expected {
            wrong.push(format!("{p:?}: expected {expected:?}, got {:?}", r.score));
        }
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        stack.extend(moves.into_iter().map(|m| p.play(m)));
    }
    assert!(
        wrong.is_empty(),
        "{} wrong, e.g. {:?}",
        wrong.len(),
        &wrong[..wrong.len().min(3)]
    );
}
