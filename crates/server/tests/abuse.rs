//! Hostile input and abuse (issue #13 §3): cross-site requests, names with
//! bidirectional controls, oversized socket messages, rate limits, and
//! idle or half-open connections.

use crate::common::*;
use reqwest::StatusCode;
use serde_json::{Value, json};

/// A request with the given content type and origin; the status and JSON
/// body.
async fn send(
    s: &TestServer,
    path: &str,
    content_type: Option<&str>,
    origin: Option<&str>,
    body: &Value,
) -> (StatusCode, Value) {
    let mut r = s.client.post(s.url(path)).body(body.to_string());
    if let Some(t) = content_type {
        r = r.header("content-type", t);
    }
    if let Some(o) = origin {
        r = r.header("origin", o);
    }
    let r = r.send().await.unwrap();
    let status = r.status();
    let text = r.text().await.unwrap();
    let v = serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"));
    (status, v)
}

async fn game_count(s: &TestServer) -> usize {
    let (status, v) = s.get("/api/games?limit=200").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    v["games"].as_array().unwrap().len()
}

const ANALYZE: &str = "/api/analyze";

fn create_body() -> Value {
    json!({"kind": "local"})
}

fn analyze_body() -> Value {
    json!({"time_ms": 50, "lines": 1})
}

#[tokio::test]
async fn state_changes_need_a_json_content_type() {
    let s = TestServer::start().await;
    for t in [
        None,
        Some("text/plain"),
        Some("application/x-www-form-urlencoded"),
    ] {
        let (status, v) = send(&s, "/api/games", t, None, &create_body()).await;
        assert_error(status, &v, 415, "unsupported_media_type");
        let (status, v) = send(&s, ANALYZE, t, None, &analyze_body()).await;
        assert_error(status, &v, 415, "unsupported_media_type");
    }
    assert_eq!(game_count(&s).await, 0);
    // A move with text/plain is refused too, and not played.
    let g = s.create(create_body()).await;
    let id = id_of(&g);
    let body = json!({"move": "d1", "token": token(&g, "white"), "ply": 0});
    let (status, v) = send(
        &s,
        &format!("/api/games/{id}/moves"),
        Some("text/plain"),
        None,
        &body,
    )
    .await;
    assert_error(status, &v, 415, "unsupported_media_type");
    assert_eq!(s.state(id).await["ply"], 0);
    // JSON with a charset parameter is JSON.
    let (status, v) = send(
        &s,
        "/api/games",
        Some("Application/JSON; charset=utf-8"),
        None,
        &create_body(),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
}

#[tokio::test]
async fn cross_origin_state_changes_are_refused() {
    let s = TestServer::start().await;
    let own = s.base.clone(); // http://127.0.0.1:PORT
    let json_type = Some("application/json");
    for origin in [
        "http://evil.example",
        "null",
        // The same host on another port is another origin.
        "http://127.0.0.1:1",
    ] {
        for t in [json_type, Some("text/plain")] {
            let (status, v) = send(&s, "/api/games", t, Some(origin), &create_body()).await;
            assert_error(status, &v, 403, "cross_origin");
            let (status, v) = send(&s, ANALYZE, t, Some(origin), &analyze_body()).await;
            assert_error(status, &v, 403, "cross_origin");
        }
    }
    assert_eq!(game_count(&s).await, 0);
    // The server's own origin (what the browser UI sends) is fine.
    let (status, v) = send(&s, "/api/games", json_type, Some(&own), &create_body()).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    assert_eq!(game_count(&s).await, 1);
    let (status, v) = send(&s, ANALYZE, json_type, Some(&own), &analyze_body()).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    // Reading needs no origin check.
    let r = s
        .client
        .get(s.url("/api/games"))
        .header("origin", "http://evil.example")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
}

#[tokio::test]
async fn a_rebound_host_name_is_not_the_same_origin() {
    // DNS rebinding: evil.example resolves to 127.0.0.1, so the browser
    // sends Host and Origin of evil.example.
    let s = TestServer::start().await;
    let port = s.base.rsplit(':').next().unwrap().to_string();
    let r = s
        .client
        .post(s.url("/api/games"))
        .header("host", format!("evil.example:{port}"))
        .header("origin", format!("http://evil.example:{port}"))
        .json(&create_body())
        .send()
        .await
        .unwrap();
    // The server does not answer to that name at all (not even reads).
    assert_eq!(r.status().as_u16(), 400);
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["code"], "unknown_host", "{v}");
    // localhost is this machine.
    let r = s
        .client
        .post(s.url("/api/games"))
        .header("host", format!("localhost:{port}"))
        .header("origin", format!("http://localhost:{port}"))
        .json(&create_body())
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::CREATED);
}

