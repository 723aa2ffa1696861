//! The chat of online games (docs/API.md, "Chat"): the players' room and
//! the spectators' room over HTTP and WebSocket, who reads and writes
//! which, the limits of rate and length, blocking, reporting, closed
//! accounts, and a message reaching the sockets of another instance. The
//! servers run on SQLite, or on PostgreSQL with `BRETT_TEST_BACKEND=postgres`.

use std::time::Duration;

use crate::common::*;
use futures_util::StreamExt;
use reqwest::StatusCode;
use serde_json::{Value, json};
use server::storage::{self, ChatRoom, name_key};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// A status, a JSON body and the `Retry-After` header.
type Reply = (StatusCode, Value, Option<String>);

/// Someone at the game: a login's cookie, a seat's token, both or none.
#[derive(Clone, Default)]
struct Who {
    cookie: Option<String>,
    token: Option<String>,
}

impl Who {
    fn token(token: &str) -> Who {
        Who {
            token: Some(token.to_string()),
            ..Who::default()
        }
    }

    async fn send(&self, r: reqwest::RequestBuilder) -> Reply {
        let r = match &self.cookie {
            Some(c) => r.header("cookie", format!("brett_session={c}")),
            None => r,
        };
        let res = r.send().await.unwrap();
        let retry = res
            .headers()
            .get("retry-after")
            .map(|v| v.to_str().unwrap().to_string());
        let status = res.status();
        (status, res.json().await.unwrap_or(Value::Null), retry)
    }

    async fn post(&self, s: &TestServer, path: &str, mut body: Value) -> Reply {
        if let Some(t) = &self.token {
            body["token"] = json!(t);
        }
        self.send(s.client.post(s.url(path)).json(&body)).await
    }

    async fn get(&self, s: &TestServer, path: &str) -> Reply {
        let sep = if path.contains('?') { '&' } else { '?' };
        let path = match &self.token {
            Some(t) => format!("{path}{sep}token={t}"),
            None => path.to_string(),
        };
        self.send(s.client.get(s.url(&path))).await
    }

    /// `POST /api/games/{id}/chat`.
    async fn say(&self, s: &TestServer, id: i64, room: &str, text: &str) -> Reply {
        let body = json!({"room": room, "text": text});
        self.post(s, &format!("/api/games/{id}/chat"), body).await
    }

    /// `GET /api/games/{id}/chat?room=…`.
    async fn read(&self, s: &TestServer, id: i64, room: &str) -> Reply {
        self.get(s, &format!("/api/games/{id}/chat?room={room}"))
            .await
    }

    /// The texts of a room this one may read.
    async fn texts(&self, s: &TestServer, id: i64, room: &str) -> Vec<String> {
        let (status, v, _) = self.read(s, id, room).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        v["messages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["text"].as_str().unwrap().to_string())
            .collect()
    }

    /// The game's socket, opened with the cookie; a hello with the token
    /// (or, with a cookie, without one) follows.
    async fn ws(&self, s: &TestServer, id: i64) -> Ws {
        let url = format!("{}/api/games/{id}/ws", s.base.replace("http://", "ws://"));
        let mut req = url.into_client_request().unwrap();
        if let Some(c) = &self.cookie {
            let cookie = format!("brett_session={c}").parse().unwrap();
            req.headers_mut().insert("cookie", cookie);
        }
        let mut ws = tokio_tungstenite::connect_async(req).await.unwrap().0;
        assert_eq!(next_json(&mut ws).await["type"], "state");
        let hello = match &self.token {
            Some(t) => Some(json!({"type": "hello", "token": t})),
            None => self.cookie.as_ref().map(|_| json!({"type": "hello"})),
        };
        if let Some(h) = hello {
            send_text(&mut ws, &h.to_string()).await;
            // The hello is taken before what the test sends next.
            tokio::time::sleep(Duration::from_millis(150)).await;
        }
        ws
    }
}

/// A new account `name`, logged in.
async fn register(s: &TestServer, name: &str) -> Who {
    let creds = json!({"name": name, "password": "correct horse"});
    let r = s.client.post(s.url("/api/account/register")).json(&creds);
    let res = r.send().await.unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);
    let cookie = res.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .split(';')
        .next();
    let value = cookie.and_then(|c| c.strip_prefix("brett_session="));
    Who {
        cookie: value.map(str::to_string),
        token: None,
    }
}

/// A server whose login limits are off.
async fn server() -> TestServer {
    TestServer::start_config(|c| {
        c.logins_per_minute = 0;
        c.logins_per_name_per_minute = 0;
    })
    .await
}

