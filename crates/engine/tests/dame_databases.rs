//! The search with the Dame endgame databases: held positions are scored
//! exactly and the root plays from them; the king-move counter makes the
//! probe refuse values it could change.

use std::sync::atomic::AtomicBool;

use dame::{Position, RuleSet};
use engine::DameState;
use search::{Engine, Exact, Limits, Score};
use tablebase::Value;
use tablebase::dame::{DameTablebase, Layout, Material, build_dame, position_at};

use crate::common;

fn search(pos: &Position, limits: Limits) -> search::SearchResult<dame::Move> {
    let engine = Engine::new(16, 1);
    let stop = AtomicBool::new(false);
    engine.search(&DameState::new(*pos), &[], limits, 1, &stop, &mut |_| {})
}

fn positions_with(tb: &DameTablebase, m: Material, want: Value, n: usize) -> Vec<Position> {
    let rules = RuleSet::DAME;
    let size = Layout::new(rules.board, m).size();
    let out: Vec<Position> = (0..size)
        .filter_map(|i| position_at(&rules, m, i, 0))
        .filter(|p| tb.probe_value(p) == Some(want))
        .take(n)
        .collect();
    assert_eq!(out.len(), n, "not enough positions with {want}");
    out
}

#[test]
fn dame_databases_score_exactly_and_guide_the_root() {
    let _state = common::one_at_a_time();
    let dir = tempfile::tempdir().unwrap();
    let km: Material = "KM-K".parse().unwrap();
    let kk: Material = "KK-K".parse().unwrap();
    build_dame(dir.path(), &RuleSet::DAME, &[km, kk], &mut |_| {}).unwrap();
    engine::muehle::databases::install(Some(dir.path()));
    let tb = engine::dame::databases::installed().unwrap();

    for pos in positions_with(tb, kk, Value::Win(7), 3) {
        // Without the databases a shallow search sees no win.
        let alone = search(
            &pos,
            Limits {
                no_databases: true,
                ..Limits::depth(2)
            },
        );
        assert_ne!(alone.score, Score::Mate(4), "{}", pos.fen());
        // With them the root plays from the tables: win in 7 plies.
        let with = search(&pos, Limits::depth(2));
        assert_eq!(with.score, Score::Mate(4), "{}", pos.fen());
        let mut next = pos;
        next.play_unchecked(&with.best.unwrap());
        assert_eq!(tb.probe_value(&next), Some(Value::Loss(6)), "{}", pos.fen());
        assert_eq!(engine::dame::databases::probe(&pos), Some(Exact::Win(7)));
        // 45 plies of king moves already: 7 more would reach the draw by
        // the king-move counter first, so the value is refused.
        let late = Position::from_fen(&format!("{}:H45", pos.fen()), RuleSet::DAME).unwrap();
        assert_eq!(
            engine::dame::databases::probe(&late),
            None,
            "{}",
            late.fen()
        );
        let in_time = Position::from_fen(&format!("{}:H43", pos.fen()), RuleSet::DAME).unwrap();
        assert_eq!(
            engine::dame::databases::probe(&in_time),
            Some(Exact::Win(7))
        );
    }

    // Inside the search (not at the root): a held child is scored exactly.
    for pos in positions_with(tb, km, Value::Draw, 3) {
        let r = search(&pos, Limits::depth(3));
        assert_eq!(r.score, Score::Cp(0), "{}", pos.fen());
        let mut next = pos;
        next.play_unchecked(&r.best.unwrap());
        assert_eq!(tb.probe_value(&next), Some(Value::Draw), "{}", pos.fen());
    }

    // Of the moves that keep a draw, the root plays one that keeps the
    // material (the opponent may still go wrong), not the first one found.
    let mut kept = 0;
    for pos in positions_with(tb, km, Value::Draw, 200) {
        let moves = tb.probe_moves(&pos).unwrap();
        let loses_nothing = |m: &dame::Move| {
            let mut next = pos;
            next.play_unchecked(m);
            !next.has_capture()
        };
        let keeping: Vec<dame::Move> = moves
            .iter()
            .filter(|(m, v)| *v == Value::Draw && loses_nothing(m))
            .map(|(m, _)| *m)
            .collect();
        let gives: usize = moves
            .iter()
            .filter(|(m, v)| *v == Value::Draw && !loses_nothing(m))
            .count();
        if keeping.is_empty() || gives == 0 {
            continue;
        }
        let r = search(&pos, Limits::depth(3));
        let best = r.best.unwrap();
        assert!(keeping.contains(&best), "{}: {best}", pos.fen());
        kept += 1;
    }
    assert!(kept > 0, "no drawn position offered a choice");
}
