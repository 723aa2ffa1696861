//! Accounts (docs/API.md, "Accounts"): registering, logging in and out,
//! the login cookie, passwords kept only as argon2id hashes, the limits of
//! login attempts, seats held by accounts, deleting an account, and the
//! account's games on several devices. The servers run on SQLite, or on
//! PostgreSQL with `BRETT_TEST_BACKEND=postgres`; the storage tests at the
//! end run on both backends.

use std::time::{Duration, Instant};

use crate::common::*;
use reqwest::StatusCode;
use serde_json::{Value, json};
use server::storage::{self, DELETED_PLAYER, NewGame, Seat, name_key};

/// One browser: the login cookie it keeps.
struct Device {
    cookie: Option<String>,
}

/// An answer: status, body and the `Set-Cookie` header.
struct Answer {
    status: StatusCode,
    body: Value,
    set_cookie: Option<String>,
    retry_after: Option<String>,
}

impl Device {
    fn new() -> Device {
        Device { cookie: None }
    }

    async fn send(&mut self, r: reqwest::RequestBuilder) -> Answer {
        let r = match &self.cookie {
            Some(c) => r.header("cookie", format!("brett_session={c}")),
            None => r,
        };
        let res = r.send().await.unwrap();
        let header = |n: &str| {
            res.headers()
                .get(n)
                .map(|v| v.to_str().unwrap().to_string())
        };
        let set_cookie = header("set-cookie");
        let retry_after = header("retry-after");
        if let Some(c) = &set_cookie {
            let value = c
                .strip_prefix("brett_session=")
                .and_then(|v| v.split(';').next())
                .unwrap();
            self.cookie = (!value.is_empty()).then(|| value.to_string());
        }
        let status = res.status();
        let body = res.json().await.unwrap_or(Value::Null);
        Answer {
            status,
            body,
            set_cookie,
            retry_after,
        }
    }

    async fn post(&mut self, s: &TestServer, path: &str, body: Value) -> Answer {
        self.send(s.client.post(s.url(path)).json(&body)).await
    }

    async fn get(&mut self, s: &TestServer, path: &str) -> Answer {
        self.send(s.client.get(s.url(path))).await
    }

    async fn register(&mut self, s: &TestServer, name: &str, password: &str) -> Answer {
        let body = json!({"name": name, "password": password});
        self.post(s, "/api/account/register", body).await
    }

    async fn login(&mut self, s: &TestServer, name: &str, password: &str) -> Answer {
        let body = json!({"name": name, "password": password});
        self.post(s, "/api/account/login", body).await
    }
}

/// A server whose login limits are off (tests that log in often).
async fn unlimited() -> TestServer {
    TestServer::start_config(|c| {
        c.logins_per_minute = 0;
        c.logins_per_name_per_minute = 0;
    })
    .await
}