#[tokio::test]
async fn allowed_origins_may_change_state() {
    let s = TestServer::start_config(|c| {
        c.allowed_origins = vec!["https://brett.example.org".into()];
    })
    .await;
    let t = Some("application/json");
    let (status, v) = send(
        &s,
        "/api/games",
        t,
        Some("https://brett.example.org"),
        &create_body(),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let (status, v) = send(
        &s,
        "/api/games",
        t,
        Some("http://brett.example.org"),
        &create_body(),
    )
    .await;
    assert_error(status, &v, 403, "cross_origin");
}

#[tokio::test]
async fn a_bad_allowed_origin_stops_the_start() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = config(&dir.path().join("brett.db"), 30);
    c.allowed_origins = vec!["brett.example.org/path".into()];
    let err = server::start(c).await.err().expect("refused");
    assert!(err.to_string().contains("not an origin"), "{err}");
}

async fn ws_with_origin(
    s: &TestServer,
    id: i64,
    origin: &str,
) -> Result<Ws, tokio_tungstenite::tungstenite::Error> {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let url = format!("{}/api/games/{id}/ws", s.base.replace("http://", "ws://"));
    let mut req = url.into_client_request().unwrap();
    req.headers_mut().insert("origin", origin.parse().unwrap());
    tokio_tungstenite::connect_async(req)
        .await
        .map(|(ws, _)| ws)
}

#[tokio::test]
async fn sockets_from_foreign_origins_are_refused() {
    let s = TestServer::start().await;
    let id = id_of(&s.create(create_body()).await);
    match ws_with_origin(&s, id, "http://evil.example").await {
        Err(tokio_tungstenite::tungstenite::Error::Http(r)) => {
            assert_eq!(r.status().as_u16(), 403);
        }
        Err(e) => panic!("refused, but not by status: {e}"),
        Ok(_) => panic!("a socket from a foreign origin was opened"),
    }
    let own = s.base.clone();
    let mut ws = ws_with_origin(&s, id, &own).await.expect("own origin");
    let m = next_json(&mut ws).await;
    assert_eq!(m["type"], "state", "{m}");
}

#[tokio::test]
async fn names_with_bidirectional_controls_are_refused() {
    let s = TestServer::start().await;
    for c in [
        '\u{202E}', '\u{202D}', '\u{2066}', '\u{2067}', '\u{2068}', '\u{2069}', '\u{200F}',
    ] {
        let name = format!("Anna{c}1-0");
        let (status, v) = s
            .post("/api/games", json!({"kind": "online", "name": name}))
            .await;
        assert_error(status, &v, 400, "bad_request");
        assert!(
            v["error"].as_str().unwrap().contains("bidirectional"),
            "{v}"
        );
    }
    assert_eq!(game_count(&s).await, 0);
    // Joining with such a name is refused and leaves the seat free.
    let g = s.create(json!({"kind": "online", "name": "Anna"})).await;
    let id = id_of(&g);
    let invite = g["invite"]["token"].as_str().unwrap().to_string();
    let (status, v) = s
        .action(id, "join", json!({"token": invite, "name": "\u{202E}neB"}))
        .await;
    assert_error(status, &v, 400, "bad_request");
    assert_eq!(s.state(id).await["players"]["black"]["joined"], false);
    // Other scripts are names.
    let g = s
        .create(json!({"kind": "online", "name": "Ævar שרה"}))
        .await;
    assert_eq!(g["state"]["players"]["white"]["name"], "Ævar שרה");
}

