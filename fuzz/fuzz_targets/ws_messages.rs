//! The WebSocket of a game: arbitrary client messages sent over a real
//! socket to the server's router (HTTP upgrade, the frame reader with its
//! size limits, the socket loop), in process over an in-memory pipe, and
//! every text also straight to `server::answer_text`. The input is split
//! at 0xFF bytes into messages; the first byte of each picks the frame
//! (text, text that need not be UTF-8, binary, ping, pong, close). The
//! server must send the state first, answer a leading `{"type":"ping"}`
//! with a pong, close with a known code, and never panic or hang.
#![no_main]

use std::sync::OnceLock;
use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use futures_util::{SinkExt, StreamExt};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use server::{AppState, ClientAnswer, MAX_CLIENT_MESSAGE, ServerConfig};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::frame::Frame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::{Data, OpCode};
use tower::ServiceExt;

struct World {
    runtime: tokio::runtime::Runtime,
    router: axum::Router,
    game: i64,
}

fn world() -> &'static World {
    static WORLD: OnceLock<World> = OnceLock::new();
    WORLD.get_or_init(|| {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let (router, game) = runtime.block_on(async {
            let config = ServerConfig {
                database_url: Some("sqlite::memory:".into()),
                games_per_minute: 0,
                wrong_tokens_per_minute: 0,
                ..ServerConfig::default()
            };
            let router = server::app(AppState::open(&config).await.unwrap());
            let request = Request::post("/api/games")
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(r#"{"kind":"local"}"#))
                .unwrap();
            let response = router.clone().oneshot(request).await.unwrap();
            assert_eq!(response.status(), StatusCode::CREATED);
            let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
                .await
                .unwrap();
            let v: Value = serde_json::from_slice(&bytes).unwrap();
            (router, v["id"].as_i64().unwrap())
        });
        World {
            runtime,
            router,
            game,
        }
    })
}

/// The close codes the server uses.
const CODES: [u16; 6] = [1000, 1001, 1003, 1008, 1009, 1011];

fn check_answer(text: &str) {
    match server::answer_text(text) {
        ClientAnswer::Reply(reply) => {
            assert!(text.len() <= MAX_CLIENT_MESSAGE);
            let v: Value = serde_json::from_str(text).expect("a ping is JSON");
            assert_eq!(v["type"], "ping");
            assert_eq!(reply, r#"{"type":"pong"}"#);
        }
        ClientAnswer::Close(code, _) => assert!(code == 1008 || code == 1009, "{code}"),
    }
}

fn frame(chunk: &[u8]) -> Option<Message> {
    let (&kind, payload) = chunk.split_first()?;
    Some(match kind % 6 {
        0 => Message::Text(String::from_utf8_lossy(payload).into_owned().into()),
        1 => Message::Frame(Frame::message(
            payload.to_vec(),
            OpCode::Data(Data::Text),
            true,
        )),
        2 => Message::Binary(payload.to_vec().into()),
        // A control frame carries at most 125 bytes.
        3 => Message::Ping(payload[..payload.len().min(125)].to_vec().into()),
        4 => Message::Pong(payload[..payload.len().min(125)].to_vec().into()),
        _ => Message::Close(None),
    })
}

async fn exchange(router: axum::Router, game: i64, messages: Vec<Message>) {
    let (client, server_side) = tokio::io::duplex(256 * 1024);
    let service = hyper::service::service_fn(move |req: Request<hyper::body::Incoming>| {
        router.clone().oneshot(req)
    });
    let conn = tokio::spawn(
        hyper::server::conn::http1::Builder::new()
            .serve_connection(hyper_util::rt::TokioIo::new(server_side), service)
            .with_upgrades(),
    );
    let url = format!("ws://localhost/api/games/{game}/ws");
    let (ws, _) = tokio_tungstenite::client_async(url, client)
        .await
        .expect("the handshake");
    let (mut tx, mut rx) = ws.split();
    let first_is_ping = matches!(messages.first(), Some(Message::Text(t)) if matches!(
        server::answer_text(t.as_str()),
        ClientAnswer::Reply(_)
    ));
    // Send everything (the server may close before it has read it all).
    let sender = tokio::spawn(async move {
        for m in messages {
            if tx.send(m).await.is_err() {
                return;
            }
        }
        let _ = tx.send(Message::Close(None)).await;
    });
    let mut seen = Vec::new();
    while let Some(next) = rx.next().await {
        match next {
            Ok(m) => seen.push(m),
            Err(_) => break,
        }
    }
    let _ = sender.await;
    let _ = conn.await;
    match seen.first() {
        Some(Message::Text(t)) => {
            let v: Value = serde_json::from_str(t.as_str()).unwrap();
            assert_eq!(v["type"], "state", "{t}");
        }
        other => panic!("the state first, got {other:?}"),
    }
    if first_is_ping {
        match seen.get(1) {
            Some(Message::Text(t)) => assert_eq!(t.as_str(), r#"{"type":"pong"}"#),
            other => panic!("a pong, got {other:?}"),
        }
    }
    for m in &seen {
        if let Message::Close(Some(f)) = m {
            assert!(CODES.contains(&u16::from(f.code)), "{f:?}");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let messages: Vec<Message> = data.split(|&b| b == 0xff).filter_map(frame).collect();
    for m in &messages {
        if let Message::Text(t) = m {
            check_answer(t.as_str());
        }
    }
    let w = world();
    w.runtime.block_on(async {
        tokio::time::timeout(
            Duration::from_secs(10),
            exchange(w.router.clone(), w.game, messages),
        )
        .await
        .expect("the exchange ends within 10 s");
    });
});
