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

use sqlx::{ColumnIndex, Decode, Row, Type};

use super::record::tags_to_text;
use super::{GameMeta, GameRecord, NewGame, Seat, Seats};

/// The columns of `games`, in the order the queries read them.
pub(super) const GAME_COLUMNS: &str = "id, game, kind, rules, start_position, ply, status, \
     result, reason, draw_offer, white_token_hash, black_token_hash, white_name, black_name, \
     white_joined, black_joined, white_level, black_level, tags, created_at, updated_at, \
     pending_huff, version";

/// The columns an insert into `games` writes: `$1` is `id` when the id is
/// given (an import), the rest follow.
pub(super) const INSERT_COLUMNS: &str = "game, kind, rules, start_position, ply, status, \
     result, reason, draw_offer, white_token_hash, black_token_hash, white_name, black_name, \
     white_joined, black_joined, white_level, black_level, tags, created_at, updated_at, \
     pending_huff, version";

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
    pub game: String,
    pub kind: String,
    pub rules: String,
    pub start_position: String,
    pub ply: i64,
    pub meta: GameMeta,
    pub seats: Seats,
    pub tags: Option<String>,
    pub created_at: String,
    pub version: i64,
}

impl GameColumns {
    /// A new game's row.
    pub(super) fn of_new(g: &NewGame) -> GameColumns {
        GameColumns {
            game: g.game.clone(),
            kind: g.kind.clone(),
            rules: g.rules.clone(),
            start_position: g.start_position.clone(),
            ply: g.moves.len() as i64,
            meta: g.meta.clone(),
            seats: g.seats.clone(),
            tags: tags_to_text(&g.tags),
            created_at: g.created_at.clone(),
            version: 0,
        }
    }

    /// An imported game's row.
    pub(super) fn of_record(g: &GameRecord) -> GameColumns {
        GameColumns {
            game: g.game.clone(),
            kind: g.kind.clone(),
            rules: g.rules.clone(),
            start_position: g.start_position.clone(),
            ply: g.moves.len() as i64,
            meta: GameMeta {
                status: g.status.clone(),
                result: g.result.clone(),
                reason: g.reason.clone(),
                draw_offer: g.draw_offer.clone(),
                pending_huff: g.pending_huff.clone(),
                updated_at: g.updated_at.clone(),
            },
            seats: [Seat::from(&g.white), Seat::from(&g.black)],
            tags: tags_to_text(&g.tags),
            created_at: g.created_at.clone(),
            version: g.version,
        }
    }
}

fn seat_from_row<R>(row: &R, color: &str) -> Result<Seat, sqlx::Error>
where
    R: Row,
    for<'r> String: Decode<'r, R::Database> + Type<R::Database>,
    for<'r> i64: Decode<'r, R::Database> + Type<R::Database>,
    for<'r> bool: Decode<'r, R::Database> + Type<R::Database>,
    for<'a> &'a str: ColumnIndex<R>,
{
    let level: Option<i64> = row.try_get(format!("{color}_level").as_str())?;
    Ok(Seat {
        token_hash: row.try_get(format!("{color}_token_hash").as_str())?,
        name: row.try_get(format!("{color}_name").as_str())?,
        joined: row.try_get(format!("{color}_joined").as_str())?,
        level: level.and_then(|l| u8::try_from(l).ok()),
    })
}

/// Both seats of a `games` row.
pub(super) fn seats_from_row<R>(row: &R) -> Result<Seats, sqlx::Error>
where
    R: Row,
    for<'r> String: Decode<'r, R::Database> + Type<R::Database>,
    for<'r> i64: Decode<'r, R::Database> + Type<R::Database>,
    for<'r> bool: Decode<'r, R::Database> + Type<R::Database>,
    for<'a> &'a str: ColumnIndex<R>,
{
    Ok([seat_from_row(row, "white")?, seat_from_row(row, "black")?])
}

