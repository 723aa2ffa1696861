//! The "Perfect play" page's API: the databases of every rule set with
//! their sizes on disk and costs (`GET /api/perfect`), builds started from
//! the app (`POST /api/perfect/build`, pause, resume) for the local app and
//! admins only, the disk and memory checks, and files built while the
//! server runs found without a restart. The database folder is installed
//! for the whole process (`crate::databases`: installing is process-global,
//! so these tests are in the `databases` test binary); each test works on
//! rule sets of its own.

use std::time::{Duration, Instant};

use crate::common::{TestServer, json_answer};
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::databases;

fn set<'a>(overview: &'a Value, game: &str, rules: &str) -> &'a Value {
    overview["sets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["game"] == game && s["rules"] == rules)
        .unwrap_or_else(|| panic!("no set {game}/{rules} in {overview}"))
}

fn size(set: &Value, n: u64) -> &Value {
    set["sizes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["size"] == n)
        .unwrap()
}

/// Poll `GET /api/perfect` until the build's state is `state`.
async fn wait_build(s: &TestServer, state: &str, secs: u64) -> Value {
    let until = Instant::now() + Duration::from_secs(secs);
    loop {
        let (status, body) = s.get("/api/perfect").await;
        assert_eq!(status, StatusCode::OK);
        if body["build"]["state"] == state {
            return body;
        }
        assert!(
            Instant::now() < until,
            "the build did not reach {state}: {}",
            body["build"]
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn the_listing_shows_installed_files_sizes_and_costs() {
    let dir = databases();
    let s = TestServer::start().await;
    let (status, body) = s.get("/api/perfect").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["enabled"], true);
    assert_eq!(body["dir"], dir.display().to_string());
    // From this machine, on a server listening on 127.0.0.1: may build.
    assert_eq!(body["may_build"], true);

    // The folder holds the standard sectors 3-3, 3-4 and 4-3.
    let bytes = |sector: &str| {
        std::fs::metadata(dir.join("standard").join(format!("{sector}.tb")))
            .unwrap()
            .len()
    };
    let all_bytes = bytes("3-3") + bytes("3-4") + bytes("4-3");
    let standard = set(&body, "muehle", "standard");
    assert_eq!(standard["unit"], "stones");
    assert_eq!(standard["installed_files"], 3);
    assert_eq!(standard["installed_bytes"], all_bytes);
    assert_eq!(standard["complete"], false);
    let three = size(standard, 3);
    assert_eq!(three["files"], 1);
    assert_eq!(three["installed"], 1);
    assert_eq!(three["bytes_on_disk"], bytes("3-3"));
    assert_eq!(three["positions"], tablebase::SectorIndex::new(3, 3).size());
    let four = size(standard, 4);
    assert_eq!(four["files"], 4);
    assert_eq!(four["installed"], 3);
    assert_eq!(four["bytes_on_disk"], all_bytes);
    let nine = size(standard, 9);
    assert_eq!(nine["files"], 49);
    assert_eq!(nine["installed"], 3);
    // The costs measured on the project's machine (docs/RESULTS.md).
    assert_eq!(nine["measured"]["seconds"], 5_700.7);
    assert_eq!(nine["measured"]["bytes"], 2_967_894_381u64);
    assert!(nine["estimate"]["memory"].as_u64().unwrap() > 4_000_000_000);
    assert!(nine["estimate"]["seconds"].as_f64().unwrap() > 3_600.0);

    // Every rule set with databases, Dame's by pieces.
    for rules in ["ravensburger", "no-flying", "ravensburger-no-flying"] {
        assert_eq!(
            set(&body, "muehle", rules)["sizes"]
                .as_array()
                .unwrap()
                .len(),
            7
        );
    }
    for rules in ["dame", "dame-fr", "dame-100", "international"] {
        let d = set(&body, "dame", rules);
        assert_eq!(d["unit"], "pieces");
        assert!(size(d, 2)["positions"].as_u64().unwrap() > 0);
    }
    assert_eq!(
        size(set(&body, "dame", "dame-100"), 4)["measured"]["seconds"],
        49.0
    );
}

#[tokio::test]
async fn only_the_local_app_and_admins_may_build() {
    databases();
    // Behind a trusted proxy, a client elsewhere: refused, with a reason.
    let s = TestServer::start_config(|c| {
        c.trusted_proxies = vec!["127.0.0.1".into()];
        c.admins = vec!["Boss".into()];
    })
    .await;
    let remote = |r: reqwest::RequestBuilder| r.header("x-forwarded-for", "203.0.113.9");
    let (status, body) = json_answer(
        remote(s.client.post(s.url("/api/perfect/build")))
            .json(&json!({"game": "dame", "rules": "dame", "size": 2}))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert_eq!(body["code"], "forbidden");
    assert_eq!(body["detail"]["code"], "perfect.not_admin");
    assert!(
        body["error"].as_str().unwrap().contains("--admin"),
        "{body}"
    );
    for path in ["/api/perfect/build/pause", "/api/perfect/build/resume"] {
        let (status, _) = json_answer(
            remote(s.client.post(s.url(path)))
                .json(&json!({}))
                .send()
                .await
                .unwrap(),
        )
        .await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{path}");
    }
    let (_, body) = json_answer(
        remote(s.client.get(s.url("/api/perfect")))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(body["may_build"], false);

    // The same client logged in with an account another than the admin's:
    // refused; with the admin's (any case): allowed.
    for (name, allowed) in [("Other", false), ("boss", true)] {
        let r = remote(s.client.post(s.url("/api/account/register")))
            .json(&json!({"name": name, "password": "correct horse"}))
            .send()
            .await
            .unwrap();
        let cookie = r.headers()["set-cookie"].to_str().unwrap().to_string();
        let cookie = cookie.split(';').next().unwrap().to_string();
        let (_, body) = json_answer(
            remote(s.client.get(s.url("/api/perfect")))
                .header("cookie", &cookie)
                .send()
                .await
                .unwrap(),
        )
        .await;
        assert_eq!(body["may_build"], allowed, "{name}");
        let (status, body) = json_answer(
            remote(s.client.post(s.url("/api/perfect/build/pause")))
                .header("cookie", &cookie)
                .json(&json!({}))
                .send()
                .await
                .unwrap(),
        )
        .await;
        if allowed {
            // Allowed, but no build runs.
            assert_eq!(status, StatusCode::CONFLICT, "{body}");
            assert_eq!(body["detail"]["code"], "perfect.idle");
        } else {
            assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
        }
    }

    // A server listening on every interface is no local app: a request
    // from this machine is refused too.
    let s = TestServer::start_config(|c| c.listen = "0.0.0.0:0".parse().unwrap()).await;
    let (status, body) = s
        .post(
            "/api/perfect/build",
            json!({"game": "dame", "rules": "dame", "size": 2}),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
}

#[tokio::test]
async fn a_build_runs_pauses_resumes_and_its_files_are_used_at_once() {
    let dir = databases();
    let s = TestServer::start().await;
    // A position of sector 4-4 under the rules without flying: the
    // databases do not hold it yet.
    let position = "WW./B../.../W.W..B/.B./B../... w 0 0 0 40";
    let rules = "no-flying";
    let analyze =
        json!({"game": "muehle", "rules": rules, "position": position, "time_ms": 50, "lines": 1});
    let (status, before) = s.post("/api/analyze", analyze.clone()).await;
    assert_eq!(status, StatusCode::OK, "{before}");
    assert!(before.get("database").is_none(), "{before}");

    let (status, body) = s
        .post(
            "/api/perfect/build",
            json!({"game": "muehle", "rules": rules, "size": 4}),
        )
        .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    assert_eq!(body["state"], "running");
    assert_eq!(body["files_total"], 4);
    // One build at a time.
    let (status, busy) = s
        .post(
            "/api/perfect/build",
            json!({"game": "dame", "rules": "dame", "size": 2}),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{busy}");
    assert_eq!(busy["detail"]["code"], "perfect.busy");

    // Paused: the workers stop at their next report, nothing moves on.
    let (status, paused) = s.post("/api/perfect/build/pause", json!({})).await;
    assert_eq!(status, StatusCode::OK, "{paused}");
    assert_eq!(paused["state"], "paused");
    // The work the threads had in hand when paused is counted first.
    tokio::time::sleep(Duration::from_millis(1000)).await;
    let (_, a) = s.get("/api/perfect").await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    let (_, b) = s.get("/api/perfect").await;
    assert_eq!(b["build"]["state"], "paused");
    assert_eq!(
        a["build"]["positions_done"], b["build"]["positions_done"],
        "a paused build does not go on"
    );
    assert!(
        b["build"]["positions_done"].as_u64().unwrap()
            < b["build"]["positions_total"].as_u64().unwrap()
    );
    assert!(b["build"]["seconds_left"].as_f64().unwrap() > 0.0);

    let (status, resumed) = s.post("/api/perfect/build/resume", json!({})).await;
    assert_eq!(status, StatusCode::OK, "{resumed}");
    assert_eq!(resumed["state"], "running");
    let done = wait_build(&s, "done", 120).await;
    let build = &done["build"];
    assert_eq!(build["files_done"], 4);
    assert_eq!(build["positions_done"], build["positions_total"]);
    assert!(build["seconds_left"].is_null());
    let listed = size(set(&done, "muehle", rules), 4);
    assert_eq!(listed["installed"], 4);
    assert!(listed["bytes_on_disk"].as_u64().unwrap() > 0);
    assert!(dir.join(rules).join("4-4.tb").is_file());

    // The new sectors are used without a restart.
    let until = Instant::now() + Duration::from_secs(15);
    loop {
        let (status, after) = s.post("/api/analyze", analyze.clone()).await;
        assert_eq!(status, StatusCode::OK, "{after}");
        if after.get("database").is_some() {
            break;
        }
        assert!(
            Instant::now() < until,
            "the new sectors are not used: {after}"
        );
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    // Built again: everything is there, nothing to do.
    let (status, again) = s
        .post(
            "/api/perfect/build",
            json!({"game": "muehle", "rules": rules, "size": 4}),
        )
        .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{again}");
    let done = wait_build(&s, "done", 30).await;
    assert_eq!(done["build"]["positions_total"], 0);
}

#[tokio::test]
async fn a_build_is_refused_without_room_on_disk_or_in_memory() {
    databases();
    for (disk, memory, code) in [
        (Some(u64::MAX / 2), None, "perfect.disk"),
        (None, Some(u64::MAX / 2), "perfect.memory"),
    ] {
        let s = TestServer::start_config(|c| {
            c.build_needs.disk_bytes = disk;
            c.build_needs.memory_bytes = memory;
        })
        .await;
        let (status, body) = s
            .post(
                "/api/perfect/build",
                json!({"game": "dame", "rules": "dame-100", "size": 2}),
            )
            .await;
        assert_eq!(status, StatusCode::CONFLICT, "{body}");
        assert_eq!(body["detail"]["code"], code);
        let need: u64 = body["detail"]["params"]["need"]
            .as_str()
            .unwrap()
            .parse()
            .unwrap();
        let free: u64 = body["detail"]["params"]["free"]
            .as_str()
            .unwrap()
            .parse()
            .unwrap();
        assert!(free < need, "{body}");
        let (_, overview) = s.get("/api/perfect").await;
        assert!(overview["build"].is_null(), "nothing started: {overview}");
    }
    // Bad requests.
    let s = TestServer::start().await;
    for body in [
        json!({"game": "dame", "rules": "dame", "size": 9}),
        json!({"game": "muehle", "rules": "lasker", "size": 3}),
    ] {
        let (status, answer) = s.post("/api/perfect/build", body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    }
}

#[tokio::test]
async fn dame_tables_built_while_the_server_runs_are_found() {
    let dir = databases();
    let s = TestServer::start().await;
    let rules = dame::RuleSet::DAME_FR;
    let pos = dame::Position::from_fen("W:WKa3,Kc1:BKh2", rules).unwrap();
    // Looked up (and missed) before the tables exist.
    assert!(engine::dame::databases::probe(&pos).is_none());
    let (_, body) = s.get("/api/perfect").await;
    assert_eq!(set(&body, "dame", "dame-fr")["installed_files"], 0);

    let targets = tablebase::dame::Material::all_up_to(3);
    tablebase::dame::build_dame(dir, &rules, &targets, &mut |_| {}).unwrap();
    let (_, body) = s.get("/api/perfect").await;
    let listed = set(&body, "dame", "dame-fr");
    assert!(listed["installed_files"].as_u64().unwrap() >= targets.len() as u64);
    assert_eq!(size(listed, 3)["installed"], size(listed, 3)["files"]);
    // The server's searches find them within a few seconds: a table
    // missed is looked for again after 5 s, within the next 1024 lookups
    // of it (an analysis looks it up at every node).
    let analyze = json!({"game": "dame-fr", "position": pos.fen(), "time_ms": 100, "lines": 1});
    let (status, before) = s.post("/api/analyze", analyze.clone()).await;
    assert_eq!(status, StatusCode::OK, "{before}");
    // Searched: no table for it yet.
    assert!(before["depth"].as_u64().unwrap() > 1, "{before}");
    // (The deadline is generous: on a loaded machine each analysis takes
    // longer and the lookups come slower.)
    let until = Instant::now() + Duration::from_secs(60);
    while engine::dame::databases::probe(&pos).is_none() {
        assert!(Instant::now() < until, "the new Dame tables are not found");
        let (status, _) = s.post("/api/analyze", analyze.clone()).await;
        assert_eq!(status, StatusCode::OK);
    }
    let (_, after) = s.post("/api/analyze", analyze.clone()).await;
    // Played from the tables: the root's line is the tables' (a draw here).
    assert_eq!(after["depth"], 1, "{after}");
    assert!(
        after["lines"][0]["pv"].as_array().unwrap().len() > 1,
        "{after}"
    );
    assert_eq!(after["lines"][0]["score"], json!({"cp": 0}), "{after}");
    let expected = tablebase::dame::DameTablebase::new(dir)
        .value(&pos)
        .unwrap();
    let found = engine::muehle::databases::installed()
        .unwrap()
        .dame()
        .probe_value(&pos)
        .unwrap();
    assert_eq!(found, expected);
    assert_eq!(expected, tablebase::Value::Draw);
}
