//! Ratings (docs/API.md, "Ratings"): rated online games between accounts
//! change both players' Glicko-2 ratings once they end with a result; the
//! state of the ended game shows the change, the leaderboard and the
//! players' histories list it. Aborted and casual games change nothing.
//! The servers run on SQLite, or on PostgreSQL with
//! `BRETT_TEST_BACKEND=postgres`.

use crate::common::*;
use reqwest::StatusCode;
use serde_json::{Value, json};

/// The ratings of `pool` as `GET /api/account` shows them to `m`.
async fn own_rating(s: &TestServer, m: &Member, pool: &str) -> Value {
    let (status, v) = m.get(s, "/api/account").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    v["ratings"][pool].clone()
}

#[tokio::test]
async fn a_rated_game_moves_both_ratings_once() {
    let s = TestServer::start().await;
    let anna = Member::register(&s, "Anna").await;
    let ben = Member::register(&s, "Ben").await;

    // Not rated: a guest's game, games with the computer or on one
    // device, and rules that are no preset.
    let rated = |kind: &str| json!({"kind": kind, "rated": true});
    let (status, v) = s.post("/api/games", rated("online")).await;
    assert_error(status, &v, 400, "bad_request");
    for kind in ["computer", "local"] {
        let (status, v) = anna.post(&s, "/api/games", rated(kind)).await;
        assert_error(status, &v, 400, "bad_request");
    }
    let custom = json!({"kind": "online", "rated": true, "rules": "ravensburger",
                        "options": {"no_mill": 40}});
    let (status, v) = anna.post(&s, "/api/games", custom).await;
    assert_error(status, &v, 400, "bad_request");

    let (id, white, invite) = anna.invite(&s, true).await;
    // A guest, or the creator, cannot take the other seat of a rated game.
    let join = json!({"token": invite, "name": "Gast"});
    let (status, v) = s.action(id, "join", join.clone()).await;
    assert_error(status, &v, 409, "not_allowed");
    let (status, v) = anna.post(&s, &format!("/api/games/{id}/join"), join).await;
    assert_error(status, &v, 409, "not_allowed");
    ben.join(&s, id, &invite).await;
    s.play_ok(id, &white, 0, "d6").await;
    let (status, v) = s.action(id, "resign", json!({"token": invite})).await;
    assert_eq!(status, StatusCode::OK, "{v}");

    let st = s.state(id).await;
    assert_eq!(st["result"], "1-0", "{st}");
    assert_eq!(st["rated"], true);
    let (w, b) = (
        &st["players"]["white"]["rating"],
        &st["players"]["black"]["rating"],
    );
    assert_eq!(w["before"], 1500, "{st}");
    assert_eq!(b["before"], 1500, "{st}");
    let (wa, ba) = (w["after"].as_i64().unwrap(), b["after"].as_i64().unwrap());
    assert!(wa > 1500 && ba < 1500, "{st}");
    assert_eq!(
        wa - 1500,
        1500 - ba,
        "a game between equals moves both alike"
    );
    assert_eq!(w["provisional"], true);
    assert_eq!(b["provisional"], true);

    // The archive line says it is rated.
    let (_, archive) = s.get("/api/games").await;
    let line = archive["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == id)
        .unwrap();
    assert_eq!(line["rated"], true, "{line}");

    let (status, board) = s.get("/api/ratings/muehle").await;
    assert_eq!(status, StatusCode::OK, "{board}");
    let players = board["players"].as_array().unwrap();
    assert_eq!(players.len(), 2, "{board}");
    assert_eq!(players[0]["name"], "Anna");
    assert_eq!(players[0]["rating"], wa);
    assert_eq!(players[0]["rank"], 1);
    assert_eq!(players[1]["name"], "Ben");
    assert_eq!(players[1]["provisional"], true);
    let (_, other) = s.get("/api/ratings/muehle:lasker-morris").await;
    assert_eq!(other["players"], json!([]), "{other}");
    let (status, v) = s.get("/api/ratings/schach").await;
    assert_error(status, &v, 404, "not_found");

    let mine = own_rating(&s, &anna, "muehle").await;
    assert_eq!(mine["rating"], wa, "{mine}");
    assert_eq!(mine["games"], 1, "{mine}");
    assert!(mine["rd"].as_i64().unwrap() < 350, "{mine}");

    let (status, history) = s.get("/api/players/ben/ratings").await;
    assert_eq!(status, StatusCode::OK, "{history}");
    assert_eq!(history["name"], "Ben");
    let points = history["history"].as_array().unwrap();
    assert_eq!(points.len(), 1, "{history}");
    assert_eq!(points[0]["game"], id);
    assert_eq!(points[0]["rating"], ba);
    assert_eq!(points[0]["pool"], "muehle");
    let (status, v) = s.get("/api/players/nobody/ratings").await;
    assert_error(status, &v, 404, "not_found");

    // An aborted rated game and a casual game change nothing.
    for (rated, ending) in [(true, "abort"), (false, "resign")] {
        let (id, white, invite) = anna.invite(&s, rated).await;
        ben.join(&s, id, &invite).await;
        let (status, v) = s.action(id, ending, json!({"token": white})).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["status"], "over", "{v}");
        for side in ["white", "black"] {
            assert!(v["players"][side]["rating"].is_null(), "{v}");
        }
    }

    assert_eq!(own_rating(&s, &anna, "muehle").await["games"], 1);
    assert_eq!(own_rating(&s, &ben, "muehle").await["rating"], ba);
}

/// Two instances on one PostgreSQL database (`BRETT_TEST_POSTGRES`; skipped
/// without): in each game White resigns on one and Black on the other at
/// once; every game counts exactly once for both players.
#[tokio::test]
async fn racing_endings_on_two_instances_rate_each_game_once() {
    const GAMES: usize = 12;
    let test = "racing_endings_on_two_instances_rate_each_game_once";
    let Some(base) = postgres_url(test) else {
        return;
    };
    let url = new_pg_database(&base).await;
    let mut servers = Vec::new();
    for _ in 0..2 {
        let mut c = config(std::path::Path::new("unused"), 30);
        c.database_url = Some(url.clone());
        c.games_per_minute = 0;
        servers.push(TestServer::with_config("unused".into(), c).await);
    }
    let (a, b) = (&servers[0], &servers[1]);
    let anna = Member::register(a, "Anna").await;
    let ben = Member::register(a, "Ben").await;
    for _ in 0..GAMES {
        let (id, white, invite) = anna.invite(a, true).await;
        ben.join(b, id, &invite).await;
        a.play_ok(id, &white, 0, "d6").await;
        let (on_a, on_b) = tokio::join!(
            a.action(id, "resign", json!({"token": white})),
            b.action(id, "resign", json!({"token": invite})),
        );
        assert!(
            on_a.0 == StatusCode::OK || on_b.0 == StatusCode::OK,
            "{on_a:?} {on_b:?}"
        );
        for s in [a, b] {
            // Both instances show the rating change of the stored ending.
            let rated = |st: &Value| st["players"]["black"]["rating"]["after"].is_i64();
            s.wait_for(id, 5, rated).await;
        }
    }
    for (m, name) in [(&anna, "anna"), (&ben, "ben")] {
        for s in [a, b] {
            assert_eq!(own_rating(s, m, "muehle").await["games"], GAMES, "{name}");
            let (_, h) = s.get(&format!("/api/players/{name}/ratings")).await;
            assert_eq!(h["history"].as_array().unwrap().len(), GAMES, "{h}");
        }
    }
}
