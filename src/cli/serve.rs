//! `brett serve`: the app — the browser UI and the JSON API (docs/API.md).

use std::net::SocketAddr;

use anyhow::{Context, Result};

/// Arguments of `brett serve`.
#[derive(clap::Args, Debug, Default)]
pub struct Args {
    /// The address to listen on [default: 127.0.0.1:8080] (port 0: any free port).
    #[arg(long, value_name = "ADDR")]
    listen: Option<SocketAddr>,
    /// The database URL: sqlite:///home/me/brett.db, sqlite::memory: or
    /// postgres://user[:password]@host[:port]/db (default:
    /// $XDG_DATA_HOME/brett/brett.db, else ~/.local/share/brett/brett.db).
    /// Several instances may share one PostgreSQL database.
    #[arg(long, value_name = "URL")]
    database: Option<String>,
    /// SQLite: seconds the integrity check of the database file at start
    /// may take (a damaged file or another program's is refused, and not
    /// changed); past it the server starts with the file unchecked and says
    /// so in the log (0: no such check; the file's header and application
    /// id are checked still) [default: 30].
    #[arg(long, value_name = "SECS")]
    integrity_check_seconds: Option<u64>,
    /// Several instances on PostgreSQL: seconds the lease of a computer
    /// move lasts without renewal; another instance takes the game over
    /// this long after the instance holding it died [default: 10].
    #[arg(long, value_name = "SECS")]
    computer_lease: Option<f64>,
    /// The computer's thinking time per move in milliseconds (default: by
    /// level, 0.3–1 s for levels 1–9 and 1.5 s at level 10).
    #[arg(long, value_name = "MS")]
    computer_movetime: Option<u64>,
    /// A further origin (http(s)://host[:port]) whose pages may change
    /// state, e.g. the address of a reverse proxy or a host name the server
    /// is reached by (repeatable). The server's own origin by IP address or
    /// localhost is always allowed.
    #[arg(long = "allowed-origin", value_name = "URL")]
    allowed_origins: Vec<String>,
    /// Games one client (IP address) may create a minute, also the burst
    /// (0: no limit) [default: 60].
    #[arg(long, value_name = "N")]
    games_per_minute: Option<u32>,
    /// Wrong seat tokens one client may send a minute, and one game may
    /// receive; further wrong ones are answered 429, a right token never is
    /// (0: no limit) [default: 30].
    #[arg(long, value_name = "N")]
    wrong_tokens_per_minute: Option<u32>,
    /// Password checks (logins, registrations, password changes, account
    /// deletions) one client address may ask for a minute; one that
    /// succeeds does not count, a registration always does (0: no limit)
    /// [default: 20].
    #[arg(long, value_name = "N")]
    logins_per_minute: Option<u32>,
    /// Login attempts a minute for one account name, from any address; one
    /// that succeeds does not count (0: no limit) [default: 5].
    #[arg(long, value_name = "N")]
    logins_per_name_per_minute: Option<u32>,
    /// A host name the server is reached by (repeatable), e.g.
    /// brett.example.org. Requests naming another host are refused (DNS
    /// rebinding); IP addresses, localhost and the hosts of
    /// --allowed-origin are always answered.
    #[arg(long = "public-host", value_name = "NAME")]
    public_hosts: Vec<String>,
    /// A reverse proxy (address or network, e.g. 10.0.0.1 or 10.0.0.0/8)
    /// whose X-Forwarded-For header names the client the limits count
    /// against (repeatable); its own connections are not limited per
    /// address. Without it, X-Forwarded-For is ignored.
    #[arg(long = "trusted-proxy", value_name = "ADDR")]
    trusted_proxies: Vec<String>,
    /// An account that may build the perfect-play databases from the app's
    /// "Perfect play" page (repeatable). Without it only the app of this
    /// computer may (a server listening on 127.0.0.1 or ::1, the request
    /// from this machine).
    #[arg(long = "admin", value_name = "NAME")]
    admins: Vec<String>,
    /// Connections one address (IPv6: its /64) may hold at once; a further
    /// one is answered 429 too_many_connections at once (0: no limit)
    /// [default: 64].
    #[arg(long, value_name = "N")]
    max_connections_per_ip: Option<usize>,
    /// WebSockets (live games) one client address may hold open at once
    /// (0: no limit) [default: 32].
    #[arg(long, value_name = "N")]
    max_websockets_per_ip: Option<usize>,
    /// Connections served at once, WebSockets included; a further one
    /// waits --connection-wait seconds for a slot, then is answered 503
    /// too_many_connections. Lowered (with a warning) where the open-file
    /// limit has no room for so many [default: 512].
    #[arg(long, value_name = "N")]
    max_connections: Option<usize>,
    /// Seconds a connection over --max-connections waits for a slot before
    /// it is refused; keep it longer than --header-timeout [default: 15].
    #[arg(long, value_name = "SECS")]
    connection_wait: Option<f64>,
    /// Seconds a client has to send a request's header; also how long an
    /// idle connection stays open [default: 10].
    #[arg(long, value_name = "SECS")]
    header_timeout: Option<u64>,
    /// Engine searches running at once, computer moves and analyses
    /// together [default: one per CPU core].
    #[arg(long, value_name = "N")]
    engine_slots: Option<usize>,
    /// Analyses running at once, at most the engine slots [default: one
    /// fewer than the engine slots, at least 1, so one is kept for computer
    /// moves].
    #[arg(long, value_name = "N")]
    analysis_slots: Option<usize>,
    /// Analyses one browser may have running or waiting at once (0: no
    /// limit) [default: 1].
    #[arg(long, value_name = "N")]
    analyses_per_client: Option<usize>,
    /// Analyses one client address may have running or waiting at once (0:
    /// no limit) [default: 4].
    #[arg(long, value_name = "N")]
    analyses_per_ip: Option<usize>,
    /// Engine seconds a minute one browser may use for analyses, also the
    /// burst; an address gets --analyses-per-ip times as much (0: no limit)
    /// [default: 60].
    #[arg(long, value_name = "SECS")]
    analysis_seconds_per_minute: Option<u64>,
    /// Analyses waiting for an engine slot at most; further ones are
    /// answered 503 engine_busy [default: 16].
    #[arg(long, value_name = "N")]
    analysis_queue: Option<usize>,
    /// Seconds an analysis waits for an engine slot before it is answered
    /// 503 engine_busy [default: 5].
    #[arg(long, value_name = "SECS")]
    analysis_wait: Option<u64>,
    /// The longest an analysis may think in milliseconds, whatever the
    /// request asks [default: as asked, at most 10000].
    #[arg(long, value_name = "MS")]
    max_analysis_time: Option<u64>,
    /// Seconds between the server's pings of an open WebSocket [default: 30].
    #[arg(long, value_name = "SECS")]
    ws_ping_interval: Option<u64>,
    /// Seconds an open WebSocket whose client sends nothing (no pong, no
    /// message) stays open [default: 90].
    #[arg(long, value_name = "SECS")]
    ws_idle_timeout: Option<u64>,
    /// Tests only: `POST /api/test/clock` moves the server's clock on.
    #[arg(long, hide = true)]
    test_clock: bool,
}

