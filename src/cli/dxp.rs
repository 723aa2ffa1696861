//! `brett dxp`: international draughts over the DamExchange protocol (DXP),
//! the TCP protocol of draughts engine matches (Kingsrow, Scan, Dam 2.2 and
//! the DXP tournament managers speak it).
//!
//! `--connect ADDR` is the *initiator*: it proposes each game with a GAMEREQ
//! (colours alternate from `--color`), plays it, and hangs up after
//! `--games` games. `--listen ADDR` waits for one connection and is the
//! *follower*: it answers every GAMEREQ with a GAMEACC and plays the games
//! proposed until the initiator stops or hangs up. Both play with the
//! engine at `--level`, thinking within the game's DXP thinking time.
//!
//! Standard output has one line per event: `listening on ADDR` (follower),
//! `game N white NAME black NAME` at the start of a game, then at its end
//! `game N start FEN` (for a start other than the usual one),
//! `game N moves …` (every move with its whole path, e.g. `28x19x10`) and
//! `game N result R WHY` (`R`: `1-0`, `0-1`, `1/2-1/2`, or `*` for a game
//! broken off), and at the end `score wins W draws D losses L unfinished U`
//! from brett's side. Notes (chat, refused take-backs) go to standard error.
//!
//! The message formats are in [`message`]; docs/DAME.md ("DXP") has what is
//! supported and the limits.

mod message;

// The Hub position string of the tests writes its letters the same way.
#[cfg(test)]
pub(crate) use message::piece_letter;

use std::io::BufReader;
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use dame::{Bitboard, BoardSize, Color, Game, Move, Outcome, Position, RuleSet};
use engine::{DameState, LevelPlayer};
use search::{Clock, Engine, Limits};

use message::{
    AcceptCode, BackAnswer, EndReason, FrameError, GameAccept, GameEnd, GameRequest, Message,
    MessageError, MoveMessage,
};

/// How long the initiator waits for the GAMEACC.
const ACCEPT_WAIT: Duration = Duration::from_secs(60);
/// How long brett waits for the acknowledgement of its GAMEEND.
const ACK_WAIT: Duration = Duration::from_secs(30);
/// How long the follower waits for the next GAMEREQ.
const IDLE_WAIT: Duration = Duration::from_secs(600);
/// How long brett waits for a move beyond the opponent's thinking time.
const GRACE: Duration = Duration::from_secs(60);
/// How long brett waits for a move in a game without a clock.
const NO_CLOCK_WAIT: Duration = Duration::from_secs(600);
/// brett's time per move in a game without a clock (thinking time 000).
const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(1);
/// How long the initiator tries to connect.
const CONNECT_WAIT: Duration = Duration::from_secs(10);

/// Arguments of `brett dxp`.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("role").required(true).args(["listen", "connect"])))]
pub struct Args {
    /// Wait for one connection on ADDR (e.g. 0.0.0.0:27531, DXP's port;
    /// port 0 picks a free one) and play as the follower: the peer proposes
    /// the games. Prints `listening on ADDR` first.
    #[arg(long, value_name = "ADDR")]
    listen: Option<String>,
    /// Connect to ADDR (e.g. 127.0.0.1:27531) and play as the initiator,
    /// proposing the games.
    #[arg(long, value_name = "ADDR")]
    connect: Option<String>,
    /// brett's colour in the first game (initiator; the colours alternate).
    #[arg(long, value_enum, default_value_t = Side::White, conflicts_with = "listen")]
    color: Side,
    /// Thinking time of each player for the whole game, in minutes, as DXP
    /// defines it (initiator; 0–999; 0: no clock, brett thinks --move-time
    /// or 1 s per move).
    #[arg(long, value_name = "MINUTES", default_value_t = 10, conflicts_with = "listen",
          value_parser = clap::value_parser!(u16).range(0..=999))]
    time: u16,
    /// Number of moves per game (initiator; 0–999, 0: no limit). brett ends
    /// a game on its turn once each side has made this many moves (the
    /// result is then `*`); the clock plans the thinking time for them.
    #[arg(long, default_value_t = 0, conflicts_with = "listen",
          value_parser = clap::value_parser!(u16).range(0..=999))]
    moves: u16,
    /// Number of games to propose (initiator).
    #[arg(long, default_value_t = 1, conflicts_with = "listen",
          value_parser = clap::value_parser!(u32).range(1..))]
    games: u32,
    /// Start every game from this position (FEN, e.g. `W:W31-50:B1-20`)
    /// instead of the usual one (initiator).
    #[arg(long, value_name = "FEN", conflicts_with = "listen")]
    position: Option<String>,
    /// brett's name in GAMEREQ and GAMEACC (32 characters are sent).
    #[arg(long, default_value = "brett")]
    name: String,
    /// Playing level, 1 (a beginner) to 10 (full strength).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u8).range(1..=10))]
    level: u8,
    /// Think at most SECS per move (in a game without a clock: SECS per move).
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    move_time: Option<Duration>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=65536))]
    hash: u32,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    threads: u32,
    /// Print every message sent (`> …`) and received (`< …`) on standard error.
    #[arg(long)]
    verbose: bool,
}

