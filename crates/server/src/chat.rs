//! The chat of online games (docs/API.md, "Chat"): a room for the two
//! players and one for the spectators; blocking other accounts and
//! reporting messages.
//!
//! Messages are stored ([`Storage::add_chat`], which also keeps the rate
//! limits across instances) and then go out on the game's sockets as
//! `{"type":"chat",…}`, each socket deciding by its seat and account
//! whether it may read the message ([`Reader::reads`]); other instances
//! hear of a message through the cluster notifications and forward it to
//! their sockets ([`forward`]). The text is kept as written: clients show
//! it as text, never as markup.

use std::sync::Arc;

use axum::Json;
use axum::extract::rejection::PathRejection;
use axum::extract::ws::Utf8Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::AppState;
use crate::account::Login;
use crate::error::{ApiError, ApiJson, ApiQuery, GameId};
use crate::game::Color;
use crate::registry::{Credentials, GameRegistry};
use crate::storage::{
    Account, ChatLimit, ChatMessage, ChatPosted, ChatRoom, NewChatMessage, NewReport, Storage,
    name_key,
};
use crate::util::{is_bidi_control, now_rfc3339, rfc3339};

/// The longest message, in characters (Unicode scalar values).
pub const MAX_CHAT_CHARS: usize = 140;

/// The longest reason of a report, in characters.
pub const MAX_REASON_CHARS: usize = 200;

/// How much one author may write in one game: 3 messages in 5 s, 20 in a
/// minute.
pub const CHAT_LIMITS: [ChatLimit; 2] = [
    ChatLimit {
        window_ms: 5_000,
        most: 3,
    },
    ChatLimit {
        window_ms: 60_000,
        most: 20,
    },
];

/// The chat routes under `/api`.
pub fn routes() -> axum::Router<AppState> {
    axum::Router::new()
        .route("/games/{id}/chat", post(post_message).get(list))
        .route(
            "/players/{name}/block",
            post(|State(app), login, name| set_block(app, login, name, true)),
        )
        .route(
            "/players/{name}/unblock",
            post(|State(app), login, name| set_block(app, login, name, false)),
        )
        .route("/chat/{message}/report", post(report))
}

/// Who a request (or a socket) is in a game's chat.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChatSeat {
    /// The game is played online (only those have a chat).
    pub online: bool,
    /// The seat the requester holds.
    pub seat: Option<Color>,
    /// The game has ended.
    pub over: bool,
    /// The account that holds that seat.
    pub account: Option<i64>,
    /// That seat's name.
    pub name: Option<String>,
}

/// A new message of a game, as its sockets get it.
#[derive(Debug)]
pub struct ChatLine {
    /// The message.
    pub message: ChatMessage,
    /// The game had ended when it was written.
    pub over: bool,
    /// Its `{"type":"chat","message":…}`.
    pub text: Utf8Bytes,
}

impl ChatLine {
    fn new(message: ChatMessage, over: bool) -> ChatLine {
        let text = json!({"type": "chat", "message": message_json(&message)}).to_string();
        ChatLine {
            message,
            over,
            text: text.into(),
        }
    }
}

/// Who reads a socket's chat: its seat and account.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reader {
    /// The seat the socket holds.
    pub seat: Option<Color>,
    /// The reader's account (the cookie's, else its seat's).
    pub account: Option<i64>,
}

impl Reader {
    /// The reader of a request or socket that is `seat` in the chat, with
    /// the login `login`.
    pub fn of(seat: &ChatSeat, login: Option<i64>) -> Reader {
        Reader {
            seat: seat.seat,
            account: login.or(seat.account),
        }
    }

    /// Whether this reader may read room `room` of a game (`over`: it has
    /// ended): the players' room its players only; the spectators' room
    /// everyone else, and the players too once the game is over.
    pub fn may_read(&self, room: ChatRoom, over: bool) -> bool {
        match room {
            ChatRoom::Players => self.seat.is_some(),
            ChatRoom::Spectators => self.seat.is_none() || over,
        }
    }

    /// Whether `line` goes to this reader: a room it reads, and not by an
    /// account it blocked.
    pub async fn reads(&self, line: &ChatLine, storage: &dyn Storage) -> bool {
        if !self.may_read(line.message.message.room, line.over) {
            return false;
        }
        match (self.account, line.message.message.account) {
            (Some(me), Some(author)) if me != author => {
                !storage.blocked(me, author).await.unwrap_or(false)
            }
            _ => true,
        }
    }
}

/// A message as the API shows it.
fn message_json(m: &ChatMessage) -> Value {
    let msg = &m.message;
    json!({
        "id": m.id,
        "room": msg.room.name(),
        "seat": msg.seat.and_then(|s| Color::ALL.get(s)).map(|c| c.name()),
        "name": msg.name,
        "account": msg.account.is_some(),
        "text": msg.text,
        "at": rfc3339(msg.at.div_euclid(1000)),
    })
}

