//! Lists of games (docs/API.md, "The archive", "Players"): the archive
//! page's list (`status=finished`) shows finished games only (no running games, no invitations nobody
//! answered); unanswered invitations expire; a player's games are public
//! with filters by game and result; an account's own list has them all.
//! The servers run on SQLite, or on PostgreSQL with
//! `BRETT_TEST_BACKEND=postgres`.

use crate::common::*;
use reqwest::StatusCode;
use serde_json::{Value, json};

fn ids(list: &Value) -> Vec<i64> {
    list["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_i64().unwrap())
        .collect()
}

#[tokio::test]
async fn the_archive_lists_finished_games_only() {
    let s = TestServer::start().await;
    // Running: a game with the computer and an invitation.
    let running = id_of(&s.create(json!({"kind": "computer", "level": 1})).await);
    let invitation = id_of(&s.create(json!({"kind": "online"})).await);
    // Aborted before anyone played.
    let v = s.create(json!({"kind": "online"})).await;
    let aborted = id_of(&v);
    let (status, v) = s
        .action(aborted, "abort", json!({"token": token(&v, "white")}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    // Finished: a local game resigned.
    let v = s.create(json!({"kind": "local"})).await;
    let resigned = id_of(&v);
    s.play_ok(resigned, &token(&v, "white"), 0, "d6").await;
    let (status, v) = s
        .action(resigned, "resign", json!({"token": token(&v, "black")}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");

    let (status, list) = s.get("/api/games?status=finished").await;
    assert_eq!(status, StatusCode::OK, "{list}");
    assert_eq!(ids(&list), vec![resigned], "{list}");
    assert_eq!(list["total"], 1);
    let (_, all) = s.get("/api/games").await;
    assert_eq!(ids(&all), vec![resigned, aborted, invitation, running]);
    let (_, all) = s.get("/api/games?status=all").await;
    assert_eq!(ids(&all), vec![resigned, aborted, invitation, running]);
    let (_, ongoing) = s.get("/api/games?status=ongoing").await;
    assert_eq!(ids(&ongoing), vec![invitation, running]);
    let (_, wins) = s.get("/api/games?status=finished&result=1-0").await;
    assert_eq!(ids(&wins), vec![resigned]);
    let (_, none) = s.get("/api/games?result=0-1").await;
    assert_eq!(ids(&none), Vec::<i64>::new());
    let (_, none) = s.get("/api/games?game=dame").await;
    assert_eq!(none["total"], 0);
    // By a player's name (any case) and by day.
    let (_, v) = s.get("/api/games?player=NOBODY").await;
    assert_eq!(v["total"], 0);
    let today = s.state(resigned).await["created_at"].as_str().unwrap()[..10].to_string();
    let (_, v) = s
        .get(&format!(
            "/api/games?status=finished&from={today}&to={today}"
        ))
        .await;
    assert_eq!(ids(&v), vec![resigned]);
    let (_, v) = s.get("/api/games?from=2099-01-01").await;
    assert_eq!(v["total"], 0);
    let (_, v) = s.get("/api/games?to=2000-01-01").await;
    assert_eq!(v["total"], 0);
    for bad in [
        "status=won",
        "result=win",
        "game=chess",
        "from=2026-02-30",
        "to=yesterday",
    ] {
        let (status, v) = s.get(&format!("/api/games?{bad}")).await;
        assert_error(status, &v, 400, "bad_request");
    }
}

#[tokio::test]
async fn an_unanswered_invitation_expires() {
    let s = TestServer::start_config(|c| c.test_clock = true).await;
    let live = id_of(
        &s.create(json!({"kind": "online", "time_control": "5+3"}))
            .await,
    );
    let corr = id_of(
        &s.create(json!({"kind": "online", "time_control": "3d"}))
            .await,
    );
    let v = s.create(json!({"kind": "online"})).await;
    let answered = id_of(&v);
    let (status, j) = s
        .action(answered, "join", json!({"token": v["invite"]["token"]}))
        .await;
    assert_eq!(status, StatusCode::OK, "{j}");

    let advance = |ms: i64| s.post("/api/test/clock", json!({"advance_ms": ms}));
    // A day and a sweep later: the live invitation has expired.
    assert_eq!(advance(24 * 3_600_000 + 61_000).await.0, StatusCode::OK);
    let st = s.wait_for(live, 5, |st| st["status"] == "over").await;
    assert_eq!(st["reason"], "aborted");
    assert_eq!(st["result"], "*");
    assert_eq!(s.state(corr).await["status"], "ongoing");
    assert_eq!(s.state(answered).await["status"], "ongoing");
    // A week: the correspondence one too.
    assert_eq!(advance(6 * 86_400_000 + 61_000).await.0, StatusCode::OK);
    let st = s.wait_for(corr, 5, |st| st["status"] == "over").await;
    assert_eq!(st["reason"], "aborted");
    assert_eq!(s.state(answered).await["status"], "ongoing");
    let (_, list) = s.get("/api/games?status=finished").await;
    assert_eq!(
        list["total"], 0,
        "expired invitations stay out of the archive"
    );
}

#[tokio::test]
async fn a_players_games_are_listed_with_filters() {
    let s = TestServer::start().await;
    let anna = Member::register(&s, "Anna").await;
    let ben = Member::register(&s, "Ben").await;
    // Anna wins one (Ben resigns) and one is still running.
    for _ in 0..2 {
        let (id, _, invite) = anna.invite(&s, false).await;
        ben.join(&s, id, &invite).await;
    }
    let (status, list) = anna.get(&s, "/api/account/games").await;
    assert_eq!(status, StatusCode::OK, "{list}");
    let mine = ids(&list);
    assert_eq!(mine.len(), 2);
    let (status, v) = ben
        .post(&s, &format!("/api/games/{}/resign", mine[1]), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");

    let (status, page) = s.get("/api/players/anna/games").await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!(page["name"], "Anna");
    assert_eq!(ids(&page), vec![mine[1]], "finished games only");
    assert_eq!(page["games"][0]["you"], "white");
    let (_, named) = s.get("/api/games?player=ANNA").await;
    assert_eq!(named["total"], 2, "{named}");
    let (_, wins) = s.get("/api/players/Anna/games?result=win").await;
    assert_eq!(ids(&wins), vec![mine[1]]);
    let (_, losses) = s.get("/api/players/Anna/games?result=loss").await;
    assert_eq!(losses["total"], 0);
    let (_, ben_losses) = s.get("/api/players/ben/games?result=loss").await;
    assert_eq!(ids(&ben_losses), vec![mine[1]]);
    let (_, dame) = s.get("/api/players/anna/games?game=dame").await;
    assert_eq!(dame["total"], 0);
    let (_, muehle) = s.get("/api/players/anna/games?game=muehle").await;
    assert_eq!(muehle["total"], 1);
    // The account's own list keeps its running games, and filters too.
    let (_, own) = anna.get(&s, "/api/account/games?status=ongoing").await;
    assert_eq!(ids(&own), vec![mine[0]]);
    let (status, v) = s.get("/api/players/nobody/games").await;
    assert_error(status, &v, 404, "not_found");
    let (status, v) = s.get("/api/players/anna/games?result=won").await;
    assert_error(status, &v, 400, "bad_request");
}

#[tokio::test]
async fn the_language_is_kept_with_the_account() {
    let s = TestServer::start().await;
    let anna = Member::register(&s, "Anna").await;
    let (_, me) = anna.get(&s, "/api/account").await;
    assert_eq!(me["account"]["language"], Value::Null);
    let (status, v) = anna
        .post(&s, "/api/account/language", json!({"language": "fr"}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["account"]["language"], "fr");
    let (_, me) = anna.get(&s, "/api/account").await;
    assert_eq!(me["account"]["language"], "fr");
    let (status, v) = anna
        .post(&s, "/api/account/language", json!({"language": "xx"}))
        .await;
    assert_error(status, &v, 400, "bad_request");
    let (status, v) = anna
        .post(&s, "/api/account/language", json!({"language": null}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["account"]["language"], Value::Null);
    let (status, v) = s
        .post("/api/account/language", json!({"language": "de"}))
        .await;
    assert_error(status, &v, 401, "not_logged_in");
}

#[tokio::test]
async fn your_turn_lists_the_games_waiting_for_the_account() {
    let s = TestServer::start().await;
    let anna = Member::register(&s, "Anna").await;
    let ben = Member::register(&s, "Ben").await;
    let body = json!({"kind": "online", "color": "white", "time_control": "3d"});
    let (_, v) = anna.post(&s, "/api/games", body.clone()).await;
    let corr = id_of(&v);
    ben.join(&s, corr, v["invite"]["token"].as_str().unwrap())
        .await;
    let (_, v) = anna.post(&s, "/api/games", body).await;
    let waiting = id_of(&v); // nobody joined: nobody's turn yet
    let turn = |m: &Member| {
        let m = Member(m.0.clone());
        let s = &s;
        async move {
            let (status, v) = m.get(s, "/api/account/your-turn").await;
            assert_eq!(status, StatusCode::OK, "{v}");
            v["games"]
                .as_array()
                .unwrap()
                .iter()
                .map(|g| g["id"].as_i64().unwrap())
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(turn(&anna).await, vec![corr]);
    assert_eq!(turn(&ben).await, Vec::<i64>::new());
    let (_, v) = anna.get(&s, "/api/account/your-turn").await;
    assert_eq!(v["games"][0]["opponent"], "Ben");
    assert_eq!(v["games"][0]["you"], "white");
    assert_eq!(v["games"][0]["time_control"], "3d");
    let (status, v) = anna
        .post(
            &s,
            &format!("/api/games/{corr}/moves"),
            json!({"move": "d6", "ply": 0}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(turn(&anna).await, Vec::<i64>::new());
    assert_eq!(turn(&ben).await, vec![corr]);
    // A player with an account plays under its name, whatever is asked.
    let (_, st) = anna.get(&s, &format!("/api/games/{waiting}")).await;
    assert_eq!(st["players"]["white"]["name"], "Anna");
    let (_, v) = ben
        .post(&s, "/api/games", json!({"kind": "online", "name": "Anna"}))
        .await;
    assert_eq!(v["state"]["players"]["white"]["name"], "Ben", "{v}");
    let (status, v) = s.get("/api/account/your-turn").await;
    assert_error(status, &v, 401, "not_logged_in");
}

#[tokio::test]
async fn a_player_cannot_act_for_another_nor_read_their_invitations() {
    let s = TestServer::start().await;
    let anna = Member::register(&s, "Anna").await;
    let ben = Member::register(&s, "Ben").await;
    let (id, white, invite) = anna.invite(&s, false).await;
    // Nobody else reads the invitation's token: not in the state, not in
    // any list.
    for text in [
        ben.get(&s, &format!("/api/games/{id}")).await.1.to_string(),
        s.get(&format!("/api/games/{id}")).await.1.to_string(),
        s.get("/api/games?status=all").await.1.to_string(),
        s.get("/api/players/anna/games").await.1.to_string(),
        ben.get(&s, "/api/account/games").await.1.to_string(),
    ] {
        assert!(!text.contains(&invite) && !text.contains(&white), "{text}");
    }
    let (_, own) = ben.get(&s, "/api/account/games").await;
    assert_eq!(own["total"], 0);
    let (_, page) = s.get("/api/players/anna/games").await;
    assert_eq!(page["total"], 0, "a running invitation is not public");
    // Ben's cookie does not act for Anna's seat.
    for (action, body) in [
        ("moves", json!({"move": "d6", "ply": 0})),
        ("resign", json!({})),
        ("abort", json!({})),
    ] {
        let (status, v) = ben
            .post(&s, &format!("/api/games/{id}/{action}"), body)
            .await;
        assert_error(status, &v, 403, "wrong_token");
    }
    assert_eq!(s.state(id).await["status"], "ongoing");
    // Anna's cookie does.
    let (status, v) = anna
        .post(&s, &format!("/api/games/{id}/abort"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
}