/// What a `games` row says of the game's course.
pub(super) fn meta_from_row<R>(row: &R) -> Result<GameMeta, sqlx::Error>
where
    R: Row,
    for<'r> String: Decode<'r, R::Database> + Type<R::Database>,
    for<'a> &'a str: ColumnIndex<R>,
{
    Ok(GameMeta {
        status: row.try_get("status")?,
        result: row.try_get("result")?,
        reason: row.try_get("reason")?,
        draw_offer: row.try_get("draw_offer")?,
        pending_huff: row.try_get("pending_huff")?,
        updated_at: row.try_get("updated_at")?,
    })
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
            Box::pin(self.write("create game", move |conn| {
                Box::pin(async move {
                    let id = insert_game(conn, None, sql::GameColumns::of_new(&g)).await?;
                    for (ply, mv) in g.moves.iter().enumerate() {
                        insert_move(conn, id, ply, mv, &g.created_at).await?;
                    }
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
                    meta: sql::meta_from_row(&row)?,
                    seats: sql::seats_from_row(&row)?,
                    tags: tags_from_text(row.try_get("tags")?)?,
                    created_at: row.try_get("created_at")?,
                    version: row.try_get("version")?,
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
                        let version: Option<i64> = sqlx::query_scalar(
                            "UPDATE games SET ply = $1, status = $2, result = $3, reason = $4, \
                             draw_offer = $5, updated_at = $6, pending_huff = $7, \
                             version = version + 1 \
                             WHERE id = $8 AND ply = $9 AND version = $10 RETURNING version",
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
                        .bind(expected.version)
                        .fetch_optional(&mut *conn)
                        .await?;
                        let Some(version) = version else {
                            return Err(conflict_or_missing(conn, id).await);
                        };
                        match change {
                            MoveChange::Keep => {}
                            MoveChange::Append(mv) => {
                                insert_move(conn, id, expected_ply, &mv, &meta.updated_at).await?;
                            }
                            MoveChange::Truncate(n) => {
                                sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply >= $2")
                                    .bind(id)
                                    .bind(n as i64)
                                    .execute(&mut *conn)
                                    .await?;
                            }
                        }
                        announce(conn, &announcer, id, new_ply as i64).await?;
                        Ok(version)
                    })
                })
                .await
            })
        }

        fn update_seat(
            &self,
            id: i64,
            expected_version: i64,
            seat: usize,
            name: Option<String>,
            joined: bool,
            updated_at: String,
        ) -> BoxFuture<'_, Result<i64, StorageError>> {
            let announcer = self.announcer();
            Box::pin(self.write("update seat", move |conn| {
                Box::pin(async move {
                    let sql = match seat {
                        0 => {
                            "UPDATE games SET white_name = $1, white_joined = $2, \
                             updated_at = $3, version = version + 1 \
                             WHERE id = $4 AND version = $5 RETURNING ply, version"
                        }
                        _ => {
                            "UPDATE games SET black_name = $1, black_joined = $2, \
                             updated_at = $3, version = version + 1 \
                             WHERE id = $4 AND version = $5 RETURNING ply, version"
                        }
                    };
                    let row: Option<(i64, i64)> = sqlx::query_as(sql)
                        .bind(name)
                        .bind(joined)
                        .bind(updated_at)
                        .bind(id)
                        .bind(expected_version)
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
                                "SELECT {} FROM games ORDER BY id DESC LIMIT $1 OFFSET $2",
                                sql::GAME_COLUMNS
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
                        seats: sql::seats_from_row(row)?,
                        ply: usize::try_from(row.try_get::<i64, _>("ply")?).unwrap_or(0),
                        meta: sql::meta_from_row(row)?,
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
                            let moves: Vec<(i64, i64, String, String)> = match last {
                                None => Vec::new(),
                                Some(last) => {
                                    sqlx::query_as(
                                        "SELECT game_id, ply, mv, created_at FROM moves \
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
                    while let Some((_, ply, mv, at)) = moves.next_if(|m| m.0 == id) {
                        if ply != list.len() as i64 {
                            return Err(StorageError::Corrupt(format!(
                                "game {id}: move {ply} stored where move {} belongs",
                                list.len()
                            )));
                        }
                        list.push(RecordMove { mv, at });
                    }
                    // Moves missing at the end (a damaged file) are no
                    // game to export either.
                    let ply: i64 = row.try_get("ply")?;
                    if ply != list.len() as i64 {
                        return Err(StorageError::Corrupt(format!(
                            "game {id}: {ply} plies recorded but {} moves stored",
                            list.len()
                        )));
                    }
                    let [white, black] = sql::seats_from_row(row)?;
                    let meta = sql::meta_from_row(row)?;
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
                        version: row.try_get("version")?,
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
                    for g in &games {
                        let taken: Option<i64> =
                            sqlx::query_scalar("SELECT id FROM games WHERE id = $1")
                                .bind(g.id)
                                .fetch_optional(&mut *conn)
                                .await?;
                        if taken.is_some() {
                            return Err(StorageError::Exists(g.id));
                        }
                        insert_game(conn, Some(g.id), sql::GameColumns::of_record(g)).await?;
                        for (ply, m) in g.moves.iter().enumerate() {
                            insert_move(conn, g.id, ply, &m.mv, &m.at).await?;
                        }
                    }
                    after_import(conn).await?;
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
                    sql::placeholders(1, 23)
                ),
                None => format!(
                    "INSERT INTO games ({}) VALUES ({}) RETURNING id",
                    sql::INSERT_COLUMNS,
                    sql::placeholders(1, 22)
                ),
            };
            let mut q = sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(sql));
            if let Some(id) = id {
                q = q.bind(id);
            }
            let [w, b] = c.seats;
            q.bind(c.game)
                .bind(c.kind)
                .bind(c.rules)
                .bind(c.start_position)
                .bind(c.ply)
                .bind(c.meta.status)
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
                .bind(c.meta.pending_huff)
                .bind(c.version)
                .fetch_one(&mut *conn)
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

        async fn insert_move(
            conn: &mut Conn,
            id: i64,
            ply: usize,
            mv: &str,
            at: &str,
        ) -> Result<(), sqlx::Error> {
            sqlx::query("INSERT INTO moves (game_id, ply, mv, created_at) VALUES ($1, $2, $3, $4)")
                .bind(id)
                .bind(ply as i64)
                .bind(mv.to_string())
                .bind(at.to_string())
                .execute(&mut *conn)
                .await
                .map(drop)
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
        assert_eq!(INSERT_COLUMNS.split(", ").count(), 22);
        assert_eq!(
            GAME_COLUMNS.split(", ").count(),
            INSERT_COLUMNS.split(", ").count() + 1
        );
    }
}
