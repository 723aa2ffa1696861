//! `brett serve`: the app — the browser UI and the JSON API (docs/API.md).

use std::net::SocketAddr;

use anyhow::{Context, Result};

/// Arguments of `brett serve`.
#[derive(clap::Args, Debug, Default)]
pub struct Args {
    /// The address to listen on [default: 127.0.0.1:8080] (port 0: any free port).
    #[arg(long, value_name = "ADDR")]
    listen: Option<SocketAddr>,
    /// The database URL, e.g. sqlite:///home/me/brett.db or sqlite::memory:
    /// (default: $XDG_DATA_HOME/brett/brett.db, else
    /// ~/.local/share/brett/brett.db).
    #[arg(long, value_name = "URL")]
    database: Option<String>,
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
    /// Wrong seat tokens one client may send a minute (0: no limit)
    /// [default: 30].
    #[arg(long, value_name = "N")]
    wrong_tokens_per_minute: Option<u32>,
    /// Connections served at once, WebSockets included; further ones wait
    /// [default: 512].
    #[arg(long, value_name = "N")]
    max_connections: Option<usize>,
    /// Seconds a client has to send a request's header; also how long an
    /// idle connection stays open [default: 10].
    #[arg(long, value_name = "SECS")]
    header_timeout: Option<u64>,
    /// Seconds between the server's pings of an open WebSocket [default: 30].
    #[arg(long, value_name = "SECS")]
    ws_ping_interval: Option<u64>,
    /// Seconds an open WebSocket whose client sends nothing (no pong, no
    /// message) stays open [default: 90].
    #[arg(long, value_name = "SECS")]
    ws_idle_timeout: Option<u64>,
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
        ..server::ServerConfig::default()
    };
    if let Some(listen) = args.listen {
        config.listen = listen;
    }
    if let Some(n) = args.games_per_minute {
        config.games_per_minute = n;
    }
    if let Some(n) = args.wrong_tokens_per_minute {
        config.wrong_tokens_per_minute = n;
    }
    if let Some(n) = args.max_connections {
        anyhow::ensure!(n > 0, "--max-connections must be at least 1");
        config.max_connections = n;
    }
    if let Some(secs) = args.header_timeout {
        anyhow::ensure!(secs > 0, "--header-timeout must be at least 1 second");
        config.header_timeout = std::time::Duration::from_secs(secs);
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
