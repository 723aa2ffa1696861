//! The analysis of a whole game (docs/API.md, `/api/games/{id}/analysis`):
//! started once per game, position by position with progress, results
//! kept with the game (after a restart too), limits answered with the
//! API's errors.

use std::time::{Duration, Instant};

use crate::common::*;
use reqwest::StatusCode;
use serde_json::{Value, json};

/// A short Dame game from a position: White's first move (e3-f4) gives a
/// piece away (g3-f4 keeps the balance).
const BLUNDER: &str = "[GameType \"42\"]\n[FEN \"W:Wc3,e3,g3,d2,a1:Bd6,f6,b6,h6,g7\"]\n\n\
                       1. e3-f4 f6-g5 2. d2-e3 g5-h4 *\n";

async fn import(s: &TestServer, record: &str) -> i64 {
    let (status, v) = s.post("/api/games/import", json!({"record": record})).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    id_of(&v)
}

/// Poll the analysis of game `id` until `pred` holds (at most `secs`).
async fn analysis_until(
    s: &TestServer,
    id: i64,
    secs: u64,
    mut pred: impl FnMut(&Value) -> bool,
) -> Value {
    let until = Instant::now() + Duration::from_secs(secs);
    loop {
        let (status, v) = s.get(&format!("/api/games/{id}/analysis")).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        if pred(&v) {
            return v;
        }
        assert!(Instant::now() < until, "not reached: {v}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_game_is_analysed_once_with_progress_marks_and_a_summary() {
    let s = TestServer::start().await;
    let id = import(&s, BLUNDER).await;
    let (status, v) = s.get(&format!("/api/games/{id}/analysis")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["status"], "none");
    assert_eq!(v["total"], 5);
    assert_eq!(v["done"], 0);

    let path = format!("/api/games/{id}/analysis");
    let (status, first) = s.post(&path, json!({"time_ms": 300})).await;
    assert_eq!(status, StatusCode::OK, "{first}");
    assert_eq!(first["status"], "running");
    assert_eq!(first["time_ms"], 300);
    // Asking again starts nothing new: the same job, its progress.
    let (status, again) = s.post(&path, json!({"time_ms": 50})).await;
    assert_eq!(status, StatusCode::OK, "{again}");
    assert_eq!(again["status"], "running");
    assert_eq!(again["time_ms"], 300);

    let mut seen = Vec::new();
    let done = analysis_until(&s, id, 60, |v| {
        seen.push(v["done"].as_u64().unwrap());
        v["status"] == "done"
    })
    .await;
    assert!(
        seen.windows(2).all(|w| w[0] <= w[1]),
        "progress only grows: {seen:?}"
    );
    assert_eq!(done["done"], 5);
    let positions = done["positions"].as_array().unwrap();
    assert_eq!(positions.len(), 5);
    for (i, p) in positions.iter().enumerate() {
        assert_eq!(p["ply"], i);
        let e = p["white_expected"].as_f64().unwrap();
        assert!((0.0..=100.0).contains(&e), "{p}");
        assert!(p["white_cp"].as_i64().unwrap().abs() <= 1000, "{p}");
    }
    assert_eq!(positions[0]["turn"], "white");
    let moves = done["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 4);
    assert_eq!(moves[0]["move"], "e3-f4");
    assert_eq!(moves[0]["mover"], "white");
    assert_eq!(moves[0]["mark"], "blunder", "{}", moves[0]);
    assert_eq!(moves[0]["best"], "g3-f4");
    assert!(moves[0]["loss"].as_f64().unwrap() >= 15.0);
    assert_eq!(done["summary"]["white"]["blunders"], 1);
    assert_eq!(done["summary"]["white"]["moves"], 2);
    assert_eq!(done["summary"]["black"]["moves"], 2);

    // Done: a further start answers the result, nothing runs again.
    let (status, v) = s.post(&path, json!({})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["status"], "done");
    assert_eq!(v["positions"], done["positions"]);
}

#[tokio::test]
async fn a_finished_analysis_survives_a_restart_and_an_interrupted_one_goes_on() {
    let mut s = TestServer::start().await;
    let id = import(&s, BLUNDER).await;
    let path = format!("/api/games/{id}/analysis");
    let (status, _) = s.post(&path, json!({"time_ms": 200})).await;
    assert_eq!(status, StatusCode::OK);
    let done = analysis_until(&s, id, 60, |v| v["status"] == "done").await;
    // An unfinished game stops after its first position (1 s each).
    let second = import(&s, "[GameType \"42\"]\n\n1. c3-d4 f6-e5 2. d4xf6 g7xe5 *\n").await;
    let path2 = format!("/api/games/{second}/analysis");
    let (status, _) = s.post(&path2, json!({"time_ms": 1000})).await;
    assert_eq!(status, StatusCode::OK);
    analysis_until(&s, second, 30, |v| v["done"].as_u64() >= Some(1)).await;
    s.stop().await;

    let db = s.db.clone();
    let s = TestServer::on(db, 30).await;
    let (_, v) = s.get(&path).await;
    assert_eq!(v["status"], "done");
    assert_eq!(v["positions"], done["positions"]);
    assert_eq!(v["moves"], done["moves"]);
    // The interrupted one is running until its row goes stale, then it is
    // `stopped`; both show the positions analysed so far.
    let (_, v) = s.get(&path2).await;
    assert!(v["status"] == "running" || v["status"] == "stopped", "{v}");
    let kept = v["done"].as_u64().unwrap();
    assert!((1..5).contains(&kept), "{v}");
}

#[tokio::test]
async fn limits_and_refusals() {
    let s = TestServer::start_config(|c| {
        c.game_analysis_jobs = 1;
        c.game_analysis_max_plies = 4;
    })
    .await;
    let a = import(&s, BLUNDER).await;
    let b = import(&s, "[GameType \"42\"]\n\n1. c3-d4 f6-e5 2. d4xf6 g7xe5 *\n").await;
    let long = import(
        &s,
        "[GameType \"42\"]\n\n1. c3-d4 f6-e5 2. d4xf6 g7xe5 3. b2-c3 *\n",
    )
    .await;

    // Bad times per position.
    for t in [0, 49, 2001] {
        let (status, v) = s
            .post(&format!("/api/games/{a}/analysis"), json!({"time_ms": t}))
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{t}: {v}");
    }
    // Too long a game.
    let (status, v) = s
        .post(
            &format!("/api/games/{long}/analysis"),
            json!({"time_ms": 50}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    assert_eq!(v["code"], "bad_request");
    // A game being played is not analysed.
    let live = s.create(json!({"kind": "local"})).await;
    let (status, v) = s
        .post(&format!("/api/games/{}/analysis", id_of(&live)), json!({}))
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert_eq!(v["code"], "not_allowed");
    // No such game.
    let (status, _) = s.get("/api/games/999999/analysis").await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // One job a client: a second game of the same client waits.
    let (status, _) = s
        .post(
            &format!("/api/games/{a}/analysis"),
            json!({"time_ms": 2000}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let r = s
        .client
        .post(s.url(&format!("/api/games/{b}/analysis")))
        .json(&json!({"time_ms": 50}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(r.headers().get("retry-after").is_some());
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["code"], "rate_limited");
    // Another client: over the jobs at once, the engine is busy.
    let r = s
        .client
        .post(s.url(&format!("/api/games/{b}/analysis")))
        .header("X-Brett-Client", "another-browser")
        .json(&json!({"time_ms": 50}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::SERVICE_UNAVAILABLE);
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["code"], "engine_busy");
    // The running game itself is answered (idempotent) for anyone.
    let r = s
        .client
        .post(s.url(&format!("/api/games/{a}/analysis")))
        .header("X-Brett-Client", "another-browser")
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
}

#[tokio::test]
async fn a_finished_muehle_game_is_analysed_to_its_end() {
    let s = TestServer::start().await;
    let (moves, _, _) = winning_game();
    let v = s.create(json!({"kind": "local"})).await;
    let id = id_of(&v);
    let tokens = [token(&v, "white"), token(&v, "black")];
    for (ply, mv) in moves.iter().enumerate() {
        s.play_ok(id, &tokens[ply % 2], ply as u64, mv).await;
    }
    let (status, v) = s
        .post(&format!("/api/games/{id}/analysis"), json!({"time_ms": 50}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let done = analysis_until(&s, id, 120, |v| v["status"] == "done").await;
    let positions = done["positions"].as_array().unwrap();
    assert_eq!(positions.len(), moves.len() + 1);
    // The last position: the game is over on the board, the winner's.
    let last = positions.last().unwrap();
    assert!(last["result"] == "1-0" || last["result"] == "0-1", "{last}");
    assert_eq!(last["white_cp"].as_i64().unwrap().abs(), 1000);
    assert_eq!(done["moves"].as_array().unwrap().len(), moves.len());
}
