//! Mühle's perfect-play databases in the API: the status, the database
//! values of an analysis and the review of a game with a blunder. The
//! sectors 3-3, 3-4 and 4-3 are built into a temp folder and installed for
//! the whole process (`crate::databases`: installing is process-global, so
//! these tests are in the `databases` test binary).

use crate::common::TestServer;
use muehle::{Color, Position, RuleSet};
use reqwest::StatusCode;
use serde_json::json;
use tablebase::{SectorIndex, Tablebase, Value, position_of};

use crate::databases;

fn tb() -> &'static Tablebase {
    databases();
    engine::muehle::databases::for_rules(&RuleSet::STANDARD).unwrap()
}

/// A position of sector `w-b` with White to move that White wins in at
/// least 3 plies, and in which some move throws the win away; with that
/// move and its value for White.
fn won_position_with_blunder(w: u32, b: u32) -> (Position, String, Value, Value) {
    let tb = tb();
    let idx = SectorIndex::new(w, b);
    let mut rng = fastrand::Rng::with_seed(7);
    for _ in 0..200_000 {
        let (m, o) = idx.position(rng.u64(0..idx.size()));
        let Ok(pos) = position_of(m, o, Color::White, RuleSet::STANDARD) else {
            continue;
        };
        if pos.is_game_over() {
            continue;
        }
        let Ok(Some(v @ Value::Win(n))) = tb.probe(&pos) else {
            continue;
        };
        if n < 3 {
            continue;
        }
        let moves = tb.probe_moves(&pos).unwrap().unwrap();
        if let Some((mv, after)) = moves.iter().find(|(_, v)| !matches!(v, Value::Win(_))) {
            return (pos, mv.to_string(), v, *after);
        }
    }
    panic!("no won position with a losing move in {w}-{b}");
}

/// A position of sector `w-b` (stones of the side to move, `color`, and
/// of the opponent) that is not over.
fn any_position(w: u32, b: u32, color: Color) -> Position {
    let idx = SectorIndex::new(w, b);
    (0..idx.size())
        .find_map(|i| {
            let (m, o) = idx.position(i);
            position_of(m, o, color, RuleSet::STANDARD)
                .ok()
                .filter(|p| !p.is_game_over())
        })
        .unwrap()
}

#[tokio::test]
async fn status_tells_the_built_sectors() {
    let dir = databases();
    let s = TestServer::start().await;
    let (status, v) = s.get("/api/tablebase?rules=standard").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["rules"], "standard");
    assert_eq!(v["variant"], "standard");
    assert_eq!(v["enabled"], true);
    assert_eq!(v["dir"], dir.display().to_string());
    assert_eq!(v["sectors"], json!(["3-3", "3-4", "4-3"]));
    assert_eq!(v["total"], 49);
    assert_eq!(v["missing"].as_array().unwrap().len(), 46);
    assert_eq!(v["complete"], false);
    let cmd = v["build_command"].as_str().unwrap();
    assert!(
        cmd.starts_with("brett tablebase build --rules standard --dir "),
        "{cmd}"
    );

    // seed-000 plays on the standard files; the default is standard.
    let (_, v) = s.get("/api/tablebase?rules=seed-000").await;
    assert_eq!(v["variant"], "standard");
    assert_eq!(v["sectors"], json!(["3-3", "3-4", "4-3"]));
    let (_, v) = s.get("/api/tablebase").await;
    assert_eq!(v["rules"], "standard");

    // Other rules have files of their own: none built.
    let (_, v) = s.get("/api/tablebase?rules=ravensburger").await;
    assert_eq!(v["variant"], "ravensburger");
    assert_eq!(v["sectors"], json!([]));
    assert!(
        v["build_command"]
            .as_str()
            .unwrap()
            .starts_with("brett tablebase build --rules ravensburger")
    );

    let (status, v) = s.get("/api/tablebase?rules=nonsense").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    assert_eq!(v["code"], "bad_request");
}

