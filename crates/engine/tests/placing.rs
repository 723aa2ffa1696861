//! The placing-phase solver: its values are those of a plain minimax over
//! the remaining placements down to the databases, the moves it calls sound
//! are exactly those that keep the value, it stops within its budget, and
//! the engine's search plays only sound moves where it solves the root.

use std::sync::atomic::AtomicBool;

use engine::MuehleState;
use engine::muehle::placing::{
    PlacingSolver, PlacingTable, Unsolved, all_sound_moves, sound_moves,
};
use muehle::{Bitboard, Color, Position, RuleSet, Setup, Square};
use search::{Engine, Limits, SolveBudget};
use tablebase::{Tablebase, Variant};

use crate::common;

/// Random placing positions with two to four placements left, three or
/// four stones a side (placing ends in sector 3-3 or 4-4, or after mills
/// in smaller ones), no mill on the board. With three stones a side most
/// are won or lost, with four most are drawn.
fn positions(n: usize, seed: u64) -> Vec<Position> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut out = Vec::new();
    while out.len() < n {
        let stones = rng.u8(3..=4);
        let white_on = rng.u8(stones - 2..stones);
        // Black has placed as many (White to move) or one fewer (Black).
        let black_to_move = white_on == stones - 1 && rng.bool();
        let black_on = if black_to_move {
            white_on - 1
        } else {
            white_on
        };
        let mut free: Vec<Square> = Square::ALL.to_vec();
        rng.shuffle(&mut free);
        let w = free[..usize::from(white_on)]
            .iter()
            .fold(Bitboard::EMPTY, |b, s| b | s.bb());
        let b = free[usize::from(white_on)..usize::from(white_on + black_on)]
            .iter()
            .fold(Bitboard::EMPTY, |b, s| b | s.bb());
        let setup = Setup {
            stones: [w, b],
            in_hand: [stones - white_on, stones - black_on],
            turn: if black_to_move {
                Color::Black
            } else {
                Color::White
            },
            plies_since_mill: 0,
            move_number: 1,
        };
        if let Ok(p) = Position::from_setup(setup, RuleSet::STANDARD)
            && w.in_mills().count() == 0
            && b.in_mills().count() == 0
        {
            out.push(p);
        }
    }
    out
}

fn databases() -> (tempfile::TempDir, Tablebase) {
    let dir = tempfile::tempdir().unwrap();
    tablebase::build_sectors(dir.path(), Variant::STANDARD, "4-4").unwrap();
    let tb = Tablebase::new(dir.path(), Variant::STANDARD);
    (dir, tb)
}

/// Plain minimax over every placement, the databases at the end.
fn minimax(tb: &Tablebase, pos: &Position) -> i8 {
    engine::muehle::databases::exact_value(tb, pos, 4)
        .expect("the databases hold every end of placing")
        .wdl()
        .signum()
}

#[test]
fn the_solver_agrees_with_minimax_and_finds_the_sound_moves() {
    let _state = common::one_at_a_time();
    let (_dir, tb) = databases();
    let table = PlacingTable::new(1_000_000);
    let stop = AtomicBool::new(false);
    let mut seen = [0usize; 3];
    for pos in positions(60, 5) {
        let want = minimax(&tb, &pos);
        seen[(want + 1) as usize] += 1;
        let mut solver = PlacingSolver::new(&tb, &table, u64::MAX);
        assert_eq!(solver.solve(&pos), Ok(want), "{}", pos.fen());
        // Each move's value, and the sound ones.
        let moves = solver.solve_moves(&pos).unwrap();
        let sound = all_sound_moves(&tb, &pos);
        for (m, v) in &moves {
            let mut child = pos;
            child.play_unchecked(*m);
            assert_eq!(-minimax(&tb, &child), *v, "{} {m}", pos.fen());
            if want >= 0 {
                let sound = sound.as_ref().expect("solved");
                assert_eq!(sound.contains(m), *v == want, "{} {m}", pos.fen());
            }
        }
        if want < 0 {
            assert_eq!(sound, None, "a lost position restricts nothing");
        }
        // With a small budget: fewer moves or none, never one that loses
        // the value.
        for nodes in [20, 100, 500] {
            let budget = SolveBudget {
                deadline: None,
                nodes,
                stop: &stop,
            };
            if let Some(some) = sound_moves(&tb, &pos, &budget) {
                assert!(!some.is_empty());
                for m in some {
                    assert!(
                        moves.iter().any(|&(x, v)| x == m && v == want),
                        "{} {m} with {nodes} nodes",
                        pos.fen()
                    );
                }
            }
        }
    }
    // The sample holds every kind of value.
    assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
}

