//! `brett match`: games between two levels or two engine commands.

use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use boardgame::{Clock, TimeControl};
use engine::LevelPlayer;
use games::{Action, LiveGame, Setup};
use muehle::Color;
use search::{Engine, Limits};

use super::game::Variant;

/// Arguments of `brett match`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game.
    #[arg(long, value_enum, default_value_t = Variant::Muehle)]
    game: Variant,
    /// First player: `level:N` (1–10), `perfect` (Mühle: the databases once
    /// placing has ended, level 10 before) or `cmd:COMMAND` (a program
    /// speaking the engine protocol, e.g. `cmd:brett engine`, or
    /// `cmd:brett --no-tablebase engine` for the engine without databases;
    /// in either game: a Dame program is told the game and rules with
    /// `setoption`).
    #[arg(long)]
    a: String,
    /// Second player, as for --a.
    #[arg(long)]
    b: String,
    /// Number of games (colours alternate; each opening is played with both colours).
    #[arg(long, default_value_t = 40)]
    games: usize,
    /// Thinking time per move in milliseconds.
    #[arg(long, default_value_t = 1000)]
    movetime: u64,
    /// Play on clocks: a live time control, minutes for the game plus
    /// seconds added after each move (`5+3`, `0.5+1`, quarter minutes
    /// `0.25` …). Each move's time is measured and charged; a side whose
    /// time runs out loses. Levels and engine commands think with the
    /// time they have left (`go wtime … btime … winc … binc …`).
    #[arg(long, conflicts_with = "movetime")]
    tc: Option<TimeControl>,
    /// Rule set (preset and options; for Dame a preset or options applied to
    /// the game's preset).
    #[arg(long, default_value = "standard", long_help = super::game::RULES_HELP)]
    rules: String,
    /// Random plies (placements or moves) at the start of each game pair, for
    /// varied openings.
    #[arg(long, default_value_t = 2)]
    opening_plies: usize,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Seed for openings and the levels' random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// A game still going after this many plies is scored a draw.
    #[arg(long, default_value_t = 600)]
    max_plies: usize,
    /// Write the game records to this file. Its first line names the
    /// match's options (`{brett match: …}`), so that `--resume` can go on
    /// with it.
    #[arg(long)]
    out: Option<std::path::PathBuf>,
    /// Go on with the match in the --out file: keep the games it finished
    /// and play the rest (a larger --games plays more). The file must name
    /// the same options (game, rules, players, time, openings, seed, plies,
    /// threads); a file that names others is refused and left as it is.
    /// Without the file, the match starts from the first game.
    #[arg(long, requires = "out")]
    resume: bool,
    /// Print each game's result as it ends.
    #[arg(long)]
    verbose: bool,
    /// Search threads of each `level:N` and `perfect` player (an engine
    /// command keeps its own setting). With more than one thread a player
    /// searches while the other waits, so give each game its cores:
    /// `--concurrency` × threads at most the cores of the machine.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    threads: u16,
}

/// How long an engine program may take to answer `uciok` or `readyok`
/// (generous: a loaded machine may run many programs at once).
const ENGINE_REPLY_TIMEOUT: Duration = Duration::from_secs(60);

/// A player in a match, of either game.
enum Player {
    /// A level of brett's engine.
    Level(LevelPlayer, Engine),
    /// Mühle: perfect play from the databases once placing has ended
    /// (by the rule of docs/TABLEBASE.md); level 10 before.
    Perfect(LevelPlayer, Engine),
    /// A program speaking the engine protocol.
    Command(CommandSide),
}

impl Player {
    /// The player `spec` names (`level:N`, `perfect`, `cmd:COMMAND`) for
    /// `variant`; its random choices follow `seed`.
    fn new(spec: &str, variant: Setup, seed: u64, threads: usize) -> Result<Player> {
        if let Some(level) = spec.strip_prefix("level:") {
            let level: u8 = level
                .parse()
                .ok()
                .filter(|l| (1..=10).contains(l))
                .ok_or_else(|| anyhow!("'{spec}': a level is 1 to 10"))?;
            Ok(Player::Level(
                LevelPlayer::new(level, seed),
                Engine::new(32, threads),
            ))
        } else if let Some(cmd) = spec.strip_prefix("cmd:") {
            Ok(Player::Command(CommandSide::spawn(cmd)?))
        } else if spec == "perfect" {
            if !variant.has_perfect_play() {
                bail!(
                    "'perfect' plays from Mühle's databases: for Dame a player is 'level:N' or 'cmd:COMMAND'"
                );
            }
            if engine::muehle::databases::installed().is_none() {
                bail!("'perfect' plays from the databases: run without --no-tablebase");
            }
            Ok(Player::Perfect(
                LevelPlayer::new(10, seed),
                Engine::new(32, threads),
            ))
        } else {
            bail!("a player is 'level:N', 'perfect' or 'cmd:COMMAND', got '{spec}'")
        }
    }

