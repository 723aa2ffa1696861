//! The API of docs/API.md against a real server and a real SQLite file.

use std::time::Duration;

use crate::common::*;
use reqwest::StatusCode;
use serde_json::{Value, json};

/// An online game whose seats are both joined: (id, host token, guest token).
async fn online_game(s: &TestServer) -> (i64, String, String) {
    let v = s
        .create(json!({"game": "muehle", "kind": "online", "rules": "standard", "color": "white", "name": "Anna"}))
        .await;
    let guest = v["invite"]["token"].as_str().unwrap().to_string();
    let id = id_of(&v);
    let (status, j) = s.action(id, "join", json!({"token": guest})).await;
    assert_eq!(status, 200, "{j}");
    (id, token(&v, "white"), guest)
}

#[tokio::test]
async fn create_each_kind() {
    let s = TestServer::start().await;

    let v = s
        .create(json!({"game": "muehle", "kind": "local", "rules": "standard", "name": "Anna"}))
        .await;
    assert!(v["tokens"]["white"].is_string() && v["tokens"]["black"].is_string());
    assert!(v.get("invite").is_none());
    let st = s.state(id_of(&v)).await;
    assert_eq!(st["kind"], "local");
    assert_eq!(st["game"], "muehle");
    assert_eq!(st["rules"], "standard");
    assert_eq!(st["status"], "ongoing");
    assert_eq!(st["ply"], 0);
    assert_eq!(st["turn"], "white");
    assert_eq!(st["position"], ".../.../.../....../.../.../... w 9 9 0 1");
    assert_eq!(st["start_position"], st["position"]);
    assert_eq!(st["legal_moves"].as_array().unwrap().len(), 24);
    assert_eq!(st["in_hand"], json!({"white": 9, "black": 9}));
    assert_eq!(st["on_board"], json!({"white": 0, "black": 0}));
    assert_eq!(st["removed"], json!({"white": 0, "black": 0}));
    assert_eq!(st["phase"], json!({"white": "placing", "black": "placing"}));
    assert_eq!(
        st["rule_options"],
        json!({"removal": "tournament", "flying": true, "no_mill": 100, "repetition": 3})
    );
    assert_eq!(st["players"]["white"]["name"], "Anna");
    assert_eq!(st["players"]["white"]["type"], "human");
    assert_eq!(st["thinking"], false);
    assert!(st["created_at"].as_str().unwrap().ends_with('Z'));
    assert!(st["result"].is_null() && st["reason"].is_null() && st["draw_offer"].is_null());

    let v = s
        .create(
            json!({"game": "muehle", "kind": "online", "color": "black", "name": "Ben",
                       "rules": "ravensburger", "options": {"no_mill": 40}}),
        )
        .await;
    assert!(v["tokens"]["black"].is_string() && v["tokens"].get("white").is_none());
    assert_eq!(v["invite"]["color"], "white");
    let id = id_of(&v);
    let invite_token = v["invite"]["token"].as_str().unwrap();
    assert_eq!(
        v["invite"]["url"],
        format!("/game/{id}#token={invite_token}")
    );
    let st = s.state(id).await;
    assert_eq!(st["rules"], "ravensburger,no-mill=40");
    assert_eq!(st["rule_options"]["removal"], "strict");
    assert_eq!(st["players"]["white"]["joined"], false);
    assert_eq!(st["players"]["black"]["joined"], true);

    // The computer plays White when the player takes Black, at once.
    let v = s
        .create(json!({"game": "muehle", "kind": "computer", "level": 3, "color": "black"}))
        .await;
    assert!(v["tokens"]["black"].is_string());
    let id = id_of(&v);
    let st = s.wait_for(id, 20, |st| st["ply"] == 1).await;
    assert_eq!(st["players"]["white"]["type"], "computer");
    assert_eq!(st["players"]["white"]["level"], 3);
    assert_eq!(st["players"]["white"]["name"], "Computer (level 3)");
    assert_eq!(st["turn"], "black");

    let v = s
        .create(json!({"kind": "computer", "color": "random"}))
        .await;
    let color = if v["tokens"]["white"].is_string() {
        "white"
    } else {
        "black"
    };
    let st = s.state(id_of(&v)).await;
    assert_eq!(st["players"][color]["type"], "human");
    assert_eq!(st["players"][color]["level"], Value::Null);

    // A start position.
    let pos = "W.B/.WB/W.B/BW..WB/.W./B.W/... w 0 0 12 20";
    let v = s.create(json!({"kind": "local", "position": pos})).await;
    let st = s.state(id_of(&v)).await;
    assert_eq!(st["start_position"], pos);
    assert_eq!(st["phase"]["white"], "moving");

    // Bad creations.
    for body in [
        json!({"kind": "sofa"}),
        json!({"kind": "local", "rules": "chess"}),
        json!({"kind": "local", "options": {"gravity": true}}),
        json!({"kind": "local", "options": {"flying": "maybe"}}),
        json!({"kind": "computer", "level": 11}),
        json!({"kind": "computer", "color": "green"}),
        json!({"kind": "local", "position": "nonsense"}),
        json!({"kind": "local", "game": "go"}),
        json!({"kind": "local", "name": "x".repeat(41)}),
        json!({"kind": "local", "name": "bell\u{7}"}),
        json!({"kind": 5}),
        json!({}),
    ] {
        let (status, v) = s.post("/api/games", body.clone()).await;
        assert_error(status, &v, 400, "bad_request");
    }
}

