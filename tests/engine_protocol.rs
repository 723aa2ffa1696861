//! `brett engine` driven as a subprocess, with good and broken input.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        Engine::start_with(&[])
    }

    /// `brett ARGS engine`.
    fn start_with(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_brett"))
            .args(args)
            .arg("engine")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("brett engine starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines: rx,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("write");
        self.stdin.flush().expect("flush");
    }

    /// Lines up to and including the first that starts with `prefix`.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_secs(30);
        let mut out = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no '{prefix}' in time; got {out:?}"));
            let done = line.starts_with(prefix);
            out.push(line);
            if done {
                return out;
            }
        }
    }

    /// The position string shown by `d`.
    fn fen(&mut self) -> String {
        self.send("d");
        let lines = self.until("Status:");
        lines
            .iter()
            .find_map(|l| l.strip_prefix("Fen: "))
            .expect("d prints the position")
            .to_string()
    }

    /// Send a command expected to fail; return its error line.
    fn error_of(&mut self, cmd: &str) -> String {
        self.send(cmd);
        self.send("isready");
        let lines = self.until("readyok");
        lines
            .into_iter()
            .find(|l| l.starts_with("info string error:"))
            .unwrap_or_else(|| panic!("'{cmd}' gave no error"))
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}

const START: &str = ".../.../.../....../.../.../... w 9 9 0 1";

#[test]
fn handshake_lists_the_options() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until("uciok");
    assert!(lines[0].starts_with("id name brett"));
    for opt in ["Rules", "Level", "Hash", "Threads", "Tablebase", "Book"] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {opt} "))),
            "option {opt} missing: {lines:?}"
        );
    }
    e.send("isready");
    assert_eq!(e.until("readyok"), vec!["readyok"]);
}

#[test]
fn go_depth_reports_info_and_a_legal_bestmove() {
    let mut e = Engine::start();
    e.send("position startpos moves d6 f4");
    e.send("go depth 5");
    let lines = e.until("bestmove");
    let info: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(info.len(), 5, "{lines:?}");
    for field in ["score cp", "nodes", "nps", "pv"] {
        assert!(info[4].contains(field), "{}", info[4]);
    }
    let best = lines
        .last()
        .expect("bestmove")
        .strip_prefix("bestmove ")
        .expect("bestmove line");
    let pos: muehle::Position = ".../.W./.../....B./.../.../... w 8 8 0 2"
        .parse()
        .expect("valid");
    assert!(pos.parse_move(best).is_ok(), "illegal bestmove {best}");
}

#[test]
fn moves_with_the_removal_as_its_own_token_are_accepted() {
    let mut e = Engine::start();
    // White closes d5-d6-d7 with its third stone and removes f4.
    e.send("position startpos moves d6 f4 d7 a1 d5 xf4");
    assert_eq!(e.fen(), ".W./.W./.W./....../.../.../B.. b 6 7 0 3");
    e.send("position startpos moves d6 f4 d7 a1 d5xf4");
    assert_eq!(e.fen(), ".W./.W./.W./....../.../.../B.. b 6 7 0 3");
}

#[test]
fn position_fen_and_perft() {
    let mut e = Engine::start();
    e.send(&format!("position fen {START}"));
    e.send("perft 3");
    let lines = e.until("depth 3");
    assert!(
        lines
            .last()
            .expect("line")
            .starts_with("depth 3 nodes 12144 time "),
        "{lines:?}"
    );
    assert_eq!(lines.len(), 25, "24 first moves and the total");
}

