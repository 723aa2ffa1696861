//! The Dame tactical suite (tests/dame_tactics.txt) solved at a fixed depth,
//! [`DameState`] with other weights (tuning) checked against the tuned one, and the
//! FMJD draws of the king endings seen by the search.

use crate::common;

use common::{cases, search};
use dame::eval::{self, Weights};
use dame::{Position, RuleSet};
use engine::DameState;
use search::{DRAW, Game, Score, Status};

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
        let r = search(&DameState::new(pos), case.depth);
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

static TUNED: Weights = Weights::TUNED_8;

#[test]
fn dame_state_with_the_tuned_weights_searches_like_the_default() {
    let mut pos = Position::new(RuleSet::DAME);
    for m in ["c3-d4", "f6-e5", "d4xf6"] {
        pos = pos.play(&pos.parse_move(m).expect(m)).expect(m);
    }
    let a = search(&DameState::new(pos), 6);
    let b = search(&DameState::with_weights(pos, &TUNED), 6);
    assert_eq!(a.best, b.best);
    assert_eq!(a.score, b.score);
    assert_eq!(a.nodes, b.nodes);
}

static KINGLESS: Weights = {
    let mut w = Weights::TUNED_8;
    w.mid[eval::f::KING] = 0;
    w.end[eval::f::KING] = 0;
    w
};

#[test]
fn dame_state_evaluates_with_its_own_weights() {
    // White has a king and a man against two men: the king's weight makes
    // the difference. (Black has no king and White keeps one, so neither
    // side's score is scaled down as a drawn ending.)
    let pos = Position::from_fen("W:WKa1,c3:Bf8,h8", RuleSet::DAME).expect("fen");
    let tuned = DameState::with_weights(pos, &TUNED);
    let kingless = DameState::with_weights(pos, &KINGLESS);
    assert_eq!(tuned.evaluate(), eval::evaluate(&pos));
    assert_eq!(DameState::new(pos).evaluate(), eval::evaluate(&pos));
    // Four pieces on the board: the endgame's king weight, nearly all of it.
    let full = eval::full_phase(pos.size());
    let king = (Weights::TUNED_8.mid[eval::f::KING] * 4
        + Weights::TUNED_8.end[eval::f::KING] * (full - 4))
        / full;
    assert!((tuned.evaluate() - kingless.evaluate() - king).abs() <= 1);
    // Playing a move keeps the weights.
    let mut moves = Vec::new();
    kingless.legal_moves(&mut moves);
    let next = kingless.play(moves[0]);
    assert!(std::ptr::eq(next.weights(), &KINGLESS));
    assert!(
        !next.databases(),
        "other weights search without the databases"
    );
}

/// FMJD rules, article on the draw: the king endings drawn by the 16- and
/// 5-move rules are draws for the search too, decided by the ending counter
/// (`E`) that the moves keep, while the leaflet presets play them on.
#[test]
fn the_search_scores_the_fmjd_ending_limits_as_draws() {
    let international =
        |fen: &str| DameState::new(Position::from_fen(fen, RuleSet::INTERNATIONAL).expect("fen"));
    // At the limit the game is drawn.
    assert_eq!(
        international("W:WK46,K47,K48:BK3:E32").status(),
        Status::Draw
    );
    assert_eq!(international("W:WK46:BK3:E10").status(), Status::Draw);
    assert_eq!(
        international("W:WK46,K47,K48:BK3:E31").status(),
        Status::Ongoing
    );
    // One king each is no immediate draw under FMJD, but is under the leaflet.
    assert_eq!(international("W:WK46:BK3").status(), Status::Ongoing);
    let leaflet = DameState::new(Position::from_fen("W:WK46:BK3", RuleSet::DAME_100).expect("fen"));
    assert_eq!(leaflet.status(), Status::Draw);
    // One ply before the limit, White cannot take the king on the edge at
    // once: every move draws, and the search knows it. With the whole 16
    // moves left, three kings are far ahead.
    let last = search(&international("W:WK46,K47,K48:BK3:E31"), 4);
    assert_eq!(last.score, Score::Cp(DRAW), "{:?}", last.best);
    let fresh = search(&international("W:WK46,K47,K48:BK3"), 4);
    assert!(
        matches!(fresh.score, Score::Cp(cp) if cp > 150),
        "three kings against one: {:?}",
        fresh.score
    );
    // The counter does not enter the hash: positions that differ only in it
    // are the same position for the repetition rule.
    assert_eq!(
        international("W:WK46,K47,K48:BK3:E31").hash(),
        international("W:WK46,K47,K48:BK3").hash()
    );
}