#[tokio::test]
async fn a_local_game_to_the_end() {
    let s = TestServer::start().await;
    let (moves, result, reason) = winning_game();
    let v = s.create(json!({"kind": "local", "name": "Anna"})).await;
    let id = id_of(&v);
    let tokens = [token(&v, "white"), token(&v, "black")];
    let mut last = Value::Null;
    for (ply, mv) in moves.iter().enumerate() {
        // Mill moves go as two tokens every other time ("d6 xb4").
        let text = match mv.split_once('x') {
            Some((m, r)) if ply % 2 == 0 => format!("{m} x{r}"),
            _ => mv.clone(),
        };
        last = s.play_ok(id, &tokens[ply % 2], ply as u64, &text).await;
        assert_eq!(last["ply"], ply + 1);
        assert_eq!(last["last_move"], mv.as_str());
    }
    assert_eq!(last["status"], "over");
    assert_eq!(last["result"], result.as_str());
    assert_eq!(last["reason"], reason.as_str());
    assert!(last["reason_text"].as_str().unwrap().contains("wins"));
    assert_eq!(last["legal_moves"], json!([]));
    assert_eq!(last["moves"], json!(moves));
    // Nothing more can happen.
    let (status, v) = s
        .play(id, &tokens[moves.len() % 2], moves.len() as u64, "a1")
        .await;
    assert_error(status, &v, 409, "game_over");
    let (status, v) = s.action(id, "resign", json!({"token": tokens[0]})).await;
    assert_error(status, &v, 409, "game_over");
    let st = s.state(id).await;
    assert_eq!(st["moves"], json!(moves));
}

#[tokio::test]
async fn resignation_and_draws() {
    let s = TestServer::start().await;
    let (id, host, guest) = online_game(&s).await;
    // Decline, then offer and accept.
    let (status, v) = s.draw(id, &host, "accept").await;
    assert_error(status, &v, 409, "no_draw_offer");
    let (status, v) = s.draw(id, &host, "offer").await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["draw_offer"], "white");
    assert_eq!(v["you"], "white");
    let (status, v) = s.draw(id, &host, "accept").await;
    assert_error(status, &v, 409, "no_draw_offer");
    let (status, v) = s.draw(id, &guest, "decline").await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["draw_offer"], Value::Null);
    // An offer stands until the opponent moves.
    s.draw(id, &guest, "offer").await;
    let v = s.play_ok(id, &host, 0, "d6").await;
    assert_eq!(v["draw_offer"], Value::Null);
    let (_, v) = s.draw(id, &host, "offer").await;
    assert_eq!(v["draw_offer"], "white");
    let (status, v) = s.draw(id, &guest, "accept").await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["status"], "over");
    assert_eq!(v["result"], "1/2-1/2");
    assert_eq!(v["reason"], "agreement");
    let (status, v) = s.draw(id, &guest, "dance").await;
    assert_error(status, &v, 400, "bad_request");

    // Resignation.
    let (id, host, guest) = online_game(&s).await;
    let (status, v) = s.action(id, "resign", json!({"token": guest})).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["result"], "1-0");
    assert_eq!(v["reason"], "resignation");
    let (status, v) = s.action(id, "resign", json!({"token": host})).await;
    assert_error(status, &v, 409, "game_over");
    // Both survive a reload from the database (checked again in `restart`).
    assert_eq!(s.state(id).await["reason"], "resignation");

    // The computer declines draw offers.
    let v = s
        .create(json!({"kind": "computer", "color": "white"}))
        .await;
    let id = id_of(&v);
    let (status, v) = s
        .action(
            id,
            "draw",
            json!({"token": token(&v, "white"), "action": "offer"}),
        )
        .await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["draw_offer"], Value::Null);
    assert_eq!(v["status"], "ongoing");
}

