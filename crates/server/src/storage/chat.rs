//! The chat of games, blocks between accounts, reports of chat messages
//! and closed accounts, as stored: the types, and the
//! [`Storage`](super::Storage) methods on them for both SQL backends
//! ([`chat_methods!`]).

/// A game's chat room.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChatRoom {
    /// The two players.
    Players,
    /// Everyone else (spectators).
    Spectators,
}

impl ChatRoom {
    /// Its name in the API and the database.
    pub fn name(self) -> &'static str {
        match self {
            ChatRoom::Players => "players",
            ChatRoom::Spectators => "spectators",
        }
    }

    /// The room named `name`.
    pub fn parse(name: &str) -> Option<ChatRoom> {
        match name {
            "players" => Some(ChatRoom::Players),
            "spectators" => Some(ChatRoom::Spectators),
            _ => None,
        }
    }
}

/// A chat message to store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewChatMessage {
    /// The game.
    pub game: i64,
    /// The room.
    pub room: ChatRoom,
    /// The author's seat (0 White, 1 Black) in the players' room.
    pub seat: Option<usize>,
    /// The author's account (`None`: a guest).
    pub account: Option<i64>,
    /// The name shown (`None`: a guest without one).
    pub name: Option<String>,
    /// The text, as written.
    pub text: String,
    /// When (milliseconds since the Unix epoch).
    pub at: i64,
}

/// A stored chat message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatMessage {
    /// Its number.
    pub id: i64,
    /// The rest, as it was stored.
    pub message: NewChatMessage,
}

/// How often one author may write in one game: at most `most` messages in
/// any `window_ms`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChatLimit {
    /// The window (milliseconds).
    pub window_ms: i64,
    /// The most messages in it.
    pub most: usize,
}

/// What storing a chat message did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChatPosted {
    /// It is stored.
    Posted(ChatMessage),
    /// Its author wrote as much as the limits allow: nothing was stored;
    /// the next message may come in this many milliseconds.
    RateLimited(i64),
}

/// How long an author whose messages in a game were written at `recent`
/// (milliseconds, newest first) waits at `now` before the next one fits
/// every limit (`None`: it fits now).
pub fn chat_wait(recent: &[i64], now: i64, limits: &[ChatLimit]) -> Option<i64> {
    limits
        .iter()
        .filter_map(|l| {
            let oldest_counted = *recent.get(l.most.checked_sub(1)?)?;
            let free_at = oldest_counted + l.window_ms;
            (free_at > now).then_some(free_at - now)
        })
        .max()
}

/// A report to store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewReport {
    /// The message reported.
    pub message: i64,
    /// The reporter's account.
    pub reporter: i64,
    /// Why.
    pub reason: String,
    /// When (RFC 3339, UTC).
    pub at: String,
}

/// A report of a chat message, with what the operator needs to judge it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatReport {
    /// Its number (`brett admin resolve <id>`).
    pub id: i64,
    /// The message reported.
    pub message: ChatMessage,
    /// The name of the message's author's account (`None`: a guest, or an
    /// account deleted since).
    pub author: Option<String>,
    /// The reporter's name.
    pub reporter: String,
    /// The reason the reporter gave.
    pub reason: String,
    /// When it was reported (RFC 3339, UTC).
    pub created_at: String,
    /// When it was resolved (`None`: still open).
    pub closed_at: Option<String>,
    /// Who resolved it.
    pub closed_by: Option<String>,
}

/// A row of `chat_messages` as the queries read it.
pub(super) type MessageRow = (
    i64,
    i64,
    String,
    Option<i64>,
    Option<i64>,
    Option<String>,
    String,
    i64,
);

/// The columns of [`MessageRow`], of `chat_messages` as `c`.
pub(super) const MESSAGE_COLUMNS: &str =
    "c.id, c.game_id, c.room, c.seat, c.account_id, c.name, c.text, c.at";

