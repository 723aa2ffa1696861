//! The SQLite backend: WAL journal, a busy timeout, one writer connection
//! (writes of this process queue up instead of failing with "busy") and a
//! few readers.

use std::str::FromStr;
use std::time::Duration;

use futures_util::future::BoxFuture;
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteRow,
    SqliteSynchronous,
};
use sqlx::{Row, Sqlite, Transaction};

use super::{
    GameMeta, GameSummary, MoveChange, NewGame, Seat, Seats, Storage, StorageError, StoredGame,
};

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// Games in an SQLite database.
#[derive(Clone, Debug)]
pub struct SqliteStorage {
    writer: SqlitePool,
    reader: SqlitePool,
}

const GAME_COLUMNS: &str = "id, game, kind, rules, start_position, ply, status, result, reason, \
     draw_offer, white_token_hash, black_token_hash, white_name, black_name, white_joined, \
     black_joined, white_level, black_level, tags, created_at, updated_at, pending_huff";

impl SqliteStorage {
    /// Open `url` (`sqlite:PATH`, `sqlite://PATH`, `sqlite::memory:`),
    /// creating the file and its folder if needed, and migrate it.
    pub async fn open(url: &str) -> Result<SqliteStorage, StorageError> {
        let options = SqliteConnectOptions::from_str(url)?
            .create_if_missing(true)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(10));
        let in_memory = url.contains(":memory:") || url.contains("mode=memory");
        if in_memory {
            // One connection keeps one in-memory database alive.
            let pool = SqlitePoolOptions::new()
                .max_connections(1)
                .min_connections(1)
                .idle_timeout(None)
                .max_lifetime(None)
                .connect_with(options)
                .await?;
            MIGRATOR.run(&pool).await?;
            return Ok(SqliteStorage {
                writer: pool.clone(),
                reader: pool,
            });
        }
        if let Some(parent) = options.get_filename().parent()
            && !parent.as_os_str().is_empty()
        {
            std::fs::create_dir_all(parent)?;
        }
        let options = options
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal);
        let writer = SqlitePoolOptions::new()
            .max_connections(1)
            .acquire_timeout(Duration::from_secs(30))
            .connect_with(options.clone())
            .await?;
        MIGRATOR.run(&writer).await?;
        let reader = SqlitePoolOptions::new()
            .max_connections(4)
            .acquire_timeout(Duration::from_secs(30))
            .connect_with(options)
            .await?;
        Ok(SqliteStorage { writer, reader })
    }
}

fn seat_from_row(row: &SqliteRow, color: &str) -> Result<Seat, sqlx::Error> {
    let level: Option<i64> = row.try_get(format!("{color}_level").as_str())?;
    Ok(Seat {
        token_hash: row.try_get(format!("{color}_token_hash").as_str())?,
        name: row.try_get(format!("{color}_name").as_str())?,
        joined: row.try_get::<i64, _>(format!("{color}_joined").as_str())? != 0,
        level: level.and_then(|l| u8::try_from(l).ok()),
    })
}

fn meta_from_row(row: &SqliteRow) -> Result<GameMeta, sqlx::Error> {
    Ok(GameMeta {
        status: row.try_get("status")?,
        result: row.try_get("result")?,
        reason: row.try_get("reason")?,
        draw_offer: row.try_get("draw_offer")?,
        pending_huff: row.try_get("pending_huff")?,
        updated_at: row.try_get("updated_at")?,
    })
}

fn seats_from_row(row: &SqliteRow) -> Result<Seats, sqlx::Error> {
    Ok([seat_from_row(row, "white")?, seat_from_row(row, "black")?])
}

fn tags_to_text(tags: &[(String, String)]) -> Option<String> {
    if tags.is_empty() {
        None
    } else {
        serde_json::to_string(tags).ok()
    }
}

fn tags_from_text(text: Option<String>) -> Result<Vec<(String, String)>, StorageError> {
    match text {
        None => Ok(Vec::new()),
        Some(t) => {
            serde_json::from_str(&t).map_err(|e| StorageError::Corrupt(format!("tags: {e}")))
        }
    }
}

