//! The tactical suite (tests/tactics.txt) solved at a fixed depth.

use std::sync::atomic::AtomicBool;

use engine::MuehleState;
use muehle::{Position, RuleSet};
use search::{Engine, Limits};

fn matches(expected: &str, played: &str) -> bool {
    match expected.strip_suffix("x*") {
        Some(prefix) => played.starts_with(prefix) && played[prefix.len()..].starts_with('x'),
        None => expected == played,
    }
}

#[test]
fn tactical_suite_is_solved() {
    let text = include_str!("tactics.txt");
    let mut failures = Vec::new();
    let mut count = 0;
    for line in text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        assert_eq!(fields.len(), 5, "bad line: {line}");
        let rules: RuleSet = fields[1].parse().expect("rules");
        let pos =
            Position::from_fen(fields[2], rules).unwrap_or_else(|e| panic!("{}: {e}", fields[0]));
        let depth: u32 = fields[3].parse().expect("depth");
        let expected: Vec<&str> = fields[4].split_whitespace().collect();
        // The expected moves must be legal: the suite checks itself.
        let legal: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
        for e in &expected {
            assert!(
                legal.iter().any(|l| matches(e, l)),
                "{}: expected move {e} is not legal",
                fields[0]
            );
        }
        let engine = Engine::new(16, 1);
        let stop = AtomicBool::new(false);
        let r = engine.search(
            &MuehleState(pos),
            &[],
            Limits::depth(depth),
            1,
            &stop,
            &mut |_| {},
        );
        let best = r.best.map(|m| m.to_string()).unwrap_or_default();
        if !expected.iter().any(|e| matches(e, &best)) {
            failures.push(format!(
                "{}: played {best} ({:?}), expected one of {expected:?}",
                fields[0], r.score
            ));
        }
        count += 1;
    }
    assert!(count >= 10);
    assert!(failures.is_empty(), "{failures:#?}");
}
