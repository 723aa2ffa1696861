//! Load benchmark of the server: a move's round trip under many concurrent
//! online games, the saturation throughput, memory per open socket and the
//! connection limit, and `kill -9` of instances under load.
//!
//! ```sh
//! cargo run --release -p server --example load -- roundtrip [--games 1000 --rate 200]
//! cargo run --release -p server --example load -- roundtrip --database postgres://… [--instances 2]
//! cargo run --release -p server --example load -- sockets [--sockets 10000]
//! cargo run --release -p server --example load -- kill --database postgres://… [--instances 2]
//! cargo run --release -p server --example load -- clocks [--games 1000 --idle 10000]
//! cargo run --release -p server --example load -- lobby [--seeks 500 --sockets 1000]
//! ```
//!
//! Each server instance runs in a child process (this program started
//! again with `child …`), so its memory (VmRSS) is the server's alone and
//! it can be killed with SIGKILL. `--database sqlite` (the default) uses a
//! fresh SQLite file in a temporary folder; a `postgres://…` URL names a
//! server on which a fresh database is created for the run (and dropped
//! after it).
//!
//! - `roundtrip`: GAMES online games, both seats joined and both sockets
//!   open, play at a paced total of RATE moves a second (each game one move
//!   every GAMES/RATE seconds, the games spread over that interval). For
//!   each move the time from submitting the POST until the state arrived at
//!   the opponent's socket is measured: submitted → stored → pushed. With
//!   several instances each game's two seats are on different instances,
//!   so the state crosses LISTEN/NOTIFY. Then the same number of games
//!   play flat out: the saturation throughput.
//! - `sockets`: SOCKETS WebSockets stay open (spread over GAMES games) while
//!   the server's memory is read; then connections beyond the server's
//!   connection limit are opened and must be refused with `503
//!   too_many_connections`.
//! - `kill`: INSTANCES instances on one PostgreSQL database; GAMES games
//!   move at a paced RATE through any instance while one instance after the
//!   other is killed with SIGKILL (and started again). A client whose
//!   request failed reads the game back and goes on from the stored ply.
//!   At the end every acknowledged move is looked up in the database: the
//!   number lost must be 0.
//! - `clocks`: GAMES local games on a 0.25+0 clock (15 s), both sockets of
//!   each open, both first moves made, so every game's flag falls 15 s
//!   after its second move while the others run: the flag latency, from
//!   the deadline to the end of the game at each socket, p50 and p99. The
//!   deadline is taken as the moment the second move was sent plus White's
//!   time in its answer: the server had the move later, so the figures are
//!   upper bounds. Then IDLE games on a 30+0
//!   clock are started and left running: the server's memory and its CPU
//!   time over IDLE_SECONDS with nothing but those clocks.
//! - `lobby`: SEEKS open seeks (correspondence, by SEEKS/5 accounts) and
//!   SOCKETS lobby sockets (guests', or with `--logged-in` the seekers'
//!   logins' in turn), each of which has read the lobby;
//!   the server's memory before and after the sockets opened gives the
//!   memory per lobby socket. Then POSTS seeks are posted one after the
//!   other (each cancelled after): the lobby update latency, from posting
//!   a seek until every lobby socket has it, p50 and p99 (and the same for
//!   single sockets).

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use clap::{Parser, Subcommand};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::sync::RwLock;
use tokio_tungstenite::tungstenite::Message;

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

