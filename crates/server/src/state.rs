//! What the handlers share: the game registry, the request guard (origins,
//! rate limits) and the WebSocket keep-alive.

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;

use crate::front::{Front, PerAddress};
use crate::registry::GameRegistry;
use crate::{ServerConfig, guard, storage, ws};

/// What the handlers share.
#[derive(Clone)]
pub struct AppState {
    /// The live games.
    pub registry: Arc<GameRegistry>,
    pub(crate) guard: Arc<guard::Guard>,
    pub(crate) front: Arc<Front>,
    /// The open WebSockets of each client address.
    pub(crate) websockets: Arc<PerAddress>,
    pub(crate) ws: ws::Keepalive,
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
        Ok(AppState {
            registry: GameRegistry::new(storage, config.registry_config()),
            guard: Arc::new(guard),
            front: Arc::new(front),
            websockets: PerAddress::new(config.max_websockets_per_ip),
            ws: ws::Keepalive {
                ping_interval: config.ws_ping_interval.max(Duration::from_millis(1)),
                idle_timeout: config.ws_idle_timeout.max(Duration::from_millis(1)),
            },
        })
    }
}
