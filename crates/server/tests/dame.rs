//! Dame games through the API of docs/API.md ("Dame games"): creation, moves
//! with whole capture paths, huffing, the computer, takeback, records,
//! analysis, and a restart on the same database file.

use crate::common::*;
use reqwest::StatusCode;
use serde_json::{Value, json};

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

async fn huff(s: &TestServer, id: i64, token: &str, ply: u64, square: &str) -> (StatusCode, Value) {
    s.post(
        &format!("/api/games/{id}/huff"),
        json!({"token": token, "ply": ply, "square": square}),
    )
    .await
}

#[tokio::test]
async fn create_each_dame_game() {
    let s = TestServer::start().await;
    for (game, size, moves, rules) in [
        ("dame", 8, 7, "dame"),
        ("dame-fr", 8, 7, "dame-fr"),
        ("dame-100", 10, 9, "dame-100"),
        ("international", 10, 9, "international"),
    ] {
        let v = s.create(json!({"game": game, "kind": "local"})).await;
        let st = s.state(id_of(&v)).await;
        assert_eq!(st["game"], game);
        assert_eq!(st["rules"], rules);
        assert_eq!(st["board_size"], size);
        assert_eq!(st["legal_moves"].as_array().unwrap().len(), moves, "{game}");
        assert_eq!(st["turn"], "white");
        assert_eq!(st["ply"], 0);
        let men = if size == 8 { 12 } else { 20 };
        assert_eq!(
            st["pieces"],
            json!({"white": {"men": men, "kings": 0}, "black": {"men": men, "kings": 0}})
        );
        assert_eq!(st["captured"], json!({"white": 0, "black": 0}));
        assert_eq!(st["huffs"], json!([]));
        assert_eq!(st["huffable"], json!([]));
        assert_eq!(st["pending_huff"], Value::Null);
        assert_eq!(st["position"], st["start_position"]);
    }
    let st = s
        .create(json!({"game": "international", "kind": "local"}))
        .await["state"]
        .clone();
    assert_eq!(st["start_position"], "W:W31-50:B1-20");
    assert_eq!(
        st["rule_options"],
        json!({"board": 10, "men_capture_backward": true, "majority": true,
               "king_landing": "anywhere", "king_capture": "long", "promotion": "end-of-move",
               "huffing": false,
               "king_moves": 50, "repetition": 3, "one_king_each": false,
               "king_vs_three": 32, "king_vs_two": 10})
    );

    // Options and the text form.
    let v = s
        .create(json!({"game": "dame", "kind": "local", "options": {"huffing": true, "king_moves": null}}))
        .await;
    assert_eq!(v["state"]["rules"], "dame,huffing=on,king-moves=off");
    assert_eq!(v["state"]["game"], "dame");
    assert_eq!(v["state"]["rule_options"]["huffing"], true);
    assert_eq!(v["state"]["rule_options"]["king_moves"], Value::Null);
    let v = s
        .create(json!({"game": "dame", "kind": "local", "rules": "dame,men-capture-backward=on"}))
        .await;
    assert_eq!(v["state"]["game"], "dame-fr");
    // The Italian text's king (004 IT: "la dama deve trovarsi direttamente
    // dietro alla pedina"): it captures only a piece next to it.
    let v = s
        .create(
            json!({"game": "dame", "kind": "local", "position": "W:WKa1:Bd4,h8",
                       "options": {"king_capture": "short"}}),
        )
        .await;
    assert_eq!(v["state"]["rules"], "dame,king-capture=short");
    assert_eq!(v["state"]["rule_options"]["king_capture"], "short");
    let mut legal = strings(&v["state"]["legal_moves"]);
    legal.sort();
    assert_eq!(legal, ["a1-b2", "a1-c3"]);
    let v = s
        .create(json!({"game": "dame", "kind": "local", "position": "W:WKa1:Bd4,h8"}))
        .await;
    assert_eq!(v["state"]["rule_options"]["king_capture"], "long");
    assert_eq!(strings(&v["state"]["legal_moves"]), ["a1xe5"]);

    for body in [
        json!({"game": "dame", "kind": "local", "rules": "international"}),
        json!({"game": "dame-100", "kind": "local", "rules": "dame"}),
        json!({"game": "dame", "kind": "local", "rules": "standard"}),
        json!({"game": "dame", "kind": "local", "options": {"huffing": "yes"}}),
        json!({"game": "dame", "kind": "local", "options": {"king_landing": "far"}}),
        json!({"game": "dame", "kind": "local", "options": {"king_capture": "adjacent"}}),
        json!({"game": "dame", "kind": "local", "options": {"king_capture": true}}),
        json!({"game": "dame", "kind": "local", "options": {"flying": true}}),
        json!({"game": "dame", "kind": "local", "position": "W:Wz9:B1"}),
        json!({"game": "dame", "kind": "local", "position": ".../.../.../....../.../.../... w 9 9 0 1"}),
        json!({"game": "draughts", "kind": "local"}),
    ] {
        let (status, v) = s.post("/api/games", body.clone()).await;
        assert_error(status, &v, 400, "bad_request");
    }
}