/// A colour on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Side {
    White,
    Black,
}

impl From<Side> for Color {
    fn from(side: Side) -> Color {
        match side {
            Side::White => Color::White,
            Side::Black => Color::Black,
        }
    }
}

fn parse_seconds(s: &str) -> Result<Duration, String> {
    match s.parse::<f64>() {
        Ok(secs) if secs > 0.0 && secs <= 86_400.0 => Ok(Duration::from_secs_f64(secs)),
        _ => Err(format!("'{s}' is not a number of seconds above 0")),
    }
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// Run `brett dxp`: connect or listen, play the games, print the score.
pub fn run(args: Args) -> Result<()> {
    let player = Player {
        name: args.name.clone(),
        engine: Engine::new(args.hash as usize, args.threads as usize),
        level: args.level,
        move_time: args.move_time,
    };
    let tally = if let Some(addr) = &args.listen {
        let listener = TcpListener::bind(addr).with_context(|| format!("listening on {addr}"))?;
        println!("listening on {}", listener.local_addr()?);
        let (stream, peer) = listener.accept().context("waiting for a connection")?;
        drop(listener);
        eprintln!("connection from {peer}");
        let mut conn = Connection::new(stream, args.verbose)?;
        let tally = follow(&mut conn, &player);
        conn.close();
        tally?
    } else if let Some(addr) = &args.connect {
        let stream = connect(addr)?;
        eprintln!("connected to {}", stream.peer_addr()?);
        let mut conn = Connection::new(stream, args.verbose)?;
        let tally = initiate(&mut conn, &player, &args);
        conn.close();
        tally?
    } else {
        bail!("give --listen ADDR or --connect ADDR");
    };
    println!(
        "score wins {} draws {} losses {} unfinished {}",
        tally.wins, tally.draws, tally.losses, tally.unfinished
    );
    Ok(())
}

fn connect(addr: &str) -> Result<TcpStream> {
    let mut last = None;
    for a in addr
        .to_socket_addrs()
        .with_context(|| format!("the address '{addr}'"))?
    {
        match TcpStream::connect_timeout(&a, CONNECT_WAIT) {
            Ok(s) => return Ok(s),
            Err(e) => last = Some(anyhow!(e).context(format!("connecting to {a}"))),
        }
    }
    Err(last.unwrap_or_else(|| anyhow!("'{addr}' names no address")))
}

/// brett's side of the games: the engine and how it thinks.
struct Player {
    name: String,
    engine: Engine,
    level: u8,
    move_time: Option<Duration>,
}

impl Player {
    /// The search limits for brett's next move: the clock of the game
    /// (the thinking time left, the moves to go until the number of moves
    /// if one is set and not yet reached), capped by --move-time.
    fn limits(&self, spec: &GameSpec, used: Duration, moves_made: u16) -> Limits {
        let mut limits = Limits::default();
        if spec.minutes == 0 {
            limits.movetime = Some(self.move_time.unwrap_or(DEFAULT_MOVE_TIME));
            return limits;
        }
        limits.clock = Some(Clock {
            time: spec.thinking_time().saturating_sub(used),
            increment: Duration::ZERO,
            moves_to_go: (spec.moves > moves_made).then(|| u32::from(spec.moves - moves_made)),
        });
        limits.movetime = self.move_time;
        limits
    }
}

/// A message from the peer, or why there is none.
enum Incoming {
    Message(Message),
    /// A GAMEREQ of another protocol version (answered with GAMEACC `1`).
    OtherVersion(u8),
    /// The peer closed the connection between two messages.
    Closed,
    /// Nothing arrived in time.
    TimedOut,
}

/// The TCP connection to the peer.
struct Connection {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
    peer: SocketAddr,
    verbose: bool,
}

impl Connection {
    fn new(stream: TcpStream, verbose: bool) -> Result<Connection> {
        stream.set_nodelay(true)?;
        let peer = stream.peer_addr()?;
        let writer = stream.try_clone()?;
        Ok(Connection {
            reader: BufReader::new(stream),
            writer,
            peer,
            verbose,
        })
    }

    fn send(&mut self, m: &Message) -> Result<()> {
        if self.verbose {
            eprintln!("> {}", m.encode());
        }
        message::write_frame(&mut self.writer, m)
            .with_context(|| format!("sending {} to {}", m.kind(), self.peer))
    }

    /// The next message within `wait`. CHAT is printed, BACKREQ refused
    /// (BACKACC `1`), a stray BACKACC ignored; a message that breaks the
    /// protocol is an error.
    fn receive(&mut self, wait: Duration) -> Result<Incoming> {
        let deadline = Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Ok(Incoming::TimedOut);
            }
            self.reader.get_ref().set_read_timeout(Some(left))?;
            let bytes = match message::read_frame(&mut self.reader) {
                Ok(None) => return Ok(Incoming::Closed),
                Ok(Some(bytes)) => bytes,
                Err(FrameError::Io(e))
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) =>
                {
                    return Ok(Incoming::TimedOut);
                }
                Err(e) => return Err(anyhow!(e).context(format!("reading from {}", self.peer))),
            };
            if bytes.is_empty() {
                continue; // a stray NUL
            }
            let shown = String::from_utf8_lossy(&bytes).escape_debug().to_string();
            if self.verbose {
                eprintln!("< {shown}");
            }
            match Message::parse(&bytes) {
                Ok(Message::Chat(text)) => eprintln!("chat from {}: {text}", self.peer),
                Ok(Message::BackRequest(b)) => {
                    eprintln!(
                        "{} asks to take back to move {}: brett does not take back",
                        self.peer, b.move_number
                    );
                    self.send(&Message::BackAccept(BackAnswer::NotSupported))?;
                }
                Ok(Message::BackAccept(_)) => {
                    eprintln!("ignoring a BACKACC: brett asked for no take-back");
                }
                Ok(m) => return Ok(Incoming::Message(m)),
                Err(MessageError::UnsupportedVersion(v)) => return Ok(Incoming::OtherVersion(v)),
                Err(e) => bail!("bad message from {} ('{shown}'): {e}", self.peer),
            }
        }
    }

    fn close(&self) {
        let _ = self.writer.shutdown(Shutdown::Both);
    }
}