    fn name(&self) -> String {
        match self {
            Player::Level(level, engine) if engine.threads() > 1 => {
                format!("brett level {} ({} threads)", level.level, engine.threads())
            }
            Player::Level(level, _) => format!("brett level {}", level.level),
            Player::Perfect(..) => "perfect (databases)".to_string(),
            Player::Command(side) => side.name.clone(),
        }
    }

    fn new_game(&mut self, variant: Setup) -> Result<()> {
        match self {
            Player::Level(_, engine) | Player::Perfect(_, engine) => {
                engine.clear();
                Ok(())
            }
            Player::Command(side) => side.new_game(variant),
        }
    }

    fn choose(&mut self, game: &LiveGame, think: Think) -> Result<Option<String>> {
        let limits = think.limits(game.turn());
        let stop = std::sync::atomic::AtomicBool::new(false);
        let local = game.local();
        match self {
            Player::Level(level, engine) => Ok(local.level_choice(level, engine, limits, &stop)),
            Player::Perfect(level, engine) => {
                match local.perfect_move().map_err(anyhow::Error::msg)? {
                    Some(m) => Ok(Some(m)),
                    None => Ok(local.level_choice(level, engine, limits, &stop)),
                }
            }
            Player::Command(side) => side.choose(game, think),
        }
    }
}

/// How long a player may think about its move.
#[derive(Clone, Copy, Debug)]
enum Think {
    /// This long for every move.
    MoveTime(Duration),
    /// On a clock: the time each side has left (White, Black) and the
    /// increment after each move, in milliseconds.
    Clock {
        left_ms: [u64; 2],
        increment_ms: u64,
    },
}

impl Think {
    /// The time the player has for its move now, on either rule.
    fn of(movetime: Duration, clock: Option<&Clock>) -> Think {
        match clock {
            Some(c) => Think::Clock {
                left_ms: c.remaining_ms,
                increment_ms: c.control.increment_ms(),
            },
            None => Think::MoveTime(movetime),
        }
    }

    /// The search limits of `side` to move: the move time, or its clock
    /// (the search plans the move from the time left and the increment).
    fn limits(self, side: Color) -> Limits {
        match self {
            Think::MoveTime(t) => Limits::movetime(t),
            Think::Clock {
                left_ms,
                increment_ms,
            } => Limits {
                clock: Some(search::Clock {
                    time: Duration::from_millis(left_ms[side.index()]),
                    increment: Duration::from_millis(increment_ms),
                    moves_to_go: None,
                }),
                ..Limits::default()
            },
        }
    }

    /// The engine protocol's `go` for it.
    fn go(self) -> String {
        match self {
            Think::MoveTime(t) => format!("go movetime {}", t.as_millis()),
            Think::Clock {
                left_ms: [w, b],
                increment_ms: i,
            } => format!("go wtime {w} btime {b} winc {i} binc {i}"),
        }
    }

    /// How long to wait for an engine's answer: three times the move time
    /// and 5 s, or the side's time left and 5 s (its flag has fallen by
    /// then).
    fn wait(self, side: Color) -> Duration {
        let grace = Duration::from_secs(5);
        match self {
            Think::MoveTime(t) => t * 3 + grace,
            Think::Clock { left_ms, .. } => Duration::from_millis(left_ms[side.index()]) + grace,
        }
    }
}

/// A program speaking the engine protocol, playing either game: it is told
/// the game and rules (`setoption`), then each position as the start and
/// the moves.
struct CommandSide {
    command: String,
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
    name: String,
}

