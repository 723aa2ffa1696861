//! What the handlers share: the game registry and the services beside it
//! (the computer player, the analyses, the cluster of instances), the
//! request guard (origins, rate limits) and the WebSocket keep-alive.

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;

use crate::account::Accounts;
use crate::analysis::AnalysisService;
use crate::clocks::{self, ClockService};
use crate::cluster::{ClusterService, Leases};
use crate::computer::ComputerService;
use crate::fair::Scheduler;
use crate::front::{Front, PerAddress};
use crate::game_analysis::{GameAnalyses, JobLimits};
use crate::lobby::Lobby;
use crate::registry::GameRegistry;
use crate::{ServerConfig, guard, storage, ws};

/// What the handlers share.
#[derive(Clone)]
pub struct AppState {
    /// The live games.
    pub registry: Arc<GameRegistry>,
    /// The computer player, owned here: the registry, which tells it of
    /// the games, holds it weakly.
    #[allow(dead_code)]
    computer: Arc<ComputerService>,
    /// The clocks, owned here: the registry, which tells them of the
    /// deadlines, holds them weakly.
    #[allow(dead_code)]
    clocks: Arc<ClockService>,
    /// The lobby's sockets.
    pub lobby: Arc<Lobby>,
    /// The analyses (`POST /api/analyze`).
    pub(crate) analysis: Arc<AnalysisService>,
    /// The analyses of whole games (`/api/games/{id}/analysis`).
    pub(crate) game_analyses: Arc<GameAnalyses>,
    /// This instance among others on a shared database, if it is shared.
    pub(crate) cluster: Option<Arc<ClusterService>>,
    /// The engine slots of the computer player and the analyses.
    pub(crate) engine: Arc<Scheduler>,
    pub(crate) guard: Arc<guard::Guard>,
    /// The accounts' password hashing and login limits.
    pub accounts: Arc<Accounts>,
    pub(crate) front: Arc<Front>,
    /// The open WebSockets of each client address.
    pub(crate) websockets: Arc<PerAddress>,
    pub(crate) ws: ws::Keepalive,
    /// `--test-clock`: the clock `POST /api/test/clock` moves on.
    pub(crate) test_clock: Option<Arc<clocks::OffsetClock>>,
    /// Building the perfect-play databases from the app.
    pub(crate) builds: Arc<crate::perfect_build::Builds>,
}

impl AppState {
    /// Open the database (creating and migrating it) and the game registry.
    pub async fn open(config: &ServerConfig) -> anyhow::Result<AppState> {
        let guard = guard::Guard::new(
            &config.allowed_origins,
            config.games_per_minute,
            config.wrong_tokens_per_minute,
        )?;
        let front = Front::new(
            &config.public_hosts,
            &config.allowed_origins,
            &config.trusted_proxies,
        )?;
        let url = config.database_url();
        let options = storage::StorageOptions {
            computer_lease: config.computer_lease,
            integrity_check: config.integrity_check,
        };
        let storage = storage::open_with(&url, &options)
            .await
            .with_context(|| format!("opening the database {}", storage::redact_url(&url)))?;
        let settings = config.registry_config();
        let test_clock = config.test_clock.then(clocks::OffsetClock::new);
        let time = match &test_clock {
            Some(c) => clocks::Time(c.clone()),
            None => config.time.clone(),
        };
        // Every server was down: the time since is given back to the
        // clocks before any game is read (crate::clocks).
        let given = storage
            .clocks_alive(time.now_ms(), clocks::DOWN_AFTER_MS)
            .await
            .context("restoring the clocks")?;
        if given > 0 {
            tracing::info!(
                "the clocks of running games get back the {:.1} s no server ran",
                given as f64 / 1000.0
            );
        }
        let registry = GameRegistry::with_time(storage.clone(), time.clone());
        let clocks = ClockService::start(&registry, time);
        let engine = Scheduler::new(settings.engine_slots, settings.analysis.clone());
        let computer = ComputerService::start(
            registry.clone(),
            engine.clone(),
            Leases::new(storage),
            settings.computer_movetime,
        );
        let lobby = Lobby::start(registry.clone());
        Ok(AppState {
            cluster: ClusterService::of(&registry, lobby.clone()).map(Arc::new),
            lobby,
            analysis: Arc::new(AnalysisService::new(
                engine.clone(),
                settings.max_analysis_time,
            )),
            game_analyses: GameAnalyses::new(
                registry.clone(),
                engine.clone(),
                JobLimits {
                    jobs: config.game_analysis_jobs,
                    max_plies: config.game_analysis_max_plies,
                    max_time: settings.max_analysis_time,
                },
            ),
            computer,
            clocks,
            engine,
            registry,
            guard: Arc::new(guard),
            accounts: Arc::new(Accounts::new(
                config.logins_per_minute,
                config.logins_per_name_per_minute,
            )),
            front: Arc::new(front),
            websockets: PerAddress::new(config.max_websockets_per_ip),
            ws: ws::Keepalive {
                ping_interval: config.ws_ping_interval.max(Duration::from_millis(1)),
                idle_timeout: config.ws_idle_timeout.max(Duration::from_millis(1)),
            },
            test_clock,
            builds: Arc::new(crate::perfect_build::Builds::new(
                config.listen.ip(),
                &config.admins,
                config.build_needs,
            )),
        })
    }

    /// Stop: sockets close, searches stop, no computer move is stored
    /// any more.
    pub fn shutdown(&self) {
        self.registry.shutdown();
        self.engine.close();
    }
}
