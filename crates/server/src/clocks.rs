//! Clocks: the server's time ([`TimeSource`]), a game's running clock
//! ([`GameClock`]) and the service that ends games whose time ran out
//! ([`ClockService`]).
//!
//! The server's clock is the only clock (docs/API.md, "Clocks"): a move's
//! thinking time runs from the moment the previous move was stored to the
//! moment this one arrives, less the network lag the client reports, up to
//! [`LAG_CREDIT_CAP_MS`]. Every running game has one deadline (its side to
//! move's flag, or an online game's first move); the service holds them
//! all in one ordered set, sleeps until the earliest, and ends the game
//! through the registry's one path of changes. Several instances on one
//! database each hold the deadlines of the games they know and look for
//! due ones in the database every [`SWEEP`]; a game's end is stored once,
//! by whichever instance comes first (the version check of
//! [`crate::storage::Storage::update_game`]).

use std::collections::{BTreeSet, HashMap};
use std::fmt;
use std::sync::{Arc, Weak};
use std::time::Duration;

use futures_util::future::BoxFuture;
use serde::Serialize;
use tokio::sync::{mpsc, watch};

use crate::game::{Clock, Color, TimeControl};
use crate::registry::GameRegistry;
use crate::storage::{ClockMeta, RemotePresence};

/// The most network lag credited to one move.
pub const LAG_CREDIT_CAP_MS: u64 = 500;

/// An online live game is aborted when a side's first move has not come
/// this long after its turn began.
pub const FIRST_MOVE_MS: i64 = 30_000;

/// A player whose opponent has had no connection to a live game for this
/// long may claim the win or a draw.
pub const ABANDON_MS: i64 = 30_000;

/// The time "give time" adds to the opponent's clock in a live game; a
/// correspondence game gets a day.
pub const EXTRA_TIME_MS: u64 = 15_000;

/// How often a server says it runs (and, on a shared database, looks for
/// due deadlines stored by others and renews its count of sockets).
pub const SWEEP: Duration = Duration::from_secs(1);

/// How often a server looks for invitations that expire.
pub const INVITATION_SWEEP_MS: i64 = 60_000;

/// A server not heard of for this long was down: when one starts after
/// that, the time since is given back to the clocks (a running server only
/// says it runs).
pub const DOWN_AFTER_MS: i64 = 3_000;

/// The server's time: milliseconds since the Unix epoch, and a way to
/// wait for a moment of it.
pub trait TimeSource: Send + Sync + 'static {
    /// Now.
    fn now_ms(&self) -> i64;
    /// Resolves at `at_ms` (at once if it is past).
    fn sleep_until(&self, at_ms: i64) -> BoxFuture<'static, ()>;
}

/// The system's clock.
struct SystemClock;

impl TimeSource for SystemClock {
    fn now_ms(&self) -> i64 {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        i64::try_from(now.as_millis()).unwrap_or(i64::MAX)
    }

    fn sleep_until(&self, at_ms: i64) -> BoxFuture<'static, ()> {
        let wait = u64::try_from(at_ms.saturating_sub(self.now_ms())).unwrap_or(0);
        Box::pin(tokio::time::sleep(Duration::from_millis(wait)))
    }
}

/// A clock that moves only when told to (tests, benchmarks).
pub struct ManualClock {
    now: watch::Sender<i64>,
}

impl ManualClock {
    /// A clock standing at `start_ms`.
    pub fn new(start_ms: i64) -> Arc<ManualClock> {
        Arc::new(ManualClock {
            now: watch::channel(start_ms).0,
        })
    }

    /// Move the clock on by `ms`.
    pub fn advance(&self, ms: i64) {
        self.now.send_modify(|t| *t += ms);
    }
}

impl TimeSource for ManualClock {
    fn now_ms(&self) -> i64 {
        *self.now.borrow()
    }