#[test]
fn broken_input_answers_an_error_and_changes_nothing() {
    let mut e = Engine::start();
    e.send("position startpos moves d6 f4");
    let before = e.fen();
    for cmd in [
        "position fen W.B/.W",
        "position startpos moves d6 f4 d6",
        "position startpos moves g7-g4",
        "position startpos moves d6 xb4",
        "position sideways",
        "setoption name Level value 99",
        "setoption name Rules value chess",
        "setoption name Colour value red",
        "setoption name Book value perhaps",
        "go depth",
        "go sideways 5",
        "perft x",
        "fly me to the moon",
    ] {
        let err = e.error_of(cmd);
        assert!(err.len() > "info string error: ".len() + 5, "{cmd}: {err}");
        assert_eq!(e.fen(), before, "'{cmd}' changed the position");
    }
}

#[test]
fn stop_ends_an_infinite_search_at_once() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    e.send("stop");
    let lines = e.until("bestmove");
    assert!(
        t.elapsed() < Duration::from_secs(2),
        "stop took {:?}",
        t.elapsed()
    );
    assert!(lines.last().expect("bestmove") != "bestmove none");
}

#[test]
fn isready_is_answered_during_a_search() {
    let mut e = Engine::start();
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.send("isready");
    let lines = e.until("readyok");
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    e.send("stop");
    e.until("bestmove");
}

#[test]
fn a_finished_game_gives_bestmove_none() {
    let mut e = Engine::start();
    // Black to move with two stones: the game is over.
    e.send("position fen WWW/.../.../....../.../BB./... b 0 0 0 30");
    let err_or_pos = e.fen();
    assert!(err_or_pos.starts_with("WWW"), "{err_or_pos}");
    e.send("go depth 3");
    assert_eq!(
        e.until("bestmove").last().map(String::as_str),
        Some("bestmove none")
    );
}

#[test]
fn rules_option_changes_the_rules() {
    let mut e = Engine::start();
    e.send("setoption name Rules value ravensburger");
    e.send("d");
    let lines = e.until("Status:");
    assert!(
        lines.iter().any(|l| l == "Rules: ravensburger"),
        "{lines:?}"
    );
    e.send("setoption name Rules value standard,flying=off,no-mill=20");
    e.send("d");
    let lines = e.until("Status:");
    assert!(
        lines.iter().any(|l| l == "Rules: seed-000,flying=off"),
        "{lines:?}"
    );
}

#[test]
fn clock_and_movetime_and_nodes_limits() {
    let mut e = Engine::start();
    e.send("position startpos");
    let t = Instant::now();
    e.send("go wtime 2000 btime 2000 winc 0 binc 0");
    e.until("bestmove");
    assert!(
        t.elapsed() < Duration::from_millis(1500),
        "took {:?}",
        t.elapsed()
    );
    let t = Instant::now();
    e.send("go movetime 200");
    e.until("bestmove");
    assert!(
        t.elapsed() < Duration::from_millis(1200),
        "took {:?}",
        t.elapsed()
    );
    e.send("go nodes 5000");
    let lines = e.until("bestmove");
    assert!(lines.iter().any(|l| l.starts_with("info depth")));
}