#[tokio::test]
async fn analysis_carries_the_database_values() {
    let tb = tb();
    let s = TestServer::start().await;
    for (w, b) in [(3, 3), (3, 4)] {
        let (pos, _, value, _) = won_position_with_blunder(w, b);
        let (status, v) = s
            .post(
                "/api/analyze",
                json!({"position": pos.fen(), "time_ms": 100, "lines": 2}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let db = &v["database"];
        assert_eq!(db["value"], value.to_string(), "{w}-{b}: {v}");
        assert_eq!(db["result"], "win");
        let Value::Win(n) = value else { unreachable!() };
        assert_eq!(db["plies"], n);
        assert_eq!(db["turn"], "white");
        assert_eq!(db["exact"], true);
        let expected = tb.probe_moves(&pos).unwrap().unwrap();
        let moves = db["moves"].as_array().unwrap();
        assert_eq!(moves.len(), pos.legal_moves().len());
        assert_eq!(moves.len(), expected.len());
        for (got, (m, v)) in moves.iter().zip(&expected) {
            assert_eq!(got["move"], m.to_string());
            assert_eq!(got["value"], v.to_string());
        }
        assert_eq!(moves[0]["value"], value.to_string(), "best first");
        assert!(moves.iter().any(|m| m["result"] != "win"));
        // The engine's line plays from the databases: a forced win.
        assert!(v["lines"][0]["score"]["mate"].as_i64().unwrap() > 0, "{v}");
    }

    // Black to move with four stones against three: the value for Black.
    let pos = any_position(4, 3, Color::Black);
    let (_, v) = s
        .post(
            "/api/analyze",
            json!({"position": pos.fen(), "time_ms": 50, "lines": 1}),
        )
        .await;
    assert_eq!(v["database"]["turn"], "black", "{v}");
    assert_eq!(
        v["database"]["value"],
        tb.probe(&pos).unwrap().unwrap().to_string()
    );

    // The placing phase is not in the databases; nor are unbuilt sectors.
    let (_, v) = s
        .post("/api/analyze", json!({"time_ms": 50, "lines": 1}))
        .await;
    assert!(v.get("database").is_none(), "{v}");
    let five = "WW./W../.../WW..BB/.../BB./... w 0 0 0 20";
    let (status, v) = s
        .post(
            "/api/analyze",
            json!({"position": five, "time_ms": 50, "lines": 1}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert!(v.get("database").is_none(), "{v}");
}

async fn local_game(s: &TestServer, pos: &Position) -> (i64, String, String) {
    let created = s
        .create(json!({"kind": "local", "position": pos.fen()}))
        .await;
    let id = created["id"].as_i64().unwrap();
    let token = |c: &str| created["tokens"][c].as_str().unwrap().to_string();
    (id, token("white"), token("black"))
}

#[tokio::test]
async fn review_marks_the_move_that_threw_the_win_away() {
    let s = TestServer::start().await;
    let (pos, blunder, before, after) = won_position_with_blunder(3, 4);
    let (id, white, black) = local_game(&s, &pos).await;
    s.play_ok(id, &white, 0, &blunder).await;
    // Black answers with its best move, then White resigns: a finished game.
    let mut p = pos;
    p.play_unchecked(p.parse_move(&blunder).unwrap());
    let reply = tb().probe_moves(&p).unwrap().unwrap()[0].0.to_string();
    s.play_ok(id, &black, 1, &reply).await;
    let (status, v) = s.action(id, "resign", json!({"token": white})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(s.state(id).await["status"], "over");

    let (status, v) = s.get(&format!("/api/games/{id}/review")).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["database"], true, "{v}");
    let changes = v["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 1, "{v}");
    let c = &changes[0];
    assert_eq!(c["ply"], 0);
    assert_eq!(c["move"], blunder);
    assert_eq!(c["mover"], "white");
    assert_eq!(c["before"], before.to_string());
    assert_eq!(c["after"], after.to_string());
    assert_eq!(c["before_value"]["result"], "win");
    assert_ne!(c["after_value"]["result"], "win");
    assert_eq!(v["judged"], 2);
    assert_eq!(v["tablebase"]["sectors"], json!(["3-3", "3-4", "4-3"]));

    let blundered = id;

    // A game of best moves has none.
    let (id, white, _) = local_game(&s, &pos).await;
    let best = tb().probe_moves(&pos).unwrap().unwrap()[0].0.to_string();
    s.play_ok(id, &white, 0, &best).await;
    let (_, v) = s.get(&format!("/api/games/{id}/review")).await;
    assert_eq!(v["changes"], json!([]), "{v}");
    assert_eq!(v["judged"], 1);

    // An imported record of the blunder is reviewed alike.
    let (_, record) = {
        let r = s.get_raw(&format!("/api/games/{blundered}/record")).await;
        (r.status(), r.text().await.unwrap())
    };
    let (status, v) = s.post("/api/games/import", json!({"record": record})).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let imported = v["id"].as_i64().unwrap();
    let (_, v) = s.get(&format!("/api/games/{imported}/review")).await;
    assert_eq!(v["changes"][0]["ply"], 0, "{v}");
    assert_eq!(v["changes"][0]["move"], blunder);

    // Dame has no databases; unknown games are not found.
    let dame = s.create(json!({"game": "dame", "kind": "local"})).await;
    let (status, v) = s.get(&format!("/api/games/{}/review", dame["id"])).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v, json!({"database": false, "judged": 0, "changes": []}));
    let (status, _) = s.get("/api/games/999999/review").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}