/// Who proposes the games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Initiator,
    Follower,
}

/// One game as agreed in its GAMEREQ.
struct GameSpec {
    role: Role,
    /// brett's colour.
    me: Color,
    start: Position,
    /// Thinking time of each player, in minutes (0: no clock).
    minutes: u16,
    /// Number of moves (0: none).
    moves: u16,
    /// Whether this is the initiator's last game (the stop code of brett's
    /// GAMEEND).
    last: bool,
}

impl GameSpec {
    fn thinking_time(&self) -> Duration {
        Duration::from_secs(u64::from(self.minutes) * 60)
    }

    /// How long to wait for the opponent's move: its thinking time left and
    /// a minute of grace.
    fn wait_for(&self, used: Duration) -> Duration {
        if self.minutes == 0 {
            NO_CLOCK_WAIT
        } else {
            self.thinking_time().saturating_sub(used) + GRACE
        }
    }
}

/// A game's result from the board's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    Win(Color),
    Draw,
    Unfinished,
}

impl Verdict {
    fn of(o: Outcome) -> Verdict {
        o.winner.map_or(Verdict::Draw, Verdict::Win)
    }

    fn result_str(self) -> &'static str {
        match self {
            Verdict::Win(Color::White) => "1-0",
            Verdict::Win(Color::Black) => "0-1",
            Verdict::Draw => "1/2-1/2",
            Verdict::Unfinished => "*",
        }
    }
}

/// A game played to its end.
struct Played {
    game: Game,
    verdict: Verdict,
    why: String,
    /// The peer wants no further game (its GAMEEND said stop, or it hung up).
    peer_stops: bool,
    /// A GAMEREQ that broke the game off, or came instead of the
    /// acknowledgement of brett's GAMEEND (follower).
    next_request: Option<GameRequest>,
}

/// Wins, draws and losses from brett's side.
#[derive(Default)]
struct Tally {
    wins: u32,
    draws: u32,
    losses: u32,
    unfinished: u32,
}

impl Tally {
    fn add(&mut self, verdict: Verdict, me: Color) {
        match verdict {
            Verdict::Win(c) if c == me => self.wins += 1,
            Verdict::Win(_) => self.losses += 1,
            Verdict::Draw => self.draws += 1,
            Verdict::Unfinished => self.unfinished += 1,
        }
    }
}