impl CommandSide {
    fn spawn(command: &str) -> Result<CommandSide> {
        let words: Vec<&str> = command.split_whitespace().collect();
        let (prog, args) = words
            .split_first()
            .ok_or_else(|| anyhow!("empty engine command"))?;
        let mut child = Command::new(prog)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("starting engine '{command}'"))?;
        let stdin = child.stdin.take().ok_or_else(|| anyhow!("no stdin"))?;
        let stdout: ChildStdout = child.stdout.take().ok_or_else(|| anyhow!("no stdout"))?;
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut side = CommandSide {
            command: command.to_string(),
            child,
            stdin,
            lines: rx,
            name: command.to_string(),
        };
        side.send("uci")?;
        let id = side.wait_for("uciok", ENGINE_REPLY_TIMEOUT)?;
        if let Some(name) = id.iter().find_map(|l| l.strip_prefix("id name ")) {
            side.name = name.to_string();
        }
        Ok(side)
    }

    fn send(&mut self, line: &str) -> Result<()> {
        writeln!(self.stdin, "{line}")
            .with_context(|| format!("writing to engine '{}'", self.command))?;
        self.stdin.flush()?;
        Ok(())
    }

    fn new_game(&mut self, variant: Setup) -> Result<()> {
        for line in variant.engine_options() {
            self.send(&line)?;
        }
        self.send("ucinewgame")?;
        self.send("isready")?;
        self.wait_for("readyok", ENGINE_REPLY_TIMEOUT)?;
        Ok(())
    }

    /// Send the position and `go movetime` (or, on a clock, `go wtime …`);
    /// the move of the answer, or `None` for `bestmove none`.
    fn choose(&mut self, game: &LiveGame, think: Think) -> Result<Option<String>> {
        let (start, moves) = game.local().engine_position().map_err(anyhow::Error::msg)?;
        if moves.is_empty() {
            self.send(&format!("position {start}"))?;
        } else {
            self.send(&format!("position {start} moves {}", moves.join(" ")))?;
        }
        self.send(&think.go())?;
        let lines = self.wait_for("bestmove", think.wait(game.turn()))?;
        let last = lines.last().cloned().unwrap_or_default();
        let words: Vec<String> = last.split_whitespace().skip(1).map(String::from).collect();
        if words.first().is_none_or(|w| w == "none") {
            return Ok(None);
        }
        match game.local().engine_move(&words) {
            Ok(m) => Ok(Some(m)),
            Err(e) => bail!("engine '{}' sent {e}", self.command),
        }
    }

    /// Read lines until one starts with `prefix`; returns all lines read.
    fn wait_for(&mut self, prefix: &str, timeout: Duration) -> Result<Vec<String>> {
        let mut seen = Vec::new();
        let deadline = std::time::Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            let line = self.lines.recv_timeout(left).map_err(|_| {
                anyhow!(
                    "engine '{}' did not answer '{prefix}' in time",
                    self.command
                )
            })?;
            let done = line.starts_with(prefix);
            seen.push(line);
            if done {
                return Ok(seen);
            }
        }
    }
}

