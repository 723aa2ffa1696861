//! `brett match`: games between two levels or two engine commands.

use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{Context, Result, anyhow, bail};
use engine::{DameState, LevelPlayer, MuehleState};
use muehle::{Color, Game, Move, RuleSet};
use search::{Engine, Limits};

/// Arguments of `brett match`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game.
    #[arg(long, value_enum, default_value_t = super::GameKind::Muehle)]
    game: super::GameKind,
    /// First player: `level:N` (1–10), `perfect` (Mühle: the databases once
    /// placing has ended, level 10 before) or `cmd:COMMAND` (a program
    /// speaking the engine protocol, e.g. `cmd:brett engine`, or
    /// `cmd:brett --no-tablebase engine` for the engine without databases).
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
    /// Rule set (preset and options; for Dame a preset or options applied to
    /// the game's preset).
    #[arg(long, default_value = "standard", long_help = super::RULES_HELP)]
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
    /// Write the game records to this file.
    #[arg(long)]
    out: Option<std::path::PathBuf>,
    /// Print each game's result as it ends.
    #[arg(long)]
    verbose: bool,
}

/// How long an engine program may take to answer `uciok` or `readyok`
/// (generous: a loaded machine may run many programs at once).
const ENGINE_REPLY_TIMEOUT: Duration = Duration::from_secs(60);

/// A player in a match.
trait Player: Send {
    fn name(&self) -> String;
    fn new_game(&mut self, rules: RuleSet) -> Result<()>;
    fn choose(&mut self, game: &Game, movetime: Duration) -> Result<Option<Move>>;
}

struct LevelSide {
    player: LevelPlayer,
    engine: Engine,
}

