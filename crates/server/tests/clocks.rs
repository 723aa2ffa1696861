//! Clocks (docs/API.md, "Clocks"): flags at the deadline, increments, the
//! lag credit and its cap, restarts, correspondence days, aborts, claims
//! and extra time. The server goes by a manual clock the tests move on;
//! what they time is the server's answer in real time.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::common::*;
use reqwest::StatusCode;
use serde_json::{Value, json};
use server::clocks::{ManualClock, Time};

const T0: i64 = 1_800_000_000_000;

async fn server_on(clock: &Arc<ManualClock>, db: Option<std::path::PathBuf>) -> TestServer {
    let time = Time(clock.clone());
    match db {
        None => TestServer::start_config(|c| c.time = time).await,
        Some(db) => {
            let mut c = config(&db, 30);
            c.time = time;
            TestServer::with_config(db, c).await
        }
    }
}

/// A local game with `tc`, both first moves made (White's clock runs
/// now); its id and White's and Black's tokens.
async fn local_game(s: &TestServer, game: &str, tc: &str) -> (i64, String, String) {
    let v = s
        .create(json!({"game": game, "kind": "local", "time_control": tc}))
        .await;
    let id = id_of(&v);
    let (w, b) = (token(&v, "white"), token(&v, "black"));
    let (m1, m2) = if game == "muehle" {
        ("d6", "d2")
    } else {
        ("c3-d4", "f6-e5")
    };
    s.play_ok(id, &w, 0, m1).await;
    s.play_ok(id, &b, 1, m2).await;
    (id, w, b)
}

fn ms(state: &Value, side: &str) -> i64 {
    state["clock"][format!("{side}_ms")].as_i64().unwrap()
}

#[tokio::test]
async fn a_flag_falls_at_the_deadline_within_50_ms() {
    let clock = ManualClock::new(T0);
    let s = server_on(&clock, None).await;
    let (id, ..) = local_game(&s, "muehle", "1+0").await;
    let st = s.state(id).await;
    assert_eq!(st["clock"]["running"], "white");
    assert_eq!(ms(&st, "white"), 60_000);
    let mut ws = s.ws(id).await;
    next_json(&mut ws).await;
    clock.advance(59_999);
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(s.state(id).await["status"], "ongoing");
    let at = Instant::now();
    clock.advance(1);
    let over = next_state_where(&mut ws, |s| s["status"] == "over").await;
    let latency = at.elapsed();
    assert!(latency < Duration::from_millis(50), "{latency:?}");
    assert_eq!(over["result"], "0-1");
    assert_eq!(over["reason"], "time");
    assert_eq!(over["reason_text"], "White ran out of time: Black wins");
    assert_eq!(ms(&over, "white"), 0);
    assert_eq!(over["clock"]["running"], Value::Null);
}

