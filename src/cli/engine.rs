//! `brett engine`: a line protocol on stdin/stdout in the style of UCI.
//!
//! Input is read on its own thread, so `stop` and `isready` are answered
//! while a search runs. Bad input answers `info string error: …` and
//! changes nothing.

use std::io::Write;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Result;
use games::{LiveGame, SearchJob, Setup};
use search::{Clock, Engine, Limits, SearchInfo};

use super::game::Variant;
use super::search_job::{Out, Searcher, say, stdin_lines};

/// Arguments of `brett engine`.
#[derive(clap::Args, Debug, Default)]
pub struct Args {}

/// Default transposition table size in MiB.
pub const DEFAULT_HASH: usize = 64;

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

/// The protocol's state.
pub struct Protocol {
    out: Out,
    engine: Arc<Engine>,
    /// The game and rules (options Game and Rules).
    setup: Setup,
    level: u8,
    threads: usize,
    hash: usize,
    multipv: usize,
    /// The position (`position`), a game of `setup`.
    game: LiveGame,
    search: Searcher,
    seed: u64,
    /// Use Mühle's databases (option Tablebase).
    tablebase: bool,
}

impl Protocol {
    /// A protocol writing to `out`.
    pub fn new(out: Box<dyn Write + Send>) -> Protocol {
        let setup = Setup::default();
        Protocol {
            out: super::search_job::out(out),
            engine: Arc::new(Engine::new(DEFAULT_HASH, 1)),
            setup,
            level: 10,
            threads: 1,
            hash: DEFAULT_HASH,
            multipv: 1,
            game: setup.new_game(),
            search: Searcher::default(),
            seed: 0x0062_7265_7474,
            tablebase: true,
        }
    }

    fn error(&self, msg: &str) {
        say(&self.out, &format!("info string error: {msg}"));
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
                        engine::book::enabled()
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
                self.search.finish(true);
                return false;
            }
            "stop" => self.search.finish(true),
            "ucinewgame" => {
                self.search.finish(true);
                self.engine.clear();
                self.new_game();
            }
            "setoption" => {
                self.search.finish(true);
                self.setoption(&rest);
            }
            "position" => {
                self.search.finish(true);
                match self.setup.parse_position(&rest) {
                    Ok(game) => self.game = game,
                    Err(e) => self.error(&e),
                }
            }
            "go" => {
                if self.search.busy() {
                    self.error("a search is running: send stop first");
                } else {
                    let white_to_move = self.game.turn() == muehle::Color::White;
                    match parse_go(&rest, white_to_move) {
                        Ok(limits) => self.go(self.game.clone(), limits),
                        Err(e) => self.error(&e),
                    }
                }
            }
            "d" => {
                self.search.finish(false);
                self.display();
            }
            "perft" => {
                self.search.finish(true);
                match rest.first().map(|d| d.parse::<u32>()) {
                    Some(Ok(depth)) if depth <= 12 => self.perft(depth),
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
            "game" => match Variant::from_name(value) {
                Some(game) => {
                    let setup = self.setup.with_game(game);
                    if setup != self.setup {
                        self.setup = setup;
                        self.new_game();
                    }
                }
                None => self.error(&format!(
                    "unknown game '{value}' (games: muehle, dame, dame-100, dame-fr, international)"
                )),
            },
            "rules" => match self.setup.with_rules(value) {
                Ok(setup) => {
                    self.setup = setup;
                    self.new_game();
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
                "true" | "on" | "1" => engine::book::set_enabled(true),
                "false" | "off" | "0" => engine::book::set_enabled(false),
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

    /// A new game of the setup, from the start.
    fn new_game(&mut self) {
        self.game = self.setup.new_game();
    }

    /// `perft N` divided by first moves, then the total.
    fn perft(&self, depth: u32) {
        let t = Instant::now();
        let mut total = 0;
        for (m, n) in self.game.local().perft_divide(depth) {
            say(&self.out, &format!("{m}: {n}"));
            total += n;
        }
        if depth == 0 {
            total = 1;
        }
        say(
            &self.out,
            &format!(
                "depth {depth} nodes {total} time {:.3}",
                t.elapsed().as_secs_f64()
            ),
        );
    }

    /// `d`: the board, the game (Dame), the rules, the position, its hash,
    /// the legal moves, the huffable pieces (Dame) and the status.
    fn display(&self) {
        let game = self.game.local();
        for line in game.render(&crate::terminal::Terminal).lines() {
            say(&self.out, line);
        }
        if let Some(line) = self.setup.game_line() {
            say(&self.out, &line);
        }
        say(&self.out, &format!("Rules: {}", game.rules_text()));
        say(&self.out, &format!("Fen: {}", game.position()));
        say(&self.out, &format!("Hash: {:016x}", game.hash()));
        let moves = game.legal_moves();
        say(
            &self.out,
            &format!("Legal moves ({}): {}", moves.len(), moves.join(" ")),
        );
        let huffable = game.huffable();
        if !huffable.is_empty() {
            say(&self.out, &format!("Huffable: {}", huffable.join(" ")));
        }
        match game.outcome_detail() {
            Some(detail) => say(&self.out, &format!("Status: over, {detail}")),
            None => say(&self.out, "Status: ongoing"),
        }
    }

    /// `go`: search `game` on a thread of its own (after the huff the
    /// engine makes first, if any: `bestmove H<square> <move>`).
    fn go(&mut self, mut game: LiveGame, limits: Limits) {
        if game.ending().is_some() {
            say(&self.out, "bestmove none");
            return;
        }
        let prefix = game
            .local_mut()
            .huff_for_engine()
            .map(|sq| format!("H{sq} "))
            .unwrap_or_default();
        let mut limits = limits;
        limits.no_databases = !self.tablebase;
        if self.tablebase
            && let Some(note) = game.local().tablebase_note()
        {
            say(&self.out, &format!("info string {note}"));
        }
        let (out, out2) = (self.out.clone(), self.out.clone());
        self.seed = self
            .seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let job = SearchJob {
            engine: self.engine.clone(),
            limits,
            level: self.level,
            multipv: self.multipv,
            seed: self.seed,
        };
        self.search.run(
            limits.infinite,
            move |stop| {
                game.local()
                    .protocol_search(&job, stop, &mut |i| say(&out, &info_line(i)))
            },
            move |(best, _pv)| match best {
                Some(m) => say(&out2, &format!("bestmove {prefix}{m}")),
                None => say(&out2, "bestmove none"),
            },
        );
    }

    /// Wait for a search to end by itself (used at end of input).
    pub fn finish(&mut self) {
        self.search.finish_at_end();
    }
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
    let mut protocol = Protocol::new(Box::new(std::io::stdout()));
    for line in stdin_lines() {
        if !protocol.handle(&line) {
            return Ok(());
        }
    }
    protocol.finish();
    Ok(())
}