#[tokio::test]
async fn imported_names_lose_bidirectional_controls() {
    let s = TestServer::start().await;
    let record = "[White \"A\u{202E}nna\"]\n[Black \"B\u{2066}en\u{2069}\"]\n\n1. d6 f4\n";
    let (status, v) = s.post("/api/games/import", json!({"record": record})).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let st = s.state(id_of(&v)).await;
    assert_eq!(st["players"]["white"]["name"], "Anna");
    assert_eq!(st["players"]["black"]["name"], "Ben");
}

#[tokio::test]
async fn an_empty_record_is_not_imported() {
    let s = TestServer::start().await;
    for record in ["", "   \n", "[White \"Anna\"]\n[Black \"Ben\"]\n", "*"] {
        let (status, v) = s.post("/api/games/import", json!({"record": record})).await;
        assert_error(status, &v, 400, "bad_request");
        assert!(v["error"].as_str().unwrap().contains("no moves"), "{v}");
    }
    let (status, v) = s
        .post(
            "/api/games/import",
            json!({"game": "dame", "record": "[GameType \"20\"]\n"}),
        )
        .await;
    assert_error(status, &v, 400, "bad_request");
    assert_eq!(game_count(&s).await, 0);
}

/// Send one message of `len` bytes and return the close code the server
/// answers with (`None`: the connection ended without a close frame).
async fn close_code_after(s: &TestServer, id: i64, len: usize, binary: bool) -> Option<u16> {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let mut ws = s.ws(id).await;
    assert_eq!(next_json(&mut ws).await["type"], "state");
    let (mut tx, mut rx) = ws.split();
    let msg = if binary {
        Message::Binary(vec![b'x'; len].into())
    } else {
        let pad = "x".repeat(len - 24);
        let text = format!(r#"{{"type":"ping","pad":"{pad}"}}"#);
        assert_eq!(text.len(), len);
        Message::Text(text.into())
    };
    // The server may stop reading before all of it is sent.
    let sender = tokio::spawn(async move {
        let _ = tx.send(msg).await;
        tx
    });
    let code = loop {
        let next = tokio::time::timeout(std::time::Duration::from_secs(10), rx.next())
            .await
            .expect("closed within 10 s");
        match next {
            None | Some(Err(_)) => break None,
            Some(Ok(Message::Close(frame))) => break frame.map(|f| u16::from(f.code)),
            Some(Ok(_)) => continue,
        }
    };
    sender.abort();
    code
}

#[tokio::test]
async fn oversized_socket_messages_close_with_1009() {
    let s = TestServer::start().await;
    let id = id_of(&s.create(create_body()).await);
    for len in [5_000, 64 * 1024, 64 * 1024 + 1, 100 * 1024, 1024 * 1024] {
        assert_eq!(
            close_code_after(&s, id, len, false).await,
            Some(1009),
            "text of {len} bytes"
        );
    }
    for len in [100 * 1024, 1024 * 1024] {
        assert_eq!(
            close_code_after(&s, id, len, true).await,
            Some(1009),
            "binary of {len} bytes"
        );
    }
    // The server is still fine.
    let mut ws = s.ws(id).await;
    assert_eq!(next_json(&mut ws).await["type"], "state");
}

fn retry_after(r: &reqwest::Response) -> u64 {
    r.headers()
        .get("retry-after")
        .expect("a Retry-After header")
        .to_str()
        .unwrap()
        .parse()
        .unwrap()
}

#[tokio::test]
async fn game_creation_is_rate_limited_per_client() {
    let s = TestServer::start_config(|c| c.games_per_minute = 3).await;
    // Refused requests do not count.
    for _ in 0..5 {
        let (status, v) = s.post("/api/games", json!({"kind": "nonsense"})).await;
        assert_error(status, &v, 400, "bad_request");
    }
    s.create(create_body()).await;
    s.create(create_body()).await;
    let (status, v) = s
        .post("/api/games/import", json!({"record": "1. d6 f4"}))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    for path in ["/api/games", "/api/games/import"] {
        let r = s
            .client
            .post(s.url(path))
            .json(&json!({"kind": "local", "record": "1. d6 f4"}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 429);
        let secs = retry_after(&r);
        assert!((1..=20).contains(&secs), "Retry-After {secs}");
        let v: Value = r.json().await.unwrap();
        assert_eq!(v["code"], "rate_limited", "{v}");
    }
    assert_eq!(game_count(&s).await, 3);
    // Reading is not limited.
    for _ in 0..10 {
        assert_eq!(s.get("/api/games").await.0, StatusCode::OK);
    }
}

#[tokio::test]
async fn wrong_tokens_are_rate_limited_per_client() {
    let s = TestServer::start_config(|c| c.wrong_tokens_per_minute = 2).await;
    let g = s.create(create_body()).await;
    let id = id_of(&g);
    let right = token(&g, "white");
    let black = token(&g, "black");
    // Right tokens do not count.
    let mut ply = 0;
    for (mv, t) in [
        ("d6", &right),
        ("f4", &black),
        ("d2", &right),
        ("f6", &black),
    ] {
        s.play_ok(id, t, ply, mv).await;
        ply += 1;
    }
    let (status, v) = s.get(&format!("/api/games/{id}?token={right}")).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    for guess in ["AAAA", "BBBB"] {
        let (status, v) = s.play(id, guess, ply, "b4").await;
        assert_error(status, &v, 403, "wrong_token");
    }
    let r = s
        .client
        .post(s.url(&format!("/api/games/{id}/moves")))
        .json(&json!({"move": "b4", "token": "CCCC", "ply": ply}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 429);
    let secs = retry_after(&r);
    assert!((1..=60).contains(&secs), "Retry-After {secs}");
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["code"], "rate_limited", "{v}");
    assert!(v["error"].as_str().unwrap().contains("wrong tokens"), "{v}");
    // Also other token guesses (resign, join) from this client wait.
    let (status, v) = s.action(id, "resign", json!({"token": "DDDD"})).await;
    assert_error(status, &v, 429, "rate_limited");
    let (status, v) = s.get(&format!("/api/games/{id}?token=EEEE")).await;
    assert_error(status, &v, 429, "rate_limited");
    // Reading the game without a token still works; nothing was changed.
    let st = s.state(id).await;
    assert_eq!(st["ply"], ply);
    assert_eq!(st["status"], "ongoing", "{st}");
}

/// Whether the server closes a raw connection within `secs` seconds
/// (reads until the end; what it sends before does not matter).
async fn closed_within(stream: &mut tokio::net::TcpStream, secs: f64) -> bool {
    use tokio::io::AsyncReadExt;
    let mut buf = [0u8; 4096];
    let deadline = std::time::Duration::from_secs_f64(secs);
    tokio::time::timeout(deadline, async {
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(_) => continue,
            }
        }
    })
    .await
    .is_ok()
}