#[tokio::test]
async fn error_cases() {
    let s = TestServer::start().await;
    let v = s.create(json!({"kind": "local"})).await;
    let id = id_of(&v);
    let (white, black) = (token(&v, "white"), token(&v, "black"));
    let moves = format!("/api/games/{id}/moves");

    // Illegal move: the message says why.
    let (status, v) = s.play(id, &white, 0, "d6xb4").await;
    assert_error(status, &v, 422, "illegal_move");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("does not close a mill"),
        "{v}"
    );
    let (status, v) = s.play(id, &white, 0, "z9").await;
    assert_error(status, &v, 422, "illegal_move");
    let (status, v) = s.play(id, &white, 0, "").await;
    assert_error(status, &v, 422, "illegal_move");
    let (status, v) = s.play(id, &white, 0, &"a1-".repeat(1000)).await;
    assert_error(status, &v, 422, "illegal_move");

    // Not your turn.
    let (status, v) = s.play(id, &black, 0, "d6").await;
    assert_error(status, &v, 409, "not_your_turn");

    // Duplicate: the same request twice; the second is stale, nothing changes.
    let first = s.play_ok(id, &white, 0, "d6").await;
    let (status, v) = s.play(id, &white, 0, "d6").await;
    assert_error(status, &v, 409, "stale_ply");
    let st = s.state(id).await;
    assert_eq!(st["moves"], json!(["d6"]));
    assert_eq!(st["position"], first["position"]);
    // Stale ply from the future and the past.
    let (status, v) = s.play(id, &black, 5, "f4").await;
    assert_error(status, &v, 409, "stale_ply");
    let (status, v) = s.play(id, &black, 0, "f4").await;
    assert_error(status, &v, 409, "stale_ply");

    // Tokens.
    let (status, v) = s.play(id, "not-a-token", 1, "f4").await;
    assert_error(status, &v, 403, "wrong_token");
    let (status, v) = s.play(id, "", 1, "f4").await;
    assert_error(status, &v, 403, "wrong_token");
    let (status, v) = s.post(&moves, json!({"move": "f4", "ply": 1})).await;
    assert_error(status, &v, 403, "wrong_token");
    let other = s.create(json!({"kind": "local"})).await;
    let (status, v) = s.play(id, &token(&other, "black"), 1, "f4").await;
    assert_error(status, &v, 403, "wrong_token");

    // Malformed JSON, wrong types, missing fields.
    for raw in [
        "{",
        "not json",
        "",
        "[1,2]",
        "{\"move\": \"f4\", \"token\": 7, \"ply\": 1}",
    ] {
        let (status, v) = s.post_raw(&moves, raw.to_string()).await;
        assert_error(status, &v, 400, "bad_request");
    }
    for body in [
        json!({"move": 5, "token": black, "ply": 1}),
        json!({"move": "f4", "token": black, "ply": "1"}),
        json!({"move": "f4", "token": black, "ply": -1}),
        json!({"move": "f4", "token": black}),
        json!({"token": black, "ply": 1}),
    ] {
        let (status, v) = s.post(&moves, body).await;
        assert_error(status, &v, 400, "bad_request");
    }

    // Oversized body.
    let big = json!({"move": "f4", "token": black, "ply": 1, "pad": "x".repeat(70 * 1024)});
    let (status, v) = s.post(&moves, big).await;
    assert_error(status, &v, 413, "too_large");

    // Unknown game, bad ids, unknown endpoints, wrong method.
    let (status, v) = s.get("/api/games/999999").await;
    assert_error(status, &v, 404, "not_found");
    let (status, v) = s.play(999_999, &black, 1, "f4").await;
    assert_error(status, &v, 404, "not_found");
    let (status, v) = s.get("/api/games/abc").await;
    assert_error(status, &v, 404, "not_found");
    let (status, v) = s.get("/api/games/-1").await;
    assert_error(status, &v, 404, "not_found");
    let (status, v) = s.get("/api/nothing/here").await;
    assert_error(status, &v, 404, "not_found");
    let (status, v) = s.get(&moves).await;
    assert_error(status, &v, 405, "method_not_allowed");
    let (status, v) = s.get(&format!("/api/games/{id}/ws")).await;
    assert_error(status, &v, 400, "bad_request");
    let (status, v) = s.get("/api/games?limit=lots").await;
    assert_error(status, &v, 400, "bad_request");

    // Takeback in an online game; join outside an online game.
    let (online, online_host, _) = online_game(&s).await;
    s.play_ok(online, &online_host, 0, "d6").await;
    let (status, v) = s
        .action(online, "takeback", json!({"token": online_host}))
        .await;
    assert_error(status, &v, 409, "not_allowed");
    let (status, v) = s
        .action(id, "join", json!({"token": white, "name": "X"}))
        .await;
    assert_error(status, &v, 409, "not_allowed");

    // None of it changed the game.
    let st = s.state(id).await;
    assert_eq!(st["moves"], json!(["d6"]));
    assert_eq!(st["status"], "ongoing");
}

#[tokio::test]
async fn concurrent_moves_one_wins() {
    let s = TestServer::start().await;
    let v = s.create(json!({"kind": "local"})).await;
    let id = id_of(&v);
    let white = token(&v, "white");
    let mut tasks = Vec::new();
    for sq in ["a1", "a4", "a7", "d1", "d2", "d3", "g1", "g4"] {
        let client = s.client.clone();
        let url = s.url(&format!("/api/games/{id}/moves"));
        let body = json!({"move": sq, "token": white, "ply": 0});
        tasks.push(tokio::spawn(async move {
            client.post(url).json(&body).send().await.unwrap().status()
        }));
    }
    let mut ok = 0;
    for t in tasks {
        let status = t.await.unwrap();
        if status == StatusCode::OK {
            ok += 1;
        } else {
            assert_eq!(status, StatusCode::CONFLICT);
        }
    }
    assert_eq!(ok, 1);
    let st = s.state(id).await;
    assert_eq!(st["ply"], 1);
    assert_eq!(st["moves"].as_array().unwrap().len(), 1);
}