impl Player for LevelSide {
    fn name(&self) -> String {
        format!("brett level {}", self.player.level)
    }
    fn new_game(&mut self, _rules: RuleSet) -> Result<()> {
        self.engine.clear();
        Ok(())
    }
    fn choose(&mut self, game: &Game, movetime: Duration) -> Result<Option<Move>> {
        let history: Vec<u64> = (0..game.ply())
            .filter_map(|i| game.position_at(i).map(|p| p.hash()))
            .collect();
        let stop = AtomicBool::new(false);
        Ok(self
            .player
            .choose(
                &self.engine,
                &MuehleState::new(*game.position()),
                &history,
                Limits::movetime(movetime),
                &stop,
                &mut |_| {},
            )
            .map(|c| c.mv))
    }
}

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

    /// Send the position (`start`, then `moves`) and `go movetime`; the
    /// words after `bestmove` in the answer, or `None` for `bestmove none`.
    fn best_move_words(
        &mut self,
        start: &str,
        moves: &[String],
        movetime: Duration,
    ) -> Result<Option<Vec<String>>> {
        if moves.is_empty() {
            self.send(&format!("position {start}"))?;
        } else {
            self.send(&format!("position {start} moves {}", moves.join(" ")))?;
        }
        self.send(&format!("go movetime {}", movetime.as_millis()))?;
        let lines = self.wait_for("bestmove", movetime * 3 + Duration::from_secs(5))?;
        let last = lines.last().cloned().unwrap_or_default();
        let words: Vec<String> = last.split_whitespace().skip(1).map(String::from).collect();
        if words.first().is_none_or(|w| w == "none") {
            return Ok(None);
        }
        Ok(Some(words))
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

impl Player for CommandSide {
    fn name(&self) -> String {
        self.name.clone()
    }
    fn new_game(&mut self, rules: RuleSet) -> Result<()> {
        self.send(&format!("setoption name Rules value {rules}"))?;
        self.send("ucinewgame")?;
        self.send("isready")?;
        self.wait_for("readyok", ENGINE_REPLY_TIMEOUT)?;
        Ok(())
    }
    fn choose(&mut self, game: &Game, movetime: Duration) -> Result<Option<Move>> {
        let moves: Vec<String> = game.moves().iter().map(|m| m.to_string()).collect();
        let start = if game.start().fen() == muehle::Position::new(*game.rules()).fen() {
            "startpos".to_string()
        } else {
            format!("fen {}", game.start().fen())
        };
        let Some(words) = self.best_move_words(&start, &moves, movetime)? else {
            return Ok(None);
        };
        // The removal may come as its own token: "bestmove d6 xb4".
        let text: String = words.concat();
        Ok(Some(game.position().parse_move(&text).map_err(|e| {
            anyhow!(
                "engine '{}' sent an illegal move '{text}': {e}",
                self.command
            )
        })?))
    }
}

fn make_player(spec: &str, seed: u64) -> Result<Box<dyn Player>> {
    if let Some(level) = spec.strip_prefix("level:") {
        let level: u8 = level
            .parse()
            .ok()
            .filter(|l| (1..=10).contains(l))
            .ok_or_else(|| anyhow!("'{spec}': a level is 1 to 10"))?;
        Ok(Box::new(LevelSide {
            player: LevelPlayer::new(level, seed),
            engine: Engine::new(32, 1),
        }))
    } else if let Some(cmd) = spec.strip_prefix("cmd:") {
        Ok(Box::new(CommandSide::spawn(cmd)?))
    } else if spec == "perfect" {
        if engine::muehle::databases::installed().is_none() {
            bail!("'perfect' plays from the databases: run without --no-tablebase");
        }
        Ok(Box::new(PerfectSide(LevelSide {
            player: LevelPlayer::new(10, seed),
            engine: Engine::new(32, 1),
        })))
    } else {
        bail!("a player is 'level:N', 'perfect' or 'cmd:COMMAND', got '{spec}'")
    }
}

/// Perfect play once placing has ended (the databases' move, by the rule
/// of docs/TABLEBASE.md); level 10 while placing.
struct PerfectSide(LevelSide);

impl Player for PerfectSide {
    fn name(&self) -> String {
        "perfect (databases)".to_string()
    }
    fn new_game(&mut self, rules: RuleSet) -> Result<()> {
        self.0.new_game(rules)
    }
    fn choose(&mut self, game: &Game, movetime: Duration) -> Result<Option<Move>> {
        let pos = game.position();
        if pos.in_hand(Color::White) > 0 || pos.in_hand(Color::Black) > 0 {
            return self.0.choose(game, movetime);
        }
        if game.is_over() {
            return Ok(None);
        }
        if let Some(mut moves) = engine::muehle::databases::probe_moves(pos) {
            moves.sort_by_key(|&(_, e, pref)| std::cmp::Reverse((e.rank(), pref)));
            return Ok(moves.first().map(|m| m.0));
        }
        // The no-mill counter may make a database distance unreachable
        // (the engine then does not take it as exact): the databases' best
        // move all the same, as Malom plays.
        let held = engine::muehle::databases::for_rules(pos.rules())
            .and_then(|tb| tb.probe_moves(pos).ok().flatten());
        match held {
            Some(moves) => Ok(moves.first().map(|m| m.0)),
            None => bail!(
                "'perfect': the databases do not hold {} (build them with `brett tablebase build --rules {}`)",
                pos.fen(),
                pos.rules()
            ),
        }
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
}

fn play_game(
    args: &Args,
    rules: RuleSet,
    index: usize,
    a: &mut dyn Player,
    b: &mut dyn Player,
) -> Result<Played> {
    let a_white = index.is_multiple_of(2);
    let mut game = Game::new(rules);
    // The same opening for both games of a pair.
    let mut rng = fastrand::Rng::with_seed(
        args.seed
            .wrapping_mul(1_000_003)
            .wrapping_add((index / 2) as u64),
    );
    for _ in 0..args.opening_plies {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.usize(0..moves.len())];
        game.play(m)?;
    }
    a.new_game(rules)?;
    b.new_game(rules)?;
    let movetime = Duration::from_millis(args.movetime.max(1));
    let mut forfeit: Option<(Color, String)> = None;
    while !game.is_over() && game.ply() < args.max_plies {
        let turn = game.position().turn();
        let a_moves = (turn == Color::White) == a_white;
        let mover: &mut dyn Player = if a_moves { &mut *a } else { &mut *b };
        match mover.choose(&game, movetime) {
            Ok(Some(m)) => {
                if let Err(e) = game.play(m) {
                    forfeit = Some((turn, format!("illegal move {m}: {e}")));
                    break;
                }
            }
            Ok(None) => {
                forfeit = Some((turn, "no move although the game goes on".to_string()));
                break;
            }
            Err(e) => {
                forfeit = Some((turn, e.to_string()));
                break;
            }
        }
    }
    let (white, black) = if a_white {
        (a.name(), b.name())
    } else {
        (b.name(), a.name())
    };
    game.set_tag("Event", "brett match");
    game.set_tag("Round", &(index + 1).to_string());
    game.set_tag("White", &white);
    game.set_tag("Black", &black);
    let outcome = game.outcome().map(|o| (o.winner, o.describe()));
    let blocked = match game.outcome() {
        Some(o) if forfeit.is_none() && o.reason == muehle::EndReason::Blocked => match o.winner {
            Some(w) if (w == Color::White) == a_white => -1,
            Some(_) => 1,
            None => 0,
        },
        _ => 0,
    };
    let (ply, record) = (game.ply(), game.to_record());
    let mut played = conclude(index, a_white, forfeit, outcome, ply, record, true);
    played.blocked = blocked;
    Ok(played)
}

/// A player in a Dame match.
trait DamePlayer: Send {
    fn name(&self) -> String;
    fn new_game(&mut self, kind: super::GameKind, rules: dame::RuleSet) -> Result<()>;
    fn choose(&mut self, game: &dame::Game, movetime: Duration) -> Result<Option<dame::Move>>;
}

/// A level playing Dame.
struct DameLevel {
    player: LevelPlayer,
    engine: Engine,
}

impl DameLevel {
    fn new(spec: &str, seed: u64) -> Result<DameLevel> {
        let level: u8 = spec
            .strip_prefix("level:")
            .and_then(|l| l.parse().ok())
            .filter(|l| (1..=10).contains(l))
            .ok_or_else(|| {
                anyhow!(
                    "'{spec}': for Dame a player is 'level:N' (N from 1 to 10) or 'cmd:COMMAND'"
                )
            })?;
        Ok(DameLevel {
            player: LevelPlayer::new(level, seed),
            engine: Engine::new(32, 1),
        })
    }
}

impl DamePlayer for DameLevel {
    fn name(&self) -> String {
        format!("brett level {}", self.player.level)
    }

    fn new_game(&mut self, _kind: super::GameKind, _rules: dame::RuleSet) -> Result<()> {
        self.engine.clear();
        Ok(())
    }

    fn choose(&mut self, game: &dame::Game, movetime: Duration) -> Result<Option<dame::Move>> {
        let history: Vec<u64> = (0..game.ply())
            .filter_map(|i| game.position_at(i).map(|p| p.hash()))
            .collect();
        let stop = AtomicBool::new(false);
        Ok(self
            .player
            .choose(
                &self.engine,
                &DameState::new(*game.position()),
                &history,
                Limits::movetime(movetime),
                &stop,
                &mut |_| {},
            )
            .map(|c| c.mv))
    }
}

/// A program speaking the engine protocol, playing Dame: it is told the
/// game (`setoption name Game`) and, when the rules are not the game's
/// preset, the rules; then each position as the start and the moves.
impl DamePlayer for CommandSide {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self, kind: super::GameKind, rules: dame::RuleSet) -> Result<()> {
        self.send(&format!("setoption name Game value {}", kind.name()))?;
        if super::dame_rules(kind, None).ok() != Some(rules) {
            self.send(&format!("setoption name Rules value {rules}"))?;
        }
        self.send("ucinewgame")?;
        self.send("isready")?;
        self.wait_for("readyok", ENGINE_REPLY_TIMEOUT)?;
        Ok(())
    }

    fn choose(&mut self, game: &dame::Game, movetime: Duration) -> Result<Option<dame::Move>> {
        let mut moves: Vec<String> = game.moves().iter().map(|m| m.to_string()).collect();
        // Engines before this version read a move starting with `h` (8×8:
        // `h2-g3`) as a huff: such a move is sent as the position after it.
        let cut = moves
            .iter()
            .rposition(|m| m.starts_with(['h', 'H']))
            .map_or(0, |i| i + 1);
        let start = if cut > 0 {
            let at = game
                .position_at(cut)
                .ok_or_else(|| anyhow!("no position after move {cut}"))?;
            format!("fen {}", at.fen())
        } else if game
            .start()
            .same_position(&dame::Position::new(*game.rules()))
        {
            "startpos".to_string()
        } else {
            format!("fen {}", game.start().fen())
        };
        moves.drain(..cut);
        let Some(words) = self.best_move_words(&start, &moves, movetime)? else {
            return Ok(None);
        };
        let word = &words[0];
        Ok(Some(game.position().parse_move(word).map_err(|e| {
            anyhow!(
                "engine '{}' sent an illegal move '{word}': {e}",
                self.command
            )
        })?))
    }
}