async fn raw(s: &TestServer) -> tokio::net::TcpStream {
    tokio::net::TcpStream::connect(s.server.as_ref().unwrap().addr)
        .await
        .unwrap()
}

#[tokio::test]
async fn half_sent_headers_and_idle_connections_are_closed() {
    use tokio::io::AsyncWriteExt;
    let s = TestServer::start_config(|c| c.header_timeout = std::time::Duration::from_millis(500))
        .await;
    let started = std::time::Instant::now();
    // Part of a header, then nothing.
    let mut partial = raw(&s).await;
    partial
        .write_all(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        .await
        .unwrap();
    // Nothing at all.
    let mut silent = raw(&s).await;
    // A finished request on a keep-alive connection, then idle.
    let mut idle = raw(&s).await;
    idle.write_all(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .await
        .unwrap();
    for (name, conn) in [
        ("partial", &mut partial),
        ("silent", &mut silent),
        ("idle", &mut idle),
    ] {
        assert!(
            closed_within(conn, 5.0).await,
            "the {name} connection stays open"
        );
    }
    let took = started.elapsed();
    assert!(took >= std::time::Duration::from_millis(400), "{took:?}");
}

#[tokio::test]
async fn many_half_open_connections_do_not_starve_requests() {
    use tokio::io::AsyncWriteExt;
    let s = TestServer::start_config(|c| {
        c.header_timeout = std::time::Duration::from_millis(500);
        c.max_connections = 8;
    })
    .await;
    let mut held = Vec::new();
    for _ in 0..40 {
        let mut c = raw(&s).await;
        let _ = c
            .write_all(b"POST /api/games HTTP/1.1\r\nHost: x\r\n")
            .await;
        held.push(c);
    }
    // The slow clients are dropped after the header timeout; the request
    // is then served.
    let started = std::time::Instant::now();
    let r = tokio::time::timeout(
        std::time::Duration::from_secs(10),
        s.client.get(s.url("/api/games")).send(),
    )
    .await
    .expect("served within 10 s")
    .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    drop(held);
}

#[tokio::test]
async fn connections_over_the_limit_wait() {
    let s = TestServer::start_config(|c| {
        c.header_timeout = std::time::Duration::from_secs(30);
        c.max_connections = 3;
    })
    .await;
    let id = id_of(&s.create(create_body()).await);
    // The pooled connection that created the game and two game sockets
    // fill the limit (a raw connection queues behind them).
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(0)
        .build()
        .unwrap();
    let mut a = s.ws(id).await;
    let mut b = s.ws(id).await;
    assert_eq!(next_json(&mut a).await["type"], "state");
    assert_eq!(next_json(&mut b).await["type"], "state");
    let idle = raw(&s).await;
    let waiting = tokio::time::timeout(
        std::time::Duration::from_millis(700),
        client.get(s.url("/api/games")).send(),
    )
    .await;
    assert!(waiting.is_err(), "a fourth connection was served");
    drop(a);
    drop(b);
    drop(idle);
    let r = tokio::time::timeout(
        std::time::Duration::from_secs(5),
        client.get(s.url("/api/games")).send(),
    )
    .await
    .expect("served once connections closed")
    .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
}

/// The whole answer on a raw connection until the server closes it.
async fn answer_on(stream: &mut tokio::net::TcpStream, secs: f64) -> String {
    use tokio::io::AsyncReadExt;
    let mut data = Vec::new();
    let mut buf = [0u8; 4096];
    let _ = tokio::time::timeout(std::time::Duration::from_secs_f64(secs), async {
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(n) => data.extend_from_slice(&buf[..n]),
            }
        }
    })
    .await;
    String::from_utf8_lossy(&data).into_owned()
}