#[tokio::test]
async fn a_flag_falls_with_nobody_connected() {
    let clock = ManualClock::new(T0);
    let s = server_on(&clock, None).await;
    let (id, ..) = local_game(&s, "dame", "3+2").await;
    clock.advance(180_000);
    // Read the database itself: no request loads the game meanwhile.
    let storage = server::storage::open(&database_url_for(&s.db))
        .await
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let g = storage.load_game(id).await.unwrap().unwrap();
        if g.meta.status == server::storage::Status::Over {
            assert_eq!(g.meta.reason.as_deref(), Some("time"));
            assert_eq!(g.meta.clock.as_ref().unwrap().remaining_ms[0], 0);
            break;
        }
        assert!(Instant::now() < deadline, "the flag did not fall");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn increments_are_added_and_each_move_stores_both_times() {
    let clock = ManualClock::new(T0);
    let s = server_on(&clock, None).await;
    let (id, w, b) = local_game(&s, "muehle", "3+2").await;
    clock.advance(10_000);
    let st = s.play_ok(id, &w, 2, "f4").await;
    assert_eq!(ms(&st, "white"), 180_000 - 10_000 + 2_000);
    assert_eq!(st["clock"]["running"], "black");
    clock.advance(4_000);
    let st = s.state(id).await;
    assert_eq!(
        ms(&st, "black"),
        176_000,
        "the running clock as of the answer"
    );
    let st = s.play_ok(id, &b, 3, "b4").await;
    assert_eq!(ms(&st, "black"), 178_000);
    // The record carries the control and each move's time left; it reads
    // back with them.
    let r = s.get_raw(&format!("/api/games/{id}/record")).await;
    let text = r.text().await.unwrap();
    assert!(text.contains("[TimeControl \"180+2\"]"), "{text}");
    assert!(text.contains("[%clk 0:02:52]"), "{text}");
    assert!(text.contains("[%clk 0:02:58]"), "{text}");
    let back = server::game::LiveGame::from_record(None, &text).unwrap();
    let (control, clocks) = back.record_clock();
    assert_eq!(control, Some("3+2".parse().unwrap()));
    assert_eq!(&clocks[2..], &[Some(172_000), Some(178_000)]);
}

#[tokio::test]
async fn the_lag_credit_stays_within_its_cap() {
    let clock = ManualClock::new(T0);
    let s = server_on(&clock, None).await;
    let (id, w, b) = local_game(&s, "muehle", "1+0").await;
    clock.advance(2_000);
    let (status, st) = s
        .post(
            &format!("/api/games/{id}/moves"),
            json!({"move": "f4", "token": w, "ply": 2, "lag_ms": 5_000}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{st}");
    assert_eq!(ms(&st, "white"), 60_000 - 2_000 + 500);
    clock.advance(300);
    let (_, st) = s
        .post(
            &format!("/api/games/{id}/moves"),
            json!({"move": "b4", "token": b, "ply": 3, "lag_ms": 200}),
        )
        .await;
    assert_eq!(ms(&st, "black"), 60_000 - 100);
}

#[tokio::test]
async fn a_move_after_the_deadline_loses_on_time_instead() {
    let clock = ManualClock::new(T0);
    let s = server_on(&clock, None).await;
    let (id, w, _) = local_game(&s, "muehle", "1+0").await;
    // The move comes 300 ms late, less than the lag it claims: credited,
    // it is in time (the flag is checked the same way at the deadline).
    clock.advance(60_300);
    let (status, st) = s
        .post(
            &format!("/api/games/{id}/moves"),
            json!({"move": "f4", "token": w, "ply": 2, "lag_ms": 400}),
        )
        .await;
    // The timer may have ended it first: either way the rule is one.
    if status == StatusCode::OK {
        assert_eq!(st["ply"], 3);
    } else {
        assert_error(status, &st, 409, "game_over");
    }
    let (id, w, _) = local_game(&s, "muehle", "1+0").await;
    clock.advance(61_000);
    let (status, st) = s.play(id, &w, 2, "f4").await;
    assert_error(status, &st, 409, "game_over");
    let st = s.state(id).await;
    assert_eq!(
        (st["result"].as_str(), st["reason"].as_str()),
        (Some("0-1"), Some("time"))
    );
    assert_eq!(st["ply"], 2);
}

#[tokio::test]
async fn a_restart_keeps_the_clocks_and_gives_back_the_time_the_server_was_down() {
    let clock = ManualClock::new(T0);
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("brett.db");
    let mut s = server_on(&clock, Some(db.clone())).await;
    let (id, w, _) = local_game(&s, "muehle", "5+3").await;
    clock.advance(20_000);
    s.stop().await;
    clock.advance(600_000);
    let s = server_on(&clock, Some(db)).await;
    let st = s.state(id).await;
    assert_eq!(st["status"], "ongoing", "{st}");
    assert_eq!(ms(&st, "white"), 280_000);
    clock.advance(1_000);
    let st = s.play_ok(id, &w, 2, "f4").await;
    assert_eq!(ms(&st, "white"), 300_000 - 21_000 + 3_000);
}

#[tokio::test]
async fn a_correspondence_game_ends_when_its_days_run_out() {
    let clock = ManualClock::new(T0);
    let s = server_on(&clock, None).await;
    let (id, w, b) = local_game(&s, "dame", "2d").await;
    let day = 86_400_000;
    clock.advance(day + 1_000);
    // A move resets the time to the full days.
    let st = s.play_ok(id, &w, 2, "d4xf6").await;
    assert_eq!(st["clock"]["control"], "2d");
    assert_eq!(st["clock"]["kind"], "correspondence");
    assert_eq!(ms(&st, "white"), 2 * day);
    assert_eq!(ms(&st, "black"), 2 * day);
    let _ = b;
    let mut ws = s.ws(id).await;
    next_json(&mut ws).await;
    clock.advance(2 * day);
    let over = next_state_where(&mut ws, |s| s["status"] == "over").await;
    assert_eq!(
        (over["result"].as_str(), over["reason"].as_str()),
        (Some("1-0"), Some("time"))
    );
}

/// An online game with `tc` whose invited player joined; its id and both
/// tokens (the creator plays White).
async fn online_game(s: &TestServer, tc: &str) -> (i64, String, String) {
    let v = s
        .create(json!({"kind": "online", "time_control": tc, "name": "Anna"}))
        .await;
    let id = id_of(&v);
    let w = token(&v, "white");
    let b = v["invite"]["token"].as_str().unwrap().to_string();
    let (status, body) = s
        .action(id, "join", json!({"token": b, "name": "Ben"}))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    (id, w, b)
}

#[tokio::test]
async fn an_online_game_whose_first_move_does_not_come_is_aborted() {
    let clock = ManualClock::new(T0);
    let s = server_on(&clock, None).await;
    let v = s
        .create(json!({"kind": "online", "time_control": "3+2"}))
        .await;
    let id = id_of(&v);
    // Nobody's clock runs before the invited player is there.
    clock.advance(120_000);
    tokio::time::sleep(Duration::from_millis(50)).await;
    let st = s.state(id).await;
    assert_eq!(st["status"], "ongoing");
    assert_eq!(st["clock"]["abort_in_ms"], Value::Null);
    let b = v["invite"]["token"].as_str().unwrap().to_string();
    s.action(id, "join", json!({"token": b})).await;
    let st = s.state(id).await;
    assert_eq!(st["clock"]["abort_in_ms"], 30_000);
    assert_eq!(st["clock"]["running"], Value::Null);
    let mut ws = s.ws(id).await;
    next_json(&mut ws).await;
    clock.advance(30_000);
    let over = next_state_where(&mut ws, |s| s["status"] == "over").await;
    assert_eq!(over["reason"], "aborted");
    assert_eq!(over["result"], "*");

    // Aborted by a player before both have moved; not after.
    let (id, w, b) = online_game(&s, "5+3").await;
    s.play_ok(id, &w, 0, "d6").await;
    let (status, st) = s.action(id, "abort", json!({"token": b})).await;
    assert_eq!(status, StatusCode::OK, "{st}");
    assert_eq!(st["reason"], "aborted");
    let (id, w, b) = online_game(&s, "5+3").await;
    s.play_ok(id, &w, 0, "d6").await;
    s.play_ok(id, &b, 1, "d2").await;
    let (status, st) = s.action(id, "abort", json!({"token": w})).await;
    assert_error(status, &st, 409, "not_allowed");
}

#[tokio::test]
async fn a_player_whose_opponent_left_may_claim_the_game() {
    let clock = ManualClock::new(T0);
    let s = server_on(&clock, None).await;
    let (id, w, b) = online_game(&s, "5+3").await;
    s.play_ok(id, &w, 0, "d6").await;
    s.play_ok(id, &b, 1, "d2").await;
    // White is here (a socket that said hello); Black's socket goes.
    let mut white = s.ws(id).await;
    next_json(&mut white).await;
    send_text(
        &mut white,
        &json!({"type": "hello", "token": w}).to_string(),
    )
    .await;
    let st = next_state_where(&mut white, |s| s["players"]["white"]["online"] == true).await;
    assert_eq!(st["players"]["black"]["online"], false);
    let mut black = s.ws(id).await;
    next_json(&mut black).await;
    send_text(
        &mut black,
        &json!({"type": "hello", "token": b}).to_string(),
    )
    .await;
    next_state_where(&mut white, |s| s["players"]["black"]["online"] == true).await;
    drop(black);
    next_state_where(&mut white, |s| s["players"]["black"]["online"] == false).await;
    let claim = |result: &str| s.action(id, "claim", json!({"token": w.clone(), "result": result}));
    clock.advance(29_000);
    let (status, body) = claim("win").await;
    assert_error(status, &body, 409, "not_allowed");
    // Black cannot claim against White, who is here.
    clock.advance(1_000);
    let (status, body) = s
        .action(id, "claim", json!({"token": b, "result": "win"}))
        .await;
    assert_error(status, &body, 409, "not_allowed");
    let (status, body) = claim("win").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        (body["result"].as_str(), body["reason"].as_str()),
        (Some("1-0"), Some("claimed"))
    );

    // A draw can be claimed the same way.
    let (id, w, b) = online_game(&s, "5+3").await;
    s.play_ok(id, &w, 0, "d6").await;
    s.play_ok(id, &b, 1, "d2").await;
    clock.advance(31_000);
    let (status, body) = s
        .action(id, "claim", json!({"token": w, "result": "draw"}))
        .await;
    // Nobody is connected: either side may claim.
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["result"], "1/2-1/2");

    // No claims without a live clock.
    let (id, w, _) = online_game(&s, "3d").await;
    clock.advance(31_000);
    let (status, body) = s
        .action(id, "claim", json!({"token": w, "result": "win"}))
        .await;
    assert_error(status, &body, 409, "not_allowed");
}

#[tokio::test]
async fn a_player_can_give_the_opponent_time() {
    let clock = ManualClock::new(T0);
    let s = server_on(&clock, None).await;
    let (id, w, b) = online_game(&s, "1+0").await;
    s.play_ok(id, &w, 0, "d6").await;
    s.play_ok(id, &b, 1, "d2").await;
    clock.advance(5_000);
    let (status, st) = s.action(id, "give-time", json!({"token": w})).await;
    assert_eq!(status, StatusCode::OK, "{st}");
    assert_eq!(ms(&st, "black"), 75_000);
    assert_eq!(ms(&st, "white"), 55_000, "White's own clock runs on");
    let (id, w, _) = online_game(&s, "2d").await;
    let (_, st) = s.action(id, "give-time", json!({"token": w})).await;
    assert_eq!(ms(&st, "black"), 3 * 86_400_000);
    // Untimed games have no clock to give.
    let (id, w, _) = online_game(&s, "-").await;
    let (status, body) = s.action(id, "give-time", json!({"token": w})).await;
    assert_error(status, &body, 409, "not_allowed");
}

#[tokio::test]
async fn time_controls_are_checked_and_shown() {
    let clock = ManualClock::new(T0);
    let s = server_on(&clock, None).await;
    for bad in ["0+0", "181+0", "5+200", "4d", "blitz"] {
        let (status, body) = s
            .post("/api/games", json!({"kind": "local", "time_control": bad}))
            .await;
        assert_error(status, &body, 400, "bad_request");
        assert!(
            body["error"]
                .as_str()
                .unwrap()
                .starts_with("time_control: "),
            "{body}"
        );
    }
    let v = s.create(json!({"kind": "local"})).await;
    assert!(v["state"].get("clock").is_none(), "untimed: no clock");
    let v = s
        .create(json!({"kind": "computer", "time_control": "10+5", "level": 1}))
        .await;
    assert_eq!(v["state"]["clock"]["control"], "10+5");
    assert_eq!(v["state"]["clock"]["initial_ms"], 600_000);
    assert_eq!(v["state"]["clock"]["increment_ms"], 5_000);
    let (_, archive) = s.get("/api/games").await;
    assert_eq!(archive["games"][0]["time_control"], "10+5");
    assert_eq!(archive["games"][1]["time_control"], Value::Null);
}

/// Against the computer on a 0.25+0 clock (real time), level 10 takes its
/// time from its clock and keeps a reserve: after 20 plies against instant
/// replies it has used only a part of its time, and it did not lose on it.
#[tokio::test]
async fn the_computer_takes_its_time_from_its_clock() {
    let s = TestServer::start_config(|c| c.computer_movetime_ms = None).await;
    let v = s
        .create(
            json!({"kind": "computer", "level": 10, "color": "white", "time_control": "0.25+0"}),
        )
        .await;
    let id = id_of(&v);
    let w = token(&v, "white");
    let mut st = v["state"].clone();
    while st["ply"].as_u64().unwrap() < 20 && st["status"] == "ongoing" {
        let ply = st["ply"].as_u64().unwrap();
        let mv = st["legal_moves"][0].as_str().unwrap().to_string();
        s.play_ok(id, &w, ply, &mv).await;
        st = s
            .wait_for(id, 20, |s| s["ply"] == ply + 2 || s["status"] == "over")
            .await;
    }
    assert_ne!(st["reason"], "time", "{st}");
    let left = ms(&st, "black");
    // Its share of the time left above a reserve of 1.25 s (a twelfth).
    assert!((1_250..15_000).contains(&left), "{left} ms left");
}

/// `brett db export` / `import` keep a game's clock and each move's times.
#[tokio::test]
async fn an_export_keeps_the_clocks() {
    let clock = ManualClock::new(T0);
    let s = server_on(&clock, None).await;
    let (id, w, _) = local_game(&s, "muehle", "5+3").await;
    clock.advance(7_000);
    s.play_ok(id, &w, 2, "f4").await;
    let from = server::storage::open(&database_url_for(&s.db))
        .await
        .unwrap();
    let games = from.export_games(0, 10).await.unwrap();
    let line = games[0].to_line();
    assert!(line.contains("\"clock\""), "{line}");
    let dir = tempfile::tempdir().unwrap();
    let to = server::storage::open(&format!("sqlite://{}", dir.path().join("b.db").display()))
        .await
        .unwrap();
    to.import_games(vec![server::storage::GameRecord::from_line(&line).unwrap()])
        .await
        .unwrap();
    let (a, b) = (
        from.load_game(id).await.unwrap().unwrap(),
        to.load_game(id).await.unwrap().unwrap(),
    );
    assert_eq!(a.meta.clock, b.meta.clock);
    assert!(a.meta.clock.is_some());
    assert_eq!(a.move_clocks, b.move_clocks);
    assert_eq!(a.move_clocks[2], Some([300_000 - 7_000 + 3_000, 300_000]));
}

#[tokio::test]
async fn the_test_clock_exists_only_when_asked_for_and_ends_a_correspondence_game() {
    let s = TestServer::start().await;
    let (status, v) = s.post("/api/test/clock", json!({"advance_ms": 1})).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{v}");
    let s = TestServer::start_config(|c| c.test_clock = true).await;
    let (id, ..) = local_game(&s, "muehle", "1d").await;
    assert_eq!(s.state(id).await["clock"]["running"], "white");
    let (status, v) = s.post("/api/test/clock", json!({"advance_ms": -1})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    let (status, v) = s
        .post("/api/test/clock", json!({"advance_ms": 86_400_001}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let st = s.wait_for(id, 5, |st| st["status"] == "over").await;
    assert_eq!(st["reason"], "time");
    assert_eq!(st["result"], "0-1");
}