/// An online game between `white` (who creates it) and `black` (who
/// joins by the invite); its id.
async fn game_between(s: &TestServer, white: &mut Who, black: &mut Who) -> i64 {
    let (status, v, _) = white
        .post(s, "/api/games", json!({"kind": "online", "name": "Weiß"}))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let id = id_of(&v);
    white.token = Some(token(&v, "white"));
    let invite = v["invite"]["token"].as_str().unwrap().to_string();
    let (status, v, _) = black
        .post(
            s,
            &format!("/api/games/{id}/join"),
            json!({"token": invite, "name": "Schwarz"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    black.token = Some(invite);
    id
}

/// The next chat message on a socket (states are skipped); `None` when
/// none comes within `ms`.
async fn next_chat(ws: &mut Ws, ms: u64) -> Option<Value> {
    let until = tokio::time::Instant::now() + Duration::from_millis(ms);
    loop {
        let msg = tokio::time::timeout_at(until, ws.next()).await.ok()??;
        if let Ok(Message::Text(t)) = msg {
            let v: Value = serde_json::from_str(t.as_str()).unwrap();
            if v["type"] == "chat" {
                return Some(v["message"].clone());
            }
        }
    }
}

#[tokio::test]
async fn players_and_spectators_each_have_their_room() {
    let s = server().await;
    let mut anna = register(&s, "Anna").await;
    let mut ben = Who::default();
    let id = game_between(&s, &mut anna, &mut ben).await;
    let carla = register(&s, "Carla").await;
    let guest = Who::default();

    let mut ben_ws = ben.ws(&s, id).await;
    let mut carla_ws = carla.ws(&s, id).await;
    let mut guest_ws = guest.ws(&s, id).await;

    // The players talk: Anna by her cookie alone, Ben (a guest) by his
    // seat's token.
    let cookie_only = Who {
        cookie: anna.cookie.clone(),
        token: None,
    };
    let (status, v, _) = cookie_only.say(&s, id, "players", "  viel Glück!  ").await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    assert_eq!(v["message"]["text"], "viel Glück!");
    assert_eq!(v["message"]["name"], "Anna");
    assert_eq!(v["message"]["seat"], "white");
    assert_eq!(v["message"]["account"], true);
    let (status, v, _) = ben.say(&s, id, "players", "danke").await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    assert_eq!(v["message"]["name"], "Schwarz");
    assert_eq!(v["message"]["account"], false);
    assert_eq!(ben.texts(&s, id, "players").await, ["viel Glück!", "danke"]);
    assert_eq!(cookie_only.texts(&s, id, "players").await.len(), 2);

    // Only the seat holders write or read the players' room.
    for who in [&carla, &guest] {
        let (status, v, _) = who.say(&s, id, "players", "psst").await;
        assert_error(status, &v, 403, "wrong_token");
        let (status, v, _) = who.read(&s, id, "players").await;
        assert_error(status, &v, 403, "wrong_token");
    }
    let (status, v, _) = Who::token("not-a-seat-token").read(&s, id, "players").await;
    assert_error(status, &v, 403, "wrong_token");

    // Spectators with an account write in theirs; guests read it only.
    let (status, v, _) = carla.say(&s, id, "spectators", "spannend").await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    assert_eq!(v["message"]["seat"], Value::Null);
    let (status, v, _) = guest.say(&s, id, "spectators", "hallo").await;
    assert_error(status, &v, 401, "not_logged_in");
    assert_eq!(guest.texts(&s, id, "spectators").await, ["spannend"]);
    // The players neither write there nor read it while the game runs.
    let (status, v, _) = anna.say(&s, id, "spectators", "hallo").await;
    assert_error(status, &v, 409, "not_allowed");
    let (status, v, _) = ben.read(&s, id, "spectators").await;
    assert_error(status, &v, 409, "not_allowed");

    // The sockets get what their readers may read, and nothing else.
    assert_eq!(
        next_chat(&mut ben_ws, 5000).await.unwrap()["text"],
        "viel Glück!"
    );
    assert_eq!(next_chat(&mut ben_ws, 5000).await.unwrap()["text"], "danke");
    assert_eq!(next_chat(&mut ben_ws, 300).await, None);
    assert_eq!(
        next_chat(&mut carla_ws, 5000).await.unwrap()["text"],
        "spannend"
    );
    assert_eq!(next_chat(&mut carla_ws, 300).await, None);
    assert_eq!(
        next_chat(&mut guest_ws, 5000).await.unwrap()["text"],
        "spannend"
    );

    // Once the game is over the players read the spectators' room; their
    // own stays theirs.
    let (status, v, _) = ben
        .post(&s, &format!("/api/games/{id}/resign"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(anna.texts(&s, id, "spectators").await, ["spannend"]);
    assert_eq!(anna.texts(&s, id, "players").await.len(), 2);
    let (status, v, _) = carla.read(&s, id, "players").await;
    assert_error(status, &v, 403, "wrong_token");
    // And may still talk after the game.
    let (status, v, _) = anna.say(&s, id, "players", "gut gespielt").await;
    assert_eq!(status, StatusCode::CREATED, "{v}");

    // Games that are not played online have no chat.
    let (_, v, _) = anna.post(&s, "/api/games", json!({"kind": "local"})).await;
    let local = Who::token(&token(&v, "white"));
    let (status, v, _) = local.say(&s, id_of(&v), "players", "hallo").await;
    assert_error(status, &v, 409, "not_allowed");
}

#[tokio::test]
async fn messages_are_checked_and_limited() {
    let s = server().await;
    let (mut a, mut b) = (Who::default(), Who::default());
    let id = game_between(&s, &mut a, &mut b).await;

    let (status, v, _) = a.say(&s, id, "players", &"ü".repeat(141)).await;
    assert_error(status, &v, 400, "bad_request");
    assert!(v["error"].as_str().unwrap().contains("at most 140"), "{v}");
    for bad in ["   ", "zwei\nZeilen", "a\u{0007}b", "a\u{202E}b"] {
        let (status, v, _) = a.say(&s, id, "players", bad).await;
        assert_error(status, &v, 400, "bad_request");
    }
    let (status, v, _) = a.say(&s, id, "kitchen", "hallo").await;
    assert_error(status, &v, 400, "bad_request");
    // 140 characters of any width fit; markup is kept as text.
    let (status, _, _) = a.say(&s, id, "players", &"😀".repeat(140)).await;
    assert_eq!(status, StatusCode::CREATED);
    let xss = "<img src=x onerror=window.pwned=1>";
    let (status, v, _) = a.say(&s, id, "players", xss).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    assert_eq!(b.texts(&s, id, "players").await[1], xss);

    // Three messages in five seconds: the fourth waits.
    let (status, v, _) = a.say(&s, id, "players", "drei").await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let (status, v, retry) = a.say(&s, id, "players", "vier").await;
    assert_error(status, &v, 429, "rate_limited");
    let secs: u64 = retry.expect("Retry-After").parse().unwrap();
    assert!((1..=5).contains(&secs), "{secs}");
    assert_eq!(v["retry_after"], secs);
    // The limit is the author's: the other player writes on.
    let (status, v, _) = b.say(&s, id, "players", "ich schon").await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    assert!(
        !b.texts(&s, id, "players")
            .await
            .contains(&"vier".to_string())
    );
}

#[tokio::test]
async fn a_blocked_account_no_longer_reaches_the_blocker() {
    let s = server().await;
    let mut anna = register(&s, "Anna").await;
    let mut ben = register(&s, "Ben").await;
    let id = game_between(&s, &mut anna, &mut ben).await;
    let carla = register(&s, "Carla").await;
    let dora = register(&s, "Dora").await;

    // Guests block nobody; nobody blocks themselves or a stranger.
    let (status, v, _) = Who::default()
        .post(&s, "/api/players/Ben/block", json!({}))
        .await;
    assert_error(status, &v, 401, "not_logged_in");
    let (status, v, _) = anna.post(&s, "/api/players/anna/block", json!({})).await;
    assert_error(status, &v, 400, "bad_request");
    let (status, v, _) = anna.post(&s, "/api/players/Nobody/block", json!({})).await;
    assert_error(status, &v, 404, "not_found");

    anna.say(&s, id, "players", "vorher").await;
    ben.say(&s, id, "players", "auch vorher").await;
    let (status, v, _) = anna.post(&s, "/api/players/ben/block", json!({})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["blocked"], "Ben");
    let (_, me, _) = anna.get(&s, "/api/account").await;
    assert_eq!(me["blocked"], json!(["Ben"]));

    // Ben's messages no longer reach Anna, on her socket or in the list;
    // Ben still reads hers.
    let mut anna_ws = anna.ws(&s, id).await;
    ben.say(&s, id, "players", "hörst du mich?").await;
    anna.say(&s, id, "players", "nachher").await;
    assert_eq!(
        next_chat(&mut anna_ws, 5000).await.unwrap()["text"],
        "nachher"
    );
    assert_eq!(anna.texts(&s, id, "players").await, ["vorher", "nachher"]);
    assert_eq!(ben.texts(&s, id, "players").await.len(), 4);

    // In the spectators' room too.
    let mut dora_ws = dora.ws(&s, id).await;
    dora.post(&s, "/api/players/Carla/block", json!({})).await;
    carla.say(&s, id, "spectators", "von Carla").await;
    assert_eq!(next_chat(&mut dora_ws, 500).await, None);
    assert!(dora.texts(&s, id, "spectators").await.is_empty());

    // Unblocked, all is there again.
    let (status, v, _) = anna.post(&s, "/api/players/Ben/unblock", json!({})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let (_, me, _) = anna.get(&s, "/api/account").await;
    assert_eq!(me["blocked"], json!([]));
    assert_eq!(anna.texts(&s, id, "players").await.len(), 4);

    // What the challenges of the lobby ask.
    let db = storage::open(&database_url_for(&s.db)).await.unwrap();
    let id_of_name = async |n: &str| db.account_by_name(&name_key(n)).await.unwrap().unwrap().id;
    let (carla_id, dora_id) = (id_of_name("carla").await, id_of_name("dora").await);
    assert!(db.blocked(dora_id, carla_id).await.unwrap());
    assert!(!db.blocked(carla_id, dora_id).await.unwrap());
    assert!(
        storage::blocked_either(db.as_ref(), carla_id, dora_id)
            .await
            .unwrap()
    );
    db.close().await;
}

#[tokio::test]
async fn messages_are_reported_for_the_operator() {
    let s = server().await;
    let mut anna = register(&s, "Anna").await;
    let mut ben = Who::default();
    let id = game_between(&s, &mut anna, &mut ben).await;
    let carla = register(&s, "Carla").await;
    let dora = register(&s, "Dora").await;

    let (_, v, _) = ben.say(&s, id, "players", "du Flasche").await;
    let rude = v["message"]["id"].as_i64().unwrap();
    let (_, v, _) = carla.say(&s, id, "spectators", "kauft bei mir").await;
    let spam = v["message"]["id"].as_i64().unwrap();

    let path = |m: i64| format!("/api/chat/{m}/report");
    let (status, v, _) = anna
        .post(&s, &path(rude), json!({"reason": "insult"}))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    assert_eq!(v["new"], true);
    // Once per reporter and message.
    let (status, v, _) = anna
        .post(&s, &path(rude), json!({"reason": "insult"}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["new"], false);
    let (status, v, _) = dora.post(&s, &path(spam), json!({"reason": "spam"})).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    // Guests report nothing; nobody reports their own message, one they
    // cannot read, or none.
    let (status, v, _) = ben.post(&s, &path(rude), json!({})).await;
    assert_error(status, &v, 401, "not_logged_in");
    let (status, v, _) = carla.post(&s, &path(spam), json!({})).await;
    assert_error(status, &v, 409, "not_allowed");
    let (status, v, _) = dora.post(&s, &path(rude), json!({})).await;
    assert_error(status, &v, 404, "not_found");
    let (status, v, _) = dora.post(&s, &path(999_999), json!({})).await;
    assert_error(status, &v, 404, "not_found");

    let db = storage::open(&database_url_for(&s.db)).await.unwrap();
    let open = db.chat_reports(false).await.unwrap();
    assert_eq!(open.len(), 2);
    assert_eq!(open[0].message.message.text, "du Flasche");
    assert_eq!(open[0].message.message.room, ChatRoom::Players);
    assert_eq!(open[0].author, None);
    assert_eq!(open[0].reporter, "Anna");
    assert_eq!(open[0].reason, "insult");
    assert_eq!(open[1].author.as_deref(), Some("Carla"));
    assert!(
        db.resolve_report(open[0].id, "admin".into(), "2026-11-28T00:00:00Z".into())
            .await
            .unwrap()
    );
    assert!(
        !db.resolve_report(open[0].id, "admin".into(), "x".into())
            .await
            .unwrap()
    );
    assert_eq!(db.chat_reports(false).await.unwrap().len(), 1);
    let all = db.chat_reports(true).await.unwrap();
    assert_eq!(all[0].closed_by.as_deref(), Some("admin"));
    db.close().await;
}

#[tokio::test]
async fn a_closed_account_cannot_log_in_or_chat_and_its_messages_are_hidden() {
    let s = server().await;
    let mut anna = register(&s, "Anna").await;
    let mut ben = register(&s, "Ben").await;
    let id = game_between(&s, &mut anna, &mut ben).await;
    anna.say(&s, id, "players", "von Anna").await;
    ben.say(&s, id, "players", "von Ben").await;

    let db = storage::open(&database_url_for(&s.db)).await.unwrap();
    let anna_id = db.account_by_name("anna").await.unwrap().unwrap().id;
    assert!(db.set_account_closed(anna_id, true).await.unwrap());

    // Her cookie no longer holds; her password says the account is closed
    // (a wrong one says nothing).
    let cookie_only = Who {
        cookie: anna.cookie.clone(),
        token: None,
    };
    let (status, v, _) = cookie_only.get(&s, "/api/account").await;
    assert_error(status, &v, 401, "not_logged_in");
    let login = |pw: &str| json!({"name": "anna", "password": pw});
    let nobody = Who::default();
    let (status, v, _) = nobody
        .post(&s, "/api/account/login", login("correct horse"))
        .await;
    assert_error(status, &v, 403, "account_closed");
    let (status, v, _) = nobody
        .post(&s, "/api/account/login", login("wrong horse"))
        .await;
    assert_error(status, &v, 401, "bad_login");
    // Not by her seat's token either.
    let (status, v, _) = Who::token(anna.token.as_deref().unwrap())
        .say(&s, id, "players", "noch da")
        .await;
    assert_error(status, &v, 403, "account_closed");
    // Her messages are hidden; her game stays.
    assert_eq!(ben.texts(&s, id, "players").await, ["von Ben"]);
    assert_eq!(s.state(id).await["status"], "ongoing");

    // Opened again, she logs in and all is back.
    assert!(db.set_account_closed(anna_id, false).await.unwrap());
    let (status, v, _) = nobody
        .post(&s, "/api/account/login", login("correct horse"))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(ben.texts(&s, id, "players").await.len(), 2);
    db.close().await;
}

#[tokio::test]
async fn the_pages_never_carry_names_or_messages() {
    let s = server().await;
    let xss = "<img src=x onerror=window.pwned=1>";
    let (mut a, mut b) = (Who::default(), Who::default());
    let (status, v, _) = a
        .post(&s, "/api/games", json!({"kind": "online", "name": xss}))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let id = id_of(&v);
    a.token = Some(token(&v, "white"));
    let invite = v["invite"]["token"].as_str().unwrap().to_string();
    b.token = Some(invite.clone());
    b.post(&s, &format!("/api/games/{id}/join"), json!({"name": xss}))
        .await;
    let (status, v, _) = a.say(&s, id, "players", xss).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    // The pages are the same files for every game: the names and messages
    // come only as JSON data, which the app inserts as text.
    for page in [
        format!("/game/{id}"),
        "/archive".into(),
        "/account".into(),
        "/".into(),
    ] {
        let res = s.get_raw(&page).await;
        assert_eq!(res.status(), StatusCode::OK, "{page}");
        let html = res.text().await.unwrap();
        assert!(!html.contains("onerror"), "{page}");
    }
    let res = s
        .get_raw(&format!("/api/games/{id}/chat?room=players&token={invite}"))
        .await;
    assert!(
        res.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("application/json")
    );
}

#[tokio::test]
async fn a_message_reaches_the_sockets_of_another_instance() {
    let Some(base) = postgres_url("a_message_reaches_the_sockets_of_another_instance") else {
        return;
    };
    let url = new_pg_database(&base).await;
    let start = async |url: &str| {
        let dir = std::path::PathBuf::from("unused");
        let mut c = config(&dir, 30);
        c.database_url = Some(url.to_string());
        TestServer::with_config(dir, c).await
    };
    let (one, two) = (start(&url).await, start(&url).await);
    let (mut a, mut b) = (Who::default(), Who::default());
    let id = game_between(&one, &mut a, &mut b).await;
    let spectator = register(&two, "Carla").await;
    let mut b_on_two = b.ws(&two, id).await;
    let mut carla_on_two = spectator.ws(&two, id).await;
    a.say(&one, id, "players", "über die Leitung").await;
    spectator.say(&one, id, "spectators", "von drüben").await;
    assert_eq!(
        next_chat(&mut b_on_two, 5000).await.unwrap()["text"],
        "über die Leitung"
    );
    assert_eq!(next_chat(&mut b_on_two, 300).await, None);
    assert_eq!(
        next_chat(&mut carla_on_two, 5000).await.unwrap()["text"],
        "von drüben"
    );
    assert_eq!(next_chat(&mut carla_on_two, 300).await, None);
}
