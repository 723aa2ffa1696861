//! `brett engine`: a line protocol on stdin/stdout in the style of UCI.
//!
//! Input is read on its own thread, so `stop` and `isready` are answered
//! while a search runs. Bad input answers `info string error: …` and
//! changes nothing.

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use anyhow::Result;
use engine::dame::best_huff;
use engine::{DameState, LevelPlayer, MuehleState};

use muehle::perft::perft_divide;
use muehle::{Color, Game, Position, RuleSet, join_removal_tokens};
use search::{Clock, Engine, Limits, SearchInfo};

use super::GameKind;

/// Arguments of `brett engine`.
#[derive(clap::Args, Debug, Default)]
pub struct Args {}

/// Default transposition table size in MiB.
pub const DEFAULT_HASH: usize = 64;

type Out = Arc<Mutex<Box<dyn Write + Send>>>;

fn say(out: &Out, line: &str) {
    if let Ok(mut w) = out.lock() {
        let _ = writeln!(w, "{line}");
        let _ = w.flush();
    }
}

/// Format one search report as an `info` line.
pub fn info_line<M: std::fmt::Display>(i: &SearchInfo<M>) -> String {
    let pv: Vec<String> = i.pv.iter().map(|m| m.to_string()).collect();
    format!(
        "info depth {} seldepth {} multipv {} score {} nodes {} nps {} hashfull {} time {} pv {}",
        i.depth,
        i.seldepth,
        i.multipv,
        i.score.protocol(),
        i.nodes,
        i.nps,
        i.hashfull,
        i.time.as_millis(),
        pv.join(" ")
    )
}

/// A search running on its own thread.
pub struct Running {
    pub stop: Arc<AtomicBool>,
    pub handle: JoinHandle<()>,
    pub infinite: bool,
    /// Set once the result is out: the thread is about to end.
    pub reported: Arc<AtomicBool>,
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

impl<G: search::Game> SearchJob<G> {
    /// Start the search: `on_info` hears each depth, `on_done` gets the best
    /// move and its line once the search ends (by a limit or `stop`).
    pub fn spawn(
        self,
        on_info: impl Fn(&SearchInfo<G::Move>) + Send + 'static,
        on_done: impl FnOnce(Option<G::Move>, Vec<G::Move>) + Send + 'static,
    ) -> Running {
        let stop = Arc::new(AtomicBool::new(false));
        let reported = Arc::new(AtomicBool::new(false));
        let (stop2, reported2) = (stop.clone(), reported.clone());
        let infinite = self.limits.infinite;
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
            } = self;
            let (best, pv) = if level >= 10 || multipv > 1 {
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
        Running {
            stop,
            handle,
            infinite,
            reported,
        }
    }
}

/// The protocol's state.
pub struct Protocol {
    out: Out,
    engine: Arc<Engine>,
    kind: GameKind,
    dame_rules: dame::RuleSet,
    dame: dame::Game,
    rules: RuleSet,
    level: u8,
    threads: usize,
    hash: usize,
    multipv: usize,
    game: Game,
    running: Option<Running>,
    seed: u64,
    /// Use Mühle's databases (option Tablebase).
    tablebase: bool,
}

impl Protocol {
    /// A protocol writing to `out`.
    pub fn new(out: Box<dyn Write + Send>) -> Protocol {
        Protocol {
            out: Arc::new(Mutex::new(out)),
            engine: Arc::new(Engine::new(DEFAULT_HASH, 1)),
            kind: GameKind::Muehle,
            dame_rules: dame::RuleSet::DAME,
            dame: dame::Game::new(dame::RuleSet::DAME),
            rules: RuleSet::STANDARD,
            level: 10,
            threads: 1,
            hash: DEFAULT_HASH,
            multipv: 1,
            game: Game::new(RuleSet::STANDARD),
            running: None,
            seed: 0x0062_7265_7474,
            tablebase: true,
        }
    }

