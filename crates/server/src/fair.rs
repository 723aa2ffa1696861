//! Fair use of engine time: one bounded pool of engine slots (searches
//! running at once), shared by the computer's moves in games and by
//! analyses (`POST /api/analyze`).
//!
//! - Computer moves come first: they take a free slot before any waiting
//!   analysis, analyses may hold at most `analysis_slots` slots (by default
//!   one fewer than the pool, so one is kept for games), and when a computer
//!   move finds no free slot, the analysis that has run longest is stopped
//!   early (it answers with what it found so far, marked `preempted`).
//! - Analyses are limited per client — per browser (the `X-Brett-Client`
//!   header, within its address) and per address — in how many run or wait
//!   at once and in engine time a minute (a token bucket of seconds).
//!   Over a limit the answer is `429 rate_limited` with `Retry-After`.
//! - At most `queue` analyses wait, each at most `wait`; otherwise the
//!   answer is `503 engine_busy` with the place in the queue and an estimate
//!   of when to try again, never an endless wait.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tokio::sync::Notify;

/// How long a request of a client at its concurrency limit waits for the
/// client's own analysis to end (a browser that moved on to the next
/// position stops its previous request a moment later) before `429`.
const CLIENT_GRACE: Duration = Duration::from_secs(1);

/// Clients (and addresses) remembered before idle ones are forgotten.
const MAX_CLIENTS: usize = 10_000;

/// The longest `Retry-After` given, in seconds.
const MAX_RETRY_AFTER: u64 = 3600;

/// Who asks for an analysis: the address (IPv6: its /64) and, if the
/// request names one, the browser (`X-Brett-Client`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Client {
    /// The address (IPv6: its /64).
    pub ip: IpAddr,
    /// The browser's `X-Brett-Client` id, if the request sent one.
    pub browser: Option<String>,
}

/// The limits of analyses in [`Scheduler`].
#[derive(Clone, Debug, PartialEq)]
pub struct AnalysisLimits {
    /// Analyses running at once; `None`: one fewer than `slots` (at
    /// least 1). Never more than `slots`.
    pub analysis_slots: Option<usize>,
    /// Analyses one browser may have running or waiting at once (0: no
    /// limit).
    pub per_client: usize,
    /// Analyses one address may have running or waiting at once (0: no
    /// limit).
    pub per_ip: usize,
    /// Engine time a minute for one browser's analyses, in seconds (also
    /// the burst); one address gets `per_ip` times as much (0: no limit).
    pub seconds_per_minute: u64,
    /// Analyses waiting for a slot at most; further ones are `engine_busy`.
    pub queue: usize,
    /// The longest an analysis waits for a slot before `engine_busy`.
    pub wait: Duration,
}

impl Default for AnalysisLimits {
    fn default() -> AnalysisLimits {
        AnalysisLimits {
            analysis_slots: None,
            per_client: 1,
            per_ip: 4,
            seconds_per_minute: 60,
            queue: 16,
            wait: Duration::from_secs(5),
        }
    }
}

impl AnalysisLimits {
    /// The analyses running at once in force in a pool of `slots`.
    pub fn analysis_slots(&self, slots: usize) -> usize {
        let slots = slots.max(1);
        self.analysis_slots
            .unwrap_or(slots.saturating_sub(1))
            .clamp(1, slots)
    }

    /// The engine-time bucket of a browser: capacity in seconds.
    fn client_budget(&self) -> Option<f64> {
        (self.seconds_per_minute > 0).then_some(self.seconds_per_minute as f64)
    }

    /// The engine-time bucket of an address: capacity in seconds.
    fn ip_budget(&self) -> Option<f64> {
        (self.seconds_per_minute > 0 && self.per_ip > 0)
            .then_some((self.seconds_per_minute * self.per_ip as u64) as f64)
    }
}

/// Why an analysis does not run.
#[derive(Clone, Debug, PartialEq)]
pub enum Refusal {
    /// The server is shutting down.
    Closed,
    /// A limit of the client (or its address): too many analyses at once,
    /// or its engine time used up. Try again after `retry_after` seconds.
    Limit {
        /// What limit, in words.
        message: String,
        /// Seconds to wait.
        retry_after: u64,
    },
    /// No slot within the wait, or the queue is full: the analysis had
    /// (or would have had) place `queue_position` (1: next).
    Busy {
        /// The place in the queue (1: next).
        queue_position: usize,
        /// Seconds until it could start (an estimate).
        retry_after: u64,
    },
}

/// A token bucket of engine seconds.
#[derive(Clone, Copy, Debug)]
struct Bucket {
    secs: f64,
    at: Instant,
}

impl Bucket {
    fn full(capacity: f64, now: Instant) -> Bucket {
        Bucket {
            secs: capacity,
            at: now,
        }
    }

