//! Benchmark: the computer's reply time in a level-1 game while other
//! clients flood the engine with long analyses (issue #13: eight clients
//! looping 10-second analyses made a level-1 reply wait 39 s).
//!
//! ```sh
//! cargo run --profile ci -p server --example fairness -- [REPLIES] [CLIENTS] [ANALYSIS_MS] [OPTIONS]
//! ```
//!
//! OPTIONS change the server's analysis limits: `--analysis-slots=N`,
//! `--analyses-per-ip=N`, `--analyses-per-client=N`, `--analysis-queue=N`
//! (e.g. `--analysis-slots=2 --analyses-per-ip=0` on 2 cores: analyses may
//! take every slot, so each computer move stops one early).
//!
//! The server runs in this process with its defaults (engine slots: one
//! per core; the analysis limits of docs/API.md, "Engine time") on a fresh
//! SQLite file. First REPLIES/2 replies (default 50) are timed with the
//! engine idle, then CLIENTS browsers (default 8, each with its own
//! `X-Brett-Client` id and connection) ask for ANALYSIS_MS analyses (default
//! 10000, Dame's start, which is searched the whole time) in a loop — a
//! refused one is asked again after 50 ms, ignoring `Retry-After` — while
//! REPLIES replies are timed: from sending the player's move until the
//! state with the computer's reply arrives on the game's WebSocket. The
//! player thinks 0–0.5 s between moves; a finished game is followed by a
//! new one. Prints p50/p99/max of both runs and what the flood got.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

#[derive(Default)]
struct Flood {
    answered: AtomicU64,
    preempted: AtomicU64,
    busy: AtomicU64,
    limited: AtomicU64,
    engine_ms: AtomicU64,
}

fn main() -> anyhow::Result<()> {
    let (options, args): (Vec<String>, Vec<String>) =
        std::env::args().skip(1).partition(|a| a.starts_with("--"));
    let num = |i: usize, default: u64| -> u64 {
        args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default)
    };
    let (replies, clients, analysis_ms) = (num(0, 50) as usize, num(1, 8) as usize, num(2, 10_000));
    let mut config = server::ServerConfig {
        listen: "127.0.0.1:0".parse()?,
        games_per_minute: 0,
        ..server::ServerConfig::default()
    };
    for o in &options {
        let (key, value) = o
            .split_once('=')
            .ok_or_else(|| anyhow::anyhow!("options are --key=value: {o}"))?;
        let n: usize = value.parse()?;
        match key {
            "--analysis-slots" => config.analysis_slots = Some(n),
            "--analyses-per-ip" => config.analyses_per_ip = n,
            "--analyses-per-client" => config.analyses_per_client = n,
            "--analysis-queue" => config.analysis_queue = n,
            _ => anyhow::bail!("unknown option {key}"),
        }
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(bench(config, replies, clients, analysis_ms))
}

