//! The server under attack: one address holding all it may, the host
//! check and the browser's protections, requests with a malformed head,
//! the wrong-token limits behind a proxy, and records at the size limits.

use std::net::{IpAddr, SocketAddr};
use std::time::{Duration, Instant};

use crate::common::*;
use reqwest::StatusCode;
use serde_json::{Value, json};
use server::storage::{self, GameMeta, NewGame, Seat};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

fn create_body() -> Value {
    json!({"game": "muehle", "kind": "local"})
}

/// A TCP connection to the server from the loopback address `from`.
async fn connect_from(from: IpAddr, to: SocketAddr) -> std::io::Result<tokio::net::TcpStream> {
    let socket = tokio::net::TcpSocket::new_v4()?;
    socket.bind(SocketAddr::new(from, 0))?;
    socket.connect(to).await
}

/// What the server answers on a raw connection until it closes it or
/// `secs` pass.
async fn answer(stream: &mut tokio::net::TcpStream, secs: f64) -> String {
    read_until(stream, None, secs).await
}

/// What the server sends on a raw connection until `needle` comes (if
/// given), it closes, or `secs` pass.
async fn read_until(stream: &mut tokio::net::TcpStream, needle: Option<&str>, secs: f64) -> String {
    let mut data = Vec::new();
    let mut buf = [0u8; 4096];
    let _ = tokio::time::timeout(Duration::from_secs_f64(secs), async {
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(n) => data.extend_from_slice(&buf[..n]),
            }
            if needle.is_some_and(|n| String::from_utf8_lossy(&data).contains(n)) {
                return;
            }
        }
    })
    .await;
    String::from_utf8_lossy(&data).into_owned()
}