    /// Refill at `capacity` a minute up to `capacity`.
    fn refill(&mut self, capacity: f64, now: Instant) {
        let dt = now.saturating_duration_since(self.at).as_secs_f64();
        self.secs = (self.secs + dt * capacity / 60.0).min(capacity);
        self.at = now;
    }

    /// Seconds until the bucket holds `need` (0: it does).
    fn wait_for(&self, need: f64, capacity: f64) -> f64 {
        let need = need.min(capacity);
        if self.secs >= need {
            0.0
        } else {
            (need - self.secs) * 60.0 / capacity
        }
    }
}

/// What one browser or address uses.
#[derive(Debug)]
struct Usage {
    running: usize,
    waiting: usize,
    budget: Option<Bucket>,
}

impl Usage {
    fn new(capacity: Option<f64>, now: Instant) -> Usage {
        Usage {
            running: 0,
            waiting: 0,
            budget: capacity.map(|c| Bucket::full(c, now)),
        }
    }

    fn in_flight(&self) -> usize {
        self.running + self.waiting
    }

    /// No analysis, and nothing owed: it can be forgotten.
    fn idle(&mut self, capacity: Option<f64>, now: Instant) -> bool {
        if self.in_flight() > 0 {
            return false;
        }
        match (&mut self.budget, capacity) {
            (Some(b), Some(c)) => {
                b.refill(c, now);
                b.secs >= c
            }
            _ => true,
        }
    }

    /// Add `secs` (negative: take) to the bucket.
    fn credit(&mut self, capacity: Option<f64>, secs: f64, now: Instant) {
        if let (Some(b), Some(c)) = (&mut self.budget, capacity) {
            b.refill(c, now);
            b.secs = (b.secs + secs).min(c);
        }
    }
}

struct Waiter {
    id: u64,
    client: Client,
    reserved: Duration,
}

struct Running {
    client: Client,
    /// Work of the lowest priority ([`Scheduler::background`]), counted
    /// against no client.
    background: bool,
    stop: Arc<AtomicBool>,
    preempted: Arc<AtomicBool>,
    started: Instant,
    reserved: Duration,
}

struct State {
    free: usize,
    closed: bool,
    next_id: u64,
    /// Computer searches waiting for a slot, first come first served.
    computers: VecDeque<u64>,
    /// Analyses waiting, in the order they came.
    waiting: Vec<Waiter>,
    /// Analyses running, by id.
    running: HashMap<u64, Running>,
    /// Analyses stopped for a computer move that have not ended yet.
    preempting: usize,
    /// The stop flags of the searches running, set by a close.
    searches: HashMap<u64, Arc<AtomicBool>>,
    clients: HashMap<Client, Usage>,
    ips: HashMap<IpAddr, Usage>,
}

/// The engine pool and its rules (see the module's documentation).
pub struct Scheduler {
    config: AnalysisLimits,
    analysis_slots: usize,
    state: Mutex<State>,
    notify: Notify,
}

/// A slot of the pool, given back when dropped. An analysis's slot also
/// settles its engine time then.
pub struct Slot {
    sched: Arc<Scheduler>,
    analysis: Option<(u64, Arc<AtomicBool>)>,
}

impl Slot {
    /// Whether the analysis in this slot was stopped early for a computer
    /// move.
    pub fn preempted(&self) -> bool {
        self.analysis
            .as_ref()
            .is_some_and(|(_, p)| p.load(Ordering::Relaxed))
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut s = self.sched.lock();
        s.free += 1;
        if let Some((id, _)) = &self.analysis
            && let Some(r) = s.running.remove(id)
        {
            if r.preempted.load(Ordering::Relaxed) {
                s.preempting = s.preempting.saturating_sub(1);
            }
            let now = Instant::now();
            let used = now.saturating_duration_since(r.started);
            let refund = r.reserved.as_secs_f64() - used.as_secs_f64();
            if !r.background {
                self.sched.settle(&mut s, &r.client, refund, now, |u| {
                    u.running = u.running.saturating_sub(1)
                });
            }
        }
        drop(s);
        self.sched.notify.notify_waiters();
    }
}

/// A search's stop flag kept for [`Scheduler::close`]; when dropped (the
/// search ended, or the request went away) the flag is set and forgotten.
pub struct SearchGuard<'a> {
    sched: &'a Scheduler,
    id: u64,
    stop: Arc<AtomicBool>,
}

impl Drop for SearchGuard<'_> {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.sched.lock().searches.remove(&self.id);
    }
}

/// A place in one of the queues, left when dropped: `leave` takes `id`
/// out of its queue if it is still there, and says whether it was.
struct Queued<'a> {
    sched: &'a Scheduler,
    id: u64,
    leave: fn(&Scheduler, &mut State, u64) -> bool,
}

impl Drop for Queued<'_> {
    fn drop(&mut self) {
        let mut s = self.sched.lock();
        if (self.leave)(self.sched, &mut s, self.id) {
            drop(s);
            self.sched.notify.notify_waiters();
        }
    }
}