    fn error(&self, msg: &str) {
        say(&self.out, &format!("info string error: {msg}"));
    }

    /// Wait for a running search to end (stopping it first if `stop`).
    fn finish_search(&mut self, stop: bool) {
        if let Some(r) = self.running.take() {
            if stop {
                r.stop.store(true, Ordering::Relaxed);
            }
            let _ = r.handle.join();
        }
    }

    fn searching(&mut self) -> bool {
        match &self.running {
            Some(r) if r.handle.is_finished() || r.reported.load(Ordering::Acquire) => {
                self.finish_search(false);
                false
            }
            Some(_) => true,
            None => false,
        }
    }

    /// Handle one input line. Returns false on `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let line = line.trim();
        let mut words = line.split_whitespace();
        let Some(cmd) = words.next() else {
            return true;
        };
        let rest: Vec<&str> = words.collect();
        match cmd {
            "uci" => {
                say(&self.out, &format!("id name brett {}", env!("CARGO_PKG_VERSION")));
                say(&self.out, "id author the brett developers");
                say(
                    &self.out,
                    "option name Game type combo default muehle var muehle var dame var dame-100 var dame-fr var international",
                );
                say(&self.out, "option name Rules type string default standard");
                say(&self.out, "option name Level type spin default 10 min 1 max 10");
                say(
                    &self.out,
                    &format!("option name Hash type spin default {DEFAULT_HASH} min 1 max 65536"),
                );
                say(&self.out, "option name Threads type spin default 1 min 1 max 64");
                say(&self.out, "option name MultiPV type spin default 1 min 1 max 32");
                say(&self.out, "option name Tablebase type check default true");
                say(
                    &self.out,
                    &format!(
                        "option name Book type check default {}",
                        engine::muehle::book::enabled()
                    ),
                );
                say(
                    &self.out,
                    &format!(
                        "option name TablebaseDir type string default {}",
                        engine::muehle::databases::installed()
                            .map(|d| d.dir().to_path_buf())
                            .unwrap_or_else(tablebase::default_dir)
                            .display()
                    ),
                );
                say(&self.out, "uciok");
            }
            "isready" => {
                // Ready once the databases' warm-up has ended (a fresh
                // engine's first moves would otherwise read them from disk).
                engine::muehle::databases::wait_warm();
                say(&self.out, "readyok")
            }
            "quit" => {
                self.finish_search(true);
                return false;
            }
            "stop" => self.finish_search(true),
            "ucinewgame" => {
                self.finish_search(true);
                self.engine.clear();
                self.game = Game::new(self.rules);
                self.dame = dame::Game::new(self.dame_rules);
            }
            "setoption" => {
                self.finish_search(true);
                self.setoption(&rest);
            }
            "position" => {
                self.finish_search(true);
                if self.kind == GameKind::Muehle {
                    match parse_position(self.rules, &rest) {
                        Ok(g) => self.game = g,
                        Err(e) => self.error(&e),
                    }
                } else {
                    match parse_dame_position(self.dame_rules, &rest) {
                        Ok(g) => self.dame = g,
                        Err(e) => self.error(&e),
                    }
                }
            }
            "go" => {
                if self.searching() {
                    self.error("a search is running: send stop first");
                } else {
                    let white_to_move = match self.kind {
                        GameKind::Muehle => self.game.position().turn() == Color::White,
                        _ => self.dame.position().turn() == dame::Color::White,
                    };
                    match parse_go(&rest, white_to_move) {
                        Ok(limits) if self.kind == GameKind::Muehle => self.go(limits),
                        Ok(limits) => self.go_dame(limits),
                        Err(e) => self.error(&e),
                    }
                }
            }
            "d" => {
                self.finish_search(false);
                self.display();
            }
            "perft" => {
                self.finish_search(true);
                match rest.first().map(|d| d.parse::<u32>()) {
                    Some(Ok(depth)) if depth <= 12 && self.kind != GameKind::Muehle => {
                        let t = Instant::now();
                        let pos = *self.dame.position();
                        let mut total = 0;
                        for (m, n) in dame::perft::perft_divide(&pos, depth) {
                            say(&self.out, &format!("{m}: {n}"));
                            total += n;
                        }
                        if depth == 0 {
                            total = 1;
                        }
                        say(
                            &self.out,
                            &format!("depth {depth} nodes {total} time {:.3}", t.elapsed().as_secs_f64()),
                        );
                    }
                    Some(Ok(depth)) if depth <= 12 => {
                        let t = Instant::now();
                        let pos = *self.game.position();
                        let mut total = 0;
                        for (m, n) in perft_divide(&pos, depth) {
                            say(&self.out, &format!("{m}: {n}"));
                            total += n;
                        }
                        if depth == 0 {
                            total = 1;
                        }
                        say(
                            &self.out,
                            &format!("depth {depth} nodes {total} time {:.3}", t.elapsed().as_secs_f64()),
                        );
                    }
                    _ => self.error("perft needs a depth from 0 to 12, e.g. 'perft 5'"),
                }
            }
            other => self.error(&format!(
                "unknown command '{other}' (commands: uci, isready, ucinewgame, setoption, position, go, stop, quit, d, perft)"
            )),
        }
        true
    }

