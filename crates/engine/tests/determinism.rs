//! Fixed-depth single-thread search is exactly reproducible; two threads work.

use std::sync::atomic::AtomicBool;

use engine::MuehleState;
use muehle::Position;
use search::{Engine, Limits};

const POSITIONS: [&str; 3] = [
    ".../.../.../....../.../.../... w 9 9 0 1",
    "W.B/.WB/W.B/BW..WB/.W./B.W/... w 0 0 12 20",
    "WW./.B./B../....../.W./.B./... b 0 0 2 45",
];

fn run(fen: &str, threads: usize, depth: u32) -> (Option<String>, String, u64) {
    let pos: Position = fen.parse().expect("valid position");
    let engine = Engine::new(8, threads);
    let stop = AtomicBool::new(false);
    let r = engine.search(
        &MuehleState::new(pos),
        &[],
        Limits::depth(depth),
        1,
        &stop,
        &mut |_| {},
    );
    (r.best.map(|m| m.to_string()), r.score.protocol(), r.nodes)
}

#[test]
fn fixed_depth_single_thread_search_gives_the_same_move_score_and_nodes() {
    for fen in POSITIONS {
        let first = run(fen, 1, 7);
        for _ in 0..2 {
            assert_eq!(run(fen, 1, 7), first, "{fen}");
        }
        assert!(first.2 > 100, "{fen}: searched only {} nodes", first.2);
    }
}

#[test]
fn two_threads_find_a_legal_move() {
    for fen in POSITIONS {
        let pos: Position = fen.parse().expect("valid position");
        let (best, _, nodes) = run(fen, 2, 7);
        let best = best.expect("a move");
        assert!(pos.parse_move(&best).is_ok(), "{fen}: {best}");
        assert!(nodes > 0);
    }
}