/// FMJD rules, article on the draw, through the API: the international
/// preset's king-ending limits end the game (reason `king-vs-three`), the
/// FEN carries the ending counter `E`, and the options set the draws of any
/// preset.
#[tokio::test]
async fn the_fmjd_draws_through_the_api() {
    let s = TestServer::start().await;
    let v = s
        .create(
            json!({"game": "international", "kind": "local", "position": "W:WK46,K47,K48:BK3:E29"}),
        )
        .await;
    let id = id_of(&v);
    let (white, black) = (token(&v, "white"), token(&v, "black"));
    assert_eq!(v["state"]["start_position"], "W:WK46,K47,K48:BK3:E29");
    s.play_ok(id, &white, 0, "48-43").await;
    let st = s.play_ok(id, &black, 1, "3-9").await;
    assert_eq!(st["position"], "W:WK43,K46,K47:BK9:H2:E31:F2");
    assert_eq!(st["status"], "ongoing");
    let st = s.play_ok(id, &white, 2, "43-48").await;
    assert_eq!(st["status"], "over");
    assert_eq!(st["result"], "1/2-1/2");
    assert_eq!(st["reason"], "king-vs-three");

    // One king each: at once under the leaflet, not under FMJD.
    let v = s
        .create(json!({"game": "dame-100", "kind": "local", "position": "W:WK46:BK3"}))
        .await;
    assert_eq!(v["state"]["status"], "over");
    assert_eq!(v["state"]["reason"], "one-king-each");
    let v = s
        .create(json!({"game": "international", "kind": "local", "position": "W:WK46:BK3"}))
        .await;
    assert_eq!(v["state"]["status"], "ongoing");

    // The options.
    let v = s
        .create(json!({"game": "dame", "kind": "local", "options":
            {"one_king_each": false, "king_vs_three": 32, "king_vs_two": 10}}))
        .await;
    assert_eq!(
        v["state"]["rules"],
        "dame,one-king-each=off,king-vs-three=32,king-vs-two=10"
    );
    assert_eq!(v["state"]["rule_options"]["king_vs_two"], 10);
    let v = s
        .create(
            json!({"game": "international", "kind": "local", "options": {"king_vs_three": null}}),
        )
        .await;
    assert_eq!(v["state"]["rules"], "international,king-vs-three=off");
    for options in [
        json!({"one_king_each": "yes"}),
        json!({"king_vs_three": 0}),
        json!({"king_vs_two": "five"}),
    ] {
        let (status, e) = s
            .post(
                "/api/games",
                json!({"game": "international", "kind": "local", "options": options}),
            )
            .await;
        assert_error(status, &e, 400, "bad_request");
    }
}

