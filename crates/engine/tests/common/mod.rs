//! What the tactical suites share: reading a suite file and searching to a
//! fixed depth.

use std::sync::atomic::AtomicBool;

use search::{Engine, Game, Limits, SearchResult};

/// One position of a suite: `name ; rules ; position ; depth ; best moves`.
pub struct Case<'a> {
    pub name: &'a str,
    pub rules: &'a str,
    pub position: &'a str,
    pub depth: u32,
    /// The moves that solve it (any one of them), as written.
    pub expected: Vec<&'a str>,
}

/// The cases of a suite file (`#` starts a comment line).
pub fn cases(text: &str) -> Vec<Case<'_>> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|line| {
            let fields: Vec<&str> = line.split(';').map(str::trim).collect();
            assert_eq!(fields.len(), 5, "bad line: {line}");
            Case {
                name: fields[0],
                rules: fields[1],
                position: fields[2],
                depth: fields[3].parse().expect("depth"),
                expected: fields[4].split_whitespace().collect(),
            }
        })
        .collect()
}

/// Search `state` to `depth` with a fresh one-thread engine.
pub fn search<G: Game>(state: &G, depth: u32) -> SearchResult<G::Move> {
    let engine = Engine::new(16, 1);
    let stop = AtomicBool::new(false);
    engine.search(state, &[], Limits::depth(depth), 1, &stop, &mut |_| {})
}
