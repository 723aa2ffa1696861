//! The analysis of a whole finished (or imported) game (docs/API.md,
//! `/api/games/{id}/analysis`): a job per game goes through every position, one after the
//! other, in the engine slots analyses leave free and at the lowest
//! priority (crate::fair: computer moves and waiting analyses first). Each
//! position analysed is stored with the game, so a finished analysis is
//! shown to everyone, on every instance, after a restart; a job interrupted
//! by a restart (its row not renewed for a while) is taken up again where
//! it stopped by the next request to start it.
//!
//! From the positions' values the moves are judged: the loss of the
//! mover's expected score (a win counts 1, a draw ½; the engine's score
//! mapped to it by a logistic curve), and marks above fixed thresholds
//! (inaccuracy, mistake, blunder). Where Mühle's perfect-play databases
//! know both positions of a move, their values judge it instead: a move
//! that throws away a win or a draw is a blunder, any other move none.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::error::ApiError;
use crate::fair::{Client, Scheduler};
use crate::game::{Color, LiveGame};
use crate::registry::GameRegistry;
use crate::storage::{AnalysisClaim, AnalysisProgress};

/// A running analysis not renewed for this long was interrupted (its
/// instance stopped) and may be taken over.
pub const STALE_MS: i64 = 30_000;

/// How often a job waiting for an engine slot renews its row.
const HEARTBEAT: Duration = Duration::from_secs(10);

/// The engine's time per position by default, and its bounds.
pub const DEFAULT_TIME_MS: u64 = 500;
/// The shortest time per position a request may ask.
pub const MIN_TIME_MS: u64 = 50;
/// The longest time per position a request may ask.
pub const MAX_TIME_MS: u64 = 2000;

/// Loss of the mover's expected score (in percent) from which a move is an
/// inaccuracy, a mistake, a blunder.
const MARKS: [(f64, &str); 3] = [(15.0, "blunder"), (10.0, "mistake"), (5.0, "inaccuracy")];

/// The engine's scores shown on the graph are clamped to this (1/100 of a
/// piece); mates and databases' wins count as much.
const CLAMP_CP: i64 = 1000;

/// One analysed position as stored.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct PositionValue {
    /// The position after this many moves.
    pub ply: usize,
    /// The side to move.
    pub turn: String,
    /// The engine's best move (none when the game is over here).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best: Option<String>,
    /// The engine's score for the side to move: `{"cp": N}` or
    /// `{"mate": N}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<Value>,
    /// The depth of the search.
    #[serde(default)]
    pub depth: u32,
    /// Mühle's databases: `win`, `draw` or `loss` for the side to move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub database: Option<String>,
    /// Mühle's databases: a move that keeps the value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub database_best: Option<String>,
    /// The game is over here on the board: `1-0`, `0-1` or `1/2-1/2`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// The expected score (percent) of a side whose engine score is `cp`
/// (the logistic curve lichess uses for its win percentages).
fn expected_of_cp(cp: f64) -> f64 {
    50.0 + 50.0 * (2.0 / (1.0 + (-0.00368208 * cp).exp()) - 1.0)
}

/// Result text (`1-0`…) or database word for the side to move as White's
/// outcome: 2 won, 1 drawn, 0 lost.
fn exact_for_white(p: &PositionValue) -> Option<u8> {
    if let Some(r) = &p.result {
        return Some(match r.as_str() {
            "1-0" => 2,
            "0-1" => 0,
            _ => 1,
        });
    }
    let mine = match p.database.as_deref()? {
        "win" => 2,
        "draw" => 1,
        "loss" => 0,
        _ => return None,
    };
    Some(if p.turn == "white" { mine } else { 2 - mine })
}

/// White's engine score of `p` (1/100 of a piece, clamped), and White's
/// expected score in percent.
fn white_values(p: &PositionValue) -> (i64, f64) {
    if let Some(e) = exact_for_white(p) {
        let cp = (i64::from(e) - 1) * CLAMP_CP;
        return (cp, f64::from(e) * 50.0);
    }
    let sign = if p.turn == "white" { 1 } else { -1 };
    let score = p.score.as_ref();
    let (cp, expected) = if let Some(m) = score.and_then(|s| s["mate"].as_i64()) {
        if m > 0 {
            (CLAMP_CP, 100.0)
        } else {
            (-CLAMP_CP, 0.0)
        }
    } else {
        let cp = score.and_then(|s| s["cp"].as_i64()).unwrap_or(0);
        (cp.clamp(-CLAMP_CP, CLAMP_CP), expected_of_cp(cp as f64))
    };
    if sign > 0 {
        (cp, expected)
    } else {
        (-cp, 100.0 - expected)
    }
}

