//! `brett hub`: the Hub protocol (version 2) for international draughts, as
//! spoken by 10×10 draughts GUIs and match tools.
//!
//! Lines are `<command> <arg>=<value> …` (values may be quoted). Positions
//! are `W`/`B` plus 50 squares (`w`, `b` men, `W`, `B` kings, `e` empty);
//! moves are `32-28`, or for captures from x to x every captured square
//! (`28x19x23`).

use std::sync::Arc;
use std::time::Duration;

use anyhow::Result;
use dame::{BoardSize, Color, Move, Piece, PieceKind, Position, RuleSet, Setup, Square};
use engine::DameState;
use search::{Clock, Engine, Limits, Score, SearchInfo};

use super::search_job::{Out, SearchJob, Searcher, say, stdin_lines};

/// Arguments of `brett hub`.
#[derive(clap::Args, Debug, Default)]
pub struct Args {}

/// Split a Hub line into its command and `(name, value)` arguments.
pub fn parse_line(line: &str) -> Option<(String, Vec<(String, String)>)> {
    let mut chars = line.trim().chars().peekable();
    let mut words: Vec<String> = Vec::new();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        if chars.peek().is_none() {
            break;
        }
        let mut word = String::new();
        let mut quoted = false;
        while let Some(&c) = chars.peek() {
            if c == '"' {
                quoted = !quoted;
                chars.next();
                continue;
            }
            if c.is_whitespace() && !quoted {
                break;
            }
            word.push(c);
            chars.next();
        }
        if quoted {
            return None; // unclosed quote
        }
        words.push(word);
    }
    let mut it = words.into_iter();
    let cmd = it.next()?;
    let args = it
        .map(|w| match w.split_once('=') {
            Some((k, v)) => (k.to_string(), v.to_string()),
            None => (w, String::new()),
        })
        .collect();
    Some((cmd, args))
}

/// The Hub position string of a 10×10 position (the inverse of
/// [`parse_hub_position`]).
#[cfg(test)]
pub fn hub_position(pos: &Position) -> String {
    let mut s = String::with_capacity(51);
    s.push(if pos.turn() == Color::White { 'W' } else { 'B' });
    for n in 1..=50 {
        let sq = Square::from_number(BoardSize::Ten, n).expect("10×10 has 50 squares");
        s.push(super::dxp::piece_letter(
            pos.piece_at(sq),
            ['w', 'W', 'b', 'B', 'e'],
        ));
    }
    s
}

/// Read a Hub position string.
pub fn parse_hub_position(s: &str, rules: RuleSet) -> Result<Position, String> {
    let chars: Vec<char> = s.chars().collect();
    if chars.len() != 51 {
        return Err(format!(
            "a Hub position has 51 characters (side + 50 squares), found {}",
            chars.len()
        ));
    }
    let mut setup = Setup {
        size: BoardSize::Ten,
        pieces: [dame::Bitboard::EMPTY; 2],
        kings: dame::Bitboard::EMPTY,
        turn: match chars[0] {
            'W' | 'w' => Color::White,
            'B' | 'b' => Color::Black,
            c => return Err(format!("side to move must be W or B, found '{c}'")),
        },
        king_moves: 0,
        ending_plies: 0,
        move_number: 1,
    };
    for (i, &c) in chars[1..].iter().enumerate() {
        let sq = Square::from_number(BoardSize::Ten, i as u8 + 1).expect("1..=50");
        let piece = match c {
            'w' => Some((Color::White, PieceKind::Man)),
            'W' => Some((Color::White, PieceKind::King)),
            'b' => Some((Color::Black, PieceKind::Man)),
            'B' => Some((Color::Black, PieceKind::King)),
            'e' | '.' => None,
            other => {
                return Err(format!(
                    "square {}: '{other}' is not w, b, W, B or e",
                    i + 1
                ));
            }
        };
        if let Some((color, kind)) = piece {
            setup.set(sq, Some(Piece { color, kind }));
        }
    }
    Position::from_setup(setup, rules).map_err(|e| e.to_string())
}

/// A move in Hub notation: `32-28`, or `from x to x captured…` (captured
/// squares in ascending order).
pub fn hub_move(m: &Move) -> String {
    if !m.is_capture() {
        return format!("{}-{}", m.from().number(), m.to().number());
    }
    let mut s = format!("{}x{}", m.from().number(), m.to().number());
    let mut caps: Vec<u8> = m
        .captured()
        .squares(BoardSize::Ten)
        .map(|q| q.number())
        .collect();
    caps.sort_unstable();
    for c in caps {
        s.push_str(&format!("x{c}"));
    }
    s
}

/// Find the legal move a Hub move string names.
pub fn parse_hub_move(pos: &Position, text: &str) -> Result<Move, String> {
    let legal = pos.legal_moves();
    let found = legal.iter().find(|m| hub_move(m) == text).copied();
    found
        .or_else(|| {
            // Accept captured squares in any order.
            let mut want: Vec<&str> = text.split('x').collect();
            if want.len() > 2 {
                want[2..].sort_unstable();
            }
            legal.iter().copied().find(|m| {
                let h = hub_move(m);
                let mut got: Vec<&str> = h.split('x').collect();
                if got.len() > 2 {
                    got[2..].sort_unstable();
                }
                got == want
            })
        })
        .ok_or_else(|| format!("'{text}' is not a legal move here"))
}