fn make_dame_player(spec: &str, seed: u64) -> Result<Box<dyn DamePlayer>> {
    if let Some(cmd) = spec.strip_prefix("cmd:") {
        Ok(Box::new(CommandSide::spawn(cmd)?))
    } else {
        Ok(Box::new(DameLevel::new(spec, seed)?))
    }
}

/// One Dame game between two levels (A White in even games).
fn play_dame_game<'p>(
    args: &Args,
    rules: dame::RuleSet,
    index: usize,
    a: &'p mut dyn DamePlayer,
    b: &'p mut dyn DamePlayer,
) -> Result<Played> {
    use dame::Color;
    let a_white = index.is_multiple_of(2);
    let mut game = dame::Game::new(rules);
    let mut rng = fastrand::Rng::with_seed(
        args.seed
            .wrapping_mul(1_000_003)
            .wrapping_add((index / 2) as u64),
    );
    for _ in 0..args.opening_plies {
        let moves = game.legal_moves();
        if moves.is_empty() || game.is_over() {
            break;
        }
        let m = moves[rng.usize(0..moves.len())];
        game.play(&m)?;
    }
    a.new_game(args.game, rules)?;
    b.new_game(args.game, rules)?;
    let movetime = Duration::from_millis(args.movetime.max(1));
    let mut forfeit: Option<(Color, String)> = None;
    while !game.is_over() && game.ply() < args.max_plies {
        let turn = game.position().turn();
        let mover = if (turn == Color::White) == a_white {
            &mut *a
        } else {
            &mut *b
        };
        match mover.choose(&game, movetime) {
            Ok(Some(m)) => {
                if let Err(e) = game.play(&m) {
                    forfeit = Some((turn, format!("illegal move: {e}")));
                    break;
                }
            }
            Ok(None) => {
                forfeit = Some((turn, "no move although the game goes on".to_string()));
                break;
            }
            Err(e) => {
                forfeit = Some((turn, format!("{e:#}")));
                break;
            }
        }
    }
    let (white, black) = if a_white {
        (a.name(), b.name())
    } else {
        (b.name(), a.name())
    };
    game.set_tag("Event", "brett match");
    game.set_tag("Round", &(index + 1).to_string());
    game.set_tag("White", &white);
    game.set_tag("Black", &black);
    let outcome = game.outcome().map(|o| (o.winner, o.describe()));
    let (ply, record) = (game.ply(), game.to_record());
    Ok(conclude(
        index, a_white, forfeit, outcome, ply, record, false,
    ))
}