/// The position a GAMEREQ starts from, under the international rules, or
/// why brett declines it.
fn start_position(request: &GameRequest) -> Result<Position, String> {
    let pos = match request.start {
        None => Position::new(RuleSet::INTERNATIONAL),
        Some(setup) => {
            Position::from_setup(setup, RuleSet::INTERNATIONAL).map_err(|e| e.to_string())?
        }
    };
    if let Some(o) = pos.outcome() {
        return Err(format!(
            "the game is over in the start position ({})",
            o.describe()
        ));
    }
    Ok(pos)
}

/// The MOVE message of `m`.
fn move_message(m: &Move, took: Duration) -> MoveMessage {
    MoveMessage {
        seconds: u16::try_from(took.as_secs()).unwrap_or(u16::MAX),
        from: m.from(),
        to: m.to(),
        captured: m.captured().squares(BoardSize::Ten).collect(),
    }
}

/// A MOVE message in words, e.g. `05-25 capturing 22, 12, 23, 20`.
fn describe_move(m: &MoveMessage) -> String {
    let mut s = format!("{:02}-{:02}", m.from.number(), m.to.number());
    if !m.captured.is_empty() {
        let caps: Vec<String> = m.captured.iter().map(|q| q.number().to_string()).collect();
        s.push_str(&format!(" capturing {}", caps.join(", ")));
    }
    s
}

/// The legal move a MOVE message names: the same start and end square and
/// the same captured pieces. A capture sent without its captured squares is
/// accepted when its start and end square name it alone.
fn find_move(pos: &Position, m: &MoveMessage) -> Result<Move> {
    let legal = pos.legal_moves();
    let mut same_ends = legal
        .iter()
        .filter(|l| l.from() == m.from && l.to() == m.to)
        .copied();
    if m.captured.is_empty() {
        let candidates: Vec<Move> = same_ends.collect();
        return match candidates.as_slice() {
            [] => bail!("{} is not a legal move here", describe_move(m)),
            [one] => Ok(*one),
            [first, rest @ ..] if rest.iter().all(|o| o.captured() == first.captured()) => {
                Ok(*first)
            }
            _ => bail!(
                "{} names several captures: the captured squares are needed",
                describe_move(m)
            ),
        };
    }
    let mut wanted = Bitboard::EMPTY;
    for q in &m.captured {
        wanted |= q.bb();
    }
    same_ends
        .find(|l| l.captured() == wanted && l.capture_count() as usize == m.captured.len())
        .ok_or_else(|| anyhow!("{} is not a legal move here", describe_move(m)))
}

/// The GAMEEND brett sends on its turn, with the game's verdict, if the
/// game is over by the rules or (initiator) the number of moves is reached.
fn ending_on_my_turn(game: &Game, spec: &GameSpec) -> Option<(EndReason, Verdict, String)> {
    if let Some(o) = game.outcome() {
        let reason = match o.winner {
            Some(w) if w == spec.me => EndReason::IWin,
            Some(_) => EndReason::IGiveUp,
            None => EndReason::Draw,
        };
        return Some((reason, Verdict::of(o), o.describe()));
    }
    let limit_reached = spec.moves > 0 && game.ply() >= 2 * usize::from(spec.moves);
    if spec.role == Role::Initiator && limit_reached {
        return Some((
            EndReason::Unspecified,
            Verdict::Unfinished,
            format!("the number of moves ({}) is reached", spec.moves),
        ));
    }
    None
}

/// The verdict when the peer ended the game with `reason`: the rules' own
/// if the game is over, else the peer's word.
fn peer_verdict(game: &Game, peer: Color, reason: EndReason) -> (Verdict, String) {
    if let Some(o) = game.outcome() {
        return (Verdict::of(o), o.describe());
    }
    let who = side_name(peer);
    match reason {
        EndReason::IGiveUp => (Verdict::Win(!peer), format!("{who} (the peer) gives up")),
        EndReason::Draw => (Verdict::Draw, format!("{who} (the peer) declares a draw")),
        EndReason::IWin => (
            Verdict::Win(peer),
            format!("{who} (the peer) declares a win"),
        ),
        EndReason::Unspecified => (
            Verdict::Unfinished,
            format!("{who} (the peer) ended the game"),
        ),
    }
}

