//! The computer player: when it is the computer's turn in a game, its
//! search runs on a blocking thread (in an engine slot, before analyses:
//! crate::fair); the move it finds is stored and broadcast unless the game
//! changed meanwhile. Its thinking time and display name by level.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::game::LiveGame;
use crate::registry::{Entry, GameRegistry, Live};
use crate::storage::MoveChange;
use crate::util::now_rfc3339;

/// How long the computer waits before trying again when its move could not
/// be stored.
const COMPUTER_RETRY: Duration = Duration::from_secs(2);

/// The computer's thinking time at `level`.
pub fn level_movetime(level: u8) -> Duration {
    match level {
        10.. => Duration::from_millis(1500),
        l => Duration::from_millis(300 + 87 * u64::from(l.saturating_sub(1))),
    }
}

impl GameRegistry {
    /// If it is the computer's turn and it is not thinking yet, start its
    /// search; its move is stored and broadcast when found.
    pub(crate) fn start_computer(self: &Arc<Self>, entry: &Arc<Entry>, live: &mut Live) {
        if live.thinking.is_some()
            || live.game.ending().is_some()
            || self.is_closing()
            || live.game.ply() >= crate::registry::MAX_GAME_PLIES
        {
            return;
        }
        let side = live.game.turn();
        let Some(level) = live.seats[side.index()].level else {
            return;
        };
        let stop = Arc::new(AtomicBool::new(false));
        live.thinking = Some(stop.clone());
        let version = live.version;
        let game = live.game.clone();
        let movetime = self
            .config
            .computer_movetime
            .unwrap_or_else(|| level_movetime(level));
        let registry = self.clone();
        let entry = entry.clone();
        tokio::spawn(async move {
            // Several instances on one database: only the holder of the
            // game's lease searches (crate::cluster).
            let lease = match crate::cluster::take_lease(registry.storage().as_ref(), entry.id)
                .await
            {
                Ok(crate::cluster::Lease::Elsewhere) => return,
                Ok(lease) => lease,
                Err(e) => {
                    tracing::error!(game = entry.id, error = %e, "taking the computer's lease failed");
                    return registry
                        .finish_computer(&entry, version, &stop, Err(()))
                        .await;
                }
            };
            let chosen = registry
                .computer_search(game, level, movetime, stop.clone())
                .await;
            registry
                .finish_computer(&entry, version, &stop, Ok(chosen))
                .await;
            crate::cluster::release_lease(&registry, entry.id, lease).await;
        });
    }

    async fn computer_search(
        &self,
        game: LiveGame,
        level: u8,
        movetime: Duration,
        stop: Arc<AtomicBool>,
    ) -> Option<String> {
        // Computer moves go before analyses (crate::fair).
        let slot = self.engine.computer().await?;
        let _guard = self.register_search(stop.clone());
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let seed = fastrand::u64(..);
        // The slot is given back when the search has ended, not before.
        let result = tokio::task::spawn_blocking(move || {
            let mv = game.choose_move(level, seed, movetime, &stop);
            drop(slot);
            mv
        })
        .await;
        match result {
            Ok(mv) => mv,
            Err(e) => {
                tracing::error!(error = %e, "computer search failed");
                None
            }
        }
    }

    async fn finish_computer(
        self: &Arc<Self>,
        entry: &Arc<Entry>,
        version: u64,
        stop: &Arc<AtomicBool>,
        mv: Result<Option<String>, ()>,
    ) {
        let mut guard = entry.state.lock().await;
        let Some(live) = guard.as_mut() else { return };
        // Only the search in force may move: a change of the moves (a
        // takeback), the end of the game or a reload called it off and
        // cleared it (and started another search if needed).
        let in_force = live.thinking.as_ref().is_some_and(|t| Arc::ptr_eq(t, stop));
        if !in_force || live.version != version {
            return;
        }
        live.thinking = None;
        if self.is_closing() {
            return;
        }
        let Ok(mv) = mv else {
            // No search (its lease could not be taken): try again later.
            live.stale = true;
            self.retry_computer(entry);
            return;
        };
        let Some(mv) = mv.filter(|_| live.game.ending().is_none()) else {
            Self::broadcast(entry, live);
            return;
        };
        let expected = live.expected();
        let mut next = live.game.clone();
        let change = match next.play(&mv) {
            Ok(Some(stored)) => MoveChange::Append(stored),
            Ok(None) => MoveChange::Keep,
            Err(e) => {
                tracing::error!(game = entry.id, %mv, error = %e, "the computer chose an illegal move");
                Self::broadcast(entry, live);
                return;
            }
        };
        let now = now_rfc3339();
        let meta = live.meta(&next, &now);
        match self
            .storage()
            .update_game(entry.id, expected, change, meta)
            .await
        {
            Ok(stored_version) => {
                live.stored_version = stored_version;
                live.game = next;
                live.updated_at = now;
                live.version = self.next_version();
                tracing::debug!(game = entry.id, %mv, "computer move");
            }
            Err(e) => {
                // Not stored, so not played, kept or broadcast: the game is
                // read again from storage and the computer searches anew,
                // at the next request or when the retry comes.
                tracing::error!(game = entry.id, error = %e, "storing the computer's move failed");
                live.stale = true;
                self.retry_computer(entry);
                return;
            }
        }
        Self::broadcast(entry, live);
    }

    /// After the computer's move could not be stored: reload the game
    /// (which restarts the search) after a pause, until it works, a request
    /// did it meanwhile, or the server stops.
    fn retry_computer(self: &Arc<Self>, entry: &Arc<Entry>) {
        let registry = self.clone();
        let entry = entry.clone();
        let mut closing = self.closing();
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    _ = tokio::time::sleep(COMPUTER_RETRY) => {}
                    _ = closing.changed() => return,
                }
                if registry.is_closing() {
                    return;
                }
                let mut guard = entry.state.lock().await;
                if guard.as_ref().is_some_and(|l| !l.stale) {
                    return;
                }
                match registry.load(&entry, &mut guard).await {
                    Ok(live) => {
                        Self::broadcast(&entry, live);
                        return;
                    }
                    Err(e) => {
                        tracing::warn!(game = entry.id, error = %e, "reloading the game failed; retrying")
                    }
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thinking_time_grows_with_the_level() {
        assert_eq!(level_movetime(1), Duration::from_millis(300));
        assert_eq!(level_movetime(9), Duration::from_millis(996));
        assert_eq!(level_movetime(10), Duration::from_millis(1500));
    }
}