#[tokio::test]
async fn register_login_logout_and_who_am_i() {
    let s = unlimited().await;
    let mut a = Device::new();
    let r = a.get(&s, "/api/account").await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    assert_eq!(r.body["code"], "not_logged_in");

    let r = a.register(&s, "Anna_1", "correct horse").await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    assert_eq!(r.body["account"]["name"], "Anna_1");
    assert!(a.cookie.is_some());
    let r = a.get(&s, "/api/account").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.body["account"]["name"], "Anna_1");
    assert!(r.body["account"].get("id").is_none(), "no account ids");

    // The name is taken whatever its case.
    let mut b = Device::new();
    let r = b.register(&s, "anna_1", "another password").await;
    assert_eq!(r.status, StatusCode::CONFLICT);
    assert_eq!(r.body["code"], "name_taken");
    // Names and passwords that do not fit.
    for (name, pw) in [
        ("ab", "long enough"),
        ("a b c", "long enough"),
        ("Ben", "short"),
    ] {
        let r = b.register(&s, name, pw).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{name}");
    }
    let r = b.register(&s, "Ben", &"x".repeat(257)).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);

    let r = a.post(&s, "/api/account/logout", json!({})).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.set_cookie.unwrap().contains("Max-Age=0"));
    assert!(a.cookie.is_none());
    let r = a.get(&s, "/api/account").await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);

    // Logged out on the server too: the old cookie holds no login.
    let mut c = Device::new();
    let r = c.login(&s, "ANNA_1", "correct horse").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let old = c.cookie.clone();
    c.post(&s, "/api/account/logout", json!({})).await;
    c.cookie = old;
    let r = c.get(&s, "/api/account").await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn the_cookie_is_http_only_lax_and_secure_only_over_tls() {
    let s = TestServer::start_config(|c| c.trusted_proxies = vec!["127.0.0.1".into()]).await;
    let mut a = Device::new();
    let r = a.register(&s, "Carla", "correct horse").await;
    let c = r.set_cookie.unwrap();
    for part in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=2592000"] {
        assert!(c.split("; ").any(|p| p == part), "{part} in {c}");
    }
    assert!(!c.contains("Secure"), "{c}");
    // Through the trusted proxy, over TLS.
    let r = a
        .send(
            s.client
                .post(s.url("/api/account/login"))
                .header("x-forwarded-proto", "https")
                .json(&json!({"name": "Carla", "password": "correct horse"})),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.set_cookie.unwrap().ends_with("; Secure"));

    // Nobody else is believed.
    let s = TestServer::start().await;
    let mut b = Device::new();
    b.register(&s, "Dora", "correct horse").await;
    let r = b
        .send(
            s.client
                .post(s.url("/api/account/login"))
                .header("x-forwarded-proto", "https")
                .json(&json!({"name": "Dora", "password": "correct horse"})),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(!r.set_cookie.unwrap().contains("Secure"));

    // A public host given as https://: its cookies are Secure.
    let s =
        TestServer::start_config(|c| c.allowed_origins = vec!["https://localhost".into()]).await;
    let mut d = Device::new();
    let r = d
        .send(
            s.client
                .post(s.url("/api/account/register"))
                .header("host", "localhost")
                .json(&json!({"name": "Emil", "password": "correct horse"})),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    assert!(r.set_cookie.unwrap().ends_with("; Secure"));
}

#[tokio::test]
async fn the_password_is_kept_only_as_an_argon2id_hash() {
    let mut s = TestServer::start().await;
    let password = "Pferdebatterie-42";
    let mut a = Device::new();
    a.register(&s, "Frieda", password).await;
    a.login(&s, "Frieda", password).await;
    let url = database_url_for(&s.db);
    s.stop().await;
    let db = storage::open(&url).await.unwrap();
    let account = db
        .account_by_name(&name_key("Frieda"))
        .await
        .unwrap()
        .unwrap();
    assert!(
        account
            .password_hash
            .starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
        "{}",
        account.password_hash
    );
    assert!(!account.password_hash.contains(password));
    let exported = db.export_accounts().await.unwrap();
    assert!(!format!("{exported:?}").contains(password));
    db.close().await;
    if url.starts_with("sqlite:") {
        // Nowhere in the file (nor beside it).
        for entry in std::fs::read_dir(s.db.parent().unwrap()).unwrap() {
            let bytes = std::fs::read(entry.unwrap().path()).unwrap();
            assert!(
                !bytes
                    .windows(password.len())
                    .any(|w| w == password.as_bytes()),
                "the password in clear"
            );
        }
    }
}

#[tokio::test]
async fn a_new_password_ends_the_other_logins() {
    let s = unlimited().await;
    let (mut phone, mut laptop) = (Device::new(), Device::new());
    phone.register(&s, "Greta", "first password").await;
    laptop.login(&s, "Greta", "first password").await;
    let r = phone
        .post(
            &s,
            "/api/account/password",
            json!({"old": "wrong password", "new": "second password"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    assert_eq!(r.body["code"], "wrong_password");
    let r = phone
        .post(
            &s,
            "/api/account/password",
            json!({"old": "first password", "new": "second password"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(phone.get(&s, "/api/account").await.status, StatusCode::OK);
    assert_eq!(
        laptop.get(&s, "/api/account").await.status,
        StatusCode::UNAUTHORIZED
    );
    let r = laptop.login(&s, "Greta", "first password").await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    let r = laptop.login(&s, "Greta", "second password").await;
    assert_eq!(r.status, StatusCode::OK);
}

#[tokio::test]
async fn guessing_passwords_is_answered_429() {
    let s = TestServer::start().await;
    let mut a = Device::new();
    a.register(&s, "Hanna", "correct horse").await;
    let mut b = Device::new();
    for _ in 0..5 {
        let r = b.login(&s, "hanna", "guess guess").await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    }
    let r = b.login(&s, "Hanna", "guess guess").await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS, "{}", r.body);
    assert_eq!(r.body["code"], "rate_limited");
    let secs: u64 = r.retry_after.unwrap().parse().unwrap();
    assert!((1..=60).contains(&secs), "{secs}");
    // Even the right password waits: the name is locked for a while.
    let r = b.login(&s, "Hanna", "correct horse").await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS);
    // Another name from the same address is not.
    let r = b.login(&s, "Somebody", "guess guess").await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    // And one address is limited across names.
    let mut last = StatusCode::OK;
    for i in 0..25 {
        last = b.login(&s, &format!("name{i}"), "guess guess").await.status;
    }
    assert_eq!(last, StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test]
async fn an_unknown_name_and_a_wrong_password_look_the_same() {
    let s = unlimited().await;
    let mut a = Device::new();
    a.register(&s, "Ida", "correct horse").await;
    let hasher = s.server.as_ref().unwrap().state.accounts.hasher().clone();
    let before = hasher.dummy_checks();
    let unknown = a.login(&s, "Nobody", "correct horse").await;
    let wrong = a.login(&s, "Ida", "wrong horse").await;
    assert_eq!(unknown.status, StatusCode::UNAUTHORIZED);
    assert_eq!(unknown.body, wrong.body);
    assert_eq!(unknown.body["code"], "bad_login");
    // The unknown name was checked against the dummy hash, the known one
    // against its own.
    assert_eq!(hasher.dummy_checks(), before + 1);

    let known = median_login(&s, "Ida").await;
    let unknown = median_login(&s, "Nobody").await;
    assert!(
        unknown * 3 > known && known * 3 > unknown,
        "unknown name {unknown:?}, wrong password {known:?}"
    );
}

/// The median time of 5 logins as `name` with a wrong password.
async fn median_login(s: &TestServer, name: &str) -> Duration {
    let mut d = Device::new();
    let mut t = Vec::new();
    for _ in 0..5 {
        let start = Instant::now();
        let r = d.login(s, name, "wrong horse").await;
        t.push(start.elapsed());
        assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    }
    t.sort();
    t[2]
}

/// Create a game with `device`'s cookie.
async fn create_as(s: &TestServer, device: &mut Device, body: Value) -> Value {
    let r = device.post(s, "/api/games", body).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    r.body
}

#[tokio::test]
async fn seats_go_with_the_account_to_every_device() {
    let s = unlimited().await;
    let (mut anna_phone, mut anna_laptop, mut ben) = (Device::new(), Device::new(), Device::new());
    anna_phone.register(&s, "Anna", "correct horse").await;
    anna_laptop.login(&s, "Anna", "correct horse").await;
    ben.register(&s, "Ben", "battery staple").await;

    // Anna creates an online game on her phone; Ben joins by the invite.
    let g = create_as(
        &s,
        &mut anna_phone,
        json!({"kind": "online", "color": "white", "name": "Anna"}),
    )
    .await;
    let id = g["id"].as_i64().unwrap();
    let invite = g["invite"]["token"].as_str().unwrap().to_string();
    assert_eq!(g["state"]["players"]["white"]["account"], true);
    assert!(g["state"]["players"]["black"].get("account").is_none());
    let r = ben
        .post(
            &s,
            &format!("/api/games/{id}/join"),
            json!({"token": invite, "name": "Ben"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.body["players"]["black"]["account"], true);

    // Anna moves from her laptop, without the seat's token.
    let r = anna_laptop
        .post(
            &s,
            &format!("/api/games/{id}/moves"),
            json!({"move": "d6", "ply": 0}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.body["you"], "white");
    // No cookie is no seat.
    let mut guest = Device::new();
    let r = guest
        .post(&s, &format!("/api/games/{id}/resign"), json!({}))
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.body);
    assert_eq!(r.body["code"], "wrong_token");
    // Ben plays his own seat by cookie; the state tells each who they are.
    let r = ben
        .post(
            &s,
            &format!("/api/games/{id}/moves"),
            json!({"move": "f4", "ply": 1}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let r = anna_laptop.get(&s, &format!("/api/games/{id}")).await;
    assert_eq!(r.body["you"], "white");
    let r = guest.get(&s, &format!("/api/games/{id}")).await;
    assert!(r.body.get("you").is_none());

    // A guest's game works by token as ever, and no account takes it.
    let g = s.create(json!({"kind": "local"})).await;
    let gid = g["id"].as_i64().unwrap();
    let white = g["tokens"]["white"].as_str().unwrap();
    s.play_ok(gid, white, 0, "d6").await;
    let r = anna_laptop
        .post(
            &s,
            &format!("/api/games/{gid}/moves"),
            json!({"move": "f4", "ply": 1}),
        )
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);

    // "My games": the same list on both of Anna's devices.
    let g2 = create_as(&s, &mut anna_laptop, json!({"kind": "local"})).await;
    let id2 = g2["id"].as_i64().unwrap();
    for d in [&mut anna_phone, &mut anna_laptop] {
        let r = d.get(&s, "/api/account/games").await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
        assert_eq!(r.body["total"], 2);
        let games = r.body["games"].as_array().unwrap();
        assert_eq!(games[0]["id"], id2);
        assert_eq!(games[0]["you"], "both");
        assert_eq!(games[1]["id"], id);
        assert_eq!(games[1]["you"], "white");
        assert_eq!(games[1]["black"], "Ben");
        assert_eq!(games[1]["ply"], 2);
    }
    // Ben's cookie is not Anna's seat.
    let r = ben
        .post(&s, &format!("/api/games/{id2}/resign"), json!({}))
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.body);
    assert_eq!(r.body["code"], "wrong_token");
    // A local game held by one account: the side to move plays.
    let r = anna_phone
        .post(
            &s,
            &format!("/api/games/{id2}/moves"),
            json!({"move": "d6", "ply": 0}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.body["you"], "white");
    let r = ben.get(&s, "/api/account/games?limit=1").await;
    assert_eq!(r.body["total"], 1);
    assert_eq!(r.body["games"][0]["you"], "black");
    let r = guest.get(&s, "/api/account/games").await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_deleted_accounts_games_stay_with_its_name_anonymised() {
    let s = unlimited().await;
    let (mut anna, mut ben) = (Device::new(), Device::new());
    anna.register(&s, "Anna", "correct horse").await;
    ben.register(&s, "Ben", "battery staple").await;
    let g = create_as(
        &s,
        &mut anna,
        json!({"kind": "online", "color": "black", "name": "Anna Maria"}),
    )
    .await;
    let id = g["id"].as_i64().unwrap();
    let invite = g["invite"]["token"].as_str().unwrap().to_string();
    ben.post(
        &s,
        &format!("/api/games/{id}/join"),
        json!({"token": invite, "name": "Ben"}),
    )
    .await;
    let computer = create_as(&s, &mut anna, json!({"kind": "computer", "name": "Anna"})).await;
    let cid = computer["id"].as_i64().unwrap();

    let r = anna
        .post(&s, "/api/account/delete", json!({"password": "wrong"}))
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    let r = anna
        .post(
            &s,
            "/api/account/delete",
            json!({"password": "correct horse"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.body["games"], 2);
    assert!(anna.cookie.is_none());

    let st = s.state(id).await;
    assert_eq!(st["players"]["black"]["name"], DELETED_PLAYER);
    assert!(st["players"]["black"].get("account").is_none());
    assert_eq!(st["players"]["white"]["name"], "Ben");
    assert_eq!(st["players"]["white"]["account"], true);
    assert_eq!(
        s.state(cid).await["players"]["white"]["name"],
        DELETED_PLAYER
    );
    let (_, archive) = s.get("/api/games").await;
    let names: Vec<&Value> = archive["games"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|g| [&g["white"], &g["black"]])
        .collect();
    assert!(
        !names
            .iter()
            .any(|n| n.as_str().is_some_and(|n| n.contains("Anna")))
    );
    let record = s.get_raw(&format!("/api/games/{id}/record")).await;
    assert_eq!(record.status(), StatusCode::OK);
    assert!(record.text().await.unwrap().contains(DELETED_PLAYER));
    // The name is free again; its old login is gone.
    let mut again = Device::new();
    assert_eq!(
        again.login(&s, "Anna", "correct horse").await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        again.register(&s, "anna", "new horse!").await.status,
        StatusCode::CREATED
    );
    assert_eq!(again.get(&s, "/api/account/games").await.body["total"], 0);
}

#[tokio::test]
async fn a_socket_with_the_cookie_is_its_seats_presence() {
    use futures_util::SinkExt;
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let s = unlimited().await;
    let mut anna = Device::new();
    anna.register(&s, "Anna", "correct horse").await;
    let g = create_as(&s, &mut anna, json!({"kind": "online", "color": "white"})).await;
    let id = g["id"].as_i64().unwrap();
    let mut req = format!("{}/api/games/{id}/ws", s.base.replace("http", "ws"))
        .into_client_request()
        .unwrap();
    req.headers_mut().insert(
        "cookie",
        format!("brett_session={}", anna.cookie.as_ref().unwrap())
            .parse()
            .unwrap(),
    );
    let (mut ws, _) = tokio_tungstenite::connect_async(req).await.unwrap();
    let first = next_json(&mut ws).await;
    assert_eq!(first["state"]["players"]["white"]["online"], false);
    ws.send(tokio_tungstenite::tungstenite::Message::Text(
        r#"{"type":"hello"}"#.into(),
    ))
    .await
    .unwrap();
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let m = next_json(&mut ws).await;
        if m["state"]["players"]["white"]["online"] == true {
            break;
        }
        assert!(Instant::now() < deadline, "never present: {m}");
    }
}

/// A fresh, empty database of each backend: (name, URL, its temp folder).
async fn backends(test: &str) -> Vec<(&'static str, String, Option<tempfile::TempDir>)> {
    let dir = tempfile::tempdir().unwrap();
    let sqlite = format!("sqlite://{}", dir.path().join("brett.db").display());
    let mut out = vec![("sqlite", sqlite, Some(dir))];
    if let Some(base) = postgres_url(test) {
        out.push(("postgres", new_pg_database(&base).await, None));
    }
    out
}

fn new_account(name: &str) -> storage::NewAccount {
    storage::NewAccount {
        name: name.into(),
        name_key: name_key(name),
        password_hash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaA".into(),
        created_at: "2026-11-30T10:00:00Z".into(),
    }
}

fn game_of(white: Option<i64>, black: Option<i64>) -> NewGame {
    let seat = |account, name: &str| Seat {
        token_hash: Some("ab".repeat(32)),
        name: Some(name.into()),
        joined: true,
        level: None,
        account,
    };
    NewGame {
        game: storage::Variant::Muehle,
        kind: "online".into(),
        rules: "standard".into(),
        start_position: ".../.../.../....../.../.../... w 9 9 0 1".into(),
        moves: vec!["d6".into()],
        move_clocks: Vec::new(),
        meta: meta("ongoing", "2026-11-30T10:00:00Z"),
        seats: [seat(white, "W"), seat(black, "B")],
        tags: Vec::new(),
        created_at: "2026-11-30T10:00:00Z".into(),
    }
}

#[tokio::test]
async fn storage_of_accounts_logins_and_seats() {
    for (backend, url, _dir) in backends("storage_of_accounts_logins_and_seats").await {
        let db = storage::open(&url).await.unwrap();
        let a = db
            .create_account(new_account("Anna"))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            db.create_account(new_account("ANNA")).await.unwrap(),
            None,
            "{backend}"
        );
        let b = db
            .create_account(new_account("Ben"))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            db.account_by_name("anna").await.unwrap().unwrap().id,
            a,
            "{backend}"
        );
        assert_eq!(db.account_by_id(b).await.unwrap().unwrap().name, "Ben");
        assert!(db.account_by_id(999).await.unwrap().is_none());

        // Logins: found until they end; an ended one is swept by the next.
        let login = |hash: &str, account, at: i64| storage::NewLogin {
            token_hash: hash.into(),
            account,
            created_at: at,
            expires_at: at + 1000,
        };
        db.create_login(login("h1", a, 0)).await.unwrap();
        db.create_login(login("h2", a, 500)).await.unwrap();
        assert_eq!(db.account_by_login("h1", 999).await.unwrap().unwrap().id, a);
        assert!(db.account_by_login("h1", 1000).await.unwrap().is_none());
        db.create_login(login("h3", b, 2000)).await.unwrap();
        assert!(db.account_by_login("h2", 1400).await.unwrap().is_none());
        db.delete_login("h3").await.unwrap();
        assert!(db.account_by_login("h3", 2001).await.unwrap().is_none());

        // A new password ends the other logins; a rehash none.
        db.create_login(login("k1", a, 10_000)).await.unwrap();
        db.create_login(login("k2", a, 10_000)).await.unwrap();
        assert!(
            db.set_password(a, "$argon2id$x".into(), None)
                .await
                .unwrap()
        );
        assert!(db.account_by_login("k2", 10_001).await.unwrap().is_some());
        assert!(
            db.set_password(a, "$argon2id$y".into(), Some("k1".into()))
                .await
                .unwrap()
        );
        assert!(db.account_by_login("k1", 10_001).await.unwrap().is_some());
        assert!(db.account_by_login("k2", 10_001).await.unwrap().is_none());
        assert_eq!(
            db.account_by_id(a).await.unwrap().unwrap().password_hash,
            "$argon2id$y"
        );
        assert!(!db.set_password(999, "x".into(), None).await.unwrap());

        // Games by account, newest first.
        let g1 = db.create_game(game_of(Some(a), Some(b))).await.unwrap();
        let g2 = db.create_game(game_of(None, Some(a))).await.unwrap();
        let g3 = db.create_game(game_of(Some(b), None)).await.unwrap();
        let (games, total) = db.account_games(a, 10, 0).await.unwrap();
        assert_eq!(total, 2, "{backend}");
        let ids: Vec<i64> = games.iter().map(|g| g.id).collect();
        assert_eq!(ids, vec![g2, g1]);
        assert_eq!(games[1].seats[0].account, Some(a));
        let (games, total) = db.account_games(b, 1, 1).await.unwrap();
        assert_eq!((total, games[0].id), (2, g1));

        // Export and import keep accounts and seats.
        let accounts = db.export_accounts().await.unwrap();
        let exported = db.export_games(0, 10).await.unwrap();
        assert_eq!(exported[0].white.account, Some(a));
        let lines: Vec<String> = accounts.iter().map(|r| r.to_line()).collect();
        assert!(lines[0].starts_with(r#"{"account":"#), "{}", lines[0]);
        let parsed: Vec<storage::AccountRecord> = lines
            .iter()
            .map(|l| storage::AccountRecord::from_line(l).unwrap().unwrap())
            .collect();
        assert!(storage::AccountRecord::from_line(&exported[0].to_line()).is_none());

        // Delete Anna: her games stay, anonymised; Ben's seat stays his.
        let changed = db.delete_account(a).await.unwrap().unwrap();
        let mut changed_sorted = changed.clone();
        changed_sorted.sort();
        assert_eq!(changed_sorted, vec![g1, g2]);
        let one = db.load_game(g1).await.unwrap().unwrap();
        assert_eq!(one.seats[0].name.as_deref(), Some(DELETED_PLAYER));
        assert_eq!(one.seats[0].account, None);
        assert_eq!(one.seats[1].name.as_deref(), Some("B"));
        assert_eq!(one.seats[1].account, Some(b));
        assert_eq!(one.moves, vec!["d6".to_string()]);
        assert!(one.version > 0, "a change of the game");
        assert!(db.account_by_name("anna").await.unwrap().is_none());
        assert!(db.account_by_login("k1", 10_001).await.unwrap().is_none());
        assert_eq!(db.delete_account(a).await.unwrap(), None);
        assert_eq!(db.account_games(b, 10, 0).await.unwrap().1, 2);
        let _ = g3;
        db.close().await;

        // Into fresh databases: with the accounts, the seats keep them;
        // without, no seat names an account that is not there.
        for with_accounts in [true, false] {
            let (_, url2, _dir2) = backends("storage_of_accounts_logins_and_seats")
                .await
                .into_iter()
                .find(|b| b.0 == backend)
                .unwrap();
            let db2 = storage::open(&url2).await.unwrap();
            if with_accounts {
                db2.import_accounts(parsed.clone()).await.unwrap();
                assert!(matches!(
                    db2.import_accounts(parsed.clone()).await,
                    Err(storage::StorageError::AccountExists(_))
                ));
            }
            db2.import_games(exported.clone()).await.unwrap();
            let g = db2.load_game(g1).await.unwrap().unwrap();
            let want = with_accounts.then_some(a);
            assert_eq!(g.seats[0].account, want, "{backend} {with_accounts}");
            if with_accounts {
                assert_eq!(db2.account_games(a, 10, 0).await.unwrap().1, 2);
                // New accounts get new ids.
                let c = db2
                    .create_account(new_account("Cleo"))
                    .await
                    .unwrap()
                    .unwrap();
                assert!(c > b, "{backend}");
            }
            db2.close().await;
        }
    }
}
