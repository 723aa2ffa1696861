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
use sqlx::postgres::{PgConnectOptions, PgConnection, PgListener, PgPool, PgPoolOptions};

use super::record::tags_from_text;
use super::{
    Account, AccountRecord, ChatLimit, ChatMessage, ChatPosted, ChatReport, ChatRoom, Cluster,
    ClusterEvent, Expected, GameMeta, GameRecord, GameSummary, MoveChange, NewAccount,
    NewChatMessage, NewGame, NewLogin, NewReport, RecordMove, RecordSeat, RemoteChange,
    RemotePresence, SeatChange, Storage, StorageError, StorageOptions, StoredGame,
};
use super::{chat, sql};

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/postgres");

/// The channel of the change notifications.
const CHANNEL: &str = "brett_games";

/// How long a request waits for a connection before it is answered
/// `storage_unavailable`.
const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(5);

/// Pause before the listening connection is opened again after a failure.
const LISTEN_RETRY: Duration = Duration::from_secs(1);

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

/// Whether PostgreSQL's error `code` (SQLSTATE) means the database cannot
/// be used right now (it is unreachable, shutting down, out of space,
/// read-only) rather than a fault of the statement.
fn unavailable_code(code: &str) -> bool {
    // SQLSTATE classes: 08 connection exception, 53 insufficient resources
    // (disk full, out of memory, too many connections), 57 operator
    // intervention (shutdown, cannot connect now), 58 system error (I/O),
    // 40 transaction rollback (serialization, deadlock); 25006 read-only
    // transaction; 55P03 lock not available.
    matches!(code.get(..2), Some("08" | "53" | "57" | "58" | "40"))
        || code == "25006"
        || code == "55P03"
}

/// The storage error for `e` (sql::classify).
fn classify(e: StorageError) -> StorageError {
    sql::classify(e, unavailable_code)
}

/// A transaction's work on its connection.
trait Work<'c, T>: sql::Work<'c, PgConnection, T> {}

impl<'c, T, F: sql::Work<'c, PgConnection, T>> Work<'c, T> for F {}

type Conn = PgConnection;

sql::row_writers!();

/// Announce a change of game `id` (now at `ply`) to the other instances;
/// sent when the transaction commits.
async fn announce(conn: &mut Conn, instance: &String, id: i64, ply: i64) -> sqlx::Result<()> {
    sqlx::query("SELECT pg_notify($1, $2)")
        .bind(CHANNEL)
        .bind(format!("{instance} {id} {ply}"))
        .execute(&mut *conn)
        .await
        .map(drop)
}

/// Announce chat message `message` of game `game` to the other
/// instances; sent when the transaction commits.
async fn announce_chat(
    conn: &mut Conn,
    instance: &String,
    game: i64,
    message: i64,
) -> sqlx::Result<()> {
    sqlx::query("SELECT pg_notify($1, $2)")
        .bind(CHANNEL)
        .bind(format!("{instance} chat {game} {message}"))
        .execute(&mut *conn)
        .await
        .map(drop)
}

/// New games get ids after the imported ones.
async fn after_import(conn: &mut Conn) -> sqlx::Result<()> {
    sqlx::query("SELECT setval(pg_get_serial_sequence('games', 'id'), (SELECT MAX(id) FROM games))")
        .execute(&mut *conn)
        .await
        .map(drop)
}

/// New accounts get ids after the imported ones.
async fn after_account_import(conn: &mut Conn) -> sqlx::Result<()> {
    sqlx::query(
        "SELECT setval(pg_get_serial_sequence('accounts', 'id'), (SELECT MAX(id) FROM accounts))",
    )
    .execute(&mut *conn)
    .await
    .map(drop)
}