    fn setoption(&mut self, rest: &[&str]) {
        // setoption name <Name> value <Value…>
        let joined = rest.join(" ");
        let Some(after_name) = joined.strip_prefix("name ") else {
            return self.error("setoption needs 'name <Name> value <Value>'");
        };
        let (name, value) = match after_name.split_once(" value ") {
            Some((n, v)) => (n.trim(), v.trim()),
            None => (after_name.trim(), ""),
        };
        let number = |lo: usize, hi: usize| -> Result<usize, String> {
            value
                .parse::<usize>()
                .ok()
                .filter(|v| (lo..=hi).contains(v))
                .ok_or_else(|| {
                    format!("option {name} needs a number from {lo} to {hi}, got '{value}'")
                })
        };
        match name.to_ascii_lowercase().as_str() {
            "game" => match GameKind::from_name(value) {
                Some(kind) => {
                    self.kind = kind;
                    if kind != GameKind::Muehle {
                        // The game's own preset; Rules options apply on top.
                        if let Ok(r) = super::dame_rules(kind, None) {
                            self.dame_rules = r;
                            self.dame = dame::Game::new(r);
                        }
                    }
                }
                None => self.error(&format!(
                    "unknown game '{value}' (games: muehle, dame, dame-100, dame-fr, international)"
                )),
            },
            "rules" if self.kind != GameKind::Muehle => {
                match super::dame_rules(self.kind, Some(value)) {
                    Ok(r) => {
                        self.dame_rules = r;
                        self.dame = dame::Game::new(r);
                    }
                    Err(e) => self.error(&format!("{e:#}")),
                }
            }
            "rules" => match value.parse::<RuleSet>() {
                Ok(r) => {
                    self.rules = r;
                    self.game = Game::new(r);
                }
                Err(e) => self.error(&e.to_string()),
            },
            "level" => match number(1, 10) {
                Ok(v) => self.level = v as u8,
                Err(e) => self.error(&e),
            },
            "hash" => match number(1, 65536) {
                Ok(v) => {
                    self.hash = v;
                    self.rebuild_engine();
                }
                Err(e) => self.error(&e),
            },
            "threads" => match number(1, 64) {
                Ok(v) => {
                    self.threads = v;
                    self.rebuild_engine();
                }
                Err(e) => self.error(&e),
            },
            "multipv" => match number(1, 32) {
                Ok(v) => self.multipv = v,
                Err(e) => self.error(&e),
            },
            "book" => match value.to_ascii_lowercase().as_str() {
                "true" | "on" | "1" => engine::muehle::book::set_enabled(true),
                "false" | "off" | "0" => engine::muehle::book::set_enabled(false),
                _ => self.error("option Book needs true or false"),
            },
            "tablebase" => match value.to_ascii_lowercase().as_str() {
                "true" | "on" | "1" => self.tablebase = true,
                "false" | "off" | "0" => self.tablebase = false,
                _ => self.error("option Tablebase needs true or false"),
            },
            "tablebasedir" => {
                if value.is_empty() {
                    engine::muehle::databases::install(None);
                } else {
                    engine::muehle::databases::install(Some(std::path::Path::new(value)));
                    engine::muehle::databases::warm_in_background();
                }
            }
            "seed" => match value.parse::<u64>() {
                Ok(v) => self.seed = v,
                Err(_) => self.error("option Seed needs a number"),
            },
            _ => self.error(&format!(
                "unknown option '{name}' (options: Game, Rules, Level, Hash, Threads, MultiPV, Tablebase, TablebaseDir)"
            )),
        }
    }

