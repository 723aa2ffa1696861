//! The PostgreSQL backend (`postgres://USER[:PASSWORD]@HOST[:PORT]/DB`):
//! a connection pool, its own migrations (`migrations/postgres`), plain
//! runtime queries. Several `brett serve` instances may share one
//! database: every change of a game is announced with `NOTIFY` in the
//! transaction that stores it (delivered when it commits), and the
//! computer's moves go by leases in the table `computer_leases`
//! ([`Cluster`], crate::cluster). The number of moves of a game (its ply)
//! stays the check of every change: `UPDATE … WHERE id = $1 AND ply = $2`,
//! so of two instances storing a move at the same ply one wins and the
//! other gets [`StorageError::Conflict`].
//!
//! As in the SQLite backend, every transaction is begun and ended here by
//! plain statements, and a transaction that failed is rolled back and its
//! connection closed: a connection broken or in an unknown state never
//! goes back to the pool, which opens a fresh one when the database is
//! reachable again. Nothing is acknowledged that was not committed; the one
//! case whose outcome cannot be told is a connection lost during `COMMIT`
//! (answered `storage_unavailable`; the game is read anew afterwards).

use std::collections::HashMap;
use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use futures_util::future::BoxFuture;
use sqlx::Row;
use sqlx::pool::PoolConnection;
use sqlx::postgres::{
    PgConnectOptions, PgConnection, PgListener, PgPool, PgPoolOptions, PgRow, Postgres,
};

use super::record::{tags_from_text, tags_to_text};
use super::{
    Cluster, ClusterEvent, GameMeta, GameRecord, GameSummary, MoveChange, NewGame, RecordMove,
    RecordSeat, RemoteChange, Seat, Seats, Storage, StorageError, StorageOptions, StoredGame,
};

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/postgres");

/// The channel of the change notifications.
const CHANNEL: &str = "brett_games";

/// How long a request waits for a connection before it is answered
/// `storage_unavailable`.
const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(5);

/// Pause before the listening connection is opened again after a failure.
const LISTEN_RETRY: Duration = Duration::from_secs(1);

const GAME_COLUMNS: &str = "id, game, kind, rules, start_position, ply, status, result, reason, \
     draw_offer, white_token_hash, black_token_hash, white_name, black_name, white_joined, \
     black_joined, white_level, black_level, tags, created_at, updated_at, pending_huff";

/// Games in a PostgreSQL database.
pub struct PgStorage {
    pool: PgPool,
    options: PgConnectOptions,
    /// This instance's id, in notifications and leases.
    instance: String,
    lease: Duration,
    /// The leases this instance holds: game → token of the take.
    leases: tokio::sync::Mutex<HashMap<i64, u64>>,
    next_token: AtomicU64,
}

impl std::fmt::Debug for PgStorage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgStorage")
            .field("instance", &self.instance)
            .finish_non_exhaustive()
    }
}

/// Whether an error means the database cannot be used right now (it is
/// unreachable, shutting down, out of space, read-only, the connection
/// broke) rather than a fault of the statement.
fn is_unavailable(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::Database(d) => {
            let code = d.code().unwrap_or_default();
            // SQLSTATE classes: 08 connection exception, 53 insufficient
            // resources (disk full, out of memory, too many connections),
            // 57 operator intervention (shutdown, cannot connect now), 58
            // system error (I/O), 40 transaction rollback (serialization,
            // deadlock); 25006 read-only transaction; 55P03 lock not
            // available.
            matches!(code.get(..2), Some("08" | "53" | "57" | "58" | "40"))
                || code == "25006"
                || code == "55P03"
        }
        sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::Protocol(_)
        | sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::WorkerCrashed => true,
        _ => false,
    }
}

fn classify(e: StorageError) -> StorageError {
    match e {
        StorageError::Database(d) if is_unavailable(&d) => StorageError::Unavailable(d.to_string()),
        StorageError::Io(e) => StorageError::Unavailable(e.to_string()),
        other => other,
    }
}