async fn bench(
    mut config: server::ServerConfig,
    replies: usize,
    clients: usize,
    analysis_ms: u64,
) -> anyhow::Result<()> {
    let dir = tempfile::tempdir()?;
    let db = dir.path().join("bench.db");
    config.database_url = Some(format!("sqlite://{}", db.display()));
    let slots = std::thread::available_parallelism().map_or(2, |n| n.get());
    println!(
        "server: {slots} engine slot(s) (one per core), {} analysis slot(s); per browser {} analysis at once \
         and {} s a minute, per address {}; queue {}, wait {:?}",
        server::fair::AnalysisLimits {
            analysis_slots: config.analysis_slots,
            ..Default::default()
        }
        .analysis_slots(slots),
        config.analyses_per_client,
        config.analysis_seconds_per_minute,
        config.analyses_per_ip,
        config.analysis_queue,
        config.analysis_wait,
    );
    let server = server::start(config).await?;
    let base = format!("http://{}", server.addr);
    let http = reqwest::Client::new();
    let mut rng = fastrand::Rng::with_seed(13);

    let idle = (replies / 2).max(1);
    let quiet = time_replies(&http, &base, idle, &mut rng).await?;
    report("engine idle", &quiet);

    let stop = Arc::new(AtomicBool::new(false));
    let flood = Arc::new(Flood::default());
    let tasks: Vec<_> = (0..clients)
        .map(|i| {
            let (url, stop, flood) = (format!("{base}/api/analyze"), stop.clone(), flood.clone());
            tokio::spawn(async move {
                let http = reqwest::Client::new();
                let body = json!({"game": "dame", "time_ms": analysis_ms, "lines": 1});
                while !stop.load(Ordering::Relaxed) {
                    let r = http
                        .post(&url)
                        .header("X-Brett-Client", format!("flood-{i}"))
                        .json(&body)
                        .send()
                        .await;
                    let Ok(r) = r else {
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    };
                    let status = r.status().as_u16();
                    let v: Value = r.json().await.unwrap_or(Value::Null);
                    match status {
                        200 => {
                            flood.answered.fetch_add(1, Ordering::Relaxed);
                            if v["preempted"] == true {
                                flood.preempted.fetch_add(1, Ordering::Relaxed);
                            }
                            let ms = v["time_ms"].as_u64().unwrap_or(0);
                            flood.engine_ms.fetch_add(ms, Ordering::Relaxed);
                            continue;
                        }
                        429 => flood.limited.fetch_add(1, Ordering::Relaxed),
                        _ => flood.busy.fetch_add(1, Ordering::Relaxed),
                    };
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            })
        })
        .collect();
    // Let the analyses fill the engine and its queue.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let started = Instant::now();
    let loaded = time_replies(&http, &base, replies, &mut rng).await?;
    let secs = started.elapsed().as_secs_f64();
    stop.store(true, Ordering::Relaxed);
    for t in tasks {
        t.abort();
    }
    report(
        &format!("{clients} clients flooding {analysis_ms} ms analyses"),
        &loaded,
    );
    println!(
        "flood over {secs:.1} s: {} analyses answered ({} stopped early for a computer move, \
         {:.1} s of engine time), {} answered 503 engine_busy, {} answered 429 rate_limited",
        flood.answered.load(Ordering::Relaxed),
        flood.preempted.load(Ordering::Relaxed),
        flood.engine_ms.load(Ordering::Relaxed) as f64 / 1000.0,
        flood.busy.load(Ordering::Relaxed),
        flood.limited.load(Ordering::Relaxed),
    );
    server.stop().await
}

fn report(what: &str, times: &[Duration]) {
    let mut ms: Vec<f64> = times.iter().map(|t| t.as_secs_f64() * 1000.0).collect();
    ms.sort_by(f64::total_cmp);
    // Nearest rank.
    let pct = |p: f64| ms[((p / 100.0 * ms.len() as f64).ceil() as usize).clamp(1, ms.len()) - 1];
    println!(
        "level-1 reply, {what}: {} replies, p50 {:.0} ms, p99 {:.0} ms, max {:.0} ms",
        ms.len(),
        pct(50.0),
        pct(99.0),
        ms[ms.len() - 1]
    );
}

/// A level-1 game with the human as white: its id, white's token and its
/// socket (past the first state).
async fn new_game(http: &reqwest::Client, base: &str) -> anyhow::Result<(i64, String, Ws)> {
    let g: Value = http
        .post(format!("{base}/api/games"))
        .json(&json!({"kind": "computer", "level": 1, "color": "white"}))
        .send()
        .await?
        .json()
        .await?;
    let id = g["id"]
        .as_i64()
        .ok_or_else(|| anyhow::anyhow!("no game: {g}"))?;
    let token = g["tokens"]["white"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let url = format!("{}/api/games/{id}/ws", base.replace("http://", "ws://"));
    let (mut ws, _) = tokio_tungstenite::connect_async(url).await?;
    next_state(&mut ws).await?;
    Ok((id, token, ws))
}

async fn next_state(ws: &mut Ws) -> anyhow::Result<Value> {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(120), ws.next())
            .await?
            .ok_or_else(|| anyhow::anyhow!("the socket closed"))??;
        if let Message::Text(t) = msg {
            let v: Value = serde_json::from_str(t.as_str())?;
            if v["type"] == "state" {
                return Ok(v["state"].clone());
            }
        }
    }
}

/// Time `n` computer replies: random legal moves of the human, 0–0.5 s of
/// thinking between them.
async fn time_replies(
    http: &reqwest::Client,
    base: &str,
    n: usize,
    rng: &mut fastrand::Rng,
) -> anyhow::Result<Vec<Duration>> {
    let mut times = Vec::with_capacity(n);
    let (mut id, mut token, mut ws) = new_game(http, base).await?;
    let mut state: Value = http
        .get(format!("{base}/api/games/{id}"))
        .send()
        .await?
        .json()
        .await?;
    while times.len() < n {
        let legal = state["legal_moves"].as_array().cloned().unwrap_or_default();
        if state["status"] != "ongoing" || legal.is_empty() {
            (id, token, ws) = new_game(http, base).await?;
            state = http
                .get(format!("{base}/api/games/{id}"))
                .send()
                .await?
                .json()
                .await?;
            continue;
        }
        tokio::time::sleep(Duration::from_millis(rng.u64(0..500))).await;
        let ply = state["ply"].as_u64().unwrap_or(0);
        let mv = legal[rng.usize(..legal.len())].as_str().unwrap_or_default();
        let sent = Instant::now();
        let r = http
            .post(format!("{base}/api/games/{id}/moves"))
            .json(&json!({"move": mv, "token": token, "ply": ply}))
            .send()
            .await?;
        anyhow::ensure!(r.status().is_success(), "move {mv}: {}", r.text().await?);
        loop {
            state = next_state(&mut ws).await?;
            let now_ply = state["ply"].as_u64().unwrap_or(0);
            if state["status"] != "ongoing" && now_ply == ply + 1 {
                // The player's move ended the game: no reply to time.
                break;
            }
            if now_ply >= ply + 2 {
                times.push(sent.elapsed());
                break;
            }
        }
    }
    Ok(times)
}
