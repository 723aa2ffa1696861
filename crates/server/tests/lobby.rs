//! The lobby (docs/API.md, "Lobby and challenges"): seeks posted and
//! accepted live over the lobby socket, quick pairing, challenges,
//! rematches, the games being played and their spectators; nobody acts
//! for another player. The servers run on SQLite, or on PostgreSQL with
//! `BRETT_TEST_BACKEND=postgres`.

use crate::common::*;
use reqwest::StatusCode;
use serde_json::{Value, json};
use server::clocks::{ManualClock, Time};

/// The next lobby message of `ws` of type `kind`.
async fn next_of(ws: &mut Ws, kind: &str) -> Value {
    loop {
        let m = next_json(ws).await;
        if m["type"] == kind {
            return m;
        }
    }
}

/// The next lobby messages of `ws` of each type of `kinds`, in whatever
/// order they come (messages of several instances may cross), by `kinds`.
async fn next_each(ws: &mut Ws, kinds: &[&str]) -> Vec<Value> {
    let mut found: Vec<Option<Value>> = vec![None; kinds.len()];
    while found.iter().any(Option::is_none) {
        let m = next_json(ws).await;
        if let Some(i) = kinds.iter().position(|k| m["type"] == *k) {
            found[i].get_or_insert(m);
        }
    }
    found.into_iter().flatten().collect()
}

fn seek(tc: &str, color: &str) -> Value {
    json!({"game": "muehle", "time_control": tc, "color": color})
}