/// One judged move.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct MoveJudgement {
    /// The move's index (0: the first move); it leads from position `ply`
    /// to position `ply + 1`.
    pub ply: usize,
    /// The move played.
    #[serde(rename = "move")]
    pub mv: String,
    /// Who played it.
    pub mover: &'static str,
    /// The better move (the engine's, or one the databases find keeping
    /// the value); `None` when the move played was the best.
    pub best: Option<String>,
    /// The loss of the mover's expected score, in percent.
    pub loss: f64,
    /// `inaccuracy`, `mistake` or `blunder`.
    pub mark: Option<&'static str>,
    /// `engine` or `database`.
    pub by: &'static str,
}

/// Judge the moves between analysed positions: `moves[i]` leads from
/// `positions[i]` to `positions[i + 1]`.
pub fn judge(positions: &[PositionValue], moves: &[String]) -> Vec<MoveJudgement> {
    positions
        .windows(2)
        .zip(moves)
        .enumerate()
        .map(|(i, (w, mv))| {
            let (before, after) = (&w[0], &w[1]);
            let white = before.turn == "white";
            let mover = if white { "white" } else { "black" };
            let for_mover = |v: f64| if white { v } else { 100.0 - v };
            if let (Some(b), Some(a)) = (exact_for_white(before), exact_for_white(after))
                && before.database.is_some()
            {
                let (b, a) = if white { (b, a) } else { (2 - b, 2 - a) };
                let worse = a < b;
                return MoveJudgement {
                    ply: i,
                    mv: mv.clone(),
                    mover,
                    best: worse.then(|| before.database_best.clone()).flatten(),
                    loss: f64::from(b.saturating_sub(a)) * 50.0,
                    mark: worse.then_some("blunder"),
                    by: "database",
                };
            }
            let played_best = before.best.as_deref() == Some(mv.as_str());
            let loss = if played_best {
                0.0
            } else {
                (for_mover(white_values(before).1) - for_mover(white_values(after).1)).max(0.0)
            };
            let loss = (loss * 10.0).round() / 10.0;
            let mark = MARKS.iter().find(|(t, _)| loss >= *t).map(|(_, m)| *m);
            MoveJudgement {
                ply: i,
                mv: mv.clone(),
                mover,
                best: if played_best {
                    None
                } else {
                    before.best.clone()
                },
                loss,
                mark,
                by: "engine",
            }
        })
        .collect()
}

/// Per player: the marks counted and the average loss.
pub fn summary(moves: &[MoveJudgement]) -> Value {
    let side = |name: &str| {
        let mine: Vec<&MoveJudgement> = moves.iter().filter(|m| m.mover == name).collect();
        let count = |mark: &str| mine.iter().filter(|m| m.mark == Some(mark)).count();
        let average = if mine.is_empty() {
            0.0
        } else {
            mine.iter().map(|m| m.loss).sum::<f64>() / mine.len() as f64
        };
        json!({
            "moves": mine.len(),
            "inaccuracies": count("inaccuracy"),
            "mistakes": count("mistake"),
            "blunders": count("blunder"),
            "average_loss": (average * 10.0).round() / 10.0,
        })
    };
    json!({"white": side("white"), "black": side("black")})
}

/// The positions of `game` from its start to its end: a game of the same
/// rules replayed move by move.
fn positions_of(game: &LiveGame) -> Result<Vec<LiveGame>, ApiError> {
    let mut g = LiveGame::create(
        game.game_type(),
        Some(&game.rules_text()),
        None,
        Some(&game.start_position()),
    )?;
    let mut out = vec![g.clone()];
    for mv in game.stored_moves() {
        g.play(&mv)?;
        out.push(g.clone());
    }
    Ok(out)
}

