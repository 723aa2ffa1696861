//! `POST /api/analyze` on the engine: an analysis waits for an engine slot
//! as the client's limits allow (crate::fair), searches on a blocking
//! thread, and stops when the request goes away or early for a computer
//! move.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use serde_json::Value;

use crate::error::ApiError;
use crate::fair::{Client, Refusal, Scheduler};
use crate::game::{Analysis, LiveGame};

/// What an analysis gives: the engine's lines, the databases' values
/// (Mühle, when installed and holding the position), and whether it was
/// stopped early for a computer move.
pub struct Analyzed {
    /// The engine's lines.
    pub analysis: Analysis,
    /// The databases' values (`database` of docs/API.md).
    pub database: Option<Value>,
    /// Whether it was stopped early for a computer move.
    pub preempted: bool,
}

/// The analyses: positions searched in the engine slots the computer
/// player leaves free.
pub struct AnalysisService {
    /// The engine slots, shared with the computer player.
    engine: Arc<Scheduler>,
    /// The longest an analysis may think; `None`: as asked.
    max_time: Option<Duration>,
}

impl AnalysisService {
    /// Analyses in the slots of `engine`, each at most `max_time` (`None`:
    /// as long as asked).
    pub fn new(engine: Arc<Scheduler>, max_time: Option<Duration>) -> AnalysisService {
        AnalysisService { engine, max_time }
    }

    /// Analyse `game` for `client`: the databases' values (Mühle) and the
    /// engine's best `lines`, on a blocking thread once the engine pool
    /// and the client's limits let it run (crate::fair). The search stops
    /// if the request goes away, or early for a computer move.
    pub async fn analyze(
        &self,
        client: Client,
        game: LiveGame,
        time: Duration,
        lines: usize,
    ) -> Result<Analyzed, ApiError> {
        let time = self.max_time.map_or(time, |max| time.min(max));
        let stop = Arc::new(AtomicBool::new(false));
        let guard = self.engine.register_search(stop.clone());
        let slot = self
            .engine
            .analysis(client, time, stop.clone())
            .await
            .map_err(|refusal| match refusal {
                Refusal::Closed => ApiError::Unavailable("the server is shutting down".into()),
                Refusal::Limit {
                    message,
                    retry_after,
                } => ApiError::RateLimited(message, retry_after),
                Refusal::Busy {
                    queue_position,
                    retry_after,
                } => ApiError::EngineBusy {
                    message: format!(
                        "the engine is busy: your analysis was number {queue_position} in the \
                         queue; try again in {retry_after} s"
                    ),
                    queue_position,
                    retry_after,
                },
            })?;
        let result = tokio::task::spawn_blocking(move || {
            let database = crate::perfect::analysis(&game);
            let analysis = game.analyze(time, lines, &stop);
            let preempted = slot.preempted();
            drop(slot);
            Analyzed {
                analysis,
                database,
                preempted,
            }
        })
        .await
        .map_err(ApiError::internal);
        drop(guard);
        result
    }
}