/// A finished match game: White's score from the forfeit (the side that
/// forfeited loses) or the outcome (`None`: adjudicated a draw after `ply`
/// plies), a summary, and the record with a forfeit or adjudication noted in
/// a leading comment (and, with `set_result`, its Result tag set).
fn conclude(
    index: usize,
    a_white: bool,
    forfeit: Option<(Color, String)>,
    outcome: Option<(Option<Color>, String)>,
    ply: usize,
    mut record: String,
    set_result: bool,
) -> Played {
    let white_score = match (&forfeit, &outcome) {
        (Some((Color::White, _)), _) => 0.0,
        (Some((Color::Black, _)), _) => 1.0,
        (None, Some((Some(Color::White), _))) => 1.0,
        (None, Some((Some(Color::Black), _))) => 0.0,
        (None, _) => 0.5,
    };
    let summary = match (&forfeit, &outcome) {
        (Some((c, why)), _) => format!("{c} forfeits: {why}"),
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
        record = format!("{{{summary}}}\n{record}");
    }
    Played {
        blocked: 0,
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

/// The games of one worker: a function from the game's index to its result.
type Worker<'a> = Box<dyn FnMut(usize) -> Result<Played> + 'a>;

/// The game of a match and its rules.
#[derive(Clone, Copy)]
enum MatchRules {
    Muehle(RuleSet),
    Dame(dame::RuleSet),
}

/// Build a worker's two players (their random choices follow `seed`).
fn make_worker<'a>(args: &'a Args, rules: MatchRules, seed: u64) -> Result<Worker<'a>> {
    match rules {
        MatchRules::Muehle(rules) => {
            let mut a = make_player(&args.a, seed)?;
            let mut b = make_player(&args.b, seed ^ 0x5555)?;
            Ok(Box::new(move |index| {
                play_game(args, rules, index, a.as_mut(), b.as_mut())
            }))
        }
        MatchRules::Dame(rules) => {
            let mut a = make_dame_player(&args.a, seed)?;
            let mut b = make_dame_player(&args.b, seed ^ 0x5555)?;
            Ok(Box::new(move |index| {
                play_dame_game(args, rules, index, a.as_mut(), b.as_mut())
            }))
        }
    }
}