#[tokio::test]
async fn a_multi_capture_ends_the_game() {
    let s = TestServer::start().await;
    let v = s
        .create(json!({"game": "dame", "kind": "local", "position": "W:Wc3:Bd4,f6"}))
        .await;
    let id = id_of(&v);
    let white = token(&v, "white");
    assert_eq!(strings(&v["state"]["legal_moves"]), ["c3xe5xg7"]);
    // Not the whole capture: illegal, with the reason.
    let (status, e) = s.play(id, &white, 0, "c3xe5").await;
    assert_error(status, &e, 422, "illegal_move");
    let (status, e) = s.play(id, &white, 0, "c3-d4").await;
    assert_error(status, &e, 422, "illegal_move");
    // Start and end only are enough when unambiguous.
    let st = s.play_ok(id, &white, 0, "c3xg7").await;
    assert_eq!(st["moves"], json!(["c3xe5xg7"]));
    assert_eq!(st["last_move"], "c3xe5xg7");
    assert_eq!(st["status"], "over");
    assert_eq!(st["result"], "1-0");
    assert_eq!(st["reason"], "no-pieces");
    assert_eq!(st["legal_moves"], json!([]));
    assert_eq!(st["captured"], json!({"white": 0, "black": 2}));
    assert_eq!(st["pieces"]["white"], json!({"men": 1, "kings": 0}));

    // A man that reaches the far row is crowned.
    let v = s
        .create(json!({"game": "dame", "kind": "local", "position": "W:Wb6:Bc7,h4"}))
        .await;
    let st = s.play_ok(id_of(&v), &token(&v, "white"), 0, "b6xd8").await;
    assert_eq!(st["pieces"]["white"], json!({"men": 0, "kings": 1}));
    assert!(st["position"].as_str().unwrap().contains("WKd8"), "{st}");
    assert_eq!(st["status"], "ongoing");

    // 10×10: numbers.
    let v = s
        .create(json!({"game": "dame-100", "kind": "local", "position": "W:W32:B27,17"}))
        .await;
    let id = id_of(&v);
    let st = s.play_ok(id, &token(&v, "white"), 0, "32x21x12").await;
    assert_eq!(st["moves"], json!(["32x21x12"]));
    assert_eq!(st["reason"], "no-pieces");
}

#[tokio::test]
async fn huffing_through_the_api() {
    let s = TestServer::start().await;
    let pos = "W:Wc3,a1:Bd4,h8";
    let v = s
        .create(
            json!({"game": "dame", "kind": "local", "position": pos, "options": {"huffing": true}}),
        )
        .await;
    let id = id_of(&v);
    let (white, black) = (token(&v, "white"), token(&v, "black"));
    let mut legal = strings(&v["state"]["legal_moves"]);
    legal.sort();
    assert_eq!(legal, ["a1-b2", "c3-b4", "c3xe5"]);
    // White skips the capture: Black may huff c3.
    let st = s.play_ok(id, &white, 0, "a1-b2").await;
    assert_eq!(st["huffable"], json!(["c3"]));
    // Wrong square, wrong player, stale ply, malformed square: nothing changes.
    let (status, e) = huff(&s, id, &black, 1, "b2").await;
    assert_error(status, &e, 422, "illegal_move");
    assert!(e["error"].as_str().unwrap().contains("c3"), "{e}");
    let (status, e) = huff(&s, id, &white, 1, "c3").await;
    assert_error(status, &e, 409, "not_your_turn");
    let (status, e) = huff(&s, id, &black, 0, "c3").await;
    assert_error(status, &e, 409, "stale_ply");
    let (status, e) = huff(&s, id, &black, 1, "z9").await;
    assert_error(status, &e, 422, "illegal_move");
    let (status, e) = huff(&s, id, &black, 1, "c3 d4").await;
    assert_error(status, &e, 400, "bad_request");
    assert_eq!(s.state(id).await["pieces"]["white"]["men"], 2);

    let st = {
        let (status, st) = huff(&s, id, &black, 1, "c3").await;
        assert_eq!(status, StatusCode::OK, "{st}");
        st
    };
    assert_eq!(st["ply"], 1);
    assert_eq!(st["turn"], "black");
    assert_eq!(st["pending_huff"], "c3");
    assert_eq!(st["huffable"], json!([]));
    assert_eq!(st["pieces"]["white"]["men"], 1);
    assert_eq!(st["captured"]["white"], 1);
    assert_eq!(st["you"], "black");
    // Only once.
    let (status, e) = huff(&s, id, &black, 1, "c3").await;
    assert_error(status, &e, 422, "illegal_move");
    let st = s.play_ok(id, &black, 1, "h8-g7").await;
    assert_eq!(st["moves"], json!(["a1-b2", "h8-g7"]));
    assert_eq!(st["huffs"], json!([null, "c3"]));
    assert_eq!(st["pending_huff"], Value::Null);

    // Huff and move in one request; and the record shows the huff.
    let v = s
        .create(
            json!({"game": "dame", "kind": "local", "position": pos, "rules": "dame,huffing=on"}),
        )
        .await;
    let id = id_of(&v);
    s.play_ok(id, &token(&v, "white"), 0, "c3-b4").await;
    let st = s.play_ok(id, &token(&v, "black"), 1, "Hb4 h8-g7").await;
    assert_eq!(st["huffs"], json!([null, "b4"]));
    let r = reqwest::get(s.url(&format!("/api/games/{id}/record")))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(r.contains("1. c3-b4 Hb4 h8-g7"), "{r}");

    // Without huffing, nothing to huff; Mühle has none.
    let v = s
        .create(json!({"game": "dame", "kind": "local", "position": "W:Wc3,a1:Bd4,h8"}))
        .await;
    let (status, e) = huff(&s, id_of(&v), &token(&v, "white"), 0, "d4").await;
    assert_error(status, &e, 422, "illegal_move");
    let v = s.create(json!({"kind": "local"})).await;
    let (status, e) = huff(&s, id_of(&v), &token(&v, "white"), 0, "d6").await;
    assert_error(status, &e, 409, "not_allowed");
}

