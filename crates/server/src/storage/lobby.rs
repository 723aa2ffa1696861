//! What the lobby keeps in the database (crate::lobby): invitations (seeks
//! and challenges) and rematch offers, so that every instance on a shared
//! database sees the same ones and exactly one acceptor wins.

use sqlx::{ColumnIndex, Decode, Row, Type};

use super::StorageError;

/// What an invitation of the lobby offers, and who offers it to whom.
#[derive(Clone, Debug, PartialEq)]
pub struct InvitationTerms {
    /// The account that posts it.
    pub account: i64,
    /// A challenge's player (`None`: a seek, which anyone may accept).
    pub to_account: Option<i64>,
    /// The catalogue's name of the game.
    pub game: String,
    /// The rule set's text form.
    pub rules: String,
    /// The time control's text form.
    pub time_control: String,
    /// A rated game.
    pub rated: bool,
    /// The poster's colour: `white`, `black` or `random`.
    pub color: String,
    /// The lowest rating of an acceptor (in [`InvitationTerms::pool`]).
    pub rating_min: Option<i64>,
    /// The highest rating of an acceptor.
    pub rating_max: Option<i64>,
    /// The rating pool of the game and rules (`None`: not a pool's rules).
    pub pool: Option<String>,
    /// It lapses unless renewed (a live seek, while its poster is in the
    /// lobby).
    pub live: bool,
}

/// An invitation of the lobby as stored: a seek or a challenge.
#[derive(Clone, Debug, PartialEq)]
pub struct Invitation {
    /// Its number.
    pub id: i64,
    /// What it offers.
    pub terms: InvitationTerms,
    /// The poster's name.
    pub name: String,
    /// A challenged player's name.
    pub to_name: Option<String>,
    /// `open`, `accepted`, `declined`, `cancelled` or `lapsed`.
    pub status: String,
    /// The game it started, once accepted.
    pub game_id: Option<i64>,
    /// When it was posted (milliseconds since the Unix epoch).
    pub created_at: i64,
    /// The poster's rating and deviation in the pool, if rated there.
    pub rating: Option<(f64, f64)>,
}

/// Which invitations to list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InvitationsOf {
    /// The open seeks, oldest first.
    Seeks,
    /// The challenges from or to an account: the open ones, and those
    /// settled in the last hour.
    Challenges(i64),
}

/// A rematch offer of a finished game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rematch {
    /// The side that offered (0 White, 1 Black).
    pub offered_by: usize,
    /// The hash of the token the offering seat gets in the new game (a
    /// guest's; `None` for a seat held by an account's cookie).
    pub next_token_hash: Option<String>,
    /// The opponent accepted.
    pub accepted: bool,
    /// The new game, once created.
    pub new_game: Option<i64>,
}

/// How long a settled challenge stays listed (milliseconds).
pub const SETTLED_KEPT_MS: i64 = 3_600_000;

/// The columns the queries of invitations read, over `invitations i`
/// joined with the poster `a`, the challenged player `t` and the poster's
/// rating `r`.
pub(super) const INVITATION_SELECT: &str = "SELECT i.id, i.account_id, a.name, i.to_account, \
     t.name AS to_name, i.game, i.rules, i.time_control, i.rated, i.color, i.rating_min, \
     i.rating_max, i.pool, i.live, i.status, i.game_id, i.created_at, r.rating, r.deviation \
     FROM invitations i JOIN accounts a ON a.id = i.account_id \
     LEFT JOIN accounts t ON t.id = i.to_account \
     LEFT JOIN ratings r ON r.account_id = i.account_id AND r.pool = i.pool AND r.games > 0";

/// An invitation read with [`INVITATION_SELECT`].
pub(super) fn invitation_of_row<R>(row: &R) -> Result<Invitation, StorageError>
where
    R: Row,
    for<'r> String: Decode<'r, R::Database> + Type<R::Database>,
    for<'r> i64: Decode<'r, R::Database> + Type<R::Database>,
    for<'r> f64: Decode<'r, R::Database> + Type<R::Database>,
    for<'r> bool: Decode<'r, R::Database> + Type<R::Database>,
    for<'a> &'a str: ColumnIndex<R>,
{
    let rating: Option<f64> = row.try_get("rating")?;
    let deviation: Option<f64> = row.try_get("deviation")?;
    Ok(Invitation {
        id: row.try_get("id")?,
        terms: InvitationTerms {
            account: row.try_get("account_id")?,
            to_account: row.try_get("to_account")?,
            game: row.try_get("game")?,
            rules: row.try_get("rules")?,
            time_control: row.try_get("time_control")?,
            rated: row.try_get("rated")?,
            color: row.try_get("color")?,
            rating_min: row.try_get("rating_min")?,
            rating_max: row.try_get("rating_max")?,
            pool: row.try_get("pool")?,
            live: row.try_get("live")?,
        },
        name: row.try_get("name")?,
        to_name: row.try_get("to_name")?,
        status: row.try_get("status")?,
        game_id: row.try_get("game_id")?,
        created_at: row.try_get("created_at")?,
        rating: rating.zip(deviation),
    })
}