#[tokio::test]
async fn a_seek_is_seen_live_and_accepted_by_exactly_one() {
    let s = TestServer::start().await;
    let anna = Member::register(&s, "Anna").await;
    let ben = Member::register(&s, "Ben").await;
    let carl = Member::register(&s, "Carl").await;

    // Guests see the lobby but post nothing.
    let (status, v) = s.post("/api/lobby/seeks", seek("5+3", "white")).await;
    assert_error(status, &v, 401, "not_logged_in");
    let mut guest = {
        let url = format!("{}/api/lobby/ws", s.base.replace("http://", "ws://"));
        tokio_tungstenite::connect_async(url).await.unwrap().0
    };
    let first = next_of(&mut guest, "lobby").await;
    assert_eq!(first["seeks"], json!([]), "{first}");
    assert!(first.get("challenges").is_none());
    let mut anna_ws = anna.ws(&s, "/api/lobby/ws").await;
    next_of(&mut anna_ws, "lobby").await;

    let (status, v) = anna
        .post(&s, "/api/lobby/seeks", seek("5+3", "white"))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let id = v["seek"]["id"].as_i64().unwrap();
    assert_eq!(v["seek"]["player"]["name"], "Anna");
    assert_eq!(v["seek"]["player"]["rating"]["rating"], 1500);
    assert_eq!(v["seek"]["player"]["rating"]["provisional"], true);
    let heard = next_of(&mut guest, "seek").await;
    assert_eq!(heard["seek"]["id"], id, "{heard}");
    assert_eq!(heard["seek"]["time_control"], "5+3");

    // Nobody acts for another: the poster cannot accept, another cannot
    // cancel.
    let accept = format!("/api/lobby/seeks/{id}/accept");
    let (status, v) = anna.post(&s, &accept, json!({})).await;
    assert_error(status, &v, 403, "forbidden");
    let (status, v) = ben
        .post(&s, &format!("/api/lobby/seeks/{id}/cancel"), json!({}))
        .await;
    assert_error(status, &v, 403, "forbidden");
    let (status, v) = s.post(&accept, json!({})).await;
    assert_error(status, &v, 401, "not_logged_in");

    // Two accept at once: one game.
    let (a, b) = tokio::join!(
        ben.post(&s, &accept, json!({})),
        carl.post(&s, &accept, json!({}))
    );
    let ben_won = a.0 == StatusCode::OK;
    let (winner, loser) = if ben_won { (a, b) } else { (b, a) };
    // Whoever won plays Black.
    let black = if ben_won { &ben } else { &carl };
    assert_eq!(winner.0, StatusCode::OK, "{}", winner.1);
    assert_error(loser.0, &loser.1, 409, "not_allowed");
    let game = winner.1["game"].as_i64().unwrap();
    assert_eq!(winner.1["color"], "black");
    let started = next_of(&mut anna_ws, "started").await;
    assert_eq!(started["game"], game);
    let removed = next_of(&mut guest, "seek_removed").await;
    assert_eq!(removed["id"], id);

    // Both seats are held by the accounts: Anna's cookie moves White.
    let (status, st) = anna.get(&s, &format!("/api/games/{game}")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(st["you"], "white", "{st}");
    assert_eq!(st["players"]["white"]["name"], "Anna");
    assert_eq!(st["players"]["black"]["joined"], true);
    assert_eq!(st["clock"]["control"], "5+3", "{st}");
    let (status, v) = anna
        .post(
            &s,
            &format!("/api/games/{game}/moves"),
            json!({"move": "d6", "ply": 0}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");

    // The lobby lists it among the games being played.
    let (_, lobby) = s.get("/api/lobby").await;
    assert_eq!(lobby["seeks"], json!([]));
    assert_eq!(lobby["games"][0]["id"], game, "{lobby}");
    assert_eq!(lobby["games"][0]["ply"], 1);

    // A spectator's socket is counted in the game's next state.
    let mut watcher = s.ws(game).await;
    next_json(&mut watcher).await;
    let (status, v) = black
        .post(
            &s,
            &format!("/api/games/{game}/moves"),
            json!({"move": "f4", "ply": 1}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["spectators"], 1, "{v}");
    let seen = next_state_where(&mut watcher, |st| st["ply"] == 2).await;
    assert_eq!(seen["spectators"], 1);
}

#[tokio::test]
async fn seeks_are_limited_checked_and_cancelled() {
    let s = TestServer::start().await;
    let anna = Member::register(&s, "Anna").await;
    let ben = Member::register(&s, "Ben").await;
    for bad in [
        json!({"game": "schach", "time_control": "5+3"}),
        json!({"game": "muehle", "time_control": "5 minutes"}),
        json!({"game": "muehle", "time_control": "5+3", "color": "green"}),
        json!({"game": "muehle", "time_control": "5+3", "rating_min": 1800, "rating_max": 1200}),
    ] {
        let (status, v) = anna.post(&s, "/api/lobby/seeks", bad.clone()).await;
        assert_error(status, &v, 400, "bad_request");
    }
    let mut ids = Vec::new();
    for _ in 0..5 {
        let (status, v) = anna
            .post(&s, "/api/lobby/seeks", seek("3d", "random"))
            .await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
        ids.push(v["seek"]["id"].as_i64().unwrap());
    }
    let (status, v) = anna
        .post(&s, "/api/lobby/seeks", seek("3d", "random"))
        .await;
    assert_error(status, &v, 409, "not_allowed");
    let (status, v) = anna
        .post(
            &s,
            &format!("/api/lobby/seeks/{}/cancel", ids[0]),
            json!({}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let (status, v) = ben
        .post(
            &s,
            &format!("/api/lobby/seeks/{}/accept", ids[0]),
            json!({}),
        )
        .await;
    assert_error(status, &v, 409, "not_allowed");
    let (_, lobby) = s.get("/api/lobby").await;
    assert_eq!(lobby["seeks"].as_array().unwrap().len(), 4);

    // A rating range the acceptor is outside of.
    let ranged = json!({"game": "dame", "time_control": "10+5", "rated": true,
                        "rating_min": 1600});
    let (status, v) = anna.post(&s, "/api/lobby/seeks", ranged).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    assert_eq!(v["seek"]["rated"], true);
    let id = v["seek"]["id"].as_i64().unwrap();
    let (status, v) = ben
        .post(&s, &format!("/api/lobby/seeks/{id}/accept"), json!({}))
        .await;
    assert_error(status, &v, 409, "not_allowed");
    assert!(v["error"].as_str().unwrap().contains("1500"), "{v}");
}

#[tokio::test]
async fn live_seeks_lapse_without_a_lobby_socket() {
    let clock = ManualClock::new(1_800_000_000_000);
    let time = Time(clock.clone());
    let s = TestServer::start_config(|c| c.time = time).await;
    let anna = Member::register(&s, "Anna").await;
    let ben = Member::register(&s, "Ben").await;
    let lobby = s.server.as_ref().unwrap().state.lobby.clone();
    let mut anna_ws = anna.ws(&s, "/api/lobby/ws").await;
    next_of(&mut anna_ws, "lobby").await;
    let (status, _) = anna
        .post(&s, "/api/lobby/seeks", seek("5+3", "white"))
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let (status, _) = ben.post(&s, "/api/lobby/seeks", seek("5+3", "white")).await;
    assert_eq!(status, StatusCode::CREATED);
    let (status, _) = ben.post(&s, "/api/lobby/seeks", seek("2d", "white")).await;
    assert_eq!(status, StatusCode::CREATED);
    for _ in 0..3 {
        clock.advance(10_000);
        lobby.renew_and_sweep().await;
    }
    // Anna's socket kept hers; Ben's live seek lapsed, his correspondence
    // seek stays.
    let (_, v) = s.get("/api/lobby").await;
    let left: Vec<(String, String)> = v["seeks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["player"]["name"].as_str().unwrap().to_string(),
                s["time_control"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        left,
        [("Anna".into(), "5+3".into()), ("Ben".into(), "2d".into())]
    );
    drop(anna_ws);
}

#[tokio::test]
async fn quick_pairing_meets_a_waiting_seek() {
    let s = TestServer::start().await;
    let anna = Member::register(&s, "Anna").await;
    let ben = Member::register(&s, "Ben").await;
    let mut anna_ws = anna.ws(&s, "/api/lobby/ws").await;
    next_of(&mut anna_ws, "lobby").await;
    let quick = json!({"game": "dame", "time_control": "5+3"});
    let (status, v) = anna.post(&s, "/api/lobby/quick", quick.clone()).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    assert_eq!(v["seek"]["color"], "random");
    // Again: the same seek, not a second one.
    let (status, again) = anna.post(&s, "/api/lobby/quick", quick.clone()).await;
    assert_eq!(status, StatusCode::OK, "{again}");
    assert_eq!(again["seek"]["id"], v["seek"]["id"]);
    // Another time control does not match.
    let other = json!({"game": "dame", "time_control": "10+5"});
    let (status, _) = ben.post(&s, "/api/lobby/quick", other).await;
    assert_eq!(status, StatusCode::CREATED);
    let (status, v) = ben.post(&s, "/api/lobby/quick", quick).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let game = v["game"].as_i64().unwrap();
    assert_eq!(next_of(&mut anna_ws, "started").await["game"], game);
    let st = s.state(game).await;
    assert_eq!(st["game"], "dame");
    let names = [
        &st["players"]["white"]["name"],
        &st["players"]["black"]["name"],
    ];
    assert!(
        names.contains(&&json!("Anna")) && names.contains(&&json!("Ben")),
        "{st}"
    );
}

#[tokio::test]
async fn challenges_reach_only_their_player() {
    let s = TestServer::start().await;
    let anna = Member::register(&s, "Anna").await;
    let ben = Member::register(&s, "Ben").await;
    let carl = Member::register(&s, "Carl").await;
    let mut ben_ws = ben.ws(&s, "/api/lobby/ws").await;
    next_of(&mut ben_ws, "lobby").await;
    let mut carl_ws = carl.ws(&s, "/api/lobby/ws").await;
    next_of(&mut carl_ws, "lobby").await;

    let body = |to: &str| {
        json!({"to": to, "game": "muehle", "time_control": "10+5",
                                 "color": "black"})
    };
    let (status, v) = anna.post(&s, "/api/challenges", body("Nobody")).await;
    assert_error(status, &v, 404, "not_found");
    let (status, v) = anna.post(&s, "/api/challenges", body("anna")).await;
    assert_error(status, &v, 409, "not_allowed");
    let (status, v) = anna.post(&s, "/api/challenges", body("ben")).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let id = v["challenge"]["id"].as_i64().unwrap();
    let heard = next_of(&mut ben_ws, "challenge").await;
    assert_eq!(heard["challenge"]["player"]["name"], "Anna", "{heard}");
    assert_eq!(heard["challenge"]["to"], "Ben");

    // Not a seek, and nobody else's to read or act on.
    let (_, lobby) = s.get("/api/lobby").await;
    assert_eq!(lobby["seeks"], json!([]));
    let (_, mine) = carl.get(&s, "/api/challenges").await;
    assert_eq!(mine, json!({"in": [], "out": []}));
    for what in ["accept", "decline", "cancel"] {
        let path = format!("/api/challenges/{id}/{what}");
        let (status, v) = carl.post(&s, &path, json!({})).await;
        assert_error(status, &v, 404, "not_found");
    }
    let (status, v) = anna
        .post(&s, &format!("/api/challenges/{id}/accept"), json!({}))
        .await;
    assert_error(status, &v, 403, "forbidden");
    let (status, v) = ben
        .post(&s, &format!("/api/challenges/{id}/cancel"), json!({}))
        .await;
    assert_error(status, &v, 403, "forbidden");
    let (_, ins) = ben.get(&s, "/api/challenges").await;
    assert_eq!(ins["in"][0]["id"], id, "{ins}");
    assert_eq!(ins["in"][0]["status"], "open");

    // Declined: the challenger's list says so.
    let (status, v) = ben
        .post(&s, &format!("/api/challenges/{id}/decline"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let (_, outs) = anna.get(&s, "/api/challenges").await;
    assert_eq!(outs["out"][0]["status"], "declined", "{outs}");

    // Cancelled by the challenger.
    let (_, v) = anna.post(&s, "/api/challenges", body("Ben")).await;
    let id = v["challenge"]["id"].as_i64().unwrap();
    let (status, _) = anna
        .post(&s, &format!("/api/challenges/{id}/cancel"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(next_of(&mut ben_ws, "challenge_cancelled").await["id"], id);
    let (status, v) = ben
        .post(&s, &format!("/api/challenges/{id}/accept"), json!({}))
        .await;
    assert_error(status, &v, 409, "not_allowed");

    // Accepted: the game starts with Anna as Black; the challenger's
    // list has the game.
    let (_, v) = anna.post(&s, "/api/challenges", body("Ben")).await;
    let id = v["challenge"]["id"].as_i64().unwrap();
    let (status, v) = ben
        .post(&s, &format!("/api/challenges/{id}/accept"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["color"], "white");
    let game = v["game"].as_i64().unwrap();
    assert_eq!(next_of(&mut ben_ws, "started").await["game"], game);
    let (_, outs) = anna.get(&s, "/api/challenges").await;
    let line = outs["out"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == id)
        .unwrap();
    assert_eq!(line["status"], "accepted");
    assert_eq!(line["game_id"], game);
    // Carl heard none of it.
    let quiet = tokio::time::timeout(
        std::time::Duration::from_millis(300),
        next_json(&mut carl_ws),
    );
    assert!(quiet.await.is_err(), "Carl was told of another's challenge");
}

/// A finished online game between two guests: its id and both tokens.
async fn finished_guest_game(s: &TestServer) -> (i64, String, String) {
    let v = s
        .create(json!({"kind": "online", "color": "white", "time_control": "5+3"}))
        .await;
    let (id, white) = (id_of(&v), token(&v, "white"));
    let black = v["invite"]["token"].as_str().unwrap().to_string();
    let (status, _) = s.action(id, "join", json!({"token": black})).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = s.action(id, "resign", json!({"token": white})).await;
    assert_eq!(status, StatusCode::OK);
    (id, white, black)
}

#[tokio::test]
async fn a_rematch_swaps_colours_and_gives_guests_their_seats() {
    let s = TestServer::start().await;
    let (id, white, black) = finished_guest_game(&s).await;
    let mut ws = s.ws(id).await;
    next_json(&mut ws).await;

    // Not before the end, not by a stranger.
    let (status, v) = s
        .action(id, "rematch", json!({"token": "x".repeat(32)}))
        .await;
    assert_error(status, &v, 403, "wrong_token");

    let (status, v) = s.action(id, "rematch", json!({"token": white})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert!(v.get("game").is_none(), "{v}");
    let st = next_state_where(&mut ws, |st| st.get("rematch").is_some()).await;
    assert_eq!(st["rematch"], json!({"offered_by": "white"}));
    // Offering twice changes nothing.
    let (status, v) = s.action(id, "rematch", json!({"token": white})).await;
    assert_eq!(status, StatusCode::OK);
    assert!(v.get("game").is_none(), "{v}");

    let (status, v) = s.action(id, "rematch", json!({"token": black})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let next = v["game"].as_i64().unwrap();
    assert_eq!(v["color"], "white");
    let black_now = v["token"].as_str().unwrap().to_string();
    let st = next_state_where(&mut ws, |st| st["rematch"]["game"].is_i64()).await;
    assert_eq!(st["rematch"]["game"], next);

    // The offerer's call now answers its seat; again and again the same.
    let (_, v) = s.action(id, "rematch", json!({"token": white})).await;
    assert_eq!(v["game"], next);
    assert_eq!(v["color"], "black");
    let white_now = v["token"].as_str().unwrap().to_string();
    let (_, again) = s.action(id, "rematch", json!({"token": white})).await;
    assert_eq!(again["token"], v["token"]);

    let (_, st) = s.get(&format!("/api/games/{next}?token={black_now}")).await;
    assert_eq!(st["you"], "white", "{st}");
    assert_eq!(st["clock"]["control"], "5+3");
    assert_eq!(st["players"]["black"]["joined"], true);
    let (_, st) = s.get(&format!("/api/games/{next}?token={white_now}")).await;
    assert_eq!(st["you"], "black");
    s.play_ok(next, &black_now, 0, "d6").await;

    // A declined offer is gone.
    let (id, white, black) = finished_guest_game(&s).await;
    s.action(id, "rematch", json!({"token": black})).await;
    let (status, _) = s
        .action(id, "rematch", json!({"token": white, "action": "decline"}))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert!(s.state(id).await.get("rematch").is_none());
    let (status, v) = s
        .action(id, "rematch", json!({"token": white, "action": "decline"}))
        .await;
    assert_error(status, &v, 409, "not_allowed");
}

#[tokio::test]
async fn a_rematch_of_accounts_is_held_by_their_cookies() {
    let s = TestServer::start().await;
    let anna = Member::register(&s, "Anna").await;
    let ben = Member::register(&s, "Ben").await;
    let (_, v) = anna.post(&s, "/api/lobby/seeks", seek("-", "white")).await;
    let id = v["seek"]["id"].as_i64().unwrap();
    let (_, v) = ben
        .post(&s, &format!("/api/lobby/seeks/{id}/accept"), json!({}))
        .await;
    let game = v["game"].as_i64().unwrap();
    let path = format!("/api/games/{game}/rematch");
    let (status, v) = anna.post(&s, &path, json!({})).await;
    assert_error(status, &v, 409, "not_allowed");
    anna.post(&s, &format!("/api/games/{game}/resign"), json!({}))
        .await;
    anna.post(&s, &path, json!({})).await;
    let (status, v) = ben.post(&s, &path, json!({})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert!(v.get("token").is_none(), "{v}");
    let next = v["game"].as_i64().unwrap();
    let (_, st) = anna.get(&s, &format!("/api/games/{next}")).await;
    assert_eq!(st["you"], "black");
    assert_eq!(st["players"]["white"]["name"], "Ben");
}

#[tokio::test]
async fn an_invitation_nobody_joined_can_be_cancelled() {
    let s = TestServer::start().await;
    let v = s.create(json!({"kind": "online", "color": "white"})).await;
    let (id, white) = (id_of(&v), token(&v, "white"));
    let (status, v) = s.action(id, "abort", json!({"token": white})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["status"], "over");
    assert_eq!(v["reason"], "aborted");
    assert_eq!(v["ply"], 0);
    let invite = s.create(json!({"kind": "online", "color": "white"})).await;
    let (status, v) = s
        .action(id_of(&invite), "abort", json!({"token": "nope"}))
        .await;
    assert_error(status, &v, 403, "wrong_token");
}

#[tokio::test]
async fn two_instances_share_one_lobby() {
    let Some(base) = postgres_url("two_instances_share_one_lobby") else {
        return;
    };
    let url = new_pg_database(&base).await;
    let instance = || {
        let mut c = config(std::path::Path::new("unused"), 30);
        c.database_url = Some(url.clone());
        TestServer::with_config("unused".into(), c)
    };
    let a = instance().await;
    let b = instance().await;
    let anna = Member::register(&a, "Anna").await;
    let ben = Member::register(&a, "Ben").await;
    let mut anna_on_a = anna.ws(&a, "/api/lobby/ws").await;
    next_of(&mut anna_on_a, "lobby").await;
    let mut ben_on_b = ben.ws(&b, "/api/lobby/ws").await;
    next_of(&mut ben_on_b, "lobby").await;

    // A seek posted on A reaches B's socket; accepted on B, A's socket
    // hears the game start.
    let (status, v) = anna
        .post(&a, "/api/lobby/seeks", seek("10+5", "black"))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let id = v["seek"]["id"].as_i64().unwrap();
    assert_eq!(next_of(&mut ben_on_b, "seek").await["seek"]["id"], id);
    let (status, v) = ben
        .post(&b, &format!("/api/lobby/seeks/{id}/accept"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["color"], "white");
    let game = v["game"].as_i64().unwrap();
    let heard = next_each(&mut anna_on_a, &["seek_removed", "started"]).await;
    assert_eq!(heard[0]["id"], id);
    assert_eq!(heard[1]["game"], game);

    // A spectator on B is counted on A, from the game's next change.
    let mut seat = anna.ws(&a, &format!("/api/games/{game}/ws")).await;
    next_json(&mut seat).await;
    send_text(&mut seat, r#"{"type":"hello"}"#).await;
    let _watcher = b.ws(game).await;
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    let mv = json!({"move": "d6", "ply": 0});
    let (status, v) = ben.post(&b, &format!("/api/games/{game}/moves"), mv).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let st = next_state_where(&mut seat, |st| st["ply"] == 1).await;
    assert_eq!(st["spectators"], 1, "{st}");
}

#[tokio::test]
async fn a_blocked_player_neither_challenges_nor_takes_a_seek() {
    let s = TestServer::start().await;
    let anna = Member::register(&s, "Anna").await;
    let ben = Member::register(&s, "Ben").await;
    let (status, v) = anna.post(&s, "/api/players/ben/block", json!({})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let body =
        |to: &str| json!({"to": to, "game": "muehle", "time_control": "10+5", "color": "white"});
    // Both ways: Ben cannot challenge Anna, nor Anna Ben.
    let (status, v) = ben.post(&s, "/api/challenges", body("anna")).await;
    assert_error(status, &v, 409, "not_allowed");
    let (status, v) = anna.post(&s, "/api/challenges", body("ben")).await;
    assert_error(status, &v, 409, "not_allowed");
    let (_, v) = anna.get(&s, "/api/challenges").await;
    assert_eq!(v, json!({"in": [], "out": []}));
    // Anna's correspondence seek is not Ben's to take.
    let (status, v) = anna.post(&s, "/api/lobby/seeks", seek("3d", "white")).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let id = v["seek"]["id"].as_i64().unwrap();
    let (status, v) = ben
        .post(&s, &format!("/api/lobby/seeks/{id}/accept"), json!({}))
        .await;
    assert_error(status, &v, 409, "not_allowed");
    let (_, lobby) = s.get("/api/lobby").await;
    assert_eq!(
        lobby["seeks"][0]["id"], id,
        "the seek stays open for others"
    );
    // Unblocked: the challenge goes through.
    let (status, v) = anna.post(&s, "/api/players/ben/unblock", json!({})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let (status, v) = ben.post(&s, "/api/challenges", body("anna")).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
}
