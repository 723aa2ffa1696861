//! `GET /api/games/{id}/ws`: the game's state on connect and after every
//! change, the new chat messages of the rooms the socket may read
//! (crate::chat: by the seat of its cookie's account or its hello);
//! `{"type":"ping"}` is answered `{"type":"pong"}`;
//! `{"type":"hello","token":…}` makes the socket the presence of the
//! token's seat (or, on a socket opened with a login's cookie, of the
//! account's seat: then the token may be left out) (the players see who is
//! connected; a live game whose
//! player has been gone a while can be claimed); a message over
//! 4 KiB (close code 1009, however large) or one that is not such a ping
//! closes the socket, a text message that is not UTF-8 too (1007). The
//! server pings every socket; one whose client sends nothing (not even a
//! pong) within the idle timeout is closed (1001). One client address
//! holds at most `--max-websockets-per-ip` sockets; a further one is
//! answered `429 too_many_connections`.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Extension;
use axum::extract::State;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade, close_code};
use axum::response::Response;
use serde_json::Value;
use tokio::sync::broadcast::error::RecvError;
use tokio::time::Instant;

use crate::AppState;
use crate::account::Login;
use crate::chat::{ChatLine, Reader};
use crate::conn::ConnectionSlot;
use crate::error::{ApiError, GameId};
use crate::front::{ClientAddr, Held};
use crate::game_state::{GameState, StateMessage};
use crate::registry::{Credentials, Entry, GameRegistry};

/// The largest message a client may send.
pub const MAX_CLIENT_MESSAGE: usize = 4 * 1024;

/// The most the server reads of one message before refusing it.
const READ_LIMIT: usize = 64 * 1024;

pub async fn handler(
    State(app): State<AppState>,
    GameId(id): GameId,
    slot: Option<Extension<ConnectionSlot>>,
    client: Option<Extension<ClientAddr>>,
    login: Login,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let (upgrade, held) = open(&app, client, upgrade)?;
    let (entry, rx, state) = app.registry.watch(id).await?;
    let chat = entry.chat.subscribe();
    let registry = app.registry.clone();
    let keepalive = app.ws;
    let account = login.account();
    Ok(upgrade
        // Messages up to the read limit are read and then refused by size;
        // larger ones are refused as soon as their header says so. Both get
        // the close code 1009.
        .max_message_size(READ_LIMIT)
        .max_frame_size(READ_LIMIT)
        .read_buffer_size(8 * 1024)
        .write_buffer_size(0)
        .on_upgrade(move |socket| async move {
            // The socket counts against the connection limit and its
            // address's sockets while it is open.
            let _slot = slot;
            let _held = held;
            let feeds = Feeds { rx, chat };
            run(socket, registry, entry, feeds, state, keepalive, account).await
        }))
}

