//! What the SQL backends share: the tables' columns, reading rows into the
//! storage types, and the queries of the [`Storage`](super::Storage)
//! methods on games.
//!
//! Both backends use the same SQL: `$N` parameters (which sqlx also binds
//! by number in SQLite), `RETURNING`, booleans bound as `bool` (an
//! `INTEGER` 0/1 in SQLite, a `BOOLEAN` in PostgreSQL). What differs — how
//! a transaction is begun and checked, and what follows a change (the
//! PostgreSQL backend announces it to the other instances) — each backend
//! supplies to [`storage_methods!`]: its `write`/`read` transactions, an
//! `announcer()` whose value goes into the transaction, and the functions
//! `announce(conn, &announcer, game, ply)` and `after_import(conn)`.

use futures_util::future::BoxFuture;
use sqlx::pool::PoolConnection;
use sqlx::{ColumnIndex, Database, Decode, Executor, Row, Type};

use super::record::{stored_game, stored_status, tags_to_text};
use super::{
    Account, ClockMeta, GameMeta, GameRecord, GameSummary, NewGame, Seat, Seats, StorageError,
    Variant,
};

/// A value bound to a query's numbered parameter.
pub(super) enum Bind {
    Int(i64),
    Text(String),
}

/// The `WHERE` clause of a list of games ([`super::GameFilter`]), its
/// parameters numbered from `first`, and their values in order. The
/// clause always has a condition (`WHERE TRUE …`), so more may follow
/// with `AND`.
pub(super) fn filter_clause(filter: &super::GameFilter, first: usize) -> (String, Vec<Bind>) {
    use super::{Outcome, StatusFilter};
    let mut clause = String::from("WHERE 1 = 1");
    let mut binds = Vec::new();
    let param = |b: Bind, binds: &mut Vec<Bind>| {
        binds.push(b);
        format!("${}", first + binds.len() - 1)
    };
    if let Some(a) = filter.account {
        let p = param(Bind::Int(a), &mut binds);
        clause += &format!(" AND (white_account = {p} OR black_account = {p})");
    }
    match filter.status {
        StatusFilter::All => {}
        StatusFilter::Finished => {
            clause += " AND status = 'over' AND COALESCE(reason, '') <> 'aborted'";
        }
        StatusFilter::Ongoing => clause += " AND status = 'ongoing'",
    }
    if let Some(g) = &filter.game {
        let p = param(Bind::Text(g.clone()), &mut binds);
        clause += &format!(" AND game = {p}");
    }
    if let Some(outcome) = filter.outcome {
        let (white, black) = match outcome {
            Outcome::Win => ("1-0", "0-1"),
            Outcome::Loss => ("0-1", "1-0"),
            Outcome::Draw => ("1/2-1/2", "1/2-1/2"),
        };
        match filter.account {
            Some(a) => {
                let p = param(Bind::Int(a), &mut binds);
                clause += &format!(
                    " AND ((white_account = {p} AND result = '{white}') \
                     OR (black_account = {p} AND result = '{black}'))"
                );
            }
            None => clause += &format!(" AND result = '{white}'"),
        }
    }
    if let Some(name) = &filter.player {
        let p = param(Bind::Text(name.to_lowercase()), &mut binds);
        clause += &format!(" AND (LOWER(white_name) = {p} OR LOWER(black_name) = {p})");
    }
    if let Some(since) = &filter.since {
        let p = param(Bind::Text(since.clone()), &mut binds);
        clause += &format!(" AND created_at >= {p}");
    }
    if let Some(before) = &filter.before {
        let p = param(Bind::Text(before.clone()), &mut binds);
        clause += &format!(" AND created_at < {p}");
    }
    (clause, binds)
}

/// The columns of `games`, in the order the queries read them.
pub(super) const GAME_COLUMNS: &str = "id, game, kind, rules, start_position, ply, status, \
     result, reason, draw_offer, white_token_hash, black_token_hash, white_name, black_name, \
     white_joined, black_joined, white_level, black_level, tags, created_at, updated_at, \
     version, time_control, white_ms, black_ms, turn_started_at, deadline, white_account, \
     black_account, rated";

/// The columns an insert into `games` writes: `$1` is `id` when the id is
/// given (an import), the rest follow.
pub(super) const INSERT_COLUMNS: &str = "game, kind, rules, start_position, ply, status, \
     result, reason, draw_offer, white_token_hash, black_token_hash, white_name, black_name, \
     white_joined, black_joined, white_level, black_level, tags, created_at, updated_at, \
     version, time_control, white_ms, black_ms, turn_started_at, deadline, white_account, \
     black_account, rated";

/// The number of [`INSERT_COLUMNS`].
pub(super) const INSERT_COUNT: usize = 29;

/// The columns of `accounts`, in the order [`account_of_row`] reads them.
pub(super) const ACCOUNT_COLUMNS: &str = "id, name, password_hash, created_at, language, closed";

/// The storage error for `e`: [`StorageError::Unavailable`] when the
/// database cannot be used right now (the connection, the pool or the file
/// failed, or the database's error code says so: `unavailable_code`)
/// rather than for a fault of the statement.
pub(super) fn classify(e: StorageError, unavailable_code: fn(&str) -> bool) -> StorageError {
    let unavailable = |d: &sqlx::Error| match d {
        sqlx::Error::Database(d) => d.code().is_some_and(|c| unavailable_code(&c)),
        sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::Protocol(_)
        | sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::WorkerCrashed => true,
        _ => false,
    };
    match e {
        StorageError::Database(d) if unavailable(&d) => StorageError::Unavailable(d.to_string()),
        StorageError::Io(e) => StorageError::Unavailable(e.to_string()),
        other => other,
    }
}