/// #12 §3.8: an online game waits for the invited player: before they
/// join, nobody moves, offers a draw or resigns; after, the game goes on.
#[tokio::test]
async fn online_game_waits_for_the_invited_player() {
    let s = TestServer::start().await;
    let v = s
        .create(json!({"kind": "online", "color": "white", "name": "Host"}))
        .await;
    let id = id_of(&v);
    let host = token(&v, "white");
    let guest = v["invite"]["token"].as_str().unwrap().to_string();
    let (status, v) = s.play(id, &host, 0, "d6").await;
    assert_error(status, &v, 409, "waiting_for_opponent");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("black player has not joined"),
        "{v}"
    );
    for (path, body) in [
        ("draw", json!({"token": host, "action": "offer"})),
        ("resign", json!({"token": host})),
        ("resign", json!({"token": guest})),
    ] {
        let (status, v) = s.post(&format!("/api/games/{id}/{path}"), body).await;
        assert_error(status, &v, 409, "waiting_for_opponent");
    }
    // A wrong token is still told so first.
    let (status, v) = s.play(id, "nonsense", 0, "d6").await;
    assert_error(status, &v, 403, "wrong_token");
    let st = s.state(id).await;
    assert_eq!(st["ply"], 0);
    assert_eq!(st["status"], "ongoing");

    let (status, v) = s.action(id, "join", json!({"token": guest})).await;
    assert_eq!(status, 200, "{v}");
    s.play_ok(id, &host, 0, "d6").await;
    s.play_ok(id, &guest, 1, "f4").await;
}

#[tokio::test]
async fn online_guest_cannot_move_the_hosts_stones() {
    let s = TestServer::start().await;
    // Both sides in the moving phase, Black to move.
    let pos = "W.B/.WB/W.B/BW..WB/.W./B.W/... b 0 0 12 20";
    let v = s
        .create(json!({"kind": "online", "color": "white", "name": "Host", "position": pos}))
        .await;
    let id = id_of(&v);
    let host = token(&v, "white");
    let guest = v["invite"]["token"].as_str().unwrap().to_string();

    let (status, v) = s
        .action(id, "join", json!({"token": guest, "name": "  Guest  "}))
        .await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["you"], "black");
    assert_eq!(v["players"]["black"]["name"], "Guest");
    assert_eq!(v["players"]["black"]["joined"], true);
    let (_, v) = s.get(&format!("/api/games/{id}?token={guest}")).await;
    assert_eq!(v["you"], "black");
    let (_, v) = s.get(&format!("/api/games/{id}?token=nonsense")).await;
    assert_eq!(v["you"], Value::Null);

    // The host cannot move for the guest, the guest not for the host.
    let (status, v) = s.play(id, &host, 0, "c5-d5").await;
    assert_error(status, &v, 409, "not_your_turn");
    // White stones stand on a7 and d6.
    let (status, v) = s.play(id, &guest, 0, "d6-d7").await;
    assert_error(status, &v, 422, "illegal_move");
    let (status, v) = s.play(id, &guest, 0, "a7-d7").await;
    assert_error(status, &v, 422, "illegal_move");
    let st = s.state(id).await;
    assert_eq!(st["ply"], 0);
    // A legal black move works.
    let legal = st["legal_moves"][0].as_str().unwrap().to_string();
    s.play_ok(id, &guest, 0, &legal).await;
    let (status, v) = s
        .play(id, &guest, 1, st["legal_moves"][1].as_str().unwrap())
        .await;
    assert_error(status, &v, 409, "not_your_turn");
}

