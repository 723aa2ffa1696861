//! The analyses of whole games as stored (crate::game_analysis): one row
//! per game with its status and the positions analysed so far, so that a
//! finished analysis is seen by every instance and survives a restart.

/// A game's analysis as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAnalysis {
    /// `running` or `done`.
    pub status: String,
    /// The engine's time per position (milliseconds).
    pub time_ms: i64,
    /// The positions analysed so far: a JSON array.
    pub positions: String,
    /// When it last changed (milliseconds since the Unix epoch).
    pub updated_at: i64,
}

/// What [`claim_game_analysis`](super::Storage::claim_game_analysis) is
/// asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnalysisClaim {
    /// The engine's time per position of a new analysis (milliseconds).
    pub time_ms: i64,
    /// Now (milliseconds since the Unix epoch).
    pub now: i64,
    /// A running analysis last renewed before this was interrupted.
    pub stale_before: i64,
}

/// What [`save_game_analysis`](super::Storage::save_game_analysis) stores.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnalysisProgress {
    /// The positions analysed so far: a JSON array.
    pub positions: String,
    /// Whether they are all of them.
    pub done: bool,
    /// Now (milliseconds since the Unix epoch).
    pub now: i64,
}

/// The columns of a [`StoredAnalysis`], in its fields' order.
pub(super) const ANALYSIS_COLUMNS: &str = "status, time_ms, positions, updated_at";

/// A row of [`ANALYSIS_COLUMNS`] as a [`StoredAnalysis`].
pub(super) fn stored_of_row(row: (String, i64, String, i64)) -> StoredAnalysis {
    let (status, time_ms, positions, updated_at) = row;
    StoredAnalysis {
        status,
        time_ms,
        positions,
        updated_at,
    }
}

/// The [`Storage`](super::Storage) methods of the analyses of whole games,
/// for a backend module that has what
/// [`storage_methods!`](super::sql::storage_methods) needs.
macro_rules! analysis_methods {
    () => {
        fn game_analysis(
            &self,
            game: i64,
        ) -> BoxFuture<'_, Result<Option<super::StoredAnalysis>, StorageError>> {
            Box::pin(self.read("game analysis", move |conn| {
                Box::pin(async move {
                    let sql = format!(
                        "SELECT {} FROM game_analyses WHERE game_id = $1",
                        super::analysis::ANALYSIS_COLUMNS
                    );
                    let row: Option<(String, i64, String, i64)> =
                        sqlx::query_as(sqlx::AssertSqlSafe(sql))
                            .bind(game)
                            .fetch_optional(&mut *conn)
                            .await?;
                    Ok(row.map(super::analysis::stored_of_row))
                })
            }))
        }

        fn claim_game_analysis(
            &self,
            game: i64,
            claim: super::AnalysisClaim,
        ) -> BoxFuture<'_, Result<Option<super::StoredAnalysis>, StorageError>> {
            Box::pin(self.write("claim game analysis", move |conn| {
                Box::pin(async move {
                    let sql = format!(
                        "INSERT INTO game_analyses (game_id, status, time_ms, positions, \
                         updated_at) VALUES ($1, 'running', $2, '[]', $3) \
                         ON CONFLICT (game_id) DO UPDATE SET updated_at = $3 \
                         WHERE game_analyses.status = 'running' \
                         AND game_analyses.updated_at < $4 RETURNING {}",
                        super::analysis::ANALYSIS_COLUMNS
                    );
                    let row: Option<(String, i64, String, i64)> =
                        sqlx::query_as(sqlx::AssertSqlSafe(sql))
                            .bind(game)
                            .bind(claim.time_ms)
                            .bind(claim.now)
                            .bind(claim.stale_before)
                            .fetch_optional(&mut *conn)
                            .await?;
                    Ok(row.map(super::analysis::stored_of_row))
                })
            }))
        }

        fn save_game_analysis(
            &self,
            game: i64,
            progress: super::AnalysisProgress,
        ) -> BoxFuture<'_, Result<(), StorageError>> {
            Box::pin(self.write("save game analysis", move |conn| {
                Box::pin(async move {
                    sqlx::query(
                        "UPDATE game_analyses SET positions = $2, status = $3, updated_at = $4 \
                         WHERE game_id = $1 AND status = 'running'",
                    )
                    .bind(game)
                    .bind(progress.positions)
                    .bind(if progress.done { "done" } else { "running" })
                    .bind(progress.now)
                    .execute(&mut *conn)
                    .await?;
                    Ok(())
                })
            }))
        }
    };
}

pub(super) use analysis_methods;
