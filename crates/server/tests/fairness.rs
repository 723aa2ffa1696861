//! Fair use of engine time (docs/API.md, "Engine time"): computer moves in
//! games before analyses, analyses limited per client, a bounded queue
//! answered `engine_busy` instead of an endless wait.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::common::*;
use serde_json::{Value, json};

/// The header a browser names itself with.
const CLIENT: &str = "X-Brett-Client";

/// An analysis that thinks its whole time (Mühle's placing is answered
/// from the opening book at once; Dame's start is searched).
fn analysis_body(time_ms: u64) -> Value {
    json!({"game": "dame", "time_ms": time_ms, "lines": 1})
}

/// An analysis of `time_ms` as browser `browser` (none: no browser id)
/// sent in the background; resolves to its status.
fn spawn_analysis(
    s: &TestServer,
    http: &reqwest::Client,
    browser: Option<&'static str>,
    time_ms: u64,
) -> tokio::task::JoinHandle<u16> {
    let (url, http) = (s.url("/api/analyze"), http.clone());
    tokio::spawn(async move {
        let mut req = http.post(url).json(&analysis_body(time_ms));
        if let Some(b) = browser {
            req = req.header(CLIENT, b);
        }
        req.send().await.unwrap().status().as_u16()
    })
}

/// An analysis as browser `browser`: the status, the body and the
/// `Retry-After` header.
async fn analyze_as(
    s: &TestServer,
    http: &reqwest::Client,
    browser: &str,
    time_ms: u64,
) -> (u16, Value, Option<u64>) {
    let r = http
        .post(s.url("/api/analyze"))
        .header(CLIENT, browser)
        .json(&analysis_body(time_ms))
        .send()
        .await
        .unwrap();
    let status = r.status().as_u16();
    let retry = r
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().parse().unwrap());
    let text = r.text().await.unwrap();
    let v = serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"));
    (status, v, retry)
}

/// `n` browsers asking for 10-second analyses in a loop (each on its own
/// connection) until `stop` is set, at most 120 s.
fn flood(s: &TestServer, n: usize, stop: Arc<AtomicBool>) -> Vec<tokio::task::JoinHandle<u32>> {
    (0..n)
        .map(|i| {
            let url = s.url("/api/analyze");
            let stop = stop.clone();
            tokio::spawn(async move {
                let http = reqwest::Client::new();
                let until = Instant::now() + Duration::from_secs(120);
                let mut answered = 0;
                while !stop.load(Ordering::Relaxed) && Instant::now() < until {
                    let r = http
                        .post(&url)
                        .header(CLIENT, format!("flood-{i}"))
                        .json(&analysis_body(10_000))
                        .send()
                        .await;
                    match r {
                        Ok(r) if r.status().is_success() => answered += 1,
                        // Refused (busy, a limit): ask again at once.
                        _ => tokio::time::sleep(Duration::from_millis(20)).await,
                    }
                }
                answered
            })
        })
        .collect()
}