pub fn run(args: Args) -> Result<()> {
    let rules = if args.game == super::GameKind::Muehle {
        MatchRules::Muehle(super::parse_rules(&args.rules)?)
    } else {
        let rules_arg = (args.rules != "standard").then_some(args.rules.as_str());
        MatchRules::Dame(super::dame_rules(args.game, rules_arg)?)
    };
    // Check both players start before playing.
    let (name_a, name_b, rules_name) = match rules {
        MatchRules::Muehle(r) => {
            let probe_a = make_player(&args.a, args.seed)?;
            let probe_b = make_player(&args.b, args.seed ^ 0x5555)?;
            (probe_a.name(), probe_b.name(), r.to_string())
        }
        MatchRules::Dame(r) => (
            make_dame_player(&args.a, args.seed)?.name(),
            make_dame_player(&args.b, args.seed ^ 0x5555)?.name(),
            r.to_string(),
        ),
    };
    println!(
        "Match: A = {name_a} vs B = {name_b}, {} games, {} ms per move, game {}, rules {rules_name}",
        args.games,
        args.movetime,
        args.game.name()
    );
    // The first games would otherwise read the databases from disk.
    engine::muehle::databases::wait_warm();
    let next = Arc::new(Mutex::new(0usize));
    let results = Arc::new(Mutex::new(Vec::<Played>::new()));
    let concurrency = args.concurrency.clamp(1, 64).min(args.games.max(1));
    std::thread::scope(|scope| -> Result<()> {
        let mut handles = Vec::new();
        for worker in 0..concurrency {
            let next = next.clone();
            let results = results.clone();
            let args = &args;
            handles.push(scope.spawn(move || -> Result<()> {
                let mut play =
                    make_worker(args, rules, args.seed.wrapping_add(worker as u64 * 7919))?;
                loop {
                    let index = {
                        let mut n = next.lock().map_err(|_| anyhow!("lock"))?;
                        let i = *n;
                        *n += 1;
                        i
                    };
                    if index >= args.games {
                        return Ok(());
                    }
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
    if matches!(rules, MatchRules::Muehle(_)) {
        println!(
            "Lost by being blocked: A {}, B {}",
            played.iter().filter(|p| p.blocked == 1).count(),
            played.iter().filter(|p| p.blocked == -1).count()
        );
    }
    println!(
        "Elo difference A−B: {} (95% interval {} to {})",
        fmt_elo(e),
        fmt_elo(lo),
        fmt_elo(hi)
    );
    if let Some(path) = &args.out {
        let mut f = File::create(path).with_context(|| format!("writing {}", path.display()))?;
        for p in &played {
            writeln!(f, "{}", p.record)?;
        }
        println!("Game records written to {}", path.display());
    }
    Ok(())
}