/// Analyse one position (blocking): the engine's best move and score, the
/// databases' value (Mühle), or the result where the game is over.
fn analyse_position(
    ply: usize,
    game: &LiveGame,
    time: Duration,
    stop: &AtomicBool,
) -> PositionValue {
    let mut p = PositionValue {
        ply,
        turn: color_name(game.turn()).to_string(),
        ..PositionValue::default()
    };
    if let Some(end) = game.ending() {
        p.result = Some(end.result().to_string());
        return p;
    }
    if let Some(db) = crate::perfect::analysis(game) {
        p.database = db["result"].as_str().map(str::to_string);
        p.database_best = db["moves"][0]["move"].as_str().map(str::to_string);
    }
    let a = game.analyze(time, 1, stop);
    p.depth = a.depth;
    if let Some(line) = a.lines.first() {
        p.best = Some(line.mv.clone());
        p.score = Some(line.score.clone());
    }
    p
}

/// A job running in this instance.
struct Job {
    client: Client,
    total: usize,
    time_ms: u64,
    positions: Vec<PositionValue>,
}

/// The limits of the jobs.
#[derive(Clone, Copy, Debug)]
pub struct JobLimits {
    /// Jobs running at once in this instance.
    pub jobs: usize,
    /// The most moves of a game analysed (longer games are refused).
    pub max_plies: usize,
    /// The longest time per position, whatever the request asks.
    pub max_time: Option<Duration>,
}

/// The analyses of whole games of this instance.
pub struct GameAnalyses {
    registry: Arc<GameRegistry>,
    engine: Arc<Scheduler>,
    limits: JobLimits,
    jobs: Mutex<HashMap<i64, Job>>,
}