#[tokio::test]
async fn connections_over_the_limit_are_refused_clearly() {
    use tokio::io::AsyncWriteExt;
    let s = TestServer::start_config(|c| {
        c.header_timeout = std::time::Duration::from_secs(30);
        c.max_connections = 2;
        c.connection_wait = std::time::Duration::from_millis(1500);
        // The server's limit, not the address's, is tested here.
        c.max_connections_per_ip = 0;
    })
    .await;
    let id = id_of(&s.create(create_body()).await);
    // The pooled connection and a game socket fill the limit.
    let mut socket = s.ws(id).await;
    assert_eq!(next_json(&mut socket).await["type"], "state");
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(0)
        .build()
        .unwrap();
    // A third connection waits for a slot, then is refused with a 503 the
    // client can read.
    let started = std::time::Instant::now();
    let r = tokio::time::timeout(
        std::time::Duration::from_secs(5),
        client.get(s.url("/api/games")).send(),
    )
    .await
    .expect("answered within 5 s")
    .expect("an answer, not a reset");
    assert!(started.elapsed() >= std::time::Duration::from_millis(1400));
    assert_eq!(r.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(r.headers()["retry-after"], "5");
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["code"], "too_many_connections");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("too many connections")
    );
    // Beyond the connections that may wait (64 at this limit), the refusal
    // comes at once.
    let mut held = Vec::new();
    for _ in 0..72 {
        let mut c = raw(&s).await;
        let _ = c
            .write_all(b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n")
            .await;
        held.push(c);
    }
    // Within a second (the wait is 1.5 s), only those are answered.
    let answers = futures_util::future::join_all(held.iter_mut().map(|c| answer_on(c, 1.0))).await;
    let refused_at_once = answers
        .iter()
        .filter(|a| a.starts_with("HTTP/1.1 503") && a.contains("too_many_connections"))
        .count();
    assert_eq!(refused_at_once, 8, "{answers:?}");
    assert!(
        answers
            .iter()
            .all(|a| a.is_empty() || a.starts_with("HTTP/1.1 503"))
    );
    // The waiting ones are refused after the wait; none is served.
    let answers = futures_util::future::join_all(held.iter_mut().map(|c| answer_on(c, 3.0))).await;
    let refused_later = answers
        .iter()
        .filter(|a| a.starts_with("HTTP/1.1 503") && a.contains("too_many_connections"))
        .count();
    assert_eq!(refused_later, 64, "{answers:?}");
    drop(held);
    // Once the socket closes, connections are served again.
    drop(socket);
    let r = tokio::time::timeout(
        std::time::Duration::from_secs(5),
        client.get(s.url("/api/games")).send(),
    )
    .await
    .expect("served once a slot is free")
    .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
}