#[tokio::test]
async fn websocket_live() {
    let s = TestServer::start().await;
    let (id, host, guest) = online_game(&s).await;
    let mut watcher = s.ws(id).await;
    let first = next_json(&mut watcher).await;
    assert_eq!(first["type"], "state");
    assert_eq!(first["state"]["ply"], 0);
    assert_eq!(first["state"]["id"], id);

    let mut guest_ws = s.ws(id).await;
    assert_eq!(next_json(&mut guest_ws).await["state"]["ply"], 0);
    s.action(id, "join", json!({"token": guest, "name": "Ben"}))
        .await;
    let st = next_state_where(&mut guest_ws, |st| st["players"]["black"]["joined"] == true).await;
    assert_eq!(st["players"]["black"]["name"], "Ben");

    // The host moves: the guest's socket hears it live, as does the watcher.
    s.play_ok(id, &host, 0, "d6").await;
    let st = next_state_where(&mut guest_ws, |st| st["ply"] == 1).await;
    assert_eq!(st["moves"], json!(["d6"]));
    assert_eq!(st["turn"], "black");
    s.play_ok(id, &guest, 1, "f4").await;
    let st = next_state_where(&mut watcher, |st| st["ply"] == 2).await;
    assert_eq!(st["last_move"], "f4");

    // Ping, pong.
    send_text(&mut watcher, r#"{"type":"ping"}"#).await;
    assert_eq!(next_json(&mut watcher).await, json!({"type": "pong"}));

    // A malformed message closes the socket; so does an oversized one.
    send_text(&mut watcher, "hello?").await;
    assert_eq!(closed(&mut watcher).await, Some(1008));
    let big = format!(r#"{{"type":"ping","pad":"{}"}}"#, "x".repeat(5000));
    send_text(&mut guest_ws, &big).await;
    assert_eq!(closed(&mut guest_ws).await, Some(1009));

    // A socket of an unknown game is refused before the upgrade.
    let url = format!("{}/api/games/999999/ws", s.base.replace("http://", "ws://"));
    assert!(tokio_tungstenite::connect_async(url).await.is_err());

    // Many sockets, one move: every one hears it.
    let mut sockets = Vec::new();
    for _ in 0..20 {
        let mut ws = s.ws(id).await;
        next_json(&mut ws).await;
        sockets.push(ws);
    }
    s.play_ok(id, &host, 2, "d2").await;
    for ws in &mut sockets {
        next_state_where(ws, |st| st["ply"] == 3).await;
    }
}

#[tokio::test]
async fn computer_answers_and_takeback() {
    let s = TestServer::start().await;
    let v = s
        .create(json!({"kind": "computer", "level": 5, "color": "white", "name": "Anna"}))
        .await;
    let id = id_of(&v);
    let me = token(&v, "white");
    let mut ws = s.ws(id).await;
    next_json(&mut ws).await;

    // Nothing to take back yet.
    let (status, v) = s.action(id, "takeback", json!({"token": me})).await;
    assert_error(status, &v, 409, "not_allowed");

    let v = s.play_ok(id, &me, 0, "d6").await;
    assert_eq!(v["thinking"], true);
    let st = next_state_where(&mut ws, |st| st["ply"] == 2).await;
    assert_eq!(st["thinking"], false);
    assert_eq!(st["turn"], "white");
    let reply = st["moves"][1].as_str().unwrap().to_string();
    s.play_ok(id, &me, 2, st["legal_moves"][0].as_str().unwrap())
        .await;
    let st = s.wait_for(id, 20, |st| st["ply"] == 4).await;
    assert_eq!(st["moves"][1], reply.as_str());

    // Takeback: the player's last move and the computer's reply.
    let (status, v) = s.action(id, "takeback", json!({"token": me})).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["ply"], 2);
    assert_eq!(v["turn"], "white");
    assert_eq!(v["thinking"], false);
    // Tokens of nobody cannot take back.
    let (status, v) = s.action(id, "takeback", json!({"token": "x"})).await;
    assert_error(status, &v, 403, "wrong_token");
}

#[tokio::test]
async fn local_takeback_undoes_the_last_move() {
    // Local games (both seats at one screen): a takeback undoes the last
    // move, whoever made it; either seat's token may ask for it.
    let s = TestServer::start().await;
    let v = s.create(json!({"kind": "local"})).await;
    let id = id_of(&v);
    let (white, black) = (token(&v, "white"), token(&v, "black"));
    let takeback = format!("/api/games/{id}/takeback");
    let (status, v) = s.post(&takeback, json!({"token": white})).await;
    assert_error(status, &v, 409, "not_allowed");

    s.play_ok(id, &white, 0, "d6").await;
    s.play_ok(id, &black, 1, "f4").await;
    let (status, v) = s.post(&takeback, json!({"token": white})).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["ply"], 1);
    assert_eq!(v["moves"], json!(["d6"]));
    assert_eq!(v["turn"], "black");
    assert_eq!(v["in_hand"], json!({"white": 8, "black": 9}));
    let (status, v) = s.post(&takeback, json!({"token": black})).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["ply"], 0);
    assert_eq!(v["turn"], "white");
    let st = s.state(id).await;
    assert_eq!(st["moves"], json!([]));

    // Not after the game's end.
    s.play_ok(id, &white, 0, "a1").await;
    s.action(id, "resign", json!({"token": black})).await;
    let (status, v) = s.post(&takeback, json!({"token": white})).await;
    assert_error(status, &v, 409, "game_over");
    assert_eq!(s.state(id).await["ply"], 1);
}

#[tokio::test]
async fn takeback_while_the_computer_thinks() {
    // The computer thinks 1.5 s here: the takeback comes while it thinks.
    // Level 10 answers the first moves from the start out of its opening
    // book at once, so the game starts from a placing position that no
    // book holds (White threatens a7-d7-g7).
    let s = TestServer::start_with(1500).await;
    let v = s
        .create(json!({"kind": "computer", "level": 10, "color": "white",
                       "position": "WW./.../.../....../.../.../.BB w 7 7 0 3"}))
        .await;
    let id = id_of(&v);
    let me = token(&v, "white");
    let v = s.play_ok(id, &me, 0, "d6").await;
    assert_eq!(v["thinking"], true);
    // The player cannot move for the computer.
    let (status, v) = s.play(id, &me, 1, "f4").await;
    assert_error(status, &v, 409, "not_your_turn");
    let (status, v) = s.action(id, "takeback", json!({"token": me})).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["ply"], 0);
    assert_eq!(v["thinking"], false);
    // The pending move never arrives; the player plays on.
    tokio::time::sleep(Duration::from_millis(1800)).await;
    let st = s.state(id).await;
    assert_eq!(st["ply"], 0, "{st}");
    assert_eq!(st["thinking"], false);
    s.play_ok(id, &me, 0, "a1").await;
    // A draw offer while it thinks: declined, and the computer still moves.
    let (status, v) = s.draw(id, &me, "offer").await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["thinking"], true);
    assert_eq!(v["draw_offer"], Value::Null);
    let st = s.wait_for(id, 20, |st| st["ply"] == 2).await;
    assert_eq!(st["moves"][0], "a1");
    assert_eq!(st["thinking"], false);

    // Resigning while it thinks: the game ends, its move never comes.
    s.play_ok(id, &me, 2, st["legal_moves"][0].as_str().unwrap())
        .await;
    let (status, v) = s.action(id, "resign", json!({"token": me})).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["thinking"], false);
    assert_eq!(v["result"], "0-1");
    tokio::time::sleep(Duration::from_millis(1800)).await;
    let st = s.state(id).await;
    assert_eq!(st["ply"], 3);
    assert_eq!(st["status"], "over");
}