/// `go` on a clock: the engine plans its move from the side to move's
/// time (`wtime` or `btime`) and the increment, and answers in time with a
/// legal move — with two seconds well within them, with 50 ms at once — in
/// Mühle and in both Dame boards.
#[test]
fn a_clock_is_answered_in_time_in_every_game() {
    type Legal = fn(&[&str], &str) -> bool;
    fn muehle_legal(moves: &[&str], best: &str) -> bool {
        let mut g = muehle::Game::new(muehle::RuleSet::STANDARD);
        moves.iter().all(|m| g.play_str(m).is_ok()) && g.play_str(best).is_ok()
    }
    fn dame_legal(rules: dame::RuleSet, moves: &[&str], best: &str) -> bool {
        let mut g = dame::Game::new(rules);
        moves.iter().all(|m| g.play_str(m).is_ok()) && g.play_str(best).is_ok()
    }
    let games: [(Option<&str>, &[&str], Legal); 3] = [
        (None, &["d6"], muehle_legal),
        (Some("dame"), &["c3-d4"], |m, b| {
            dame_legal(dame::RuleSet::DAME, m, b)
        }),
        (Some("international"), &["32-28"], |m, b| {
            dame_legal(dame::RuleSet::INTERNATIONAL, m, b)
        }),
    ];
    for (game, moves, legal) in games {
        let mut e = Engine::start();
        if let Some(g) = game {
            e.send(&format!("setoption name Game value {g}"));
        }
        for (position, played, go, bound) in [
            (
                "position startpos",
                &[][..],
                "go wtime 2000 btime 2000 winc 0 binc 0",
                1500,
            ),
            (
                "position startpos",
                &[],
                "go wtime 50 btime 50 winc 0 binc 0",
                500,
            ),
            // Black to move: its own 50 ms count, not White's ten minutes.
            (
                &format!("position startpos moves {}", moves.join(" ")),
                moves,
                "go wtime 600000 btime 50 winc 10 binc 10",
                500,
            ),
        ] {
            e.send(position);
            let t = Instant::now();
            e.send(go);
            let best = e.until("bestmove").last().cloned().expect("bestmove");
            let took = t.elapsed();
            assert!(
                took < Duration::from_millis(bound),
                "{game:?} {go}: {took:?}"
            );
            let m = best.strip_prefix("bestmove ").expect("a move");
            assert!(legal(played, m), "{game:?} {position} {go}: {best}");
        }
    }
}

#[test]
fn levels_play_legal_moves() {
    let mut e = Engine::start();
    for level in [1, 5, 9] {
        e.send(&format!("setoption name Level value {level}"));
        e.send("position startpos moves d6 f4 d2");
        e.send("go movetime 100");
        let best = e.until("bestmove").last().cloned().expect("line");
        let m = best.strip_prefix("bestmove ").expect("bestmove");
        let pos: muehle::Position = ".../.W./.../....B./.../.W./... b 7 8 0 2"
            .parse()
            .expect("valid");
        assert!(pos.parse_move(m).is_ok(), "level {level}: {best}");
    }
}

#[test]
fn dame_through_the_game_option() {
    let mut e = Engine::start();
    e.send("setoption name Game value dame");
    e.send("position startpos moves c3-d4 f6-e5");
    assert_eq!(
        e.fen(),
        "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3,d4:Be5,b6,d6,h6,a7,c7,e7,g7,b8,d8,f8,h8:F2"
    );
    e.send("perft 1");
    let lines = e.until("depth 1");
    assert_eq!(
        lines
            .last()
            .map(String::as_str)
            .map(|l| l.starts_with("depth 1 nodes 1 ")),
        Some(true),
        "{lines:?}"
    );
    e.send("go depth 4");
    let best = e.until("bestmove").last().cloned().expect("bestmove");
    assert_eq!(best, "bestmove d4xf6", "the capture is compulsory");
    // A move from the h-file is a move, not a huff ("H" and a square).
    e.send("position startpos moves g3-h4 f6-g5 h4xf6");
    let fen = e.fen();
    let white = fen.split(':').nth(1).expect("white's pieces");
    assert!(
        white.contains("f6") && fen.starts_with("B:"),
        "h4xf6 was played: {fen}"
    );
    e.send("position startpos moves h2-g3");
    assert!(e.fen().starts_with("B:"), "h2-g3 was played");
    e.send("setoption name Game value international");
    e.send("position startpos");
    e.send("perft 2");
    assert!(
        e.until("depth 2")
            .last()
            .expect("line")
            .starts_with("depth 2 nodes 81 ")
    );
    let err = e.error_of("position startpos moves 32-27 17-21 27x16");
    assert!(err.contains("27x16"), "{err}");
    let err = e.error_of("setoption name Game value chess");
    assert!(err.contains("unknown game 'chess'"), "{err}");
}