/// A transaction's work on its connection.
trait Work<'c, T>:
    FnOnce(&'c mut PgConnection) -> BoxFuture<'c, Result<T, StorageError>> + Send
{
}

impl<'c, T, F> Work<'c, T> for F where
    F: FnOnce(&'c mut PgConnection) -> BoxFuture<'c, Result<T, StorageError>> + Send
{
}

/// A pooled connection in a transaction begun by hand: closed if dropped
/// before the transaction ended (a request that went away).
struct InTransaction(Option<PoolConnection<Postgres>>);

impl InTransaction {
    fn conn(&mut self) -> &mut PgConnection {
        self.0.as_mut().expect("the connection is held")
    }

    fn end(mut self) -> PoolConnection<Postgres> {
        self.0.take().expect("the connection is held")
    }
}

impl Drop for InTransaction {
    fn drop(&mut self) {
        if let Some(conn) = &mut self.0 {
            conn.close_on_drop();
        }
    }
}

fn seat_from_row(row: &PgRow, color: &str) -> Result<Seat, sqlx::Error> {
    let level: Option<i64> = row.try_get(format!("{color}_level").as_str())?;
    Ok(Seat {
        token_hash: row.try_get(format!("{color}_token_hash").as_str())?,
        name: row.try_get(format!("{color}_name").as_str())?,
        joined: row.try_get(format!("{color}_joined").as_str())?,
        level: level.and_then(|l| u8::try_from(l).ok()),
    })
}

fn seats_from_row(row: &PgRow) -> Result<Seats, sqlx::Error> {
    Ok([seat_from_row(row, "white")?, seat_from_row(row, "black")?])
}

fn meta_from_row(row: &PgRow) -> Result<GameMeta, sqlx::Error> {
    Ok(GameMeta {
        status: row.try_get("status")?,
        result: row.try_get("result")?,
        reason: row.try_get("reason")?,
        draw_offer: row.try_get("draw_offer")?,
        pending_huff: row.try_get("pending_huff")?,
        updated_at: row.try_get("updated_at")?,
    })
}

async fn insert_moves(
    conn: &mut PgConnection,
    id: i64,
    first_ply: usize,
    moves: &[String],
    at: &str,
) -> Result<(), sqlx::Error> {
    for (i, mv) in moves.iter().enumerate() {
        sqlx::query("INSERT INTO moves (game_id, ply, mv, created_at) VALUES ($1, $2, $3, $4)")
            .bind(id)
            .bind((first_ply + i) as i64)
            .bind(mv.clone())
            .bind(at.to_string())
            .execute(&mut *conn)
            .await?;
    }
    Ok(())
}

/// Announce a change of game `id` (now at `ply`) to the other instances;
/// sent when the transaction commits.
async fn notify(conn: &mut PgConnection, instance: &str, id: i64, ply: i64) -> sqlx::Result<()> {
    sqlx::query("SELECT pg_notify($1, $2)")
        .bind(CHANNEL)
        .bind(format!("{instance} {id} {ply}"))
        .execute(&mut *conn)
        .await
        .map(drop)
}

/// A notification's payload: the change, unless this instance made it.
fn parse_change(payload: &str, me: &str) -> Option<RemoteChange> {
    let mut parts = payload.split(' ');
    let (from, game, ply) = (parts.next()?, parts.next()?, parts.next()?);
    if from == me {
        return None;
    }
    Some(RemoteChange {
        game: game.parse().ok()?,
        ply: ply.parse().ok()?,
    })
}

impl PgStorage {
    /// Connect to `url` and migrate the database.
    pub async fn open(url: &str, options: &StorageOptions) -> Result<PgStorage, StorageError> {
        let connect = PgConnectOptions::from_str(url)?.application_name("brett");
        let pool = PgPoolOptions::new()
            .max_connections(8)
            .acquire_timeout(ACQUIRE_TIMEOUT)
            .test_before_acquire(true)
            .connect_with(connect.clone())
            .await
            .map_err(|e| classify(e.into()))?;
        // Instances starting at once take turns (an advisory lock).
        MIGRATOR.run(&pool).await?;
        let mut id = [0u8; 8];
        getrandom::fill(&mut id).map_err(|e| StorageError::Unavailable(e.to_string()))?;
        let instance: String = id.iter().map(|b| format!("{b:02x}")).collect();
        tracing::info!(instance = %instance, "PostgreSQL storage opened");
        Ok(PgStorage {
            pool,
            options: connect,
            instance,
            lease: options.computer_lease.max(Duration::from_millis(100)),
            leases: tokio::sync::Mutex::new(HashMap::new()),
            next_token: AtomicU64::new(1),
        })
    }

    /// Run `work` in one transaction begun with `begin`. On any error the
    /// transaction is rolled back and, unless only `Conflict`, `NotFound`
    /// or `Exists` was found, the connection is closed.
    async fn transaction<T, W>(
        &self,
        what: &'static str,
        begin: &'static str,
        work: W,
    ) -> Result<T, StorageError>
    where
        W: for<'c> Work<'c, T>,
    {
        let conn = self.pool.acquire().await.map_err(|e| {
            let e = classify(e.into());
            tracing::error!(op = what, error = %e, "no database connection");
            e
        })?;
        let mut held = InTransaction(Some(conn));
        let result = async {
            sqlx::raw_sql(begin).execute(&mut *held.conn()).await?;
            let value = work(held.conn()).await?;
            sqlx::raw_sql("COMMIT").execute(&mut *held.conn()).await?;
            Ok(value)
        }
        .await
        .map_err(classify);
        let e = match result {
            Ok(value) => {
                held.end();
                return Ok(value);
            }
            Err(e) => e,
        };
        let rolled_back = sqlx::raw_sql("ROLLBACK").execute(&mut *held.conn()).await;
        let conn = held.end();
        if matches!(
            e,
            StorageError::Conflict | StorageError::NotFound | StorageError::Exists(_)
        ) && rolled_back.is_ok()
        {
            return Err(e);
        }
        tracing::error!(op = what, error = %e, "database error; rolled back, connection closed");
        if let Err(close) = conn.close().await {
            tracing::debug!(op = what, error = %close, "closing the failed connection failed");
        }
        Err(e)
    }

    async fn write<T, W>(&self, what: &'static str, work: W) -> Result<T, StorageError>
    where
        W: for<'c> Work<'c, T>,
    {
        self.transaction(what, "BEGIN", work).await
    }

    /// A read on one snapshot (the game row and its moves agree).
    async fn read<T, W>(&self, what: &'static str, work: W) -> Result<T, StorageError>
    where
        W: for<'c> Work<'c, T>,
    {
        self.transaction(
            what,
            "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY",
            work,
        )
        .await
    }

    fn lease_seconds(&self) -> f64 {
        self.lease.as_secs_f64()
    }
}

impl Storage for PgStorage {
    fn create_game(&self, g: NewGame) -> BoxFuture<'_, Result<i64, StorageError>> {
        Box::pin(self.write("create game", move |conn| {
            Box::pin(async move {
                let [w, b] = &g.seats;
                let id: i64 = sqlx::query_scalar(
                    "INSERT INTO games (game, kind, rules, start_position, ply, status, result, \
                     reason, draw_offer, white_token_hash, black_token_hash, white_name, \
                     black_name, white_joined, black_joined, white_level, black_level, tags, \
                     created_at, updated_at, pending_huff) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, \
                     $16, $17, $18, $19, $20, $21) RETURNING id",
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
                .bind(w.joined)
                .bind(b.joined)
                .bind(w.level.map(i64::from))
                .bind(b.level.map(i64::from))
                .bind(tags_to_text(&g.tags))
                .bind(g.created_at.clone())
                .bind(g.meta.updated_at.clone())
                .bind(g.meta.pending_huff.clone())
                .fetch_one(&mut *conn)
                .await?;
                insert_moves(conn, id, 0, &g.moves, &g.created_at).await?;
                Ok(id)
            })
        }))
    }

    fn load_game(&self, id: i64) -> BoxFuture<'_, Result<Option<StoredGame>, StorageError>> {
        Box::pin(async move {
            let found = self
                .read("load game", move |conn| {
                    Box::pin(async move {
                        let sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1");
                        let Some(row) = sqlx::query(sqlx::AssertSqlSafe(sql))
                            .bind(id)
                            .fetch_optional(&mut *conn)
                            .await?
                        else {
                            return Ok(None);
                        };
                        let moves: Vec<String> = sqlx::query_scalar(
                            "SELECT mv FROM moves WHERE game_id = $1 ORDER BY ply",
                        )
                        .bind(id)
                        .fetch_all(&mut *conn)
                        .await?;
                        Ok(Some((row, moves)))
                    })
                })
                .await?;
            let Some((row, moves)) = found else {
                return Ok(None);
            };
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
            let instance = self.instance.clone();
            self.write("update game", move |conn| {
                Box::pin(async move {
                    // Of two writers at the same ply the second waits for
                    // the first's row lock, then finds the ply changed.
                    let done = sqlx::query(
                        "UPDATE games SET ply = $1, status = $2, result = $3, reason = $4, \
                         draw_offer = $5, updated_at = $6, pending_huff = $7 \
                         WHERE id = $8 AND ply = $9",
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
                    .execute(&mut *conn)
                    .await?;
                    if done.rows_affected() != 1 {
                        let exists: Option<i64> =
                            sqlx::query_scalar("SELECT id FROM games WHERE id = $1")
                                .bind(id)
                                .fetch_optional(&mut *conn)
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
                            insert_moves(conn, id, expected_ply, &[mv], &meta.updated_at).await?;
                        }
                        MoveChange::Truncate(n) => {
                            sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply >= $2")
                                .bind(id)
                                .bind(n as i64)
                                .execute(&mut *conn)
                                .await?;
                        }
                    }
                    notify(conn, &instance, id, new_ply as i64).await?;
                    Ok(())
                })
            })
            .await
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
        let instance = self.instance.clone();
        Box::pin(self.write("update seat", move |conn| {
            Box::pin(async move {
                let sql = match seat {
                    0 => {
                        "UPDATE games SET white_name = $1, white_joined = $2, updated_at = $3 \
                         WHERE id = $4 RETURNING ply"
                    }
                    _ => {
                        "UPDATE games SET black_name = $1, black_joined = $2, updated_at = $3 \
                         WHERE id = $4 RETURNING ply"
                    }
                };
                let ply: Option<i64> = sqlx::query_scalar(sql)
                    .bind(name)
                    .bind(joined)
                    .bind(updated_at)
                    .bind(id)
                    .fetch_optional(&mut *conn)
                    .await?;
                let Some(ply) = ply else {
                    return Err(StorageError::NotFound);
                };
                notify(conn, &instance, id, ply).await?;
                Ok(())
            })
        }))
    }

    fn list_games(
        &self,
        limit: u32,
        offset: u32,
    ) -> BoxFuture<'_, Result<(Vec<GameSummary>, u64), StorageError>> {
        Box::pin(async move {
            let (total, rows) = self
                .read("list games", move |conn| {
                    Box::pin(async move {
                        let total: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM games")
                            .fetch_one(&mut *conn)
                            .await?;
                        let sql = format!(
                            "SELECT {GAME_COLUMNS} FROM games ORDER BY id DESC LIMIT $1 OFFSET $2"
                        );
                        let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
                            .bind(i64::from(limit))
                            .bind(i64::from(offset))
                            .fetch_all(&mut *conn)
                            .await?;
                        Ok((total, rows))
                    })
                })
                .await?;
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
        Box::pin(self.read("ongoing computer games", |conn| {
            Box::pin(async move {
                let ids = sqlx::query_scalar(
                    "SELECT id FROM games WHERE status = 'ongoing' AND kind = 'computer' \
                     ORDER BY id",
                )
                .fetch_all(&mut *conn)
                .await?;
                Ok(ids)
            })
        }))
    }

    fn export_games(
        &self,
        after_id: i64,
        limit: u32,
    ) -> BoxFuture<'_, Result<Vec<GameRecord>, StorageError>> {
        Box::pin(async move {
            let (rows, moves) = self
                .read("export games", move |conn| {
                    Box::pin(async move {
                        let sql = format!(
                            "SELECT {GAME_COLUMNS} FROM games WHERE id > $1 ORDER BY id LIMIT $2"
                        );
                        let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
                            .bind(after_id)
                            .bind(i64::from(limit))
                            .fetch_all(&mut *conn)
                            .await?;
                        let last: Option<i64> = match rows.last() {
                            Some(r) => Some(r.try_get("id")?),
                            None => None,
                        };
                        let moves: Vec<(i64, i64, String, String)> = match last {
                            None => Vec::new(),
                            Some(last) => {
                                sqlx::query_as(
                                    "SELECT game_id, ply, mv, created_at FROM moves \
                                     WHERE game_id > $1 AND game_id <= $2 ORDER BY game_id, ply",
                                )
                                .bind(after_id)
                                .bind(last)
                                .fetch_all(&mut *conn)
                                .await?
                            }
                        };
                        Ok((rows, moves))
                    })
                })
                .await?;
            let mut out = Vec::with_capacity(rows.len());
            let mut moves = moves.into_iter().peekable();
            for row in &rows {
                let id: i64 = row.try_get("id")?;
                let mut list = Vec::new();
                while let Some((_, ply, mv, at)) = moves.next_if(|m| m.0 == id) {
                    if ply != list.len() as i64 {
                        return Err(StorageError::Corrupt(format!(
                            "game {id}: move {ply} stored where move {} belongs",
                            list.len()
                        )));
                    }
                    list.push(RecordMove { mv, at });
                }
                let [white, black] = seats_from_row(row)?;
                let meta = meta_from_row(row)?;
                out.push(GameRecord {
                    id,
                    game: row.try_get("game")?,
                    kind: row.try_get("kind")?,
                    rules: row.try_get("rules")?,
                    start_position: row.try_get("start_position")?,
                    status: meta.status,
                    result: meta.result,
                    reason: meta.reason,
                    draw_offer: meta.draw_offer,
                    pending_huff: meta.pending_huff,
                    white: RecordSeat::from(white),
                    black: RecordSeat::from(black),
                    tags: tags_from_text(row.try_get("tags")?)?,
                    created_at: row.try_get("created_at")?,
                    updated_at: meta.updated_at,
                    moves: list,
                });
            }
            Ok(out)
        })
    }

    fn import_games(&self, games: Vec<GameRecord>) -> BoxFuture<'_, Result<(), StorageError>> {
        Box::pin(self.write("import games", move |conn| {
            Box::pin(async move {
                if games.is_empty() {
                    return Ok(());
                }
                let ids: Vec<i64> = games.iter().map(|g| g.id).collect();
                let taken: Option<i64> = sqlx::query_scalar(
                    "SELECT id FROM games WHERE id = ANY($1) ORDER BY id LIMIT 1",
                )
                .bind(ids)
                .fetch_optional(&mut *conn)
                .await?;
                if let Some(id) = taken {
                    return Err(StorageError::Exists(id));
                }
                for g in &games {
                    let [w, b] = g.seats();
                    sqlx::query(
                        "INSERT INTO games (id, game, kind, rules, start_position, ply, status, \
                         result, reason, draw_offer, white_token_hash, black_token_hash, \
                         white_name, black_name, white_joined, black_joined, white_level, \
                         black_level, tags, created_at, updated_at, pending_huff) \
                         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, \
                         $15, $16, $17, $18, $19, $20, $21, $22)",
                    )
                    .bind(g.id)
                    .bind(g.game.clone())
                    .bind(g.kind.clone())
                    .bind(g.rules.clone())
                    .bind(g.start_position.clone())
                    .bind(g.moves.len() as i64)
                    .bind(g.status.clone())
                    .bind(g.result.clone())
                    .bind(g.reason.clone())
                    .bind(g.draw_offer.clone())
                    .bind(w.token_hash.clone())
                    .bind(b.token_hash.clone())
                    .bind(w.name.clone())
                    .bind(b.name.clone())
                    .bind(w.joined)
                    .bind(b.joined)
                    .bind(w.level.map(i64::from))
                    .bind(b.level.map(i64::from))
                    .bind(tags_to_text(&g.tags))
                    .bind(g.created_at.clone())
                    .bind(g.updated_at.clone())
                    .bind(g.pending_huff.clone())
                    .execute(&mut *conn)
                    .await?;
                    for (ply, m) in g.moves.iter().enumerate() {
                        sqlx::query(
                            "INSERT INTO moves (game_id, ply, mv, created_at) \
                             VALUES ($1, $2, $3, $4)",
                        )
                        .bind(g.id)
                        .bind(ply as i64)
                        .bind(m.mv.clone())
                        .bind(m.at.clone())
                        .execute(&mut *conn)
                        .await?;
                    }
                }
                // New games get ids after the imported ones.
                sqlx::query(
                    "SELECT setval(pg_get_serial_sequence('games', 'id'), \
                     (SELECT MAX(id) FROM games))",
                )
                .execute(&mut *conn)
                .await?;
                Ok(())
            })
        }))
    }

    fn cluster(&self) -> Option<&dyn Cluster> {
        Some(self)
    }

    fn close(&self) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            // The leases of the computer moves this instance was searching
            // expire now: another instance takes them over at once. (After
            // a renewal in progress; none comes after.)
            let mut leases = self.leases.lock().await;
            leases.clear();
            let instance = self.instance.clone();
            let released = self
                .write("expire leases", move |conn| {
                    Box::pin(async move {
                        sqlx::query(
                            "UPDATE computer_leases SET expires_at = now() - interval '1 second' \
                             WHERE instance = $1",
                        )
                        .bind(instance)
                        .execute(&mut *conn)
                        .await?;
                        Ok(())
                    })
                })
                .await;
            if let Err(e) = released {
                tracing::warn!(error = %e, "could not hand over the computer leases");
            }
            drop(leases);
            self.pool.close().await;
        })
    }
}

impl Cluster for PgStorage {
    fn instance(&self) -> &str {
        &self.instance
    }

    fn lease_duration(&self) -> Duration {
        self.lease
    }

    fn take_lease(&self, game: i64) -> BoxFuture<'_, Result<Option<u64>, StorageError>> {
        Box::pin(async move {
            // Lease changes of this instance take turns, so a release does
            // not delete the row of a take that came after it.
            let mut leases = self.leases.lock().await;
            let instance = self.instance.clone();
            let secs = self.lease_seconds();
            let taken = self
                .write("take lease", move |conn| {
                    Box::pin(async move {
                        let taken: Option<i64> = sqlx::query_scalar(
                            "INSERT INTO computer_leases (game_id, instance, expires_at) \
                             VALUES ($1, $2, now() + make_interval(secs => $3)) \
                             ON CONFLICT (game_id) DO UPDATE \
                             SET instance = EXCLUDED.instance, expires_at = EXCLUDED.expires_at \
                             WHERE computer_leases.instance = EXCLUDED.instance \
                             OR computer_leases.expires_at < now() \
                             RETURNING game_id",
                        )
                        .bind(game)
                        .bind(instance)
                        .bind(secs)
                        .fetch_optional(&mut *conn)
                        .await?;
                        Ok(taken.is_some())
                    })
                })
                .await?;
            if !taken {
                return Ok(None);
            }
            let token = self.next_token.fetch_add(1, Ordering::Relaxed);
            leases.insert(game, token);
            Ok(Some(token))
        })
    }

    fn release_lease(&self, game: i64, token: u64) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            let mut leases = self.leases.lock().await;
            if leases.get(&game) != Some(&token) {
                return;
            }
            leases.remove(&game);
            let instance = self.instance.clone();
            let released = self
                .write("release lease", move |conn| {
                    Box::pin(async move {
                        sqlx::query(
                            "DELETE FROM computer_leases WHERE game_id = $1 AND instance = $2",
                        )
                        .bind(game)
                        .bind(instance)
                        .execute(&mut *conn)
                        .await?;
                        Ok(())
                    })
                })
                .await;
            if let Err(e) = released {
                // It expires by itself.
                tracing::warn!(game, error = %e, "could not release a computer lease");
            }
        })
    }

    fn renew_leases(&self) -> BoxFuture<'_, Result<(), StorageError>> {
        Box::pin(async move {
            let mut leases = self.leases.lock().await;
            if leases.is_empty() {
                return Ok(());
            }
            let ids: Vec<i64> = leases.keys().copied().collect();
            let instance = self.instance.clone();
            let secs = self.lease_seconds();
            let renewed: Vec<i64> = self
                .write("renew leases", move |conn| {
                    Box::pin(async move {
                        let renewed = sqlx::query_scalar(
                            "UPDATE computer_leases \
                             SET expires_at = now() + make_interval(secs => $1) \
                             WHERE instance = $2 AND game_id = ANY($3) RETURNING game_id",
                        )
                        .bind(secs)
                        .bind(instance)
                        .bind(ids)
                        .fetch_all(&mut *conn)
                        .await?;
                        Ok(renewed)
                    })
                })
                .await?;
            // Leases another instance took over (this one was cut off for
            // longer than a lease) are not claimed any more.
            leases.retain(|game, _| {
                let kept = renewed.contains(game);
                if !kept {
                    tracing::warn!(game, "a computer lease was taken over by another instance");
                }
                kept
            });
            Ok(())
        })
    }

    fn claim_expired_leases(&self) -> BoxFuture<'_, Result<Vec<(i64, u64)>, StorageError>> {
        Box::pin(async move {
            let mut leases = self.leases.lock().await;
            let instance = self.instance.clone();
            let secs = self.lease_seconds();
            // Claimed, not deleted: should this instance stop before it
            // has taken the game over, the claim expires in turn.
            let games: Vec<i64> = self
                .write("claim expired leases", move |conn| {
                    Box::pin(async move {
                        let ids = sqlx::query_scalar(
                            "UPDATE computer_leases \
                             SET instance = $1, expires_at = now() + make_interval(secs => $2) \
                             WHERE expires_at < now() RETURNING game_id",
                        )
                        .bind(instance)
                        .bind(secs)
                        .fetch_all(&mut *conn)
                        .await?;
                        Ok(ids)
                    })
                })
                .await?;
            Ok(games
                .into_iter()
                .map(|game| {
                    let token = self.next_token.fetch_add(1, Ordering::Relaxed);
                    leases.insert(game, token);
                    (game, token)
                })
                .collect())
        })
    }

    fn listen(
        &self,
        tx: tokio::sync::mpsc::Sender<ClusterEvent>,
        mut closing: tokio::sync::watch::Receiver<bool>,
    ) -> BoxFuture<'static, ()> {
        let options = self.options.clone();
        let me = self.instance.clone();
        Box::pin(async move {
            let mut first = true;
            loop {
                if *closing.borrow() {
                    return;
                }
                // A pool of its own: the listener reconnects through it.
                let pool = PgPoolOptions::new()
                    .max_connections(1)
                    .acquire_timeout(ACQUIRE_TIMEOUT)
                    .idle_timeout(None)
                    .max_lifetime(None)
                    .connect_lazy_with(options.clone());
                let listener = async {
                    let mut l = PgListener::connect_with(&pool).await?;
                    l.listen(CHANNEL).await?;
                    Ok::<_, sqlx::Error>(l)
                }
                .await;
                match listener {
                    Ok(mut l) => {
                        let event = if first {
                            ClusterEvent::Listening
                        } else {
                            ClusterEvent::Resync
                        };
                        first = false;
                        if tx.send(event).await.is_err() {
                            return;
                        }
                        loop {
                            let next = tokio::select! {
                                n = l.try_recv() => n,
                                _ = closing.changed() => return,
                            };
                            let event = match next {
                                Ok(Some(n)) => match parse_change(n.payload(), &me) {
                                    Some(change) => ClusterEvent::Changed(change),
                                    None => continue,
                                },
                                // The connection was lost and is back: what
                                // came meanwhile was not heard.
                                Ok(None) => {
                                    tracing::warn!("the listening connection was lost; resyncing");
                                    ClusterEvent::Resync
                                }
                                Err(e) => {
                                    tracing::warn!(error = %e, "listening for changes failed");
                                    break;
                                }
                            };
                            if tx.send(event).await.is_err() {
                                return;
                            }
                        }
                    }
                    Err(e) => {
                        tracing::warn!(error = %e, "cannot listen for changes of other instances")
                    }
                }
                drop(pool);
                tokio::select! {
                    _ = tokio::time::sleep(LISTEN_RETRY) => {}
                    _ = closing.changed() => return,
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn change_payloads() {
        assert_eq!(
            parse_change("abc 12 7", "me"),
            Some(RemoteChange { game: 12, ply: 7 })
        );
        assert_eq!(parse_change("me 12 7", "me"), None);
        assert_eq!(parse_change("abc x 7", "me"), None);
        assert_eq!(parse_change("abc", "me"), None);
    }
}