#[tokio::test]
async fn archive_record_and_import() {
    let s = TestServer::start().await;
    let v = s
        .create(json!({"kind": "local", "name": "<script>alert('x')</script>"}))
        .await;
    let id = id_of(&v);
    let (w, b) = (token(&v, "white"), token(&v, "black"));
    for (ply, mv) in ["a7", "b6", "d7", "d6"].iter().enumerate() {
        s.play_ok(id, if ply % 2 == 0 { &w } else { &b }, ply as u64, mv)
            .await;
    }
    s.play_ok(id, &w, 4, "g7xb6").await;

    // The name comes back verbatim, as valid JSON.
    let raw = s
        .get_raw(&format!("/api/games/{id}"))
        .await
        .text()
        .await
        .unwrap();
    let st: Value = serde_json::from_str(&raw).expect("valid JSON");
    assert_eq!(
        st["players"]["white"]["name"],
        "<script>alert('x')</script>"
    );

    // Archive, newest first.
    let other = s
        .create(json!({"kind": "computer", "color": "white", "level": 2}))
        .await;
    let (status, a) = s.get("/api/games?limit=10&offset=0").await;
    assert_eq!(status, 200);
    assert_eq!(a["total"], 2);
    assert_eq!(a["games"][0]["id"], id_of(&other));
    assert_eq!(a["games"][0]["black"], "Computer (level 2)");
    assert_eq!(a["games"][1]["id"], id);
    assert_eq!(a["games"][1]["white"], "<script>alert('x')</script>");
    assert_eq!(a["games"][1]["ply"], 5);
    assert_eq!(a["games"][1]["status"], "ongoing");
    let (_, a) = s.get("/api/games?limit=1&offset=1").await;
    assert_eq!(a["games"].as_array().unwrap().len(), 1);
    assert_eq!(a["games"][0]["id"], id);

    // Record export.
    let r = s.get_raw(&format!("/api/games/{id}/record")).await;
    assert_eq!(r.status(), 200);
    assert!(
        r.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/plain")
    );
    // A Mühle record is a text file (a Dame record is PDN: tests/dame.rs).
    assert_eq!(
        r.headers()["content-disposition"].to_str().unwrap(),
        format!("inline; filename=\"brett-{id}.txt\"")
    );
    let record = r.text().await.unwrap();
    assert!(record.contains("[Rules \"standard\"]"), "{record}");
    assert!(record.contains("1. a7 b6 2. d7 d6 3. g7xb6 *"), "{record}");

    // Import and export again: the same moves.
    let (status, v) = s.post("/api/games/import", json!({"record": record})).await;
    assert_eq!(status, 201, "{v}");
    let imported = id_of(&v);
    let st = s.state(imported).await;
    assert_eq!(st["kind"], "imported");
    assert_eq!(st["moves"], json!(["a7", "b6", "d7", "d6", "g7xb6"]));
    assert_eq!(
        st["players"]["white"]["name"],
        "<script>alert('x')</script>"
    );
    let again = s
        .get_raw(&format!("/api/games/{imported}/record"))
        .await
        .text()
        .await
        .unwrap();
    assert_eq!(again, record);

    // A finished game with a declared result.
    let text = "[White \"A\"]\n[Black \"B\"]\n[Result \"0-1\"]\n[Termination \"resignation\"]\n\n1. d6 f4 0-1\n";
    let (status, v) = s.post("/api/games/import", json!({"record": text})).await;
    assert_eq!(status, 201, "{v}");
    let st = s.state(id_of(&v)).await;
    assert_eq!(st["status"], "over");
    assert_eq!(st["result"], "0-1");
    assert_eq!(st["reason"], "resignation");
    // Nobody can move in an imported game.
    let (status, v) = s.play(id_of(&v), "", 2, "d2").await;
    assert_error(status, &v, 403, "wrong_token");

    // Bad records.
    for record in ["1. d6 d6", "[Rules \"chess\"]\n\n1. d6", "1. d6 {unclosed"] {
        let (status, v) = s.post("/api/games/import", json!({"record": record})).await;
        assert_error(status, &v, 400, "bad_request");
    }
    let (status, v) = s.post("/api/games/import", json!({"pgn": "1. d6"})).await;
    assert_error(status, &v, 400, "bad_request");
}