/// A transaction's work on its connection (of type `C`).
pub(super) trait Work<'c, C: 'c, T>:
    FnOnce(&'c mut C) -> BoxFuture<'c, Result<T, StorageError>> + Send
{
}

impl<'c, C: 'c, T, F> Work<'c, C, T> for F where
    F: FnOnce(&'c mut C) -> BoxFuture<'c, Result<T, StorageError>> + Send
{
}

/// A pooled connection in a transaction begun by hand, which the pool does
/// not know about: if dropped before the transaction ended (a request that
/// went away), the connection is closed rather than returned in the middle
/// of it; unless it must be kept (an in-memory SQLite database lives in
/// its one connection; the next `BEGIN` there fails and rolls back).
struct InTransaction<DB: Database> {
    conn: Option<PoolConnection<DB>>,
    keep: bool,
}

impl<DB: Database> InTransaction<DB> {
    fn conn(&mut self) -> &mut DB::Connection {
        self.conn.as_mut().expect("the connection is held")
    }

    /// The transaction has ended: the connection may go back to the pool.
    fn end(mut self) -> PoolConnection<DB> {
        self.conn.take().expect("the connection is held")
    }
}

impl<DB: Database> Drop for InTransaction<DB> {
    fn drop(&mut self) {
        if let Some(conn) = &mut self.conn
            && !self.keep
        {
            conn.close_on_drop();
        }
    }
}

/// How a backend runs a transaction with [`transaction`].
pub(super) struct Transaction<C> {
    /// What it does, for the log.
    pub what: &'static str,
    /// The statement that begins it (`BEGIN`, `BEGIN IMMEDIATE`, …).
    pub begin: &'static str,
    /// Keep the connection after a failure (an in-memory SQLite database
    /// lives in it).
    pub keep: bool,
    /// Turns the errors that mean "cannot be used now" into
    /// [`StorageError::Unavailable`].
    pub classify: fn(StorageError) -> StorageError,
    /// Runs just before `COMMIT` and may call it off.
    pub check: C,
}

/// Run `work` in one transaction on `conn`, begun and ended by plain
/// statements (not sqlx's transaction objects, whose count of open
/// transactions goes wrong when the database rolls back by itself; see the
/// backends). On any error the transaction is rolled back and, unless only
/// `Conflict`, `NotFound` or `Exists` was found or the connection is to be
/// kept, the connection is closed: the next use gets a fresh one.
pub(super) async fn transaction<DB, T, C, W>(
    conn: PoolConnection<DB>,
    how: Transaction<C>,
    work: W,
) -> Result<T, StorageError>
where
    DB: Database,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    C: FnOnce() -> Result<(), StorageError>,
    W: for<'c> Work<'c, DB::Connection, T>,
{
    let Transaction {
        what,
        begin,
        keep,
        classify,
        check,
    } = how;
    let mut held = InTransaction {
        conn: Some(conn),
        keep,
    };
    let result = async {
        sqlx::raw_sql(begin).execute(&mut *held.conn()).await?;
        let value = work(held.conn()).await?;
        check()?;
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
    // Not committed: roll back whatever is left (the database may have
    // rolled back by itself already; then this fails harmlessly).
    let rolled_back = sqlx::raw_sql("ROLLBACK").execute(&mut *held.conn()).await;
    let conn = held.end();
    if matches!(
        e,
        StorageError::Conflict
            | StorageError::NotFound
            | StorageError::Exists(_)
            | StorageError::AccountExists(_)
    ) && rolled_back.is_ok()
    {
        return Err(e);
    }
    if keep {
        tracing::error!(op = what, error = %e, "database error; rolled back");
    } else {
        tracing::error!(op = what, error = %e, "database error; rolled back, connection closed");
        if let Err(close) = conn.close().await {
            tracing::warn!(op = what, error = %close, "closing the failed connection failed");
        }
    }
    Err(e)
}

/// `$from, $from+1, …` for `n` parameters.
pub(super) fn placeholders(from: usize, n: usize) -> String {
    (from..from + n)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The values of one `games` row as an insert writes them (the columns of
/// [`INSERT_COLUMNS`], in order).
pub(super) struct GameColumns {
    pub game: Variant,
    pub kind: String,
    pub rules: String,
    pub start_position: String,
    pub ply: i64,
    pub meta: GameMeta,
    pub seats: Seats,
    pub tags: Option<String>,
    pub created_at: String,
    pub version: i64,
    pub rated: bool,
}

impl GameColumns {
    /// A new game's row.
    pub(super) fn of_new(g: &NewGame, rated: bool) -> GameColumns {
        GameColumns {
            game: g.game,
            kind: g.kind.clone(),
            rules: g.rules.clone(),
            start_position: g.start_position.clone(),
            ply: g.moves.len() as i64,
            meta: g.meta.clone(),
            seats: g.seats.clone(),
            tags: tags_to_text(&g.tags),
            created_at: g.created_at.clone(),
            version: 0,
            rated,
        }
    }

    /// An imported game's row: its game and status must be known ones.
    pub(super) fn of_record(g: &GameRecord) -> Result<GameColumns, StorageError> {
        Ok(GameColumns {
            game: stored_game(g.id, &g.game)?,
            kind: g.kind.clone(),
            rules: g.rules.clone(),
            start_position: g.start_position.clone(),
            ply: g.moves.len() as i64,
            meta: g.meta()?,
            seats: [Seat::from(&g.white), Seat::from(&g.black)],
            tags: tags_to_text(&g.tags),
            created_at: g.created_at.clone(),
            version: g.version,
            rated: g.rated,
        })
    }
}

/// The entry of a pending huff (Dame) in the move list: `H` and the
/// square (`He5`, `H32`), the form a huff has in front of the move it goes
/// with (`He5 f6xd4`). A game's move list holds its moves at plies `0..ply`
/// and, while a piece is huffed before the move not yet made, this entry
/// at ply `ply`.
pub(super) fn huff_token(square: &str) -> String {
    format!("H{square}")
}

/// The square of a pending huff's entry ([`huff_token`]), if `entry` is
/// one.
fn huff_of_token(entry: &str) -> Option<&str> {
    let square = entry.strip_prefix('H')?;
    (!square.is_empty() && square.chars().all(|c| c.is_ascii_alphanumeric())).then_some(square)
}

/// Game `id`'s stored move list split into its `ply` moves and its
/// pending huff (the one entry after them, if any: [`huff_token`]);
/// `text` is an entry's move.
pub(super) fn split_pending_huff<M>(
    id: i64,
    ply: i64,
    mut entries: Vec<M>,
    text: impl Fn(&M) -> &str,
) -> Result<(Vec<M>, Option<String>), StorageError> {
    let huff = match entries.last() {
        Some(last) if entries.len() as i64 == ply + 1 => {
            huff_of_token(text(last)).map(str::to_string)
        }
        _ => None,
    };
    if huff.is_some() {
        entries.pop();
    }
    if entries.len() as i64 != ply {
        return Err(StorageError::Corrupt(format!(
            "game {id}: {ply} plies recorded but {} moves stored",
            entries.len()
        )));
    }
    Ok((entries, huff))
}

/// What a `games` row says of the game, its course and its seats (the
/// pending huff is in the move list: [`split_pending_huff`]).
pub(super) fn game_of_row<R>(row: &R) -> Result<(Variant, GameMeta, Seats), StorageError>
where
    R: Row,
    for<'r> String: Decode<'r, R::Database> + Type<R::Database>,
    for<'r> i64: Decode<'r, R::Database> + Type<R::Database>,
    for<'r> bool: Decode<'r, R::Database> + Type<R::Database>,
    for<'a> &'a str: ColumnIndex<R>,
{
    let seat = |color: &str| -> Result<Seat, sqlx::Error> {
        let level: Option<i64> = row.try_get(format!("{color}_level").as_str())?;
        Ok(Seat {
            token_hash: row.try_get(format!("{color}_token_hash").as_str())?,
            name: row.try_get(format!("{color}_name").as_str())?,
            joined: row.try_get(format!("{color}_joined").as_str())?,
            level: level.and_then(|l| u8::try_from(l).ok()),
            account: row.try_get(format!("{color}_account").as_str())?,
        })
    };
    let id: i64 = row.try_get("id")?;
    let (game, status): (String, String) = (row.try_get("game")?, row.try_get("status")?);
    let control: Option<String> = row.try_get("time_control")?;
    let clock = match control {
        None => None,
        Some(control) => {
            let ms = |c: &str| -> Result<i64, sqlx::Error> {
                Ok(row.try_get::<Option<i64>, _>(c)?.unwrap_or(0))
            };
            Some(ClockMeta {
                control,
                remaining_ms: [ms("white_ms")?, ms("black_ms")?],
                turn_started_at: row.try_get("turn_started_at")?,
                deadline: row.try_get("deadline")?,
            })
        }
    };
    let meta = GameMeta {
        status: stored_status(id, &status)?,
        result: row.try_get("result")?,
        reason: row.try_get("reason")?,
        draw_offer: row.try_get("draw_offer")?,
        pending_huff: None,
        updated_at: row.try_get("updated_at")?,
        clock,
    };
    Ok((
        stored_game(id, &game)?,
        meta,
        [seat("white")?, seat("black")?],
    ))
}

/// An `accounts` row read with [`ACCOUNT_COLUMNS`].
pub(super) fn account_of_row<R>(row: &R) -> Result<Account, StorageError>
where
    R: Row,
    for<'r> String: Decode<'r, R::Database> + Type<R::Database>,
    for<'r> i64: Decode<'r, R::Database> + Type<R::Database>,
    for<'r> bool: Decode<'r, R::Database> + Type<R::Database>,
    for<'a> &'a str: ColumnIndex<R>,
{
    Ok(Account {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        password_hash: row.try_get("password_hash")?,
        created_at: row.try_get("created_at")?,
        language: row.try_get("language")?,
        closed: row.try_get("closed")?,
    })
}

/// A line of the archive (or of an account's games) from a `games` row
/// read with [`GAME_COLUMNS`].
pub(super) fn summary_of_row<R>(row: &R) -> Result<GameSummary, StorageError>
where
    R: Row,
    for<'r> String: Decode<'r, R::Database> + Type<R::Database>,
    for<'r> i64: Decode<'r, R::Database> + Type<R::Database>,
    for<'r> bool: Decode<'r, R::Database> + Type<R::Database>,
    for<'a> &'a str: ColumnIndex<R>,
{
    let (game, meta, seats) = game_of_row(row)?;
    Ok(GameSummary {
        id: row.try_get("id")?,
        game,
        kind: row.try_get("kind")?,
        rules: row.try_get("rules")?,
        seats,
        ply: usize::try_from(row.try_get::<i64, _>("ply")?).unwrap_or(0),
        meta,
        created_at: row.try_get("created_at")?,
        rated: row.try_get("rated")?,
    })
}

/// A rating read as `pool, name, rating, deviation, volatility, games`.
pub(super) fn pool_rating_of_row<R>(row: &R) -> Result<super::PoolRating, StorageError>
where
    R: Row,
    for<'r> String: Decode<'r, R::Database> + Type<R::Database>,
    for<'r> i64: Decode<'r, R::Database> + Type<R::Database>,
    for<'r> f64: Decode<'r, R::Database> + Type<R::Database>,
    for<'a> &'a str: ColumnIndex<R>,
{
    Ok(super::PoolRating {
        pool: row.try_get("pool")?,
        name: row.try_get("name")?,
        rating: crate::rating::Rating {
            rating: row.try_get("rating")?,
            deviation: row.try_get("deviation")?,
            volatility: row.try_get("volatility")?,
        },
        games: row.try_get("games")?,
    })
}

/// Which account to read.
pub(super) enum AccountBy {
    /// By its id.
    Id(i64),
    /// By its [`name_key`](super::name_key).
    Key(String),
}

/// How often a login's last use is written at most (milliseconds).
pub(super) const LOGIN_TOUCH_MS: i64 = 60_000;

/// A move's stored clock: both times, or none.
pub(super) fn move_clock(white: Option<i64>, black: Option<i64>) -> Option<[i64; 2]> {
    Some([white?, black?])
}

/// The [`Storage`](super::Storage) methods on games, for a backend module
/// that has, in scope: the type `Conn` (its connection), the methods
/// `self.write(what, work)` and `self.read(what, work)` (one transaction
/// each, `work` a `FnOnce(&mut Conn) -> BoxFuture<Result<T,
/// StorageError>>`), `self.announcer()` (a `Send + 'static` value) and the
/// functions `announce(&mut Conn, &announcer, game_id, ply)` (a change was
/// stored) and `after_import(&mut Conn)`.
macro_rules! storage_methods {
    () => {
        fn create_game(&self, g: NewGame) -> BoxFuture<'_, Result<i64, StorageError>> {
            self.create_game_rated(g, false)
        }

        fn create_game_rated(
            &self,
            g: NewGame,
            rated: bool,
        ) -> BoxFuture<'_, Result<i64, StorageError>> {
            Box::pin(self.write("create game", move |conn| {
                Box::pin(async move {
                    let id = insert_game(conn, None, sql::GameColumns::of_new(&g, rated)).await?;
                    let moves = g.moves.iter().enumerate().map(|(i, mv)| {
                        let clock = g.move_clocks.get(i).copied().flatten();
                        (mv.as_str(), g.created_at.as_str(), clock)
                    });
                    insert_moves(
                        conn,
                        id,
                        moves,
                        g.meta.pending_huff.as_deref(),
                        &g.created_at,
                    )
                    .await?;
                    Ok(id)
                })
            }))
        }

        fn load_game(&self, id: i64) -> BoxFuture<'_, Result<Option<StoredGame>, StorageError>> {
            Box::pin(async move {
                // One read transaction: the game row and its moves agree.
                let found = self
                    .read("load game", move |conn| {
                        Box::pin(async move {
                            let sql =
                                format!("SELECT {} FROM games WHERE id = $1", sql::GAME_COLUMNS);
                            let Some(row) = sqlx::query(sqlx::AssertSqlSafe(sql))
                                .bind(id)
                                .fetch_optional(&mut *conn)
                                .await?
                            else {
                                return Ok(None);
                            };
                            let moves: Vec<(String, Option<i64>, Option<i64>)> = sqlx::query_as(
                                "SELECT mv, white_ms, black_ms FROM moves WHERE game_id = $1 \
                                 ORDER BY ply",
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
                let (moves, pending_huff) =
                    sql::split_pending_huff(id, ply, moves, |m| m.0.as_str())?;
                let move_clocks = moves.iter().map(|m| sql::move_clock(m.1, m.2)).collect();
                let moves = moves.into_iter().map(|m| m.0).collect();
                let (game, meta, seats) = sql::game_of_row(&row)?;
                Ok(Some(StoredGame {
                    id,
                    version: row.try_get("version")?,
                    rated: row.try_get("rated")?,
                    stored: NewGame {
                        game,
                        kind: row.try_get("kind")?,
                        rules: row.try_get("rules")?,
                        start_position: row.try_get("start_position")?,
                        moves,
                        move_clocks,
                        meta: GameMeta {
                            pending_huff,
                            ..meta
                        },
                        seats,
                        tags: tags_from_text(row.try_get("tags")?)?,
                        created_at: row.try_get("created_at")?,
                    },
                }))
            })
        }

        fn update_game(
            &self,
            id: i64,
            expected: Expected,
            change: MoveChange,
            meta: GameMeta,
        ) -> BoxFuture<'_, Result<i64, StorageError>> {
            Box::pin(async move {
                let expected_ply = expected.ply;
                let new_ply = match &change {
                    MoveChange::Keep => expected_ply,
                    MoveChange::Append(_) => expected_ply + 1,
                    MoveChange::Truncate(n) if *n <= expected_ply => *n,
                    MoveChange::Truncate(_) => return Err(StorageError::Conflict),
                };
                let announcer = self.announcer();
                self.write("update game", move |conn| {
                    Box::pin(async move {
                        // (game, version) is the check: every change bumps
                        // the version, so of two writers that read the same
                        // game the second finds it changed, whether the
                        // first stored a move, a resignation or a draw
                        // offer. The ply is checked too (the move list).
                        let clock = meta.clock.clone().unwrap_or_default();
                        let timed = meta.clock.is_some();
                        let version: Option<i64> = sqlx::query_scalar(
                            "UPDATE games SET ply = $1, status = $2, result = $3, reason = $4, \
                             draw_offer = $5, updated_at = $6, version = version + 1, \
                             time_control = $10, white_ms = $11, black_ms = $12, \
                             turn_started_at = $13, deadline = $14 \
                             WHERE id = $7 AND ply = $8 AND version = $9 RETURNING version",
                        )
                        .bind(new_ply as i64)
                        .bind(meta.status.name())
                        .bind(meta.result.clone())
                        .bind(meta.reason.clone())
                        .bind(meta.draw_offer.clone())
                        .bind(meta.updated_at.clone())
                        .bind(id)
                        .bind(expected_ply as i64)
                        .bind(expected.version)
                        .bind(timed.then_some(clock.control))
                        .bind(timed.then_some(clock.remaining_ms[0]))
                        .bind(timed.then_some(clock.remaining_ms[1]))
                        .bind(clock.turn_started_at)
                        .bind(clock.deadline)
                        .fetch_optional(&mut *conn)
                        .await?;
                        let Some(version) = version else {
                            return Err(conflict_or_missing(conn, id).await);
                        };
                        // The move list from the first ply that changes:
                        // the moves taken back, or the pending huff (the
                        // entry after the moves), written anew.
                        let (from, appended) = match &change {
                            MoveChange::Truncate(n) => (*n, None),
                            MoveChange::Keep => (expected_ply, None),
                            MoveChange::Append(mv) => (expected_ply, Some(mv.as_str())),
                        };
                        sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply >= $2")
                            .bind(id)
                            .bind(from as i64)
                            .execute(&mut *conn)
                            .await?;
                        let at = meta.updated_at.as_str();
                        let after = timed.then_some(clock.remaining_ms);
                        let moves = appended.map(|mv| (mv, at, after)).into_iter();
                        insert_moves_from(conn, id, from, moves, meta.pending_huff.as_deref(), at)
                            .await?;
                        if meta.status == super::Status::Over
                            && let Some(result) = meta.result.as_deref()
                        {
                            apply_ratings(conn, id, result, at).await?;
                        }
                        announce(conn, &announcer, id, new_ply as i64).await?;
                        Ok(version)
                    })
                })
                .await
            })
        }

        fn update_seat(&self, change: SeatChange) -> BoxFuture<'_, Result<i64, StorageError>> {
            let announcer = self.announcer();
            Box::pin(self.write("update seat", move |conn| {
                Box::pin(async move {
                    let id = change.game;
                    let who = match change.seat {
                        0 => "white",
                        _ => "black",
                    };
                    let sql = format!(
                        "UPDATE games SET {who}_name = $1, {who}_joined = $2, \
                         {who}_account = COALESCE($9, {who}_account), \
                         updated_at = $3, version = version + 1, \
                         turn_started_at = CASE WHEN $6 THEN $7 ELSE turn_started_at END, \
                         deadline = CASE WHEN $6 THEN $8 ELSE deadline END \
                         WHERE id = $4 AND version = $5 RETURNING ply, version"
                    );
                    let clock = change.clock.unwrap_or_default();
                    let timed = !clock.control.is_empty();
                    let row: Option<(i64, i64)> = sqlx::query_as(sqlx::AssertSqlSafe(sql))
                        .bind(change.name)
                        .bind(change.joined)
                        .bind(change.updated_at)
                        .bind(id)
                        .bind(change.version)
                        .bind(timed)
                        .bind(clock.turn_started_at)
                        .bind(clock.deadline)
                        .bind(change.account)
                        .fetch_optional(&mut *conn)
                        .await?;
                    let Some((ply, version)) = row else {
                        return Err(conflict_or_missing(conn, id).await);
                    };
                    announce(conn, &announcer, id, ply).await?;
                    Ok(version)
                })
            }))
        }

        fn game_ratings(
            &self,
            id: i64,
        ) -> BoxFuture<'_, Result<Option<[super::RatingChange; 2]>, StorageError>> {
            Box::pin(self.read("game ratings", move |conn| {
                Box::pin(async move {
                    let rows: Vec<(i64, f64, f64, f64)> = sqlx::query_as(
                        "SELECT h.seat, h.rating_before, h.rating_after, h.deviation_after \
                         FROM rating_history h WHERE h.game_id = $1 ORDER BY h.seat",
                    )
                    .bind(id)
                    .fetch_all(&mut *conn)
                    .await?;
                    let change = |r: &(i64, f64, f64, f64)| super::RatingChange {
                        before: r.1,
                        after: crate::rating::Rating {
                            rating: r.2,
                            deviation: r.3,
                            ..Default::default()
                        },
                    };
                    Ok(match &rows[..] {
                        [w, b] if w.0 == 0 && b.0 == 1 => Some([change(w), change(b)]),
                        _ => None,
                    })
                })
            }))
        }

        fn leaderboard(
            &self,
            pool: String,
            limit: u32,
        ) -> BoxFuture<'_, Result<Vec<super::PoolRating>, StorageError>> {
            Box::pin(self.read("leaderboard", move |conn| {
                Box::pin(async move {
                    let rows = sqlx::query(
                        "SELECT r.pool, a.name, r.rating, r.deviation, r.volatility, r.games \
                         FROM ratings r JOIN accounts a ON a.id = r.account_id \
                         WHERE r.pool = $1 AND r.games > 0 AND a.closed = $2 \
                         ORDER BY r.deviation > $3, r.rating DESC, a.name_key LIMIT $4",
                    )
                    .bind(pool)
                    .bind(false)
                    .bind(crate::rating::PROVISIONAL_DEVIATION)
                    .bind(i64::from(limit))
                    .fetch_all(&mut *conn)
                    .await?;
                    rows.iter().map(sql::pool_rating_of_row).collect()
                })
            }))
        }

        fn account_ratings(
            &self,
            account: i64,
        ) -> BoxFuture<'_, Result<Vec<super::PoolRating>, StorageError>> {
            Box::pin(self.read("account ratings", move |conn| {
                Box::pin(async move {
                    let rows = sqlx::query(
                        "SELECT r.pool, a.name, r.rating, r.deviation, r.volatility, r.games \
                         FROM ratings r JOIN accounts a ON a.id = r.account_id \
                         WHERE r.account_id = $1 AND r.games > 0 ORDER BY r.pool",
                    )
                    .bind(account)
                    .fetch_all(&mut *conn)
                    .await?;
                    rows.iter().map(sql::pool_rating_of_row).collect()
                })
            }))
        }

        fn rating_history(
            &self,
            account: i64,
        ) -> BoxFuture<'_, Result<Vec<super::RatingPoint>, StorageError>> {
            Box::pin(self.read("rating history", move |conn| {
                Box::pin(async move {
                    let rows: Vec<(String, i64, String, f64, f64)> = sqlx::query_as(
                        "SELECT pool, game_id, at, rating_after, deviation_after \
                         FROM rating_history WHERE account_id = $1 ORDER BY at, game_id",
                    )
                    .bind(account)
                    .fetch_all(&mut *conn)
                    .await?;
                    Ok(rows
                        .into_iter()
                        .map(|(pool, game, at, rating, deviation)| super::RatingPoint {
                            pool,
                            game,
                            at,
                            rating,
                            deviation,
                        })
                        .collect())
                })
            }))
        }

        fn list_games(
            &self,
            limit: u32,
            offset: u32,
        ) -> BoxFuture<'_, Result<(Vec<GameSummary>, u64), StorageError>> {
            Box::pin(self.read("list games", move |conn| {
                Box::pin(games_page(conn, super::GameFilter::default(), limit, offset))
            }))
        }

        fn find_games(
            &self,
            filter: super::GameFilter,
            limit: u32,
            offset: u32,
        ) -> BoxFuture<'_, Result<(Vec<GameSummary>, u64), StorageError>> {
            Box::pin(self.read("find games", move |conn| {
                Box::pin(games_page(conn, filter, limit, offset))
            }))
        }

        fn unanswered_invitations(
            &self,
            before: String,
            before_correspondence: String,
        ) -> BoxFuture<'_, Result<Vec<i64>, StorageError>> {
            Box::pin(self.read("unanswered invitations", move |conn| {
                Box::pin(async move {
                    let ids = sqlx::query_scalar(
                        "SELECT id FROM games WHERE status = 'ongoing' AND kind = 'online' \
                         AND (white_joined = $1 OR black_joined = $1) \
                         AND created_at < (CASE WHEN time_control LIKE '%d' \
                         THEN $3 ELSE $2 END) ORDER BY id",
                    )
                    .bind(false)
                    .bind(before)
                    .bind(before_correspondence)
                    .fetch_all(&mut *conn)
                    .await?;
                    Ok(ids)
                })
            }))
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
                                "SELECT {} FROM games WHERE id > $1 ORDER BY id LIMIT $2",
                                sql::GAME_COLUMNS
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
                            type MoveRow = (i64, i64, String, String, Option<i64>, Option<i64>);
                            let moves: Vec<MoveRow> = match last {
                                None => Vec::new(),
                                Some(last) => {
                                    sqlx::query_as(
                                        "SELECT game_id, ply, mv, created_at, white_ms, \
                                         black_ms FROM moves \
                                         WHERE game_id > $1 AND game_id <= $2 \
                                         ORDER BY game_id, ply",
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
                    while let Some((_, ply, mv, at, w, b)) = moves.next_if(|m| m.0 == id) {
                        if ply != list.len() as i64 {
                            return Err(StorageError::Corrupt(format!(
                                "game {id}: move {ply} stored where move {} belongs",
                                list.len()
                            )));
                        }
                        let clock = sql::move_clock(w, b);
                        list.push(RecordMove { mv, at, clock });
                    }
                    // Moves missing at the end (a damaged file) are no
                    // game to export either.
                    let ply: i64 = row.try_get("ply")?;
                    let (list, pending_huff) =
                        sql::split_pending_huff(id, ply, list, |m: &RecordMove| m.mv.as_str())?;
                    let (game, meta, [white, black]) = sql::game_of_row(row)?;
                    out.push(GameRecord {
                        id,
                        game: game.name().to_string(),
                        kind: row.try_get("kind")?,
                        rules: row.try_get("rules")?,
                        start_position: row.try_get("start_position")?,
                        status: meta.status.name().to_string(),
                        result: meta.result,
                        reason: meta.reason,
                        draw_offer: meta.draw_offer,
                        pending_huff,
                        white: RecordSeat::from(white),
                        black: RecordSeat::from(black),
                        tags: tags_from_text(row.try_get("tags")?)?,
                        created_at: row.try_get("created_at")?,
                        updated_at: meta.updated_at,
                        moves: list,
                        version: row.try_get("version")?,
                        clock: meta.clock.map(Into::into),
                        rated: row.try_get("rated")?,
                    });
                }
                Ok(out)
            })
        }

        fn clock_deadlines(
            &self,
            due_by: Option<i64>,
        ) -> BoxFuture<'_, Result<Vec<(i64, i64)>, StorageError>> {
            Box::pin(self.read("clock deadlines", move |conn| {
                Box::pin(async move {
                    let rows = sqlx::query_as(
                        "SELECT id, deadline FROM games WHERE deadline IS NOT NULL \
                         AND status = 'ongoing' AND deadline <= $1 ORDER BY deadline",
                    )
                    .bind(due_by.unwrap_or(i64::MAX))
                    .fetch_all(&mut *conn)
                    .await?;
                    Ok(rows)
                })
            }))
        }

        fn clocks_alive(
            &self,
            now: i64,
            stale_ms: i64,
        ) -> BoxFuture<'_, Result<i64, StorageError>> {
            Box::pin(self.write("clocks alive", move |conn| {
                Box::pin(async move {
                    let last: Option<i64> =
                        sqlx::query_scalar("SELECT alive_at FROM server_alive WHERE id = 1")
                            .fetch_optional(&mut *conn)
                            .await?;
                    let down = match last {
                        Some(at) if at < now.saturating_sub(stale_ms) => now - at,
                        _ => 0,
                    };
                    if down > 0 {
                        // Every running clock moves on by the time no server
                        // ran: its turn started that much later.
                        sqlx::query(
                            "UPDATE games SET turn_started_at = turn_started_at + $1, \
                             deadline = deadline + $1, version = version + 1 \
                             WHERE status = 'ongoing' AND turn_started_at IS NOT NULL",
                        )
                        .bind(down)
                        .execute(&mut *conn)
                        .await?;
                    }
                    sqlx::query(
                        "INSERT INTO server_alive (id, alive_at) VALUES (1, $1) \
                         ON CONFLICT (id) DO UPDATE SET alive_at = \
                         CASE WHEN server_alive.alive_at > $1 THEN server_alive.alive_at \
                         ELSE $1 END",
                    )
                    .bind(now)
                    .execute(&mut *conn)
                    .await?;
                    Ok(down)
                })
            }))
        }

        fn import_games(&self, games: Vec<GameRecord>) -> BoxFuture<'_, Result<(), StorageError>> {
            Box::pin(self.write("import games", move |conn| {
                Box::pin(async move {
                    if games.is_empty() {
                        return Ok(());
                    }
                    for g in &games {
                        let taken: Option<i64> =
                            sqlx::query_scalar("SELECT id FROM games WHERE id = $1")
                                .bind(g.id)
                                .fetch_optional(&mut *conn)
                                .await?;
                        if taken.is_some() {
                            return Err(StorageError::Exists(g.id));
                        }
                        let mut columns = sql::GameColumns::of_record(g)?;
                        for seat in &mut columns.seats {
                            seat.account = known_account(conn, seat.account).await?;
                        }
                        insert_game(conn, Some(g.id), columns).await?;
                        let moves = g
                            .moves
                            .iter()
                            .map(|m| (m.mv.as_str(), m.at.as_str(), m.clock));
                        insert_moves(conn, g.id, moves, g.pending_huff.as_deref(), &g.updated_at)
                            .await?;
                    }
                    after_import(conn).await?;
                    Ok(())
                })
            }))
        }

        fn create_account(
            &self,
            a: NewAccount,
        ) -> BoxFuture<'_, Result<Option<i64>, StorageError>> {
            Box::pin(self.write("create account", move |conn| {
                Box::pin(async move {
                    let id: Option<i64> = sqlx::query_scalar(
                        "INSERT INTO accounts (name, name_key, password_hash, created_at) \
                         VALUES ($1, $2, $3, $4) ON CONFLICT (name_key) DO NOTHING RETURNING id",
                    )
                    .bind(a.name)
                    .bind(a.name_key)
                    .bind(a.password_hash)
                    .bind(a.created_at)
                    .fetch_optional(&mut *conn)
                    .await?;
                    Ok(id)
                })
            }))
        }

        fn account_by_name(
            &self,
            key: &str,
        ) -> BoxFuture<'_, Result<Option<Account>, StorageError>> {
            let by = sql::AccountBy::Key(key.to_string());
            Box::pin(self.read("account by name", move |conn| Box::pin(account_row(conn, by))))
        }

        fn account_by_id(&self, id: i64) -> BoxFuture<'_, Result<Option<Account>, StorageError>> {
            let by = sql::AccountBy::Id(id);
            Box::pin(self.read("account by id", move |conn| Box::pin(account_row(conn, by))))
        }

        fn account_by_login(
            &self,
            token_hash: &str,
            now: i64,
        ) -> BoxFuture<'_, Result<Option<Account>, StorageError>> {
            let hash = token_hash.to_string();
            Box::pin(async move {
                let found = self
                    .read("account by login", {
                        let hash = hash.clone();
                        move |conn| {
                            Box::pin(async move {
                                let sql = format!(
                                    "SELECT l.last_used_at, {} FROM login_sessions l \
                                     JOIN accounts a ON a.id = l.account_id \
                                     WHERE l.token_hash = $1 AND l.expires_at > $2",
                                    sql::ACCOUNT_COLUMNS
                                        .split(", ")
                                        .map(|c| format!("a.{c}"))
                                        .collect::<Vec<_>>()
                                        .join(", ")
                                );
                                let row = sqlx::query(sqlx::AssertSqlSafe(sql))
                                    .bind(hash)
                                    .bind(now)
                                    .fetch_optional(&mut *conn)
                                    .await?;
                                let Some(row) = row else { return Ok(None) };
                                let used: i64 = row.try_get("last_used_at")?;
                                Ok(Some((used, sql::account_of_row(&row)?)))
                            })
                        }
                    })
                    .await?;
                let Some((used, account)) = found else {
                    return Ok(None);
                };
                if now - used >= sql::LOGIN_TOUCH_MS {
                    self.write("login used", move |conn| {
                        Box::pin(async move {
                            sqlx::query(
                                "UPDATE login_sessions SET last_used_at = $2 WHERE token_hash = $1",
                            )
                            .bind(hash)
                            .bind(now)
                            .execute(&mut *conn)
                            .await?;
                            Ok(())
                        })
                    })
                    .await?;
                }
                Ok(Some(account))
            })
        }

        fn create_login(&self, login: NewLogin) -> BoxFuture<'_, Result<(), StorageError>> {
            Box::pin(self.write("create login", move |conn| {
                Box::pin(async move {
                    sqlx::query("DELETE FROM login_sessions WHERE expires_at <= $1")
                        .bind(login.created_at)
                        .execute(&mut *conn)
                        .await?;
                    sqlx::query(
                        "INSERT INTO login_sessions \
                         (token_hash, account_id, created_at, expires_at, last_used_at) \
                         VALUES ($1, $2, $3, $4, $3)",
                    )
                    .bind(login.token_hash)
                    .bind(login.account)
                    .bind(login.created_at)
                    .bind(login.expires_at)
                    .execute(&mut *conn)
                    .await?;
                    Ok(())
                })
            }))
        }

        fn delete_login(&self, token_hash: &str) -> BoxFuture<'_, Result<(), StorageError>> {
            let hash = token_hash.to_string();
            Box::pin(self.write("delete login", move |conn| {
                Box::pin(async move {
                    sqlx::query("DELETE FROM login_sessions WHERE token_hash = $1")
                        .bind(hash)
                        .execute(&mut *conn)
                        .await?;
                    Ok(())
                })
            }))
        }

        fn set_language(
            &self,
            account: i64,
            language: Option<String>,
        ) -> BoxFuture<'_, Result<bool, StorageError>> {
            Box::pin(self.write("set language", move |conn| {
                Box::pin(async move {
                    let done = sqlx::query("UPDATE accounts SET language = $2 WHERE id = $1")
                        .bind(account)
                        .bind(language)
                        .execute(&mut *conn)
                        .await?;
                    Ok(done.rows_affected() > 0)
                })
            }))
        }

        fn set_password(
            &self,
            account: i64,
            password_hash: String,
            end_logins_but: Option<String>,
        ) -> BoxFuture<'_, Result<bool, StorageError>> {
            Box::pin(self.write("set password", move |conn| {
                Box::pin(async move {
                    let done = sqlx::query("UPDATE accounts SET password_hash = $2 WHERE id = $1")
                        .bind(account)
                        .bind(password_hash)
                        .execute(&mut *conn)
                        .await?;
                    if let Some(keep) = end_logins_but {
                        sqlx::query(
                            "DELETE FROM login_sessions WHERE account_id = $1 AND token_hash <> $2",
                        )
                        .bind(account)
                        .bind(keep)
                        .execute(&mut *conn)
                        .await?;
                    }
                    Ok(done.rows_affected() > 0)
                })
            }))
        }

        fn delete_account(
            &self,
            account: i64,
        ) -> BoxFuture<'_, Result<Option<Vec<i64>>, StorageError>> {
            let announcer = self.announcer();
            Box::pin(self.write("delete account", move |conn| {
                Box::pin(async move {
                    let games: Vec<(i64, i64)> = sqlx::query_as(
                        "UPDATE games SET \
                         white_name = CASE WHEN white_account = $1 THEN $2 ELSE white_name END, \
                         black_name = CASE WHEN black_account = $1 THEN $2 ELSE black_name END, \
                         white_account = CASE WHEN white_account = $1 THEN NULL \
                         ELSE white_account END, \
                         black_account = CASE WHEN black_account = $1 THEN NULL \
                         ELSE black_account END, \
                         version = version + 1 \
                         WHERE white_account = $1 OR black_account = $1 RETURNING id, ply",
                    )
                    .bind(account)
                    .bind(super::DELETED_PLAYER)
                    .fetch_all(&mut *conn)
                    .await?;
                    sqlx::query("DELETE FROM login_sessions WHERE account_id = $1")
                        .bind(account)
                        .execute(&mut *conn)
                        .await?;
                    sqlx::query("UPDATE chat_messages SET name = $2 WHERE account_id = $1")
                        .bind(account)
                        .bind(super::DELETED_PLAYER)
                        .execute(&mut *conn)
                        .await?;
                    let deleted = sqlx::query("DELETE FROM accounts WHERE id = $1")
                        .bind(account)
                        .execute(&mut *conn)
                        .await?;
                    if deleted.rows_affected() == 0 {
                        return Ok(None);
                    }
                    for (id, ply) in &games {
                        announce(conn, &announcer, *id, *ply).await?;
                    }
                    Ok(Some(games.into_iter().map(|(id, _)| id).collect()))
                })
            }))
        }

        fn account_games(
            &self,
            account: i64,
            limit: u32,
            offset: u32,
        ) -> BoxFuture<'_, Result<(Vec<GameSummary>, u64), StorageError>> {
            Box::pin(self.read("account games", move |conn| {
                Box::pin(games_page(
                    conn,
                    super::GameFilter {
                        account: Some(account),
                        ..Default::default()
                    },
                    limit,
                    offset,
                ))
            }))
        }

        fn export_accounts(&self) -> BoxFuture<'_, Result<Vec<AccountRecord>, StorageError>> {
            Box::pin(async move {
                let rows = self
                    .read("export accounts", |conn| {
                        Box::pin(async move {
                            let sql =
                                format!("SELECT {} FROM accounts ORDER BY id", sql::ACCOUNT_COLUMNS);
                            Ok(sqlx::query(sqlx::AssertSqlSafe(sql))
                                .fetch_all(&mut *conn)
                                .await?)
                        })
                    })
                    .await?;
                rows.iter()
                    .map(|row| {
                        let a = sql::account_of_row(row)?;
                        Ok(AccountRecord {
                            id: a.id,
                            name: a.name,
                            password_hash: a.password_hash,
                            created_at: a.created_at,
                            language: a.language,
                            closed: a.closed,
                        })
                    })
                    .collect()
            })
        }

        fn import_accounts(
            &self,
            accounts: Vec<AccountRecord>,
        ) -> BoxFuture<'_, Result<(), StorageError>> {
            Box::pin(self.write("import accounts", move |conn| {
                Box::pin(async move {
                    if accounts.is_empty() {
                        return Ok(());
                    }
                    for a in &accounts {
                        let key = super::name_key(&a.name);
                        let taken: Option<i64> = sqlx::query_scalar(
                            "SELECT id FROM accounts WHERE id = $1 OR name_key = $2",
                        )
                        .bind(a.id)
                        .bind(&key)
                        .fetch_optional(&mut *conn)
                        .await?;
                        if taken.is_some() {
                            return Err(StorageError::AccountExists(format!(
                                "{} ('{}')",
                                a.id, a.name
                            )));
                        }
                        sqlx::query(
                            "INSERT INTO accounts \
                             (id, name, name_key, password_hash, created_at, language, closed) \
                             VALUES ($1, $2, $3, $4, $5, $6, $7)",
                        )
                        .bind(a.id)
                        .bind(&a.name)
                        .bind(key)
                        .bind(&a.password_hash)
                        .bind(&a.created_at)
                        .bind(&a.language)
                        .bind(a.closed)
                        .execute(&mut *conn)
                        .await?;
                    }
                    after_account_import(conn).await?;
                    Ok(())
                })
            }))
        }
    };
}