/// A computer search leaves the queue.
fn leave_computers(_: &Scheduler, s: &mut State, id: u64) -> bool {
    let Some(i) = s.computers.iter().position(|&c| c == id) else {
        return false;
    };
    s.computers.remove(i);
    true
}

/// An analysis leaves the queue before it got a slot, giving back its
/// reserved time.
fn leave_waiting(sched: &Scheduler, s: &mut State, id: u64) -> bool {
    let Some(i) = s.waiting.iter().position(|w| w.id == id) else {
        return false;
    };
    let w = s.waiting.remove(i);
    sched.settle(
        s,
        &w.client,
        w.reserved.as_secs_f64(),
        Instant::now(),
        |u| u.waiting = u.waiting.saturating_sub(1),
    );
    true
}

fn retry_secs(secs: f64) -> u64 {
    (secs.ceil().max(1.0) as u64).min(MAX_RETRY_AFTER)
}

impl Scheduler {
    /// A pool of `slots` searches (at least 1) with the analysis limits
    /// `config`.
    pub fn new(slots: usize, config: AnalysisLimits) -> Arc<Scheduler> {
        let analysis_slots = config.analysis_slots(slots);
        Arc::new(Scheduler {
            state: Mutex::new(State {
                free: slots.max(1),
                closed: false,
                next_id: 0,
                computers: VecDeque::new(),
                waiting: Vec::new(),
                running: HashMap::new(),
                preempting: 0,
                searches: HashMap::new(),
                clients: HashMap::new(),
                ips: HashMap::new(),
            }),
            analysis_slots,
            config,
            notify: Notify::new(),
        })
    }

    /// The limits in force.
    pub fn config(&self) -> &AnalysisLimits {
        &self.config
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Refuse every waiting and further request, and stop the searches
    /// running (shutdown).
    pub fn close(&self) {
        let mut s = self.lock();
        s.closed = true;
        for stop in s.searches.values() {
            stop.store(true, Ordering::Relaxed);
        }
        drop(s);
        self.notify.notify_waiters();
    }

    /// Keep `stop`, a search's stop flag, where [`Scheduler::close`] sets
    /// it while the search runs (at once if closed already); the guard
    /// sets it and forgets it when dropped.
    pub fn register_search(&self, stop: Arc<AtomicBool>) -> SearchGuard<'_> {
        let mut s = self.lock();
        if s.closed {
            stop.store(true, Ordering::Relaxed);
        }
        let id = s.next_id;
        s.next_id += 1;
        s.searches.insert(id, stop.clone());
        SearchGuard {
            sched: self,
            id,
            stop,
        }
    }

    /// Analyses running and waiting now (for tests and the benchmark).
    pub fn analyses(&self) -> (usize, usize) {
        let s = self.lock();
        (s.running.len(), s.waiting.len())
    }

    /// A slot for a computer move: at once if one is free, else before
    /// every waiting analysis, stopping a running analysis early if no slot
    /// would come free otherwise. `None` once the server shuts down.
    pub async fn computer(self: &Arc<Self>) -> Option<Slot> {
        let id = {
            let mut s = self.lock();
            if s.closed {
                return None;
            }
            if s.free > 0 && s.computers.is_empty() {
                s.free -= 1;
                return Some(self.slot(None));
            }
            let id = s.next_id;
            s.next_id += 1;
            s.computers.push_back(id);
            self.preempt(&mut s);
            id
        };
        let _queued = Queued {
            sched: self,
            id,
            leave: leave_computers,
        };
        self.when(|s| {
            if s.free > 0 && s.computers.front() == Some(&id) {
                s.computers.pop_front();
                s.free -= 1;
                Some((None, s.free > 0 && !s.computers.is_empty()))
            } else {
                None
            }
        })
        .await
    }

    /// Wait until `take` takes a slot (it is asked whenever the pool
    /// changes): its slot's analysis entry, and whether others may take a
    /// slot too (they are woken). `None` once the server shuts down.
    async fn when(
        self: &Arc<Self>,
        mut take: impl FnMut(&mut State) -> Option<(Option<(u64, Arc<AtomicBool>)>, bool)>,
    ) -> Option<Slot> {
        loop {
            let notified = self.notify.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            {
                let mut s = self.lock();
                if s.closed {
                    return None;
                }
                if let Some((analysis, more)) = take(&mut s) {
                    drop(s);
                    if more {
                        self.notify.notify_waiters();
                    }
                    return Some(self.slot(analysis));
                }
            }
            notified.await;
        }
    }