/// A message's text as written, trimmed, checked: 1 to
/// [`MAX_CHAT_CHARS`] characters, no control characters.
pub fn check_text(text: &str) -> Result<String, ApiError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ApiError::BadRequest("the message is empty".into()));
    }
    let n = text.chars().count();
    if n > MAX_CHAT_CHARS {
        return Err(ApiError::BadRequest(format!(
            "the message is too long: {n} characters, at most {MAX_CHAT_CHARS}"
        )));
    }
    if text.chars().any(|c| c.is_control() || is_bidi_control(c)) {
        return Err(ApiError::BadRequest(
            "the message holds control characters (line breaks, tabs, …)".into(),
        ));
    }
    Ok(text.to_string())
}

/// A request in a room: the body of a message (`text`), or the query of
/// a list (no text); `token`: a guest player's seat.
#[derive(Deserialize)]
struct RoomRequest {
    room: String,
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    token: Option<String>,
}

fn room_of(name: &str) -> Result<ChatRoom, ApiError> {
    ChatRoom::parse(name).ok_or_else(|| {
        ApiError::BadRequest(format!(
            "unknown room '{name}' (rooms: players, spectators)"
        ))
    })
}

/// Who asks in game `id`'s chat; only online games have one.
async fn seat_in(
    registry: &Arc<GameRegistry>,
    id: i64,
    token: Option<&str>,
    login: &Login,
) -> Result<ChatSeat, ApiError> {
    let who = Credentials {
        token,
        account: login.account(),
    };
    let seat = registry.chat_seat(id, who).await?;
    if !seat.online {
        return Err(ApiError::NotAllowed(
            "only games played online have a chat".into(),
        ));
    }
    Ok(seat)
}

/// The account of a seat, refused if it is closed.
async fn open_account(storage: &dyn Storage, account: i64) -> Result<Account, ApiError> {
    let account = storage
        .account_by_id(account)
        .await?
        .ok_or_else(|| ApiError::WrongToken("the seat's account no longer exists".into()))?;
    if account.closed {
        return Err(ApiError::AccountClosed("this account is closed".into()));
    }
    Ok(account)
}

/// `POST /api/games/{id}/chat`: `201` with the message stored.
async fn post_message(
    State(app): State<AppState>,
    GameId(id): GameId,
    login: Login,
    ApiJson(req): ApiJson<RoomRequest>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let room = room_of(&req.room)?;
    let text = check_text(req.text.as_deref().unwrap_or(""))?;
    let registry = &app.registry;
    let storage = registry.storage().as_ref();
    let seat = seat_in(registry, id, req.token.as_deref(), &login).await?;
    let (side, account, name) = match room {
        ChatRoom::Players => {
            let Some(side) = seat.seat else {
                return Err(ApiError::WrongToken(
                    "only the two players write in the players' room".into(),
                ));
            };
            match seat.account {
                Some(a) => {
                    let account = open_account(storage, a).await?;
                    (Some(side.index()), Some(a), Some(account.name))
                }
                None => (Some(side.index()), None, seat.name.clone()),
            }
        }
        ChatRoom::Spectators => {
            let Some(signed) = &login.0 else {
                return Err(ApiError::NotLoggedIn(
                    "log in to write in the spectators' room".into(),
                ));
            };
            if seat.seat.is_some() {
                return Err(ApiError::NotAllowed(
                    "the players write in the players' room".into(),
                ));
            }
            let a = &signed.account;
            (None, Some(a.id), Some(a.name.clone()))
        }
    };
    let message = NewChatMessage {
        game: id,
        room,
        seat: side,
        account,
        name,
        text,
        at: registry.time().now_ms(),
    };
    let posted = storage.add_chat(message, CHAT_LIMITS.to_vec()).await?;
    let message = match posted {
        ChatPosted::Posted(m) => m,
        ChatPosted::RateLimited(ms) => {
            let secs = u64::try_from((ms + 999) / 1000).unwrap_or(1).max(1);
            return Err(ApiError::RateLimited(
                format!("you are writing too fast; wait {secs} s"),
                secs,
            ));
        }
    };
    let body = json!({"message": message_json(&message)});
    send(registry, ChatLine::new(message, seat.over));
    Ok((StatusCode::CREATED, Json(body)))
}

/// Send `line` to the sockets of its game here.
fn send(registry: &GameRegistry, line: ChatLine) {
    if let Some(entry) = registry.live_entry(line.message.message.game)
        && entry.chat.receiver_count() > 0
    {
        let _ = entry.chat.send(Arc::new(line));
    }
}

/// Another instance stored chat message `message` of game `game`: send it
/// to the sockets of the game here, if there are any.
pub(crate) async fn forward(registry: &Arc<GameRegistry>, game: i64, message: i64) {
    let Some(entry) = registry.live_entry(game) else {
        return;
    };
    if entry.chat.receiver_count() == 0 {
        return;
    }
    let found = registry.storage().chat_message(message).await;
    let seat = registry.chat_seat(game, Credentials::default()).await;
    match (found, seat) {
        (Ok(Some(m)), Ok(seat)) => send(registry, ChatLine::new(m, seat.over)),
        (Ok(None), _) => {}
        (Err(e), _) => tracing::warn!(game, error = %e, "reading a chat message failed"),
        (_, Err(e)) => tracing::warn!(game, error = %e, "reading a game failed"),
    }
}