pub(super) use storage_methods;

/// `insert_game(conn, id, columns)` (a `games` row; `id` given for an
/// import, else chosen by the database; returns it) and `insert_move(conn,
/// game_id, ply, mv, at)` (a `moves` row), for a backend module whose
/// connection type is `Conn`.
macro_rules! row_writers {
    () => {
        async fn insert_game(
            conn: &mut Conn,
            id: Option<i64>,
            c: sql::GameColumns,
        ) -> Result<i64, sqlx::Error> {
            let sql = match id {
                Some(_) => format!(
                    "INSERT INTO games (id, {}) VALUES ({}) RETURNING id",
                    sql::INSERT_COLUMNS,
                    sql::placeholders(1, sql::INSERT_COUNT + 1)
                ),
                None => format!(
                    "INSERT INTO games ({}) VALUES ({}) RETURNING id",
                    sql::INSERT_COLUMNS,
                    sql::placeholders(1, sql::INSERT_COUNT)
                ),
            };
            let mut q = sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(sql));
            if let Some(id) = id {
                q = q.bind(id);
            }
            let [w, b] = c.seats;
            let clock = c.meta.clock;
            let ms = |i: usize| clock.as_ref().map(|k| k.remaining_ms[i]);
            let (white_ms, black_ms) = (ms(0), ms(1));
            let turn_started_at = clock.as_ref().and_then(|k| k.turn_started_at);
            let deadline = clock.as_ref().and_then(|k| k.deadline);
            q.bind(c.game.name())
                .bind(c.kind)
                .bind(c.rules)
                .bind(c.start_position)
                .bind(c.ply)
                .bind(c.meta.status.name())
                .bind(c.meta.result)
                .bind(c.meta.reason)
                .bind(c.meta.draw_offer)
                .bind(w.token_hash)
                .bind(b.token_hash)
                .bind(w.name)
                .bind(b.name)
                .bind(w.joined)
                .bind(b.joined)
                .bind(w.level.map(i64::from))
                .bind(b.level.map(i64::from))
                .bind(c.tags)
                .bind(c.created_at)
                .bind(c.meta.updated_at)
                .bind(c.version)
                .bind(clock.map(|k| k.control))
                .bind(white_ms)
                .bind(black_ms)
                .bind(turn_started_at)
                .bind(deadline)
                .bind(w.account)
                .bind(b.account)
                .bind(c.rated)
                .fetch_one(&mut *conn)
                .await
        }

        /// The account `by` names.
        async fn account_row(
            conn: &mut Conn,
            by: sql::AccountBy,
        ) -> Result<Option<super::Account>, StorageError> {
            let filter = match by {
                sql::AccountBy::Id(_) => "id = $1",
                sql::AccountBy::Key(_) => "name_key = $1",
            };
            let text = format!(
                "SELECT {} FROM accounts WHERE {filter}",
                sql::ACCOUNT_COLUMNS
            );
            let query = sqlx::query(sqlx::AssertSqlSafe(text));
            let query = match by {
                sql::AccountBy::Id(id) => query.bind(id),
                sql::AccountBy::Key(key) => query.bind(key),
            };
            let row = query.fetch_optional(&mut *conn).await?;
            row.as_ref().map(sql::account_of_row).transpose()
        }

        /// A page of the archive, newest first, and the number of games in
        /// all: every game, or those account `account` holds a seat of.
        async fn games_page(
            conn: &mut Conn,
            filter: super::GameFilter,
            limit: u32,
            offset: u32,
        ) -> Result<(Vec<GameSummary>, u64), StorageError> {
            let (clause, binds) = sql::filter_clause(&filter, 1);
            let count = format!("SELECT COUNT(*) FROM games {clause}");
            let mut q = sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(count));
            for b in &binds {
                q = match b {
                    sql::Bind::Int(v) => q.bind(*v),
                    sql::Bind::Text(v) => q.bind(v.clone()),
                };
            }
            let total = q.fetch_one(&mut *conn).await?;
            let (clause, binds) = sql::filter_clause(&filter, 3);
            let list = format!(
                "SELECT {} FROM games {clause} ORDER BY id DESC LIMIT $1 OFFSET $2",
                sql::GAME_COLUMNS,
            );
            let mut q = sqlx::query(sqlx::AssertSqlSafe(list))
                .bind(i64::from(limit))
                .bind(i64::from(offset));
            for b in &binds {
                q = match b {
                    sql::Bind::Int(v) => q.bind(*v),
                    sql::Bind::Text(v) => q.bind(v.clone()),
                };
            }
            let rows = q.fetch_all(&mut *conn).await?;
            let out = rows
                .iter()
                .map(sql::summary_of_row)
                .collect::<Result<Vec<_>, _>>()?;
            Ok((out, u64::try_from(total).unwrap_or(0)))
        }

        /// Rate game `id`, which has just ended with `result`, if it is a
        /// rated game between two accounts by a rating pool's rules and was
        /// not rated before: both accounts' ratings in its pool change
        /// (each game is its own rating period) and the change is kept in
        /// `rating_history`, whose key (the game and the seat) lets a game
        /// count once.
        async fn apply_ratings(
            conn: &mut Conn,
            id: i64,
            result: &str,
            at: &str,
        ) -> Result<(), StorageError> {
            let row: Option<(bool, Option<i64>, Option<i64>, String, String)> = sqlx::query_as(
                "SELECT rated, white_account, black_account, game, rules FROM games WHERE id = $1",
            )
            .bind(id)
            .fetch_optional(&mut *conn)
            .await?;
            let Some((true, Some(white), Some(black), game, rules)) = row else {
                return Ok(());
            };
            let pool = super::Variant::from_name(&game)
                .and_then(|g| crate::rating::pool_of(g, &rules));
            let Some(pool) = pool.filter(|_| white != black) else {
                return Ok(());
            };
            let done: Option<i64> =
                sqlx::query_scalar("SELECT game_id FROM rating_history WHERE game_id = $1 LIMIT 1")
                    .bind(id)
                    .fetch_optional(&mut *conn)
                    .await?;
            if done.is_some() {
                return Ok(());
            }
            let mut before = [crate::rating::Rating::default(); 2];
            for (i, account) in [white, black].into_iter().enumerate() {
                // The row is written (or locked) first: of two games of
                // one player ending at once, the second waits for the
                // first's rating.
                let start = crate::rating::Rating::default();
                let (rating, deviation, volatility): (f64, f64, f64) = sqlx::query_as(
                    "INSERT INTO ratings \
                     (account_id, pool, rating, deviation, volatility, games, updated_at) \
                     VALUES ($1, $2, $3, $4, $5, 0, $6) \
                     ON CONFLICT (account_id, pool) DO UPDATE SET pool = excluded.pool \
                     RETURNING rating, deviation, volatility",
                )
                .bind(account)
                .bind(&pool)
                .bind(start.rating)
                .bind(start.deviation)
                .bind(start.volatility)
                .bind(at)
                .fetch_one(&mut *conn)
                .await?;
                before[i] = crate::rating::Rating {
                    rating,
                    deviation,
                    volatility,
                };
            }
            let Some(after) = crate::rating::rate(before[0], before[1], result) else {
                return Ok(());
            };
            for (i, account) in [white, black].into_iter().enumerate() {
                sqlx::query(
                    "UPDATE ratings SET rating = $3, deviation = $4, volatility = $5, \
                     games = games + 1, updated_at = $6 WHERE account_id = $1 AND pool = $2",
                )
                .bind(account)
                .bind(&pool)
                .bind(after[i].rating)
                .bind(after[i].deviation)
                .bind(after[i].volatility)
                .bind(at)
                .execute(&mut *conn)
                .await?;
                sqlx::query(
                    "INSERT INTO rating_history (game_id, account_id, seat, pool, rating_before, \
                     deviation_before, rating_after, deviation_after, at) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                )
                .bind(id)
                .bind(account)
                .bind(i as i64)
                .bind(&pool)
                .bind(before[i].rating)
                .bind(before[i].deviation)
                .bind(after[i].rating)
                .bind(after[i].deviation)
                .bind(at)
                .execute(&mut *conn)
                .await?;
            }
            Ok(())
        }

        /// `id` if account `id` is stored (an imported seat keeps only a
        /// known account).
        async fn known_account(
            conn: &mut Conn,
            id: Option<i64>,
        ) -> Result<Option<i64>, sqlx::Error> {
            let Some(id) = id else { return Ok(None) };
            sqlx::query_scalar::<_, i64>("SELECT id FROM accounts WHERE id = $1")
                .bind(id)
                .fetch_optional(&mut *conn)
                .await
        }

        /// Why a change of game `id` found no row to change: the game is
        /// gone ([`StorageError::NotFound`]) or not at the expected version
        /// ([`StorageError::Conflict`]).
        async fn conflict_or_missing(conn: &mut Conn, id: i64) -> StorageError {
            let exists = sqlx::query_scalar::<_, i64>("SELECT id FROM games WHERE id = $1")
                .bind(id)
                .fetch_optional(&mut *conn)
                .await;
            match exists {
                Ok(Some(_)) => StorageError::Conflict,
                Ok(None) => StorageError::NotFound,
                Err(e) => e.into(),
            }
        }

        /// A game's move list from ply 0: its moves (each with the time
        /// it was stored), then its pending huff, if any.
        async fn insert_moves<'m>(
            conn: &mut Conn,
            id: i64,
            moves: impl Iterator<Item = (&'m str, &'m str, Option<[i64; 2]>)>,
            pending_huff: Option<&str>,
            huff_at: &str,
        ) -> Result<(), sqlx::Error> {
            insert_moves_from(conn, id, 0, moves, pending_huff, huff_at).await
        }

        /// A game's move list from ply `from` on (nothing stored there
        /// yet): `moves`, then the pending huff (sql::huff_token).
        async fn insert_moves_from<'m>(
            conn: &mut Conn,
            id: i64,
            from: usize,
            moves: impl Iterator<Item = (&'m str, &'m str, Option<[i64; 2]>)>,
            pending_huff: Option<&str>,
            huff_at: &str,
        ) -> Result<(), sqlx::Error> {
            let huff = pending_huff.map(|sq| (sql::huff_token(sq), huff_at, None));
            let entries = moves
                .map(|(mv, at, clock)| (mv.to_string(), at, clock))
                .chain(huff);
            for (ply, (mv, at, clock)) in (from..).zip(entries) {
                sqlx::query(
                    "INSERT INTO moves (game_id, ply, mv, created_at, white_ms, black_ms) \
                     VALUES ($1, $2, $3, $4, $5, $6)",
                )
                .bind(id)
                .bind(ply as i64)
                .bind(mv)
                .bind(at.to_string())
                .bind(clock.map(|c| c[0]))
                .bind(clock.map(|c| c[1]))
                .execute(&mut *conn)
                .await?;
            }
            Ok(())
        }
    };
}

pub(super) use row_writers;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_numbered() {
        assert_eq!(placeholders(1, 3), "$1, $2, $3");
        assert_eq!(placeholders(2, 1), "$2");
        assert_eq!(INSERT_COLUMNS.split(", ").count(), INSERT_COUNT);
        assert_eq!(
            GAME_COLUMNS.split(", ").count(),
            INSERT_COLUMNS.split(", ").count() + 1
        );
    }
}
