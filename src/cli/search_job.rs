//! What the line protocols `brett engine` and `brett hub` share: input read
//! on a thread of its own (so `stop` is heard while a search runs), output
//! shared with the search thread, and the search run on a thread with a
//! stop flag, reporting each depth and its result.

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use search::{Engine, Limits, SearchInfo};

/// The protocol's output, shared with the search thread.
pub type Out = Arc<Mutex<Box<dyn Write + Send>>>;

/// The output for `w`.
pub fn out(w: Box<dyn Write + Send>) -> Out {
    Arc::new(Mutex::new(w))
}

/// Write one line and flush it.
pub fn say(out: &Out, line: &str) {
    if let Ok(mut w) = out.lock() {
        let _ = writeln!(w, "{line}");
        let _ = w.flush();
    }
}

/// The lines of standard input, read on a thread of their own.
pub fn stdin_lines() -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

/// Everything a search thread needs.
pub struct SearchJob<G: search::Game> {
    pub engine: Arc<Engine>,
    pub root: G,
    pub history: Vec<u64>,
    pub limits: Limits,
    pub level: u8,
    pub multipv: usize,
    pub seed: u64,
}

/// A search running on its own thread.
struct Running {
    stop: Arc<AtomicBool>,
    handle: JoinHandle<()>,
    infinite: bool,
    /// Set once the result is out: the thread is about to end.
    reported: Arc<AtomicBool>,
}

/// A protocol's search: at most one runs at a time.
#[derive(Default)]
pub struct Searcher {
    running: Option<Running>,
}

impl Searcher {
    /// Start `job`: `on_info` hears each depth, `on_done` gets the best
    /// move and its line once the search ends (by a limit or `stop`). A
    /// search still running is stopped first.
    pub fn start<G: search::Game>(
        &mut self,
        job: SearchJob<G>,
        on_info: impl Fn(&SearchInfo<G::Move>) + Send + 'static,
        on_done: impl FnOnce(Option<G::Move>, Vec<G::Move>) + Send + 'static,
    ) {
        let SearchJob {
            engine,
            root,
            history,
            limits,
            level,
            multipv,
            seed,
        } = job;
        let job = games::SearchJob {
            engine,
            limits,
            level,
            multipv,
            seed,
        };
        self.run(
            limits.infinite,
            move |stop| games::run_job(&job, &root, &history, stop, &mut |i| on_info(i)),
            move |(best, pv)| on_done(best, pv),
        );
    }

    /// Run `work` on a thread of its own (it gets the stop flag; `infinite`:
    /// it runs until stopped) and hand its result to `on_done`. A search
    /// still running is stopped first.
    pub fn run<R: 'static>(
        &mut self,
        infinite: bool,
        work: impl FnOnce(&AtomicBool) -> R + Send + 'static,
        on_done: impl FnOnce(R) + Send + 'static,
    ) {
        self.finish(true);
        let stop = Arc::new(AtomicBool::new(false));
        let reported = Arc::new(AtomicBool::new(false));
        let (stop2, reported2) = (stop.clone(), reported.clone());
        let handle = std::thread::spawn(move || {
            let result = work(&stop2);
            // Flag first: a command arriving right after the result then
            // waits for this thread's last instant instead of being refused.
            reported2.store(true, Ordering::Release);
            on_done(result);
        });
        self.running = Some(Running {
            stop,
            handle,
            infinite,
            reported,
        });
    }

    /// Wait for the running search to end (stopping it first if `stop`).
    pub fn finish(&mut self, stop: bool) {
        if let Some(r) = self.running.take() {
            if stop {
                r.stop.store(true, Ordering::Relaxed);
            }
            let _ = r.handle.join();
        }
    }

    /// Whether a search is running (one that has reported is finished).
    pub fn busy(&mut self) -> bool {
        match &self.running {
            Some(r) if r.handle.is_finished() || r.reported.load(Ordering::Acquire) => {
                self.finish(false);
                false
            }
            Some(_) => true,
            None => false,
        }
    }

    /// At the end of input: wait for the search to end by itself, stopping
    /// an infinite one (it never would).
    pub fn finish_at_end(&mut self) {
        let infinite = self.running.as_ref().is_some_and(|r| r.infinite);
        self.finish(infinite);
    }
}