    /// A slot for work of the lowest priority (the analysis of a whole
    /// game, position by position) that thinks at most `time` and stops by
    /// `stop`: taken only when an analysis could start and none waits. It
    /// counts as a running analysis (a computer move stops it early) but
    /// against no client's limits. `None` once the server shuts down.
    pub async fn background(
        self: &Arc<Self>,
        time: Duration,
        stop: Arc<AtomicBool>,
    ) -> Option<Slot> {
        self.when(|s| {
            if !(self.analysis_startable(s) && s.waiting.is_empty()) {
                return None;
            }
            s.free -= 1;
            let id = s.next_id;
            s.next_id += 1;
            let preempted = Arc::new(AtomicBool::new(false));
            s.running.insert(
                id,
                Running {
                    client: Client {
                        ip: IpAddr::from([0u8; 16]),
                        browser: None,
                    },
                    background: true,
                    stop: stop.clone(),
                    preempted: preempted.clone(),
                    started: Instant::now(),
                    reserved: time,
                },
            );
            Some((Some((id, preempted)), false))
        })
        .await
    }

    /// A slot for an analysis of `time` by `client` whose search stops by
    /// `stop` (set on preemption), or why not.
    pub async fn analysis(
        self: &Arc<Self>,
        client: Client,
        time: Duration,
        stop: Arc<AtomicBool>,
    ) -> Result<Slot, Refusal> {
        let id = self.admit(&client, time).await?;
        let queued = Queued {
            sched: self,
            id,
            leave: leave_waiting,
        };
        let deadline = tokio::time::Instant::now() + self.config.wait;
        loop {
            let notified = self.notify.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            {
                let mut s = self.lock();
                if s.closed {
                    return Err(Refusal::Closed);
                }
                if self.analysis_startable(&s) && self.next_analysis(&s) == Some(id) {
                    let i = s
                        .waiting
                        .iter()
                        .position(|w| w.id == id)
                        .expect("a waiting analysis is in the queue");
                    let w = s.waiting.remove(i);
                    s.free -= 1;
                    let preempted = Arc::new(AtomicBool::new(false));
                    let now = Instant::now();
                    for u in self.usages(&mut s, &w.client, now) {
                        u.waiting = u.waiting.saturating_sub(1);
                        u.running += 1;
                    }
                    s.running.insert(
                        id,
                        Running {
                            client: w.client,
                            background: false,
                            stop,
                            preempted: preempted.clone(),
                            started: now,
                            reserved: w.reserved,
                        },
                    );
                    let more = self.analysis_startable(&s) && !s.waiting.is_empty();
                    drop(s);
                    std::mem::forget(queued);
                    if more {
                        self.notify.notify_waiters();
                    }
                    return Ok(self.slot(Some((id, preempted))));
                }
                if tokio::time::Instant::now() >= deadline {
                    let place = s.waiting.iter().position(|w| w.id == id).unwrap_or(0) + 1;
                    let retry_after = self.estimate(&s, place);
                    return Err(Refusal::Busy {
                        queue_position: place,
                        retry_after,
                    });
                }
            }
            tokio::select! {
                _ = &mut notified => {}
                _ = tokio::time::sleep_until(deadline) => {}
            }
        }
    }

    fn slot(self: &Arc<Self>, analysis: Option<(u64, Arc<AtomicBool>)>) -> Slot {
        Slot {
            sched: self.clone(),
            analysis,
        }
    }

    /// Check the client's limits (waiting a moment for its own analysis to
    /// end if it is at its concurrency limit) and the queue's bound, then
    /// reserve the engine time and queue the analysis. Returns its id.
    async fn admit(&self, client: &Client, time: Duration) -> Result<u64, Refusal> {
        let grace = tokio::time::Instant::now() + CLIENT_GRACE;
        loop {
            let notified = self.notify.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            {
                let mut s = self.lock();
                if s.closed {
                    return Err(Refusal::Closed);
                }
                match self.concurrency(&mut s, client) {
                    Err(refusal) if tokio::time::Instant::now() >= grace => return Err(refusal),
                    Err(_) => {}
                    Ok(()) => return self.enqueue(&mut s, client, time),
                }
            }
            tokio::select! {
                _ = &mut notified => {}
                _ = tokio::time::sleep_until(grace) => {}
            }
        }
    }

    /// The client's (and its address's) concurrency limits.
    fn concurrency(&self, s: &mut State, client: &Client) -> Result<(), Refusal> {
        let c = &self.config;
        let mine = s.clients.get(client).map_or(0, Usage::in_flight);
        let ours = s.ips.get(&client.ip).map_or(0, Usage::in_flight);
        let (by_ip, limit) = if c.per_client > 0 && mine >= c.per_client {
            (false, c.per_client)
        } else if c.per_ip > 0 && ours >= c.per_ip {
            (true, c.per_ip)
        } else {
            return Ok(());
        };
        let what = if by_ip {
            "your address"
        } else {
            "your browser"
        };
        let now = Instant::now();
        // The soonest one of them ends.
        let soonest = s
            .running
            .values()
            .filter(|r| {
                if by_ip {
                    r.client.ip == client.ip
                } else {
                    r.client == *client
                }
            })
            .map(|r| {
                (r.started + r.reserved)
                    .saturating_duration_since(now)
                    .as_secs_f64()
            })
            .fold(f64::INFINITY, f64::min);
        let retry = if soonest.is_finite() {
            soonest
        } else {
            self.config.wait.as_secs_f64()
        };
        Err(Refusal::Limit {
            message: format!(
                "{what} already has {limit} analysis(es) running or waiting, the most at once; \
                 wait for the answer (or stop it) and try again"
            ),
            retry_after: retry_secs(retry),
        })
    }

