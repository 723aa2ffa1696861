//! The brett app server: the JSON API of docs/API.md over HTTP, live game
//! states over WebSocket, games kept in a database, and the browser UI
//! embedded in the binary.
//!
//! [`run`] serves until Ctrl-C; [`start`] serves in the background (tests,
//! benchmarks); [`app`] is the router alone.
//!
//! The layers, each using only those below it:
//!
//! - `api`, [`account`], `ws`, `assets`, [`front`], `guard`, `conn`,
//!   `strict`, [`lobby`]: HTTP, accounts and their logins, WebSocket, the web UI's
//!   files, the host check and the browser's protections, origins and rate
//!   limits, the connection loop and its check of request heads, the
//!   lobby's seeks and challenges;
//!   [`AppState`] is what the handlers share, [`error`] the API's error
//!   answers; [`password`]: the accounts' password hashes (argon2id).
//! - `computer`, `analysis`, [`game_analysis`], [`clocks`], [`cluster`]:
//!   the services beside the registry, each with its own state and handles:
//!   the computer player (told of the games by the registry), the analyses
//!   (of positions, and of whole games in the background), the clocks (which
//!   end games whose time ran out), and this instance among others on a
//!   shared database. Computer moves and analyses share
//!   the engine slots ([`fair`]).
//! - [`registry`]: the live games ([`GameRegistry`]), each changed on a copy,
//!   stored, then broadcast; [`game_state`] is the state the API sends.
//! - [`game`]: the games behind one adapter ([`game::ServerGame`]), written
//!   once over `boardgame` and knowing nothing of HTTP or storage;
//!   [`perfect`]: Mühle's perfect-play databases.
//! - [`storage`]: where games are kept.

#![warn(missing_docs)]

pub mod account;
mod analysis;
mod api;
mod assets;
pub mod chat;
pub mod clocks;
pub mod cluster;
mod computer;
mod conn;
pub mod error;
pub mod fair;
pub mod front;
pub mod game_analysis;
/// The games, from the catalogue crate (`games`).
pub use games as game;
pub mod game_state;
mod guard;
pub mod lobby;
pub mod password;
pub mod perfect;
pub mod perfect_build;
pub mod rating;
pub mod registry;
mod state;
pub mod storage;
mod strict;
pub mod util;
mod ws;

use std::net::SocketAddr;
use std::time::Duration;

use anyhow::Context;
use axum::Router;
use axum::extract::DefaultBodyLimit;
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

pub use error::ApiError;
pub use registry::{GameRegistry, RegistryConfig};
pub use state::AppState;
pub use storage::{Storage, StorageError};
pub use ws::{ClientAnswer, MAX_CLIENT_MESSAGE, answer_binary, answer_text};