/// Play the first legal move of the human (white) in game `id` and return
/// how long the computer's reply took to arrive.
async fn reply_time(s: &TestServer, id: i64, token: &str, limit: Duration) -> Duration {
    let st = s.state(id).await;
    let ply = st["ply"].as_u64().unwrap();
    let mv = st["legal_moves"][0].as_str().unwrap().to_string();
    let started = Instant::now();
    s.play_ok(id, token, ply, &mv).await;
    loop {
        let st = s.state(id).await;
        if st["ply"].as_u64().unwrap() >= ply + 2 || st["status"] == "over" {
            return started.elapsed();
        }
        assert!(
            started.elapsed() < limit,
            "the computer's reply took longer than {limit:?}: {st}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// issue #13: eight clients looping 10-second analyses made a level-1
/// reply wait 39 s. With one engine pool served first come first served
/// (the old semaphore) the reply waits for queued analyses (10 s each);
/// now computer moves go first.
#[tokio::test]
async fn computer_replies_come_quickly_while_clients_flood_analyses() {
    let s = TestServer::start_config(|c| {
        c.computer_movetime_ms = None;
        c.engine_slots = Some(2);
    })
    .await;
    let g = s
        .create(json!({"kind": "computer", "level": 1, "color": "white"}))
        .await;
    let id = id_of(&g);
    let white = token(&g, "white");
    let stop = Arc::new(AtomicBool::new(false));
    let flooders = flood(&s, 6, stop.clone());
    // Let the analyses fill the pool and the queue.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let limit = Duration::from_secs(5);
    for _ in 0..3 {
        let t = reply_time(&s, id, &white, limit).await;
        assert!(t < limit, "{t:?}");
    }
    stop.store(true, Ordering::Relaxed);
    for f in flooders {
        f.abort();
    }
}

/// With one engine slot an analysis holds it; a computer move that comes
/// meanwhile stops the analysis early, which answers what it found,
/// marked `preempted`.
#[tokio::test]
async fn a_computer_move_stops_an_analysis_when_no_slot_is_free() {
    let s = TestServer::start_config(|c| c.engine_slots = Some(1)).await;
    let http = reqwest::Client::new();
    let started = Instant::now();
    let analysis = {
        let (url, http) = (s.url("/api/analyze"), http.clone());
        tokio::spawn(async move {
            let r = http
                .post(url)
                .header(CLIENT, "analyst")
                .json(&analysis_body(10_000))
                .send()
                .await
                .unwrap();
            (r.status().as_u16(), r.json::<Value>().await.unwrap())
        })
    };
    tokio::time::sleep(Duration::from_millis(300)).await;
    // The computer (white) moves first.
    let g = s
        .create(json!({"kind": "computer", "level": 1, "color": "black"}))
        .await;
    let id = id_of(&g);
    s.wait_for(id, 5, |st| st["ply"] == 1).await;
    let (status, v) = analysis.await.unwrap();
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["preempted"], true, "{v}");
    assert!(v["time_ms"].as_u64().unwrap() < 10_000, "{v}");
    assert!(!v["lines"].as_array().unwrap().is_empty(), "{v}");
    assert!(started.elapsed() < Duration::from_secs(8));
    // An analysis left alone is not marked.
    let (status, v, _) = analyze_as(&s, &http, "analyst", 100).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["preempted"], false, "{v}");
}

/// One browser may have one analysis at a time (by default); a second is
/// answered `429 rate_limited` with `Retry-After`, another browser at the
/// same address is another client.
#[tokio::test]
async fn one_analysis_at_a_time_per_browser() {
    let s = TestServer::start_config(|c| c.engine_slots = Some(3)).await;
    let http = reqwest::Client::new();
    let first = spawn_analysis(&s, &http, Some("browser-a"), 3000);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (status, v, retry) = analyze_as(&s, &http, "browser-a", 100).await;
    assert_error(
        reqwest::StatusCode::from_u16(status).unwrap(),
        &v,
        429,
        "rate_limited",
    );
    let retry = retry.expect("a Retry-After header");
    assert!((1..=3).contains(&retry), "Retry-After {retry}");
    assert_eq!(v["retry_after"], retry, "{v}");
    let (status, v, _) = analyze_as(&s, &http, "browser-b", 100).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(first.await.unwrap(), 200);
    // Its analysis over, the browser may ask again.
    let (status, v, _) = analyze_as(&s, &http, "browser-a", 100).await;
    assert_eq!(status, 200, "{v}");
}

/// Requests without a browser id count as one client of their address.
#[tokio::test]
async fn requests_without_a_browser_id_share_their_address() {
    let s = TestServer::start_config(|c| c.engine_slots = Some(3)).await;
    let first = spawn_analysis(&s, &s.client, None, 3000);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (status, v) = s.post("/api/analyze", analysis_body(100)).await;
    assert_error(status, &v, 429, "rate_limited");
    assert_eq!(first.await.unwrap(), 200);
}

/// The address limits its browsers together (`analyses_per_ip`).
#[tokio::test]
async fn analyses_are_limited_per_address() {
    let s = TestServer::start_config(|c| {
        c.engine_slots = Some(4);
        c.analyses_per_ip = 2;
    })
    .await;
    let http = reqwest::Client::new();
    let running: Vec<_> = ["a", "b"]
        .into_iter()
        .map(|b| spawn_analysis(&s, &http, Some(b), 2000))
        .collect();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (status, v, retry) = analyze_as(&s, &http, "c", 100).await;
    assert_error(
        reqwest::StatusCode::from_u16(status).unwrap(),
        &v,
        429,
        "rate_limited",
    );
    assert!(v["error"].as_str().unwrap().contains("address"), "{v}");
    assert!(retry.is_some());
    for r in running {
        assert_eq!(r.await.unwrap(), 200);
    }
}

/// Engine time a minute per browser: over it, `429 rate_limited` with the
/// seconds until there is enough again.
#[tokio::test]
async fn engine_time_a_minute_is_limited_per_browser() {
    let s = TestServer::start_config(|c| {
        c.engine_slots = Some(2);
        c.analysis_seconds_per_minute = 1;
    })
    .await;
    let http = reqwest::Client::new();
    // 0.8 s of the 1 s a minute.
    let (status, v, _) = analyze_as(&s, &http, "thinker", 800).await;
    assert_eq!(status, 200, "{v}");
    let (status, v, retry) = analyze_as(&s, &http, "thinker", 800).await;
    assert_error(
        reqwest::StatusCode::from_u16(status).unwrap(),
        &v,
        429,
        "rate_limited",
    );
    assert!(v["error"].as_str().unwrap().contains("engine time"), "{v}");
    // About 0.6 s missing at 1 s a minute: some 36 s.
    let retry = retry.unwrap();
    assert!((20..=60).contains(&retry), "Retry-After {retry}");
    // Another browser has its own minute.
    let (status, v, _) = analyze_as(&s, &http, "other", 800).await;
    assert_eq!(status, 200, "{v}");
}

/// At most `analysis_queue` analyses wait; one more is answered `503
/// engine_busy` at once with its place and `Retry-After`.
#[tokio::test]
async fn a_full_queue_answers_engine_busy() {
    let s = TestServer::start_config(|c| {
        // One analysis runs at a time (one slot is kept for games).
        c.engine_slots = Some(2);
        c.analysis_queue = 1;
        c.analysis_wait = Duration::from_secs(10);
    })
    .await;
    let http = reqwest::Client::new();
    let spawn =
        |browser: &'static str, time_ms: u64| spawn_analysis(&s, &http, Some(browser), time_ms);
    let running = spawn("a", 2000);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let waiting = spawn("b", 100);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let asked = Instant::now();
    let (status, v, retry) = analyze_as(&s, &http, "c", 100).await;
    assert!(asked.elapsed() < Duration::from_secs(1), "answered at once");
    assert_error(
        reqwest::StatusCode::from_u16(status).unwrap(),
        &v,
        503,
        "engine_busy",
    );
    assert_eq!(v["queue_position"], 2, "{v}");
    let retry = retry.expect("a Retry-After header");
    assert_eq!(v["retry_after"], retry, "{v}");
    // About 1.6 s of the running one, then 0.1 s of the waiting one.
    assert!((1..=3).contains(&retry), "Retry-After {retry}");
    assert_eq!(running.await.unwrap(), 200);
    assert_eq!(waiting.await.unwrap(), 200);
}

/// An analysis that gets no slot within `analysis_wait` is answered `503
/// engine_busy` with its place in the queue — no endless wait.
#[tokio::test]
async fn an_analysis_waits_a_bounded_time() {
    let s = TestServer::start_config(|c| {
        c.engine_slots = Some(2);
        c.analysis_wait = Duration::from_millis(500);
    })
    .await;
    let http = reqwest::Client::new();
    let running = spawn_analysis(&s, &http, Some("a"), 4000);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let asked = Instant::now();
    let (status, v, retry) = analyze_as(&s, &http, "b", 1000).await;
    let waited = asked.elapsed();
    assert_error(
        reqwest::StatusCode::from_u16(status).unwrap(),
        &v,
        503,
        "engine_busy",
    );
    assert_eq!(v["queue_position"], 1, "{v}");
    assert!(
        waited >= Duration::from_millis(450) && waited < Duration::from_secs(3),
        "{waited:?}"
    );
    let retry = retry.unwrap();
    assert!((1..=4).contains(&retry), "Retry-After {retry}");
    assert_eq!(running.await.unwrap(), 200);
    // The pool is free again.
    let (status, v, _) = analyze_as(&s, &http, "b", 100).await;
    assert_eq!(status, 200, "{v}");
}