    fn sleep_until(&self, at_ms: i64) -> BoxFuture<'static, ()> {
        let mut rx = self.now.subscribe();
        Box::pin(async move {
            let _ = rx.wait_for(|now| *now >= at_ms).await;
        })
    }
}

/// The system's clock moved on by an offset that only grows when told to
/// (`brett serve --test-clock`: browser tests end a correspondence game on
/// time without waiting days). Waits end early when the offset grows.
pub struct OffsetClock {
    offset: watch::Sender<i64>,
}

impl OffsetClock {
    /// The system's clock, no offset yet.
    pub fn new() -> Arc<OffsetClock> {
        Arc::new(OffsetClock {
            offset: watch::channel(0).0,
        })
    }

    /// Move the clock on by `ms` (at least 0); returns the time now.
    pub fn advance(&self, ms: i64) -> i64 {
        self.offset
            .send_modify(|o| *o = o.saturating_add(ms.max(0)));
        self.now_ms()
    }
}

impl TimeSource for OffsetClock {
    fn now_ms(&self) -> i64 {
        SystemClock.now_ms().saturating_add(*self.offset.borrow())
    }

    fn sleep_until(&self, at_ms: i64) -> BoxFuture<'static, ()> {
        let mut rx = self.offset.subscribe();
        Box::pin(async move {
            loop {
                let now = SystemClock.now_ms().saturating_add(*rx.borrow_and_update());
                if now >= at_ms {
                    return;
                }
                let wait = Duration::from_millis(u64::try_from(at_ms - now).unwrap_or(0));
                tokio::select! {
                    () = tokio::time::sleep(wait) => {}
                    changed = rx.changed() => {
                        if changed.is_err() {
                            tokio::time::sleep(wait).await;
                            return;
                        }
                    }
                }
            }
        })
    }
}

/// The time the server goes by.
#[derive(Clone)]
pub struct Time(pub Arc<dyn TimeSource>);

impl Time {
    /// Now, in milliseconds since the Unix epoch.
    pub fn now_ms(&self) -> i64 {
        self.0.now_ms()
    }
}

impl Default for Time {
    fn default() -> Time {
        Time(Arc::new(SystemClock))
    }
}

impl fmt::Debug for Time {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Time({})", self.now_ms())
    }
}

/// A timed game's clock in memory: the remaining times as of the start of
/// the turn being played, and when that turn started (`None`: no clock
/// runs yet, or any more).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameClock {
    /// The control and both times left.
    pub clock: Clock,
    /// When the turn being played started.
    pub turn_started_at: Option<i64>,
}

/// Where a game stands with its clock, for [`GameClock::deadline`].
#[derive(Clone, Copy, Debug)]
pub struct ClockView {
    /// The side to move.
    pub turn: Color,
    /// Whether each side's first move is still to come (the first two
    /// plies): the clock does not run; an online game is aborted if it
    /// takes too long.
    pub first_moves: bool,
    /// An online game (first moves are on a deadline).
    pub online: bool,
    /// The game is over.
    pub over: bool,
}

impl GameClock {
    /// A new game's clock, running from `started` (`None`: not yet).
    pub fn new(control: TimeControl, started: Option<i64>) -> Option<GameClock> {
        Some(GameClock {
            clock: Clock::new(control)?,
            turn_started_at: started,
        })
    }

    /// The clock as stored.
    pub fn from_meta(meta: &ClockMeta) -> Option<GameClock> {
        let control: TimeControl = meta.control.parse().ok()?;
        let ms = |i: usize| u64::try_from(meta.remaining_ms[i]).unwrap_or(0);
        Some(GameClock {
            clock: Clock {
                control,
                remaining_ms: [ms(0), ms(1)],
            },
            turn_started_at: meta.turn_started_at,
        })
    }

    /// The clock to store, with its deadline.
    pub fn to_meta(&self, view: ClockView) -> ClockMeta {
        let ms = |i: usize| i64::try_from(self.clock.remaining_ms[i]).unwrap_or(i64::MAX);
        ClockMeta {
            control: self.clock.control.to_string(),
            remaining_ms: [ms(0), ms(1)],
            turn_started_at: self.turn_started_at,
            deadline: self.deadline(view),
        }
    }

