//! The computer player: when it is the computer's turn in a game, its
//! search runs on a blocking thread (in an engine slot, before analyses:
//! crate::fair); the move it finds is stored and broadcast like any other
//! change (crate::registry) unless the game changed meanwhile. Its
//! thinking time by level.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Weak};
use std::time::Duration;

use crate::cluster::{Lease, Leases};
use crate::fair::Scheduler;
use crate::game::LiveGame;
use crate::registry::{ComputerSeat, Entry, GameRegistry, Live, MAX_GAME_PLIES, Step};
use crate::storage::MoveChange;

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

/// The computer player of every game with a computer seat.
pub struct ComputerService {
    /// The games it plays in.
    registry: Arc<GameRegistry>,
    /// The engine slots it shares with the analyses.
    engine: Arc<Scheduler>,
    /// Who searches a game's move when several instances share the
    /// database.
    leases: Leases,
    /// The thinking time per move; `None`: by level.
    movetime: Option<Duration>,
    /// Itself, for the searches it spawns.
    me: Weak<ComputerService>,
}

impl ComputerSeat for ComputerService {
    /// If it is the computer's turn and it is not thinking yet, start its
    /// search; its move is stored and broadcast when found.
    fn consider(&self, entry: &Arc<Entry>, live: &mut Live) {
        if live.thinking.is_some()
            || live.game.ending().is_some()
            || self.registry.is_closing()
            || live.game.ply() >= MAX_GAME_PLIES
        {
            return;
        }
        let side = live.game.turn();
        let Some(level) = live.seats[side.index()].level else {
            return;
        };
        let Some(me) = self.me.upgrade() else { return };
        let stop = Arc::new(AtomicBool::new(false));
        live.thinking = Some(stop.clone());
        let version = live.version;
        let game = live.game.clone();
        let mut movetime = self.movetime.unwrap_or_else(|| level_movetime(level));
        if let Some(c) = live.clock {
            // On the clock: a share of its time left, counted from the start
            // of its turn (crate::clocks::computer_movetime).
            let left = c
                .clock
                .left_after(side, c.elapsed(self.registry.time().now_ms()));
            let control = c.clock.control;
            movetime = crate::clocks::computer_movetime(
                movetime,
                left,
                control.initial_ms().unwrap_or(0),
                control.increment_ms(),
            );
        }
        let entry = entry.clone();
        tokio::spawn(async move {
            // Several instances on one database: only the holder of the
            // game's lease searches (crate::cluster).
            let lease = match me.leases.take(entry.id).await {
                Ok(Lease::Elsewhere) => return,
                Ok(lease) => lease,
                Err(e) => {
                    tracing::error!(game = entry.id, error = %e, "taking the computer's lease failed");
                    return me.finish(&entry, version, &stop, Err(())).await;
                }
            };
            let chosen = me.search(game, level, movetime, stop.clone()).await;
            me.finish(&entry, version, &stop, Ok(chosen)).await;
            me.leases
                .release(entry.id, lease, me.registry.is_closing())
                .await;
        });
    }
}

impl ComputerService {
    /// The computer player of the games of `registry`, searching in the
    /// slots of `engine` (`movetime` per move; `None`: by level); it moves
    /// from now on.
    pub fn start(
        registry: Arc<GameRegistry>,
        engine: Arc<Scheduler>,
        leases: Leases,
        movetime: Option<Duration>,
    ) -> Arc<ComputerService> {
        let computer = Arc::new_cyclic(|me| ComputerService {
            registry,
            engine,
            leases,
            movetime,
            me: me.clone(),
        });
        let seat: Weak<dyn ComputerSeat> = computer.me.clone();
        computer.registry.seat_computer(seat);
        computer
    }

    async fn search(
        &self,
        game: LiveGame,
        level: u8,
        movetime: Duration,
        stop: Arc<AtomicBool>,
    ) -> Option<String> {
        // Computer moves go before analyses (crate::fair).
        let slot = self.engine.computer().await?;
        let _guard = self.engine.register_search(stop.clone());
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

    async fn finish(
        &self,
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
        if self.registry.is_closing() {
            return;
        }
        let Ok(mv) = mv else {
            // No search (its lease could not be taken): try again later.
            live.stale = true;
            self.retry(entry);
            return;
        };
        let Some(mv) = mv.filter(|_| live.game.ending().is_none()) else {
            GameRegistry::broadcast(entry, live);
            return;
        };
        let mut next = live.game.clone();
        let change = match next.play(&mv) {
            Ok(Some(stored)) => MoveChange::Append(stored),
            Ok(None) => MoveChange::Keep,
            Err(e) => {
                tracing::error!(game = entry.id, %mv, error = %e, "the computer chose an illegal move");
                GameRegistry::broadcast(entry, live);
                return;
            }
        };
        match self
            .registry
            .commit(entry, live, Step::new(next, change))
            .await
        {
            Ok(_) => tracing::debug!(game = entry.id, %mv, "computer move"),
            Err(e) => {
                // Not stored, so not played, kept or broadcast: the game is
                // read again from storage and the computer searches anew,
                // at the next request or when the retry comes.
                tracing::error!(game = entry.id, error = %e, "storing the computer's move failed");
                self.retry(entry);
            }
        }
    }

    /// After the computer's move could not be stored: reload the game
    /// (which restarts the search) after a pause, until it works, a request
    /// did it meanwhile, or the server stops.
    fn retry(&self, entry: &Arc<Entry>) {
        let registry = self.registry.clone();
        let entry = entry.clone();
        let mut closing = registry.closing();
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
                        GameRegistry::broadcast(&entry, live);
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