async fn insert_moves(
    tx: &mut Transaction<'static, Sqlite>,
    id: i64,
    first_ply: usize,
    moves: &[String],
    at: &str,
) -> Result<(), sqlx::Error> {
    for (i, mv) in moves.iter().enumerate() {
        sqlx::query("INSERT INTO moves (game_id, ply, mv, created_at) VALUES (?, ?, ?, ?)")
            .bind(id)
            .bind((first_ply + i) as i64)
            .bind(mv.clone())
            .bind(at.to_string())
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

impl Storage for SqliteStorage {
    fn create_game(&self, g: NewGame) -> BoxFuture<'_, Result<i64, StorageError>> {
        Box::pin(async move {
            let mut tx = self.writer.begin().await?;
            let [w, b] = &g.seats;
            let row = sqlx::query(
                "INSERT INTO games (game, kind, rules, start_position, ply, status, result, reason, \
                 draw_offer, white_token_hash, black_token_hash, white_name, black_name, \
                 white_joined, black_joined, white_level, black_level, tags, created_at, updated_at, \
                 pending_huff) \
                 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            )
            .bind(g.game.clone())
            .bind(g.kind.clone())
            .bind(g.rules.clone())
            .bind(g.start_position.clone())
            .bind(g.moves.len() as i64)
            .bind(g.meta.status.clone())
            .bind(g.meta.result.clone())
            .bind(g.meta.reason.clone())
            .bind(g.meta.draw_offer.clone())
            .bind(w.token_hash.clone())
            .bind(b.token_hash.clone())
            .bind(w.name.clone())
            .bind(b.name.clone())
            .bind(i64::from(w.joined))
            .bind(i64::from(b.joined))
            .bind(w.level.map(i64::from))
            .bind(b.level.map(i64::from))
            .bind(tags_to_text(&g.tags))
            .bind(g.created_at.clone())
            .bind(g.meta.updated_at.clone())
            .bind(g.meta.pending_huff.clone())
            .fetch_one(&mut *tx)
            .await?;
            let id: i64 = row.try_get("id")?;
            insert_moves(&mut tx, id, 0, &g.moves, &g.created_at).await?;
            tx.commit().await?;
            Ok(id)
        })
    }

    fn load_game(&self, id: i64) -> BoxFuture<'_, Result<Option<StoredGame>, StorageError>> {
        Box::pin(async move {
            // One read transaction: the game row and its moves agree.
            let mut tx = self.reader.begin().await?;
            let sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE id = ?");
            let Some(row) = sqlx::query(sqlx::AssertSqlSafe(sql))
                .bind(id)
                .fetch_optional(&mut *tx)
                .await?
            else {
                return Ok(None);
            };
            let moves: Vec<String> =
                sqlx::query_scalar("SELECT mv FROM moves WHERE game_id = ? ORDER BY ply")
                    .bind(id)
                    .fetch_all(&mut *tx)
                    .await?;
            tx.commit().await?;
            let ply: i64 = row.try_get("ply")?;
            if ply != moves.len() as i64 {
                return Err(StorageError::Corrupt(format!(
                    "game {id}: {ply} plies recorded but {} moves stored",
                    moves.len()
                )));
            }
            Ok(Some(StoredGame {
                id,
                game: row.try_get("game")?,
                kind: row.try_get("kind")?,
                rules: row.try_get("rules")?,
                start_position: row.try_get("start_position")?,
                moves,
                meta: meta_from_row(&row)?,
                seats: seats_from_row(&row)?,
                tags: tags_from_text(row.try_get("tags")?)?,
                created_at: row.try_get("created_at")?,
            }))
        })
    }

    fn update_game(
        &self,
        id: i64,
        expected_ply: usize,
        change: MoveChange,
        meta: GameMeta,
    ) -> BoxFuture<'_, Result<(), StorageError>> {
        Box::pin(async move {
            let new_ply = match &change {
                MoveChange::Keep => expected_ply,
                MoveChange::Append(_) => expected_ply + 1,
                MoveChange::Truncate(n) if *n <= expected_ply => *n,
                MoveChange::Truncate(_) => return Err(StorageError::Conflict),
            };
            let mut tx = self.writer.begin().await?;
            // The write comes first, so the transaction takes the write lock
            // at once (no read-then-upgrade deadlock).
            let done = sqlx::query(
                "UPDATE games SET ply = ?, status = ?, result = ?, reason = ?, draw_offer = ?, \
                 updated_at = ?, pending_huff = ? WHERE id = ? AND ply = ?",
            )
            .bind(new_ply as i64)
            .bind(meta.status.clone())
            .bind(meta.result.clone())
            .bind(meta.reason.clone())
            .bind(meta.draw_offer.clone())
            .bind(meta.updated_at.clone())
            .bind(meta.pending_huff.clone())
            .bind(id)
            .bind(expected_ply as i64)
            .execute(&mut *tx)
            .await?;
            if done.rows_affected() != 1 {
                tx.rollback().await?;
                let exists: Option<i64> = sqlx::query_scalar("SELECT id FROM games WHERE id = ?")
                    .bind(id)
                    .fetch_optional(&self.reader)
                    .await?;
                return Err(if exists.is_some() {
                    StorageError::Conflict
                } else {
                    StorageError::NotFound
                });
            }
            match change {
                MoveChange::Keep => {}
                MoveChange::Append(mv) => {
                    insert_moves(&mut tx, id, expected_ply, &[mv], &meta.updated_at).await?;
                }
                MoveChange::Truncate(n) => {
                    sqlx::query("DELETE FROM moves WHERE game_id = ? AND ply >= ?")
                        .bind(id)
                        .bind(n as i64)
                        .execute(&mut *tx)
                        .await?;
                }
            }
            tx.commit().await?;
            Ok(())
        })
    }

    fn update_seat(
        &self,
        id: i64,
        seat: usize,
        name: Option<String>,
        joined: bool,
        updated_at: String,
    ) -> BoxFuture<'_, Result<(), StorageError>> {
        Box::pin(async move {
            let sql = match seat {
                0 => {
                    "UPDATE games SET white_name = ?, white_joined = ?, updated_at = ? WHERE id = ?"
                }
                _ => {
                    "UPDATE games SET black_name = ?, black_joined = ?, updated_at = ? WHERE id = ?"
                }
            };
            let done = sqlx::query(sql)
                .bind(name)
                .bind(i64::from(joined))
                .bind(updated_at)
                .bind(id)
                .execute(&self.writer)
                .await?;
            if done.rows_affected() == 1 {
                Ok(())
            } else {
                Err(StorageError::NotFound)
            }
        })
    }

    fn list_games(
        &self,
        limit: u32,
        offset: u32,
    ) -> BoxFuture<'_, Result<(Vec<GameSummary>, u64), StorageError>> {
        Box::pin(async move {
            let mut tx = self.reader.begin().await?;
            let total: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM games")
                .fetch_one(&mut *tx)
                .await?;
            let sql = format!("SELECT {GAME_COLUMNS} FROM games ORDER BY id DESC LIMIT ? OFFSET ?");
            let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
                .bind(i64::from(limit))
                .bind(i64::from(offset))
                .fetch_all(&mut *tx)
                .await?;
            tx.commit().await?;
            let mut out = Vec::with_capacity(rows.len());
            for row in &rows {
                out.push(GameSummary {
                    id: row.try_get("id")?,
                    game: row.try_get("game")?,
                    kind: row.try_get("kind")?,
                    rules: row.try_get("rules")?,
                    seats: seats_from_row(row)?,
                    ply: usize::try_from(row.try_get::<i64, _>("ply")?).unwrap_or(0),
                    meta: meta_from_row(row)?,
                    created_at: row.try_get("created_at")?,
                });
            }
            Ok((out, u64::try_from(total).unwrap_or(0)))
        })
    }

    fn ongoing_computer_games(&self) -> BoxFuture<'_, Result<Vec<i64>, StorageError>> {
        Box::pin(async move {
            let ids = sqlx::query_scalar(
                "SELECT id FROM games WHERE status = 'ongoing' AND kind = 'computer' ORDER BY id",
            )
            .fetch_all(&self.reader)
            .await?;
            Ok(ids)
        })
    }

    fn close(&self) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            self.reader.close().await;
            self.writer.close().await;
        })
    }
}
