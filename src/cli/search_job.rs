//! What the line protocols `brett engine` and `brett hub` share: input read
//! on a thread of its own (so `stop` is heard while a search runs), output
//! shared with the search thread, and the search run on a thread with a
//! stop flag, reporting each depth and its result.

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use engine::LevelPlayer;
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
        self.finish(true);
        let stop = Arc::new(AtomicBool::new(false));
        let reported = Arc::new(AtomicBool::new(false));
        let (stop2, reported2) = (stop.clone(), reported.clone());
        let infinite = job.limits.infinite;
        let handle = std::thread::spawn(move || {
            let mut info = |i: &SearchInfo<G::Move>| on_info(i);
            let SearchJob {
                engine,
                root,
                history,
                limits,
                level,
                multipv,
                seed,
            } = job;
            let (best, pv) = if level >= 10 || multipv > 1 {
                // Playing (one line, within a limit): draws cost the
                // game's contempt. Analysis scores them exactly.
                let limits = if multipv == 1 && !limits.infinite {
                    limits.playing::<G>()
                } else {
                    limits
                };
                let r = engine.search(&root, &history, limits, multipv, &stop2, &mut info);
                (
                    r.best,
                    r.lines.into_iter().next().map(|l| l.1).unwrap_or_default(),
                )
            } else {
                match LevelPlayer::new(level, seed)
                    .choose(&engine, &root, &history, limits, &stop2, &mut info)
                {
                    Some(c) => (Some(c.mv), c.pv),
                    None => (None, Vec::new()),
                }
            };
            // Flag first: a command arriving right after the result then
            // waits for this thread's last instant instead of being refused.
            reported2.store(true, Ordering::Release);
            on_done(best, pv);
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