/// A Hub session: the engine, the position, the limits and the search.
struct HubSession {
    out: Out,
    engine: Arc<Engine>,
    rules: RuleSet,
    /// The position to search; `None` after a `pos` that was refused (a
    /// later `go` answers an error, never a move for an older position).
    position: Option<Position>,
    history: Vec<u64>,
    limits: Limits,
    level: u8,
    search: Searcher,
}

impl HubSession {
    fn error(&self, msg: &str) {
        say(
            &self.out,
            &format!("error message=\"{}\"", msg.replace('"', "'")),
        );
    }

    fn handle(&mut self, line: &str) -> bool {
        let Some((cmd, args)) = parse_line(line) else {
            self.error("unclosed quote");
            return true;
        };
        let arg = |name: &str| {
            args.iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.as_str())
        };
        match cmd.as_str() {
            "hub" => {
                say(
                    &self.out,
                    &format!(
                        "id name=brett version={} author=\"the brett developers\" country=Germany",
                        env!("CARGO_PKG_VERSION")
                    ),
                );
                say(
                    &self.out,
                    "param name=variant value=normal type=enum values=\"normal\"",
                );
                say(&self.out, "param name=level value=10 type=int min=1 max=10");
                say(
                    &self.out,
                    &format!(
                        "param name=book value={} type=bool",
                        engine::book::enabled()
                    ),
                );
                say(
                    &self.out,
                    "param name=hash value=64 type=int min=1 max=65536",
                );
                say(
                    &self.out,
                    "param name=threads value=1 type=int min=1 max=64",
                );
                say(&self.out, "wait");
            }
            "set-param" => match (arg("name"), arg("value")) {
                (Some("variant"), Some("normal")) => {}
                (Some("variant"), Some(v)) => {
                    self.error(&format!("variant '{v}' is not supported (only normal)"))
                }
                (Some("level"), Some(v)) => match v.parse::<u8>() {
                    Ok(l) if (1..=10).contains(&l) => self.level = l,
                    _ => self.error("level is 1 to 10"),
                },
                (Some("book"), Some(v)) => match v.to_ascii_lowercase().as_str() {
                    "true" | "on" | "1" => engine::book::set_enabled(true),
                    "false" | "off" | "0" => engine::book::set_enabled(false),
                    _ => self.error("book is true or false"),
                },
                (Some("hash"), Some(v)) => match v.parse::<usize>() {
                    Ok(mb) if (1..=65536).contains(&mb) => {
                        self.engine = Arc::new(Engine::new(mb, self.engine.threads()));
                    }
                    _ => self.error("hash is 1 to 65536 MiB"),
                },
                (Some("threads"), Some(v)) => match v.parse::<usize>() {
                    Ok(t) if (1..=64).contains(&t) => {
                        self.engine = Arc::new(Engine::new(self.engine.hash_mib(), t));
                    }
                    _ => self.error("threads is 1 to 64"),
                },
                _ => {} // unknown parameters are ignored, as the protocol asks
            },
            "init" => say(&self.out, "ready"),
            "ping" => say(&self.out, "pong"),
            "new-game" => {
                self.search.finish(true);
                self.engine.clear();
                self.position = Some(Position::new(self.rules));
                self.history.clear();
            }
            "pos" => {
                self.search.finish(true);
                // Whatever follows, the old position is gone: a refused
                // `pos` leaves none.
                self.position = None;
                self.history.clear();
                let start = match arg("pos") {
                    Some(p) => parse_hub_position(p, self.rules),
                    None => Ok(Position::new(self.rules)),
                };
                match start {
                    Ok(mut pos) => {
                        let mut history = Vec::new();
                        if let Some(moves) = arg("moves") {
                            for text in moves.split_whitespace() {
                                match parse_hub_move(&pos, text) {
                                    Ok(m) => {
                                        history.push(pos.hash());
                                        pos.play_unchecked(&m);
                                    }
                                    Err(e) => return self.bad(&e),
                                }
                            }
                        }
                        self.position = Some(pos);
                        self.history = history;
                    }
                    Err(e) => self.error(&e),
                }
            }
            "level" => {
                let mut limits = Limits::default();
                let secs = |v: &str| {
                    v.parse::<f64>()
                        .ok()
                        .filter(|s| *s >= 0.0)
                        .map(Duration::from_secs_f64)
                };
                if args.iter().any(|(k, _)| k == "infinite") {
                    limits.infinite = true;
                }
                if let Some(d) = arg("depth").and_then(|v| v.parse::<u32>().ok()) {
                    limits.depth = Some(d.clamp(1, 120));
                }
                if let Some(t) = arg("move-time").and_then(secs) {
                    limits.movetime = Some(t);
                }
                if let Some(t) = arg("time").and_then(secs) {
                    limits.clock = Some(Clock {
                        time: t,
                        increment: arg("inc").and_then(secs).unwrap_or_default(),
                        moves_to_go: arg("moves").and_then(|v| v.parse().ok()),
                    });
                }
                self.limits = limits;
            }
            "go" => {
                if self.search.busy() {
                    return self.bad("a search is running: send stop first");
                }
                let mut limits = self.limits;
                if args.iter().any(|(k, _)| k == "analyze") {
                    limits.infinite =
                        limits.infinite || (limits.depth.is_none() && limits.movetime.is_none());
                }
                self.go(limits);
            }
            "ponder-hit" => {}
            "stop" => self.search.finish(true),
            "quit" => {
                self.search.finish(true);
                return false;
            }
            other => self.error(&format!("unknown command '{other}'")),
        }
        true
    }

    fn bad(&self, msg: &str) -> bool {
        self.error(msg);
        true
    }

    /// An error that ends a `go`: the message, then `done` (so a GUI
    /// waiting for the search's end does not hang).
    fn go_failed(&self, msg: &str) {
        self.error(msg);
        say(&self.out, "done");
    }

    fn go(&mut self, limits: Limits) {
        let Some(pos) = self.position else {
            return self.go_failed("no position: the last pos was refused");
        };
        if pos.legal_moves().is_empty() || pos.outcome().is_some() {
            return self.go_failed("the game is over in this position");
        }
        let (out, out2) = (self.out.clone(), self.out.clone());
        let job = SearchJob {
            engine: self.engine.clone(),
            root: DameState::new(pos),
            history: self.history.clone(),
            limits,
            level: self.level,
            multipv: 1,
            seed: pos.hash(),
        };
        self.search.start(
            job,
            move |i: &SearchInfo<Move>| {
                let score = match i.score {
                    Score::Cp(v) => format!("{:.2}", f64::from(v) / 100.0),
                    Score::Mate(n) if n > 0 => format!("{}", 1000 - n),
                    Score::Mate(n) => format!("{}", -1000 - n),
                };
                let pv: Vec<String> = i.pv.iter().map(hub_move).collect();
                say(
                    &out,
                    &format!(
                        "info depth={} score={score} nodes={} time={:.3} nps={:.2} pv=\"{}\"",
                        i.depth,
                        i.nodes,
                        i.time.as_secs_f64(),
                        i.nps as f64 / 1e6,
                        pv.join(" ")
                    ),
                );
            },
            move |best, line| match best {
                Some(m) => {
                    let ponder = line
                        .get(1)
                        .map(|p| format!(" ponder={}", hub_move(p)))
                        .unwrap_or_default();
                    say(&out2, &format!("done move={}{ponder}", hub_move(&m)));
                }
                None => {
                    say(&out2, "error message=\"no legal move\"");
                    say(&out2, "done");
                }
            },
        );
    }
}

