//! The tactical suite (tests/tactics.txt) solved at a fixed depth.

use crate::common;

use common::{cases, search};
use engine::MuehleState;
use muehle::{Position, RuleSet};

fn matches(expected: &str, played: &str) -> bool {
    match expected.strip_suffix("x*") {
        Some(prefix) => played.starts_with(prefix) && played[prefix.len()..].starts_with('x'),
        None => expected == played,
    }
}

#[test]
fn tactical_suite_is_solved() {
    let mut failures = Vec::new();
    let suite = cases(include_str!("tactics.txt"));
    for case in &suite {
        let rules: RuleSet = case.rules.parse().expect("rules");
        let pos = Position::from_fen(case.position, rules)
            .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        // The expected moves must be legal: the suite checks itself.
        let legal: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
        for e in &case.expected {
            assert!(
                legal.iter().any(|l| matches(e, l)),
                "{}: expected move {e} is not legal",
                case.name
            );
        }
        let r = search(&MuehleState::new(pos), case.depth);
        let best = r.best.map(|m| m.to_string()).unwrap_or_default();
        if !case.expected.iter().any(|e| matches(e, &best)) {
            failures.push(format!(
                "{}: played {best} ({:?}), expected one of {:?}",
                case.name, r.score, case.expected
            ));
        }
    }
    assert!(suite.len() >= 10);
    assert!(failures.is_empty(), "{failures:#?}");
}