    fn rebuild_engine(&mut self) {
        self.engine = Arc::new(Engine::new(self.hash, self.threads));
    }

    fn display(&self) {
        if self.kind != GameKind::Muehle {
            return self.display_dame();
        }
        let pos = self.game.position();
        let mut text = crate::board::render(pos, self.game.moves().last().copied());
        text.push_str(&crate::board::status(pos));
        for line in text.lines() {
            say(&self.out, line);
        }
        say(&self.out, &format!("Rules: {}", self.rules));
        say(&self.out, &format!("Fen: {}", pos.fen()));
        say(&self.out, &format!("Hash: {:016x}", pos.hash()));
        let moves: Vec<String> = self
            .game
            .legal_moves()
            .iter()
            .map(|m| m.to_string())
            .collect();
        say(
            &self.out,
            &format!("Legal moves ({}): {}", moves.len(), moves.join(" ")),
        );
        match self.game.outcome() {
            Some(o) => say(
                &self.out,
                &format!(
                    "Status: over, {} ({}, {})",
                    o.result_str(),
                    o.reason.code(),
                    o.describe()
                ),
            ),
            None => say(&self.out, "Status: ongoing"),
        }
    }

    fn go(&mut self, limits: Limits) {
        if self.game.is_over() {
            say(&self.out, "bestmove none");
            return;
        }
        let pos = *self.game.position();
        let mut limits = limits;
        limits.no_databases = !self.tablebase;
        if self.tablebase
            && let Some(tb) = engine::muehle::databases::for_rules(pos.rules())
        {
            match tb.probe(&pos) {
                Ok(Some(v)) => say(
                    &self.out,
                    &format!(
                        "info string tablebase {v} ({})",
                        engine::muehle::databases::verdict(pos.turn(), v)
                    ),
                ),
                Ok(None) => {}
                Err(e) => say(
                    &self.out,
                    &format!("info string tablebase unavailable: {e}"),
                ),
            }
        }
        let root = MuehleState::new(pos);
        let history: Vec<u64> = (0..self.game.ply())
            .filter_map(|i| self.game.position_at(i).map(Position::hash))
            .collect();
        self.spawn(root, history, limits, String::new());
    }

    fn go_dame(&mut self, limits: Limits) {
        if self.dame.is_over() {
            say(&self.out, "bestmove none");
            return;
        }
        // A capture the opponent skipped (huffing on): huff first.
        let mut game = self.dame.clone();
        let mut prefix = String::new();
        if let Some(sq) = best_huff(&game)
            && game.huff(sq).is_ok()
        {
            prefix = format!("H{} ", sq.name());
        }
        let mut limits = limits;
        limits.no_databases = !self.tablebase;
        let pos = *game.position();
        if self.tablebase
            && let Some(v) =
                engine::dame::databases::installed().and_then(|tb| tb.probe_value(&pos))
        {
            say(
                &self.out,
                &format!(
                    "info string tablebase {v} ({})",
                    engine::dame::databases::verdict(v)
                ),
            );
        }
        let root = DameState::new(pos);
        let history: Vec<u64> = (0..game.ply())
            .filter_map(|i| game.position_at(i).map(dame::Position::hash))
            .collect();
        self.spawn(root, history, limits, prefix);
    }