impl GameAnalyses {
    /// The service: jobs in the slots of `engine` within `limits`.
    pub fn new(
        registry: Arc<GameRegistry>,
        engine: Arc<Scheduler>,
        limits: JobLimits,
    ) -> Arc<Self> {
        Arc::new(GameAnalyses {
            registry,
            engine,
            limits,
            jobs: Mutex::new(HashMap::new()),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<i64, Job>> {
        self.jobs.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// `POST /api/games/{id}/analysis`: start the analysis of finished
    /// game `id` for `client` (idempotent: a running or finished one is
    /// answered as it is), `time_ms` per position.
    pub async fn start(
        self: &Arc<Self>,
        id: i64,
        client: Client,
        time_ms: u64,
    ) -> Result<Value, ApiError> {
        let game = self.registry.game(id).await?;
        let imported = || async {
            let stored = self.registry.storage().load_game(id).await?;
            Ok::<_, ApiError>(stored.is_some_and(|g| g.kind == "imported"))
        };
        if game.ending().is_none() && !imported().await? {
            return Err(ApiError::NotAllowed(
                "the game is still being played: a whole game is analysed once it ended".into(),
            ));
        }
        if game.ply() > self.limits.max_plies {
            return Err(ApiError::BadRequest(format!(
                "the game has {} moves; games of at most {} are analysed",
                game.ply(),
                self.limits.max_plies
            )));
        }
        let time_ms = match self.limits.max_time {
            Some(max) => time_ms.min(max.as_millis() as u64).max(1),
            None => time_ms,
        };
        if !self.lock().contains_key(&id) {
            let storage = self.registry.storage();
            let stored = storage.game_analysis(id).await?;
            let now = self.registry.time().now_ms();
            let free = stored
                .as_ref()
                .is_none_or(|s| s.status == "running" && s.updated_at < now - STALE_MS);
            if free {
                self.admit(&client)?;
                if let Some(row) = storage
                    .claim_game_analysis(
                        id,
                        AnalysisClaim {
                            time_ms: time_ms as i64,
                            now,
                            stale_before: now - STALE_MS,
                        },
                    )
                    .await?
                {
                    let done: Vec<PositionValue> =
                        serde_json::from_str(&row.positions).unwrap_or_default();
                    self.spawn(id, client, game.clone(), row.time_ms as u64, done);
                }
            }
        }
        self.report(id, &game).await
    }

    /// The limits of a new job: as many jobs at once as allowed, one a
    /// client.
    fn admit(&self, client: &Client) -> Result<(), ApiError> {
        let jobs = self.lock();
        if jobs.values().any(|j| &j.client == client) {
            let left: u64 = jobs
                .values()
                .filter(|j| &j.client == client)
                .map(|j| (j.total - j.positions.len()) as u64 * j.time_ms / 1000)
                .sum();
            return Err(ApiError::RateLimited(
                "you already have the analysis of a whole game running; wait for it to end".into(),
                left.max(1),
            ));
        }
        if jobs.len() >= self.limits.jobs.max(1) {
            let left = jobs
                .values()
                .map(|j| (j.total - j.positions.len()) as u64 * j.time_ms / 1000)
                .min()
                .unwrap_or(1)
                .max(1);
            return Err(ApiError::EngineBusy {
                message: format!(
                    "the engine is busy: {} whole games are being analysed, the most at once; \
                     try again in {left} s",
                    jobs.len()
                ),
                queue_position: 1,
                retry_after: left,
            });
        }
        Ok(())
    }

    fn spawn(
        self: &Arc<Self>,
        id: i64,
        client: Client,
        game: LiveGame,
        time_ms: u64,
        mut done: Vec<PositionValue>,
    ) {
        let total = game.ply() + 1;
        done.truncate(total);
        // Only the positions in order from the start are kept.
        let kept = done
            .iter()
            .enumerate()
            .take_while(|(i, p)| p.ply == *i)
            .count();
        done.truncate(kept);
        self.lock().insert(
            id,
            Job {
                client,
                total,
                time_ms,
                positions: done.clone(),
            },
        );
        let me = self.clone();
        tokio::spawn(async move {
            if let Err(e) = me.run(id, game, time_ms, done).await {
                tracing::warn!(game = id, error = %e, "the analysis of a whole game stopped");
            }
            me.lock().remove(&id);
        });
    }

    /// Analyse the positions of `game` after those `done`, storing each.
    async fn run(
        &self,
        id: i64,
        game: LiveGame,
        time_ms: u64,
        mut done: Vec<PositionValue>,
    ) -> Result<(), ApiError> {
        let time = Duration::from_millis(time_ms);
        let games = tokio::task::spawn_blocking(move || positions_of(&game))
            .await
            .map_err(ApiError::internal)??;
        let total = games.len();
        if done.len() >= total {
            return self.save(id, &done, true).await;
        }
        while done.len() < total {
            let ply = done.len();
            let stop = Arc::new(AtomicBool::new(false));
            let guard = self.engine.register_search(stop.clone());
            let slot =
                match tokio::time::timeout(HEARTBEAT, self.engine.background(time, stop.clone()))
                    .await
                {
                    Ok(Some(slot)) => slot,
                    // The server shuts down: the row goes stale, to be taken up
                    // again.
                    Ok(None) => return Ok(()),
                    Err(_) => {
                        self.save(id, &done, false).await?;
                        continue;
                    }
                };
            let g = games[ply].clone();
            let value = tokio::task::spawn_blocking(move || {
                let v = analyse_position(ply, &g, time, &stop);
                drop(slot);
                v
            })
            .await
            .map_err(ApiError::internal)?;
            drop(guard);
            if value.result.is_none() && value.best.is_none() && value.database.is_none() {
                // Stopped before the search found anything: again.
                continue;
            }
            done.push(value.clone());
            if let Some(job) = self.lock().get_mut(&id) {
                job.positions.push(value);
            }
            self.save(id, &done, done.len() == total).await?;
        }
        Ok(())
    }

    /// Store the positions analysed so far (`finished`: all of them),
    /// renewing the row.
    async fn save(&self, id: i64, done: &[PositionValue], finished: bool) -> Result<(), ApiError> {
        let progress = AnalysisProgress {
            positions: serde_json::to_string(done).map_err(ApiError::internal)?,
            done: finished,
            now: self.registry.time().now_ms(),
        };
        Ok(self
            .registry
            .storage()
            .save_game_analysis(id, progress)
            .await?)
    }

    /// `GET /api/games/{id}/analysis`: the analysis of game `id` as far as
    /// it went.
    pub async fn get(&self, id: i64) -> Result<Value, ApiError> {
        let game = self.registry.game(id).await?;
        self.report(id, &game).await
    }

    async fn report(&self, id: i64, game: &LiveGame) -> Result<Value, ApiError> {
        let total = game.ply() + 1;
        let local = self
            .lock()
            .get(&id)
            .map(|j| (j.time_ms, j.positions.clone()));
        let (status, time_ms, positions) = match local {
            Some((time_ms, positions)) => ("running", Some(time_ms), positions),
            None => match self.registry.storage().game_analysis(id).await? {
                None => ("none", None, Vec::new()),
                Some(row) => {
                    let now = self.registry.time().now_ms();
                    let status = match row.status.as_str() {
                        "done" => "done",
                        _ if row.updated_at < now - STALE_MS => "stopped",
                        _ => "running",
                    };
                    let positions = serde_json::from_str(&row.positions).unwrap_or_default();
                    (status, Some(row.time_ms as u64), positions)
                }
            },
        };
        let moves = judge(&positions, &game.moves());
        let points: Vec<Value> = positions
            .iter()
            .map(|p| {
                let (cp, expected) = white_values(p);
                let mut v = serde_json::to_value(p).unwrap_or(Value::Null);
                if let Value::Object(m) = &mut v {
                    m.insert("white_cp".into(), json!(cp));
                    m.insert(
                        "white_expected".into(),
                        json!((expected * 10.0).round() / 10.0),
                    );
                }
                v
            })
            .collect();
        Ok(json!({
            "status": status,
            "total": total,
            "done": positions.len(),
            "time_ms": time_ms,
            "positions": points,
            "moves": moves,
            "summary": summary(&moves),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(ply: usize, turn: &str, best: &str, cp: i64) -> PositionValue {
        PositionValue {
            ply,
            turn: turn.into(),
            best: Some(best.into()),
            score: Some(json!({ "cp": cp })),
            ..PositionValue::default()
        }
    }

    #[test]
    fn the_curve_is_even_at_zero_and_bounded() {
        assert!((expected_of_cp(0.0) - 50.0).abs() < 1e-9);
        assert!(expected_of_cp(100.0) > 58.0 && expected_of_cp(100.0) < 60.0);
        assert!(expected_of_cp(100_000.0) <= 100.0);
        assert!(expected_of_cp(-100_000.0) >= 0.0);
    }

    #[test]
    fn losses_are_the_movers_and_marked_by_thresholds() {
        // White keeps the balance, Black gives away a lot, White a little.
        let p = vec![
            pos(0, "white", "a", 0),
            pos(1, "black", "b", 0),
            pos(2, "white", "c", 500),
            pos(3, "black", "d", -450),
        ];
        let moves: Vec<String> = ["a", "x", "y"].iter().map(|s| s.to_string()).collect();
        let j = judge(&p, &moves);
        assert_eq!(j[0].mark, None);
        assert_eq!(j[0].loss, 0.0);
        assert_eq!(j[0].best, None);
        assert_eq!(j[1].mover, "black");
        assert_eq!(j[1].mark, Some("blunder"));
        assert_eq!(j[1].best.as_deref(), Some("b"));
        assert!(j[1].loss > 30.0, "{}", j[1].loss);
        // 500 → 450 for White: about 2 points, no mark.
        assert_eq!(j[2].mark, None);
        assert!(j[2].loss > 0.0 && j[2].loss < 5.0, "{}", j[2].loss);
        let s = summary(&j);
        assert_eq!(s["black"]["blunders"], 1);
        assert_eq!(s["white"]["blunders"], 0);
        assert_eq!(s["white"]["moves"], 2);
    }

    #[test]
    fn mates_and_results_are_clamped() {
        let mut m = pos(0, "black", "a", 0);
        m.score = Some(json!({"mate": 3}));
        assert_eq!(white_values(&m), (-CLAMP_CP, 0.0));
        let end = PositionValue {
            ply: 1,
            turn: "white".into(),
            result: Some("0-1".into()),
            ..PositionValue::default()
        };
        assert_eq!(white_values(&end), (-CLAMP_CP, 0.0));
        assert_eq!(white_values(&pos(0, "white", "a", 5000)).0, CLAMP_CP);
    }

    #[test]
    fn the_databases_judge_where_they_know_both_positions() {
        let db = |ply: usize, turn: &str, value: &str, best: &str| PositionValue {
            ply,
            turn: turn.into(),
            best: Some("engine".into()),
            score: Some(json!({"cp": 0})),
            database: Some(value.into()),
            database_best: Some(best.into()),
            ..PositionValue::default()
        };
        // White to move wins; after White's move Black (to move) wins:
        // the win thrown away. Then Black keeps its win.
        let p = vec![
            db(0, "white", "win", "g1-g4"),
            db(1, "black", "win", "a1-a4"),
            db(2, "white", "loss", "b2-b4"),
        ];
        let moves = vec!["d1-d2".to_string(), "a1-a4".to_string()];
        let j = judge(&p, &moves);
        assert_eq!(j[0].mark, Some("blunder"));
        assert_eq!(j[0].by, "database");
        assert_eq!(j[0].best.as_deref(), Some("g1-g4"));
        assert_eq!(j[1].mark, None);
        assert_eq!(j[1].best, None);
    }
}