impl Drop for CommandSide {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        std::thread::sleep(Duration::from_millis(20));
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Result of one game from A's point of view: 1, ½ or 0.
struct Played {
    index: usize,
    a_white: bool,
    record: String,
    a_score: f64,
    summary: String,
    /// Mühle: the loser was blocked (could not move): 1 if A lost so, −1
    /// if B did, 0 otherwise.
    blocked: i8,
    /// The loser ran out of time: 1 if A lost so, −1 if B did, 0
    /// otherwise.
    on_time: i8,
}

/// Why a side lost the game without the rules ending it.
struct Forfeit {
    /// The side that lost.
    loser: Color,
    /// Its time ran out (else it failed to move legally).
    on_time: bool,
    /// What happened, in words.
    why: String,
}

impl Forfeit {
    /// `loser` failed to move: `why`.
    fn failed(loser: Color, why: String) -> Forfeit {
        Forfeit {
            loser,
            on_time: false,
            why,
        }
    }
}

/// One game of either game between A and B (A White in even games).
fn play_game(
    args: &Args,
    variant: Setup,
    index: usize,
    a: &mut Player,
    b: &mut Player,
) -> Result<Played> {
    let a_white = index.is_multiple_of(2);
    let mut game = variant.new_game();
    // The same opening for both games of a pair.
    let mut rng = fastrand::Rng::with_seed(
        args.seed
            .wrapping_mul(1_000_003)
            .wrapping_add((index / 2) as u64),
    );
    for _ in 0..args.opening_plies {
        let moves = game.local().legal_moves();
        if moves.is_empty() || game.ending().is_some() {
            break;
        }
        let m = &moves[rng.usize(0..moves.len())];
        game.local_mut().play_text(m).map_err(anyhow::Error::msg)?;
    }
    a.new_game(variant)?;
    b.new_game(variant)?;
    let movetime = Duration::from_millis(args.movetime.max(1));
    // The clocks start after the opening; `clocks[i]`: the mover's time
    // left after move i (none for the opening's moves).
    let control = args.tc.unwrap_or_default();
    let mut clock = Clock::new(control);
    let mut clocks: Vec<Option<u64>> = vec![None; game.ply()];
    let mut forfeit: Option<Forfeit> = None;
    while game.ending().is_none() && game.ply() < args.max_plies {
        let turn = game.turn();
        let mover = if (turn == Color::White) == a_white {
            &mut *a
        } else {
            &mut *b
        };
        let started = Instant::now();
        let chosen = mover.choose(&game, Think::of(movetime, clock.as_ref()));
        if let Some(c) = &mut clock {
            // Charged as measured: a match has no network lag to credit.
            let spent = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
            if c.charge(turn, spent, 0).is_err() {
                forfeit = Some(Forfeit {
                    loser: turn,
                    on_time: true,
                    why: "time".to_string(),
                });
                break;
            }
        }
        match chosen {
            Ok(Some(m)) => {
                if let Err(e) = game.local_mut().play_text(&m) {
                    forfeit = Some(Forfeit::failed(turn, format!("illegal move {m}: {e}")));
                    break;
                }
                clocks.push(clock.map(|c| c.remaining_ms[turn.index()]));
            }
            Ok(None) => {
                let why = "no move although the game goes on".to_string();
                forfeit = Some(Forfeit::failed(turn, why));
                break;
            }
            Err(e) => {
                forfeit = Some(Forfeit::failed(turn, format!("{e:#}")));
                break;
            }
        }
    }
    let (white, black) = if a_white {
        (a.name(), b.name())
    } else {
        (b.name(), a.name())
    };
    let tags = [
        ("Event", "brett match".to_string()),
        ("Round", (index + 1).to_string()),
        ("White", white),
        ("Black", black),
    ]
    .map(|(k, v)| (k.to_string(), v));
    let outcome = game.ending().map(|e| (e.winner, e.text));
    let blocked = match game.local().blocked_loser() {
        Some(loser) if forfeit.is_none() => {
            if (loser == Color::White) == a_white {
                1
            } else {
                -1
            }
        }
        _ => 0,
    };
    // A Dame record's Result follows the game's outcome: a forfeit is
    // recorded as the forfeiting side's resignation, an adjudicated draw as
    // agreed, so the record says who won and reads back (the leading
    // comment says why).
    let result_tag = game.local().match_result_tag();
    if let Some(f) = forfeit.as_ref().filter(|f| f.on_time)
        && game.ending().is_none()
    {
        game.flag(f.loser).map_err(anyhow::Error::msg)?;
    }
    if !result_tag && game.ending().is_none() {
        let local = game.local_mut();
        match &forfeit {
            Some(f) => local.act(Action::Resign, f.loser),
            None => local
                .act(Action::OfferDraw, Color::White)
                .and_then(|_| local.act(Action::AcceptDraw, Color::Black)),
        }
        .map_err(anyhow::Error::msg)?;
    }
    let on_time = match &forfeit {
        Some(f) if f.on_time => {
            if (f.loser == Color::White) == a_white {
                1
            } else {
                -1
            }
        }
        _ => 0,
    };
    let (ply, record) = (game.ply(), game.record_with_clock(&tags, control, &clocks));
    let mut played = conclude(index, a_white, forfeit, outcome, ply, record, result_tag);
    played.blocked = blocked;
    played.on_time = on_time;
    Ok(played)
}

/// A finished match game: White's score from the forfeit (the side that
/// forfeited loses) or the outcome (`None`: adjudicated a draw after `ply`
/// plies), a summary, and the record with a forfeit or adjudication noted in
/// a leading comment (and, with `set_result`, its Result tag set; a loss on
/// time gets the Termination tag `time forfeit`, as PGN has it).
fn conclude(
    index: usize,
    a_white: bool,
    forfeit: Option<Forfeit>,
    outcome: Option<(Option<Color>, String)>,
    ply: usize,
    mut record: String,
    set_result: bool,
) -> Played {
    let white_score = match (&forfeit, &outcome) {
        (Some(f), _) if f.loser == Color::White => 0.0,
        (Some(_), _) => 1.0,
        (None, Some((Some(Color::White), _))) => 1.0,
        (None, Some((Some(Color::Black), _))) => 0.0,
        (None, _) => 0.5,
    };
    let summary = match (&forfeit, &outcome) {
        (Some(f), _) if f.on_time => format!("{} loses on time", f.loser.title()),
        (Some(f), _) => format!("{} forfeits: {}", f.loser, f.why),
        (None, Some((_, described))) => described.clone(),
        (None, None) => format!("drawn by adjudication after {ply} plies"),
    };
    if forfeit.is_some() || outcome.is_none() {
        if set_result {
            let result = match white_score {
                1.0 => "1-0",
                0.0 => "0-1",
                _ => "1/2-1/2",
            };
            record = record.replace("[Result \"*\"]", &format!("[Result \"{result}\"]"));
        }
        if forfeit.as_ref().is_some_and(|f| f.on_time) {
            record = with_time_forfeit(&record);
        }
        record = format!("{{{summary}}}\n{record}");
    }
    Played {
        blocked: 0,
        on_time: 0,
        index,
        a_white,
        record,
        a_score: if a_white {
            white_score
        } else {
            1.0 - white_score
        },
        summary,
    }
}

/// `record` with the Termination tag `time forfeit` (PGN's word for a
/// game lost on time), in place of the one it has or after its Result tag.
fn with_time_forfeit(record: &str) -> String {
    let tag = format!("[Termination \"{}\"]", boardgame::record::TIME_FORFEIT);
    let mut lines: Vec<String> = record
        .lines()
        .filter(|l| !l.starts_with("[Termination "))
        .map(str::to_string)
        .collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("[Result "))
        .map_or(0, |i| i + 1);
    lines.insert(at, tag);
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

/// Elo difference for a score fraction, and the 95 % interval from the
/// per-game scores.
pub fn elo(scores: &[f64]) -> (f64, f64, f64) {
    let n = scores.len() as f64;
    if n == 0.0 {
        return (0.0, f64::NEG_INFINITY, f64::INFINITY);
    }
    let p = scores.iter().sum::<f64>() / n;
    let var = scores.iter().map(|s| (s - p).powi(2)).sum::<f64>() / n;
    let se = (var / n).sqrt();
    let to_elo = |p: f64| {
        if p <= 0.0 {
            f64::NEG_INFINITY
        } else if p >= 1.0 {
            f64::INFINITY
        } else {
            -400.0 * (1.0 / p - 1.0).log10()
        }
    };
    if se == 0.0 {
        // Every game ended alike: use the Wilson interval, which stays finite.
        let z2 = 1.96f64 * 1.96;
        let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let half = 1.96 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
        return (to_elo(p), to_elo(centre - half), to_elo(centre + half));
    }
    (to_elo(p), to_elo(p - 1.96 * se), to_elo(p + 1.96 * se))
}

fn fmt_elo(v: f64) -> String {
    if v.is_infinite() {
        if v > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        }
    } else {
        format!("{v:+.0}")
    }
}

