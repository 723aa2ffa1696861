//! Several `brett serve` instances on one PostgreSQL database
//! (docs/INSTANCES.md): what one instance stores reaches the sockets of
//! the others, and the computer's move of a game is searched by exactly
//! one of them.
//!
//! - Changes: each instance listens on the database's notification
//!   channel ([`Cluster::listen`]); a change stored by another instance
//!   makes it read the game anew (if it has it in memory) and send it to
//!   its sockets. After the listening connection was lost, every game in
//!   memory is read anew.
//! - Computer moves: an instance searches a computer move only while it
//!   holds the game's lease ([`Cluster::take_lease`]), renewed while it
//!   lives; the leases of an instance that died (or lost the database)
//!   expire, and another instance takes the game over.
//! - Concurrency: every change names the stored game's version it was
//!   made on, and bumps it (crate::storage::Expected); of two changes
//!   made on the same version, on one instance or two, one is stored and
//!   the other answers `stale_ply`.
//!
//! With SQLite (one instance) there is no [`Cluster`] and nothing here
//! runs: [`ClusterService::of`] gives none and every [`Leases::take`] is
//! [`Lease::Alone`].

use std::sync::Arc;
use std::time::Duration;

use futures_util::future::BoxFuture;

use crate::lobby::Lobby;
use crate::registry::GameRegistry;
use crate::storage::{Cluster, ClusterEvent, Storage, StorageError};

/// How long [`ClusterService::start`] waits for the listening connection
/// before serving.
const LISTEN_WAIT: Duration = Duration::from_secs(10);

/// Who searches a computer move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lease {
    /// One instance only (no cluster): this one.
    Alone,
    /// This instance, with the lease taken with this token.
    Held(u64),
    /// Another instance holds the lease.
    Elsewhere,
}

/// The leases of the computer moves, for the computer player: with a
/// shared storage, the move of a game is searched by the instance that
/// holds its lease.
#[derive(Clone)]
pub struct Leases {
    storage: Arc<dyn Storage>,
}

impl Leases {
    /// The leases kept in `storage` (none unless it is shared).
    pub fn new(storage: Arc<dyn Storage>) -> Leases {
        Leases { storage }
    }

    /// Take the lease of game `game`'s computer move, if the storage is
    /// shared.
    pub(crate) async fn take(&self, game: i64) -> Result<Lease, StorageError> {
        let Some(cluster) = self.storage.cluster() else {
            return Ok(Lease::Alone);
        };
        Ok(match cluster.take_lease(game).await? {
            Some(token) => Lease::Held(token),
            None => {
                tracing::debug!(game, "another instance searches the computer's move");
                Lease::Elsewhere
            }
        })
    }

    /// The search of a lease holder ended: give the lease up, unless the
    /// server is `closing` (then closing the storage lets the leases
    /// expire, for another instance to take over).
    pub(crate) async fn release(&self, game: i64, lease: Lease, closing: bool) {
        if let (Lease::Held(token), Some(cluster)) = (lease, self.storage.cluster())
            && !closing
        {
            cluster.release_lease(game, token).await;
        }
    }
}

/// This instance among the others on a shared storage: it hears their
/// changes and keeps, renews and takes over the computer leases.
pub struct ClusterService {
    /// The games in memory here, read anew when another instance changes
    /// them.
    registry: Arc<GameRegistry>,
    /// The lobby here, told the lobby messages of the others.
    lobby: Arc<Lobby>,
}

impl ClusterService {
    /// The service of `registry`'s storage if that is shared (`None`:
    /// one instance only).
    pub fn of(registry: &Arc<GameRegistry>, lobby: Arc<Lobby>) -> Option<ClusterService> {
        registry.storage().cluster()?;
        Some(ClusterService {
            registry: registry.clone(),
            lobby,
        })
    }

    /// The storage's side of the cluster.
    fn cluster(&self) -> Option<&dyn Cluster> {
        self.registry.storage().cluster()
    }

    /// Listen for the changes of other instances (the first connection
    /// established before this returns), renew this instance's leases and
    /// take over the expired ones, until the registry closes.
    pub async fn start(&self) {
        let Some(cluster) = self.cluster() else {
            return;
        };
        let hub = &self.registry;
        let lease = cluster.lease_duration();
        tracing::info!(
            instance = cluster.instance(),
            lease_ms = lease.as_millis() as u64,
            "sharing the database with other instances"
        );
        let (tx, mut rx) = tokio::sync::mpsc::channel(1024);
        tokio::spawn(cluster.listen(tx, hub.closing()));
        match tokio::time::timeout(LISTEN_WAIT, rx.recv()).await {
            Ok(Some(ClusterEvent::Listening)) => {}
            Ok(other) => tracing::warn!(?other, "unexpected first event of the listener"),
            Err(_) => tracing::warn!("not listening for changes yet; serving anyway"),
        }
        let h = hub.clone();
        let lobby = self.lobby.clone();
        tokio::spawn(async move {
            while let Some(event) = rx.recv().await {
                match event {
                    ClusterEvent::Changed(change) => {
                        let h = h.clone();
                        tokio::spawn(async move { h.refresh(change.game, false).await });
                    }
                    ClusterEvent::Chat { game, message } => {
                        let h = h.clone();
                        tokio::spawn(async move { crate::chat::forward(&h, game, message).await });
                    }
                    ClusterEvent::Lobby(message) => lobby.heard(&message),
                    ClusterEvent::Resync | ClusterEvent::Listening => {
                        for id in h.live_game_ids() {
                            let h = h.clone();
                            tokio::spawn(async move { h.refresh(id, false).await });
                        }
                    }
                }
            }
        });
        every(hub, lease / 3, |_, c| {
            Box::pin(async move {
                if let Err(e) = c.renew_leases().await {
                    tracing::warn!(error = %e, "renewing the computer leases failed");
                }
            })
        });
        every(hub, lease / 2, |hub, c| {
            Box::pin(async move {
                match c.claim_expired_leases().await {
                    Ok(games) => {
                        for (game, token) in games {
                            tracing::info!(
                                game,
                                "taking over the computer's move of another instance"
                            );
                            // Reading the game starts the computer if it is
                            // to move, under a lease of its own.
                            hub.refresh(game, true).await;
                            if !hub.is_closing() {
                                c.release_lease(game, token).await;
                            }
                        }
                    }
                    Err(e) => {
                        tracing::warn!(error = %e, "looking for expired computer leases failed")
                    }
                }
            })
        });
    }
}

/// Run `work` every `period` (with a little jitter) until the hub closes.
fn every(
    hub: &Arc<GameRegistry>,
    period: Duration,
    work: impl for<'a> Fn(&'a Arc<GameRegistry>, &'a dyn Cluster) -> BoxFuture<'a, ()> + Send + 'static,
) {
    let hub = hub.clone();
    let mut closing = hub.closing();
    let period = period.max(Duration::from_millis(20));
    tokio::spawn(async move {
        loop {
            let jitter = period.mul_f64(fastrand::f64() * 0.2);
            tokio::select! {
                _ = tokio::time::sleep(period - period / 10 + jitter) => {}
                _ = closing.changed() => return,
            }
            if hub.is_closing() {
                return;
            }
            let Some(cluster) = hub.storage().cluster() else {
                return;
            };
            work(&hub, cluster).await;
        }
    });
}