/// The most messages of a room listed: the newest.
pub const CHAT_LIST_MAX: i64 = 500;

/// A message from its row.
pub(super) fn message_of_row(row: MessageRow) -> Result<ChatMessage, super::StorageError> {
    let (id, game, room, seat, account, name, text, at) = row;
    let room = ChatRoom::parse(&room)
        .ok_or_else(|| super::StorageError::Corrupt(format!("chat message {id}: room '{room}'")))?;
    Ok(ChatMessage {
        id,
        message: NewChatMessage {
            game,
            room,
            seat: seat.and_then(|s| usize::try_from(s).ok()),
            account,
            name,
            text,
            at,
        },
    })
}

/// The [`Storage`](super::Storage) methods of the chat, blocks, reports and
/// closed accounts, for a backend module that has what
/// [`storage_methods!`](super::sql::storage_methods) needs and the function
/// `announce_chat(&mut Conn, &announcer, game_id, message_id)`.
macro_rules! chat_methods {
    () => {
        fn add_chat(
            &self,
            m: NewChatMessage,
            limits: Vec<ChatLimit>,
        ) -> BoxFuture<'_, Result<ChatPosted, StorageError>> {
            let announcer = self.announcer();
            Box::pin(self.write("add chat", move |conn| {
                Box::pin(async move {
                    let window = limits.iter().map(|l| l.window_ms).max().unwrap_or(0);
                    let most = limits.iter().map(|l| l.most).max().unwrap_or(0);
                    // The author's latest messages in the game: by account,
                    // or a guest's by seat.
                    let recent: Vec<i64> = sqlx::query_scalar(
                        "SELECT at FROM chat_messages WHERE game_id = $1 AND at > $2 \
                         AND (account_id = $3 OR ($3 IS NULL AND account_id IS NULL \
                         AND seat = $4)) ORDER BY at DESC LIMIT $5",
                    )
                    .bind(m.game)
                    .bind(m.at - window)
                    .bind(m.account)
                    .bind(m.seat.map(|s| s as i64))
                    .bind(most as i64)
                    .fetch_all(&mut *conn)
                    .await?;
                    if let Some(wait) = chat::chat_wait(&recent, m.at, &limits) {
                        return Ok(ChatPosted::RateLimited(wait));
                    }
                    let id: i64 = sqlx::query_scalar(
                        "INSERT INTO chat_messages \
                         (game_id, room, seat, account_id, name, text, at) \
                         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
                    )
                    .bind(m.game)
                    .bind(m.room.name())
                    .bind(m.seat.map(|s| s as i64))
                    .bind(m.account)
                    .bind(&m.name)
                    .bind(&m.text)
                    .bind(m.at)
                    .fetch_one(&mut *conn)
                    .await?;
                    announce_chat(conn, &announcer, m.game, id).await?;
                    Ok(ChatPosted::Posted(ChatMessage { id, message: m }))
                })
            }))
        }

        fn chat_messages(
            &self,
            game: i64,
            room: ChatRoom,
            reader: Option<i64>,
        ) -> BoxFuture<'_, Result<Vec<ChatMessage>, StorageError>> {
            Box::pin(self.read("chat messages", move |conn| {
                Box::pin(async move {
                    let sql = format!(
                        "SELECT {} FROM chat_messages c \
                         LEFT JOIN accounts a ON a.id = c.account_id \
                         WHERE c.game_id = $1 AND c.room = $2 \
                         AND (a.id IS NULL OR a.closed = $3) \
                         AND NOT EXISTS (SELECT 1 FROM blocks b \
                         WHERE b.blocker = $4 AND b.blocked = c.account_id) \
                         ORDER BY c.id DESC LIMIT $5",
                        chat::MESSAGE_COLUMNS
                    );
                    let rows: Vec<chat::MessageRow> = sqlx::query_as(sqlx::AssertSqlSafe(sql))
                        .bind(game)
                        .bind(room.name())
                        .bind(false)
                        .bind(reader)
                        .bind(chat::CHAT_LIST_MAX)
                        .fetch_all(&mut *conn)
                        .await?;
                    rows.into_iter().rev().map(chat::message_of_row).collect()
                })
            }))
        }

        fn chat_message(
            &self,
            id: i64,
        ) -> BoxFuture<'_, Result<Option<ChatMessage>, StorageError>> {
            Box::pin(self.read("chat message", move |conn| {
                Box::pin(async move {
                    let sql = format!(
                        "SELECT {} FROM chat_messages c WHERE c.id = $1",
                        chat::MESSAGE_COLUMNS
                    );
                    let row: Option<chat::MessageRow> = sqlx::query_as(sqlx::AssertSqlSafe(sql))
                        .bind(id)
                        .fetch_optional(&mut *conn)
                        .await?;
                    row.map(chat::message_of_row).transpose()
                })
            }))
        }

        fn set_block(
            &self,
            blocker: i64,
            blocked: i64,
            since: Option<String>,
        ) -> BoxFuture<'_, Result<bool, StorageError>> {
            Box::pin(self.write("set block", move |conn| {
                Box::pin(async move {
                    let done = if let Some(at) = since {
                        sqlx::query(
                            "INSERT INTO blocks (blocker, blocked, created_at) \
                             VALUES ($1, $2, $3) ON CONFLICT (blocker, blocked) DO NOTHING",
                        )
                        .bind(blocker)
                        .bind(blocked)
                        .bind(at)
                        .execute(&mut *conn)
                        .await?
                    } else {
                        sqlx::query("DELETE FROM blocks WHERE blocker = $1 AND blocked = $2")
                            .bind(blocker)
                            .bind(blocked)
                            .execute(&mut *conn)
                            .await?
                    };
                    Ok(done.rows_affected() > 0)
                })
            }))
        }

        fn blocked(&self, blocker: i64, blocked: i64) -> BoxFuture<'_, Result<bool, StorageError>> {
            Box::pin(self.read("blocked", move |conn| {
                Box::pin(async move {
                    let found: Option<i64> = sqlx::query_scalar(
                        "SELECT blocker FROM blocks WHERE blocker = $1 AND blocked = $2",
                    )
                    .bind(blocker)
                    .bind(blocked)
                    .fetch_optional(&mut *conn)
                    .await?;
                    Ok(found.is_some())
                })
            }))
        }

        fn blocked_names(&self, blocker: i64) -> BoxFuture<'_, Result<Vec<String>, StorageError>> {
            Box::pin(self.read("blocked names", move |conn| {
                Box::pin(async move {
                    Ok(sqlx::query_scalar(
                        "SELECT a.name FROM blocks b JOIN accounts a ON a.id = b.blocked \
                         WHERE b.blocker = $1 ORDER BY a.name_key",
                    )
                    .bind(blocker)
                    .fetch_all(&mut *conn)
                    .await?)
                })
            }))
        }

        fn report_chat(&self, r: NewReport) -> BoxFuture<'_, Result<Option<i64>, StorageError>> {
            Box::pin(self.write("report chat", move |conn| {
                Box::pin(async move {
                    Ok(sqlx::query_scalar(
                        "INSERT INTO chat_reports (message_id, reporter, reason, created_at) \
                         SELECT $1, $2, $3, $4 WHERE NOT EXISTS (SELECT 1 FROM chat_reports \
                         WHERE message_id = $1 AND reporter = $2) RETURNING id",
                    )
                    .bind(r.message)
                    .bind(r.reporter)
                    .bind(r.reason)
                    .bind(r.at)
                    .fetch_optional(&mut *conn)
                    .await?)
                })
            }))
        }

        fn chat_reports(&self, all: bool) -> BoxFuture<'_, Result<Vec<ChatReport>, StorageError>> {
            Box::pin(self.read("chat reports", move |conn| {
                Box::pin(async move {
                    let sql = format!(
                        "SELECT r.id AS report_id, au.name AS author, rp.name AS reporter, \
                         r.reason, r.created_at, r.closed_at, r.closed_by, {} \
                         FROM chat_reports r JOIN chat_messages c ON c.id = r.message_id \
                         JOIN accounts rp ON rp.id = r.reporter \
                         LEFT JOIN accounts au ON au.id = c.account_id \
                         WHERE $1 OR r.closed_at IS NULL ORDER BY r.id",
                        chat::MESSAGE_COLUMNS
                    );
                    let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
                        .bind(all)
                        .fetch_all(&mut *conn)
                        .await?;
                    rows.iter()
                        .map(|row| {
                            let message = chat::message_of_row((
                                row.try_get("id")?,
                                row.try_get("game_id")?,
                                row.try_get("room")?,
                                row.try_get("seat")?,
                                row.try_get("account_id")?,
                                row.try_get("name")?,
                                row.try_get("text")?,
                                row.try_get("at")?,
                            ))?;
                            Ok(ChatReport {
                                id: row.try_get("report_id")?,
                                message,
                                author: row.try_get("author")?,
                                reporter: row.try_get("reporter")?,
                                reason: row.try_get("reason")?,
                                created_at: row.try_get("created_at")?,
                                closed_at: row.try_get("closed_at")?,
                                closed_by: row.try_get("closed_by")?,
                            })
                        })
                        .collect()
                })
            }))
        }

        fn resolve_report(
            &self,
            id: i64,
            by: String,
            at: String,
        ) -> BoxFuture<'_, Result<bool, StorageError>> {
            Box::pin(self.write("resolve report", move |conn| {
                Box::pin(async move {
                    let done = sqlx::query(
                        "UPDATE chat_reports SET closed_at = $2, closed_by = $3 \
                         WHERE id = $1 AND closed_at IS NULL",
                    )
                    .bind(id)
                    .bind(at)
                    .bind(by)
                    .execute(&mut *conn)
                    .await?;
                    Ok(done.rows_affected() > 0)
                })
            }))
        }

        fn set_account_closed(
            &self,
            account: i64,
            closed: bool,
        ) -> BoxFuture<'_, Result<bool, StorageError>> {
            Box::pin(self.write("close account", move |conn| {
                Box::pin(async move {
                    let done = sqlx::query("UPDATE accounts SET closed = $2 WHERE id = $1")
                        .bind(account)
                        .bind(closed)
                        .execute(&mut *conn)
                        .await?;
                    if closed {
                        sqlx::query("DELETE FROM login_sessions WHERE account_id = $1")
                            .bind(account)
                            .execute(&mut *conn)
                            .await?;
                    }
                    Ok(done.rows_affected() > 0)
                })
            }))
        }
    };
}

pub(super) use chat_methods;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chat::CHAT_LIMITS as LIMITS;

    #[test]
    fn waits_until_every_window_has_room() {
        assert_eq!(chat_wait(&[], 10_000, &LIMITS), None);
        assert_eq!(chat_wait(&[9_000, 8_000], 10_000, &LIMITS), None);
        // Three in 5 s: the oldest of them leaves the window at 12 000.
        assert_eq!(
            chat_wait(&[9_000, 8_000, 7_000], 10_000, &LIMITS),
            Some(2_000)
        );
        assert_eq!(chat_wait(&[9_000, 8_000, 4_000], 10_000, &LIMITS), None);
        // Twenty in a minute, spread out.
        let spread: Vec<i64> = (0..20).map(|i| 100_000 - i * 2_900).collect();
        assert_eq!(chat_wait(&spread, 100_500, &LIMITS), Some(4_400));
    }

    #[test]
    fn rooms_by_name() {
        for room in [ChatRoom::Players, ChatRoom::Spectators] {
            assert_eq!(ChatRoom::parse(room.name()), Some(room));
        }
        assert_eq!(ChatRoom::parse("all"), None);
    }
}