/// A notification's payload: a chat message (`chat GAME MESSAGE`), unless
/// this instance stored it.
fn parse_chat(payload: &str, me: &str) -> Option<ClusterEvent> {
    let mut parts = payload.split(' ');
    let (from, kind, game, message) = (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
    if from == me || kind != "chat" {
        return None;
    }
    Some(ClusterEvent::Chat {
        game: game.parse().ok()?,
        message: message.parse().ok()?,
    })
}

/// A notification's payload: a lobby message, a chat message or a change
/// of a game, unless this instance sent it.
fn parse_event(payload: &str, me: &str) -> Option<ClusterEvent> {
    match payload.split_once(' ') {
        Some((from, rest)) if from != me => match rest.strip_prefix("lobby ") {
            Some(message) => Some(ClusterEvent::Lobby(message.to_string())),
            None => parse_change(payload, me)
                .map(ClusterEvent::Changed)
                .or_else(|| parse_chat(payload, me)),
        },
        _ => None,
    }
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
        let how = sql::Transaction {
            what,
            begin,
            keep: false,
            classify,
            check: || Ok(()),
        };
        sql::transaction(conn, how, work).await
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

    /// What goes into a transaction to announce its change: this
    /// instance's id.
    fn announcer(&self) -> String {
        self.instance.clone()
    }

    /// Change this instance's leases as `change` says, in a write of its
    /// own; the games whose lease it took, kept or gave up.
    async fn change_leases(&self, change: LeaseChange) -> Result<Vec<i64>, StorageError> {
        let instance = self.instance.clone();
        let secs = self.lease.as_secs_f64();
        self.write(change.what(), move |conn| {
            Box::pin(async move {
                // `$1` is this instance; `$2`, `$3` as LeaseChange::sql says.
                let q = sqlx::query_scalar::<_, i64>(change.sql()).bind(instance);
                let q = match change {
                    LeaseChange::Take(game) => q.bind(secs).bind(game),
                    LeaseChange::Release(game) => q.bind(game),
                    LeaseChange::Renew(games) => q.bind(secs).bind(games),
                    LeaseChange::ClaimExpired => q.bind(secs),
                    LeaseChange::ExpireAll => q,
                };
                Ok(q.fetch_all(&mut *conn).await?)
            })
        })
        .await
    }
}

/// A change of the leases of computer moves (`computer_leases`).
enum LeaseChange {
    /// Take the lease of a game: free, expired or this instance's.
    Take(i64),
    /// Give up this instance's lease of a game.
    Release(i64),
    /// Extend this instance's leases of these games.
    Renew(Vec<i64>),
    /// Claim every expired lease for this instance.
    ClaimExpired,
    /// Let this instance's leases expire now (it stops).
    ExpireAll,
}

impl LeaseChange {
    fn what(&self) -> &'static str {
        match self {
            LeaseChange::Take(_) => "take lease",
            LeaseChange::Release(_) => "release lease",
            LeaseChange::Renew(_) => "renew leases",
            LeaseChange::ClaimExpired => "claim expired leases",
            LeaseChange::ExpireAll => "expire leases",
        }
    }

    /// The statement: `$1` is this instance, `$2` the lease in seconds
    /// (or the game released), `$3` the game or games; it returns the ids
    /// of the games whose leases it changed.
    fn sql(&self) -> &'static str {
        match self {
            LeaseChange::Take(_) => {
                "INSERT INTO computer_leases (game_id, instance, expires_at) \
                 VALUES ($3, $1, now() + make_interval(secs => $2)) \
                 ON CONFLICT (game_id) DO UPDATE \
                 SET instance = EXCLUDED.instance, expires_at = EXCLUDED.expires_at \
                 WHERE computer_leases.instance = EXCLUDED.instance \
                 OR computer_leases.expires_at < now() \
                 RETURNING game_id"
            }
            LeaseChange::Release(_) => {
                "DELETE FROM computer_leases WHERE game_id = $2 AND instance = $1 \
                 RETURNING game_id"
            }
            LeaseChange::Renew(_) => {
                "UPDATE computer_leases SET expires_at = now() + make_interval(secs => $2) \
                 WHERE instance = $1 AND game_id = ANY($3) RETURNING game_id"
            }
            // Claimed, not deleted: should this instance stop before it
            // has taken the game over, the claim expires in turn.
            LeaseChange::ClaimExpired => {
                "UPDATE computer_leases \
                 SET instance = $1, expires_at = now() + make_interval(secs => $2) \
                 WHERE expires_at < now() RETURNING game_id"
            }
            LeaseChange::ExpireAll => {
                "UPDATE computer_leases SET expires_at = now() - interval '1 second' \
                 WHERE instance = $1 RETURNING game_id"
            }
        }
    }
}