#[tokio::test]
async fn analyze() {
    let s = TestServer::start().await;
    let (status, v) = s
        .post(
            "/api/analyze",
            json!({"game": "muehle", "rules": "standard", "moves": ["a7", "b6", "d7"], "time_ms": 200, "lines": 3}),
        )
        .await;
    assert_eq!(status, 200, "{v}");
    let lines = v["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 3);
    assert!(v["depth"].as_u64().unwrap() >= 1);
    assert!(v["nodes"].as_u64().unwrap() > 0);
    // Black must block g7.
    assert_eq!(lines[0]["move"], "g7");
    for l in lines {
        assert!(
            l["score"].get("cp").is_some() || l["score"].get("mate").is_some(),
            "{l}"
        );
        assert!(l["score_text"].is_string());
        assert_eq!(l["pv"][0], l["move"]);
        assert!(!l["why"].as_array().unwrap().is_empty());
    }
    assert!(
        lines[0]["why"]
            .as_array()
            .unwrap()
            .iter()
            .any(|w| w.as_str().unwrap().contains("blocks")),
        "{v}"
    );
    // The same reasons as codes with parameters (for the UI's languages).
    for l in lines {
        let texts: Vec<&Value> = l["reasons"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| &r["text"])
            .collect();
        let why: Vec<&Value> = l["why"].as_array().unwrap().iter().collect();
        assert_eq!(texts, why, "{l}");
    }
    assert!(
        lines[0]["reasons"].as_array().unwrap().contains(&json!({
            "code": "blocks_mill",
            "params": {"color": "white", "square": "g7"},
            "text": "blocks White's mill on g7"
        })),
        "{v}"
    );

    let (status, v) = s
        .post(
            "/api/analyze",
            json!({"position": "W.B/.WB/W.B/BW..WB/.W./B.W/... w 0 0 12 20", "time_ms": 50, "lines": 1}),
        )
        .await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["lines"].as_array().unwrap().len(), 1);

    for body in [
        json!({"time_ms": 10}),
        json!({"time_ms": 20000}),
        json!({"lines": 0}),
        json!({"lines": 11}),
        json!({"rules": "nope"}),
        json!({"position": "x"}),
        json!({"moves": "d6"}),
    ] {
        let (status, v) = s.post("/api/analyze", body).await;
        assert_error(status, &v, 400, "bad_request");
    }
    let (status, v) = s
        .post(
            "/api/analyze",
            json!({"moves": ["d6", "d6"], "time_ms": 50}),
        )
        .await;
    assert_error(status, &v, 422, "illegal_move");
}

#[tokio::test]
async fn restart_keeps_every_acknowledged_move() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("brett.db");

    // First run: an online game with moves, and a computer game that is
    // left on the computer's turn (it thinks far too long to answer).
    let mut a = TestServer::on(db.clone(), 60_000).await;
    let (online, host, guest) = online_game(&a).await;
    let mut acknowledged = Vec::new();
    for (ply, mv) in ["d6", "f4", "d2", "b4"].iter().enumerate() {
        let t = if ply % 2 == 0 { &host } else { &guest };
        a.play_ok(online, t, ply as u64, mv).await;
        acknowledged.push(mv.to_string());
    }
    a.draw(online, &guest, "offer").await;
    let v = a
        .create(json!({"kind": "computer", "color": "white", "level": 4}))
        .await;
    let computer = id_of(&v);
    let me = token(&v, "white");
    let st = a.play_ok(computer, &me, 0, "a1").await;
    assert_eq!(st["thinking"], true);
    let (resigned, _, g2) = online_game(&a).await;
    a.action(resigned, "resign", json!({"token": g2})).await;
    a.stop().await;

    // Second run on the same file: everything is there, and the computer
    // picks up its turn.
    let b = TestServer::on(db.clone(), 30).await;
    let st = b.state(online).await;
    assert_eq!(st["moves"], json!(acknowledged));
    assert_eq!(st["draw_offer"], "black");
    assert_eq!(st["players"]["white"]["name"], "Anna");
    let st = b.wait_for(computer, 20, |st| st["ply"] == 2).await;
    assert_eq!(st["moves"][0], "a1");
    assert_eq!(st["thinking"], false);
    let st = b.state(resigned).await;
    assert_eq!(st["reason"], "resignation");
    // Old tokens still hold their seats.
    b.play_ok(online, &host, 4, "b6").await;
    b.play_ok(computer, &me, 2, st_legal(&b, computer).await.as_str())
        .await;
    drop(b);
}

async fn st_legal(s: &TestServer, id: i64) -> String {
    s.state(id).await["legal_moves"][0]
        .as_str()
        .unwrap()
        .to_string()
}

#[tokio::test]
async fn pages_and_assets() {
    let s = TestServer::start().await;
    for path in ["/", "/game/12", "/archive", "/analysis", "/index.html"] {
        let r = s.get_raw(path).await;
        assert_eq!(r.status(), 200, "{path}");
        assert!(
            r.headers()["content-type"]
                .to_str()
                .unwrap()
                .starts_with("text/html"),
            "{path}"
        );
        assert!(r.headers().contains_key("etag"));
        assert_eq!(r.headers()["cache-control"], "no-cache");
    }
    let r = s.get_raw("/").await;
    let etag = r.headers()["etag"].clone();
    let r = s
        .get_with("/", "if-none-match", etag.to_str().unwrap())
        .await;
    assert_eq!(r.status(), 304);
    let r = s.get_raw("/no/such/file.js").await;
    assert_eq!(r.status(), 404);
}

