//! Databases written at an earlier schema (tests/data/README.md: the
//! pending huff of a Dame game in a column of its own) open with the
//! current code and migrate, and every game stays as it was: the API
//! answers for it what it answered then (state, record, archive), `brett
//! db export` writes the same lines, the stored versions and pending huffs
//! are kept, and every game goes on from where it stood.

use std::path::{Path, PathBuf};

use crate::common::*;
use reqwest::StatusCode;
use serde_json::{Value, json};
use server::storage::{self, GameRecord};

/// What a database of tests/data held when it was written.
struct Fixture {
    /// Per game: `id`, `note`, `tokens`, `state`, `record`.
    games: Vec<Value>,
    /// `GET /api/games?limit=200`.
    archive: Value,
    /// The lines of `brett db export`, without its header.
    export: Vec<String>,
}

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("data")
        .join(name)
}

fn read(name: &str) -> String {
    std::fs::read_to_string(data(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn fixture(backend: &str) -> Fixture {
    let expected: Value =
        serde_json::from_str(&read(&format!("schema-20261127.{backend}.json"))).unwrap();
    let export = read(&format!("schema-20261127.{backend}.export.jsonl"));
    Fixture {
        games: expected["games"].as_array().unwrap().clone(),
        archive: expected["archive"].clone(),
        export: export.lines().skip(1).map(str::to_string).collect(),
    }
}

/// The fields the API added since the fixtures were written: the clock of
/// a timed game, the archive's time control, the players' connections.
const ADDED_FIELDS: [&str; 4] = ["clock", "time_control", "online", "away_ms"];

/// `new` says what `old` said: the same values, plus only fields added
/// since ([`ADDED_FIELDS`]).
fn assert_extends(new: &Value, old: &Value, what: &str) {
    match (new, old) {
        (Value::Object(n), Value::Object(o)) => {
            for (k, v) in n {
                match o.get(k) {
                    Some(ov) => assert_extends(v, ov, &format!("{what}.{k}")),
                    None => assert!(ADDED_FIELDS.contains(&k.as_str()), "{what}: new field {k}"),
                }
            }
            for k in o.keys() {
                assert!(n.contains_key(k), "{what}: field {k} is gone");
            }
        }
        (Value::Array(n), Value::Array(o)) => {
            assert_eq!(n.len(), o.len(), "{what}");
            for (i, (a, b)) in n.iter().zip(o).enumerate() {
                assert_extends(a, b, &format!("{what}[{i}]"));
            }
        }
        _ => assert_eq!(new, old, "{what}"),
    }
}

/// When the fixtures were written (2026-11-27T18:30:00Z): the servers of
/// these tests go by a clock standing then, so that the fixtures' open
/// invitations have not expired ([`server::registry::INVITATION_HOURS`]),
/// whatever day the tests run on.
const WRITTEN_MS: i64 = 1_795_804_200_000;

/// A server on the database at `url`.
async fn server_on(url: &str) -> TestServer {
    let mut c = config(Path::new("unused"), 30);
    c.database_url = Some(url.to_string());
    c.time = server::clocks::Time(server::clocks::ManualClock::new(WRITTEN_MS));
    TestServer::with_config(PathBuf::new(), c).await
}

async fn text(s: &TestServer, path: &str) -> String {
    let r = s.get_raw(path).await;
    assert_eq!(r.status(), StatusCode::OK, "{path}");
    r.text().await.unwrap()
}

/// Open the database at `url` (the first open migrates it) and check every
/// game of `f` in it, then play on in each.
async fn check(url: &str, f: &Fixture) {
    // The API answers as it did.
    let mut s = server_on(url).await;
    for g in &f.games {
        let id = id_of(g);
        let what = format!("game {id} ({})", g["note"]);
        assert_extends(&s.state(id).await, &g["state"], &what);
        let record = text(&s, &format!("/api/games/{id}/record")).await;
        assert_eq!(record, g["record"].as_str().unwrap(), "record of game {id}");
    }
    let (status, archive) = s.get("/api/games?limit=200").await;
    assert_eq!(status, StatusCode::OK);
    assert_extends(&archive, &f.archive, "the archive");
    s.stop().await;

    // The storage holds what it held: the same export, and each game with
    // its moves, version and pending huff.
    let db = storage::open(url).await.unwrap();
    let records = db.export_games(0, 1000).await.unwrap();
    let lines: Vec<String> = records.iter().map(GameRecord::to_line).collect();
    assert_eq!(lines, f.export);
    assert!(records.iter().any(|r| r.pending_huff.is_some()));
    for r in &records {
        let g = db.load_game(r.id).await.unwrap().unwrap();
        assert_eq!(g.version, r.version, "game {}", r.id);
        assert_eq!(g.meta.pending_huff, r.pending_huff, "game {}", r.id);
        assert_eq!(g.meta.status.name(), r.status, "game {}", r.id);
        assert_eq!(g.game.name(), r.game, "game {}", r.id);
        let moves: Vec<&str> = r.moves.iter().map(|m| m.mv.as_str()).collect();
        assert_eq!(g.moves, moves, "game {}", r.id);
    }
    db.close().await;

    // Every game goes on where it stood: the side to move (when its token
    // is known and the game is not waiting for its invited player) plays,
    // at the stored ply; a pending huff goes with that move.
    let s = server_on(url).await;
    let mut played = 0;
    for g in &f.games {
        let id = id_of(g);
        let st = &g["state"];
        let turn = st["turn"].as_str().unwrap();
        let Some(token) = g["tokens"][turn].as_str() else {
            continue;
        };
        let ply = st["ply"].as_u64().unwrap();
        let waiting = st["kind"] == "online"
            && st["players"]
                .as_object()
                .is_some_and(|p| p.values().any(|p| p["joined"] == false));
        if st["status"] == "over" || waiting {
            let (status, body) = s.play(id, token, ply, "a1").await;
            assert_ne!(status, StatusCode::OK, "game {id}: {body}");
            continue;
        }
        let mv = st["legal_moves"][0].as_str().unwrap();
        let after = s.play_ok(id, token, ply, mv).await;
        assert_eq!(after["ply"], ply + 1, "game {id}");
        if let Some(square) = st["pending_huff"].as_str() {
            assert_eq!(after["pending_huff"], Value::Null, "game {id}");
            assert_eq!(after["huffs"][ply as usize], square, "game {id}: {after}");
            if st["kind"] == "local" {
                let (status, back) = s.action(id, "takeback", json!({"token": token})).await;
                assert_eq!(status, StatusCode::OK, "{back}");
                assert_eq!(back["ply"], ply, "game {id}");
                assert_eq!(back["pending_huff"], Value::Null, "game {id}");
                assert_eq!(back["moves"], st["moves"], "game {id}");
            }
        }
        if st["kind"] == "computer" {
            s.wait_for(id, 20, |v| v["ply"] == ply + 2 && v["thinking"] == false)
                .await;
        }
        played += 1;
    }
    // The ongoing games whose player to move holds a token of the fixture.
    assert_eq!(played, 13, "games played on");
}

/// The databases of the schema before have no `pending_huff` column any
/// more once migrated.
async fn has_pending_huff_column(url: &str) -> bool {
    use sqlx::Connection;
    if url.starts_with("sqlite") {
        let mut conn = sqlx::SqliteConnection::connect(url).await.unwrap();
        let n: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM pragma_table_info('games') WHERE name = 'pending_huff'",
        )
        .fetch_one(&mut conn)
        .await
        .unwrap();
        n > 0
    } else {
        let mut conn = sqlx::PgConnection::connect(url).await.unwrap();
        let n: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM information_schema.columns \
             WHERE table_name = 'games' AND column_name = 'pending_huff'",
        )
        .fetch_one(&mut conn)
        .await
        .unwrap();
        n > 0
    }
}

#[tokio::test]
async fn an_sqlite_file_of_the_schema_before_keeps_every_game() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("brett.db");
    std::fs::copy(data("schema-20261127.db"), &path).unwrap();
    let url = format!("sqlite://{}", path.display());
    assert!(has_pending_huff_column(&url).await);
    check(&url, &fixture("sqlite")).await;
    assert!(!has_pending_huff_column(&url).await);
}

#[tokio::test]
async fn a_postgres_database_of_the_schema_before_keeps_every_game() {
    let test = "a_postgres_database_of_the_schema_before_keeps_every_game";
    let Some(base) = postgres_url(test) else {
        return;
    };
    let url = new_pg_database(&base).await;
    // The dump as pg_dump wrote it, without psql's own commands.
    let dump: String = read("schema-20261127.postgres.sql")
        .lines()
        .filter(|l| !l.starts_with('\\'))
        .map(|l| format!("{l}\n"))
        .collect();
    {
        use sqlx::Connection;
        let mut conn = sqlx::PgConnection::connect(&url).await.unwrap();
        sqlx::raw_sql(sqlx::AssertSqlSafe(dump))
            .execute(&mut conn)
            .await
            .unwrap();
        conn.close().await.unwrap();
    }
    assert!(has_pending_huff_column(&url).await);
    check(&url, &fixture("postgres")).await;
    assert!(!has_pending_huff_column(&url).await);
}
