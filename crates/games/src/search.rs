//! The engine's searches, the same for every game: the computer's move at
//! a level, and the analysis of a position with reasons.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use boardgame::{Rules, Session};
use search::SearchInfo;
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
pub fn history<P: Rules>(session: &Session<P>) -> Vec<u64> {
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

/// The search's best lines as an analysis, each explained by `why`
/// (given the line and its score).
pub(crate) fn analysis_of<M: std::fmt::Display>(
    result: search::SearchResult<M>,
    why: impl Fn(&[M], search::Score) -> Vec<engine::explain::Reason>,
) -> Analysis {
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

/// A search report with its moves as text.
pub fn texts<M: std::fmt::Display>(i: &SearchInfo<M>) -> SearchInfo<String> {
    SearchInfo {
        depth: i.depth,
        seldepth: i.seldepth,
        multipv: i.multipv,
        score: i.score,
        nodes: i.nodes,
        nps: i.nps,
        time: i.time,
        hashfull: i.hashfull,
        pv: i.pv.iter().map(|m| m.to_string()).collect(),
    }
}

/// The move `player` chooses from `root` with `engine` within `limits`.
pub(crate) fn level_choice<G: search::Game>(
    player: &mut engine::LevelPlayer,
    engine: &search::Engine,
    root: &G,
    history: &[u64],
    limits: search::Limits,
    stop: &AtomicBool,
) -> Option<String> {
    player
        .choose(engine, root, history, limits, stop, &mut |_| {})
        .map(|c| c.mv.to_string())
}

/// How an engine protocol searches (`go`): with which engine, within which
/// limits, at which level, for how many lines, with which seed.
#[derive(Clone)]
pub struct SearchJob {
    /// The engine (its transposition table is kept between searches).
    pub engine: Arc<search::Engine>,
    /// The limits.
    pub limits: search::Limits,
    /// The level, 1–10.
    pub level: u8,
    /// The lines asked for.
    pub multipv: usize,
    /// The seed of a level's random choices.
    pub seed: u64,
}

/// Run `job` from `root` (after the positions of `history`): level 10, or
/// several lines, search at full strength (one line within a limit as a
/// player: draws cost the game's contempt; analysis scores them exactly);
/// a lower level chooses as that level. `info` hears each depth. The best
/// move and its line.
pub fn run_job<G: search::Game>(
    job: &SearchJob,
    root: &G,
    history: &[u64],
    stop: &AtomicBool,
    info: &mut dyn FnMut(&SearchInfo<G::Move>),
) -> (Option<G::Move>, Vec<G::Move>) {
    if job.level >= 10 || job.multipv > 1 {
        let limits = if job.multipv == 1 && !job.limits.infinite {
            job.limits.playing::<G>()
        } else {
            job.limits
        };
        let r = job
            .engine
            .search(root, history, limits, job.multipv, stop, &mut |i| info(i));
        (
            r.best,
            r.lines.into_iter().next().map(|l| l.1).unwrap_or_default(),
        )
    } else {
        match engine::LevelPlayer::new(job.level, job.seed).choose(
            &job.engine,
            root,
            history,
            job.limits,
            stop,
            &mut |i| info(i),
        ) {
            Some(c) => (Some(c.mv), c.pv),
            None => (None, Vec::new()),
        }
    }
}

/// The best move from `root` by a search to `depth` with `engine`.
pub(crate) fn depth_move<G: search::Game>(
    engine: &search::Engine,
    root: &G,
    history: &[u64],
    depth: u32,
) -> Option<String> {
    let stop = AtomicBool::new(false);
    engine
        .search(
            root,
            history,
            search::Limits::depth(depth),
            1,
            &stop,
            &mut |_| {},
        )
        .best
        .map(|m| m.to_string())
}
