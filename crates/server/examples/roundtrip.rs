//! Benchmark: a move's round trip on loopback under many concurrent online
//! games, and the server's memory with many open game sockets.
//!
//! ```sh
//! cargo run --release -p server --example roundtrip -- [GAMES] [PLIES] [SOCKETS]
//! ```
//!
//! The server runs in a child process (this program started again with
//! `--child DB`) on a fresh SQLite file, so its memory (VmRSS of
//! /proc/PID/status, the child's own /proc/self/status) is the server's
//! alone. Then GAMES online games (default 100) play PLIES moves each
//! (default 40), all at once and as fast as they can: for each move the time
//! from submitting the POST until the state arrived at the opponent's
//! WebSocket is measured (and, separately, until the POST was answered).
//! Finally SOCKETS sockets (default 1000), each on a game of its own, stay
//! open while the server's memory is read.

use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("--child") {
        return child(&args[2]);
    }
    let num = |i: usize, default: usize| -> usize {
        args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default)
    };
    let (games, plies, sockets) = (num(1, 100), num(2, 40), num(3, 1000));
    let dir = tempfile::tempdir()?;
    let db = dir.path().join("bench.db");
    let mut child = Command::new(std::env::current_exe()?)
        .arg("--child")
        .arg(&db)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()?;
    let mut out = BufReader::new(child.stdout.take().expect("piped"));
    let mut line = String::new();
    out.read_line(&mut line)?;
    let addr = line
        .trim()
        .strip_prefix("listening ")
        .ok_or_else(|| anyhow::anyhow!("the child said '{line}'"))?
        .to_string();
    let pid = child.id();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let result = runtime.block_on(bench(&addr, pid, games, plies, sockets));
    drop(child.stdin.take()); // the child stops when its stdin closes
    let mut rest = String::new();
    let _ = out.read_to_string(&mut rest);
    child.wait()?;
    result
}

/// The server process: serve until stdin closes.
fn child(db: &str) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let server = server::start(server::ServerConfig {
            listen: "127.0.0.1:0".parse()?,
            database_url: Some(format!("sqlite://{db}")),
            computer_movetime_ms: Some(50),
            engine_slots: Some(1),
            // The benchmark opens 1000 game sockets and creates games fast.
            max_connections: 2000,
            games_per_minute: 0,
            ..server::ServerConfig::default()
        })
        .await?;
        println!("listening {}", server.addr);
        tokio::task::spawn_blocking(|| {
            let mut sink = Vec::new();
            let _ = std::io::stdin().read_to_end(&mut sink);
        })
        .await?;
        server.stop().await
    })
}

fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}

/// A legal game of up to `plies` moves (seeded random, stops early if the
/// game ends).
fn script(seed: u64, plies: usize) -> Vec<String> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut game = muehle::Game::new(muehle::RuleSet::STANDARD);
    while !game.is_over() && game.ply() < plies {
        let moves = game.legal_moves();
        game.play(moves[rng.usize(..moves.len())]).expect("legal");
    }
    game.moves().iter().map(|m| m.to_string()).collect()
}

async fn post(client: &reqwest::Client, url: String, body: Value) -> anyhow::Result<Value> {
    let r = client.post(url).json(&body).send().await?;
    let status = r.status();
    let v: Value = r.json().await?;
    anyhow::ensure!(status.is_success(), "{status}: {v}");
    Ok(v)
}

async fn connect(base_ws: &str, id: i64) -> anyhow::Result<Ws> {
    let (ws, _) = tokio_tungstenite::connect_async(format!("{base_ws}/api/games/{id}/ws")).await?;
    Ok(ws)
}

/// Read states until one has `ply`.
async fn until_ply(ws: &mut Ws, ply: u64) -> anyhow::Result<()> {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(30), ws.next())
            .await?
            .ok_or_else(|| anyhow::anyhow!("socket closed"))??;
        if let Message::Text(t) = msg {
            let v: Value = serde_json::from_str(t.as_str())?;
            if v["state"]["ply"].as_u64() == Some(ply) {
                return Ok(());
            }
        }
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

type Setup = (i64, [String; 2], [Ws; 2], Vec<String>);

/// `games` online games, both seats joined, both sockets open.
async fn setup_games(
    client: &reqwest::Client,
    base: &str,
    base_ws: &str,
    games: usize,
    plies: usize,
    seed: u64,
) -> anyhow::Result<Vec<Setup>> {
    let mut setups = Vec::new();
    for g in 0..games {
        let v = post(
            client,
            format!("{base}/api/games"),
            json!({"kind": "online", "color": "white", "name": format!("host {g}")}),
        )
        .await?;
        let id = v["id"].as_i64().unwrap_or(0);
        let host = v["tokens"]["white"].as_str().unwrap_or("").to_string();
        let guest = v["invite"]["token"].as_str().unwrap_or("").to_string();
        post(
            client,
            format!("{base}/api/games/{id}/join"),
            json!({"token": guest, "name": format!("guest {g}")}),
        )
        .await?;
        let mut host_ws = connect(base_ws, id).await?;
        let mut guest_ws = connect(base_ws, id).await?;
        until_ply(&mut host_ws, 0).await?;
        until_ply(&mut guest_ws, 0).await?;
        setups.push((
            id,
            [host, guest],
            [host_ws, guest_ws],
            script(seed + g as u64, plies),
        ));
    }
    Ok(setups)
}