/// The lobby's [`Storage`](super::Storage) methods, for a backend module
/// with what [`storage_methods!`](super::sql::storage_methods) needs.
macro_rules! lobby_methods {
    () => {
        fn post_invitation(
            &self,
            new: super::InvitationTerms,
            now: i64,
            max_open: u32,
        ) -> BoxFuture<'_, Result<Option<super::Invitation>, StorageError>> {
            Box::pin(self.write("post invitation", move |conn| {
                Box::pin(async move {
                    let open: i64 = sqlx::query_scalar(
                        "SELECT COUNT(*) FROM invitations WHERE account_id = $1 \
                         AND status = 'open' AND (to_account IS NULL) = $2",
                    )
                    .bind(new.account)
                    .bind(new.to_account.is_none())
                    .fetch_one(&mut *conn)
                    .await?;
                    if open >= i64::from(max_open) {
                        return Ok(None);
                    }
                    let id: i64 = sqlx::query_scalar(
                        "INSERT INTO invitations (account_id, to_account, game, rules, \
                         time_control, rated, color, rating_min, rating_max, pool, live, \
                         status, created_at, renewed_at) \
                         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'open', $12, $12) \
                         RETURNING id",
                    )
                    .bind(new.account)
                    .bind(new.to_account)
                    .bind(new.game)
                    .bind(new.rules)
                    .bind(new.time_control)
                    .bind(new.rated)
                    .bind(new.color)
                    .bind(new.rating_min)
                    .bind(new.rating_max)
                    .bind(new.pool)
                    .bind(new.live)
                    .bind(now)
                    .fetch_one(&mut *conn)
                    .await?;
                    let sql = format!("{} WHERE i.id = $1", super::lobby::INVITATION_SELECT);
                    let row = sqlx::query(sqlx::AssertSqlSafe(sql))
                        .bind(id)
                        .fetch_one(&mut *conn)
                        .await?;
                    Ok(Some(super::lobby::invitation_of_row(&row)?))
                })
            }))
        }

        fn invitations(
            &self,
            of: super::InvitationsOf,
            now: i64,
        ) -> BoxFuture<'_, Result<Vec<super::Invitation>, StorageError>> {
            Box::pin(self.read("invitations", move |conn| {
                Box::pin(async move {
                    let select = super::lobby::INVITATION_SELECT;
                    let rows = match of {
                        super::InvitationsOf::Seeks => {
                            let sql = format!(
                                "{select} WHERE i.status = 'open' AND i.to_account IS NULL \
                                 ORDER BY i.id"
                            );
                            sqlx::query(sqlx::AssertSqlSafe(sql))
                                .fetch_all(&mut *conn)
                                .await?
                        }
                        super::InvitationsOf::Challenges(account) => {
                            let sql = format!(
                                "{select} WHERE i.to_account IS NOT NULL \
                                 AND (i.account_id = $1 OR i.to_account = $1) \
                                 AND (i.status = 'open' OR i.renewed_at > $2) ORDER BY i.id"
                            );
                            sqlx::query(sqlx::AssertSqlSafe(sql))
                                .bind(account)
                                .bind(now - super::lobby::SETTLED_KEPT_MS)
                                .fetch_all(&mut *conn)
                                .await?
                        }
                    };
                    rows.iter().map(super::lobby::invitation_of_row).collect()
                })
            }))
        }

        fn invitation(
            &self,
            id: i64,
        ) -> BoxFuture<'_, Result<Option<super::Invitation>, StorageError>> {
            Box::pin(self.read("invitation", move |conn| {
                Box::pin(async move {
                    let sql = format!("{} WHERE i.id = $1", super::lobby::INVITATION_SELECT);
                    let row = sqlx::query(sqlx::AssertSqlSafe(sql))
                        .bind(id)
                        .fetch_optional(&mut *conn)
                        .await?;
                    row.as_ref()
                        .map(super::lobby::invitation_of_row)
                        .transpose()
                })
            }))
        }

        fn settle_invitation(
            &self,
            id: i64,
            from: &'static str,
            to: &'static str,
            game: Option<i64>,
            now: i64,
        ) -> BoxFuture<'_, Result<bool, StorageError>> {
            Box::pin(self.write("settle invitation", move |conn| {
                Box::pin(async move {
                    let done = sqlx::query(
                        "UPDATE invitations SET status = $3, game_id = COALESCE($4, game_id), \
                         renewed_at = $5 WHERE id = $1 AND status = $2",
                    )
                    .bind(id)
                    .bind(from)
                    .bind(to)
                    .bind(game)
                    .bind(now)
                    .execute(&mut *conn)
                    .await?;
                    Ok(done.rows_affected() == 1)
                })
            }))
        }

        fn renew_invitations(
            &self,
            accounts: Vec<i64>,
            now: i64,
        ) -> BoxFuture<'_, Result<(), StorageError>> {
            Box::pin(self.write("renew invitations", move |conn| {
                Box::pin(async move {
                    for chunk in accounts.chunks(500) {
                        let sql = format!(
                            "UPDATE invitations SET renewed_at = $1 WHERE status = 'open' \
                             AND live = $2 AND account_id IN ({})",
                            sql::placeholders(3, chunk.len())
                        );
                        let mut q = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(now).bind(true);
                        for a in chunk {
                            q = q.bind(*a);
                        }
                        q.execute(&mut *conn).await?;
                    }
                    Ok(())
                })
            }))
        }

        fn sweep_invitations(
            &self,
            now: i64,
            lapse_ms: i64,
        ) -> BoxFuture<'_, Result<Vec<super::Invitation>, StorageError>> {
            Box::pin(self.write("sweep invitations", move |conn| {
                Box::pin(async move {
                    sqlx::query("DELETE FROM invitations WHERE status <> 'open' AND renewed_at < $1")
                        .bind(now - super::lobby::SETTLED_KEPT_MS)
                        .execute(&mut *conn)
                        .await?;
                    let sql = format!(
                        "{} WHERE i.status = 'open' AND i.live = $1 AND i.renewed_at < $2",
                        super::lobby::INVITATION_SELECT
                    );
                    let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
                        .bind(true)
                        .bind(now - lapse_ms)
                        .fetch_all(&mut *conn)
                        .await?;
                    let mut lapsed = Vec::new();
                    for row in &rows {
                        let inv = super::lobby::invitation_of_row(row)?;
                        let done = sqlx::query(
                            "UPDATE invitations SET status = 'lapsed', renewed_at = $2 \
                             WHERE id = $1 AND status = 'open'",
                        )
                        .bind(inv.id)
                        .bind(now)
                        .execute(&mut *conn)
                        .await?;
                        if done.rows_affected() == 1 {
                            lapsed.push(inv);
                        }
                    }
                    Ok(lapsed)
                })
            }))
        }

        fn live_games(&self, limit: u32) -> BoxFuture<'_, Result<Vec<GameSummary>, StorageError>> {
            Box::pin(self.read("live games", move |conn| {
                Box::pin(async move {
                    let sql = format!(
                        "SELECT {} FROM games WHERE kind = 'online' AND status = 'ongoing' \
                         AND white_joined = $1 AND black_joined = $1 ORDER BY id DESC LIMIT $2",
                        sql::GAME_COLUMNS
                    );
                    let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
                        .bind(true)
                        .bind(i64::from(limit))
                        .fetch_all(&mut *conn)
                        .await?;
                    rows.iter().map(sql::summary_of_row).collect()
                })
            }))
        }

        fn rematch(&self, game: i64) -> BoxFuture<'_, Result<Option<super::Rematch>, StorageError>> {
            Box::pin(self.read("rematch", move |conn| {
                Box::pin(async move {
                    let row: Option<(i64, Option<String>, bool, Option<i64>)> = sqlx::query_as(
                        "SELECT offered_by, next_token_hash, accepted, new_game FROM rematches \
                         WHERE game_id = $1",
                    )
                    .bind(game)
                    .fetch_optional(&mut *conn)
                    .await?;
                    Ok(row.map(|(by, hash, accepted, new_game)| super::Rematch {
                        offered_by: usize::try_from(by).unwrap_or(0),
                        next_token_hash: hash,
                        accepted,
                        new_game,
                    }))
                })
            }))
        }

        fn change_rematch(
            &self,
            game: i64,
            change: super::RematchChange,
        ) -> BoxFuture<'_, Result<bool, StorageError>> {
            let announcer = self.announcer();
            Box::pin(self.write("rematch", move |conn| {
                Box::pin(async move {
                    let done = match change {
                        super::RematchChange::Offer { side, next_token_hash } => sqlx::query(
                            "INSERT INTO rematches (game_id, offered_by, next_token_hash) \
                             VALUES ($1, $2, $3) ON CONFLICT (game_id) DO NOTHING",
                        )
                        .bind(game)
                        .bind(side as i64)
                        .bind(next_token_hash),
                        super::RematchChange::Claim { offered_by } => sqlx::query(
                            "UPDATE rematches SET accepted = $3 WHERE game_id = $1 \
                             AND offered_by = $2 AND accepted = $4",
                        )
                        .bind(game)
                        .bind(offered_by as i64)
                        .bind(true)
                        .bind(false),
                        super::RematchChange::Created(new_game) => sqlx::query(
                            "UPDATE rematches SET new_game = $2 WHERE game_id = $1",
                        )
                        .bind(game)
                        .bind(new_game),
                        super::RematchChange::Withdraw => sqlx::query(
                            "DELETE FROM rematches WHERE game_id = $1 AND accepted = $2",
                        )
                        .bind(game)
                        .bind(false),
                    }
                    .execute(&mut *conn)
                    .await?;
                    let ply: i64 =
                        sqlx::query_scalar("SELECT COALESCE(MAX(ply), 0) FROM games WHERE id = $1")
                            .bind(game)
                            .fetch_one(&mut *conn)
                            .await?;
                    announce(conn, &announcer, game, ply).await?;
                    Ok(done.rows_affected() == 1)
                })
            }))
        }
    };
}

pub(super) use lobby_methods;