/// Play one game, from brett's first move or the peer's until a GAMEEND and
/// its acknowledgement.
fn play_game(conn: &mut Connection, player: &Player, spec: &GameSpec) -> Result<Played> {
    player.engine.clear();
    let peer = !spec.me;
    let mut game = Game::from_position(spec.start);
    let mut level = LevelPlayer::new(player.level, fastrand::u64(..));
    let mut used = [Duration::ZERO; 2];
    let mut my_moves: u16 = 0;
    loop {
        if game.position().turn() == spec.me {
            if let Some((reason, verdict, why)) = ending_on_my_turn(&game, spec) {
                return end_game(conn, spec, game, reason, verdict, why);
            }
            let started = Instant::now();
            let limits = player.limits(spec, used[spec.me.index()], my_moves);
            let choice = level
                .choose(
                    &player.engine,
                    &DameState::new(*game.position()),
                    &games::history(game.session()),
                    limits,
                    &std::sync::atomic::AtomicBool::new(false),
                    &mut |_| {},
                )
                .ok_or_else(|| anyhow!("the engine found no move in a game that is not over"))?;
            let took = started.elapsed();
            used[spec.me.index()] += took;
            my_moves = my_moves.saturating_add(1);
            conn.send(&Message::Move(move_message(&choice.mv, took)))?;
            game.play(&choice.mv).context("brett's own move")?;
            continue;
        }
        let waited = Instant::now();
        let incoming = conn.receive(spec.wait_for(used[peer.index()]))?;
        used[peer.index()] += waited.elapsed();
        match incoming {
            Incoming::Message(Message::Move(m)) => {
                let mv = find_move(game.position(), &m).with_context(|| {
                    format!(
                        "the peer's move {} ({} to move, after {} plies)",
                        describe_move(&m),
                        side_name(peer),
                        game.ply()
                    )
                })?;
                if let Some(o) = game.outcome() {
                    // The rules ended the game (a draw the peer did not see):
                    // brett, to move now, ends it.
                    eprintln!(
                        "the peer moved after the end of the game ({}): brett ends it",
                        o.describe()
                    );
                    let reason = match o.winner {
                        Some(w) if w == spec.me => EndReason::IWin,
                        Some(_) => EndReason::IGiveUp,
                        None => EndReason::Draw,
                    };
                    return end_game(conn, spec, game, reason, Verdict::of(o), o.describe());
                }
                game.play(&mv)
                    .with_context(|| format!("the peer's move {}", describe_move(&m)))?;
            }
            Incoming::Message(Message::GameEnd(end)) => {
                conn.send(&Message::GameEnd(GameEnd {
                    reason: EndReason::Unspecified,
                    stop: spec.last,
                }))?;
                let (verdict, why) = peer_verdict(&game, peer, end.reason);
                return Ok(Played {
                    game,
                    verdict,
                    why,
                    peer_stops: end.stop,
                    next_request: None,
                });
            }
            Incoming::Message(Message::GameRequest(r)) if spec.role == Role::Follower => {
                return Ok(Played {
                    game,
                    verdict: Verdict::Unfinished,
                    why: "broken off by a new GAMEREQ".to_string(),
                    peer_stops: false,
                    next_request: Some(r),
                });
            }
            Incoming::Message(other) => bail!(
                "{} sent {} during the game (expected MOVE or GAMEEND)",
                conn.peer,
                other.kind()
            ),
            Incoming::OtherVersion(v) => bail!(
                "{} sent a GAMEREQ of version {v:02} during the game",
                conn.peer
            ),
            Incoming::Closed => bail!(
                "{} closed the connection during the game (after {} plies)",
                conn.peer,
                game.ply()
            ),
            Incoming::TimedOut => bail!(
                "{} ({}) did not move within its thinking time and {} s of grace",
                conn.peer,
                side_name(peer),
                GRACE.as_secs()
            ),
        }
    }
}

/// Send brett's GAMEEND and wait for the acknowledgement. A peer that does
/// not acknowledge in time is forgiven (with a note); one that hangs up
/// wants no further game.
fn end_game(
    conn: &mut Connection,
    spec: &GameSpec,
    game: Game,
    reason: EndReason,
    verdict: Verdict,
    why: String,
) -> Result<Played> {
    conn.send(&Message::GameEnd(GameEnd {
        reason,
        stop: spec.last,
    }))?;
    let mut played = Played {
        game,
        verdict,
        why,
        peer_stops: false,
        next_request: None,
    };
    match conn.receive(ACK_WAIT)? {
        Incoming::Message(Message::GameEnd(ack)) => played.peer_stops = ack.stop,
        Incoming::Closed => played.peer_stops = true,
        Incoming::TimedOut => eprintln!(
            "{} did not acknowledge the GAMEEND within {} s",
            conn.peer,
            ACK_WAIT.as_secs()
        ),
        Incoming::Message(Message::GameRequest(r)) if spec.role == Role::Follower => {
            eprintln!(
                "{} sent a GAMEREQ instead of acknowledging the GAMEEND",
                conn.peer
            );
            played.next_request = Some(r);
        }
        Incoming::Message(other) => bail!(
            "{} sent {} instead of acknowledging the GAMEEND",
            conn.peer,
            other.kind()
        ),
        Incoming::OtherVersion(v) => bail!(
            "{} sent a GAMEREQ of version {v:02} instead of acknowledging the GAMEEND",
            conn.peer
        ),
    }
    Ok(played)
}