    /// The time budgets and the queue's bound; then reserve and queue.
    fn enqueue(&self, s: &mut State, client: &Client, time: Duration) -> Result<u64, Refusal> {
        let now = Instant::now();
        let need = time.as_secs_f64();
        let c = &self.config;
        if s.clients.len() >= MAX_CLIENTS || s.ips.len() >= MAX_CLIENTS {
            self.forget_idle(s, now);
        }
        let mut wait: f64 = 0.0;
        let mut by_ip = false;
        if let Some(cap) = c.client_budget()
            && let Some(b) = s.clients.get_mut(client).and_then(|u| u.budget.as_mut())
        {
            b.refill(cap, now);
            wait = b.wait_for(need, cap);
        }
        if let Some(cap) = c.ip_budget()
            && let Some(b) = s.ips.get_mut(&client.ip).and_then(|u| u.budget.as_mut())
        {
            b.refill(cap, now);
            let w = b.wait_for(need, cap);
            if w > wait {
                (wait, by_ip) = (w, true);
            }
        }
        if wait > 0.0 {
            let what = if by_ip {
                format!(
                    "your address has used its engine time for analyses ({} s a minute)",
                    c.seconds_per_minute * c.per_ip as u64
                )
            } else {
                format!(
                    "your browser has used its engine time for analyses ({} s a minute)",
                    c.seconds_per_minute
                )
            };
            return Err(Refusal::Limit {
                message: format!("{what}; try again in a moment"),
                retry_after: retry_secs(wait),
            });
        }
        let start_now = s.waiting.is_empty() && self.analysis_startable(s);
        if !start_now && s.waiting.len() >= c.queue {
            let place = s.waiting.len() + 1;
            return Err(Refusal::Busy {
                queue_position: place,
                retry_after: self.estimate(s, place),
            });
        }
        let id = s.next_id;
        s.next_id += 1;
        for u in self.usages(s, client, now) {
            u.waiting += 1;
        }
        let (client_cap, ip_cap) = (c.client_budget(), c.ip_budget());
        if let Some(u) = s.clients.get_mut(client) {
            u.credit(client_cap, -need, now);
        }
        if let Some(u) = s.ips.get_mut(&client.ip) {
            u.credit(ip_cap, -need, now);
        }
        s.waiting.push(Waiter {
            id,
            client: client.clone(),
            reserved: time,
        });
        Ok(id)
    }

