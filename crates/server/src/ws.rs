//! `GET /api/games/{id}/ws`: the game's state on connect and after every
//! change; `{"type":"ping"}` is answered `{"type":"pong"}`; a message over
//! 4 KiB (close code 1009, however large) or one that is not such a ping
//! closes the socket.

use std::sync::Arc;

use axum::Extension;
use axum::extract::State;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade, close_code};
use axum::response::Response;
use serde_json::{Value, json};
use tokio::sync::broadcast::error::RecvError;

use crate::AppState;
use crate::conn::ConnectionSlot;
use crate::error::{ApiError, GameId};
use crate::games::{Entry, Hub};

/// The largest message a client may send.
pub const MAX_CLIENT_MESSAGE: usize = 4 * 1024;

/// The most the server reads of one message before refusing it.
const READ_LIMIT: usize = 64 * 1024;

pub async fn handler(
    State(app): State<AppState>,
    GameId(id): GameId,
    slot: Option<Extension<ConnectionSlot>>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let upgrade = upgrade.map_err(|e| {
        ApiError::BadRequest(format!(
            "this endpoint speaks WebSocket only: {}",
            e.body_text()
        ))
    })?;
    let (entry, rx, state) = app.hub.watch(id).await?;
    let hub = app.hub.clone();
    Ok(upgrade
        // Messages up to the read limit are read and then refused by size;
        // larger ones are refused as soon as their header says so. Both get
        // the close code 1009.
        .max_message_size(READ_LIMIT)
        .max_frame_size(READ_LIMIT)
        .read_buffer_size(8 * 1024)
        .write_buffer_size(0)
        .on_upgrade(move |socket| async move {
            // The socket counts against the connection limit while it is open.
            let _slot = slot;
            run(socket, hub, entry, rx, state).await
        }))
}

/// Whether a read error is a message or frame over the read limit
/// ([`READ_LIMIT`]).
fn is_too_large(e: axum::Error) -> bool {
    e.into_inner()
        .downcast_ref::<tungstenite::Error>()
        .is_some_and(|e| matches!(e, tungstenite::Error::Capacity(_)))
}

fn state_message(state: Value) -> Message {
    Message::Text(json!({"type": "state", "state": state}).to_string().into())
}

async fn close(socket: &mut WebSocket, code: u16, reason: &'static str) {
    let _ = socket
        .send(Message::Close(Some(CloseFrame {
            code,
            reason: Utf8Bytes::from_static(reason),
        })))
        .await;
}

/// What a client said.
enum Incoming {
    Ping,
    TooLarge,
    Malformed,
}

fn classify(text: &str) -> Incoming {
    if text.len() > MAX_CLIENT_MESSAGE {
        return Incoming::TooLarge;
    }
    match serde_json::from_str::<Value>(text) {
        Ok(v) if v.get("type").and_then(Value::as_str) == Some("ping") => Incoming::Ping,
        _ => Incoming::Malformed,
    }
}

async fn run(
    mut socket: WebSocket,
    hub: Arc<Hub>,
    entry: Arc<Entry>,
    mut rx: tokio::sync::broadcast::Receiver<Utf8Bytes>,
    state: Value,
) {
    let mut closing = hub.closing();
    if *closing.borrow_and_update() {
        close(&mut socket, close_code::AWAY, "the server is shutting down").await;
        return;
    }
    if socket.send(state_message(state)).await.is_err() {
        return;
    }
    loop {
        tokio::select! {
            change = rx.recv() => match change {
                Ok(msg) => {
                    if socket.send(Message::Text(msg)).await.is_err() {
                        return;
                    }
                }
                Err(RecvError::Lagged(_)) => {
                    // Fell behind: the state now says it all.
                    let Ok(state) = hub.current_state(&entry).await else {
                        close(&mut socket, close_code::ERROR, "the game is gone").await;
                        return;
                    };
                    if socket.send(state_message(state)).await.is_err() {
                        return;
                    }
                }
                Err(RecvError::Closed) => return,
            },
            incoming = socket.recv() => match incoming {
                Some(Ok(Message::Text(text))) => match classify(&text) {
                    Incoming::Ping => {
                        let pong = Message::Text(Utf8Bytes::from_static(r#"{"type":"pong"}"#));
                        if socket.send(pong).await.is_err() {
                            return;
                        }
                    }
                    Incoming::TooLarge => {
                        close(&mut socket, close_code::SIZE, "message too large").await;
                        return;
                    }
                    Incoming::Malformed => {
                        close(&mut socket, close_code::POLICY, "malformed message").await;
                        return;
                    }
                },
                Some(Ok(Message::Binary(data))) => {
                    if data.len() > MAX_CLIENT_MESSAGE {
                        close(&mut socket, close_code::SIZE, "message too large").await;
                    } else {
                        close(&mut socket, close_code::UNSUPPORTED, "text messages only").await;
                    }
                    return;
                }
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
                Some(Err(e)) => {
                    // A message over the read limit ends reading; the
                    // socket can still say why before it goes.
                    if is_too_large(e) {
                        close(&mut socket, close_code::SIZE, "message too large").await;
                    }
                    return;
                }
                Some(Ok(Message::Close(_))) | None => return,
            },
            _ = closing.changed() => {
                // The flag only ever turns on.
                close(&mut socket, close_code::AWAY, "the server is shutting down").await;
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
        assert!(matches!(classify(r#"{"type":"ping"}"#), Incoming::Ping));
        assert!(matches!(
            classify(r#"{"type":"pong"}"#),
            Incoming::Malformed
        ));
        assert!(matches!(classify("nonsense"), Incoming::Malformed));
        let big = format!(r#"{{"type":"ping","pad":"{}"}}"#, "x".repeat(5000));
        assert!(matches!(classify(&big), Incoming::TooLarge));
    }
}