/// Print a game's opening line.
fn announce(number: u32, spec: &GameSpec, me: &str, peer: &str) {
    let (white, black) = match spec.me {
        Color::White => (me, peer),
        Color::Black => (peer, me),
    };
    println!("game {number} white {white} black {black}");
}

/// Print a game's closing lines.
fn report(number: u32, played: &Played) {
    let start = played.game.start();
    if start.to_setup() != Position::new(RuleSet::INTERNATIONAL).to_setup() {
        println!("game {number} start {}", start.fen());
    }
    let moves: Vec<String> = played.game.moves().iter().map(Move::to_string).collect();
    println!("game {number} moves {}", moves.join(" "));
    println!(
        "game {number} result {} {}",
        played.verdict.result_str(),
        played.why
    );
}

/// The follower: answer each GAMEREQ and play the game, until the peer
/// stops or hangs up.
fn follow(conn: &mut Connection, player: &Player) -> Result<Tally> {
    let mut tally = Tally::default();
    let mut number = 0;
    let mut pending: Option<GameRequest> = None;
    loop {
        let request = match pending.take() {
            Some(r) => r,
            None => match conn.receive(IDLE_WAIT)? {
                Incoming::Message(Message::GameRequest(r)) => r,
                Incoming::Closed => break,
                Incoming::OtherVersion(v) => {
                    eprintln!("declining a GAMEREQ of protocol version {v:02}");
                    conn.send(&Message::GameAccept(GameAccept {
                        name: player.name.clone(),
                        code: AcceptCode::WrongVersion,
                    }))?;
                    continue;
                }
                Incoming::Message(Message::GameEnd(end)) => {
                    // No game runs: nothing to acknowledge.
                    eprintln!("{} sent a GAMEEND between games", conn.peer);
                    if end.stop {
                        break;
                    }
                    continue;
                }
                Incoming::Message(other) => {
                    bail!("{} sent {} (expected GAMEREQ)", conn.peer, other.kind())
                }
                Incoming::TimedOut => bail!(
                    "no GAMEREQ from {} within {} s",
                    conn.peer,
                    IDLE_WAIT.as_secs()
                ),
            },
        };
        let start = match start_position(&request) {
            Ok(pos) => pos,
            Err(why) => {
                eprintln!("declining the game: {why}");
                conn.send(&Message::GameAccept(GameAccept {
                    name: player.name.clone(),
                    code: AcceptCode::Declined,
                }))?;
                continue;
            }
        };
        conn.send(&Message::GameAccept(GameAccept {
            name: player.name.clone(),
            code: AcceptCode::Accepted,
        }))?;
        number += 1;
        let spec = GameSpec {
            role: Role::Follower,
            me: request.follower,
            start,
            minutes: request.minutes,
            moves: request.moves,
            last: false,
        };
        announce(number, &spec, &player.name, &request.name);
        let played = play_game(conn, player, &spec)?;
        report(number, &played);
        tally.add(played.verdict, spec.me);
        if played.peer_stops {
            break;
        }
        pending = played.next_request;
    }
    Ok(tally)
}