/// A move from the h-file (`h2-g3`) is a move and `H`/`h` with a square
/// (`hh4`) a huff, by the rule the PDN reader and the engine use too
/// (`dame::parse_huff_token`); `h4` alone is neither.
#[tokio::test]
async fn h_file_moves_and_huffs_through_the_api() {
    let s = TestServer::start().await;
    let v = s
        .create(json!({"game": "dame", "kind": "local", "rules": "dame,huffing=on"}))
        .await;
    let id = id_of(&v);
    let (white, black) = (token(&v, "white"), token(&v, "black"));
    s.play_ok(id, &white, 0, "g3-h4").await;
    s.play_ok(id, &black, 1, "f6-g5").await;
    // White skips h4xf6: Black may huff h4.
    let st = s.play_ok(id, &white, 2, "a3-b4").await;
    assert_eq!(st["huffable"], json!(["h4"]));
    let (status, e) = s.play(id, &black, 3, "h4").await;
    assert_error(status, &e, 422, "illegal_move");
    let st = s.play_ok(id, &black, 3, "hh4 g5-h4").await;
    assert_eq!(st["huffs"], json!([null, null, null, "h4"]));
    let st = s.play_ok(id, &white, 4, "h2-g3").await;
    assert_eq!(
        st["moves"],
        json!(["g3-h4", "f6-g5", "a3-b4", "g5-h4", "h2-g3"])
    );
    assert_eq!(st["huffs"], json!([null, null, null, "h4", null]));
}