/// A WebSocket request's upgrade and the hold of one of its address's
/// sockets (`--max-websockets-per-ip`; over it, `429
/// too_many_connections`).
pub(crate) fn open(
    app: &AppState,
    client: Option<Extension<ClientAddr>>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<(WebSocketUpgrade, Held), ApiError> {
    let upgrade = upgrade.map_err(|e| {
        ApiError::BadRequest(format!(
            "this endpoint speaks WebSocket only: {}",
            e.body_text()
        ))
    })?;
    let ip = client.map_or(IpAddr::from([0, 0, 0, 0]), |c| c.0.0);
    let Some(held) = app.websockets.take(ip) else {
        return Err(ApiError::TooManyConnections(
            "your address has as many live connections open as it may; close some tabs and \
             try again"
                .into(),
        ));
    };
    Ok((upgrade, held))
}

/// The close frame a read error deserves, if the socket can still say
/// why: 1009 for a message or frame over the read limit ([`READ_LIMIT`]),
/// 1007 for a text message that is not UTF-8.
fn close_for(e: axum::Error) -> Option<(u16, &'static str)> {
    match e.into_inner().downcast_ref::<tungstenite::Error>() {
        Some(tungstenite::Error::Capacity(_)) => Some((close_code::SIZE, "message too large")),
        Some(tungstenite::Error::Utf8(_)) => Some((close_code::INVALID, "text is not UTF-8")),
        _ => None,
    }
}

fn state_message(state: &GameState) -> Message {
    Message::Text(StateMessage::text(state).into())
}

async fn close(socket: &mut WebSocket, code: u16, reason: &'static str) {
    let _ = socket
        .send(Message::Close(Some(CloseFrame {
            code,
            reason: Utf8Bytes::from_static(reason),
        })))
        .await;
}

/// The keep-alive of open sockets: the server pings every
/// `ping_interval`; a socket whose client sends nothing (a pong, a ping,
/// a message) for `idle_timeout` is closed.
#[derive(Clone, Copy, Debug)]
pub struct Keepalive {
    pub ping_interval: Duration,
    pub idle_timeout: Duration,
}

/// What the server does with a client's message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClientAnswer {
    /// Send this text and keep the socket open.
    Reply(&'static str),
    /// Close the socket with this code and reason.
    Close(u16, &'static str),
}

const PONG: &str = r#"{"type":"pong"}"#;

/// The server's answer to a client's text message: `{"type":"ping"}` is
/// answered `{"type":"pong"}`; a message over [`MAX_CLIENT_MESSAGE`] bytes
/// closes the socket with 1009, anything else with 1008.
pub fn answer_text(text: &str) -> ClientAnswer {
    if text.len() > MAX_CLIENT_MESSAGE {
        return ClientAnswer::Close(close_code::SIZE, "message too large");
    }
    match serde_json::from_str::<Value>(text) {
        Ok(v) if v.get("type").and_then(Value::as_str) == Some("ping") => ClientAnswer::Reply(PONG),
        _ => ClientAnswer::Close(close_code::POLICY, "malformed message"),
    }
}

/// Whether a message is a `{"type":"hello"}` (a socket with a login's
/// cookie needs no token: the account's seat is present).
fn is_hello(text: &str) -> bool {
    serde_json::from_str::<Value>(text)
        .is_ok_and(|v| v.get("type").and_then(Value::as_str) == Some("hello"))
}

/// The token of a `{"type":"hello","token":…}` message.
fn hello_token(text: &str) -> Option<String> {
    let v: Value = serde_json::from_str(text).ok()?;
    if v.get("type").and_then(Value::as_str) != Some("hello") {
        return None;
    }
    v.get("token").and_then(Value::as_str).map(str::to_string)
}

/// The server's answer to a client's binary message of `len` bytes: the
/// socket closes (1009 over [`MAX_CLIENT_MESSAGE`], else 1003).
pub fn answer_binary(len: usize) -> ClientAnswer {
    if len > MAX_CLIENT_MESSAGE {
        ClientAnswer::Close(close_code::SIZE, "message too large")
    } else {
        ClientAnswer::Close(close_code::UNSUPPORTED, "text messages only")
    }
}

/// Send `msg` unless the client stays silent until `deadline` meanwhile
/// (a client that reads nothing could hold a send forever); `false`: the
/// socket is done.
pub(crate) async fn send_by(socket: &mut WebSocket, msg: Message, deadline: Instant) -> bool {
    matches!(
        tokio::time::timeout_at(deadline, socket.send(msg)).await,
        Ok(Ok(()))
    )
}

/// Carry out an answer; `false`: the socket is done.
pub(crate) async fn carry_out(
    socket: &mut WebSocket,
    answer: ClientAnswer,
    deadline: Instant,
) -> bool {
    match answer {
        ClientAnswer::Reply(text) => {
            send_by(
                socket,
                Message::Text(Utf8Bytes::from_static(text)),
                deadline,
            )
            .await
        }
        ClientAnswer::Close(code, reason) => {
            let _ = tokio::time::timeout_at(deadline, close(socket, code, reason)).await;
            false
        }
    }
}

/// What a socket is sent: the game's states and its chat.
struct Feeds {
    rx: tokio::sync::broadcast::Receiver<Utf8Bytes>,
    chat: tokio::sync::broadcast::Receiver<Arc<ChatLine>>,
}

/// The chat reader of a socket that is `who` in game `id`.
async fn reader_of(registry: &Arc<GameRegistry>, id: i64, who: Credentials<'_>) -> Reader {
    match registry.chat_seat(id, who).await {
        Ok(seat) => Reader::of(&seat, who.account),
        Err(_) => Reader {
            seat: None,
            account: who.account,
        },
    }
}

async fn run(
    mut socket: WebSocket,
    registry: Arc<GameRegistry>,
    entry: Arc<Entry>,
    feeds: Feeds,
    state: GameState,
    keepalive: Keepalive,
    account: Option<i64>,
) {
    let Feeds { mut rx, mut chat } = feeds;
    let mut closing = registry.closing();
    let mut heard = Instant::now();
    let deadline = |heard: Instant| heard + keepalive.idle_timeout;
    if *closing.borrow_and_update() {
        let _ = tokio::time::timeout_at(
            deadline(heard),
            close(&mut socket, close_code::AWAY, "the server is shutting down"),
        )
        .await;
        return;
    }
    // The seat this socket is the presence of, after a hello; until then
    // it counts as a spectator's.
    let mut present = None;
    let mut spectator = Some(registry.spectate(&entry));
    if !send_by(&mut socket, state_message(&state), deadline(heard)).await {
        return;
    }
    // Who reads the chat here: the cookie's account and its seat, or the
    // seat of the hello.
    let mut reader = reader_of(
        &registry,
        entry.id,
        Credentials {
            token: None,
            account,
        },
    )
    .await;
    let mut pings =
        tokio::time::interval_at(heard + keepalive.ping_interval, keepalive.ping_interval);
    pings.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            change = rx.recv() => match change {
                Ok(msg) => {
                    if !send_by(&mut socket, Message::Text(msg), deadline(heard)).await {
                        return;
                    }
                }
                Err(RecvError::Lagged(_)) => {
                    // Fell behind: the state now says it all.
                    let Ok(state) = registry.current_state(&entry).await else {
                        let _ = carry_out(
                            &mut socket,
                            ClientAnswer::Close(close_code::ERROR, "the game is gone"),
                            deadline(heard),
                        )
                        .await;
                        return;
                    };
                    if !send_by(&mut socket, state_message(&state), deadline(heard)).await {
                        return;
                    }
                }
                Err(RecvError::Closed) => return,
            },
            line = chat.recv() => match line {
                Ok(line) => {
                    if reader.reads(&line, registry.storage().as_ref()).await
                        && !send_by(&mut socket, Message::Text(line.text.clone()), deadline(heard))
                            .await
                    {
                        return;
                    }
                }
                // Fell behind: the client reads the room anew when it
                // needs to.
                Err(RecvError::Lagged(_)) => {}
                Err(RecvError::Closed) => return,
            },
            incoming = socket.recv() => {
                if matches!(incoming, Some(Ok(_))) {
                    heard = Instant::now();
                }
                match incoming {
                    Some(Ok(Message::Text(text))) if text.len() <= MAX_CLIENT_MESSAGE
                        && present.is_none()
                        && (hello_token(&text).is_some()
                            || (account.is_some() && is_hello(&text))) =>
                    {
                        let token = hello_token(&text);
                        let who = Credentials {
                            token: token.as_deref(),
                            account,
                        };
                        present = registry.present_as(entry.id, who).await.ok().flatten();
                        if present.is_some() {
                            reader = reader_of(&registry, entry.id, who).await;
                            drop(spectator.take());
                        }
                    }
                    Some(Ok(Message::Text(text))) => {
                        if !carry_out(&mut socket, answer_text(&text), deadline(heard)).await {
                            return;
                        }
                    }
                    Some(Ok(Message::Binary(data))) => {
                        let _ = carry_out(&mut socket, answer_binary(data.len()), deadline(heard))
                            .await;
                        return;
                    }
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
                    Some(Err(e)) => {
                        // A message over the read limit or not UTF-8 ends
                        // reading; the socket can still say why before it
                        // goes.
                        if let Some((code, reason)) = close_for(e) {
                            let _ = carry_out(
                                &mut socket,
                                ClientAnswer::Close(code, reason),
                                deadline(heard),
                            )
                            .await;
                        }
                        return;
                    }
                    Some(Ok(Message::Close(_))) | None => return,
                }
            },
            _ = pings.tick() => {
                if !send_by(&mut socket, Message::Ping(Default::default()), deadline(heard)).await {
                    return;
                }
            }
            () = tokio::time::sleep_until(deadline(heard)) => {
                // Silent for the whole idle timeout: gone or not answering.
                let _ = tokio::time::timeout(
                    Duration::from_secs(1),
                    close(&mut socket, close_code::AWAY, "no answer to pings"),
                )
                .await;
                return;
            }
            _ = closing.changed() => {
                // The flag only ever turns on.
                let _ = carry_out(
                    &mut socket,
                    ClientAnswer::Close(close_code::AWAY, "the server is shutting down"),
                    deadline(heard),
                )
                .await;
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_messages() {
        assert_eq!(answer_text(r#"{"type":"ping"}"#), ClientAnswer::Reply(PONG));
        assert_eq!(
            answer_text(r#"{"type":"pong"}"#),
            ClientAnswer::Close(close_code::POLICY, "malformed message")
        );
        assert_eq!(
            answer_text("nonsense"),
            ClientAnswer::Close(close_code::POLICY, "malformed message")
        );
        let big = format!(r#"{{"type":"ping","pad":"{}"}}"#, "x".repeat(5000));
        assert_eq!(
            answer_text(&big),
            ClientAnswer::Close(close_code::SIZE, "message too large")
        );
        assert_eq!(
            answer_binary(10),
            ClientAnswer::Close(close_code::UNSUPPORTED, "text messages only")
        );
        assert_eq!(
            answer_binary(MAX_CLIENT_MESSAGE + 1),
            ClientAnswer::Close(close_code::SIZE, "message too large")
        );
    }
}