/// Send `request` on a new connection and read the answer.
async fn raw_request(s: &TestServer, request: &[u8]) -> String {
    let addr = s.server.as_ref().unwrap().addr;
    let mut c = tokio::net::TcpStream::connect(addr).await.unwrap();
    c.write_all(request).await.unwrap();
    answer(&mut c, 3.0).await
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

/// The issue's attack: one address opens 512 idle WebSockets and 512
/// half-open connections. It gets what the per-address limits allow (64
/// connections, 32 of them sockets) and is refused the rest at once; a
/// client at another address is served as if nothing happened.
#[tokio::test]
async fn one_address_holding_its_maximum_does_not_slow_another() {
    let s = TestServer::start_config(|c| {
        c.header_timeout = Duration::from_secs(30);
    })
    .await;
    let addr = s.server.as_ref().unwrap().addr;
    let id = id_of(&s.create(create_body()).await);
    let hostile: IpAddr = "127.0.0.1".parse().unwrap();
    let honest: IpAddr = "127.0.0.2".parse().unwrap();

    // 512 WebSockets, each an idle socket on a game.
    let mut sockets = Vec::new();
    let (mut refused_sockets, mut refused_connections) = (0, 0);
    let started = Instant::now();
    for _ in 0..512 {
        let Ok(mut c) = connect_from(hostile, addr).await else {
            refused_connections += 1;
            continue;
        };
        let request = format!(
            "GET /api/games/{id}/ws HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\n\
             Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\
             Sec-WebSocket-Version: 13\r\n\r\n"
        );
        if c.write_all(request.as_bytes()).await.is_err() {
            refused_connections += 1;
            continue;
        }
        let mut head = [0u8; 12];
        match tokio::time::timeout(Duration::from_secs(5), c.read_exact(&mut head)).await {
            Ok(Ok(_)) if head.starts_with(b"HTTP/1.1 101") => sockets.push(c),
            Ok(Ok(_)) if head.starts_with(b"HTTP/1.1 429") => {
                let rest = read_until(&mut c, Some("too_many_connections"), 5.0).await;
                assert!(rest.contains("too_many_connections"), "{rest}");
                refused_sockets += 1;
            }
            other => panic!("unexpected answer to a socket: {other:?} {head:?}"),
        }
    }
    eprintln!(
        "512 sockets from one address: {} open, {refused_sockets} refused by the socket limit, \
         {refused_connections} by the connection limit, in {:?}",
        sockets.len(),
        started.elapsed()
    );
    assert_eq!(sockets.len(), 32);
    // (The server sees the refused ones' connections end.)
    tokio::time::sleep(Duration::from_millis(300)).await;
    // 512 half-open connections: a header that never ends.
    let mut half_open = Vec::new();
    let mut refused_at_once = 0;
    for _ in 0..512 {
        let mut c = connect_from(hostile, addr).await.unwrap();
        let _ = c.write_all(b"GET /api/games HTTP/1.1\r\nHost: ").await;
        half_open.push(c);
    }
    for c in &mut half_open {
        let a = answer(c, 0.05).await;
        if a.starts_with("HTTP/1.1 429") {
            refused_at_once += 1;
        }
    }
    eprintln!("512 half-open connections from one address: {refused_at_once} refused at once");
    // 64 in all: the 32 sockets, these, and the idle connection that
    // created the game (if the client kept it).
    assert!(
        (512 - 32..=512 - 31).contains(&refused_at_once),
        "the address holds 64 connections: {refused_at_once}"
    );

    // Another address is served at once, on new connections each time.
    let client = reqwest::Client::builder()
        .local_address(honest)
        .pool_max_idle_per_host(0)
        .build()
        .unwrap();
    let mut times = Vec::new();
    for i in 0..200 {
        let t = Instant::now();
        let path = if i % 2 == 0 {
            format!("/api/games/{id}")
        } else {
            "/api/games".to_string()
        };
        let r = client.get(s.url(&path)).send().await.unwrap();
        assert_eq!(r.status(), StatusCode::OK);
        r.bytes().await.unwrap();
        times.push(t.elapsed());
    }
    // And its live game socket opens.
    let mut c = connect_from(honest, addr).await.unwrap();
    c.write_all(
        format!(
            "GET /api/games/{id}/ws HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\n\
             Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\
             Sec-WebSocket-Version: 13\r\n\r\n"
        )
        .as_bytes(),
    )
    .await
    .unwrap();
    let mut head = [0u8; 12];
    c.read_exact(&mut head).await.unwrap();
    assert!(head.starts_with(b"HTTP/1.1 101"));
    times.sort();
    let (p50, p99) = (percentile(&times, 0.5), percentile(&times, 0.99));
    eprintln!("another address meanwhile: 200 requests, p50 {p50:?}, p99 {p99:?}");
    assert!(p99 < Duration::from_millis(100), "p99 {p99:?}");
    drop(sockets);
    drop(half_open);
}

#[tokio::test]
async fn every_answer_carries_the_browsers_protections() {
    let s = TestServer::start().await;
    let id = id_of(&s.create(create_body()).await);
    for path in [
        "/".to_string(),
        "/app.js".into(),
        "/style.css".into(),
        "/api/games".into(),
        format!("/api/games/{id}"),
        "/api/nothing".into(),
        "/no/such/page".into(),
    ] {
        let r = s.get_raw(&path).await;
        let h = r.headers();
        let csp = h["content-security-policy"].to_str().unwrap();
        for part in [
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self'",
            "frame-ancestors 'none'",
        ] {
            assert!(csp.contains(part), "{path}: {csp}");
        }
        assert!(!csp.contains("unsafe-inline"), "{path}: {csp}");
        assert_eq!(h["x-frame-options"], "DENY", "{path}");
        assert_eq!(h["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(h["referrer-policy"], "no-referrer", "{path}");
    }
    // Error answers and refusals too.
    let (status, _) = s.post("/api/games", json!({"kind": "nonsense"})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let r = s
        .client
        .post(s.url("/api/games"))
        .json(&json!({"kind": "nonsense"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.headers()["x-frame-options"], "DENY");
    let a = raw_request(&s, b"GET / HTTP/1.1\r\nHost: evil.example\r\n\r\n").await;
    assert!(
        a.to_ascii_lowercase().contains("x-frame-options: deny"),
        "{a}"
    );
}

#[tokio::test]
async fn hosts_other_than_the_servers_names_are_refused() {
    let s = TestServer::start_config(|c| c.public_hosts = vec!["brett.example.org".into()]).await;
    s.create(create_body()).await;
    let port = s.server.as_ref().unwrap().addr.port();
    let get = |host: String| {
        let s = &s;
        async move {
            let r = s.get_with("/api/games", "host", &host).await;
            let status = r.status();
            (status, r.json::<Value>().await.unwrap())
        }
    };
    // DNS rebinding: a page of evil.example reading the archive.
    let (status, v) = get(format!("evil.example:{port}")).await;
    assert_error(status, &v, 400, "unknown_host");
    assert!(v.get("games").is_none(), "{v}");
    for ok in [
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        format!("[::1]:{port}"),
        "brett.example.org".into(),
        format!("BRETT.example.org:{port}"),
    ] {
        let (status, v) = get(ok.clone()).await;
        assert_eq!(status, StatusCode::OK, "{ok}: {v}");
        assert_eq!(v["total"], 1, "{ok}");
    }
    // No Host, two Host headers, a bare LF: 400.
    for request in [
        &b"GET /api/games HTTP/1.1\r\n\r\n"[..],
        b"GET /api/games HTTP/1.0\r\n\r\n",
        b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n",
        b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: 127.0.0.1\r\n\r\n",
        b"GET /api/games HTTP/1.1\nHost: 127.0.0.1\n\n",
        b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\n\r\n",
    ] {
        let a = raw_request(&s, request).await;
        assert!(
            a.starts_with("HTTP/1.") && a[..12].ends_with(" 400"),
            "{:?}: {a}",
            String::from_utf8_lossy(request)
        );
        assert!(a.contains("\"code\":\"bad_request\""), "{a}");
    }
    // A well-formed request after another on the same connection is served;
    // a malformed one after it is refused and ends the connection.
    let a = raw_request(
        &s,
        b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n\
          GET /api/games HTTP/1.1\nHost: 127.0.0.1\n\n\
          GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    )
    .await;
    assert!(a.starts_with("HTTP/1.1 200"), "{a}");
    assert_eq!(a.matches("HTTP/1.1 ").count(), 2, "{a}");
    assert!(a.contains("HTTP/1.1 400"), "{a}");
}

#[test]
fn listening_beyond_this_machine_is_announced() {
    let mut c = server::ServerConfig::default();
    assert_eq!(server::exposure_warning(&c), None);
    c.listen = "0.0.0.0:8080".parse().unwrap();
    let w = server::exposure_warning(&c).unwrap();
    assert!(w.contains("every network interface"), "{w}");
    assert!(w.contains("--public-host"), "{w}");
    assert!(w.contains("TLS"), "{w}");
    c.listen = "192.168.1.5:8080".parse().unwrap();
    c.public_hosts = vec!["brett.lan".into()];
    let w = server::exposure_warning(&c).unwrap();
    assert!(w.contains("192.168.1.5") && w.contains("brett.lan"), "{w}");
}

#[tokio::test]
async fn a_declared_body_over_the_limit_is_refused_at_once() {
    let s = TestServer::start().await;
    for (path, len) in [
        ("/api/games", 64 * 1024 + 1),
        ("/api/games/import", 4 * 1024 * 1024 + 1),
    ] {
        let started = Instant::now();
        let a = raw_request(
            &s,
            format!(
                "POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
                 Content-Length: {len}\r\n\r\n{{"
            )
            .as_bytes(),
        )
        .await;
        assert!(a.starts_with("HTTP/1.1 413"), "{path}: {a}");
        assert!(a.contains("too_large"), "{a}");
        assert!(
            started.elapsed() < Duration::from_secs(1),
            "{path}: {:?}",
            started.elapsed()
        );
    }
    // At the limit the body is read as usual.
    let mut body = r#"{"kind": "local"}"#.to_string();
    body.push_str(&" ".repeat(64 * 1024 - body.len()));
    let (status, v) = s.post_raw("/api/games", body).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
}

/// The wrong-token limit counts by client and by game; a right token is
/// never refused. Behind a trusted proxy the client is the one it names.
#[tokio::test]
async fn a_right_token_is_never_refused_for_wrong_ones() {
    let s = TestServer::start_config(|c| {
        c.wrong_tokens_per_minute = 3;
        c.trusted_proxies = vec!["127.0.0.1".into()];
    })
    .await;
    let g = s.create(create_body()).await;
    let id = id_of(&g);
    let white = token(&g, "white");
    let post = |body: Value, from: &'static str| {
        let s = &s;
        async move {
            let r = s
                .client
                .post(s.url(&format!("/api/games/{id}/moves")))
                .header("x-forwarded-for", from)
                .json(&body)
                .send()
                .await
                .unwrap();
            let status = r.status();
            (status, r.json::<Value>().await.unwrap())
        }
    };
    // Client A (behind the proxy) guesses until refused.
    for guess in ["AAAA", "BBBB", "CCCC"] {
        let (status, v) = post(
            json!({"move": "d6", "token": guess, "ply": 0}),
            "203.0.113.1",
        )
        .await;
        assert_error(status, &v, 403, "wrong_token");
    }
    let (status, v) = post(
        json!({"move": "d6", "token": "DDDD", "ply": 0}),
        "203.0.113.1",
    )
    .await;
    assert_error(status, &v, 429, "rate_limited");
    // The right token, from the same client, is served.
    let (status, v) = post(
        json!({"move": "d6", "token": white, "ply": 0}),
        "203.0.113.1",
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    // Another client behind the proxy guessing on another game is counted
    // on its own.
    let other = id_of(&s.create(create_body()).await);
    let r = s
        .client
        .post(s.url(&format!("/api/games/{other}/resign")))
        .header("x-forwarded-for", "203.0.113.2")
        .json(&json!({"token": "EEEE"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 403);
    // The game has had as many wrong tokens as it may: further ones are
    // refused, from anyone; its players still play.
    for from in ["198.51.100.1", "198.51.100.2", "198.51.100.3"] {
        let (status, v) = post(json!({"move": "f4", "token": "GGGG", "ply": 1}), from).await;
        assert_error(status, &v, 429, "rate_limited");
    }
    let black = token(&g, "black");
    let (status, v) = post(
        json!({"move": "f4", "token": black, "ply": 1}),
        "198.51.100.4",
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    // Reading with a wrong token counts too (it tells whether the token
    // holds a seat).
    let (status, v) = s.get(&format!("/api/games/{id}?token=HHHH")).await;
    assert_error(status, &v, 429, "rate_limited");
    let (status, v) = s.get(&format!("/api/games/{id}?token={white}")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["you"], "white");
}

#[tokio::test]
async fn forwarded_addresses_of_untrusted_peers_are_ignored() {
    let s = TestServer::start_config(|c| c.wrong_tokens_per_minute = 2).await;
    let mut ids = Vec::new();
    for _ in 0..3 {
        ids.push(id_of(&s.create(create_body()).await));
    }
    // Without --trusted-proxy every request counts against 127.0.0.1,
    // whatever it claims.
    let mut statuses = Vec::new();
    for (i, id) in ids.iter().enumerate() {
        let r = s
            .client
            .post(s.url(&format!("/api/games/{id}/resign")))
            .header("x-forwarded-for", format!("203.0.113.{i}"))
            .json(&json!({"token": "WRONG"}))
            .send()
            .await
            .unwrap();
        statuses.push(r.status().as_u16());
    }
    assert_eq!(statuses, [403, 403, 429]);
}

/// A game played by seeded random moves that make no mill, under rules
/// without draw rules: `plies` moves (a new seed when a side is blocked).
fn long_game(rules: &str, plies: usize) -> Vec<String> {
    let rules: muehle::RuleSet = rules.parse().unwrap();
    'seeds: for seed in 0..100u64 {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut game = muehle::Game::new(rules);
        while game.ply() < plies {
            if game.is_over() {
                continue 'seeds;
            }
            let moves = game.legal_moves();
            let quiet: Vec<_> = moves.iter().filter(|m| m.removal().is_none()).collect();
            let mv = if quiet.is_empty() {
                moves[rng.usize(..moves.len())]
            } else {
                *quiet[rng.usize(..quiet.len())]
            };
            game.play(mv).unwrap();
        }
        return game.moves().iter().map(|m| m.to_string()).collect();
    }
    panic!("no game of {plies} plies found");
}

/// Store a local game with `moves` straight into the server's database;
/// returns its id and White's and Black's tokens.
async fn stored_game(s: &TestServer, rules: &str, moves: Vec<String>) -> (i64, String, String) {
    let db = storage::open(&database_url_for(&s.db)).await.unwrap();
    let seat = |t: &str| Seat {
        token_hash: Some(server::util::token_hash(t)),
        name: None,
        joined: true,
        level: None,
        account: None,
    };
    let id = db
        .create_game(NewGame {
            game: storage::Variant::Muehle,
            kind: "local".into(),
            rules: rules.into(),
            start_position: ".../.../.../....../.../.../... w 9 9 0 1".into(),
            moves,
            move_clocks: Vec::new(),
            meta: GameMeta {
                status: storage::Status::Ongoing,
                updated_at: "2026-11-27T10:00:00Z".into(),
                ..GameMeta::default()
            },
            seats: [seat("white-token"), seat("black-token")],
            tags: Vec::new(),
            created_at: "2026-11-27T10:00:00Z".into(),
        })
        .await
        .unwrap();
    db.close().await;
    (id, "white-token".into(), "black-token".into())
}

async fn export(s: &TestServer, id: i64) -> String {
    let r = s.get_raw(&format!("/api/games/{id}/record")).await;
    assert_eq!(r.status(), StatusCode::OK);
    r.text().await.unwrap()
}

/// What brett exports, brett imports: a game without draw rules whose
/// record is far over the 64 KiB of other requests, and a game at the most
/// moves brett keeps (where further moves are refused and the computer
/// accepts a draw).
#[tokio::test]
async fn every_record_brett_exports_it_imports() {
    const RULES: &str = "standard,no-mill=off,repetition=off";
    let s = TestServer::start().await;
    let moves = long_game(RULES, 9_000);
    let (id, _, _) = stored_game(&s, RULES, moves.clone()).await;
    let record = export(&s, id).await;
    assert!(record.len() > 64 * 1024, "{} bytes", record.len());
    let (status, v) = s
        .post("/api/games/import", json!({ "record": record }))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let imported = s.state(id_of(&v)).await;
    assert_eq!(imported["moves"], json!(moves));
    assert_eq!(imported["rules"], RULES);

    let max = server::registry::MAX_GAME_PLIES;
    let moves = long_game(RULES, max);
    let (id, white, _) = stored_game(&s, RULES, moves.clone()).await;
    let st = s.state(id).await;
    assert_eq!(st["ply"], max);
    let t = if st["turn"] == "white" {
        white
    } else {
        "black-token".into()
    };
    let mv = st["legal_moves"][0].as_str().unwrap().to_string();
    let (status, v) = s.play(id, &t, max as u64, &mv).await;
    assert_error(status, &v, 409, "not_allowed");
    let record = export(&s, id).await;
    eprintln!(
        "a record of {max} plies: {} KiB (import limit {} KiB)",
        record.len() / 1024,
        server::error::IMPORT_LIMIT / 1024
    );
    let (status, v) = s
        .post("/api/games/import", json!({ "record": record.clone() }))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    assert_eq!(s.state(id_of(&v)).await["moves"], json!(moves));
    // One more move than brett keeps is not imported.
    let longer = long_game(RULES, max + 1);
    let (id, _, _) = stored_game(&s, RULES, longer).await;
    let record = export(&s, id).await;
    let (status, v) = s
        .post("/api/games/import", json!({ "record": record }))
        .await;
    assert_error(status, &v, 400, "bad_request");
}