#[tokio::test]
async fn the_computer_huffs_and_plays_dame() {
    let s = TestServer::start().await;
    // The computer (Black) may huff the white man that skipped its capture.
    let v = s
        .create(
            json!({"game": "dame", "kind": "computer", "level": 10, "color": "white",
                       "position": "W:Wc3,a1:Bd4,h8", "options": {"huffing": true}}),
        )
        .await;
    let id = id_of(&v);
    let me = token(&v, "white");
    s.play_ok(id, &me, 0, "a1-b2").await;
    let st = s.wait_for(id, 20, |st| st["ply"] == 2).await;
    assert_eq!(st["huffs"], json!([null, "c3"]));
    assert_eq!(st["pieces"]["white"]["men"], 1);

    // 10×10 against the computer, then a takeback of both moves.
    let v = s
        .create(json!({"game": "international", "kind": "computer", "level": 2, "color": "white"}))
        .await;
    let id = id_of(&v);
    let me = token(&v, "white");
    s.play_ok(id, &me, 0, "32-28").await;
    let st = s.wait_for(id, 20, |st| st["ply"] == 2).await;
    assert_eq!(st["turn"], "white");
    let legal = strings(&st["legal_moves"]);
    s.play_ok(id, &me, 2, &legal[0]).await;
    let st = s.wait_for(id, 20, |st| st["ply"] == 4).await;
    let (status, st2) = s.action(id, "takeback", json!({"token": me})).await;
    assert_eq!(status, StatusCode::OK, "{st2}");
    assert_eq!(st2["ply"], 2);
    assert_eq!(st2["moves"], json!(st["moves"].as_array().unwrap()[..2]));

    // The computer plays Black from the start when the player takes Black.
    let v = s
        .create(json!({"game": "dame", "kind": "computer", "level": 1, "color": "black"}))
        .await;
    let st = s.wait_for(id_of(&v), 20, |st| st["ply"] == 1).await;
    assert_eq!(st["turn"], "black");
}