    /// The usage entries of `client` and its address (created if new).
    fn usages<'s>(&self, s: &'s mut State, client: &Client, now: Instant) -> [&'s mut Usage; 2] {
        let (cc, ic) = (self.config.client_budget(), self.config.ip_budget());
        let State { clients, ips, .. } = s;
        [
            clients
                .entry(client.clone())
                .or_insert_with(|| Usage::new(cc, now)),
            ips.entry(client.ip).or_insert_with(|| Usage::new(ic, now)),
        ]
    }

    /// An analysis of `client` left the queue or ended: `change` its counts,
    /// credit `refund` seconds (negative: it used more than reserved) and
    /// forget what is idle.
    fn settle(
        &self,
        s: &mut State,
        client: &Client,
        refund: f64,
        now: Instant,
        change: impl Fn(&mut Usage),
    ) {
        let (cc, ic) = (self.config.client_budget(), self.config.ip_budget());
        if let Some(u) = s.clients.get_mut(client) {
            change(u);
            u.credit(cc, refund, now);
            if u.idle(cc, now) {
                s.clients.remove(client);
            }
        }
        if let Some(u) = s.ips.get_mut(&client.ip) {
            change(u);
            u.credit(ic, refund, now);
            if u.idle(ic, now) {
                s.ips.remove(&client.ip);
            }
        }
    }

    fn forget_idle(&self, s: &mut State, now: Instant) {
        let (cc, ic) = (self.config.client_budget(), self.config.ip_budget());
        s.clients.retain(|_, u| !u.idle(cc, now));
        s.ips.retain(|_, u| !u.idle(ic, now));
        // Still too many: forget what idle ones still owe.
        if s.clients.len() >= MAX_CLIENTS {
            s.clients.retain(|_, u| u.in_flight() > 0);
        }
        if s.ips.len() >= MAX_CLIENTS {
            s.ips.retain(|_, u| u.in_flight() > 0);
        }
    }

    /// Whether an analysis may take a slot now: one is free, no computer
    /// move waits, and analyses hold fewer than their share.
    fn analysis_startable(&self, s: &State) -> bool {
        s.free > 0 && s.computers.is_empty() && s.running.len() < self.analysis_slots
    }

    /// The waiting analysis to start next: of the address with the fewest
    /// running analyses, the one that came first.
    fn next_analysis(&self, s: &State) -> Option<u64> {
        let running_of = |ip: &IpAddr| s.ips.get(ip).map_or(0, |u| u.running);
        s.waiting
            .iter()
            .enumerate()
            .min_by_key(|(i, w)| (running_of(&w.client.ip), *i))
            .map(|(_, w)| w.id)
    }

    /// Seconds until the analysis at `place` in the queue would start, if
    /// every analysis takes its time: the analysis slots come free as the
    /// running ones end, and each waiting one ahead takes the first free.
    fn estimate(&self, s: &State, place: usize) -> u64 {
        let now = Instant::now();
        let mut free_at: Vec<f64> = s
            .running
            .values()
            .map(|r| {
                if r.preempted.load(Ordering::Relaxed) {
                    0.0
                } else {
                    (r.started + r.reserved)
                        .saturating_duration_since(now)
                        .as_secs_f64()
                }
            })
            .collect();
        free_at.resize(self.analysis_slots.max(free_at.len()), 0.0);
        let earliest = |v: &mut Vec<f64>| {
            let (i, _) = v
                .iter()
                .enumerate()
                .min_by(|a, b| a.1.total_cmp(b.1))
                .expect("at least one analysis slot");
            i
        };
        for w in s.waiting.iter().take(place.saturating_sub(1)) {
            let i = earliest(&mut free_at);
            free_at[i] += w.reserved.as_secs_f64();
        }
        let i = earliest(&mut free_at);
        retry_secs(free_at[i])
    }

    /// Stop running analyses early, the longest-running first, so that
    /// every waiting computer move gets a slot soon.
    fn preempt(&self, s: &mut State) {
        let short = s.computers.len().saturating_sub(s.free + s.preempting);
        for _ in 0..short {
            let Some(r) = s
                .running
                .values()
                .filter(|r| !r.preempted.load(Ordering::Relaxed))
                .min_by_key(|r| r.started)
            else {
                return;
            };
            r.preempted.store(true, Ordering::Relaxed);
            r.stop.store(true, Ordering::Relaxed);
            s.preempting += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn client(ip: u8, browser: Option<&str>) -> Client {
        Client {
            ip: IpAddr::from([10, 0, 0, ip]),
            browser: browser.map(str::to_string),
        }
    }

    fn config() -> AnalysisLimits {
        AnalysisLimits {
            analysis_slots: None,
            per_client: 1,
            per_ip: 4,
            seconds_per_minute: 60,
            queue: 4,
            wait: Duration::from_millis(200),
        }
    }

    fn flag() -> Arc<AtomicBool> {
        Arc::new(AtomicBool::new(false))
    }

    #[test]
    fn analysis_slots_keep_one_for_games() {
        let mut c = config();
        assert_eq!(c.analysis_slots(1), 1);
        assert_eq!(c.analysis_slots(2), 1);
        assert_eq!(c.analysis_slots(8), 7);
        c.analysis_slots = Some(20);
        assert_eq!(c.analysis_slots(8), 8);
        c.analysis_slots = Some(0);
        assert_eq!(c.analysis_slots(8), 1);
    }

    #[tokio::test]
    async fn a_computer_move_gets_the_reserved_slot_while_analyses_wait() {
        let s = Scheduler::new(2, config());
        let a = s
            .analysis(client(1, Some("a")), Duration::from_secs(10), flag())
            .await
            .unwrap();
        // The second analysis (another client) cannot take the last slot.
        let second = {
            let s = s.clone();
            tokio::spawn(async move {
                s.analysis(client(2, Some("b")), Duration::from_secs(10), flag())
                    .await
                    .map(|_| ())
            })
        };
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert_eq!(s.analyses(), (1, 1));
        let c = tokio::time::timeout(Duration::from_millis(100), s.computer())
            .await
            .expect("the computer is not kept waiting")
            .unwrap();
        assert!(!a.preempted());
        assert!(matches!(
            second.await.unwrap(),
            Err(Refusal::Busy {
                queue_position: 1,
                ..
            })
        ));
        drop(c);
        drop(a);
        assert_eq!(s.analyses(), (0, 0));
    }

    #[tokio::test]
    async fn a_computer_move_preempts_an_analysis_when_no_slot_is_free() {
        let s = Scheduler::new(1, config());
        let stop = flag();
        let a = s
            .analysis(client(1, None), Duration::from_secs(10), stop.clone())
            .await
            .unwrap();
        let waiting = {
            let s = s.clone();
            tokio::spawn(async move { s.computer().await.is_some() })
        };
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(stop.load(Ordering::Relaxed), "the analysis is told to stop");
        assert!(a.preempted());
        assert!(!waiting.is_finished());
        drop(a);
        assert!(waiting.await.unwrap());
    }

    #[tokio::test]
    async fn one_analysis_at_a_time_per_browser() {
        let s = Scheduler::new(4, config());
        let a = s
            .analysis(client(1, Some("x")), Duration::from_secs(10), flag())
            .await
            .unwrap();
        let r = s
            .analysis(client(1, Some("x")), Duration::from_secs(1), flag())
            .await;
        match r {
            Err(Refusal::Limit { retry_after, .. }) => {
                assert!((1..=10).contains(&retry_after), "{retry_after}")
            }
            other => panic!("{:?}", other.map(|_| ())),
        }
        // Another browser at the same address is another client.
        let b = s
            .analysis(client(1, Some("y")), Duration::from_secs(1), flag())
            .await;
        assert!(b.is_ok());
        drop(a);
        // Once the first ended, the browser may ask again.
        assert!(
            s.analysis(client(1, Some("x")), Duration::from_secs(1), flag())
                .await
                .is_ok()
        );
    }

    #[tokio::test]
    async fn a_browser_that_moves_on_waits_for_its_previous_request_to_stop() {
        let s = Scheduler::new(2, config());
        let a = s
            .analysis(client(1, Some("x")), Duration::from_secs(10), flag())
            .await
            .unwrap();
        let next = {
            let s = s.clone();
            tokio::spawn(async move {
                s.analysis(client(1, Some("x")), Duration::from_secs(1), flag())
                    .await
                    .is_ok()
            })
        };
        tokio::time::sleep(Duration::from_millis(100)).await;
        drop(a);
        assert!(next.await.unwrap());
    }

    #[tokio::test]
    async fn the_address_limits_browsers_together() {
        let mut c = config();
        c.per_ip = 2;
        let s = Scheduler::new(8, c);
        let _a = s
            .analysis(client(1, Some("a")), Duration::from_secs(5), flag())
            .await
            .unwrap();
        let _b = s
            .analysis(client(1, Some("b")), Duration::from_secs(5), flag())
            .await
            .unwrap();
        let r = s
            .analysis(client(1, Some("c")), Duration::from_secs(5), flag())
            .await;
        assert!(matches!(r, Err(Refusal::Limit { .. })));
        assert!(
            s.analysis(client(2, Some("c")), Duration::from_secs(5), flag())
                .await
                .is_ok()
        );
    }

    #[tokio::test]
    async fn engine_time_a_minute_is_limited_per_browser() {
        let mut c = config();
        c.seconds_per_minute = 12;
        let s = Scheduler::new(4, c);
        let me = client(1, Some("a"));
        // 10 s reserved: 2 s left.
        drop(
            s.analysis(me.clone(), Duration::from_secs(10), flag())
                .await
                .unwrap(),
        );
        // Given back what was not used (almost all): room again.
        drop(
            s.analysis(me.clone(), Duration::from_secs(10), flag())
                .await
                .unwrap(),
        );
        // Time used for real (11 s of the 12), set by hand.
        {
            let mut st = s.lock();
            let cap = s.config.client_budget();
            st.clients
                .entry(me.clone())
                .or_insert_with(|| Usage::new(cap, Instant::now()))
                .credit(cap, -11.0, Instant::now());
        }
        match s.analysis(me.clone(), Duration::from_secs(5), flag()).await {
            Err(Refusal::Limit {
                retry_after,
                message,
            }) => {
                // 4 s missing at 12 s a minute: 20 s.
                assert!((19..=21).contains(&retry_after), "{retry_after}");
                assert!(message.contains("engine time"), "{message}");
            }
            other => panic!("{:?}", other.map(|_| ())),
        }
        // A short one still fits.
        assert!(
            s.analysis(me, Duration::from_millis(500), flag())
                .await
                .is_ok()
        );
    }

    #[tokio::test]
    async fn the_queue_is_bounded() {
        let mut c = config();
        c.queue = 2;
        c.wait = Duration::from_secs(5);
        let s = Scheduler::new(1, c);
        let _running = s
            .analysis(client(1, None), Duration::from_secs(8), flag())
            .await
            .unwrap();
        let mut waiters = Vec::new();
        for ip in 2..4 {
            let s = s.clone();
            waiters.push(tokio::spawn(async move {
                s.analysis(client(ip, None), Duration::from_secs(3), flag())
                    .await
                    .map(|_| ())
            }));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert_eq!(s.analyses(), (1, 2));
        match s
            .analysis(client(9, None), Duration::from_secs(1), flag())
            .await
        {
            Err(Refusal::Busy {
                queue_position,
                retry_after,
            }) => {
                assert_eq!(queue_position, 3);
                // 8 s for the running one, 3 + 3 for the two ahead.
                assert!((13..=14).contains(&retry_after), "{retry_after}");
            }
            other => panic!("{:?}", other.map(|_| ())),
        }
        for w in waiters {
            w.abort();
        }
    }

    #[tokio::test]
    async fn waiting_ends_with_busy_and_the_place_in_the_queue() {
        let s = Scheduler::new(1, config());
        let _running = s
            .analysis(client(1, None), Duration::from_secs(4), flag())
            .await
            .unwrap();
        let started = Instant::now();
        match s
            .analysis(client(2, None), Duration::from_secs(1), flag())
            .await
        {
            Err(Refusal::Busy {
                queue_position,
                retry_after,
            }) => {
                assert_eq!(queue_position, 1);
                assert!((3..=4).contains(&retry_after), "{retry_after}");
            }
            other => panic!("{:?}", other.map(|_| ())),
        }
        assert!(started.elapsed() >= Duration::from_millis(200));
        // It left the queue and gave back its time.
        assert_eq!(s.analyses(), (1, 0));
        assert!(!s.lock().clients.contains_key(&client(2, None)));
    }

    #[tokio::test]
    async fn addresses_take_turns() {
        let mut c = config();
        c.analysis_slots = Some(3);
        c.wait = Duration::from_secs(5);
        let s = Scheduler::new(3, c);
        let ten = Duration::from_secs(10);
        let _a1 = s.analysis(client(1, Some("a")), ten, flag()).await.unwrap();
        let _a2 = s.analysis(client(1, Some("b")), ten, flag()).await.unwrap();
        let b1 = s.analysis(client(2, Some("b")), ten, flag()).await.unwrap();
        // Address 1 queues a third browser first, then address 3 comes.
        let first = {
            let s = s.clone();
            tokio::spawn(async move { s.analysis(client(1, Some("c")), ten, flag()).await.is_ok() })
        };
        tokio::time::sleep(Duration::from_millis(20)).await;
        let second = {
            let s = s.clone();
            tokio::spawn(async move { s.analysis(client(3, Some("d")), ten, flag()).await })
        };
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert_eq!(s.analyses(), (3, 2));
        // One slot comes free: address 3 (no analysis running) goes before
        // address 1 (two running), although address 1's browser came first.
        drop(b1);
        let _d = second.await.unwrap().expect("address 3 gets the slot");
        assert_eq!(s.analyses(), (3, 1));
        assert!(!first.is_finished());
        first.abort();
    }

    #[tokio::test]
    async fn background_work_comes_after_waiting_analyses_and_computer_moves() {
        let mut c = config();
        c.wait = Duration::from_secs(5);
        let s = Scheduler::new(2, c);
        let ten = Duration::from_secs(10);
        let settle = || tokio::time::sleep(Duration::from_millis(20));
        let a = s.analysis(client(1, Some("a")), ten, flag()).await.unwrap();
        // An analysis waits for the one analysis slot, background work
        // behind it: the analysis gets the slot first.
        let s2 = s.clone();
        let waiting =
            tokio::spawn(async move { s2.analysis(client(2, Some("b")), ten, flag()).await.ok() });
        settle().await;
        let s3 = s.clone();
        let background = tokio::spawn(async move { s3.background(ten, flag()).await.is_some() });
        settle().await;
        drop(a);
        let held = waiting
            .await
            .unwrap()
            .expect("the waiting analysis goes first");
        settle().await;
        assert!(!background.is_finished(), "the analysis went first");
        drop(held);
        assert!(background.await.unwrap(), "then the background work");

        // Background work in the only slot: a computer move stops it early;
        // it counts against no client.
        let one = Scheduler::new(1, config());
        let stop = flag();
        let b = one.background(ten, stop.clone()).await.unwrap();
        assert_eq!(one.analyses(), (1, 0));
        let o = one.clone();
        let computer = tokio::spawn(async move { o.computer().await.is_some() });
        settle().await;
        assert!(stop.load(Ordering::Relaxed) && b.preempted());
        drop(b);
        assert!(computer.await.unwrap());
        assert!(one.lock().clients.is_empty());
        one.close();
        assert!(one.background(ten, flag()).await.is_none());
    }

    #[tokio::test]
    async fn closing_refuses_waiting_requests() {
        let s = Scheduler::new(1, config());
        let _running = s
            .analysis(client(1, None), Duration::from_secs(4), flag())
            .await
            .unwrap();
        let w = {
            let s = s.clone();
            tokio::spawn(async move {
                s.analysis(client(2, None), Duration::from_secs(1), flag())
                    .await
                    .map(|_| ())
            })
        };
        tokio::time::sleep(Duration::from_millis(20)).await;
        s.close();
        assert_eq!(w.await.unwrap(), Err(Refusal::Closed));
        assert!(s.computer().await.is_none());
    }
}
