//! What the tactical suites share: reading a suite file and searching to a
//! fixed depth.

// Each test binary uses only some of these.
#![allow(dead_code)]

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

/// The move `level` chooses in `state` within `limits`, with a fresh
/// one-thread engine.
pub fn level_choice<G: Game>(level: u8, state: &G, limits: Limits) -> G::Move {
    let engine = Engine::new(16, 1);
    let stop = AtomicBool::new(false);
    engine::LevelPlayer::new(level, 1)
        .choose(&engine, state, &[], limits, &stop, &mut |_| {})
        .expect("a move")
        .mv
}

/// One position of a value suite (`tests/blockade.txt`,
/// `tests/lost_games.txt`): a Mühle position string, a tab, the moves that
/// keep the databases' value (space-separated), a tab, a note.
pub struct ValueCase {
    pub fen: String,
    pub good: std::collections::HashSet<String>,
    pub note: String,
}

/// The cases of a value suite file (`#` starts a comment line).
pub fn value_cases(text: &str) -> Vec<ValueCase> {
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut parts = l.split('\t');
            let fen = parts.next().expect("position").to_string();
            let good = parts
                .next()
                .expect("good moves")
                .split_whitespace()
                .map(str::to_string)
                .collect();
            let note = parts.next().unwrap_or("").to_string();
            ValueCase { fen, good, note }
        })
        .collect()
}

/// The move level 10's search plays in a Mühle position at `depth`,
/// without the databases (and so without the book and the placing solver).
pub fn muehle_best_move(pos: &muehle::Position, depth: u32) -> String {
    let engine = Engine::new(16, 1);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        no_databases: true,
        ..Limits::depth(depth)
    };
    engine
        .search(
            &engine::MuehleState::new(*pos),
            &[],
            limits,
            1,
            &stop,
            &mut |_| {},
        )
        .best
        .map(|m| m.to_string())
        .unwrap_or_default()
}

/// The cases of a value suite the engine fails at `depth` (a line each:
/// position, move played, good moves, note).
pub fn value_failures(cases: &[ValueCase], depth: u32) -> Vec<String> {
    let mut failed = Vec::new();
    for c in cases {
        let pos = muehle::Position::from_fen(&c.fen, muehle::RuleSet::STANDARD).expect("position");
        let m = muehle_best_move(&pos, depth);
        if !c.good.contains(&m) {
            failed.push(format!(
                "{}: played {m}, good {:?} ({})",
                c.fen, c.good, c.note
            ));
        }
    }
    failed
}

/// Write a generated suite: the comment line `# HEADER`, then one line per
/// case.
pub fn write_suite(file: &str, header: &str, lines: &[String]) {
    let mut text = format!("# {header}\n");
    for l in lines {
        text.push_str(l);
        text.push('\n');
    }
    std::fs::write(file, text).unwrap_or_else(|e| panic!("write {file}: {e}"));
}

/// The tests that install databases or opening books, or switch the books
/// off, change what the whole process plays with (tests/installed.rs): each
/// holds this while it runs, so they run one at a time, and each starts from
/// the defaults: no databases, the built-in books, the books on.
pub fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    // A test that failed while holding it leaves it poisoned; the next one
    // resets the state all the same.
    let guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    engine::muehle::databases::install(None);
    engine::muehle::book::install(None);
    engine::dame::book::install(None);
    engine::book::set_enabled(true);
    guard
}