#[test]
fn the_solver_stops_within_its_budget() {
    let _state = common::one_at_a_time();
    let (_dir, tb) = databases();
    let table = PlacingTable::new(1_000_000);
    let mut tiny = PlacingSolver::new(&tb, &table, 3);
    let v = tiny.solve(&Position::new(RuleSet::STANDARD));
    assert_eq!(v, Err(Unsolved::Budget));
    assert!(tiny.nodes() <= 4);
    // Stopped from outside: no answer.
    let stop = AtomicBool::new(true);
    let budget = SolveBudget {
        deadline: None,
        nodes: u64::MAX,
        stop: &stop,
    };
    let empty = PlacingTable::new(1000);
    let mut stopped = PlacingSolver::with_budget(&tb, &empty, &budget);
    // A position needing more than a few hundred nodes.
    let mut start = Position::new(RuleSet::STANDARD);
    start.play_unchecked(start.parse_move("d2").unwrap());
    assert!(stopped.solve(&start).is_err());
    // Sectors that are not built: missing, not a wrong value.
    let mut full = PlacingSolver::new(&tb, &table, u64::MAX);
    let squares = |names: &[&str]| {
        names.iter().fold(Bitboard::EMPTY, |b, n| {
            b | n.parse::<Square>().unwrap().bb()
        })
    };
    let setup = Setup {
        stones: [
            squares(&["a1", "d2", "g4", "b6"]),
            squares(&["g1", "d6", "a4", "f2"]),
        ],
        in_hand: [1, 1],
        ..Setup::START
    };
    let five = Position::from_setup(setup, RuleSet::STANDARD).unwrap();
    assert_eq!(full.solve(&five), Err(Unsolved::Missing), "{}", five.fen());
}

#[test]
fn the_search_plays_only_sound_moves_where_it_solves_the_root() {
    let _state = common::one_at_a_time();
    let (dir, tb) = databases();
    engine::muehle::databases::install(Some(dir.path()));
    let engine = Engine::new(16, 1);
    let stop = AtomicBool::new(false);
    let mut checked = 0;
    let mut mistakes_alone = 0;
    for pos in positions(40, 21) {
        let want = minimax(&tb, &pos);
        // The search alone at depth 1 cannot see to the end of placing;
        // only the solver keeps it from moves that lose.
        let result = engine.search(
            &MuehleState::new(pos),
            &[],
            Limits::depth(1),
            1,
            &stop,
            &mut |_| {},
        );
        let mut child = pos;
        child.play_unchecked(result.best.unwrap());
        assert_eq!(-minimax(&tb, &child), want, "{}", pos.fen());
        checked += 1;
        // Without the databases the solver is not asked, and the same
        // search goes wrong in some of these positions.
        let alone = engine.search(
            &MuehleState::new(pos),
            &[],
            Limits {
                no_databases: true,
                ..Limits::depth(1)
            },
            1,
            &stop,
            &mut |_| {},
        );
        let mut child = pos;
        child.play_unchecked(alone.best.unwrap());
        if -minimax(&tb, &child) < want {
            mistakes_alone += 1;
        }
    }
    assert_eq!(checked, 40);
    assert!(
        mistakes_alone > 0,
        "the sample needs positions the search alone gets wrong"
    );
}
