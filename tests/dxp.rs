//! `brett dxp`: brett plays itself over the DamExchange protocol, and answers
//! a hand-driven peer (bad requests, chat, take-back requests, broken input).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, ChildStdout, Command, Output, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use dame::{Game, Position, RuleSet};

/// Longest a brett process may run in these tests.
const DEADLINE: Duration = Duration::from_secs(60);

fn brett(args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_brett"));
    cmd.arg("--no-tablebase")
        .arg("dxp")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd
}

/// A follower (`--listen 127.0.0.1:0`), its address (from its first line)
/// and the rest of its standard output.
fn follower(args: &[&str]) -> (Child, String, BufReader<ChildStdout>) {
    let mut child = brett(&[&["--listen", "127.0.0.1:0"], args].concat())
        .spawn()
        .expect("brett runs");
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    let mut first = String::new();
    out.read_line(&mut first).expect("the first line");
    let addr = first
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("'{first}' is not 'listening on ADDR'"))
        .to_string();
    (child, addr, out)
}

/// Wait for `child` (killing it after the deadline) and collect what it
/// wrote; `rest` is its standard output if it was taken before.
fn finish(mut child: Child, rest: Option<BufReader<ChildStdout>>) -> Output {
    let stdout = rest
        .map(|r| Box::new(r) as Box<dyn Read + Send>)
        .or_else(|| {
            child
                .stdout
                .take()
                .map(|s| Box::new(s) as Box<dyn Read + Send>)
        });
    let stderr = child.stderr.take();
    let read_all = |r: Option<Box<dyn Read + Send>>| {
        thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut r) = r {
                let _ = r.read_to_end(&mut buf);
            }
            buf
        })
    };
    let out = read_all(stdout);
    let err = read_all(stderr.map(|s| Box::new(s) as Box<dyn Read + Send>));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("try_wait") {
            break status;
        }
        if started.elapsed() > DEADLINE {
            let _ = child.kill();
            panic!("brett dxp did not finish within {DEADLINE:?}");
        }
        thread::sleep(Duration::from_millis(20));
    };
    Output {
        status,
        stdout: out.join().expect("stdout reader"),
        stderr: err.join().expect("stderr reader"),
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// One game as a side printed it.
#[derive(Debug)]
struct Printed {
    start: Option<String>,
    moves: Vec<String>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    result: String,
    /// Why, in the printing side's words.
    why: String,
}

/// The games printed on standard output.
fn games(out: &str) -> Vec<Printed> {
    let mut games: Vec<Printed> = Vec::new();
    for line in out.lines() {
        let Some(rest) = line.strip_prefix("game ") else {
            continue;
        };
        let (number, rest) = rest.split_once(' ').expect("game N …");
        let n: usize = number.parse().expect("a game number");
        if rest.starts_with("white ") {
            assert_eq!(n, games.len() + 1, "{out}");
            games.push(Printed {
                start: None,
                moves: Vec::new(),
                result: String::new(),
                why: String::new(),
            });
            continue;
        }
        let game = games.get_mut(n - 1).expect("announced game");
        if let Some(fen) = rest.strip_prefix("start ") {
            game.start = Some(fen.to_string());
        } else if let Some(moves) = rest.strip_prefix("moves") {
            game.moves = moves.split_whitespace().map(str::to_string).collect();
        } else if let Some(result) = rest.strip_prefix("result ") {
            let (code, why) = result.split_once(' ').unwrap_or((result, ""));
            game.result = code.to_string();
            game.why = why.to_string();
        }
    }
    games
}

/// Replay a printed game on the rules: every move legal; a decided result
/// is the rules' own.
fn replay(printed: &Printed) -> Game {
    let start = match &printed.start {
        Some(fen) => Position::from_fen(fen, RuleSet::INTERNATIONAL).expect("start FEN"),
        None => Position::new(RuleSet::INTERNATIONAL),
    };
    let mut game = Game::from_position(start);
    for m in &printed.moves {
        game.play_str(m)
            .unwrap_or_else(|e| panic!("{m} after {} plies: {e}", game.ply()));
    }
    match game.outcome() {
        Some(o) => assert_eq!(printed.result, o.result_str(), "{printed:?}"),
        None => assert_eq!(printed.result, "*", "{printed:?}"),
    }
    game
}

/// Play games of `follower_args` against `initiator_args`; both sides'
/// games, which must agree, and both outputs.
fn self_play(follower_args: &[&str], initiator_args: &[&str]) -> (Vec<Printed>, String, String) {
    let (listening, addr, rest) = follower(follower_args);
    let initiator = brett(&[&["--connect", addr.as_str()], initiator_args].concat())
        .spawn()
        .expect("brett runs");
    let initiated = finish(initiator, None);
    let followed = finish(listening, Some(rest));
    let (out_i, out_f) = (text(&initiated.stdout), text(&followed.stdout));
    let (err_i, err_f) = (text(&initiated.stderr), text(&followed.stderr));
    assert!(initiated.status.success(), "initiator: {out_i}\n{err_i}");
    assert!(followed.status.success(), "follower: {out_f}\n{err_f}");
    assert!(!err_i.contains("panicked") && !err_f.contains("panicked"));
    let (games_i, games_f) = (games(&out_i), games(&out_f));
    // What both sides must agree on (the reasons are each side's words).
    let keys = |games: &[Printed]| {
        games
            .iter()
            .map(|g| (g.start.clone(), g.moves.clone(), g.result.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        keys(&games_i),
        keys(&games_f),
        "both sides saw the same games"
    );
    (games_i, out_i, out_f)
}

fn score(out: &str) -> [u32; 4] {
    let line = out
        .lines()
        .find(|l| l.starts_with("score "))
        .expect("a score line");
    let w: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(
        (w[1], w[3], w[5], w[7]),
        ("wins", "draws", "losses", "unfinished")
    );
    [w[2], w[4], w[6], w[8]].map(|n| n.parse().expect("a count"))
}

#[test]
fn brett_plays_itself_over_dxp() {
    let (games, out_i, out_f) = self_play(
        &["--level", "1", "--hash", "1", "--name", "listener"],
        &[
            "--level", "1", "--hash", "1", "--time", "1", "--games", "2", "--color", "black",
        ],
    );
    assert_eq!(games.len(), 2);
    for g in &games {
        let game = replay(g);
        assert!(game.is_over(), "played to the end: {g:?}");
        assert!(!g.moves.is_empty());
    }
    // The colours alternate, starting with the initiator as Black.
    assert!(
        out_i.contains("game 1 white listener black brett"),
        "{out_i}"
    );
    assert!(
        out_i.contains("game 2 white brett black listener"),
        "{out_i}"
    );
    assert!(
        out_f.contains("game 1 white listener black brett"),
        "{out_f}"
    );
    let [w, d, l, u] = score(&out_i);
    assert_eq!(
        score(&out_f),
        [l, d, w, u],
        "one side's wins are the other's losses"
    );
    assert_eq!(w + d + l + u, 2);
}

#[test]
fn the_initiator_ends_the_game_at_the_number_of_moves() {
    let (games, out_i, _) = self_play(
        &["--level", "1", "--hash", "1"],
        &["--level", "1", "--hash", "1", "--time", "1", "--moves", "4"],
    );
    assert_eq!(games.len(), 1);
    replay(&games[0]);
    assert_eq!(games[0].moves.len(), 8, "{:?}", games[0]);
    assert_eq!(games[0].result, "*");
    assert_eq!(games[0].why, "the number of moves (4) is reached");
    assert_eq!(score(&out_i), [0, 0, 0, 1]);
}

#[test]
fn a_start_position_travels_with_the_request() {
    let fen = "B:W27,28,K45:B12,13,19";
    let (games, _, _) = self_play(
        &["--level", "1", "--hash", "1"],
        &[
            "--level",
            "1",
            "--hash",
            "1",
            "--time",
            "0",
            "--move-time",
            "0.05",
            "--position",
            fen,
        ],
    );
    assert_eq!(games.len(), 1);
    let start = games[0].start.as_deref().expect("a start line");
    assert_eq!(
        Position::from_fen(start, RuleSet::INTERNATIONAL).map(|p| p.fen()),
        Position::from_fen(fen, RuleSet::INTERNATIONAL).map(|p| p.fen())
    );
    assert!(replay(&games[0]).is_over());
}

/// A peer driven by hand: messages in, messages out.
struct Peer(BufReader<TcpStream>);

impl Peer {
    fn connect(addr: &str) -> Peer {
        let stream = TcpStream::connect(addr).expect("connect");
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .expect("timeout");
        Peer(BufReader::new(stream))
    }

    fn send(&mut self, message: &str) {
        let stream = self.0.get_mut();
        stream.write_all(message.as_bytes()).expect("send");
        stream.write_all(b"\0").expect("send");
    }

    fn receive(&mut self) -> String {
        let mut buf = Vec::new();
        self.0.read_until(0, &mut buf).expect("a message");
        assert_eq!(buf.pop(), Some(0), "a NUL ends every message: {buf:?}");
        String::from_utf8(buf).expect("ASCII")
    }

    /// Whether brett closed the connection (what it sent before is skipped).
    fn closed(&mut self) -> bool {
        let mut rest = Vec::new();
        match self.0.read_to_end(&mut rest) {
            Ok(_) => true,
            Err(e) => matches!(
                e.kind(),
                std::io::ErrorKind::ConnectionReset | std::io::ErrorKind::ConnectionAborted
            ),
        }
    }
}

fn request(follower: char, rest: &str) -> String {
    format!("R01{:<32}{follower}001000{rest}", "hand")
}

#[test]
fn the_follower_declines_what_it_cannot_play_and_refuses_take_backs() {
    let (child, addr, rest) = follower(&["--level", "1", "--hash", "1", "--name", "brett dxp"]);
    let mut peer = Peer::connect(&addr);
    let brett_name = format!("{:<32}", "brett dxp");
    peer.send("Cgood luck");
    // Another protocol version: GAMEACC code 1.
    peer.send(&format!("R02{:<32}Z001000A", "hand"));
    assert_eq!(peer.receive(), format!("A{brett_name}1"));
    // An empty board: GAMEACC code 2.
    peer.send(&request('Z', &format!("BW{}", "e".repeat(50))));
    assert_eq!(peer.receive(), format!("A{brett_name}2"));
    // A game with brett as White: brett moves first.
    peer.send(&request('W', "A"));
    assert_eq!(peer.receive(), format!("A{brett_name}0"));
    let first = peer.receive();
    assert!(first.starts_with('M') && first.len() == 11, "{first}");
    // A take-back request is refused, the game goes on; the peer ends it.
    peer.send("B001W");
    assert_eq!(peer.receive(), "K1");
    peer.send("E01");
    assert_eq!(peer.receive(), "E00");
    let out = finish(child, Some(rest));
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stderr.contains("good luck"), "{stderr}");
    assert!(
        stdout.contains("game 1 white brett dxp black hand"),
        "{stdout}"
    );
    assert!(
        stdout.contains("game 1 result * Black (the peer) ended the game"),
        "{stdout}"
    );
    let printed = games(&stdout);
    assert_eq!(printed.len(), 1);
    assert_eq!(printed[0].moves.len(), 1);
    replay(&printed[0]);
}

#[test]
fn bad_input_from_the_peer_ends_the_connection_with_an_error() {
    let cases: [(&[&str], &str); 4] = [
        (
            &["M0012xx1100"],
            "MOVE: the from square must be a square 01-50",
        ),
        (&["Q"], "unknown message type 'Q'"),
        (&[&"x".repeat(300)], "no NUL after 127 bytes"),
        (
            // brett is Black; White's 32-23 is no move.
            &[&request('Z', "A"), "M0000322300"],
            "32-23 is not a legal move here",
        ),
    ];
    for (messages, error) in cases {
        let (child, addr, rest) = follower(&["--level", "1", "--hash", "1"]);
        let mut peer = Peer::connect(&addr);
        for m in messages {
            peer.send(m);
        }
        if messages.len() > 1 {
            assert!(peer.receive().starts_with('A'));
        }
        assert!(
            peer.closed(),
            "brett closes the connection after {messages:?}"
        );
        let out = finish(child, Some(rest));
        let stderr = text(&out.stderr);
        assert!(!out.status.success(), "{messages:?} is an error");
        assert!(stderr.contains(error), "{messages:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

#[test]
fn the_initiator_sends_a_well_formed_request_and_stops_when_declined() {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = listener.local_addr().expect("addr").to_string();
    let child = brett(&[
        "--connect",
        &addr,
        "--level",
        "1",
        "--hash",
        "1",
        "--time",
        "5",
        "--moves",
        "75",
        "--color",
        "black",
    ])
    .spawn()
    .expect("brett runs");
    let (stream, _) = listener.accept().expect("brett connects");
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .expect("timeout");
    let mut peer = Peer(BufReader::new(stream));
    let req = peer.receive();
    assert_eq!(req, format!("R01{:<32}W005075A", "brett"));
    peer.send(&format!("A{:<32}2", "picky"));
    let out = finish(child, None);
    let stderr = text(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("picky declined this game (another one is welcome)"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// DXP: a game on a short clock — one minute each for 50 moves — against a
/// peer that answers at once. brett (level 10, no move-time cap) plans each
/// move from the time it has left and the moves to go: every move within
/// a generous share of what is left, the seconds it reports within the time
/// it took, and all of it far inside its minute. The peer then ends the
/// game.
#[test]
fn brett_keeps_within_the_thinking_time_of_the_request() {
    let (child, addr, rest) = follower(&["--level", "10", "--hash", "8"]);
    let mut peer = Peer::connect(&addr);
    peer.send(&format!("R01{:<32}W001050A", "hand"));
    assert!(peer.receive().ends_with('0'), "the game is accepted");
    let mut game = Game::new(RuleSet::INTERNATIONAL);
    let squares = |m: &dame::Move| -> Vec<u8> {
        m.captured()
            .squares(dame::BoardSize::Ten)
            .map(|s| s.number())
            .collect()
    };
    let (mut used, mut reported) = (Duration::ZERO, 0u64);
    for moves_made in 0..4u32 {
        let t = Instant::now();
        let sent = peer.receive();
        let took = t.elapsed();
        let field = |at: usize| -> u64 {
            sent.get(at..at + 2)
                .and_then(|f| f.parse().ok())
                .unwrap_or_else(|| panic!("{sent}"))
        };
        assert!(sent.starts_with('M'), "{sent}");
        reported += sent[1..5].parse::<u64>().expect("seconds");
        let (from, to, count) = (field(5), field(7), field(9));
        let mut captured: Vec<u64> = (0..count as usize).map(|i| field(11 + 2 * i)).collect();
        captured.sort_unstable();
        let mv = game
            .legal_moves()
            .as_slice()
            .iter()
            .find(|m| {
                u64::from(m.from().number()) == from
                    && u64::from(m.to().number()) == to
                    && squares(m).into_iter().map(u64::from).collect::<Vec<_>>() == captured
            })
            .copied()
            .unwrap_or_else(|| panic!("{sent} is no legal move"));
        game.play(&mv).expect("legal");
        // At most four times the even share of the time left (the
        // search's hard limit), and a second for the rest.
        let left = Duration::from_secs(60).saturating_sub(used);
        let share = left / (50 - moves_made);
        assert!(
            took < share * 4 + Duration::from_secs(1),
            "{sent}: {took:?}"
        );
        used += took;
        if moves_made == 3 {
            break;
        }
        // The peer's answer: its first legal move, captures with their
        // captured squares.
        let reply = game.legal_moves().as_slice()[0];
        let caps: String = squares(&reply).iter().map(|s| format!("{s:02}")).collect();
        peer.send(&format!(
            "M0000{:02}{:02}{:02}{caps}",
            reply.from().number(),
            reply.to().number(),
            reply.capture_count()
        ));
        game.play(&reply).expect("legal");
    }
    peer.send("E01");
    assert_eq!(peer.receive(), "E00");
    let out = finish(child, Some(rest));
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(used < Duration::from_secs(20), "{used:?} of the minute");
    assert!(
        reported <= used.as_secs() + 4,
        "{reported} s reported, {used:?} taken"
    );
}

/// Level 10 plays the opening book's move over DXP too (`--book FILE`: a
/// book whose move at the start is the one the search ranks last), and
/// not with `--no-book`.
#[test]
fn the_opening_book_is_played_over_dxp() {
    let start = Position::new(RuleSet::INTERNATIONAL);
    // The move the search ranks last: level 10 would not play it.
    let all = start.strict_moves().as_slice().len();
    let lines = search::Engine::new(1, 1)
        .search(
            &engine::DameState::new(start),
            &[],
            search::Limits::depth(6),
            all,
            &std::sync::atomic::AtomicBool::new(false),
            &mut |_| {},
        )
        .lines;
    assert_eq!(lines.len(), all);
    let odd = lines.last().unwrap().1[0];
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("odd.book");
    let mut book = engine::dame::book::Book::new();
    book.insert(&start, &[(odd, 0)], 3);
    book.write(&path).unwrap();
    let file = path.to_str().unwrap();
    let initiator = [
        "--level", "1", "--hash", "1", "--time", "1", "--moves", "1", "--color", "black",
    ];
    let (games, _, _) = self_play(
        &["--level", "10", "--hash", "1", "--book", file],
        &initiator,
    );
    assert_eq!(games[0].moves[0], odd.to_string(), "{:?}", games[0]);
    let (games, _, _) = self_play(
        &["--level", "10", "--hash", "1", "--book", file, "--no-book"],
        &initiator,
    );
    assert_ne!(games[0].moves[0], odd.to_string(), "{:?}", games[0]);
}
