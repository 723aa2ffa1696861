//! `brett serve` on PostgreSQL as separate processes, and `brett db`:
//! migrate, export, import between SQLite and PostgreSQL. Each test makes
//! a database of its own on the server of `BRETT_TEST_POSTGRES` (skipped
//! with a message when it is unset, a failure when
//! `BRETT_REQUIRE_POSTGRES=1`; ./test.sh starts a server, tests/pg/start.sh).

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use server::storage::{self, Expected, MoveChange, NewGame, Seat, Variant};
use sqlx::Connection;

#[path = "../crates/server/tests/common/stored.rs"]
mod stored;

use stored::{lease_holder, meta, person, postgres_url};

/// A Dame start (Black one man short) that no opening book holds: level 10
/// thinks its whole move time there (the book would answer at once).
const OUT_OF_BOOK: &str =
    "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8";

/// A new, empty database on the server of `base`; its URL.
async fn new_database(base: &str, tag: &str) -> String {
    let name = format!(
        "brett_cli_{tag}_{}_{:08x}",
        std::process::id(),
        fastrand::u32(..)
    );
    let mut conn = sqlx::PgConnection::connect(base).await.unwrap();
    sqlx::raw_sql(sqlx::AssertSqlSafe(format!("CREATE DATABASE \"{name}\"")))
        .execute(&mut conn)
        .await
        .unwrap();
    conn.close().await.unwrap();
    let (head, _) = base.rsplit_once('/').unwrap();
    format!("{head}/{name}")
}

/// `brett db export --database DATABASE --out FILE`.
fn db_export(database: &str, file: &std::path::Path) -> (bool, String) {
    let file = file.to_str().unwrap();
    brett(&["db", "export", "--database", database, "--out", file])
}

/// `brett db import --database DATABASE --in FILE`.
fn db_import(database: &str, file: &std::path::Path) -> (bool, String) {
    let file = file.to_str().unwrap();
    brett(&["db", "import", "--database", database, "--in", file])
}