/// The first line of a match's `--out` file: the options its games depend
/// on (a comment, as a record's reader skips it). `--games`,
/// `--concurrency`, `--verbose` are not among them.
fn options_line(args: &Args, variant: Setup) -> String {
    let time = match args.tc {
        Some(tc) => format!("tc={tc}"),
        None => format!("movetime={}", args.movetime),
    };
    // A comment ends at the first `}`.
    let spec = |s: &str| s.replace('}', ")");
    format!(
        "{{brett match: game={} rules={} a={} b={} {time} opening-plies={} seed={} max-plies={} threads={}}}",
        variant.variant().name(),
        variant.rules_name(),
        spec(&args.a),
        spec(&args.b),
        args.opening_plies,
        args.seed,
        args.max_plies,
        args.threads
    )
}

/// The records of a match file after its options line, each with the
/// comment line before it (a forfeit's or an adjudication's reason), and
/// where each starts.
fn split_records(text: &str) -> Vec<(usize, &str)> {
    let mut lines = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        lines.push((at, line));
        at += line.len();
    }
    let mut starts = Vec::new();
    for (i, (offset, line)) in lines.iter().enumerate() {
        if !line.starts_with("[Event ") {
            continue;
        }
        // A comment line just before the tags, after a blank line (or the
        // options line), is the record's own.
        let own_comment =
            i >= 2 && lines[i - 1].1.starts_with('{') && lines[i - 2].1.trim().is_empty();
        starts.push(if own_comment { lines[i - 1].0 } else { *offset });
    }
    starts
        .iter()
        .enumerate()
        .map(|(k, &from)| {
            let to = starts.get(k + 1).copied().unwrap_or(text.len());
            (from, &text[from..to])
        })
        .collect()
}