/// How the server runs.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// The address to listen on (port 0: any free port).
    pub listen: SocketAddr,
    /// The database URL (`sqlite:PATH`, `sqlite::memory:`,
    /// `postgres://USER@HOST/DB`); `None`: the default SQLite file (see
    /// [`storage::default_database_path`]).
    pub database_url: Option<String>,
    /// Several instances on one PostgreSQL database: how long the lease
    /// of a computer move lasts without renewal (crate::cluster).
    pub computer_lease: Duration,
    /// SQLite: the longest the integrity check of the file at start may
    /// take; past it the server starts with the file unchecked and says so
    /// in the log. Zero: no such check (see
    /// [`storage::StorageOptions::integrity_check`]).
    pub integrity_check: Duration,
    /// The computer's thinking time per move in milliseconds; `None`: by
    /// level (0.3–1 s for levels 1–9, 1.5 s at level 10).
    pub computer_movetime_ms: Option<u64>,
    /// Engine searches running at once (computer moves and analyses);
    /// `None`: one per CPU core.
    pub engine_slots: Option<usize>,
    /// Analyses running at once; `None`: one fewer than the engine slots
    /// (at least 1), so one is kept for computer moves.
    pub analysis_slots: Option<usize>,
    /// Analyses one browser (`X-Brett-Client` header; without it, the
    /// address) may have running or waiting at once; 0: no limit.
    pub analyses_per_client: usize,
    /// Analyses one address (IPv6: /64) may have running or waiting at
    /// once; 0: no limit.
    pub analyses_per_ip: usize,
    /// Engine seconds a minute one browser may use for analyses (also the
    /// burst); an address gets `analyses_per_ip` times as much; 0: no
    /// limit.
    pub analysis_seconds_per_minute: u64,
    /// Analyses waiting for an engine slot at most; further ones are
    /// answered `503 engine_busy`.
    pub analysis_queue: usize,
    /// The longest an analysis waits for an engine slot before it is
    /// answered `503 engine_busy`.
    pub analysis_wait: Duration,
    /// Further origins (`https://brett.example.org`) whose pages may change
    /// state; requests from the server's own origin (an IP address or
    /// `localhost`) are always allowed.
    pub allowed_origins: Vec<String>,
    /// Games one client (IP address) may create a minute, in a burst at
    /// most as many; 0: no limit.
    pub games_per_minute: u32,
    /// Password checks (logins, registrations, password changes, account
    /// deletions) one client address may ask for a minute, in a burst at
    /// most as many; a check that succeeds does not count, a registration
    /// always does. 0: no limit.
    pub logins_per_minute: u32,
    /// Login attempts a minute for one account name (from any address);
    /// a login that succeeds does not count. 0: no limit.
    pub logins_per_name_per_minute: u32,
    /// Wrong tokens one client may send a minute, and wrong tokens a minute
    /// for one game; a right token is never refused; 0: no limit.
    pub wrong_tokens_per_minute: u32,
    /// Connections one address (IPv6: its /64) may hold at once, served or
    /// waiting for a slot; a further one is answered `429
    /// too_many_connections` at once. Trusted proxies are not limited
    /// (their clients are, by the WebSocket and rate limits). 0: no limit.
    pub max_connections_per_ip: usize,
    /// WebSockets one client address may hold open at once; a further one
    /// is answered `429 too_many_connections`. 0: no limit.
    pub max_websockets_per_ip: usize,
    /// Host names the server is reached by (the `Host` header), besides IP
    /// addresses, `localhost` and the hosts of `allowed_origins`; requests
    /// naming any other host are refused (DNS rebinding).
    pub public_hosts: Vec<String>,
    /// Reverse proxies (addresses or networks, `10.0.0.0/8`) whose
    /// `X-Forwarded-For` header names the client the limits count against.
    pub trusted_proxies: Vec<String>,
    /// Connections served at once; a further one waits up to
    /// `connection_wait` for a slot, then is refused with `503
    /// too_many_connections`. Lowered at start where the open-file limit
    /// (raised to its hard limit) has no room for so many.
    pub max_connections: usize,
    /// How long a connection over `max_connections` waits for a slot.
    pub connection_wait: Duration,
    /// The time a client has to send a request's header, and the time a
    /// connection may stay idle between requests.
    pub header_timeout: Duration,
    /// The time a client has to send a request's body.
    pub body_timeout: Duration,
    /// How often the server pings an open WebSocket.
    pub ws_ping_interval: Duration,
    /// An open WebSocket whose client sends nothing (no pong, no message)
    /// for this long is closed.
    pub ws_idle_timeout: Duration,
    /// The longest an analysis (`POST /api/analyze`) may think, whatever
    /// the request asks; `None`: as asked.
    pub max_analysis_time: Option<Duration>,
    /// Analyses of whole games (`POST /api/games/{id}/analysis`) running
    /// at once in this instance; a further one is answered `503
    /// engine_busy`.
    pub game_analysis_jobs: usize,
    /// The most moves of a game whose whole analysis may be asked.
    pub game_analysis_max_plies: usize,
    /// The time the clocks go by (the system's; tests and benchmarks give
    /// their own).
    pub time: clocks::Time,
    /// Tests only: the clocks go by the system's time plus an offset that
    /// `POST /api/test/clock {"advance_ms": N}` moves on (otherwise that
    /// endpoint does not exist).
    pub test_clock: bool,
    /// Accounts (names) that may build the perfect-play databases from the
    /// app ([`perfect_build`]); on a server listening on a loopback address
    /// only, requests from this machine may too.
    pub admins: Vec<String>,
    /// What a database build needs free before it starts (`None`: the
    /// build's estimate).
    pub build_needs: perfect_build::BuildNeeds,
}