/// The pieces of one side in a Dame FEN shown by `d` (`W:W…:B…`).
fn side_of(fen: &str, side: char) -> Vec<String> {
    fen.split(':')
        .skip(1)
        .find_map(|f| f.strip_prefix(side))
        .unwrap_or("")
        .split(',')
        .map(str::to_string)
        .collect()
}

/// Moves from the h-file are moves, `H` and a square is a huff (one rule,
/// `dame::parse_huff_token`), and what the engine answers in `bestmove`
/// (moves from the h-file, a huff before the move) is read back by
/// `position … moves`.
#[test]
fn dame_h_file_moves_and_huffs_in_position_and_bestmove() {
    let mut e = Engine::start();
    e.send("setoption name Game value dame");
    e.send("position startpos moves g3-h4 b6-a5 h2-g3");
    let fen = e.fen();
    assert!(fen.starts_with("B:"), "three moves played: {fen}");
    let white = side_of(&fen, 'W');
    assert!(
        white.contains(&"g3".to_string()) && white.contains(&"h4".to_string()),
        "{fen}"
    );
    assert!(!white.contains(&"h2".to_string()), "{fen}");
    // `h3` is a square of 8×8, not a huff of "3" and not a move.
    let err = e.error_of("position startpos moves h3");
    assert!(err.contains("'h3'"), "{err}");

    // The engine's best move starts on the h-file (the capture h4xf6 is
    // forced); sent back, it is played.
    e.send("position startpos moves g3-h4 f6-g5");
    e.send("go depth 3");
    let best = e.until("bestmove").last().cloned().expect("bestmove");
    assert_eq!(best, "bestmove h4xf6");
    let answer = best.strip_prefix("bestmove ").expect("move");
    e.send(&format!("position startpos moves g3-h4 f6-g5 {answer}"));
    let fen = e.fen();
    assert!(fen.starts_with("B:") && side_of(&fen, 'W').contains(&"f6".to_string()));

    // With huffing: White skips h4xf6, so Black may huff h4. The engine
    // answers `bestmove Hh4 <move>`; both tokens are read back.
    e.send("setoption name Rules value dame,huffing=on");
    let start = "position startpos moves g3-h4 f6-g5 a3-b4";
    e.send(start);
    e.send("go depth 3");
    let best = e.until("bestmove").last().cloned().expect("bestmove");
    let answer = best.strip_prefix("bestmove ").expect("move");
    assert!(answer.starts_with("Hh4 "), "{best}");
    e.send(&format!("{start} {answer}"));
    let fen = e.fen();
    assert!(fen.starts_with("W:"), "the huff and Black's move: {fen}");
    assert!(!side_of(&fen, 'W').contains(&"h4".to_string()), "{fen}");
    // The huff in lower case, then a move from the h-file into the hole.
    e.send(&format!("{start} hh4 g5-h4 h2-g3"));
    let fen = e.fen();
    assert!(fen.starts_with("B:"), "{fen}");
    assert!(side_of(&fen, 'B').contains(&"h4".to_string()), "{fen}");
    assert!(side_of(&fen, 'W').contains(&"g3".to_string()), "{fen}");
}

/// The Rules option takes `king-capture=short` (004 IT: the king captures
/// only a piece next to it): a king three squares from a man has no capture.
#[test]
fn dame_rules_option_takes_the_short_king_capture() {
    let mut e = Engine::start();
    e.send("setoption name Game value dame");
    e.send("position fen W:WKa1:Bd4,h8");
    e.send("perft 1");
    let lines = e.until("depth 1");
    assert!(lines.iter().any(|l| l == "a1xe5: 1"), "{lines:?}");
    e.send("setoption name Rules value dame,king-capture=short");
    e.send("position fen W:WKa1:Bd4,h8");
    e.send("d");
    let lines = e.until("Status:");
    assert!(
        lines.iter().any(|l| l == "Rules: dame,king-capture=short"),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l == "Legal moves (2): a1-b2 a1-c3"),
        "{lines:?}"
    );
}