#[derive(Parser)]
#[command(about = "Load benchmark of brett's server")]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Move round trip at many concurrent games, paced, then flat out.
    Roundtrip {
        /// `sqlite` (a fresh file) or `postgres://USER@HOST:PORT/DB` (a
        /// fresh database is made on that server).
        #[arg(long, default_value = "sqlite")]
        database: String,
        /// Server instances (more than one needs PostgreSQL).
        #[arg(long, default_value_t = 1)]
        instances: usize,
        /// Concurrent online games.
        #[arg(long, default_value_t = 1000)]
        games: usize,
        /// Moves a second over all games in the paced run.
        #[arg(long, default_value_t = 200.0)]
        rate: f64,
        /// Moves per game in the paced run.
        #[arg(long, default_value_t = 30)]
        plies: usize,
        /// Moves per game in the flat-out run (0: no flat-out run).
        #[arg(long, default_value_t = 20)]
        saturation_plies: usize,
    },
    /// Memory per open socket, and refusals beyond the connection limit.
    Sockets {
        #[arg(long, default_value = "sqlite")]
        database: String,
        /// WebSockets kept open.
        #[arg(long, default_value_t = 10_000)]
        sockets: usize,
        /// Games the sockets are spread over.
        #[arg(long, default_value_t = 1000)]
        games: usize,
        /// Connections opened beyond the server's limit (which is set to the
        /// sockets plus a few for the HTTP client).
        #[arg(long, default_value_t = 500)]
        over: usize,
    },
    /// `kill -9` of instances under load; every acknowledged move must be
    /// stored.
    Kill {
        /// `postgres://USER@HOST:PORT/DB` (a fresh database is made there).
        #[arg(long)]
        database: String,
        #[arg(long, default_value_t = 2)]
        instances: usize,
        /// Concurrent games.
        #[arg(long, default_value_t = 200)]
        games: usize,
        /// Moves a second over all games.
        #[arg(long, default_value_t = 200.0)]
        rate: f64,
        /// Length of the run in seconds.
        #[arg(long, default_value_t = 60)]
        seconds: u64,
        /// Seconds between kills (instances are killed in turn and started
        /// again a second later).
        #[arg(long, default_value_t = 8)]
        kill_every: u64,
    },
    /// Flag latency with many timed games; memory and idle CPU of many
    /// running clocks.
    Clocks {
        #[arg(long, default_value = "sqlite")]
        database: String,
        /// Games whose flags fall (two sockets each).
        #[arg(long, default_value_t = 1000)]
        games: usize,
        /// Running clocks left idle.
        #[arg(long, default_value_t = 10_000)]
        idle: usize,
        /// How long the idle clocks are watched.
        #[arg(long, default_value_t = 30)]
        idle_seconds: u64,
    },
    /// Lobby update latency with many open seeks and lobby sockets;
    /// memory per lobby socket.
    Lobby {
        #[arg(long, default_value = "sqlite")]
        database: String,
        /// Open seeks in the lobby.
        #[arg(long, default_value_t = 500)]
        seeks: usize,
        /// Lobby sockets.
        #[arg(long, default_value_t = 1000)]
        sockets: usize,
        /// Seeks posted and timed.
        #[arg(long, default_value_t = 100)]
        posts: usize,
        /// The lobby sockets are opened with the cookies of logged-in
        /// accounts (the seekers', in turn), not as guests.
        #[arg(long)]
        logged_in: bool,
    },
    /// One server instance (started by the benchmark).
    #[command(hide = true)]
    Child {
        #[arg(long)]
        database: String,
        #[arg(long)]
        listen: std::net::SocketAddr,
        #[arg(long)]
        max_connections: usize,
        #[arg(long, default_value_t = 1.0)]
        connection_wait: f64,
    },
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    if let Cmd::Child {
        database,
        listen,
        max_connections,
        connection_wait,
    } = &cli.command
    {
        return child(database, *listen, *max_connections, *connection_wait);
    }
    raise_open_file_limit();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        match cli.command {
            Cmd::Roundtrip {
                database,
                instances,
                games,
                rate,
                plies,
                saturation_plies,
            } => {
                let db = Database::fresh(&database).await?;
                anyhow::ensure!(
                    instances == 1 || db.is_postgres(),
                    "several instances need PostgreSQL"
                );
                let mut cluster = Cluster::start(&db, instances, 4 * games + 10_000, 1.0)?;
                let r = roundtrip(&cluster, games, rate, plies, saturation_plies).await;
                cluster.stop();
                db.drop_it().await;
                r
            }
            Cmd::Sockets {
                database,
                sockets,
                games,
                over,
            } => {
                let db = Database::fresh(&database).await?;
                let mut cluster = Cluster::start(&db, 1, sockets + 64, 1.0)?;
                let r = idle_sockets(&cluster, sockets, games, over).await;
                cluster.stop();
                db.drop_it().await;
                r
            }
            Cmd::Kill {
                database,
                instances,
                games,
                rate,
                seconds,
                kill_every,
            } => {
                let db = Database::fresh(&database).await?;
                anyhow::ensure!(db.is_postgres(), "kill needs a postgres:// database");
                anyhow::ensure!(instances >= 2, "kill needs two instances at least");
                let cluster = Cluster::start(&db, instances, 4 * games + 1000, 1.0)?;
                let cluster = Arc::new(RwLock::new(cluster));
                let r = kill_under_load(cluster.clone(), games, rate, seconds, kill_every).await;
                cluster.write().await.stop();
                db.drop_it().await;
                r
            }
            Cmd::Clocks {
                database,
                games,
                idle,
                idle_seconds,
            } => {
                let db = Database::fresh(&database).await?;
                let mut cluster = Cluster::start(&db, 1, 2 * games + 600, 5.0)?;
                let r = clocks(&cluster, games, idle, idle_seconds).await;
                cluster.stop();
                db.drop_it().await;
                r
            }
            Cmd::Lobby {
                database,
                seeks,
                sockets,
                posts,
                logged_in,
            } => {
                let db = Database::fresh(&database).await?;
                let mut cluster = Cluster::start(&db, 1, sockets + 600, 5.0)?;
                let r = lobby(&cluster, seeks, sockets, posts, logged_in).await;
                cluster.stop();
                db.drop_it().await;
                r
            }
            Cmd::Child { .. } => unreachable!(),
        }
    })
}

/// The benchmark opens many sockets: raise the soft open-file limit.
fn raise_open_file_limit() {
    // SAFETY: getrlimit/setrlimit only read and write the struct given.
    unsafe {
        let mut lim = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) == 0 && lim.rlim_cur < lim.rlim_max {
            lim.rlim_cur = lim.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &lim);
        }
    }
}

/// A server instance: serve until stdin closes.
fn child(
    database: &str,
    listen: std::net::SocketAddr,
    max_connections: usize,
    connection_wait: f64,
) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let server = server::start(server::ServerConfig {
            listen,
            database_url: Some(database.to_string()),
            computer_movetime_ms: Some(50),
            engine_slots: Some(1),
            max_connections,
            connection_wait: Duration::from_secs_f64(connection_wait),
            games_per_minute: 0,
            wrong_tokens_per_minute: 0,
            logins_per_minute: 0,
            logins_per_name_per_minute: 0,
            // Every simulated player comes from 127.0.0.1.
            max_connections_per_ip: 0,
            max_websockets_per_ip: 0,
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

/// The database of one run.
struct Database {
    /// The URL the instances get.
    url: String,
    /// PostgreSQL: the server's URL (to drop the database) and its name.
    postgres: Option<(String, String)>,
    _dir: Option<tempfile::TempDir>,
}

impl Database {
    async fn fresh(spec: &str) -> anyhow::Result<Database> {
        if spec == "sqlite" {
            let dir = tempfile::tempdir()?;
            let url = format!("sqlite://{}", dir.path().join("load.db").display());
            return Ok(Database {
                url,
                postgres: None,
                _dir: Some(dir),
            });
        }
        if !(spec.starts_with("postgres://") || spec.starts_with("postgresql://")) {
            bail!("--database is `sqlite` or a postgres:// URL, not '{spec}'");
        }
        use sqlx::Connection;
        let name = format!("brett_load_{}", std::process::id());
        let mut conn = sqlx::PgConnection::connect(spec)
            .await
            .with_context(|| format!("connecting to {spec}"))?;
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "DROP DATABASE IF EXISTS {name}"
        )))
        .execute(&mut conn)
        .await?;
        sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
            .execute(&mut conn)
            .await?;
        conn.close().await?;
        Ok(Database {
            url: with_database(spec, &name),
            postgres: Some((spec.to_string(), name)),
            _dir: None,
        })
    }

    fn is_postgres(&self) -> bool {
        self.postgres.is_some()
    }

    async fn drop_it(&self) {
        use sqlx::Connection;
        if let Some((server, name)) = &self.postgres
            && let Ok(mut conn) = sqlx::PgConnection::connect(server).await
        {
            let _ = sqlx::query(sqlx::AssertSqlSafe(format!(
                "DROP DATABASE IF EXISTS {name} WITH (FORCE)"
            )))
            .execute(&mut conn)
            .await;
            let _ = conn.close().await;
        }
    }
}