    fn display_dame(&self) {
        let pos = self.dame.position();
        let mut text = crate::board::render_dame(pos);
        text.push_str(&crate::board::dame_status(pos));
        for line in text.lines() {
            say(&self.out, line);
        }
        say(&self.out, &format!("Game: {}", self.kind.name()));
        say(&self.out, &format!("Rules: {}", self.dame_rules));
        say(&self.out, &format!("Fen: {}", pos.fen()));
        say(&self.out, &format!("Hash: {:016x}", pos.hash()));
        let moves: Vec<String> = self
            .dame
            .legal_moves()
            .iter()
            .map(|m| m.to_string())
            .collect();
        say(
            &self.out,
            &format!("Legal moves ({}): {}", moves.len(), moves.join(" ")),
        );
        let huffable: Vec<&str> = self
            .dame
            .huffable()
            .squares(pos.size())
            .map(|s| s.name())
            .collect();
        if !huffable.is_empty() {
            say(&self.out, &format!("Huffable: {}", huffable.join(" ")));
        }
        match self.dame.outcome() {
            Some(o) => say(
                &self.out,
                &format!("Status: over, {} ({})", o.result_str(), o.describe()),
            ),
            None => say(&self.out, "Status: ongoing"),
        }
    }

    /// Search `root` on a thread of its own; `bestmove` follows `prefix`.
    fn spawn<G: search::Game>(
        &mut self,
        root: G,
        history: Vec<u64>,
        limits: Limits,
        prefix: String,
    ) {
        let (out, out2) = (self.out.clone(), self.out.clone());
        self.seed = self
            .seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let job = SearchJob {
            engine: self.engine.clone(),
            root,
            history,
            limits,
            level: self.level,
            multipv: self.multipv,
            seed: self.seed,
        };
        self.running = Some(job.spawn(
            move |i| say(&out, &info_line(i)),
            move |best, _pv| match best {
                Some(m) => say(&out2, &format!("bestmove {prefix}{m}")),
                None => say(&out2, "bestmove none"),
            },
        ));
    }

    /// Wait for a search to end by itself (used at end of input).
    pub fn finish(&mut self) {
        // An infinite search would never end by itself: stop it.
        let infinite = self.running.as_ref().is_some_and(|r| r.infinite);
        self.finish_search(infinite);
    }
}

/// `position startpos|fen <position string> [moves …]` (the words after `position`).
pub fn parse_position(rules: RuleSet, rest: &[&str]) -> Result<Game, String> {
    let (start, after) =
        match rest.first() {
            Some(&"startpos") => (Position::new(rules), &rest[1..]),
            Some(&"fen") => {
                let end = rest
                    .iter()
                    .position(|w| *w == "moves")
                    .unwrap_or(rest.len());
                let fen = rest[1..end].join(" ");
                let pos = Position::from_fen(&fen, rules)
                    .map_err(|e| format!("position fen '{fen}': {e}"))?;
                (pos, &rest[end..])
            }
            _ => return Err(
                "position needs 'startpos' or 'fen <position string>', then optionally 'moves …'"
                    .into(),
            ),
        };
    let mut game = Game::from_position(start);
    match after.first() {
        None => {}
        Some(&"moves") => {
            for (i, text) in join_removal_tokens(after[1..].iter().copied())
                .iter()
                .enumerate()
            {
                game.play_str(text)
                    .map_err(|e| format!("move {} '{text}': {e}", i + 1))?;
            }
        }
        Some(other) => return Err(format!("expected 'moves', found '{other}'")),
    }
    Ok(game)
}