/// The initiator: propose and play `--games` games.
fn initiate(conn: &mut Connection, player: &Player, args: &Args) -> Result<Tally> {
    let first = Color::from(args.color);
    let setup = match &args.position {
        None => None,
        Some(fen) => Some(
            Position::from_fen(fen, RuleSet::INTERNATIONAL)
                .map_err(|e| anyhow!("{e}"))
                .with_context(|| format!("position '{fen}'"))?
                .to_setup(),
        ),
    };
    let mut tally = Tally::default();
    for number in 1..=args.games {
        let me = if number % 2 == 1 { first } else { !first };
        let request = GameRequest {
            name: player.name.clone(),
            follower: !me,
            minutes: args.time,
            moves: args.moves,
            start: setup,
        };
        // The position as the follower reads it from the message.
        let start = start_position(&request).map_err(|why| anyhow!("--position: {why}"))?;
        conn.send(&Message::GameRequest(request))?;
        let accept = match conn.receive(ACCEPT_WAIT)? {
            Incoming::Message(Message::GameAccept(a)) => a,
            Incoming::Message(other) => {
                bail!("{} sent {} (expected GAMEACC)", conn.peer, other.kind())
            }
            Incoming::OtherVersion(_) => bail!("{} sent a GAMEREQ (expected GAMEACC)", conn.peer),
            Incoming::Closed => bail!("{} closed the connection instead of answering", conn.peer),
            Incoming::TimedOut => bail!(
                "no GAMEACC from {} within {} s",
                conn.peer,
                ACCEPT_WAIT.as_secs()
            ),
        };
        if accept.code != AcceptCode::Accepted {
            bail!("{} {} (game {number})", accept.name, accept.code.describe());
        }
        let spec = GameSpec {
            role: Role::Initiator,
            me,
            start,
            minutes: args.time,
            moves: args.moves,
            last: number == args.games,
        };
        announce(number, &spec, &player.name, &accept.name);
        let played = play_game(conn, player, &spec)?;
        report(number, &played);
        tally.add(played.verdict, me);
        if played.peer_stops && number < args.games {
            eprintln!("{} wants no further game", conn.peer);
            break;
        }
    }
    Ok(tally)
}

#[cfg(test)]
mod tests {
    use super::*;
    use dame::{Setup, Square};

    fn sq(n: u8) -> Square {
        Square::from_number(BoardSize::Ten, n).expect("1..=50")
    }

    fn moved(from: u8, to: u8, captured: &[u8]) -> MoveMessage {
        MoveMessage {
            seconds: 0,
            from: sq(from),
            to: sq(to),
            captured: captured.iter().map(|&n| sq(n)).collect(),
        }
    }

    fn after(moves: &[&str]) -> Position {
        let mut game = Game::new(RuleSet::INTERNATIONAL);
        for m in moves {
            game.play_str(m).expect("legal");
        }
        *game.position()
    }

    #[test]
    fn move_messages_name_legal_moves() {
        let start = Position::new(RuleSet::INTERNATIONAL);
        let m = find_move(&start, &moved(32, 28, &[])).expect("a quiet move");
        assert_eq!(m.to_string(), "32-28");
        let err = find_move(&start, &moved(32, 23, &[])).expect_err("not a move");
        assert!(
            err.to_string().contains("32-23 is not a legal move"),
            "{err}"
        );

        let pos = after(&["32-28", "19-23"]);
        let capture = find_move(&pos, &moved(28, 19, &[23])).expect("the capture");
        assert_eq!(capture.to_string(), "28x19");
        // Without its captured squares, when start and end name it alone.
        assert_eq!(find_move(&pos, &moved(28, 19, &[])).ok(), Some(capture));
        assert!(find_move(&pos, &moved(28, 19, &[24])).is_err());
        assert!(find_move(&pos, &moved(28, 19, &[23, 23])).is_err());
        assert!(
            find_move(&pos, &moved(31, 26, &[])).is_err(),
            "capture is compulsory"
        );
        // The MOVE of a move reads back as that move.
        let message = move_message(&capture, Duration::from_secs(3));
        assert_eq!(
            Message::Move(message.clone()).encode(),
            "M0003281901".to_string() + "23"
        );
        assert_eq!(find_move(&pos, &message).ok(), Some(capture));
    }

    #[test]
    fn start_positions_are_checked() {
        let usual = GameRequest {
            name: "peer".into(),
            follower: Color::Black,
            minutes: 1,
            moves: 0,
            start: None,
        };
        assert_eq!(
            start_position(&usual).map(|p| p.fen()),
            Ok(Position::new(RuleSet::INTERNATIONAL).fen())
        );
        let mut crowded = Setup::start(BoardSize::Ten);
        crowded.pieces[Color::White.index()] |= sq(27).bb() | sq(28).bb();
        crowded.pieces[Color::White.index()] |= sq(29).bb() | sq(30).bb();
        crowded.pieces[Color::White.index()] |= sq(26).bb();
        let too_many = GameRequest {
            start: Some(crowded),
            ..usual.clone()
        };
        assert!(start_position(&too_many).is_err());
        let only_white = GameRequest {
            start: Some({
                let mut s = Setup::empty(BoardSize::Ten);
                s.pieces[Color::White.index()] = sq(30).bb();
                s
            }),
            ..usual
        };
        let why = start_position(&only_white).expect_err("over");
        assert!(why.contains("over"), "{why}");
    }

