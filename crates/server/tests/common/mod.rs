//! A server on 127.0.0.1 (any free port) over a real SQLite file in a temp
//! folder, and small client helpers.
//!
//! PostgreSQL: `BRETT_TEST_POSTGRES=postgres://…` names a server on which
//! the tests may create databases (./test.sh starts one, tests/pg/start.sh);
//! tests that need it are skipped with a message when it is unset, and
//! fail instead when `BRETT_REQUIRE_POSTGRES=1`. With
//! `BRETT_TEST_BACKEND=postgres` every test server runs on a database of
//! its own there instead of an SQLite file (the same path, the same
//! database: restarts find their games).
#![allow(dead_code)]

mod member;
mod stored;

#[allow(unused_imports)]
pub use member::Member;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use reqwest::StatusCode;
use serde_json::{Value, json};
use server::{RunningServer, ServerConfig};
use tokio_tungstenite::tungstenite::Message;

#[allow(unused_imports)]
pub use member::*;
pub use stored::*;

pub type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

pub struct TestServer {
    pub server: Option<RunningServer>,
    pub base: String,
    pub client: reqwest::Client,
    pub db: PathBuf,
    pub dir: Option<tempfile::TempDir>,
}

/// The URL of database `name` on the server of `base`.
pub fn with_database(base: &str, name: &str) -> String {
    let (head, query) = match base.split_once('?') {
        Some((h, q)) => (h, format!("?{q}")),
        None => (base, String::new()),
    };
    let authority_end = head
        .find("://")
        .map(|i| i + 3)
        .and_then(|start| head[start..].find('/').map(|j| start + j))
        .unwrap_or(head.len());
    format!("{}/{name}{query}", &head[..authority_end])
}

/// Create database `name` on the server of `base` if it is not there.
pub async fn ensure_pg_database(base: &str, name: &str) {
    use sqlx::Connection;
    let mut conn = sqlx::PgConnection::connect(base).await.unwrap();
    let exists: Option<i32> = sqlx::query_scalar("SELECT 1 FROM pg_database WHERE datname = $1")
        .bind(name)
        .fetch_optional(&mut conn)
        .await
        .unwrap();
    if exists.is_none() {
        sqlx::raw_sql(sqlx::AssertSqlSafe(format!("CREATE DATABASE \"{name}\"")))
            .execute(&mut conn)
            .await
            .unwrap();
    }
    conn.close().await.unwrap();
}

/// A new, empty database on the server of `base`; its URL.
pub async fn new_pg_database(base: &str) -> String {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let name = format!(
        "brett_t{}_{n}_{:08x}",
        std::process::id(),
        fastrand::u32(..)
    );
    ensure_pg_database(base, &name).await;
    with_database(base, &name)
}

/// The database URL of the test server whose SQLite file is `db`: that
/// file, or with `BRETT_TEST_BACKEND=postgres` a PostgreSQL database of
/// its own for that path.
pub fn database_url_for(db: &std::path::Path) -> String {
    if std::env::var("BRETT_TEST_BACKEND").as_deref() != Ok("postgres") {
        return format!("sqlite://{}", db.display());
    }
    let base = postgres_url("BRETT_TEST_BACKEND=postgres")
        .expect("BRETT_TEST_BACKEND=postgres needs BRETT_TEST_POSTGRES");
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    db.hash(&mut h);
    let name = format!("brett_p{}_{:016x}", std::process::id(), h.finish());
    let (b, n) = (base.clone(), name.clone());
    // Called from sync code inside the tests' runtime: on a thread of its own.
    std::thread::spawn(move || {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
            .block_on(ensure_pg_database(&b, &n))
    })
    .join()
    .unwrap();
    with_database(&base, &name)
}

pub fn config(db: &std::path::Path, movetime_ms: u64) -> ServerConfig {
    ServerConfig {
        listen: "127.0.0.1:0".parse().unwrap(),
        database_url: Some(database_url_for(db)),
        computer_movetime_ms: Some(movetime_ms),
        engine_slots: Some(2),
        ..ServerConfig::default()
    }
}