    /// The time an online game's first move may take.
    pub fn first_move_ms(&self) -> i64 {
        match self.clock.control {
            TimeControl::Correspondence { days } => {
                i64::from(days) * crate::game::clock::DAY_MS as i64
            }
            _ => FIRST_MOVE_MS,
        }
    }

    /// When something happens by the clock alone: the side to move's flag
    /// falls, or an online game's first move is overdue.
    pub fn deadline(&self, view: ClockView) -> Option<i64> {
        if view.over {
            return None;
        }
        let started = self.turn_started_at?;
        if view.first_moves {
            return view.online.then(|| started + self.first_move_ms());
        }
        let left = i64::try_from(self.clock.remaining_ms[view.turn.index()]).unwrap_or(i64::MAX);
        Some(started.saturating_add(left))
    }

    /// The time the side to move has used of its turn at `now`.
    pub fn elapsed(&self, now: i64) -> u64 {
        self.turn_started_at
            .map_or(0, |t| u64::try_from(now - t).unwrap_or(0))
    }

    /// Both times at `now`, as the state shows them: the running side's
    /// less its turn so far.
    pub fn at(&self, now: i64, view: ClockView) -> [u64; 2] {
        let mut ms = self.clock.remaining_ms;
        if !view.over && !view.first_moves {
            let i = view.turn.index();
            ms[i] = ms[i].saturating_sub(self.elapsed(now));
        }
        ms
    }
}

/// The `clock` of a game's state (docs/API.md, "Clocks").
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ClockState {
    /// The control's text form (`5+3`, `3d`).
    pub control: String,
    /// `live` or `correspondence`.
    pub kind: &'static str,
    /// The time each side started with.
    pub initial_ms: u64,
    /// The time added after each move.
    pub increment_ms: u64,
    /// White's time left, now.
    pub white_ms: u64,
    /// Black's time left, now.
    pub black_ms: u64,
    /// The side whose clock runs.
    pub running: Option<Color>,
    /// An online game's first moves: the time left until it is aborted.
    pub abort_in_ms: Option<u64>,
    /// How long an opponent may be away before the game can be claimed.
    pub claim_after_ms: u64,
}

impl ClockState {
    /// The state of `clock` at `now`.
    pub fn new(clock: &GameClock, now: i64, view: ClockView) -> ClockState {
        let c = clock.clock;
        let [white_ms, black_ms] = clock.at(now, view);
        let running = clock.turn_started_at.is_some() && !view.over && !view.first_moves;
        let abort_in_ms = match clock.deadline(view) {
            Some(d) if view.first_moves => Some(u64::try_from(d - now).unwrap_or(0)),
            _ => None,
        };
        ClockState {
            control: c.control.to_string(),
            kind: if c.control.is_live() {
                "live"
            } else {
                "correspondence"
            },
            initial_ms: c.control.initial_ms().unwrap_or(0),
            increment_ms: c.control.increment_ms(),
            white_ms,
            black_ms,
            running: running.then_some(view.turn),
            abort_in_ms,
            claim_after_ms: ABANDON_MS as u64,
        }
    }
}

/// Who of a game's players has a connection to it: each seat's open
/// sockets here that said hello with its token, and since when a seat has
/// had none; with several instances also those the others hold
/// ([`RemotePresence`], read from the database).
pub struct Presence {
    seats: std::sync::Mutex<[SeatPresence; 2]>,
    /// Sockets on the game here that hold no seat, and those the other
    /// instances hold.
    spectators: [std::sync::atomic::AtomicUsize; 2],
}

#[derive(Clone, Copy)]
struct SeatPresence {
    sockets: usize,
    away_since: i64,
    remote: RemotePresence,
}

