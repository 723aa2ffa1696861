//! Dame puzzles: endings from the databases where exactly one move keeps
//! the value, and the shots of the suites with their combinations.

use dame::{Color, Position, RuleSet};
use engine::dame::puzzles::{Puzzle, SuiteError, endings, shots};
use tablebase::dame::{DameTablebase, Material, build_dame};

fn position(p: &Puzzle) -> Position {
    Position::from_fen(&p.position, p.rules.parse().unwrap()).unwrap()
}

#[test]
fn endings_have_exactly_one_move_that_keeps_the_value() {
    let dir = tempfile::tempdir().unwrap();
    let rules = RuleSet::DAME;
    build_dame(dir.path(), &rules, &Material::all_up_to(3), &mut |_| {}).unwrap();
    let tb = DameTablebase::new(dir.path());
    let list = endings(&tb, rules, 3, 12, 7);
    assert_eq!(list.len(), 12);
    assert_eq!(
        list,
        endings(&tb, rules, 3, 12, 7),
        "the seed fixes the set"
    );
    let mut turns = [0; 2];
    for p in &list {
        let pos = position(p);
        turns[usize::from(pos.turn() == Color::Black)] += 1;
        assert!(!pos.has_capture(), "{}: a capture is pending", p.position);
        let value = tb.value(&pos).unwrap();
        assert_eq!(Some(value), p.value, "{}", p.position);
        assert_eq!(
            p.goal,
            if value == tablebase::Value::Draw {
                "draw"
            } else {
                "win"
            }
        );
        assert_eq!(p.accept.len(), 1);
        assert_eq!(p.solution[0], p.accept[0]);
        let moves = tb.probe_moves(&pos).unwrap();
        assert!(moves.len() >= 2, "{}: no choice", p.position);
        for (m, v) in moves {
            assert_eq!(
                v.same_result(value),
                m.to_string() == p.accept[0],
                "{}: {m} is {v}, the position {value}",
                p.position
            );
        }
        // The line is legal to its end.
        let mut q = pos;
        for text in &p.solution {
            let m = q.parse_move(text).unwrap();
            q.play_unchecked(&m);
        }
        assert!((1..=5).contains(&p.difficulty));
    }
    assert!(
        turns[0] > 0 && turns[1] > 0,
        "both sides to move: {turns:?}"
    );
}

#[test]
fn the_shot_suites_become_puzzles_with_their_combinations() {
    for (text, size) in [
        (include_str!("dame_shots_8.txt"), dame::BoardSize::Eight),
        (include_str!("dame_shots_10.txt"), dame::BoardSize::Ten),
    ] {
        // Every shot that wins material (the comment's gain).
        let entries = text
            .lines()
            .filter(|l| l.starts_with("# depth") && !l.contains("gain -") && !l.contains("gain 0"))
            .count();
        let list = shots(text).unwrap();
        assert_eq!(list.len(), entries);
        for p in &list {
            let pos = position(p);
            assert_eq!(pos.size(), size);
            assert_eq!(p.goal, "shot");
            assert!(p.gain >= 1, "{}", p.position);
            assert!(p.accept.contains(&p.solution[0]));
            for a in &p.accept {
                assert!(pos.parse_move(a).is_ok(), "{}: {a}", p.position);
            }
            let mut q = pos;
            for text in &p.solution {
                let m = q.parse_move(text).unwrap();
                assert_eq!(m.to_string(), *text, "the whole path is written");
                q.play_unchecked(&m);
            }
        }
    }
}

#[test]
fn a_suite_without_its_verification_comment_is_refused() {
    let text = "shot ; dame ; W:Wb2,c3,b4:Bb6,f6,h6,a7 ; 12 ; b4-c5\n";
    assert_eq!(
        shots(text).unwrap_err(),
        SuiteError {
            line: 1,
            why: "no verification comment with the combination above it".into()
        }
    );
    let bad = "# depth 12 score cp 90 (next best cp 0), gain 1 men: b4-c5 b6xd4 c3xe5xg7\n\
               shot ; dame ; W:Wb2,c3,b4:Bb6,f6,h6,a7 ; 12 ; a1-b2\n";
    assert!(shots(bad).unwrap_err().why.starts_with("a1-b2"));
}