#[tokio::test]
async fn database_urls() {
    // In memory works; other schemes are refused with a clear error.
    let mut cfg = crate::common::config(std::path::Path::new("unused"), 30);
    cfg.database_url = Some("sqlite::memory:".into());
    let server = server::start(cfg.clone()).await.unwrap();
    let base = format!("http://{}", server.addr);
    let r = reqwest::Client::new()
        .post(format!("{base}/api/games"))
        .json(&json!({"kind": "local"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 201);
    server.stop().await.unwrap();

    // A PostgreSQL server that is not there: a clear error, without the
    // password.
    cfg.database_url = Some("postgres://brett:secret@127.0.0.1:1/brett".into());
    let err = server::start(cfg.clone()).await.err().unwrap();
    let text = format!("{err:#}");
    assert!(text.contains("opening the database"), "{text}");
    assert!(!text.contains("secret"), "{text}");
    cfg.database_url = Some("mysql://x".into());
    assert!(server::start(cfg).await.is_err());
}

#[tokio::test]
async fn games_leave_memory_when_unused() {
    let s = TestServer::start().await;
    let registry = s.server.as_ref().unwrap().state.registry.clone();
    let (id, host, _) = online_game(&s).await;
    let mut sockets = Vec::new();
    for _ in 0..3 {
        let mut ws = s.ws(id).await;
        next_json(&mut ws).await;
        sockets.push(ws);
    }
    s.play_ok(id, &host, 0, "d6").await;
    assert_eq!(registry.live_games(), 1);
    drop(sockets);
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while registry.live_games() > 0 {
        assert!(
            std::time::Instant::now() < deadline,
            "the game stays in memory"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // It comes back from the database on the next request.
    assert_eq!(s.state(id).await["moves"], json!(["d6"]));
}

/// Import and position errors carry `detail`: a code, parameters and the
/// error they come from, for a client to word them in its language
/// (docs/API.md, "Errors"); `error` and `code` stay as they were.
#[tokio::test]
async fn import_and_position_errors_carry_codes_and_parameters() {
    let s = TestServer::start().await;
    let (status, v) = s
        .post("/api/games/import", json!({"record": "1. d6 f4 2. d6 *"}))
        .await;
    assert_error(status, &v, 400, "bad_request");
    assert_eq!(
        v["error"],
        "the record: move 2 ('d6'): d6 is not legal here: d6 is not empty"
    );
    assert_eq!(v["detail"]["code"], "record.move");
    assert_eq!(v["detail"]["params"], json!({"number": "2", "move": "d6"}));
    assert_eq!(v["detail"]["cause"]["code"], "move.illegal");
    assert_eq!(v["detail"]["cause"]["params"]["move"], "d6");

    let (status, v) = s
        .post("/api/games/import", json!({"record": "1. d6 q9 *"}))
        .await;
    assert_error(status, &v, 400, "bad_request");
    assert_eq!(v["detail"]["code"], "record.move");
    assert_eq!(v["detail"]["params"]["move"], "q9");
    assert_eq!(v["detail"]["cause"]["code"], "move.syntax");

    let (status, v) = s
        .post(
            "/api/games/import",
            json!({"record": "[Rules \"chess\"]\n\n1. d6"}),
        )
        .await;
    assert_error(status, &v, 400, "bad_request");
    assert_eq!(v["detail"]["code"], "record.rules_tag");
    assert_eq!(v["detail"]["cause"]["code"], "rules.unknown_preset");
    assert_eq!(v["detail"]["cause"]["params"]["preset"], "chess");

    let (status, v) = s
        .post(
            "/api/games/import",
            json!({"record": "[White Anna]\n1. d6"}),
        )
        .await;
    assert_error(status, &v, 400, "bad_request");
    assert_eq!(v["detail"]["code"], "record.bad_tag");
    assert_eq!(v["detail"]["params"]["line"], "1");
    assert!(v["detail"].get("cause").is_none(), "{v}");

    // A position string for a new game and for an analysis.
    let (status, v) = s
        .post(
            "/api/games",
            json!({"kind": "local", "position": ".../.../... w 9 9"}),
        )
        .await;
    assert_error(status, &v, 400, "bad_request");
    assert!(
        v["error"].as_str().unwrap().starts_with("position: "),
        "{v}"
    );
    assert_eq!(v["detail"]["code"], "position.field_count");
    assert_eq!(v["detail"]["params"]["found"], "4");
    let (status, v) = s
        .post(
            "/api/analyze",
            json!({"game": "muehle", "position": "WWW/WWW/WWW/W...../.../.../... b 0 0 0 9"}),
        )
        .await;
    assert_error(status, &v, 400, "bad_request");
    assert_eq!(v["detail"]["code"], "position.too_many_stones");
    assert_eq!(
        v["detail"]["params"],
        json!({"color": "white", "count": "10", "max": "9"})
    );

    // Other errors have no detail.
    let (status, v) = s.post("/api/games", json!({"kind": "nope"})).await;
    assert_error(status, &v, 400, "bad_request");
    assert!(v.get("detail").is_none(), "{v}");
}

#[tokio::test]
async fn the_catalogue_lists_every_game_a_game_can_be_created_of() {
    let s = TestServer::start().await;
    let (status, v) = s.get("/api/catalogue").await;
    assert_eq!(status, StatusCode::OK);
    let names: Vec<&str> = v["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["muehle", "dame", "dame-100", "dame-fr", "international"]
    );
    for g in v["games"].as_array().unwrap() {
        for lang in ["de", "en", "fr", "it"] {
            assert!(
                g["title"][lang].as_str().is_some_and(|t| !t.is_empty()),
                "{g}"
            );
        }
        // Each is a game the API creates, with its default rules.
        let created = s.create(json!({"game": g["name"], "kind": "local"})).await;
        assert_eq!(created["state"]["game"], g["name"]);
        assert_eq!(created["state"]["rules"], g["default_rules"]);
        for p in g["presets"].as_array().unwrap() {
            let created = s
                .create(json!({"game": g["name"], "kind": "local", "rules": p["name"]}))
                .await;
            assert_eq!(created["state"]["rules"], p["name"]);
        }
    }
}