/// `url` with its database name replaced.
fn with_database(url: &str, name: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((b, q)) => (b, format!("?{q}")),
        None => (url, String::new()),
    };
    let scheme_end = base.find("://").map_or(0, |i| i + 3);
    let host_part = match base[scheme_end..].find('/') {
        Some(i) => &base[..scheme_end + i],
        None => base,
    };
    format!("{host_part}/{name}{query}")
}

/// Server instances in child processes, each on a fixed port (a killed
/// instance is started again on the same one).
struct Cluster {
    url: String,
    max_connections: usize,
    connection_wait: f64,
    addrs: Vec<std::net::SocketAddr>,
    children: Vec<Option<Child>>,
}

impl Cluster {
    fn start(
        db: &Database,
        instances: usize,
        max_connections: usize,
        connection_wait: f64,
    ) -> anyhow::Result<Cluster> {
        let mut cluster = Cluster {
            url: db.url.clone(),
            max_connections,
            connection_wait,
            addrs: Vec::new(),
            children: Vec::new(),
        };
        for _ in 0..instances {
            let port = std::net::TcpListener::bind("127.0.0.1:0")?
                .local_addr()?
                .port();
            cluster.addrs.push(([127, 0, 0, 1], port).into());
            cluster.children.push(None);
        }
        // One after the other: the first one runs the migrations.
        for i in 0..instances {
            cluster.launch(i)?;
        }
        Ok(cluster)
    }

