//! The engine's searches, the same for every game: the computer's move at
//! a level, and the analysis of a position with reasons.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use boardgame::{Rules, Session};
use serde::Serialize;
use serde_json::{Value, json};

/// One line of an analysis.
#[derive(Clone, Debug, Serialize)]
pub struct AnalysisLine {
    /// The line's first move.
    #[serde(rename = "move")]
    pub mv: String,
    /// `{"cp": N}` or `{"mate": N}`.
    pub score: Value,
    /// The score as the engine writes it.
    pub score_text: String,
    /// The moves of the line.
    pub pv: Vec<String>,
    /// The reasons in English (the command line's words).
    pub why: Vec<String>,
    /// The same reasons as codes and parameters, for the UI to word in the
    /// player's language (docs/API.md).
    pub reasons: Vec<engine::explain::Reason>,
}

/// The engine's answer to an analysis request.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Analysis {
    /// The depth of the deepest search finished.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// The time the search took.
    pub time_ms: u64,
    /// The best lines, best first.
    pub lines: Vec<AnalysisLine>,
}

/// The hashes of the positions before the last move's position (for the
/// search's repetition detection).
pub(super) fn history<P: Rules>(session: &Session<P>) -> Vec<u64> {
    (0..session.ply())
        .filter_map(|i| session.position_at(i).map(|p| p.hash()))
        .collect()
}

fn score_json(s: search::Score) -> Value {
    match s {
        search::Score::Cp(v) => json!({"cp": v}),
        search::Score::Mate(n) => json!({"mate": n}),
    }
}

/// Search `root` for its best `lines` moves and explain each with `why`
/// (given the line and its score).
pub(super) fn analyze_root<G: search::Game>(
    root: &G,
    history: &[u64],
    time: Duration,
    lines: usize,
    stop: &AtomicBool,
    why: impl Fn(&[G::Move], search::Score) -> Vec<engine::explain::Reason>,
) -> Analysis {
    let engine = search::Engine::new(32, 1);
    let result = engine.search(
        root,
        history,
        search::Limits::movetime(time),
        lines.max(1),
        stop,
        &mut |_| {},
    );
    let lines = result
        .lines
        .iter()
        .filter_map(|(score, pv)| {
            let mv = pv.first()?;
            let reasons = why(pv, *score);
            Some(AnalysisLine {
                mv: mv.to_string(),
                score: score_json(*score),
                score_text: score.to_string(),
                pv: pv.iter().map(|m| m.to_string()).collect(),
                why: reasons.iter().map(|r| r.text.clone()).collect(),
                reasons,
            })
        })
        .collect();
    Analysis {
        depth: result.depth,
        nodes: result.nodes,
        time_ms: result.time.as_millis() as u64,
        lines,
    }
}

/// The move the computer at `level` plays from `root` within `movetime`.
pub(super) fn level_move<G: search::Game>(
    root: &G,
    history: &[u64],
    level: u8,
    seed: u64,
    movetime: Duration,
    stop: &AtomicBool,
) -> Option<String> {
    let engine = search::Engine::new(8, 1);
    engine::LevelPlayer::new(level, seed)
        .choose(
            &engine,
            root,
            history,
            search::Limits::movetime(movetime),
            stop,
            &mut |_| {},
        )
        .map(|c| c.mv.to_string())
}