/// All games play at once; each waits `pace` between its moves (zero: as
/// fast as it can). Prints the figures.
async fn play_all(
    client: &reqwest::Client,
    base: &str,
    setups: Vec<Setup>,
    pace: Duration,
) -> anyhow::Result<()> {
    let games = setups.len();
    let start = Instant::now();
    let mut tasks = Vec::new();
    for (g, (id, tokens, mut sockets, moves)) in setups.into_iter().enumerate() {
        let client = client.clone();
        let base = base.to_string();
        tasks.push(tokio::spawn(async move {
            // Spread the paced games over the interval.
            if !pace.is_zero() {
                tokio::time::sleep(pace.mul_f64(g as f64 / games as f64)).await;
            }
            let mut samples = Vec::with_capacity(moves.len());
            for (ply, mv) in moves.iter().enumerate() {
                let mover = ply % 2;
                let t0 = Instant::now();
                post(
                    &client,
                    format!("{base}/api/games/{id}/moves"),
                    json!({"move": mv, "token": tokens[mover], "ply": ply}),
                )
                .await?;
                let acked = t0.elapsed();
                until_ply(&mut sockets[1 - mover], ply as u64 + 1).await?;
                samples.push((acked, t0.elapsed()));
                if !pace.is_zero() {
                    tokio::time::sleep(pace.saturating_sub(t0.elapsed())).await;
                }
            }
            anyhow::Ok(samples)
        }));
    }
    let mut acks = Vec::new();
    let mut trips = Vec::new();
    for t in tasks {
        for (a, r) in t.await?? {
            acks.push(a);
            trips.push(r);
        }
    }
    let elapsed = start.elapsed();
    acks.sort();
    trips.sort();
    let how = if pace.is_zero() {
        "each as fast as it can".to_string()
    } else {
        format!("each one move per {} ms", pace.as_millis())
    };
    println!(
        "{games} concurrent games, {how}: {} moves in {:.2} s ({:.0} moves/s)",
        trips.len(),
        elapsed.as_secs_f64(),
        trips.len() as f64 / elapsed.as_secs_f64()
    );
    println!(
        "  round trip POST -> stored -> opponent's socket: median {}, p99 {}, max {}",
        ms(percentile(&trips, 0.5)),
        ms(percentile(&trips, 0.99)),
        ms(trips.last().copied().unwrap_or_default())
    );
    println!(
        "  POST answered:                                  median {}, p99 {}",
        ms(percentile(&acks, 0.5)),
        ms(percentile(&acks, 0.99))
    );
    Ok(())
}

async fn bench(
    addr: &str,
    pid: u32,
    games: usize,
    plies: usize,
    sockets: usize,
) -> anyhow::Result<()> {
    let base = format!("http://{addr}");
    let base_ws = format!("ws://{addr}");
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(256)
        .build()?;
    println!("server pid {pid}, RSS at start {} KiB", rss_kib(pid));

    // Paced like quick players (a move every 250 ms per game), then flat out.
    let setups = setup_games(&client, &base, &base_ws, games, plies, 0).await?;
    println!(
        "{games} online games ready ({} sockets), server RSS {} KiB",
        2 * games,
        rss_kib(pid)
    );
    play_all(&client, &base, setups, Duration::from_millis(250)).await?;
    let setups = setup_games(&client, &base, &base_ws, games, plies, 10_000).await?;
    play_all(&client, &base, setups, Duration::ZERO).await?;
    tokio::time::sleep(Duration::from_millis(300)).await;

    // Memory with many open sockets, each on its own game.
    let before = rss_kib(pid);
    let mut open = Vec::with_capacity(sockets);
    for _ in 0..sockets {
        let v = post(
            &client,
            format!("{base}/api/games"),
            json!({"kind": "local"}),
        )
        .await?;
        let mut ws = connect(&base_ws, v["id"].as_i64().unwrap_or(0)).await?;
        until_ply(&mut ws, 0).await?;
        open.push(ws);
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let after = rss_kib(pid);
    println!(
        "{sockets} open game sockets (one game each): server RSS {after} KiB ({:.1} MiB); {before} KiB before, {:.1} KiB per socket",
        after as f64 / 1024.0,
        after.saturating_sub(before) as f64 / sockets.max(1) as f64
    );
    drop(open);
    Ok(())
}