impl Default for ServerConfig {
    fn default() -> ServerConfig {
        let limits = fair::AnalysisLimits::default();
        ServerConfig {
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            database_url: None,
            computer_lease: storage::StorageOptions::default().computer_lease,
            integrity_check: storage::DEFAULT_INTEGRITY_CHECK,
            computer_movetime_ms: None,
            engine_slots: None,
            analysis_slots: limits.analysis_slots,
            analyses_per_client: limits.per_client,
            analyses_per_ip: limits.per_ip,
            analysis_seconds_per_minute: limits.seconds_per_minute,
            analysis_queue: limits.queue,
            analysis_wait: limits.wait,
            allowed_origins: Vec::new(),
            games_per_minute: 60,
            logins_per_minute: 20,
            logins_per_name_per_minute: 5,
            wrong_tokens_per_minute: 30,
            max_connections_per_ip: 64,
            max_websockets_per_ip: 32,
            public_hosts: Vec::new(),
            trusted_proxies: Vec::new(),
            max_connections: 512,
            // Longer than the header deadline: a burst of half-open
            // connections is cleared by that deadline while a real request
            // still waits for its slot (docs/API.md).
            connection_wait: Duration::from_secs(15),
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(30),
            ws_ping_interval: Duration::from_secs(30),
            ws_idle_timeout: Duration::from_secs(90),
            max_analysis_time: None,
            game_analysis_jobs: 2,
            game_analysis_max_plies: 600,
            time: clocks::Time::default(),
            test_clock: false,
            admins: Vec::new(),
            build_needs: perfect_build::BuildNeeds::default(),
        }
    }
}

impl ServerConfig {
    /// The database URL in force.
    pub fn database_url(&self) -> String {
        self.database_url
            .clone()
            .unwrap_or_else(storage::default_database_url)
    }

    pub(crate) fn registry_config(&self) -> RegistryConfig {
        let mut c = RegistryConfig {
            computer_movetime: self.computer_movetime_ms.map(Duration::from_millis),
            max_analysis_time: self.max_analysis_time,
            analysis: fair::AnalysisLimits {
                analysis_slots: self.analysis_slots,
                per_client: self.analyses_per_client,
                per_ip: self.analyses_per_ip,
                seconds_per_minute: self.analysis_seconds_per_minute,
                queue: self.analysis_queue,
                wait: self.analysis_wait,
            },
            ..RegistryConfig::default()
        };
        if let Some(n) = self.engine_slots {
            c.engine_slots = n.max(1);
        }
        c
    }
}

/// The router: `/api/…` and the UI.
pub fn app(state: AppState) -> Router {
    Router::new()
        .nest("/api", api::routes())
        .merge(assets::routes())
        .layer(DefaultBodyLimit::max(error::BODY_LIMIT))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            guard::middleware,
        ))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            front::middleware,
        ))
        .layer(tower_http::trace::TraceLayer::new_for_http())
        .with_state(state)
}

/// A server running in the background.
pub struct RunningServer {
    /// The address it listens on.
    pub addr: SocketAddr,
    /// What its handlers share (the game registry, for tests).
    pub state: AppState,
    shutdown: Option<oneshot::Sender<()>>,
    task: JoinHandle<std::io::Result<()>>,
}

impl RunningServer {
    /// Stop: no new connections, sockets closed, searches stopped, requests
    /// in progress finished, the database closed.
    pub async fn stop(mut self) -> anyhow::Result<()> {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        let served = (&mut self.task).await;
        // The last word that a server ran: the time from here to the next
        // start is given back to the clocks (crate::clocks).
        let storage = self.state.registry.storage();
        let now = self.state.registry.time().now_ms();
        if let Err(e) = storage.clocks_alive(now, i64::MAX).await {
            tracing::warn!(error = %e, "saying when the server stopped failed");
        }
        storage.close().await;
        served.context("the server task")?.context("serving")?;
        Ok(())
    }