/// Dame: `position startpos|fen <FEN> [moves …]`; a huff is written
/// `H<square>` before the move it precedes.
pub fn parse_dame_position(rules: dame::RuleSet, rest: &[&str]) -> Result<dame::Game, String> {
    let (start, after) = match rest.first() {
        Some(&"startpos") => (dame::Position::new(rules), &rest[1..]),
        Some(&"fen") => {
            let end = rest
                .iter()
                .position(|w| *w == "moves")
                .unwrap_or(rest.len());
            let fen = rest[1..end].join(" ");
            let pos = dame::Position::from_fen(&fen, rules)
                .map_err(|e| format!("position fen '{fen}': {e}"))?;
            (pos, &rest[end..])
        }
        _ => {
            return Err(
                "position needs 'startpos' or 'fen <FEN>', then optionally 'moves …'".into(),
            );
        }
    };
    let mut game = dame::Game::from_position(start);
    match after.first() {
        None => {}
        Some(&"moves") => {
            let size = game.position().size();
            for (i, text) in after[1..].iter().enumerate() {
                // A huff is `H` and one square of the board; anything else
                // is a move (`h2-g3`, `h4xf6` on 8×8 are moves): the one
                // rule of `dame::parse_huff_token`.
                let result = match dame::parse_huff_token(text, size) {
                    Some(sq) => game.huff(sq),
                    None => game.play_str(text).map(|_| ()),
                };
                result.map_err(|e| format!("move {} '{text}': {e}", i + 1))?;
            }
        }
        Some(other) => return Err(format!("expected 'moves', found '{other}'")),
    }
    Ok(game)
}

/// `go …` (the words after `go`).
pub fn parse_go(rest: &[&str], white_to_move: bool) -> Result<Limits, String> {
    let mut limits = Limits::default();
    let mut clock_w = Clock::default();
    let mut clock_b = Clock::default();
    let mut has_clock = false;
    let mut i = 0;
    let num = |i: usize, name: &str| -> Result<u64, String> {
        rest.get(i + 1)
            .and_then(|v| v.parse::<u64>().ok())
            .ok_or_else(|| format!("go {name} needs a number"))
    };
    while i < rest.len() {
        let w = rest[i];
        match w {
            "infinite" => {
                limits.infinite = true;
                i += 1;
                continue;
            }
            "depth" => limits.depth = Some(num(i, w)?.clamp(1, 120) as u32),
            "nodes" => limits.nodes = Some(num(i, w)?.max(1)),
            "movetime" => limits.movetime = Some(Duration::from_millis(num(i, w)?)),
            "wtime" => {
                clock_w.time = Duration::from_millis(num(i, w)?);
                has_clock = true;
            }
            "btime" => {
                clock_b.time = Duration::from_millis(num(i, w)?);
                has_clock = true;
            }
            "winc" => clock_w.increment = Duration::from_millis(num(i, w)?),
            "binc" => clock_b.increment = Duration::from_millis(num(i, w)?),
            "movestogo" => {
                let n = num(i, w)? as u32;
                clock_w.moves_to_go = Some(n);
                clock_b.moves_to_go = Some(n);
            }
            other => {
                return Err(format!(
                    "unknown go parameter '{other}' (movetime N, depth N, nodes N, wtime N btime N winc N binc N movestogo N, infinite)"
                ));
            }
        }
        i += 2;
    }
    if has_clock {
        limits.clock = Some(if white_to_move { clock_w } else { clock_b });
    }
    Ok(limits)
}

pub fn run(_args: Args) -> Result<()> {
    let (tx, rx) = mpsc::channel::<String>();
    std::thread::spawn(move || {
        let stdin = io::stdin();
        for line in stdin.lock().lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut protocol = Protocol::new(Box::new(io::stdout()));
    for line in rx {
        if !protocol.handle(&line) {
            return Ok(());
        }
    }
    protocol.finish();
    Ok(())
}