async fn list(
    State(app): State<AppState>,
    GameId(id): GameId,
    login: Login,
    ApiQuery(q): ApiQuery<RoomRequest>,
) -> Result<Json<Value>, ApiError> {
    let room = room_of(&q.room)?;
    let seat = seat_in(&app.registry, id, q.token.as_deref(), &login).await?;
    let reader = Reader::of(&seat, login.account());
    if !reader.may_read(room, seat.over) {
        return Err(match room {
            ChatRoom::Players => {
                ApiError::WrongToken("only the two players read the players' room".into())
            }
            ChatRoom::Spectators => ApiError::NotAllowed(
                "the players read the spectators' room once the game is over".into(),
            ),
        });
    }
    let messages = app
        .registry
        .storage()
        .chat_messages(id, room, reader.account)
        .await?;
    let messages: Vec<Value> = messages.iter().map(message_json).collect();
    Ok(Json(json!({"room": room.name(), "messages": messages})))
}

/// The account named in a path, and the logged-in one.
async fn accounts_of(
    app: &AppState,
    login: Login,
    name: Result<Path<String>, PathRejection>,
) -> Result<(Account, Account), ApiError> {
    let me = login.0.ok_or_else(|| {
        ApiError::NotLoggedIn("you are not logged in (or your login has ended)".into())
    })?;
    let missing = || ApiError::NotFound("there is no such player".into());
    let Ok(Path(name)) = name else {
        return Err(missing());
    };
    let other = app
        .registry
        .storage()
        .account_by_name(&name_key(&name))
        .await?
        .ok_or_else(missing)?;
    if other.id == me.account.id {
        return Err(ApiError::BadRequest("you cannot block yourself".into()));
    }
    Ok((me.account, other))
}

/// `POST /api/players/{name}/block` and `…/unblock` (`block` false).
async fn set_block(
    app: AppState,
    login: Login,
    name: Result<Path<String>, PathRejection>,
    block: bool,
) -> Result<Json<Value>, ApiError> {
    let (me, other) = accounts_of(&app, login, name).await?;
    let since = block.then(now_rfc3339);
    app.registry
        .storage()
        .set_block(me.id, other.id, since)
        .await?;
    let done = if block { "blocked" } else { "unblocked" };
    Ok(Json(json!({ done: other.name })))
}

#[derive(Deserialize)]
struct ReportRequest {
    #[serde(default)]
    reason: String,
}

async fn report(
    State(app): State<AppState>,
    login: Login,
    message: Result<Path<i64>, PathRejection>,
    ApiJson(req): ApiJson<ReportRequest>,
) -> Result<Response, ApiError> {
    let me = login
        .account()
        .ok_or_else(|| ApiError::NotLoggedIn("log in to report a message".into()))?;
    let missing = || ApiError::NotFound("there is no such message".into());
    let Ok(Path(id)) = message else {
        return Err(missing());
    };
    let storage = app.registry.storage();
    let found = storage.chat_message(id).await?.ok_or_else(missing)?;
    let m = &found.message;
    let seat = seat_in(&app.registry, m.game, None, &login).await?;
    if !Reader::of(&seat, Some(me)).may_read(m.room, true) {
        return Err(missing());
    }
    if m.account == Some(me) {
        return Err(ApiError::NotAllowed(
            "you cannot report your own message".into(),
        ));
    }
    let reason: String = req
        .reason
        .chars()
        .filter(|c| !c.is_control() && !is_bidi_control(*c))
        .collect();
    let reason = reason.trim();
    if reason.chars().count() > MAX_REASON_CHARS {
        return Err(ApiError::BadRequest(format!(
            "the reason is longer than {MAX_REASON_CHARS} characters"
        )));
    }
    let report = NewReport {
        message: id,
        reporter: me,
        reason: reason.to_string(),
        at: now_rfc3339(),
    };
    let new = storage.report_chat(report).await?.is_some();
    let status = if new {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((status, Json(json!({"reported": true, "new": new}))).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts() {
        assert_eq!(check_text("  hallo  ").unwrap(), "hallo");
        assert!(check_text("   ").is_err());
        assert!(check_text(&"ä".repeat(140)).is_ok());
        assert!(check_text(&"ä".repeat(141)).is_err());
        assert!(check_text("a\nb").is_err());
        assert!(check_text("a\u{202E}b").is_err());
        assert_eq!(
            check_text("<img src=x onerror=alert(1)>").unwrap(),
            "<img src=x onerror=alert(1)>"
        );
    }

    #[test]
    fn who_reads_which_room() {
        let player = Reader {
            seat: Some(Color::White),
            account: None,
        };
        let spectator = Reader::default();
        assert!(player.may_read(ChatRoom::Players, false));
        assert!(!player.may_read(ChatRoom::Spectators, false));
        assert!(player.may_read(ChatRoom::Spectators, true));
        assert!(!spectator.may_read(ChatRoom::Players, false));
        assert!(!spectator.may_read(ChatRoom::Players, true));
        assert!(spectator.may_read(ChatRoom::Spectators, false));
    }
}