    #[test]
    fn the_clock_plans_for_the_moves_to_go() {
        let player = Player {
            name: "brett".into(),
            engine: Engine::new(1, 1),
            level: 1,
            move_time: None,
        };
        let mut spec = GameSpec {
            role: Role::Follower,
            me: Color::White,
            start: Position::new(RuleSet::INTERNATIONAL),
            minutes: 2,
            moves: 50,
            last: false,
        };
        let limits = player.limits(&spec, Duration::from_secs(20), 10);
        assert_eq!(
            limits.clock,
            Some(Clock {
                time: Duration::from_secs(100),
                increment: Duration::ZERO,
                moves_to_go: Some(40),
            })
        );
        // Past the number of moves, the clock has no moves to go.
        let late = player.limits(&spec, Duration::from_secs(200), 60);
        assert_eq!(
            late.clock.map(|c| (c.time, c.moves_to_go)),
            Some((Duration::ZERO, None))
        );
        assert_eq!(
            spec.wait_for(Duration::from_secs(30)),
            Duration::from_secs(150)
        );
        spec.minutes = 0;
        assert_eq!(
            player.limits(&spec, Duration::ZERO, 0).movetime,
            Some(DEFAULT_MOVE_TIME)
        );
        assert_eq!(spec.wait_for(Duration::ZERO), NO_CLOCK_WAIT);
    }

    #[test]
    fn brett_ends_the_game_on_its_turn_by_the_rules_or_the_move_limit() {
        let mut spec = GameSpec {
            role: Role::Initiator,
            me: Color::White,
            start: Position::new(RuleSet::INTERNATIONAL),
            minutes: 1,
            moves: 1,
            last: true,
        };
        let mut game = Game::new(RuleSet::INTERNATIONAL);
        assert!(ending_on_my_turn(&game, &spec).is_none());
        game.play_str("32-28").expect("legal");
        game.play_str("19-23").expect("legal");
        let (reason, verdict, _) = ending_on_my_turn(&game, &spec).expect("the limit");
        assert_eq!(
            (reason, verdict),
            (EndReason::Unspecified, Verdict::Unfinished)
        );
        spec.role = Role::Follower;
        assert!(
            ending_on_my_turn(&game, &spec).is_none(),
            "the initiator, who set the limit, enforces it"
        );
        let white = GameSpec {
            role: Role::Follower,
            ..spec
        };
        let won = Game::from_position(
            Position::from_fen("W:WK1:B", RuleSet::INTERNATIONAL).expect("fen"),
        );
        let (reason, verdict, _) = ending_on_my_turn(&won, &white).expect("over");
        assert_eq!(
            (reason, verdict),
            (EndReason::IWin, Verdict::Win(Color::White))
        );
        // One king each: under the FMJD rules a draw once 5 moves each
        // (10 plies) have been played in that ending (the FEN's E counter).
        let kings = Game::from_position(
            Position::from_fen("W:WK1:BK50:E10", RuleSet::INTERNATIONAL).expect("fen"),
        );
        let (reason, verdict, _) = ending_on_my_turn(&kings, &white).expect("over");
        assert_eq!((reason, verdict), (EndReason::Draw, Verdict::Draw));
    }

    #[test]
    fn the_peers_word_decides_only_unfinished_games() {
        let game = Game::new(RuleSet::INTERNATIONAL);
        assert_eq!(
            peer_verdict(&game, Color::Black, EndReason::IGiveUp).0,
            Verdict::Win(Color::White)
        );
        assert_eq!(
            peer_verdict(&game, Color::Black, EndReason::Draw).0,
            Verdict::Draw
        );
        assert_eq!(
            peer_verdict(&game, Color::Black, EndReason::IWin).0,
            Verdict::Win(Color::Black)
        );
        assert_eq!(
            peer_verdict(&game, Color::Black, EndReason::Unspecified).0,
            Verdict::Unfinished
        );
        let over = Position::from_fen("W:W47:BK5", RuleSet::INTERNATIONAL).expect("fen");
        let mut game = Game::from_position(over);
        game.play_str("47-42").expect("legal");
        game.play_str("5-10").expect("legal");
        // Nothing decided by the rules yet: the peer's word stands.
        assert_eq!(
            peer_verdict(&game, Color::White, EndReason::IWin).0,
            Verdict::Win(Color::White)
        );
    }
}