impl Storage for PgStorage {
    sql::storage_methods!();
    chat::chat_methods!();
    super::lobby::lobby_methods!();
    super::analysis::analysis_methods!();

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
            if let Err(e) = self.change_leases(LeaseChange::ExpireAll).await {
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
            let taken = self.change_leases(LeaseChange::Take(game)).await?;
            if taken.is_empty() {
                return Ok(None);
            }
            let token = self.next_token.fetch_add(1, Ordering::Relaxed);
            leases.insert(game, token);
            Ok(Some(token))
        })
    }

    fn set_presence(
        &self,
        game: i64,
        seat: usize,
        sockets: usize,
        at: i64,
    ) -> BoxFuture<'_, Result<(), StorageError>> {
        let instance = self.instance.clone();
        Box::pin(self.write("set presence", move |conn| {
            Box::pin(async move {
                sqlx::query(
                    "INSERT INTO seat_presence (game_id, seat, instance, sockets, changed_at) \
                     SELECT $1, $2, $3, $4, $5 WHERE EXISTS (SELECT 1 FROM games WHERE id = $1) \
                     ON CONFLICT (game_id, seat, instance) \
                     DO UPDATE SET sockets = $4, changed_at = $5",
                )
                .bind(game)
                .bind(seat as i16)
                .bind(&instance)
                .bind(sockets as i64)
                .bind(at)
                .execute(&mut *conn)
                .await?;
                // The players' presence is news at once; the spectators'
                // count goes out with the game's next change.
                if seat < 2 {
                    announce(conn, &instance, game, 0).await?;
                }
                Ok(())
            })
        }))
    }

    fn spectators(&self, game: i64, now: i64) -> BoxFuture<'_, Result<usize, StorageError>> {
        let instance = self.instance.clone();
        Box::pin(self.read("spectators", move |conn| {
            Box::pin(async move {
                let n: Option<i64> = sqlx::query_scalar(
                    "SELECT SUM(sockets)::BIGINT FROM seat_presence \
                     WHERE game_id = $1 AND seat = 2 AND instance <> $2 AND changed_at >= $3",
                )
                .bind(game)
                .bind(&instance)
                .bind(now - super::PRESENCE_LAPSE_MS)
                .fetch_one(&mut *conn)
                .await?;
                Ok(usize::try_from(n.unwrap_or(0)).unwrap_or(0))
            })
        }))
    }

    fn announce_lobby(&self, message: String) -> BoxFuture<'_, Result<(), StorageError>> {
        let payload = format!("{} lobby {message}", self.instance);
        Box::pin(async move {
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(CHANNEL)
                .bind(payload)
                .execute(&self.pool)
                .await
                .map_err(|e| classify(e.into()))?;
            Ok(())
        })
    }

    fn renew_presence(&self, now: i64) -> BoxFuture<'_, Result<(), StorageError>> {
        let instance = self.instance.clone();
        Box::pin(self.write("renew presence", move |conn| {
            Box::pin(async move {
                sqlx::query(
                    "UPDATE seat_presence SET changed_at = $2 WHERE instance = $1 AND sockets > 0",
                )
                .bind(&instance)
                .bind(now)
                .execute(&mut *conn)
                .await?;
                Ok(())
            })
        }))
    }

    fn presence(
        &self,
        game: i64,
        now: i64,
    ) -> BoxFuture<'_, Result<[RemotePresence; 2], StorageError>> {
        let instance = self.instance.clone();
        Box::pin(self.read("presence", move |conn| {
            Box::pin(async move {
                let rows: Vec<(i16, i64, i64)> = sqlx::query_as(
                    "SELECT seat, sockets, changed_at FROM seat_presence \
                     WHERE game_id = $1 AND instance <> $2",
                )
                .bind(game)
                .bind(&instance)
                .fetch_all(&mut *conn)
                .await?;
                let mut out = [RemotePresence::default(); 2];
                for (seat, sockets, at) in rows {
                    let Some(p) = out.get_mut(usize::try_from(seat).unwrap_or(2)) else {
                        continue;
                    };
                    // A count not renewed: its instance is gone.
                    if at >= now - super::PRESENCE_LAPSE_MS {
                        p.sockets += usize::try_from(sockets).unwrap_or(0);
                    }
                    p.changed_at = Some(p.changed_at.map_or(at, |c| c.max(at)));
                }
                Ok(out)
            })
        }))
    }

    fn release_lease(&self, game: i64, token: u64) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            let mut leases = self.leases.lock().await;
            if leases.get(&game) != Some(&token) {
                return;
            }
            leases.remove(&game);
            if let Err(e) = self.change_leases(LeaseChange::Release(game)).await {
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
            let renewed = self.change_leases(LeaseChange::Renew(ids)).await?;
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
            let games = self.change_leases(LeaseChange::ClaimExpired).await?;
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
                                Ok(Some(n)) => match parse_event(n.payload(), &me) {
                                    Some(event) => event,
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
        assert_eq!(
            parse_event("abc lobby {\"x\":1}", "me"),
            Some(ClusterEvent::Lobby("{\"x\":1}".into()))
        );
        assert_eq!(parse_event("me lobby {}", "me"), None);
        assert_eq!(
            parse_event("abc 12 7", "me"),
            Some(ClusterEvent::Changed(RemoteChange { game: 12, ply: 7 }))
        );
    }

    #[test]
    fn chat_payloads() {
        assert_eq!(
            parse_chat("abc chat 12 7", "me"),
            Some(ClusterEvent::Chat {
                game: 12,
                message: 7
            })
        );
        assert_eq!(parse_change("abc chat 12 7", "me"), None);
        assert_eq!(parse_chat("me chat 12 7", "me"), None);
        assert_eq!(parse_chat("abc 12 7", "me"), None);
    }
}
