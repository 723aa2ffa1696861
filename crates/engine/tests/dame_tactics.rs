//! The Dame tactical suite (tests/dame_tactics.txt) solved at a fixed depth,
//! and the tuning adapter [`WeightedDame`] checked against [`DameState`].

mod common;

use common::{cases, search};
use dame::eval::{self, Weights};
use dame::{Position, RuleSet};
use engine::{DameState, WeightedDame};
use search::Game;

#[test]
fn dame_tactical_suite_is_solved() {
    let mut failures = Vec::new();
    let suite = cases(include_str!("dame_tactics.txt"));
    for case in &suite {
        let rules: RuleSet = case.rules.parse().expect("rules");
        let pos = Position::from_fen(case.position, rules)
            .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        // The expected moves must be legal: the suite checks itself.
        let expected: Vec<dame::Move> = case
            .expected
            .iter()
            .map(|m| {
                pos.parse_move(m)
                    .unwrap_or_else(|e| panic!("{}: expected move {m}: {e}", case.name))
            })
            .collect();
        assert!(
            pos.legal_moves().len() >= 2,
            "{}: the move must be a choice",
            case.name
        );
        let r = search(&DameState(pos), case.depth);
        match r.best {
            Some(best) if expected.contains(&best) => {}
            best => failures.push(format!(
                "{}: played {best:?} ({:?}), expected one of {:?}",
                case.name, r.score, case.expected
            )),
        }
    }
    assert!(suite.len() >= 4);
    assert!(failures.is_empty(), "{failures:#?}");
}

static TUNED: Weights = Weights::TUNED;

#[test]
fn weighted_dame_with_the_tuned_weights_searches_like_dame_state() {
    let mut pos = Position::new(RuleSet::DAME);
    for m in ["c3-d4", "f6-e5", "d4xf6"] {
        pos = pos.play(&pos.parse_move(m).expect(m)).expect(m);
    }
    let a = search(&DameState(pos), 6);
    let b = search(
        &WeightedDame {
            pos,
            weights: &TUNED,
        },
        6,
    );
    assert_eq!(a.best, b.best);
    assert_eq!(a.score, b.score);
    assert_eq!(a.nodes, b.nodes);
}

static KINGLESS: Weights = Weights {
    king: 0,
    ..Weights::TUNED
};

#[test]
fn weighted_dame_evaluates_with_its_own_weights() {
    // White has a king against a man: the king's weight decides the score.
    let pos = Position::from_fen("W:WKa1:Bh8", RuleSet::DAME).expect("fen");
    let tuned = WeightedDame {
        pos,
        weights: &TUNED,
    };
    let kingless = WeightedDame {
        pos,
        weights: &KINGLESS,
    };
    assert_eq!(tuned.evaluate(), eval::evaluate(&pos));
    assert_eq!(DameState(pos).evaluate(), eval::evaluate(&pos));
    assert_eq!(tuned.evaluate() - kingless.evaluate(), Weights::TUNED.king);
    // Playing a move keeps the weights.
    let mut moves = Vec::new();
    kingless.legal_moves(&mut moves);
    let next = kingless.play(moves[0]);
    assert!(std::ptr::eq(next.weights, &KINGLESS));
}