pub fn run(_args: Args) -> Result<()> {
    let rules = RuleSet::INTERNATIONAL;
    let mut hub = HubSession {
        out: super::search_job::out(Box::new(std::io::stdout())),
        engine: Arc::new(Engine::new(64, 1)),
        rules,
        position: Some(Position::new(rules)),
        history: Vec::new(),
        limits: Limits::movetime(Duration::from_secs(1)),
        level: 10,
        search: Searcher::default(),
    };
    for line in stdin_lines() {
        if !hub.handle(&line) {
            return Ok(());
        }
    }
    // Standard input closed: the GUI is gone. Finish what runs and leave.
    hub.search.finish_at_end();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";

    #[test]
    fn lines_split_into_command_and_arguments() {
        let (cmd, args) = parse_line("pos pos=W moves=\"32-28 19-23\" analyze").expect("valid");
        assert_eq!(cmd, "pos");
        assert_eq!(
            args,
            vec![
                ("pos".to_string(), "W".to_string()),
                ("moves".to_string(), "32-28 19-23".to_string()),
                ("analyze".to_string(), String::new())
            ]
        );
        assert!(parse_line("pos moves=\"32-28").is_none());
    }

    #[test]
    fn hub_positions_round_trip() {
        let rules = RuleSet::INTERNATIONAL;
        let pos = parse_hub_position(START, rules).expect("start");
        assert_eq!(pos.fen(), Position::new(rules).fen());
        assert_eq!(hub_position(&pos), START);
        assert!(parse_hub_position("W", rules).is_err());
        assert!(parse_hub_position(&START.replace('W', "X"), rules).is_err());
    }

    #[test]
    fn captures_list_every_captured_square() {
        let rules = RuleSet::INTERNATIONAL;
        let mut game = dame::Game::new(rules);
        game.play_str("32-28").expect("legal");
        game.play_str("19-23").expect("legal");
        let pos = *game.position();
        let m = parse_hub_move(&pos, "28x19x23").expect("the capture");
        assert_eq!(hub_move(&m), "28x19x23");
        assert!(
            parse_hub_move(&pos, "31-26").is_err(),
            "capture is compulsory"
        );
        assert!(parse_hub_move(&pos, "99-98").is_err());
    }
}