/// The frames a server sent on a raw WebSocket connection until it closed
/// it (or `secs` passed): (opcode, payload) each, and whether it closed.
async fn server_frames(
    stream: &mut tokio::net::TcpStream,
    secs: f64,
) -> (Vec<(u8, Vec<u8>)>, bool) {
    use tokio::io::AsyncReadExt;
    let mut data = Vec::new();
    let mut buf = [0u8; 4096];
    let ended = tokio::time::timeout(std::time::Duration::from_secs_f64(secs), async {
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(n) => data.extend_from_slice(&buf[..n]),
            }
        }
    })
    .await
    .is_ok();
    // Server frames are unmasked: opcode, 7-bit length (126: 16 bits
    // follow, 127: 64 bits), payload.
    let mut frames = Vec::new();
    let mut at = 0;
    while at + 2 <= data.len() {
        let opcode = data[at] & 0x0f;
        let mut len = usize::from(data[at + 1] & 0x7f);
        at += 2;
        if len == 126 {
            len = usize::from(u16::from_be_bytes([data[at], data[at + 1]]));
            at += 2;
        } else if len == 127 {
            len = u64::from_be_bytes(data[at..at + 8].try_into().unwrap()) as usize;
            at += 8;
        }
        frames.push((opcode, data[at..at + len].to_vec()));
        at += len;
    }
    (frames, ended)
}