impl TestServer {
    /// A server with a fresh database; the computer thinks 30 ms.
    pub async fn start() -> TestServer {
        TestServer::start_with(30).await
    }

    pub async fn start_with(movetime_ms: u64) -> TestServer {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("data").join("brett.db");
        let mut s = TestServer::on(db, movetime_ms).await;
        s.dir = Some(dir);
        s
    }

    /// A server with a fresh database and a configuration changed by `f`.
    pub async fn start_config(f: impl FnOnce(&mut ServerConfig)) -> TestServer {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("data").join("brett.db");
        let mut c = config(&db, 30);
        f(&mut c);
        let mut s = TestServer::with_config(db, c).await;
        s.dir = Some(dir);
        s
    }

    /// A server on an existing (or new) database file.
    pub async fn on(db: PathBuf, movetime_ms: u64) -> TestServer {
        let c = config(&db, movetime_ms);
        TestServer::with_config(db, c).await
    }

    /// A server with this configuration (`db`: the SQLite file it names,
    /// if any).
    pub async fn with_config(db: PathBuf, config: ServerConfig) -> TestServer {
        let server = server::start(config).await.unwrap();
        let base = format!("http://{}", server.addr);
        TestServer {
            server: Some(server),
            base,
            client: reqwest::Client::new(),
            db,
            dir: None,
        }
    }

    pub async fn stop(&mut self) {
        if let Some(s) = self.server.take() {
            s.stop().await.unwrap();
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    pub async fn post(&self, path: &str, body: Value) -> (StatusCode, Value) {
        let r = self.client.post(self.url(path)).json(&body).send().await;
        json_answer(r.unwrap()).await
    }

    /// `POST /api/games/{id}/{action}` (`draw`, `resign`, `takeback`,
    /// `join`, …) with `body`.
    pub async fn action(&self, id: i64, action: &str, body: Value) -> (StatusCode, Value) {
        self.post(&format!("/api/games/{id}/{action}"), body).await
    }

    /// `POST /api/games/{id}/draw`: `offer`, `accept` or `decline` with
    /// `token`.
    pub async fn draw(&self, id: i64, token: &str, what: &str) -> (StatusCode, Value) {
        let body = json!({"token": token, "action": what});
        self.action(id, "draw", body).await
    }

    pub async fn post_raw(
        &self,
        path: &str,
        body: impl Into<reqwest::Body>,
    ) -> (StatusCode, Value) {
        let r = self
            .client
            .post(self.url(path))
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await
            .unwrap();
        json_answer(r).await
    }

    /// `GET path`, the answer as it comes.
    pub async fn get_raw(&self, path: &str) -> reqwest::Response {
        self.client.get(self.url(path)).send().await.unwrap()
    }

    /// `GET path` with the header `name: value`.
    pub async fn get_with(&self, path: &str, name: &str, value: &str) -> reqwest::Response {
        let r = self.client.get(self.url(path)).header(name, value);
        r.send().await.unwrap()
    }

    pub async fn get(&self, path: &str) -> (StatusCode, Value) {
        json_answer(self.get_raw(path).await).await
    }

    pub async fn state(&self, id: i64) -> Value {
        let (status, v) = self.get(&format!("/api/games/{id}")).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        v
    }

    /// Create a game; panics unless 201.
    pub async fn create(&self, body: Value) -> Value {
        let (status, v) = self.post("/api/games", body).await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
        v
    }

    /// Play a move; returns the status and body.
    pub async fn play(&self, id: i64, token: &str, ply: u64, mv: &str) -> (StatusCode, Value) {
        self.post(
            &format!("/api/games/{id}/moves"),
            json!({"move": mv, "token": token, "ply": ply}),
        )
        .await
    }

    /// Play a move that must succeed.
    pub async fn play_ok(&self, id: i64, token: &str, ply: u64, mv: &str) -> Value {
        let (status, v) = self.play(id, token, ply, mv).await;
        assert_eq!(status, StatusCode::OK, "{mv} at ply {ply}: {v}");
        v
    }

    /// Poll the state until `pred` holds (at most `secs` seconds).
    pub async fn wait_for(&self, id: i64, secs: u64, pred: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            let s = self.state(id).await;
            if pred(&s) {
                return s;
            }
            assert!(Instant::now() < deadline, "timed out waiting; state: {s}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    pub async fn ws(&self, id: i64) -> Ws {
        let url = format!(
            "{}/api/games/{id}/ws",
            self.base.replace("http://", "ws://")
        );
        tokio_tungstenite::connect_async(url).await.unwrap().0
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(s) = self.server.take() {
            // Tests that did not stop the server: stop it in the background.
            if let Ok(rt) = tokio::runtime::Handle::try_current() {
                rt.spawn(async move {
                    let _ = s.stop().await;
                });
            }
        }
    }
}

/// An answer's status and its body, which must be JSON.
pub async fn json_answer(r: reqwest::Response) -> (StatusCode, Value) {
    let status = r.status();
    let text = r.text().await.unwrap();
    let v = serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"));
    (status, v)
}

/// The next text message of a socket, as JSON (fails after 10 s).
pub async fn next_json(ws: &mut Ws) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("a message within 10 s")
            .expect("the socket is open")
            .expect("no socket error");
        match msg {
            Message::Text(t) => return serde_json::from_str(t.as_str()).unwrap(),
            Message::Ping(_) | Message::Pong(_) => continue,
            other => panic!("unexpected message {other:?}"),
        }
    }
}

/// The next state message whose state satisfies `pred`.
pub async fn next_state_where(ws: &mut Ws, pred: impl Fn(&Value) -> bool) -> Value {
    loop {
        let m = next_json(ws).await;
        assert_eq!(m["type"], "state", "{m}");
        if pred(&m["state"]) {
            return m["state"].clone();
        }
    }
}

pub async fn send_text(ws: &mut Ws, text: &str) {
    ws.send(Message::Text(text.to_string().into()))
        .await
        .unwrap();
}

/// Whether the socket is closed (by a close frame or the connection ending)
/// within 10 s; returns the close code if there was a frame.
pub async fn closed(ws: &mut Ws) -> Option<u16> {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("closed within 10 s");
        match msg {
            None | Some(Err(_)) => return None,
            Some(Ok(Message::Close(frame))) => return frame.map(|f| u16::from(f.code)),
            Some(Ok(_)) => continue,
        }
    }
}