    fn launch(&mut self, i: usize) -> anyhow::Result<()> {
        let mut child = Command::new(std::env::current_exe()?)
            .arg("child")
            .arg("--database")
            .arg(&self.url)
            .arg("--listen")
            .arg(self.addrs[i].to_string())
            .arg("--max-connections")
            .arg(self.max_connections.to_string())
            .arg("--connection-wait")
            .arg(self.connection_wait.to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()?;
        let mut out = BufReader::new(child.stdout.take().expect("piped"));
        let mut line = String::new();
        out.read_line(&mut line)?;
        anyhow::ensure!(
            line.starts_with("listening "),
            "instance {i} said '{}'",
            line.trim()
        );
        // Keep reading (and dropping) what it prints.
        std::thread::spawn(move || {
            let mut sink = String::new();
            let _ = out.read_to_string(&mut sink);
        });
        self.children[i] = Some(child);
        Ok(())
    }

    fn pid(&self, i: usize) -> u32 {
        self.children[i].as_ref().map_or(0, Child::id)
    }

    fn base(&self, i: usize) -> String {
        format!("http://{}", self.addrs[i])
    }

    fn base_ws(&self, i: usize) -> String {
        format!("ws://{}", self.addrs[i])
    }

    /// SIGKILL.
    fn kill(&mut self, i: usize) {
        if let Some(mut c) = self.children[i].take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    fn stop(&mut self) {
        for c in self.children.iter_mut() {
            if let Some(mut c) = c.take() {
                drop(c.stdin.take()); // the instance stops when stdin closes
                let _ = c.wait();
            }
        }
    }
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
        let msg = tokio::time::timeout(Duration::from_secs(60), ws.next())
            .await
            .context("no state for 60 s")?
            .ok_or_else(|| anyhow::anyhow!("socket closed"))??;
        match msg {
            Message::Text(t) => {
                let v: Value = serde_json::from_str(t.as_str())?;
                if v["state"]["ply"].as_u64() == Some(ply) {
                    return Ok(());
                }
            }
            Message::Ping(p) => ws.send(Message::Pong(p)).await?,
            _ => {}
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

/// One online game ready to play: id, the seats' tokens, each seat's
/// instance and socket, and its moves.
struct Setup {
    id: i64,
    tokens: [String; 2],
    instance: [usize; 2],
    sockets: [Ws; 2],
    moves: Vec<String>,
}

/// `games` online games, both seats joined, both sockets open; seat s of
/// game g is on instance (g + s) mod instances.
async fn setup_games(
    cluster: &Cluster,
    client: &reqwest::Client,
    games: usize,
    plies: usize,
    seed: u64,
) -> anyhow::Result<Vec<Setup>> {
    let n = cluster.addrs.len();
    let made = futures_util::stream::iter(0..games)
        .map(|g| {
            let instance = [g % n, (g + 1) % n];
            let (base0, base1) = (cluster.base(instance[0]), cluster.base(instance[1]));
            let (ws0, ws1) = (cluster.base_ws(instance[0]), cluster.base_ws(instance[1]));
            let client = client.clone();
            async move {
                let v = post(
                    &client,
                    format!("{base0}/api/games"),
                    json!({"kind": "online", "color": "white", "name": format!("host {g}")}),
                )
                .await?;
                let id = v["id"].as_i64().unwrap_or(0);
                let host = v["tokens"]["white"].as_str().unwrap_or("").to_string();
                let guest = v["invite"]["token"].as_str().unwrap_or("").to_string();
                post(
                    &client,
                    format!("{base1}/api/games/{id}/join"),
                    json!({"token": guest, "name": format!("guest {g}")}),
                )
                .await?;
                let mut host_ws = connect(&ws0, id).await?;
                let mut guest_ws = connect(&ws1, id).await?;
                until_ply(&mut host_ws, 0).await?;
                until_ply(&mut guest_ws, 0).await?;
                anyhow::Ok(Setup {
                    id,
                    tokens: [host, guest],
                    instance,
                    sockets: [host_ws, guest_ws],
                    moves: script(seed + g as u64, plies),
                })
            }
        })
        .buffer_unordered(32)
        .collect::<Vec<_>>()
        .await;
    made.into_iter().collect()
}

/// All games play at once; each moves every `interval` (zero: as fast as
/// it can), the games spread over the interval. Prints the figures.
async fn play_all(
    cluster: &Cluster,
    client: &reqwest::Client,
    setups: Vec<Setup>,
    interval: Duration,
) -> anyhow::Result<()> {
    let games = setups.len();
    let start = Instant::now();
    let mut tasks = Vec::new();
    for (g, setup) in setups.into_iter().enumerate() {
        let client = client.clone();
        let bases = [
            cluster.base(setup.instance[0]),
            cluster.base(setup.instance[1]),
        ];
        tasks.push(tokio::spawn(async move {
            let Setup {
                id,
                tokens,
                mut sockets,
                moves,
                ..
            } = setup;
            let offset = interval.mul_f64(g as f64 / games as f64);
            let mut samples = Vec::with_capacity(moves.len());
            for (ply, mv) in moves.iter().enumerate() {
                if !interval.is_zero() {
                    let due = start + offset + interval * ply as u32;
                    tokio::time::sleep_until(due.into()).await;
                }
                let mover = ply % 2;
                let t0 = Instant::now();
                post(
                    &client,
                    format!("{}/api/games/{id}/moves", bases[mover]),
                    json!({"move": mv, "token": tokens[mover], "ply": ply}),
                )
                .await?;
                let acked = t0.elapsed();
                until_ply(&mut sockets[1 - mover], ply as u64 + 1).await?;
                samples.push((acked, t0.elapsed()));
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
    let how = if interval.is_zero() {
        "flat out (each game its next move as soon as the last arrived)".to_string()
    } else {
        format!(
            "paced (each game a move every {} ms, {:.0} moves/s in all)",
            interval.as_millis(),
            games as f64 / interval.as_secs_f64()
        )
    };
    println!(
        "{games} concurrent games, {how}: {} moves in {:.2} s = {:.0} moves/s",
        trips.len(),
        elapsed.as_secs_f64(),
        trips.len() as f64 / elapsed.as_secs_f64()
    );
    println!(
        "  round trip POST -> stored -> opponent's socket: median {}, p90 {}, p99 {}, max {}",
        ms(percentile(&trips, 0.5)),
        ms(percentile(&trips, 0.9)),
        ms(percentile(&trips, 0.99)),
        ms(trips.last().copied().unwrap_or_default())
    );
    println!(
        "  POST answered:                                  median {}, p90 {}, p99 {}",
        ms(percentile(&acks, 0.5)),
        ms(percentile(&acks, 0.9)),
        ms(percentile(&acks, 0.99))
    );
    Ok(())
}

fn client() -> anyhow::Result<reqwest::Client> {
    Ok(reqwest::Client::builder()
        .pool_max_idle_per_host(512)
        .timeout(Duration::from_secs(60))
        .build()?)
}

fn rss_line(cluster: &Cluster) -> String {
    (0..cluster.addrs.len())
        .map(|i| format!("{:.1} MiB", rss_kib(cluster.pid(i)) as f64 / 1024.0))
        .collect::<Vec<_>>()
        .join(", ")
}

async fn roundtrip(
    cluster: &Cluster,
    games: usize,
    rate: f64,
    plies: usize,
    saturation_plies: usize,
) -> anyhow::Result<()> {
    let client = client()?;
    let backend = if cluster.url.starts_with("sqlite") {
        "SQLite"
    } else {
        "PostgreSQL"
    };
    println!(
        "{backend}, {} instance(s); server RSS at start: {}",
        cluster.addrs.len(),
        rss_line(cluster)
    );
    let t = Instant::now();
    let setups = setup_games(cluster, &client, games, plies, 0).await?;
    println!(
        "{games} online games ready ({} sockets) in {:.1} s; server RSS: {}",
        2 * games,
        t.elapsed().as_secs_f64(),
        rss_line(cluster)
    );
    let interval = Duration::from_secs_f64(games as f64 / rate);
    play_all(cluster, &client, setups, interval).await?;
    if saturation_plies > 0 {
        let setups = setup_games(cluster, &client, games, saturation_plies, 1_000_000).await?;
        play_all(cluster, &client, setups, Duration::ZERO).await?;
    }
    println!("server RSS at the end: {}", rss_line(cluster));
    Ok(())
}

async fn idle_sockets(
    cluster: &Cluster,
    sockets: usize,
    games: usize,
    over: usize,
) -> anyhow::Result<()> {
    let client = client()?;
    let pid = cluster.pid(0);
    let base = cluster.base(0);
    let base_ws = cluster.base_ws(0);
    let ids: Vec<i64> = futures_util::stream::iter(0..games.max(1))
        .map(|_| {
            let client = client.clone();
            let base = base.clone();
            async move {
                let v = post(
                    &client,
                    format!("{base}/api/games"),
                    json!({"kind": "local"}),
                )
                .await?;
                anyhow::Ok(v["id"].as_i64().unwrap_or(0))
            }
        })
        .buffer_unordered(16)
        .collect::<Vec<_>>()
        .await
        .into_iter()
        .collect::<anyhow::Result<_>>()?;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let before = rss_kib(pid);
    let t = Instant::now();
    // Each socket is read by a task of its own (pings are answered).
    let opened = Arc::new(AtomicUsize::new(0));
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let results = futures_util::stream::iter(0..sockets)
        .map(|i| {
            let url = base_ws.clone();
            let id = ids[i % ids.len()];
            let opened = opened.clone();
            let mut stop = stop_rx.clone();
            async move {
                let mut ws = connect(&url, id).await?;
                until_ply(&mut ws, 0).await?;
                opened.fetch_add(1, Ordering::Relaxed);
                tokio::spawn(async move {
                    loop {
                        tokio::select! {
                            m = ws.next() => match m {
                                Some(Ok(Message::Ping(p))) => { let _ = ws.send(Message::Pong(p)).await; }
                                Some(Ok(_)) => {}
                                _ => return,
                            },
                            _ = stop.changed() => { let _ = ws.close(None).await; return; }
                        }
                    }
                });
                anyhow::Ok(())
            }
        })
        .buffer_unordered(64)
        .collect::<Vec<_>>()
        .await;
    let failed = results.iter().filter(|r| r.is_err()).count();
    if let Some(Err(e)) = results.iter().find(|r| r.is_err()) {
        println!("first failure: {e:#}");
    }
    let took = t.elapsed();
    tokio::time::sleep(Duration::from_secs(2)).await;
    let after = rss_kib(pid);
    let open = opened.load(Ordering::Relaxed);
    println!(
        "{open} of {sockets} WebSockets open ({failed} failed) on {} games in {:.1} s",
        ids.len(),
        took.as_secs_f64()
    );
    println!(
        "  server RSS {:.1} MiB with them, {:.1} MiB before: {:.1} KiB per open socket",
        after as f64 / 1024.0,
        before as f64 / 1024.0,
        after.saturating_sub(before) as f64 / open.max(1) as f64
    );
    // Beyond the limit: more sockets, held open like the others. The few
    // slots the sockets left free (the limit is theirs plus 64, some held
    // by the HTTP client's pool) take the first of them; the rest wait
    // --connection-wait (1 s here) and are refused.
    let t = Instant::now();
    let answers = futures_util::stream::iter(0..over)
        .map(|i| {
            let url = format!("{base_ws}/api/games/{}/ws", ids[i % ids.len()]);
            async move {
                use tokio_tungstenite::tungstenite::Error;
                match tokio_tungstenite::connect_async(url).await {
                    Ok((ws, _)) => (String::from("opened"), Some(ws)),
                    Err(Error::Http(r)) => {
                        let body = r
                            .body()
                            .as_ref()
                            .map(|b| String::from_utf8_lossy(b).into_owned())
                            .unwrap_or_default();
                        let code = serde_json::from_str::<Value>(&body)
                            .ok()
                            .and_then(|v| v["code"].as_str().map(str::to_string))
                            .unwrap_or_default();
                        let retry = r
                            .headers()
                            .get("retry-after")
                            .and_then(|v| v.to_str().ok())
                            .unwrap_or("-")
                            .to_string();
                        (
                            format!("refused: {} {code}, Retry-After {retry}", r.status()),
                            None,
                        )
                    }
                    Err(e) => (format!("error: {e}"), None),
                }
            }
        })
        .buffer_unordered(256)
        .collect::<Vec<_>>()
        .await;
    let mut kinds: HashMap<String, usize> = HashMap::new();
    let mut extra = Vec::new();
    for (kind, ws) in answers {
        *kinds.entry(kind).or_default() += 1;
        extra.extend(ws);
    }
    println!(
        "  {over} more sockets beyond the {open} (limit {} connections): {:.1} s: {kinds:?}",
        cluster.max_connections,
        t.elapsed().as_secs_f64()
    );
    drop(extra);
    let _ = stop_tx.send(true);
    tokio::time::sleep(Duration::from_secs(1)).await;
    Ok(())
}

/// What a client saw of one game in the kill run.
struct Played {
    id: i64,
    /// Moves acknowledged with 200, by ply.
    acked: Vec<(usize, String)>,
    /// Requests that got no answer or an error (the instance died).
    failed: usize,
}

async fn kill_under_load(
    cluster: Arc<RwLock<Cluster>>,
    games: usize,
    rate: f64,
    seconds: u64,
    kill_every: u64,
) -> anyhow::Result<()> {
    let client = client()?;
    let instances = cluster.read().await.addrs.len();
    let bases: Vec<String> = {
        let c = cluster.read().await;
        (0..instances).map(|i| c.base(i)).collect()
    };
    let bases = Arc::new(bases);
    let start = Instant::now();
    let end = start + Duration::from_secs(seconds);
    let interval = Duration::from_secs_f64(games as f64 / rate);

    // The killer: every `kill_every` seconds the next instance gets SIGKILL
    // and is started again a second later.
    let kills = Arc::new(AtomicUsize::new(0));
    let killer = {
        let cluster = cluster.clone();
        let kills = kills.clone();
        tokio::spawn(async move {
            let mut next = 0;
            loop {
                tokio::time::sleep(Duration::from_secs(kill_every)).await;
                if Instant::now() + Duration::from_secs(2) >= end {
                    return anyhow::Ok(());
                }
                let mut c = cluster.write().await;
                c.kill(next);
                kills.fetch_add(1, Ordering::Relaxed);
                println!(
                    "  {:5.1} s: instance {next} killed (SIGKILL)",
                    start.elapsed().as_secs_f64()
                );
                drop(c);
                tokio::time::sleep(Duration::from_secs(1)).await;
                let mut c = cluster.write().await;
                let i = next;
                tokio::task::block_in_place(|| c.launch(i))?;
                println!(
                    "  {:5.1} s: instance {next} started again",
                    start.elapsed().as_secs_f64()
                );
                next = (next + 1) % c.addrs.len();
            }
        })
    };

    let mut tasks = Vec::new();
    for g in 0..games {
        let client = client.clone();
        let bases = bases.clone();
        tasks.push(tokio::spawn(async move {
            let mut played = Vec::new();
            let offset = interval.mul_f64(g as f64 / games as f64);
            let mut due = start + offset;
            let mut round = 0u64;
            while Instant::now() < end {
                // A new game when the last one ended.
                let moves = script((g as u64) << 20 | round, 400);
                round += 1;
                let Some((id, tokens)) = create_game(&client, &bases, g).await else {
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    continue;
                };
                let mut p = Played {
                    id,
                    acked: Vec::new(),
                    failed: 0,
                };
                let mut ply = 0;
                let mut attempt = 0usize;
                while ply < moves.len() && Instant::now() < end {
                    tokio::time::sleep_until(due.into()).await;
                    due += interval;
                    let mover = ply % 2;
                    let base = &bases[(g + ply + attempt) % bases.len()];
                    let r = client
                        .post(format!("{base}/api/games/{id}/moves"))
                        .json(&json!({"move": moves[ply], "token": tokens[mover], "ply": ply}))
                        .send()
                        .await;
                    match r {
                        Ok(r) if r.status().is_success() => {
                            // Acknowledged: it must be stored.
                            if r.json::<Value>().await.is_ok() {
                                p.acked.push((ply, moves[ply].clone()));
                            }
                            ply += 1;
                        }
                        _ => {
                            // No answer or an error: read the game back and
                            // go on from the ply stored.
                            p.failed += 1;
                            attempt += 1;
                            match stored_moves(&client, &bases, id).await {
                                Some(stored) => ply = stored.len(),
                                None => continue,
                            }
                        }
                    }
                }
                played.push(p);
            }
            played
        }));
    }
    let mut played = Vec::new();
    for t in tasks {
        played.extend(t.await?);
    }
    killer.abort();
    // Let the instance being started (if any) come up.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let elapsed = start.elapsed();
    let acked: usize = played.iter().map(|p| p.acked.len()).sum();
    let failed: usize = played.iter().map(|p| p.failed).sum();
    let mut lost = 0;
    let mut unreadable = 0;
    for p in &played {
        let Some(stored) = stored_moves(&client, &bases, p.id).await else {
            unreadable += 1;
            continue;
        };
        for (ply, mv) in &p.acked {
            if stored.get(*ply) != Some(mv) {
                lost += 1;
                println!("  LOST: game {} ply {ply} {mv}", p.id);
            }
        }
    }
    println!(
        "{instances} instances on PostgreSQL, {games} games paced at {rate:.0} moves/s for {:.0} s, \
         {} instance kills (SIGKILL):",
        elapsed.as_secs_f64(),
        kills.load(Ordering::Relaxed)
    );
    println!(
        "  {acked} moves acknowledged in {} games; {failed} requests failed or went unanswered \
         during the kills; {unreadable} games could not be read back",
        played.len()
    );
    println!("  acknowledged moves missing from the database: {lost}");
    anyhow::ensure!(lost == 0 && unreadable == 0, "acknowledged moves were lost");
    Ok(())
}

/// An online game with both seats joined, through any live instance.
async fn create_game(
    client: &reqwest::Client,
    bases: &[String],
    g: usize,
) -> Option<(i64, [String; 2])> {
    for k in 0..bases.len() {
        let base = &bases[(g + k) % bases.len()];
        let Ok(v) = post(
            client,
            format!("{base}/api/games"),
            json!({"kind": "online", "color": "white"}),
        )
        .await
        else {
            continue;
        };
        let id = v["id"].as_i64()?;
        let host = v["tokens"]["white"].as_str()?.to_string();
        let guest = v["invite"]["token"].as_str()?.to_string();
        for k2 in 0..4 * bases.len() {
            let base = &bases[(g + k + k2) % bases.len()];
            match post(
                client,
                format!("{base}/api/games/{id}/join"),
                json!({"token": guest}),
            )
            .await
            {
                Ok(_) => return Some((id, [host, guest])),
                Err(e) if e.to_string().contains("409") => return Some((id, [host, guest])),
                Err(_) => tokio::time::sleep(Duration::from_millis(250)).await,
            }
        }
        return None;
    }
    None
}

/// The moves stored for a game, read through any live instance.
async fn stored_moves(client: &reqwest::Client, bases: &[String], id: i64) -> Option<Vec<String>> {
    for attempt in 0..40 {
        let base = &bases[attempt % bases.len()];
        if let Ok(r) = client.get(format!("{base}/api/games/{id}")).send().await
            && r.status().is_success()
            && let Ok(v) = r.json::<Value>().await
            && let Some(moves) = v["moves"].as_array()
        {
            return Some(
                moves
                    .iter()
                    .filter_map(|m| m.as_str().map(str::to_string))
                    .collect(),
            );
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    None
}

/// The CPU time (user and system) process `pid` has used.
fn cpu_time(pid: u32) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // The fields after the command name (which ends with ')').
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or("", |(_, rest)| rest)
        .split_whitespace()
        .collect();
    let ticks: u64 = [11, 12]
        .iter()
        .filter_map(|&i| fields.get(i).and_then(|v| v.parse::<u64>().ok()))
        .sum();
    // SAFETY: sysconf only reads a constant.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
    Duration::from_secs_f64(ticks as f64 / per_second as f64)
}

/// A local game on `tc` with both first moves made: its id and the
/// earliest moment its flag can fall: when the second move was sent, plus
/// White's time left as the answer gives it (the server started White's
/// clock after it had that move, so the flag comes no earlier).
async fn timed_game(
    client: &reqwest::Client,
    base: &str,
    tc: &str,
    before_moves: impl AsyncFnOnce(i64) -> anyhow::Result<()>,
) -> anyhow::Result<(i64, Instant)> {
    let v = post(
        client,
        format!("{base}/api/games"),
        json!({"kind": "local", "time_control": tc}),
    )
    .await?;
    let id = v["id"].as_i64().context("an id")?;
    let token = |c: &str| v["tokens"][c].as_str().unwrap_or_default().to_string();
    before_moves(id).await?;
    let url = format!("{base}/api/games/{id}/moves");
    post(
        client,
        url.clone(),
        json!({"move": "d6", "token": token("white"), "ply": 0}),
    )
    .await?;
    let sent = Instant::now();
    let st = post(
        client,
        url,
        json!({"move": "d2", "token": token("black"), "ply": 1}),
    )
    .await?;
    let left = st["clock"]["white_ms"].as_u64().context("White's time")?;
    Ok((id, sent + Duration::from_millis(left)))
}

/// Read states until the game is over; when it came.
async fn until_over(mut ws: Ws) -> anyhow::Result<Instant> {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(120), ws.next())
            .await
            .context("no end for 120 s")?
            .ok_or_else(|| anyhow::anyhow!("socket closed"))??;
        match msg {
            Message::Text(t) => {
                let v: Value = serde_json::from_str(t.as_str())?;
                if v["state"]["status"] == "over" {
                    anyhow::ensure!(v["state"]["reason"] == "time", "ended by {}", v["state"]);
                    return Ok(Instant::now());
                }
            }
            Message::Ping(p) => ws.send(Message::Pong(p)).await?,
            _ => {}
        }
    }
}

async fn clocks(
    cluster: &Cluster,
    games: usize,
    idle: usize,
    idle_seconds: u64,
) -> anyhow::Result<()> {
    let client = client()?;
    let (pid, base, base_ws) = (cluster.pid(0), cluster.base(0), cluster.base_ws(0));
    let rss_start = rss_kib(pid);
    // Flags: every game's two sockets wait for its end, which is due 15 s
    // after its second move.
    let t = Instant::now();
    let waiting: Vec<_> = futures_util::stream::iter(0..games)
        .map(|_| {
            let (client, base, base_ws) = (client.clone(), base.clone(), base_ws.clone());
            async move {
                let mut sockets = Vec::new();
                let (_, deadline) = timed_game(&client, &base, "0.25+0", async |id| {
                    for _ in 0..2 {
                        let mut ws = connect(&base_ws, id).await?;
                        until_ply(&mut ws, 0).await?;
                        sockets.push(ws);
                    }
                    Ok(())
                })
                .await?;
                let ends: Vec<_> = sockets
                    .into_iter()
                    .map(|ws| tokio::spawn(until_over(ws)))
                    .collect();
                anyhow::Ok((deadline, ends))
            }
        })
        .buffer_unordered(32)
        .collect::<Vec<_>>()
        .await;
    println!(
        "{games} games on 0.25+0 started in {:.1} s ({} sockets)",
        t.elapsed().as_secs_f64(),
        2 * games
    );
    let mut latencies = Vec::new();
    let mut early = 0;
    for w in waiting {
        let (deadline, ends) = w?;
        for end in ends {
            let at = end.await??;
            match at.checked_duration_since(deadline) {
                Some(d) => latencies.push(d),
                None => early += 1,
            }
        }
    }
    anyhow::ensure!(early == 0, "{early} flags fell before their deadline");
    latencies.sort();
    println!(
        "flag latency, deadline to game over at the socket ({} sockets): p50 {}, p99 {}, max {}",
        latencies.len(),
        ms(percentile(&latencies, 0.5)),
        ms(percentile(&latencies, 0.99)),
        ms(latencies.last().copied().unwrap_or_default()),
    );
    // Idle clocks.
    let rss_before = rss_kib(pid);
    let t = Instant::now();
    let started: Vec<_> = futures_util::stream::iter(0..idle)
        .map(|_| {
            let (client, base) = (client.clone(), base.clone());
            async move { timed_game(&client, &base, "30+0", async |_| Ok(())).await }
        })
        .buffer_unordered(32)
        .collect::<Vec<_>>()
        .await;
    let failed = started.iter().filter(|r| r.is_err()).count();
    anyhow::ensure!(failed == 0, "{failed} games could not be started");
    println!(
        "{idle} games on 30+0 started in {:.1} s",
        t.elapsed().as_secs_f64()
    );
    tokio::time::sleep(Duration::from_secs(2)).await;
    let (cpu0, t0) = (cpu_time(pid), Instant::now());
    tokio::time::sleep(Duration::from_secs(idle_seconds)).await;
    let cpu = cpu_time(pid).saturating_sub(cpu0);
    let wall = t0.elapsed();
    let rss = rss_kib(pid);
    println!(
        "{idle} running clocks: server RSS {:.1} MiB (at start {:.1} MiB, before them {:.1} MiB); \
         idle CPU {:.2} % of one core ({:.0} ms in {:.0} s)",
        rss as f64 / 1024.0,
        rss_start as f64 / 1024.0,
        rss_before as f64 / 1024.0,
        100.0 * cpu.as_secs_f64() / wall.as_secs_f64(),
        cpu.as_secs_f64() * 1000.0,
        wall.as_secs_f64()
    );
    Ok(())
}

/// Register account `name`: the cookie of its login.
async fn register(client: &reqwest::Client, base: &str, name: &str) -> anyhow::Result<String> {
    let body = json!({"name": name, "password": "a long enough password"});
    let r = client
        .post(format!("{base}/api/account/register"))
        .json(&body)
        .send()
        .await?;
    anyhow::ensure!(r.status().is_success(), "register {name}: {}", r.status());
    let cookie = r
        .headers()
        .get("set-cookie")
        .context("no cookie")?
        .to_str()?;
    Ok(cookie.split(';').next().unwrap_or_default().to_string())
}

/// `POST` with a login's cookie.
async fn post_as(
    client: &reqwest::Client,
    cookie: &str,
    url: String,
    body: Value,
) -> anyhow::Result<Value> {
    let r = client
        .post(url)
        .header("cookie", cookie)
        .json(&body)
        .send()
        .await?;
    let status = r.status();
    let v: Value = r.json().await?;
    anyhow::ensure!(status.is_success(), "{status}: {v}");
    Ok(v)
}

async fn lobby(
    cluster: &Cluster,
    seeks: usize,
    sockets: usize,
    posts: usize,
    logged_in: bool,
) -> anyhow::Result<()> {
    let client = client()?;
    let (pid, base, base_ws) = (cluster.pid(0), cluster.base(0), cluster.base_ws(0));
    // The open seeks: five per account (the most one may have).
    let t = Instant::now();
    let posters = seeks.div_ceil(5);
    let posted: Vec<anyhow::Result<String>> = futures_util::stream::iter(0..posters)
        .map(|i| {
            let (client, base) = (client.clone(), base.clone());
            async move {
                let cookie = register(&client, &base, &format!("seeker{i}")).await?;
                for k in 0..5.min(seeks - 5 * i) {
                    let game = ["muehle", "dame", "dame-100", "international", "dame-fr"][k];
                    let body = json!({"game": game, "time_control": "3d"});
                    post_as(&client, &cookie, format!("{base}/api/lobby/seeks"), body).await?;
                }
                Ok(cookie)
            }
        })
        .buffer_unordered(8)
        .collect()
        .await;
    let cookies = posted
        .into_iter()
        .collect::<anyhow::Result<Vec<String>>>()?;
    println!(
        "{seeks} open seeks by {posters} accounts in {:.1} s",
        t.elapsed().as_secs_f64()
    );
    // The lobby sockets, each having read the lobby.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let rss_before = rss_kib(pid);
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<(i64, Instant)>();
    let t = Instant::now();
    let opened: Vec<anyhow::Result<Ws>> = futures_util::stream::iter(0..sockets)
        .map(|i| {
            let base_ws = base_ws.clone();
            let cookie = logged_in.then(|| cookies[i % cookies.len()].clone());
            async move {
                use tokio_tungstenite::tungstenite::client::IntoClientRequest;
                let mut req = format!("{base_ws}/api/lobby/ws").into_client_request()?;
                if let Some(c) = cookie {
                    req.headers_mut().insert("cookie", c.parse()?);
                }
                let (mut ws, _) = tokio_tungstenite::connect_async(req).await?;
                let first = lobby_message(&mut ws).await?;
                anyhow::ensure!(
                    first["seeks"].as_array().map(Vec::len) == Some(seeks),
                    "the lobby did not list the seeks"
                );
                Ok(ws)
            }
        })
        .buffer_unordered(64)
        .collect()
        .await;
    let mut readers = Vec::new();
    for ws in opened {
        let (mut ws, tx) = (ws?, tx.clone());
        readers.push(tokio::spawn(async move {
            while let Ok(m) = lobby_message(&mut ws).await {
                if m["type"] == "seek"
                    && let Some(id) = m["seek"]["id"].as_i64()
                {
                    let _ = tx.send((id, Instant::now()));
                }
            }
        }));
    }
    println!(
        "{sockets} lobby sockets open in {:.1} s",
        t.elapsed().as_secs_f64()
    );
    tokio::time::sleep(Duration::from_secs(2)).await;
    let rss_after = rss_kib(pid);
    // Seeks posted one after the other; each reaches every socket.
    let cookie = register(&client, &base, "timer").await?;
    let mut all = Vec::new();
    let mut single = Vec::new();
    let mut heard: HashMap<i64, Vec<Instant>> = HashMap::new();
    for _ in 0..posts {
        let t0 = Instant::now();
        let body = json!({"game": "muehle", "time_control": "5+3"});
        let v = post_as(&client, &cookie, format!("{base}/api/lobby/seeks"), body).await?;
        let id = v["seek"]["id"].as_i64().context("no seek id")?;
        while heard.get(&id).map_or(0, Vec::len) < sockets {
            let (seek, at) = tokio::time::timeout(Duration::from_secs(30), rx.recv())
                .await
                .context("a lobby socket missed a seek for 30 s")?
                .context("the sockets closed")?;
            heard.entry(seek).or_default().push(at);
        }
        let times = heard.remove(&id).unwrap_or_default();
        single.extend(times.iter().map(|at| at.duration_since(t0)));
        let last = times.iter().max().copied().unwrap_or(t0);
        all.push(last.duration_since(t0));
        post_as(
            &client,
            &cookie,
            format!("{base}/api/lobby/seeks/{id}/cancel"),
            json!({}),
        )
        .await?;
    }
    all.sort();
    single.sort();
    println!(
        "lobby update latency, seek posted to every one of {sockets} sockets having it \
         ({posts} seeks, {seeks} open): p50 {}, p99 {}, max {}; to one socket: p50 {}, p99 {}",
        ms(percentile(&all, 0.5)),
        ms(percentile(&all, 0.99)),
        ms(all.last().copied().unwrap_or_default()),
        ms(percentile(&single, 0.5)),
        ms(percentile(&single, 0.99)),
    );
    println!(
        "memory: server RSS {:.1} MiB before the sockets, {:.1} MiB with them: {:.1} KiB per \
         {} lobby socket",
        rss_before as f64 / 1024.0,
        rss_after as f64 / 1024.0,
        rss_after.saturating_sub(rss_before) as f64 / sockets as f64,
        if logged_in { "logged-in" } else { "guest" }
    );
    for r in readers {
        r.abort();
    }
    Ok(())
}

/// The next text message of a lobby socket, as JSON (pings answered).
async fn lobby_message(ws: &mut Ws) -> anyhow::Result<Value> {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(120), ws.next())
            .await
            .context("no lobby message for 120 s")?
            .ok_or_else(|| anyhow::anyhow!("socket closed"))??;
        match msg {
            Message::Text(t) => return Ok(serde_json::from_str(t.as_str())?),
            Message::Ping(p) => ws.send(Message::Pong(p)).await?,
            _ => {}
        }
    }
}
