//! The engine with Mühle's databases: exact scores agree with a search that
//! finds short forced wins by itself, the root plays from the databases by
//! the documented rule, and weaker levels do not use them.

use std::sync::atomic::AtomicBool;

use engine::MuehleState;
use muehle::{Bitboard, Color, Position, RuleSet};
use search::{Engine, Limits, Score};
use tablebase::{SectorIndex, Value, Variant, position_of};

use crate::common;

fn search(pos: &Position, limits: Limits) -> search::SearchResult<muehle::Move> {
    let engine = Engine::new(16, 1);
    let stop = AtomicBool::new(false);
    engine.search(&MuehleState::new(*pos), &[], limits, 1, &stop, &mut |_| {})
}

fn no_databases(depth: u32) -> Limits {
    Limits {
        no_databases: true,
        ..Limits::depth(depth)
    }
}

/// Positions of sector 3-3 (White to move) with the given value, found by
/// walking the sector in index order from a few starting points.
fn positions_with(tb: &tablebase::Tablebase, want: Value, n: usize) -> Vec<Position> {
    let idx = SectorIndex::new(3, 3);
    let mut rng = fastrand::Rng::with_seed(11);
    let mut out = Vec::new();
    let mut i = rng.u64(0..idx.size());
    for step in 0..3_000_000u64 {
        if step % 50_000 == 0 {
            i = rng.u64(0..idx.size());
        }
        i = (i + 1) % idx.size();
        if !idx.is_canonical(i) {
            continue;
        }
        let (m, o) = idx.position(i);
        if tb.probe_stones(Bitboard(m), Bitboard(o)).ok() == Some(want)
            && let Ok(p) = position_of(m, o, Color::White, RuleSet::STANDARD)
        {
            out.push(p);
            if out.len() == n {
                break;
            }
        }
    }
    assert_eq!(out.len(), n, "not enough positions with {want}");
    out
}

#[test]
fn databases_agree_with_search_and_guide_the_root() {
    let _state = common::one_at_a_time();
    let dir = tempfile::tempdir().unwrap();
    tablebase::build_sectors(dir.path(), Variant::STANDARD, "3-4").unwrap();
    engine::muehle::databases::install(Some(dir.path()));
    let tb = engine::muehle::databases::for_rules(&RuleSet::STANDARD).unwrap();

    // Short forced wins: the search alone finds the same distance.
    for plies in [1u16, 3, 5] {
        for pos in positions_with(tb, Value::Win(plies), 4) {
            let moves = u32::from(plies).div_ceil(2) as i32;
            let alone = search(&pos, no_databases(u32::from(plies) + 1));
            assert_eq!(
                alone.score,
                Score::Mate(moves),
                "{} (search alone)",
                pos.fen()
            );
            let with = search(&pos, Limits::depth(2));
            assert_eq!(with.score, Score::Mate(moves), "{} (databases)", pos.fen());
            // The move played keeps the shortest win.
            let mut next = pos;
            next.play_unchecked(with.best.unwrap());
            let after = tb.probe(&next).unwrap().map_or(Value::Win(1), Value::back);
            assert_eq!(after, Value::Win(plies), "{}", pos.fen());
        }
    }

    // A short forced loss: the search alone sees it too.
    for pos in positions_with(tb, Value::Loss(2), 3) {
        let alone = search(&pos, no_databases(4));
        assert_eq!(alone.score, Score::Mate(-1), "{}", pos.fen());
        assert_eq!(search(&pos, Limits::depth(1)).score, Score::Mate(-1));
    }

    // Drawn positions: the database move keeps the draw and the score is 0.
    for pos in positions_with(tb, Value::Draw, 5) {
        let r = search(&pos, Limits::depth(3));
        assert_eq!(r.score, Score::Cp(0), "{}", pos.fen());
        let mut next = pos;
        next.play_unchecked(r.best.unwrap());
        assert_eq!(tb.probe(&next).unwrap(), Some(Value::Draw), "{}", pos.fen());
        // Among the drawing moves it takes one with the most losing replies.
        let list = engine::muehle::databases::probe_moves(&pos).unwrap();
        let best_pref = list
            .iter()
            .filter(|(_, e, _)| *e == search::Exact::Draw)
            .map(|&(_, _, p)| p)
            .max()
            .unwrap();
        let chosen = list.iter().find(|(m, _, _)| Some(*m) == r.best).unwrap();
        assert_eq!(chosen.2, best_pref);
    }

    // In the placing phase the search uses database values at its leaves:
    // both sides place their last stone, then the databases know the
    // value. The depth-2 score is the minimax of those values.
    let p = Position::from_fen(
        "W../.../.../....../.../.../BWB w 1 1 0 9",
        RuleSet::STANDARD,
    )
    .unwrap();
    let mut expected = i32::MIN;
    for w in p.legal_moves() {
        let mut a = p;
        a.play_unchecked(w);
        let mut worst = i32::MAX;
        for b in a.legal_moves() {
            let mut leaf = a;
            leaf.play_unchecked(b);
            let v = engine::muehle::databases::probe(&leaf).unwrap();
            worst = worst.min(v.score(2));
        }
        expected = expected.max(worst);
    }
    let r = search(&p, Limits::depth(2));
    assert_eq!(r.score, Score::from_internal(expected));

    // Weaker levels search without the databases.
    let pos = &positions_with(tb, Value::Win(5), 1)[0];
    let mut player = engine::LevelPlayer::new(5, 1);
    let stop = AtomicBool::new(false);
    let c = player
        .choose(
            &Engine::new(16, 1),
            &MuehleState::new(*pos),
            &[],
            Limits::depth(1),
            &stop,
            &mut |_| {},
        )
        .unwrap();
    assert!(c.depth >= 1 && c.nodes > 10, "level 5 searched: {c:?}");

    engine::muehle::databases::install(None);
    assert!(engine::muehle::databases::for_rules(&RuleSet::STANDARD).is_none());
}