fn brett(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_brett"))
        .args(args)
        .output()
        .expect("brett runs");
    (
        out.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

#[tokio::test]
async fn db_export_and_import_move_games_between_sqlite_and_postgres() {
    let test = "db_export_and_import_move_games_between_sqlite_and_postgres";
    let Some(base) = postgres_url(test) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let sqlite = format!("sqlite://{}", dir.path().join("brett.db").display());
    // Games in SQLite: moves, seats, tags, outcomes, a draw offer.
    let db = storage::open(&sqlite).await.unwrap();
    for (i, kind) in ["local", "computer", "online", "imported"]
        .iter()
        .enumerate()
    {
        let id = db
            .create_game(NewGame {
                game: if i == 2 {
                    Variant::Dame
                } else {
                    Variant::Muehle
                },
                kind: kind.to_string(),
                rules: "standard".into(),
                start_position: "start".into(),
                move_clocks: Vec::new(),
                moves: if *kind == "imported" {
                    vec!["d6".into(), "f4".into()]
                } else {
                    vec![]
                },
                meta: meta("ongoing", "2026-11-26T09:00:00Z"),
                seats: [
                    person(format!("{i:064}"), "Anna"),
                    Seat {
                        joined: *kind != "online",
                        level: (*kind == "computer").then_some(7),
                        ..Seat::default()
                    },
                ],
                tags: if *kind == "imported" {
                    vec![("Event".into(), "Ülm \"Cup\"\n".into())]
                } else {
                    vec![]
                },
                created_at: "2026-11-26T09:00:00Z".into(),
            })
            .await
            .unwrap();
        let g = db.load_game(id).await.unwrap().unwrap();
        db.update_game(
            id,
            Expected {
                ply: g.moves.len(),
                version: g.version,
            },
            MoveChange::Append("a1".into()),
            meta("ongoing", "2026-11-26T09:01:00Z"),
        )
        .await
        .unwrap();
    }
    let mut over = meta("over", "2026-11-26T09:02:00Z");
    over.result = Some("1/2-1/2".into());
    over.reason = Some("agreement".into());
    let g = db.load_game(1).await.unwrap().unwrap();
    let expected = Expected {
        ply: g.moves.len(),
        version: g.version,
    };
    db.update_game(1, expected, MoveChange::Keep, over)
        .await
        .unwrap();
    db.close().await;

    let pg = new_database(&base, "to").await;
    let a = dir.path().join("a.jsonl");
    let b = dir.path().join("b.jsonl");
    let c = dir.path().join("c.jsonl");
    let (ok, out) = brett(&["db", "migrate", "--database", &pg]);
    assert!(ok, "{out}");
    let (ok, out) = db_export(&sqlite, &a);
    assert!(ok && out.contains("exported 4 games"), "{out}");
    let (ok, out) = db_import(&pg, &a);
    assert!(ok && out.contains("imported 4 games"), "{out}");
    let (ok, out) = db_export(&pg, &b);
    assert!(ok, "{out}");
    let (a_text, b_text) = (
        std::fs::read_to_string(&a).unwrap(),
        std::fs::read_to_string(&b).unwrap(),
    );
    assert_eq!(a_text.lines().count(), 5, "{a_text}");
    assert_eq!(
        a_text, b_text,
        "SQLite → file → PostgreSQL → file is the same file"
    );

    // Importing twice writes nothing and says why.
    let (ok, out) = db_import(&pg, &a);
    assert!(!ok && out.contains("exists already"), "{out}");
    // And back to a new SQLite file.
    let back = format!("sqlite://{}", dir.path().join("back.db").display());
    let (ok, out) = db_import(&back, &b);
    assert!(ok, "{out}");
    let (ok, out) = db_export(&back, &c);
    assert!(ok, "{out}");
    assert_eq!(std::fs::read_to_string(&c).unwrap(), a_text);
    // A file that is no export is refused.
    let (ok, out) = brett(&["db", "import", "--database", &back, "--in", "Cargo.toml"]);
    assert!(!ok && out.contains("not an export"), "{out}");
}

/// A `brett serve` process; killed when dropped.
struct Serve {
    child: Child,
    base: String,
}

impl Serve {
    fn start(url: &str, extra: &[&str]) -> Serve {
        let mut child = Command::new(env!("CARGO_BIN_EXE_brett"))
            .args([
                "--no-tablebase",
                "serve",
                "--listen",
                "127.0.0.1:0",
                "--database",
                url,
            ])
            .args(extra)
            .env("RUST_LOG", "info")
            .env("NO_COLOR", "1")
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("brett serve runs");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut sent = false;
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if !sent && let Some(i) = line.find("listens on http://") {
                    let rest = &line[i + "listens on ".len()..];
                    let addr = rest.split_whitespace().next().unwrap_or("").to_string();
                    let _ = tx.send(addr);
                    sent = true;
                }
            }
        });
        let base = rx
            .recv_timeout(Duration::from_secs(30))
            .expect("brett serve says where it listens");
        Serve { child, base }
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Wait until some instance holds the lease of game `id`.
async fn wait_for_lease(url: &str, id: i64) {
    let mut conn = sqlx::PgConnection::connect(url).await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while lease_holder(&mut conn, id).await.is_none() {
        assert!(Instant::now() < deadline, "nobody takes the lease");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    conn.close().await.unwrap();
}

async fn get(c: &reqwest::Client, url: String) -> Value {
    let r = c.get(url).send().await.unwrap();
    assert!(r.status().is_success(), "{}", r.status());
    r.json().await.unwrap()
}

#[tokio::test]
async fn a_killed_instance_hands_its_computer_games_to_another() {
    let test = "a_killed_instance_hands_its_computer_games_to_another";
    let Some(base) = postgres_url(test) else {
        return;
    };
    let url = new_database(&base, "kill").await;
    // A thinks a minute (Dame, level 10: by time only), B 30 ms; leases
    // last three seconds (renewed every second).
    let mut a = Serve::start(
        &url,
        &["--computer-movetime", "60000", "--computer-lease", "3"],
    );
    let b = Serve::start(
        &url,
        &["--computer-movetime", "30", "--computer-lease", "3"],
    );
    let c = reqwest::Client::new();
    let r = c
        .post(format!("{}/api/games", a.base))
        .json(&json!({"game": "dame", "kind": "computer", "color": "black", "level": 10, "position": OUT_OF_BOOK}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 201);
    let v: Value = r.json().await.unwrap();
    let id = v["id"].as_i64().unwrap();
    // A takes the lease (right after answering; until then B could take
    // it, and would play the move itself).
    wait_for_lease(&url, id).await;
    // B sees the game, and that the computer thinks (on A): it does not
    // move while A lives.
    let st = get(&c, format!("{}/api/games/{id}", b.base)).await;
    assert_eq!(st["thinking"], true, "{st}");
    tokio::time::sleep(Duration::from_secs(5)).await;
    let st = get(&c, format!("{}/api/games/{id}", b.base)).await;
    assert_eq!(st["ply"], 0, "B must not play A's game: {st}");

    // A dies (SIGKILL: nothing released); after its lease expires B plays.
    a.kill();
    let killed = Instant::now();
    loop {
        let st = get(&c, format!("{}/api/games/{id}", b.base)).await;
        if st["ply"] == 1 {
            assert_eq!(st["thinking"], false);
            break;
        }
        assert!(
            killed.elapsed() < Duration::from_secs(15),
            "B did not take the game over: {st}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    eprintln!("{test}: taken over {:?} after the kill", killed.elapsed());
}