/// A WebSocket opened over a raw connection (the handshake's answer read),
/// which answers nothing afterwards.
async fn raw_ws(s: &TestServer, id: i64) -> tokio::net::TcpStream {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = raw(s).await;
    let request = format!(
        "GET /api/games/{id}/ws HTTP/1.1\r\nHost: {}\r\nUpgrade: websocket\r\n\
         Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\
         Sec-WebSocket-Version: 13\r\n\r\n",
        s.server.as_ref().unwrap().addr
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    // Read the answer's header byte by byte, so no frame is taken with it.
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        stream.read_exact(&mut byte).await.unwrap();
        head.push(byte[0]);
    }
    let head = String::from_utf8(head).unwrap();
    assert!(head.starts_with("HTTP/1.1 101"), "{head}");
    stream
}

#[tokio::test]
async fn a_text_message_that_is_not_utf8_closes_with_1007() {
    use tokio::io::AsyncWriteExt;
    let s = TestServer::start().await;
    let id = id_of(&s.create(create_body()).await);
    let mut ws = raw_ws(&s, id).await;
    // A masked text frame (FIN, opcode 1) of two bytes that are not UTF-8.
    let mask = [0x12u8, 0x34, 0x56, 0x78];
    let payload = [0xffu8, 0xfe];
    let mut frame = vec![0x81, 0x80 | payload.len() as u8];
    frame.extend_from_slice(&mask);
    frame.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
    ws.write_all(&frame).await.unwrap();
    let (frames, ended) = server_frames(&mut ws, 5.0).await;
    assert!(ended, "the server closes the connection");
    let close = frames
        .iter()
        .find(|(op, _)| *op == 0x8)
        .expect("a close frame");
    assert_eq!(
        u16::from_be_bytes([close.1[0], close.1[1]]),
        1007,
        "{frames:?}"
    );
}

fn keepalive_server(c: &mut server::ServerConfig) {
    c.ws_ping_interval = std::time::Duration::from_millis(200);
    c.ws_idle_timeout = std::time::Duration::from_millis(700);
}

#[tokio::test]
async fn sockets_that_do_not_answer_pings_are_closed() {
    let s = TestServer::start_config(keepalive_server).await;
    let id = id_of(&s.create(create_body()).await);
    let mut stream = raw_ws(&s, id).await;
    let started = std::time::Instant::now();
    let (frames, ended) = server_frames(&mut stream, 5.0).await;
    assert!(ended, "the silent socket is closed");
    let after = started.elapsed();
    assert!(
        after >= std::time::Duration::from_millis(600),
        "not before the idle timeout: {after:?}"
    );
    let opcodes: Vec<u8> = frames.iter().map(|f| f.0).collect();
    // The state, pings (opcode 9), then a close (8) with 1001.
    assert_eq!(opcodes.first(), Some(&1), "{opcodes:?}");
    assert!(
        opcodes.iter().filter(|&&o| o == 9).count() >= 2,
        "{opcodes:?}"
    );
    let close = frames.last().unwrap();
    assert_eq!(close.0, 8, "{opcodes:?}");
    assert_eq!(u16::from_be_bytes([close.1[0], close.1[1]]), 1001);
}

#[tokio::test]
async fn sockets_that_answer_pings_stay_open() {
    use futures_util::StreamExt;
    use tokio_tungstenite::tungstenite::Message;
    let s = TestServer::start_config(keepalive_server).await;
    let id = id_of(&s.create(create_body()).await);
    // tungstenite answers every ping with a pong while it reads.
    let mut ws = s.ws(id).await;
    assert_eq!(next_json(&mut ws).await["type"], "state");
    let mut pings = 0;
    let until = tokio::time::Instant::now() + std::time::Duration::from_millis(2500);
    while let Ok(next) = tokio::time::timeout_at(until, ws.next()).await {
        match next {
            Some(Ok(Message::Ping(_))) => pings += 1,
            other => panic!("only pings while idle, got {other:?}"),
        }
    }
    assert!(pings >= 8, "pings every 200 ms: {pings}");
    // Still open, more than three idle timeouts later.
    send_text(&mut ws, r#"{"type":"ping"}"#).await;
    assert_eq!(next_json(&mut ws).await["type"], "pong");
}