/// A finished game read back from a match file: its index (the Round tag),
/// and A's score, from the record's outcome.
fn read_played(chunk: &str, variant: Setup) -> Result<Played> {
    let (comment, record) = match chunk.strip_prefix('{') {
        Some(rest) => {
            let (comment, record) = rest.split_once('\n').unwrap_or((rest, ""));
            (comment.trim_end().trim_end_matches('}').to_string(), record)
        }
        None => (String::new(), chunk),
    };
    let round = record
        .lines()
        .find_map(|l| {
            l.strip_prefix("[Round \"")?
                .strip_suffix("\"]")?
                .parse::<usize>()
                .ok()
        })
        .filter(|&r| r >= 1)
        .ok_or_else(|| anyhow!("a record without its Round tag"))?;
    let index = round - 1;
    let game = LiveGame::from_record(Some(variant.variant()), record)
        .map_err(|e| anyhow!("game {round}: {e}"))?;
    // A game still going at --max-plies is a draw by adjudication: a Dame
    // record says so in its Result tag, a Mühle record (whose notation has
    // no agreed draw) in its Result tag and the leading comment the match
    // wrote.
    let (winner, reason, text) = match game.ending() {
        Some(e) => (e.winner, e.reason, e.text),
        None if comment.starts_with("drawn by adjudication after ")
            && record.lines().any(|l| l.trim() == "[Result \"1/2-1/2\"]") =>
        {
            (None, "adjudication", comment.clone())
        }
        None => bail!("game {round}: the record does not end the game"),
    };
    let a_white = index.is_multiple_of(2);
    let white_score = match winner {
        Some(Color::White) => 1.0,
        Some(Color::Black) => 0.0,
        None => 0.5,
    };
    // 1 if A lost so, −1 if B did.
    let by_a = |loser: Color| {
        if (loser == Color::White) == a_white {
            1
        } else {
            -1
        }
    };
    let on_time = match winner {
        Some(w) if reason == "time" => by_a(!w),
        _ => 0,
    };
    let blocked = game.local().blocked_loser().map_or(0, by_a);
    Ok(Played {
        index,
        a_white,
        record: format!("{}\n", chunk.trim_end()),
        a_score: if a_white {
            white_score
        } else {
            1.0 - white_score
        },
        summary: if comment.is_empty() { text } else { comment },
        blocked,
        on_time,
    })
}

/// Open a match file to go on with it: the games it finished, and the
/// file to append the next ones to. A file of other options, or with a
/// record that does not read back before its last, is refused and left
/// as it is; a last record cut off by a stop is cut off the file.
fn resume_file(
    path: &std::path::Path,
    header: &str,
    variant: Setup,
) -> Result<(Vec<Played>, File)> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let first = text.lines().next().unwrap_or_default();
    if first != header {
        if first.starts_with("{brett match: ") {
            bail!(
                "{} is a match of other options; it is left as it is.\n  the file: {first}\n  this run: {header}",
                path.display()
            );
        }
        bail!(
            "{} does not start with a match's options line ({{brett match: …}}): it cannot be resumed, and is left as it is",
            path.display()
        );
    }
    let body = &text[first.len()..];
    let records = split_records(body);
    let mut kept: Vec<Played> = Vec::new();
    let mut keep_to = text.len();
    for (k, (from, chunk)) in records.iter().enumerate() {
        match read_played(chunk, variant) {
            Ok(p) => {
                if kept.iter().any(|q| q.index == p.index) {
                    bail!(
                        "{}: game {} is in the file twice; it is left as it is",
                        path.display(),
                        p.index + 1
                    );
                }
                kept.push(p);
            }
            // The last record, cut off by a stop: played again.
            Err(_) if k + 1 == records.len() => keep_to = first.len() + from,
            Err(e) => bail!(
                "{}: a record does not read back ({e:#}); it is left as it is",
                path.display()
            ),
        }
    }
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .with_context(|| format!("writing {}", path.display()))?;
    file.set_len(keep_to as u64)
        .with_context(|| format!("writing {}", path.display()))?;
    use std::io::Seek;
    file.seek(std::io::SeekFrom::End(0))?;
    // The next record starts on a line of its own, after a blank line.
    let tail = &text[..keep_to];
    if !tail.ends_with("\n\n") && !tail.ends_with(&format!("{header}\n")) {
        file.write_all(if tail.ends_with('\n') { b"\n" } else { b"\n\n" })?;
    }
    Ok((kept, file))
}

