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
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(server::run(config))
}