impl Presence {
    /// Nobody connected, since `now`.
    pub fn new(now: i64) -> Presence {
        Presence {
            seats: std::sync::Mutex::new(
                [SeatPresence {
                    sockets: 0,
                    away_since: now,
                    remote: RemotePresence::default(),
                }; 2],
            ),
            spectators: Default::default(),
        }
    }

    /// A spectator's socket opened (`true`) or closed here: the
    /// spectators' sockets here now.
    pub fn watching(&self, opened: bool) -> usize {
        use std::sync::atomic::Ordering::Relaxed;
        let here = &self.spectators[0];
        if opened {
            here.fetch_add(1, Relaxed) + 1
        } else {
            let _ = here.fetch_update(Relaxed, Relaxed, |n| Some(n.saturating_sub(1)));
            here.load(Relaxed)
        }
    }

    /// The spectators' sockets the other instances hold.
    pub fn set_remote_spectators(&self, n: usize) {
        self.spectators[1].store(n, std::sync::atomic::Ordering::Relaxed);
    }

    /// The spectators' sockets of the game, here and elsewhere.
    pub fn spectators(&self) -> usize {
        use std::sync::atomic::Ordering::Relaxed;
        self.spectators[0].load(Relaxed) + self.spectators[1].load(Relaxed)
    }

