//! The JSON API: arbitrary bytes as the body of every POST endpoint, sent
//! through the server's real router (guard, body limit, JSON decoding,
//! handlers, the game hub) over an in-memory SQLite database. The first
//! byte picks the endpoint, the second the game; in the body `@W` and `@B`
//! stand for the white and black seat tokens of that game. No request may
//! panic or be answered 500, and every refusal is a JSON error.
#![no_main]

use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};
use server::{AppState, ServerConfig};
use tower::ServiceExt;

/// A game the requests act on, with its seat tokens.
struct Game {
    id: i64,
    white: String,
    black: String,
}

struct World {
    runtime: tokio::runtime::Runtime,
    router: axum::Router,
    games: Vec<Game>,
    /// Inputs run since the games were created.
    runs: u32,
}

fn config() -> ServerConfig {
    ServerConfig {
        database_url: Some("sqlite::memory:".into()),
        computer_movetime_ms: Some(1),
        engine_slots: Some(1),
        games_per_minute: 0,
        wrong_tokens_per_minute: 0,
        max_analysis_time: Some(Duration::from_millis(1)),
        ..ServerConfig::default()
    }
}

async fn send(router: &axum::Router, path: &str, body: Vec<u8>) -> (StatusCode, Vec<u8>) {
    let request = Request::post(path)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body))
        .unwrap();
    let response = router.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .unwrap();
    (status, bytes.to_vec())
}

/// Fresh games: local, online and computer games of Mühle and Dame, and
/// one with a few moves played.
async fn new_games(router: &axum::Router) -> Vec<Game> {
    let bodies = [
        json!({"kind": "local"}),
        json!({"kind": "local", "game": "dame"}),
        json!({"kind": "online", "name": "A"}),
        json!({"kind": "online", "game": "international"}),
        json!({"kind": "computer", "level": 1, "color": "black"}),
        json!({"kind": "computer", "game": "dame", "level": 1}),
        json!({"kind": "local", "rules": "no-flying"}),
    ];
    let mut games = Vec::new();
    for body in bodies {
        let (status, answer) = send(router, "/api/games", body.to_string().into_bytes()).await;
        assert_eq!(
            status,
            StatusCode::CREATED,
            "{}",
            String::from_utf8_lossy(&answer)
        );
        let v: Value = serde_json::from_slice(&answer).unwrap();
        let token = |side: &str| v["tokens"][side].as_str().unwrap_or("").to_string();
        let invite = v["invite"]["token"].as_str().map(str::to_string);
        let (mut white, mut black) = (token("white"), token("black"));
        if let Some(t) = invite {
            if white.is_empty() {
                white = t;
            } else {
                black = t;
            }
        }
        games.push(Game {
            id: v["id"].as_i64().unwrap(),
            white,
            black,
        });
    }
    games
}

fn world() -> &'static Mutex<World> {
    static WORLD: OnceLock<Mutex<World>> = OnceLock::new();
    WORLD.get_or_init(|| {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let (router, games) = runtime.block_on(async {
            let state = AppState::open(&config()).await.unwrap();
            let router = server::app(state);
            let games = new_games(&router).await;
            (router, games)
        });
        Mutex::new(World {
            runtime,
            router,
            games,
            runs: 0,
        })
    })
}

const ENDPOINTS: [&str; 10] = [
    "/api/games",
    "/api/games/import",
    "/api/analyze",
    "/api/games/{}/moves",
    "/api/games/{}/huff",
    "/api/games/{}/draw",
    "/api/games/{}/resign",
    "/api/games/{}/takeback",
    "/api/games/{}/join",
    "/api/games/{}/record",
];

fn replace(body: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len());
    let mut i = 0;
    while i < body.len() {
        if body[i..].starts_with(from) {
            out.extend_from_slice(to);
            i += from.len();
        } else {
            out.push(body[i]);
            i += 1;
        }
    }
    out
}

fuzz_target!(|data: &[u8]| {
    let [which, game, body @ ..] = data else {
        return;
    };
    let mut world = world().lock().unwrap_or_else(|e| e.into_inner());
    let World {
        runtime,
        router,
        games,
        runs,
    } = &mut *world;
    runtime.block_on(async {
        // Games get played to their ends; start afresh now and then.
        *runs += 1;
        if *runs >= 500 {
            *runs = 0;
            *games = new_games(router).await;
        }
        let g = &games[usize::from(*game) % games.len()];
        let endpoint = ENDPOINTS[usize::from(*which) % ENDPOINTS.len()];
        let path = endpoint.replace("{}", &g.id.to_string());
        let body = replace(body, b"@W", g.white.as_bytes());
        let body = replace(&body, b"@B", g.black.as_bytes());
        let (status, answer) = send(router, &path, body).await;
        let text = String::from_utf8_lossy(&answer);
        assert_ne!(status, StatusCode::INTERNAL_SERVER_ERROR, "{path}: {text}");
        if status.is_client_error() || status.is_server_error() {
            let v: Value = serde_json::from_slice(&answer)
                .unwrap_or_else(|e| panic!("{path}: {status} not JSON ({e}): {text}"));
            assert!(
                v["error"].is_string() && v["code"].is_string(),
                "{path}: {text}"
            );
        }
    });
});