#[tokio::test]
async fn records_and_analysis() {
    let s = TestServer::start().await;
    let v = s
        .create(json!({"game": "dame", "kind": "local", "name": "Anna"}))
        .await;
    let id = id_of(&v);
    let (w, b) = (token(&v, "white"), token(&v, "black"));
    for (ply, (t, mv)) in [(&w, "c3-d4"), (&b, "f6-e5"), (&w, "d4xf6"), (&b, "g7xe5")]
        .into_iter()
        .enumerate()
    {
        s.play_ok(id, t, ply as u64, mv).await;
    }
    s.action(id, "resign", json!({"token": w})).await;
    let r = reqwest::get(s.url(&format!("/api/games/{id}/record")))
        .await
        .unwrap();
    // A Dame record downloads as a PDN file.
    assert_eq!(
        r.headers()["content-disposition"].to_str().unwrap(),
        format!("inline; filename=\"brett-{id}.pdn\"")
    );
    let r = r.text().await.unwrap();
    assert!(r.contains("[White \"Anna\"]"), "{r}");
    assert!(r.contains("[Rules \"dame\"]"), "{r}");
    assert!(r.contains("1. c3-d4 f6-e5 2. d4xf6 g7xe5"), "{r}");
    assert!(r.contains("0-1"), "{r}");

    // Import tells the game by the record.
    let (status, v) = s.post("/api/games/import", json!({"record": r})).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let st = s.state(id_of(&v)).await;
    assert_eq!(st["game"], "dame");
    assert_eq!(st["kind"], "imported");
    assert_eq!(st["reason"], "resignation");
    assert_eq!(st["moves"].as_array().unwrap().len(), 4);
    let pdn = "[GameType \"20\"]\n\n1. 32-28 19-23 2. 28x19 14x23 *\n";
    let (status, v) = s.post("/api/games/import", json!({"record": pdn})).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let st = s.state(id_of(&v)).await;
    assert_eq!(st["game"], "international");
    assert_eq!(st["moves"], json!(["32-28", "19-23", "28x19", "14x23"]));
    let (status, v) = s
        .post(
            "/api/games/import",
            json!({"game": "dame", "record": "1. c3-d4 c3-d4"}),
        )
        .await;
    assert_error(status, &v, 400, "bad_request");

    // The archive names the game.
    let (_, a) = s.get("/api/games").await;
    assert!(
        a["games"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["game"] == "international")
    );

    // Analysis: a forced multi-capture, explained.
    let (status, a) = s
        .post(
            "/api/analyze",
            json!({"game": "dame", "position": "W:Wc3,g1:Bd4,f6,h8", "time_ms": 200, "lines": 2}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{a}");
    assert_eq!(a["lines"][0]["move"], "c3xe5xg7");
    let why = a["lines"][0]["why"].to_string();
    assert!(why.contains("captures 2 pieces"), "{why}");
    assert_eq!(
        a["lines"][0]["reasons"][0],
        json!({"code": "captures", "params": {"n": "2"}, "text": "captures 2 pieces"})
    );
    let (status, a) = s
        .post(
            "/api/analyze",
            json!({"game": "dame-100", "moves": ["32-28", "19-23"], "time_ms": 100}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{a}");
    assert_eq!(a["lines"][0]["move"], "28x19");
    let (status, e) = s
        .post(
            "/api/analyze",
            json!({"game": "dame", "moves": ["c3-d5"], "time_ms": 100}),
        )
        .await;
    assert_error(status, &e, 422, "illegal_move");
}

#[tokio::test]
async fn restart_keeps_dame_games_with_huffs() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("brett.db");
    let mut a = TestServer::on(db.clone(), 30).await;
    let v = a
        .create(
            json!({"game": "dame", "kind": "online", "position": "W:Wc3,a1,e1:Bd4,h8,b8",
                       "options": {"huffing": true}}),
        )
        .await;
    let id = id_of(&v);
    let host = token(&v, "white");
    let guest = v["invite"]["token"].as_str().unwrap().to_string();
    let (status, j) = a.action(id, "join", json!({"token": guest})).await;
    assert_eq!(status, StatusCode::OK, "{j}");
    a.play_ok(id, &host, 0, "a1-b2").await;
    let (status, st) = huff(&a, id, &guest, 1, "c3").await;
    assert_eq!(status, StatusCode::OK, "{st}");
    let before = st;
    a.stop().await;

    let b = TestServer::on(db.clone(), 30).await;
    let st = b.state(id).await;
    for key in ["moves", "position", "pending_huff", "pieces", "legal_moves"] {
        assert_eq!(st[key], before[key], "{key}");
    }
    assert_eq!(st["pending_huff"], "c3");
    let st = b.play_ok(id, &guest, 1, "h8-g7").await;
    assert_eq!(st["huffs"], json!([null, "c3"]));
    drop(b);
    let c = TestServer::on(db, 30).await;
    let st = c.state(id).await;
    assert_eq!(st["huffs"], json!([null, "c3"]));
    assert_eq!(st["moves"], json!(["a1-b2", "h8-g7"]));
    assert_eq!(st["pending_huff"], Value::Null);
}

/// Dame's PDN and FEN errors carry `detail` too (docs/API.md, "Errors").
#[tokio::test]
async fn pdn_and_fen_errors_carry_codes_and_parameters() {
    let s = TestServer::start().await;
    let pdn = "[GameType \"20\"]\n\n1. 32-28 19-23 2. 28-22 *\n";
    let (status, v) = s.post("/api/games/import", json!({"record": pdn})).await;
    assert_error(status, &v, 400, "bad_request");
    assert_eq!(v["detail"]["code"], "record.move");
    assert_eq!(
        v["detail"]["params"],
        json!({"number": "2", "move": "28-22"})
    );
    assert_eq!(v["detail"]["cause"]["code"], "move.illegal");

    let pdn = "[GameType \"20\"]\n[FEN \"W:W31-50:B1-20:Fx\"]\n\n1. 32-28 *\n";
    let (status, v) = s.post("/api/games/import", json!({"record": pdn})).await;
    assert_error(status, &v, 400, "bad_request");
    assert_eq!(v["detail"]["code"], "record.fen_tag");
    assert_eq!(v["detail"]["cause"]["code"], "fen.bad_number");
    assert_eq!(
        v["detail"]["cause"]["params"],
        json!({"field": "F", "found": "x"})
    );

    let (status, v) = s
        .post(
            "/api/games",
            json!({"game": "dame", "kind": "local", "position": "W:Wb8:Bc1,e1"}),
        )
        .await;
    assert_error(status, &v, 400, "bad_request");
    assert_eq!(v["detail"]["code"], "position.man_on_promotion_row");
    assert_eq!(
        v["detail"]["params"],
        json!({"color": "white", "square": "b8"})
    );
    let (status, v) = s
        .post(
            "/api/analyze",
            json!({"game": "international", "position": "Q:W31-50:B1-20"}),
        )
        .await;
    assert_error(status, &v, 400, "bad_request");
    assert_eq!(v["detail"]["code"], "fen.bad_side");
    assert_eq!(v["detail"]["params"]["found"], "Q");
}