    /// Resolves when the server has stopped by itself (it does not, unless
    /// it fails).
    pub async fn wait(&mut self) -> anyhow::Result<()> {
        (&mut self.task)
            .await
            .context("the server task")?
            .context("serving")
    }
}

/// Open the database, resume computer games and serve on
/// `config.listen` in the background.
pub async fn start(config: ServerConfig) -> anyhow::Result<RunningServer> {
    let state = AppState::open(&config).await?;
    let listener = TcpListener::bind(config.listen)
        .await
        .with_context(|| format!("listening on {}", config.listen))?;
    let addr = listener.local_addr()?;
    if let Some(cluster) = &state.cluster {
        cluster.start().await;
    }
    match state.registry.resume_computer_games().await {
        Ok(0) => {}
        Ok(n) => tracing::info!("the computer resumes thinking in {n} game(s)"),
        Err(e) => tracing::warn!(error = %e, "could not resume computer games"),
    }
    let (tx, rx) = oneshot::channel::<()>();
    let router = app(state.clone()).layer(tower_http::timeout::RequestBodyTimeoutLayer::new(
        config.body_timeout,
    ));
    let stopping = state.clone();
    let limits = conn::Limits {
        max_connections: conn::fit_to_budget(config.max_connections, conn::open_file_budget()),
        header_timeout: config.header_timeout,
        connection_wait: config.connection_wait,
    };
    if limits.connection_wait <= limits.header_timeout {
        tracing::warn!(
            connection_wait = ?limits.connection_wait,
            header_timeout = ?limits.header_timeout,
            "--connection-wait is not longer than --header-timeout: a burst of half-open \
             connections can get real requests refused instead of delayed"
        );
    }
    let per_address = front::PerAddress::new(config.max_connections_per_ip);
    let front = state.front.clone();
    let exempt = move |ip| front.is_trusted(ip);
    let task = tokio::spawn(conn::serve(
        listener,
        router,
        limits,
        per_address,
        exempt,
        async move {
            let _ = rx.await;
            stopping.shutdown();
        },
    ));
    Ok(RunningServer {
        addr,
        state,
        shutdown: Some(tx),
        task,
    })
}

/// Serve until Ctrl-C (or SIGTERM), then shut down gracefully.
pub async fn run(config: ServerConfig) -> anyhow::Result<()> {
    let url = config.database_url();
    if let Some(warning) = exposure_warning(&config) {
        tracing::warn!("{warning}");
    }
    let mut server = start(config).await?;
    let database = storage::redact_url(&url);
    tracing::info!(%database, "brett listens on http://{}", server.addr);
    tokio::select! {
        r = server.wait() => return r,
        _ = shutdown_signal() => {}
    }
    tracing::info!("shutting down");
    server.stop().await
}

/// What to say when the server listens beyond this machine (`--listen
/// 0.0.0.0:8080`, a LAN address): who can reach it, and what protects it.
pub fn exposure_warning(config: &ServerConfig) -> Option<String> {
    let ip = config.listen.ip();
    if ip.is_loopback() {
        return None;
    }
    let which = if ip.is_unspecified() {
        "every network interface".to_string()
    } else {
        format!("the address {ip}")
    };
    let names = if config.public_hosts.is_empty() {
        "it answers only to IP addresses and localhost: give the name it is reached by with \
         --public-host NAME"
            .to_string()
    } else {
        format!("it answers to {}", config.public_hosts.join(", "))
    };
    Some(format!(
        "listening on {which} ({}): anyone who can reach this machine can open the app, \
         play and see the archive. What protects it: seat tokens for every change, origin and \
         Host checks (against other web sites and DNS rebinding; {names}), per-address \
         connection, WebSocket and rate limits. There is no TLS (passwords and login cookies \
         of accounts go in clear): on a network you do not trust, put it behind a reverse \
         proxy with TLS (docs/INSTANCES.md) and keep it on 127.0.0.1",
        config.listen
    ))
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {}
        _ = term => {}
    }
}