pub fn run(args: Args) -> Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| {
                tracing_subscriber::EnvFilter::new("info,tower_http=warn,sqlx=warn")
            }),
        )
        .init();
    let mut config = server::ServerConfig {
        database_url: args.database,
        computer_movetime_ms: args.computer_movetime,
        allowed_origins: args.allowed_origins,
        public_hosts: args.public_hosts,
        trusted_proxies: args.trusted_proxies,
        admins: args.admins,
        test_clock: args.test_clock,
        ..server::ServerConfig::default()
    };
    if let Some(n) = args.max_connections_per_ip {
        config.max_connections_per_ip = n;
    }
    if let Some(n) = args.max_websockets_per_ip {
        config.max_websockets_per_ip = n;
    }
    if let Some(secs) = args.computer_lease {
        anyhow::ensure!(
            secs.is_finite() && (0.1..=3600.0).contains(&secs),
            "--computer-lease must be between 0.1 and 3600 seconds"
        );
        config.computer_lease = std::time::Duration::from_secs_f64(secs);
    }
    if let Some(secs) = args.integrity_check_seconds {
        config.integrity_check = std::time::Duration::from_secs(secs);
    }
    if let Some(listen) = args.listen {
        config.listen = listen;
    }
    if let Some(n) = args.games_per_minute {
        config.games_per_minute = n;
    }
    if let Some(n) = args.wrong_tokens_per_minute {
        config.wrong_tokens_per_minute = n;
    }
    if let Some(n) = args.logins_per_minute {
        config.logins_per_minute = n;
    }
    if let Some(n) = args.logins_per_name_per_minute {
        config.logins_per_name_per_minute = n;
    }
    if let Some(n) = args.max_connections {
        anyhow::ensure!(n > 0, "--max-connections must be at least 1");
        config.max_connections = n;
    }
    if let Some(secs) = args.connection_wait {
        anyhow::ensure!(
            secs.is_finite() && (0.0..=600.0).contains(&secs),
            "--connection-wait must be between 0 and 600 seconds"
        );
        config.connection_wait = std::time::Duration::from_secs_f64(secs);
    }
    if let Some(secs) = args.header_timeout {
        anyhow::ensure!(secs > 0, "--header-timeout must be at least 1 second");
        config.header_timeout = std::time::Duration::from_secs(secs);
    }
    if let Some(n) = args.engine_slots {
        anyhow::ensure!(n > 0, "--engine-slots must be at least 1");
        config.engine_slots = Some(n);
    }
    if let Some(n) = args.analysis_slots {
        anyhow::ensure!(n > 0, "--analysis-slots must be at least 1");
        config.analysis_slots = Some(n);
    }
    if let Some(n) = args.analyses_per_client {
        config.analyses_per_client = n;
    }
    if let Some(n) = args.analyses_per_ip {
        config.analyses_per_ip = n;
    }
    if let Some(secs) = args.analysis_seconds_per_minute {
        config.analysis_seconds_per_minute = secs;
    }
    if let Some(n) = args.analysis_queue {
        config.analysis_queue = n;
    }
    if let Some(secs) = args.analysis_wait {
        config.analysis_wait = std::time::Duration::from_secs(secs);
    }
    if let Some(ms) = args.max_analysis_time {
        anyhow::ensure!(ms > 0, "--max-analysis-time must be at least 1 ms");
        config.max_analysis_time = Some(std::time::Duration::from_millis(ms));
    }
    if let Some(secs) = args.ws_ping_interval {
        anyhow::ensure!(secs > 0, "--ws-ping-interval must be at least 1 second");
        config.ws_ping_interval = std::time::Duration::from_secs(secs);
    }
    if let Some(secs) = args.ws_idle_timeout {
        anyhow::ensure!(secs > 0, "--ws-idle-timeout must be at least 1 second");
        config.ws_idle_timeout = std::time::Duration::from_secs(secs);
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(server::run(config))
}