#[test]
fn a_forced_dame_move_is_played_at_once() {
    let mut e = Engine::start();
    e.send("setoption name Game value dame");
    // After c3-d4 f6-e5 White's only move is the capture d4xf6.
    e.send("position startpos moves c3-d4 f6-e5");
    let t = Instant::now();
    e.send("go wtime 600000 btime 600000");
    let lines = e.until("bestmove");
    assert_eq!(lines.last().map(String::as_str), Some("bestmove d4xf6"));
    assert!(
        t.elapsed() < Duration::from_secs(2),
        "ten minutes on the clock, one move: {:?}",
        t.elapsed()
    );
    let depths: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(depths.len(), 1, "one depth only: {depths:?}");
}

#[test]
fn hub_protocol_session() {
    let seen = hub_session(
        "hub\ninit\nping\npos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww moves=\"32-28 19-23\"\nlevel depth=4\ngo think",
    );
    assert!(seen[0].starts_with("id name=brett"), "{seen:?}");
    assert!(
        seen.iter().any(|l| l == "wait")
            && seen.iter().any(|l| l == "ready")
            && seen.iter().any(|l| l == "pong")
    );
    assert!(
        seen.iter().any(|l| l.starts_with("info depth=4 ")),
        "{seen:?}"
    );
    // White must take back: 28x19 captures the man on 23.
    assert!(
        seen.last().expect("done").starts_with("done move=28x19x23"),
        "{seen:?}"
    );
}

/// Hub: one session, lines in, lines out until a line starting with `done`
/// (or the end of output).
fn hub_session(input: &str) -> Vec<String> {
    hub_session_with(&[], input)
}

/// `hub_session` of `brett ARGS hub`.
fn hub_session_with(args: &[&str], input: &str) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_brett"))
        .args(args)
        .arg("hub")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("brett hub starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    writeln!(stdin, "{input}").expect("write");
    stdin.flush().expect("flush");
    let mut seen = Vec::new();
    for line in BufReader::new(stdout).lines() {
        let line = line.expect("line");
        let done = line.starts_with("done");
        seen.push(line);
        if done {
            break;
        }
    }
    writeln!(stdin, "quit").expect("write");
    drop(stdin);
    let _ = child.wait();
    seen
}

/// Hub: a refused `pos` clears the position — a later `go` answers an
/// error and `done`, never a move for the position before.
#[test]
fn hub_refused_pos_clears_the_position() {
    for bad in [
        "pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwww",
        "pos moves=\"32-28 32-28\"",
    ] {
        let seen = hub_session(&format!(
            "hub\ninit\npos moves=\"32-28\"\n{bad}\nlevel depth=2\ngo think"
        ));
        let errors: Vec<&String> = seen.iter().filter(|l| l.starts_with("error")).collect();
        assert!(errors.len() >= 2, "{bad}: {seen:?}");
        assert!(
            errors.last().expect("error").contains("no position"),
            "{bad}: {seen:?}"
        );
        assert_eq!(
            seen.last().map(String::as_str),
            Some("done"),
            "{bad}: {seen:?}"
        );
        assert!(
            !seen.iter().any(|l| l.starts_with("done move=")),
            "{seen:?}"
        );
    }
}

/// Hub: `go` in a finished position ends with an error and `done`.
#[test]
fn hub_go_in_a_finished_position_ends_with_done() {
    // White has no pieces left: the game is over.
    let seen = hub_session(&format!(
        "hub\ninit\npos pos=W{}{}\nlevel depth=2\ngo think",
        "b".repeat(20),
        "e".repeat(30)
    ));
    assert!(
        seen.iter()
            .any(|l| l.starts_with("error") && l.contains("over")),
        "{seen:?}"
    );
    assert_eq!(seen.last().map(String::as_str), Some("done"), "{seen:?}");
}