    fn with<T>(&self, f: impl FnOnce(&mut [SeatPresence; 2]) -> T) -> T {
        f(&mut self.seats.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// A socket of `side` opened: the sockets of `side` here now.
    pub fn connect(&self, side: Color) -> usize {
        self.with(|s| {
            s[side.index()].sockets += 1;
            s[side.index()].sockets
        })
    }

    /// A socket of `side` closed at `now`: the sockets of `side` here now.
    pub fn disconnect(&self, side: Color, now: i64) -> usize {
        self.with(|s| {
            let seat = &mut s[side.index()];
            seat.sockets = seat.sockets.saturating_sub(1);
            if seat.sockets == 0 {
                seat.away_since = now;
            }
            seat.sockets
        })
    }

    /// The sockets the other instances hold, as the database says.
    pub fn set_remote(&self, remote: [RemotePresence; 2]) {
        self.with(|s| {
            for (seat, r) in s.iter_mut().zip(remote) {
                seat.remote = r;
            }
        });
    }

    /// How long `side` has had no connection at `now` (`None`: it has
    /// one, here or on another instance).
    pub fn away_ms(&self, side: Color, now: i64) -> Option<u64> {
        self.with(|s| {
            let seat = s[side.index()];
            let since = seat
                .away_since
                .max(seat.remote.changed_at.unwrap_or(i64::MIN));
            (seat.sockets == 0 && seat.remote.sockets == 0)
                .then(|| u64::try_from(now - since).unwrap_or(0))
        })
    }
}

/// The computer's thinking time with `left` on its clock (`initial` at the
/// start, `increment` per move), at most `level_time`: a share of the time
/// left above a reserve (a twelfth of the start, at most 5 s) for the
/// server's own time per move, so that it never runs out.
pub fn computer_movetime(
    level_time: Duration,
    left_ms: u64,
    initial_ms: u64,
    increment_ms: u64,
) -> Duration {
    let reserve = (initial_ms / 12).min(5_000);
    let share = left_ms.saturating_sub(reserve) / 40 + increment_ms * 3 / 4;
    let cap = left_ms / 4;
    Duration::from_millis(share.min(cap).max(1)).min(level_time)
}

/// What the clock service is told.
enum Command {
    /// Game `id`'s deadline is now this (`None`: none).
    Schedule(i64, Option<i64>),
}

/// Ends games by the clock: one deadline per running game, one task.
pub struct ClockService {
    tx: mpsc::UnboundedSender<Command>,
}

impl ClockService {
    /// Start the service for the games of `registry`: it reads every
    /// running clock's deadline from the database and, while it runs, says
    /// every [`SWEEP`] that a server is running (and, on a shared
    /// database, looks for due deadlines).
    pub fn start(registry: &Arc<GameRegistry>, time: Time) -> Arc<ClockService> {
        let (tx, rx) = mpsc::unbounded_channel();
        let service = Arc::new(ClockService { tx });
        registry.set_clocks(Arc::downgrade(&service));
        tokio::spawn(run(Arc::downgrade(registry), time, rx));
        service
    }

    /// Game `id`'s deadline is now `deadline`.
    pub fn schedule(&self, id: i64, deadline: Option<i64>) {
        let _ = self.tx.send(Command::Schedule(id, deadline));
    }
}

/// Tell the service, if there is one, of a game's deadline.
pub(crate) fn schedule(service: Option<&Weak<ClockService>>, id: i64, deadline: Option<i64>) {
    if let Some(s) = service.and_then(Weak::upgrade) {
        s.schedule(id, deadline);
    }
}

/// The deadlines, ordered, with each game's one.
#[derive(Default)]
struct Deadlines {
    by_time: BTreeSet<(i64, i64)>,
    of_game: HashMap<i64, i64>,
}

impl Deadlines {
    fn set(&mut self, id: i64, deadline: Option<i64>) {
        if let Some(old) = self.of_game.remove(&id) {
            self.by_time.remove(&(old, id));
        }
        if let Some(d) = deadline {
            self.of_game.insert(id, d);
            self.by_time.insert((d, id));
        }
    }

    fn first(&self) -> Option<i64> {
        self.by_time.first().map(|(d, _)| *d)
    }

    /// The games due at `now`, taken out.
    fn take_due(&mut self, now: i64) -> Vec<i64> {
        let mut due = Vec::new();
        while let Some(&(d, id)) = self.by_time.first() {
            if d > now {
                break;
            }
            self.by_time.pop_first();
            self.of_game.remove(&id);
            due.push(id);
        }
        due
    }
}

async fn run(registry: Weak<GameRegistry>, time: Time, mut rx: mpsc::UnboundedReceiver<Command>) {
    let mut deadlines = Deadlines::default();
    let Some(reg) = registry.upgrade() else {
        return;
    };
    let mut closing = reg.closing();
    match reg.storage().clock_deadlines(None).await {
        Ok(list) => {
            for (id, d) in list {
                deadlines.set(id, Some(d));
            }
        }
        Err(e) => tracing::error!(error = %e, "reading the clocks' deadlines failed"),
    }
    // The database's part runs beside the timers: a slow write never
    // holds up a flag.
    tokio::spawn(sweep(registry.clone(), time.clone(), reg.closing()));
    drop(reg);
    loop {
        let first = deadlines.first();
        let wake = async {
            match first {
                Some(at) => time.0.sleep_until(at).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            cmd = rx.recv() => match cmd {
                Some(Command::Schedule(id, d)) => deadlines.set(id, d),
                None => return,
            },
            () = wake => {
                let Some(reg) = registry.upgrade() else { return };
                for id in deadlines.take_due(time.now_ms()) {
                    let reg = reg.clone();
                    tokio::spawn(async move { reg.expire(id).await });
                }
            }
            _ = closing.changed() => return,
        }
    }
}

/// Every [`SWEEP`]: say that a server runs; every
/// [`INVITATION_SWEEP_MS`], end the invitations nobody answered; with
/// several instances, renew
/// this one's count of sockets and end the games whose deadline passed
/// (stored by an instance that has since gone).
async fn sweep(registry: Weak<GameRegistry>, time: Time, mut closing: watch::Receiver<bool>) {
    let mut tick = tokio::time::interval(SWEEP);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut invitations_at = i64::MIN;
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            _ = closing.changed() => return,
        }
        let Some(reg) = registry.upgrade() else {
            return;
        };
        let now = time.now_ms();
        if let Err(e) = reg.storage().clocks_alive(now, i64::MAX).await {
            tracing::warn!(error = %e, "saying the server runs failed");
        }
        if now >= invitations_at {
            invitations_at = now.saturating_add(INVITATION_SWEEP_MS);
            let reg = reg.clone();
            tokio::spawn(async move {
                match reg.expire_invitations().await {
                    Ok(0) => {}
                    Ok(n) => tracing::info!("{n} unanswered invitations expired"),
                    Err(e) => tracing::warn!(error = %e, "expiring invitations failed"),
                }
            });
        }
        let Some(cluster) = reg.storage().cluster() else {
            continue;
        };
        if let Err(e) = cluster.renew_presence(now).await {
            tracing::warn!(error = %e, "renewing who is connected failed");
        }
        match reg.storage().clock_deadlines(Some(now)).await {
            Ok(due) => {
                for (id, _) in due {
                    let reg = reg.clone();
                    tokio::spawn(async move { reg.expire(id).await });
                }
            }
            Err(e) => tracing::warn!(error = %e, "reading due deadlines failed"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn an_offset_clock_wakes_a_wait_when_it_is_moved_on() {
        let clock = OffsetClock::new();
        let start = clock.now_ms();
        let wait = tokio::spawn(clock.sleep_until(start + 86_400_000));
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(!wait.is_finished(), "a day has not passed yet");
        let now = clock.advance(86_400_000);
        assert!(now >= start + 86_400_000);
        tokio::time::timeout(Duration::from_secs(2), wait)
            .await
            .expect("the wait ends when the clock is moved past it")
            .unwrap();
        assert!(clock.advance(-5) - now < 1_000, "never moves back");
    }

    #[test]
    fn deadlines_come_out_in_order_and_once() {
        let mut d = Deadlines::default();
        d.set(1, Some(300));
        d.set(2, Some(100));
        d.set(3, Some(200));
        d.set(3, Some(500));
        d.set(2, None);
        assert_eq!(d.first(), Some(300));
        assert_eq!(d.take_due(400), vec![1]);
        assert_eq!(d.take_due(400), Vec::<i64>::new());
        assert_eq!(d.take_due(500), vec![3]);
        assert_eq!(d.first(), None);
    }

    /// The computer's share of its clock never lets its flag fall at 1+0
    /// or more, even over 500 of its moves with 10 ms of the server's own
    /// time each beside its search.
    #[test]
    fn the_computer_never_runs_out_of_time() {
        for (minutes, inc) in [(1, 0), (3, 2), (5, 0), (1, 1)] {
            let initial = minutes * 60_000;
            let level_time = Duration::from_millis(1500);
            let mut left: u64 = initial;
            for _ in 0..500 {
                let think = computer_movetime(level_time, left, initial, inc * 1000);
                let used = think.as_millis() as u64 + if inc == 0 { 10 } else { 0 };
                assert!(used < left, "{minutes}+{inc}: {used} ms of {left} ms left");
                left = left - used + inc * 1000;
            }
        }
        // Plenty of time: the level's own time.
        assert_eq!(
            computer_movetime(Duration::from_millis(900), 600_000, 600_000, 0),
            Duration::from_millis(900)
        );
    }

    #[test]
    fn the_first_moves_of_an_online_game_are_on_a_deadline_not_the_clock() {
        let c = GameClock::new(TimeControl::live(1, 0), Some(1_000)).unwrap();
        let view = ClockView {
            turn: Color::White,
            first_moves: true,
            online: true,
            over: false,
        };
        assert_eq!(c.deadline(view), Some(1_000 + FIRST_MOVE_MS));
        assert_eq!(c.at(50_000, view), [60_000, 60_000]);
        let local = ClockView {
            online: false,
            ..view
        };
        assert_eq!(c.deadline(local), None);
        let later = ClockView {
            first_moves: false,
            ..view
        };
        assert_eq!(c.deadline(later), Some(61_000));
        assert_eq!(c.at(11_000, later), [50_000, 60_000]);
    }
}