/// A game played to its end with a win, found by playing seeded random
/// moves (mill moves first) from the start.
pub fn winning_game() -> (Vec<String>, String, String) {
    for seed in 0..500u64 {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut game = muehle::Game::new(muehle::RuleSet::STANDARD);
        while !game.is_over() && game.ply() < 400 {
            let moves = game.legal_moves();
            let mills: Vec<_> = moves.iter().filter(|m| m.removal().is_some()).collect();
            let mv = if !mills.is_empty() {
                *mills[rng.usize(..mills.len())]
            } else {
                moves[rng.usize(..moves.len())]
            };
            game.play(mv).unwrap();
        }
        if let Some(o) = game.outcome()
            && o.winner.is_some()
        {
            return (
                game.moves().iter().map(|m| m.to_string()).collect(),
                o.result_str().to_string(),
                o.reason.code().to_string(),
            );
        }
    }
    panic!("no winning game found");
}

pub fn id_of(v: &Value) -> i64 {
    v["id"].as_i64().unwrap()
}

pub fn token(v: &Value, color: &str) -> String {
    v["tokens"][color].as_str().unwrap().to_string()
}

/// An error answer: the status, the code, and a message.
pub fn assert_error(status: StatusCode, body: &Value, want_status: u16, code: &str) {
    assert_eq!(status.as_u16(), want_status, "{body}");
    assert_eq!(body["code"], code, "{body}");
    assert!(
        body["error"].as_str().is_some_and(|e| !e.is_empty()),
        "{body}"
    );
}