/// Hub: `level time=T inc=I` (seconds, as the Hub protocol has them: the
/// time left and the increment) plans the move from that clock: a legal
/// move, well within two seconds, and at once with 50 ms left.
#[test]
fn hub_level_time_and_increment_are_a_clock() {
    for (level, bound) in [
        ("level time=2 inc=1", 2000),
        ("level time=0.05", 500),
        ("level moves=40 time=0.5 inc=0", 800),
    ] {
        let t = Instant::now();
        let seen = hub_session(&format!("hub\ninit\npos\n{level}\ngo think"));
        let took = t.elapsed();
        assert!(took < Duration::from_millis(bound), "{level}: {took:?}");
        let done = seen.last().expect("done");
        let m = done
            .strip_prefix("done move=")
            .and_then(|rest| rest.split_whitespace().next())
            .unwrap_or_else(|| panic!("{level}: {seen:?}"));
        let mut g = dame::Game::new(dame::RuleSet::INTERNATIONAL);
        assert!(g.play_str(m).is_ok(), "{level}: {done}");
    }
}

/// The engine's move at the international start at depth 3, and a book
/// file (in `dir`) whose move there is another one.
fn odd_dame_book(dir: &std::path::Path) -> (String, String, std::path::PathBuf) {
    let mut e = Engine::start_with(&["--no-tablebase", "--no-book"]);
    e.send("setoption name Game value international");
    e.send("position startpos");
    e.send("go depth 3");
    let own = e.until("bestmove").pop().expect("bestmove");
    let own = own.strip_prefix("bestmove ").expect("a move").to_string();
    let start = dame::Position::new(dame::RuleSet::INTERNATIONAL);
    let odd = *start
        .strict_moves()
        .iter()
        .find(|m| m.to_string() != own)
        .expect("another move");
    let mut book = engine::dame::book::Book::new();
    book.insert(&start, &[(odd, 0)], 3);
    let path = dir.join("odd.book");
    book.write(&path).expect("write the book");
    (own, odd.to_string(), path)
}

/// Dame's opening book in the engine protocol (option `Book`) and in Hub
/// (`param name=book`): played from `--book FILE`, not when switched off.
#[test]
fn the_dame_book_is_played_through_engine_and_hub_and_switched_off() {
    let dir = tempfile::tempdir().unwrap();
    let (own, odd, path) = odd_dame_book(dir.path());
    let file = path.to_str().unwrap();
    let mut e = Engine::start_with(&["--no-tablebase", "--book", file]);
    e.send("setoption name Game value international");
    e.send("position startpos");
    e.send("go depth 3");
    assert_eq!(
        e.until("bestmove").pop().unwrap(),
        format!("bestmove {odd}")
    );
    e.send("setoption name Book value false");
    e.send("go depth 3");
    assert_eq!(
        e.until("bestmove").pop().unwrap(),
        format!("bestmove {own}")
    );
    drop(e);
    let seen = hub_session_with(
        &["--no-tablebase", "--book", file],
        "hub\ninit\npos\nlevel depth=3\ngo think",
    );
    assert!(
        seen.iter()
            .any(|l| l == "param name=book value=true type=bool"),
        "{seen:?}"
    );
    assert!(
        seen.last()
            .unwrap()
            .starts_with(&format!("done move={odd}")),
        "{seen:?}"
    );
    let seen = hub_session_with(
        &["--no-tablebase", "--book", file],
        "hub\ninit\nset-param name=book value=false\npos\nlevel depth=3\ngo think",
    );
    assert!(
        seen.last()
            .unwrap()
            .starts_with(&format!("done move={own}")),
        "{seen:?}"
    );
    // A file that is no book is refused with its name.
    let bad = dir.path().join("bad.book");
    std::fs::write(&bad, b"BRETTDO1\x05\0\0\0").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_brett"))
        .args(["--no-tablebase", "--book", bad.to_str().unwrap(), "engine"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.book") && err.contains("truncated"),
        "{err}"
    );
}