/// The games of one worker: a function from the game's index to its result.
type Worker<'a> = Box<dyn FnMut(usize) -> Result<Played> + 'a>;

/// Build a worker's two players (their random choices follow `seed`).
fn make_worker<'a>(args: &'a Args, variant: Setup, seed: u64) -> Result<Worker<'a>> {
    let threads = usize::from(args.threads);
    let mut a = Player::new(&args.a, variant, seed, threads)?;
    let mut b = Player::new(&args.b, variant, seed ^ 0x5555, threads)?;
    Ok(Box::new(move |index| {
        play_game(args, variant, index, &mut a, &mut b)
    }))
}

pub fn run(args: Args) -> Result<()> {
    let variant = super::game::setup(args.game, Some(&args.rules))?;
    // Check both players start before playing.
    let threads = usize::from(args.threads);
    let name_a = Player::new(&args.a, variant, args.seed, threads)?.name();
    let name_b = Player::new(&args.b, variant, args.seed ^ 0x5555, threads)?.name();
    let rules_name = variant.rules_name();
    let time = match args.tc {
        Some(tc) if tc.is_live() => format!("time control {tc}"),
        Some(tc) if tc.is_timed() => {
            bail!("--tc: a match plays on a live control, minutes+seconds like 5+3, not '{tc}'")
        }
        _ => format!("{} ms per move", args.movetime),
    };
    println!(
        "Match: A = {name_a} vs B = {name_b}, {} games, {time}, game {}, rules {rules_name}",
        args.games,
        variant.variant().name()
    );
    // The first games would otherwise read the databases from disk.
    engine::muehle::databases::wait_warm();
    // Each record is written as its game ends, so a match that is stopped
    // keeps the games it finished (and `--resume` goes on from them); at
    // the end the file is written again in the games' order.
    let header = options_line(&args, variant);
    let mut kept = Vec::new();
    let out = match &args.out {
        Some(path) => {
            let file = if args.resume && path.exists() {
                let (games, file) = resume_file(path, &header, variant)?;
                kept = games;
                file
            } else {
                let mut file =
                    File::create(path).with_context(|| format!("writing {}", path.display()))?;
                writeln!(file, "{header}")
                    .with_context(|| format!("writing {}", path.display()))?;
                file
            };
            Some(Mutex::new(file))
        }
        None => None,
    };
    let out = &out;
    let todo: Vec<usize> = (0..args.games)
        .filter(|i| !kept.iter().any(|p: &Played| p.index == *i))
        .collect();
    if args.resume {
        println!(
            "{} games kept from the file, {} to play",
            kept.len(),
            todo.len()
        );
    }
    let todo = &todo;
    let next = Arc::new(Mutex::new(0usize));
    let results = Arc::new(Mutex::new(kept));
    let concurrency = args.concurrency.clamp(1, 64).min(todo.len().max(1));
    std::thread::scope(|scope| -> Result<()> {
        let mut handles = Vec::new();
        for worker in 0..concurrency {
            let next = next.clone();
            let results = results.clone();
            let args = &args;
            handles.push(scope.spawn(move || -> Result<()> {
                let mut play =
                    make_worker(args, variant, args.seed.wrapping_add(worker as u64 * 7919))?;
                loop {
                    let index = {
                        let mut n = next.lock().map_err(|_| anyhow!("lock"))?;
                        let i = *n;
                        *n += 1;
                        todo.get(i).copied()
                    };
                    let Some(index) = index else {
                        return Ok(());
                    };
                    let played = play(index)?;
                    if args.verbose {
                        println!(
                            "game {:>3}: A {} {:<5} — {}",
                            played.index + 1,
                            if played.a_white { "white" } else { "black" },
                            match played.a_score {
                                1.0 => "wins",
                                0.0 => "loses",
                                _ => "draws",
                            },
                            played.summary
                        );
                    }
                    if let Some(file) = out {
                        // One write a record: a stop cuts none in half.
                        let text = format!("{}\n", played.record);
                        file.lock()
                            .map_err(|_| anyhow!("lock"))?
                            .write_all(text.as_bytes())?;
                    }
                    results.lock().map_err(|_| anyhow!("lock"))?.push(played);
                }
            }));
        }
        for h in handles {
            h.join().map_err(|_| anyhow!("a match worker panicked"))??;
        }
        Ok(())
    })?;
    let mut played = std::mem::take(&mut *results.lock().map_err(|_| anyhow!("lock"))?);
    played.sort_by_key(|p| p.index);
    let scores: Vec<f64> = played.iter().map(|p| p.a_score).collect();
    let wins = scores.iter().filter(|&&s| s == 1.0).count();
    let losses = scores.iter().filter(|&&s| s == 0.0).count();
    let draws = scores.len() - wins - losses;
    let (e, lo, hi) = elo(&scores);
    println!(
        "A ({name_a}): wins {wins} draws {draws} losses {losses} of {}",
        scores.len()
    );
    if variant.has_perfect_play() {
        println!(
            "Lost by being blocked: A {}, B {}",
            played.iter().filter(|p| p.blocked == 1).count(),
            played.iter().filter(|p| p.blocked == -1).count()
        );
    }
    if args.tc.is_some_and(TimeControl::is_live) {
        println!(
            "Lost on time: A {}, B {}",
            played.iter().filter(|p| p.on_time == 1).count(),
            played.iter().filter(|p| p.on_time == -1).count()
        );
    }
    println!(
        "Elo difference A−B: {} (95% interval {} to {})",
        fmt_elo(e),
        fmt_elo(lo),
        fmt_elo(hi)
    );
    if let Some(path) = &args.out {
        let mut text = format!("{header}\n");
        for p in &played {
            text.push_str(&p.record);
            text.push('\n');
        }
        // Through a temporary file: the records written so far are kept
        // until the ordered file replaces them.
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = std::path::PathBuf::from(tmp);
        std::fs::write(&tmp, text).with_context(|| format!("writing {}", tmp.display()))?;
        std::fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))?;
        println!("Game records written to {}", path.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// Whatever a match file holds, reading it back for `--resume`
        /// splits it into records and reads each one or says why not,
        /// without a panic.
        #[test]
        fn any_match_file_reads_back_or_is_refused(text in "(\\{[a-z ]*\\}\n|\\[Event \"brett match\"\\]\n|\\[Round \"[0-9]{1,3}\"\\]\n|\\[Result \"1-0\"\\]\n|\n|1\\. d6 d2 |[^\\[]{0,12})*") {
            for variant in [Variant::Muehle, Variant::International] {
                let setup = super::super::game::setup(variant, None).expect("a game");
                for (from, chunk) in split_records(&text) {
                    proptest::prop_assert!(text[from..].starts_with(chunk));
                    let _ = read_played(chunk, setup);
                }
            }
        }
    }

    /// A game lost on time is recorded so, and reads back as lost on time,
    /// in both games.
    #[test]
    fn a_loss_on_time_reads_back_as_one() {
        for (variant, moves) in [
            (Variant::Muehle, ["d6", "d2"]),
            (Variant::International, ["32-28", "19-23"]),
        ] {
            let mut game = LiveGame::create(variant, None, None, None).expect("a game");
            for m in moves {
                game.play(m).expect("a legal move");
            }
            game.flag(Color::White).expect("running");
            let control = TimeControl::live(1, 0);
            let record = game.record_with_clock(&[], control, &[Some(59_000), Some(58_000)]);
            let forfeit = Forfeit {
                loser: Color::White,
                on_time: true,
                why: "time".to_string(),
            };
            let played = conclude(0, true, Some(forfeit), None, 2, record, true);
            assert_eq!(played.summary, "White loses on time");
            assert!(played.record.contains("[Termination \"time forfeit\"]"));
            // The record, after the leading comment that says why it ended.
            let (why, record) = played.record.split_once('\n').expect("a comment line");
            assert_eq!(why, "{White loses on time}");
            let back = LiveGame::from_record(Some(variant), record).expect("reads");
            let ending = back.ending().expect("over");
            assert_eq!((ending.reason, ending.winner), ("time", Some(Color::Black)));
            assert_eq!(back.record_clock().0, Some(control));
        }
    }
}
