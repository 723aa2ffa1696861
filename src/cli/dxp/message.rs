//! The messages of the DamExchange protocol (DXP): reading and writing the
//! fixed-width ASCII layouts of layer 2, and the framing of the SOCKET layer 1
//! (every message is followed by one NUL byte).
//!
//! | type | layout (widths in characters) | example |
//! |---|---|---|
//! | GAMEREQ | `R`, version 2 (`01`), initiator name 32, follower colour 1 (`W`/`Z`), thinking time 3 (minutes per player for the game), number of moves 3 (`000`: no limit), start 1 (`A`: the start position; `B`: followed by the side to move 1 (`W`/`Z`) and 50 squares `e`/`w`/`z`/`W`/`Z`) | `R01brett                           Z010000A` |
//! | GAMEACC | `A`, follower name 32, acceptance code 1 (`0` accepted, `1` wrong version, `2` not this game, `3` no games at all) | `Abrett                           0` |
//! | MOVE | `M`, time 4 (seconds used), from 2, to 2, number captured 2 (`00`–`20`), each captured square 2 | `M0012061100`, `M001205250422122320` |
//! | GAMEEND | `E`, reason 1 (`0` none, `1` I give up, `2` draw, `3` I win), stop code 1 (`0` another game is welcome, `1` stop) | `E00` |
//! | CHAT | `C`, text 1–126 | `Chello` |
//! | BACKREQ | `B`, move number 3, side to move 1 (`W`/`Z`) | `B005Z` |
//! | BACKACC | `K`, code 1 (`0` accepted, `1` not supported, `2` declined) | `K1` |
//!
//! Names are padded on the right with blanks; numbers have leading zeros;
//! squares are 01–50. White is `W`, black `Z` (Dutch *zwart*): in a
//! position `w`/`z` are men, `W`/`Z` kings, `e` an empty square. A message
//! is 1 to 127 characters of ASCII (values 1–127).

use std::io::{self, BufRead, Read, Write};

use dame::{BoardSize, Color, Piece, PieceKind, Setup, Square};

/// The protocol version brett speaks (the version field of GAMEREQ).
pub const VERSION: u8 = 1;
/// The longest message, without its NUL: 127 characters.
pub const MAX_LEN: usize = 127;
/// The width of the program name in GAMEREQ and GAMEACC.
pub const NAME_LEN: usize = 32;
/// The most pieces a MOVE may capture.
pub const MAX_CAPTURES: usize = 20;
/// The longest CHAT text.
pub const MAX_CHAT: usize = MAX_LEN - 1;
/// The number of squares of the 10×10 board.
const SQUARES: usize = 50;

/// One DXP message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// GAMEREQ (`R`): the initiator proposes a game.
    GameRequest(GameRequest),
    /// GAMEACC (`A`): the follower's answer to a GAMEREQ.
    GameAccept(GameAccept),
    /// MOVE (`M`): a move.
    Move(MoveMessage),
    /// GAMEEND (`E`): end the game, or acknowledge its end.
    GameEnd(GameEnd),
    /// CHAT (`C`): free text.
    Chat(String),
    /// BACKREQ (`B`): take moves back, to the given move.
    BackRequest(BackRequest),
    /// BACKACC (`K`): the answer to a BACKREQ.
    BackAccept(BackAnswer),
}

/// GAMEREQ: the game the initiator proposes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRequest {
    /// The initiator's name (trailing blanks removed).
    pub name: String,
    /// The colour the follower plays.
    pub follower: Color,
    /// Thinking time of each player for the whole game, in minutes (0–999).
    pub minutes: u16,
    /// Number of moves of the game (0–999; 0: no limit).
    pub moves: u16,
    /// The start position, or `None` for the usual one (White to move).
    pub start: Option<Setup>,
}

/// GAMEACC: the follower's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameAccept {
    /// The follower's name (trailing blanks removed).
    pub name: String,
    /// Whether the game is accepted, or why not.
    pub code: AcceptCode,
}

/// The acceptance code of GAMEACC.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AcceptCode {
    /// `0`: the game starts.
    Accepted,
    /// `1`: the GAMEREQ has another protocol version.
    WrongVersion,
    /// `2`: not this game (e.g. its position), but another one is welcome.
    Declined,
    /// `3`: no games at all.
    NoGames,
}

/// MOVE: a move with the time it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveMessage {
    /// Seconds the sender thought (0–9999; for information only).
    pub seconds: u16,
    /// The square the piece leaves.
    pub from: Square,
    /// The square the piece ends on.
    pub to: Square,
    /// The squares of the captured pieces, in any order.
    pub captured: Vec<Square>,
}

/// GAMEEND: end the game (or acknowledge the peer's GAMEEND).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameEnd {
    /// Why, in the sender's view.
    pub reason: EndReason,
    /// `true` (stop code `1`): the sender wants no further game.
    pub stop: bool,
}

/// The reason of a GAMEEND (informational).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// `0`: no reason given (the acknowledgement always says this).
    Unspecified,
    /// `1`: the sender gives up.
    IGiveUp,
    /// `2`: a draw.
    Draw,
    /// `3`: the sender wins.
    IWin,
}

/// BACKREQ: go back to the position at a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BackRequest {
    /// The move number (1–999; the first move of the game is 1).
    pub move_number: u16,
    /// The side to move at that move.
    pub turn: Color,
}

/// The code of BACKACC.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackAnswer {
    /// `0`: taken back.
    Accepted,
    /// `1`: taking back is not supported.
    NotSupported,
    /// `2`: declined.
    Declined,
}

/// Why bytes are not a DXP message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MessageError {
    /// Nothing between two NULs.
    #[error("empty message")]
    Empty,
    /// A byte outside ASCII 1–127.
    #[error("byte {byte:#04x} at position {at} is not ASCII")]
    NotAscii { byte: u8, at: usize },
    /// The first character names no message type.
    #[error("unknown message type '{0}' (known: R, A, M, E, C, B, K)")]
    UnknownType(String),
    /// The message is too short or too long for its type.
    #[error("a {kind} message has {expected} characters, this one has {found}")]
    Length {
        kind: &'static str,
        expected: String,
        found: usize,
    },
    /// A field holds something it may not.
    #[error("{kind}: the {field} must be {must}, found '{found}'")]
    Field {
        kind: &'static str,
        field: &'static str,
        must: &'static str,
        found: String,
    },
    /// A square of a GAMEREQ position holds no piece letter.
    #[error("GAMEREQ: square {square} of the position must be e, w, z, W or Z, found '{found}'")]
    PositionSquare { square: usize, found: String },
    /// A GAMEREQ of a protocol version other than 01 (its other fields are
    /// not read).
    #[error("GAMEREQ of protocol version {0:02} (brett speaks version 01)")]
    UnsupportedVersion(u8),
}

/// Why no message could be read from a stream.
#[derive(Debug, thiserror::Error)]
pub enum FrameError {
    /// The stream failed (or a read timed out).
    #[error(transparent)]
    Io(#[from] io::Error),
    /// More than 127 bytes without a NUL.
    #[error("no NUL after {MAX_LEN} bytes: not a DXP message")]
    TooLong,
    /// The stream ended in the middle of a message.
    #[error("the connection ended in the middle of a message ('{0}')")]
    Truncated(String),
}

/// `W` or `Z`.
fn color_char(c: Color) -> char {
    match c {
        Color::White => 'W',
        Color::Black => 'Z',
    }
}

/// The letter of a square's content in a protocol's position string:
/// `letters` for a white man, white king, black man, black king and an
/// empty square.
pub(crate) fn piece_letter(p: Option<Piece>, letters: [char; 5]) -> char {
    match p {
        Some(Piece { color, kind }) => {
            let king = usize::from(kind == PieceKind::King);
            letters[2 * color.index() + king]
        }
        None => letters[4],
    }
}

/// The character of a square in a GAMEREQ position.
fn square_char(p: Option<Piece>) -> char {
    piece_letter(p, ['w', 'W', 'z', 'Z', 'e'])
}

/// Square `n` (1–50) of the 10×10 board.
fn square(n: u8) -> Option<Square> {
    Square::from_number(BoardSize::Ten, n)
}

/// `text` as printable ASCII of at most `width` characters: other
/// characters become `?`.
fn ascii(text: &str, width: usize) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii_graphic() || c == ' ' {
                c
            } else {
                '?'
            }
        })
        .take(width)
        .collect()
}

/// A name in its field: printable ASCII, no leading blank, padded with
/// blanks to 32 characters (an empty name becomes `?`).
fn name_field(name: &str) -> String {
    let name = ascii(name.trim_start(), NAME_LEN);
    let name = if name.trim().is_empty() { "?" } else { &name };
    format!("{name:<NAME_LEN$}")
}

impl EndReason {
    fn digit(self) -> char {
        match self {
            EndReason::Unspecified => '0',
            EndReason::IGiveUp => '1',
            EndReason::Draw => '2',
            EndReason::IWin => '3',
        }
    }
}

impl AcceptCode {
    fn digit(self) -> char {
        match self {
            AcceptCode::Accepted => '0',
            AcceptCode::WrongVersion => '1',
            AcceptCode::Declined => '2',
            AcceptCode::NoGames => '3',
        }
    }

    /// What the code says, in words.
    pub fn describe(self) -> &'static str {
        match self {
            AcceptCode::Accepted => "accepted",
            AcceptCode::WrongVersion => "declined: another protocol version",
            AcceptCode::Declined => "declined this game (another one is welcome)",
            AcceptCode::NoGames => "declined: no games at all",
        }
    }
}

impl BackAnswer {
    fn digit(self) -> char {
        match self {
            BackAnswer::Accepted => '0',
            BackAnswer::NotSupported => '1',
            BackAnswer::Declined => '2',
        }
    }
}

impl Message {
    /// The message's name in the protocol: `GAMEREQ`, `MOVE`, …
    pub fn kind(&self) -> &'static str {
        match self {
            Message::GameRequest(_) => "GAMEREQ",
            Message::GameAccept(_) => "GAMEACC",
            Message::Move(_) => "MOVE",
            Message::GameEnd(_) => "GAMEEND",
            Message::Chat(_) => "CHAT",
            Message::BackRequest(_) => "BACKREQ",
            Message::BackAccept(_) => "BACKACC",
        }
    }

    /// The message as sent (without its NUL). Numbers beyond their field
    /// are clamped (999 minutes, 9999 seconds), names and chat are cut to
    /// their width and non-printable or non-ASCII characters become `?`;
    /// at most 20 captured squares are written.
    pub fn encode(&self) -> String {
        match self {
            Message::GameRequest(r) => {
                let mut s = format!(
                    "R{VERSION:02}{}{}{:03}{:03}",
                    name_field(&r.name),
                    color_char(r.follower),
                    r.minutes.min(999),
                    r.moves.min(999)
                );
                match &r.start {
                    None => s.push('A'),
                    Some(setup) => {
                        s.push('B');
                        s.push(color_char(setup.turn));
                        for n in 1..=SQUARES as u8 {
                            s.push(square_char(square(n).and_then(|q| setup.piece_at(q))));
                        }
                    }
                }
                s
            }
            Message::GameAccept(a) => format!("A{}{}", name_field(&a.name), a.code.digit()),
            Message::Move(m) => {
                let captured = &m.captured[..m.captured.len().min(MAX_CAPTURES)];
                let mut s = format!(
                    "M{:04}{:02}{:02}{:02}",
                    m.seconds.min(9999),
                    m.from.number(),
                    m.to.number(),
                    captured.len()
                );
                for q in captured {
                    s.push_str(&format!("{:02}", q.number()));
                }
                s
            }
            Message::GameEnd(e) => {
                format!("E{}{}", e.reason.digit(), if e.stop { '1' } else { '0' })
            }
            Message::Chat(text) => {
                let text = ascii(text, MAX_CHAT);
                format!("C{}", if text.is_empty() { " " } else { &text })
            }
            Message::BackRequest(b) => {
                format!("B{:03}{}", b.move_number.min(999), color_char(b.turn))
            }
            Message::BackAccept(k) => format!("K{}", k.digit()),
        }
    }

    /// Read one message (the bytes between two NULs).
    pub fn parse(bytes: &[u8]) -> Result<Message, MessageError> {
        let (&first, _) = bytes.split_first().ok_or(MessageError::Empty)?;
        if first == b'C' {
            // Chat is free text: read whatever arrives.
            return Ok(Message::Chat(
                String::from_utf8_lossy(&bytes[1..]).into_owned(),
            ));
        }
        if let Some(at) = bytes.iter().position(|b| *b == 0 || *b > 127) {
            return Err(MessageError::NotAscii {
                byte: bytes[at],
                at,
            });
        }
        // All ASCII from here on: every byte is one char.
        let text = std::str::from_utf8(bytes)
            .map_err(|_| MessageError::NotAscii { byte: first, at: 0 })?;
        let body = &text[1..];
        match first {
            b'R' => parse_game_request(body),
            b'A' => {
                let kind = "GAMEACC";
                exact_len(kind, text, 1 + NAME_LEN + 1)?;
                let code = match &body[NAME_LEN..] {
                    "0" => AcceptCode::Accepted,
                    "1" => AcceptCode::WrongVersion,
                    "2" => AcceptCode::Declined,
                    "3" => AcceptCode::NoGames,
                    other => return Err(field(kind, "acceptance code", "0, 1, 2 or 3", other)),
                };
                Ok(Message::GameAccept(GameAccept {
                    name: body[..NAME_LEN].trim_end().to_string(),
                    code,
                }))
            }
            b'M' => parse_move(text),
            b'E' => {
                let kind = "GAMEEND";
                exact_len(kind, text, 3)?;
                let reason = match &body[..1] {
                    "0" => EndReason::Unspecified,
                    "1" => EndReason::IGiveUp,
                    "2" => EndReason::Draw,
                    "3" => EndReason::IWin,
                    other => return Err(field(kind, "reason", "0, 1, 2 or 3", other)),
                };
                let stop = match &body[1..] {
                    "0" => false,
                    "1" => true,
                    other => return Err(field(kind, "stop code", "0 or 1", other)),
                };
                Ok(Message::GameEnd(GameEnd { reason, stop }))
            }
            b'B' => {
                let kind = "BACKREQ";
                exact_len(kind, text, 5)?;
                let move_number = number(kind, "move number", &body[..3])?;
                let turn = color(kind, "side to move", &body[3..])?;
                Ok(Message::BackRequest(BackRequest { move_number, turn }))
            }
            b'K' => {
                let kind = "BACKACC";
                exact_len(kind, text, 2)?;
                let answer = match body {
                    "0" => BackAnswer::Accepted,
                    "1" => BackAnswer::NotSupported,
                    "2" => BackAnswer::Declined,
                    other => return Err(field(kind, "code", "0, 1 or 2", other)),
                };
                Ok(Message::BackAccept(answer))
            }
            _ => Err(MessageError::UnknownType(
                char::from(first).escape_default().to_string(),
            )),
        }
    }
}

fn field(kind: &'static str, name: &'static str, must: &'static str, found: &str) -> MessageError {
    MessageError::Field {
        kind,
        field: name,
        must,
        found: found.escape_default().to_string(),
    }
}

fn exact_len(kind: &'static str, text: &str, expected: usize) -> Result<(), MessageError> {
    if text.len() == expected {
        Ok(())
    } else {
        Err(MessageError::Length {
            kind,
            expected: expected.to_string(),
            found: text.len(),
        })
    }
}

/// A number written in ASCII digits (all of them).
fn number(kind: &'static str, name: &'static str, digits: &str) -> Result<u16, MessageError> {
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(field(kind, name, "digits", digits));
    }
    digits
        .parse()
        .map_err(|_| field(kind, name, "digits", digits))
}

fn color(kind: &'static str, name: &'static str, c: &str) -> Result<Color, MessageError> {
    match c {
        "W" => Ok(Color::White),
        "Z" => Ok(Color::Black),
        other => Err(field(kind, name, "W or Z", other)),
    }
}

/// A square written in two digits, 01–50.
fn square_field(
    kind: &'static str,
    name: &'static str,
    digits: &str,
) -> Result<Square, MessageError> {
    number(kind, name, digits)
        .ok()
        .and_then(|n| u8::try_from(n).ok())
        .and_then(square)
        .ok_or_else(|| field(kind, name, "a square 01-50", digits))
}

fn parse_game_request(body: &str) -> Result<Message, MessageError> {
    let kind = "GAMEREQ";
    // The version first: another version may have another layout.
    let version = body.get(..2).unwrap_or(body);
    let version = number(kind, "version", version)?;
    if version != u16::from(VERSION) {
        return Err(MessageError::UnsupportedVersion(version.min(99) as u8));
    }
    // version 2, name 32, colour 1, time 3, moves 3, start 1.
    const FIXED: usize = 2 + NAME_LEN + 1 + 3 + 3 + 1;
    const WITH_POSITION: usize = FIXED + 1 + SQUARES;
    let start_code = body.get(FIXED - 1..FIXED);
    let expected = match start_code {
        Some("B") => WITH_POSITION,
        _ => FIXED,
    };
    if body.len() != expected {
        return Err(MessageError::Length {
            kind,
            expected: if start_code == Some("B") {
                format!("{} (with a position)", 1 + WITH_POSITION)
            } else {
                format!("{} (or {} with a position)", 1 + FIXED, 1 + WITH_POSITION)
            },
            found: 1 + body.len(),
        });
    }
    let name = body[2..2 + NAME_LEN].trim_end().to_string();
    let mut at = 2 + NAME_LEN;
    let follower = color(kind, "follower colour", &body[at..at + 1])?;
    at += 1;
    let minutes = number(kind, "thinking time", &body[at..at + 3])?;
    at += 3;
    let moves = number(kind, "number of moves", &body[at..at + 3])?;
    at += 3;
    let start = match &body[at..at + 1] {
        "A" => None,
        "B" => {
            at += 1;
            let mut setup = Setup::empty(BoardSize::Ten);
            setup.turn = color(kind, "side to move", &body[at..at + 1])?;
            at += 1;
            for (i, c) in body[at..].chars().enumerate() {
                let piece = match c {
                    'e' => None,
                    'w' => Some((Color::White, PieceKind::Man)),
                    'z' => Some((Color::Black, PieceKind::Man)),
                    'W' => Some((Color::White, PieceKind::King)),
                    'Z' => Some((Color::Black, PieceKind::King)),
                    other => {
                        return Err(MessageError::PositionSquare {
                            square: i + 1,
                            found: other.escape_default().to_string(),
                        });
                    }
                };
                // i < 50: the length was checked.
                if let Some(q) = square(i as u8 + 1) {
                    setup.set(q, piece.map(|(color, kind)| Piece { color, kind }));
                }
            }
            Some(setup)
        }
        other => return Err(field(kind, "start code", "A or B", other)),
    };
    Ok(Message::GameRequest(GameRequest {
        name,
        follower,
        minutes,
        moves,
        start,
    }))
}

fn parse_move(text: &str) -> Result<Message, MessageError> {
    let kind = "MOVE";
    const FIXED: usize = 1 + 4 + 2 + 2 + 2;
    if text.len() < FIXED {
        return Err(MessageError::Length {
            kind,
            expected: format!("at least {FIXED}"),
            found: text.len(),
        });
    }
    let seconds = number(kind, "time", &text[1..5])?;
    let from = square_field(kind, "from square", &text[5..7])?;
    let to = square_field(kind, "to square", &text[7..9])?;
    let count = number(kind, "number captured", &text[9..11])? as usize;
    if count > MAX_CAPTURES {
        return Err(field(kind, "number captured", "00 to 20", &text[9..11]));
    }
    if text.len() != FIXED + 2 * count {
        return Err(MessageError::Length {
            kind,
            expected: format!("{} (with {count} captured squares)", FIXED + 2 * count),
            found: text.len(),
        });
    }
    let captured = (0..count)
        .map(|i| {
            let at = FIXED + 2 * i;
            square_field(kind, "captured square", &text[at..at + 2])
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Message::Move(MoveMessage {
        seconds,
        from,
        to,
        captured,
    }))
}

/// Read the next message's bytes: everything up to the next NUL (which is
/// dropped). `Ok(None)`: the stream ended cleanly between two messages.
pub fn read_frame(reader: &mut impl BufRead) -> Result<Option<Vec<u8>>, FrameError> {
    let mut buf = Vec::with_capacity(64);
    let n = reader.take(MAX_LEN as u64 + 1).read_until(0, &mut buf)?;
    if n == 0 {
        return Ok(None);
    }
    if buf.last() == Some(&0) {
        buf.pop();
        return Ok(Some(buf));
    }
    if buf.len() > MAX_LEN {
        Err(FrameError::TooLong)
    } else {
        Err(FrameError::Truncated(
            String::from_utf8_lossy(&buf).escape_default().to_string(),
        ))
    }
}

/// Send one message with its NUL.
pub fn write_frame(writer: &mut impl Write, message: &Message) -> io::Result<()> {
    let mut bytes = message.encode().into_bytes();
    bytes.push(0);
    writer.write_all(&bytes)?;
    writer.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::io::Cursor;

    fn sq(n: u8) -> Square {
        square(n).expect("1..=50")
    }

    fn parse_str(s: &str) -> Result<Message, MessageError> {
        Message::parse(s.as_bytes())
    }

    fn round_trip(m: &Message) {
        let text = m.encode();
        assert!(text.len() <= MAX_LEN, "{text}");
        assert_eq!(parse_str(&text).as_ref(), Ok(m), "{text}");
    }

    #[test]
    fn examples_of_the_protocol_description_are_read() {
        assert_eq!(
            parse_str("M0012061100"),
            Ok(Message::Move(MoveMessage {
                seconds: 12,
                from: sq(6),
                to: sq(11),
                captured: vec![],
            }))
        );
        assert_eq!(
            parse_str("M001205250422122320"),
            Ok(Message::Move(MoveMessage {
                seconds: 12,
                from: sq(5),
                to: sq(25),
                captured: vec![sq(22), sq(12), sq(23), sq(20)],
            }))
        );
        assert_eq!(
            parse_str("ATornado voor Windows 4.0        0"),
            Ok(Message::GameAccept(GameAccept {
                name: "Tornado voor Windows 4.0".into(),
                code: AcceptCode::Accepted,
            }))
        );
        assert_eq!(
            parse_str("E00"),
            Ok(Message::GameEnd(GameEnd {
                reason: EndReason::Unspecified,
                stop: false,
            }))
        );
        assert_eq!(
            parse_str("CWhat do you think about move 35?"),
            Ok(Message::Chat("What do you think about move 35?".into()))
        );
        assert_eq!(
            parse_str("B005Z"),
            Ok(Message::BackRequest(BackRequest {
                move_number: 5,
                turn: Color::Black,
            }))
        );
        assert_eq!(
            parse_str("K1"),
            Ok(Message::BackAccept(BackAnswer::NotSupported))
        );
    }

    #[test]
    fn game_requests_are_written_field_by_field() {
        let request = GameRequest {
            name: "brett".into(),
            follower: Color::Black,
            minutes: 10,
            moves: 75,
            start: None,
        };
        let text = Message::GameRequest(request.clone()).encode();
        assert_eq!(text, format!("R01{:<32}Z010075A", "brett"));
        assert_eq!(text.len(), 43);
        round_trip(&Message::GameRequest(request.clone()));

        let start = Setup::start(BoardSize::Ten);
        let with_position = GameRequest {
            start: Some(start),
            ..request
        };
        let text = Message::GameRequest(with_position.clone()).encode();
        assert_eq!(text.len(), 94);
        assert!(
            text.ends_with(&format!(
                "BW{}{}{}",
                "z".repeat(20),
                "e".repeat(10),
                "w".repeat(20)
            )),
            "{text}"
        );
        round_trip(&Message::GameRequest(with_position));
    }

    #[test]
    fn positions_with_kings_and_black_to_move_round_trip() {
        let mut setup = Setup::empty(BoardSize::Ten);
        setup.turn = Color::Black;
        let piece = |color, kind| Some(Piece { color, kind });
        setup.set(sq(1), piece(Color::White, PieceKind::King));
        setup.set(sq(28), piece(Color::White, PieceKind::Man));
        setup.set(sq(23), piece(Color::Black, PieceKind::Man));
        setup.set(sq(50), piece(Color::Black, PieceKind::King));
        let m = Message::GameRequest(GameRequest {
            name: "x".into(),
            follower: Color::White,
            minutes: 0,
            moves: 0,
            start: Some(setup),
        });
        let text = m.encode();
        // 'B' at 42, the side to move at 43, square n at 43 + n.
        assert_eq!(&text[42..45], "BZW");
        assert_eq!(&text[43 + 23..44 + 23], "z");
        assert_eq!(&text[43 + 28..44 + 28], "w");
        assert!(text.ends_with('Z'));
        round_trip(&m);
    }

    #[test]
    fn every_message_type_round_trips() {
        for m in [
            Message::GameAccept(GameAccept {
                name: "Kingsrow".into(),
                code: AcceptCode::Declined,
            }),
            Message::Move(MoveMessage {
                seconds: 9999,
                from: sq(50),
                to: sq(1),
                captured: vec![],
            }),
            Message::GameEnd(GameEnd {
                reason: EndReason::IWin,
                stop: true,
            }),
            Message::Chat("good luck".into()),
            Message::BackRequest(BackRequest {
                move_number: 999,
                turn: Color::White,
            }),
            Message::BackAccept(BackAnswer::Declined),
        ] {
            round_trip(&m);
        }
    }

    #[test]
    fn fields_are_clamped_and_cleaned_when_written() {
        let long = Message::GameAccept(GameAccept {
            name: format!("  {}é", "n".repeat(40)),
            code: AcceptCode::NoGames,
        })
        .encode();
        assert_eq!(long, format!("A{}3", "n".repeat(32)));
        let odd = Message::GameAccept(GameAccept {
            name: "tab\there é".into(),
            code: AcceptCode::Accepted,
        })
        .encode();
        assert_eq!(odd, format!("A{:<32}0", "tab?here ?"));
        let slow = Message::Move(MoveMessage {
            seconds: u16::MAX,
            from: sq(32),
            to: sq(28),
            captured: vec![],
        })
        .encode();
        assert_eq!(slow, "M9999322800");
        let chat = Message::Chat("x".repeat(200)).encode();
        assert_eq!(chat.len(), MAX_LEN);
    }

    #[test]
    fn malformed_messages_are_rejected_with_the_reason() {
        let bad = |s: &str| parse_str(s).expect_err(s).to_string();
        assert_eq!(Message::parse(b""), Err(MessageError::Empty));
        assert!(
            bad("X123").contains("unknown message type 'X'"),
            "{}",
            bad("X123")
        );
        assert!(bad("r01").contains("unknown message type"));
        // Wrong lengths.
        assert!(bad("E0").contains("GAMEEND message has 3 characters, this one has 2"));
        assert!(bad("E000").contains("has 4"));
        assert!(bad("K").contains("BACKACC"));
        assert!(bad("Ashort0").contains("GAMEACC message has 34"));
        assert!(bad("M00120611").contains("at least 11"));
        assert!(bad("M0012052504221223").contains("19 (with 4 captured squares)"));
        assert!(bad("M00120611000").contains("11 (with 0 captured squares)"));
        let short_request = format!("R01{:<32}Z010075", "brett");
        assert!(bad(&short_request).contains("GAMEREQ message has 43"));
        let cut_position = format!("R01{:<32}Z010075BW{}", "brett", "e".repeat(49));
        assert!(bad(&cut_position).contains("94 (with a position)"));
        // Bad squares.
        assert!(bad("M0012001100").contains("from square must be a square 01-50, found '00'"));
        assert!(bad("M0012065100").contains("to square must be a square 01-50, found '51'"));
        assert!(bad("M0012061101x1").contains("captured square"));
        assert!(bad("M0012061101-1").contains("captured square"));
        assert!(bad("M0012+61100").contains("from square"));
        // Bad numbers and codes.
        assert!(bad("M00a2061100").contains("time must be digits"));
        assert!(bad(&format!("M0000010221{}", "01".repeat(21))).contains("00 to 20"));
        assert!(bad("E40").contains("reason must be 0, 1, 2 or 3"));
        assert!(bad("E02").contains("stop code must be 0 or 1"));
        assert!(bad("K7").contains("code must be 0, 1 or 2"));
        assert!(bad("B00AW").contains("move number must be digits"));
        assert!(bad("B005B").contains("side to move must be W or Z, found 'B'"));
        assert!(bad(&format!("A{:<32}9", "x")).contains("acceptance code"));
        let black_as_b = format!("R01{:<32}B010075A", "brett");
        assert!(bad(&black_as_b).contains("follower colour must be W or Z"));
        let bad_piece = format!(
            "R01{:<32}Z010075BW{}b{}",
            "x",
            "e".repeat(10),
            "e".repeat(39)
        );
        assert!(
            bad(&bad_piece).contains("square 11 of the position"),
            "{}",
            bad(&bad_piece)
        );
        let bad_start = format!("R01{:<32}Z010075C", "x");
        assert!(bad(&bad_start).contains("start code must be A or B"));
        // Not ASCII.
        assert_eq!(
            Message::parse(b"E0\xff"),
            Err(MessageError::NotAscii { byte: 0xff, at: 2 })
        );
        assert!(matches!(
            Message::parse(b"M00\x0012061100"),
            Err(MessageError::NotAscii { byte: 0, .. })
        ));
    }

    #[test]
    fn other_protocol_versions_are_told_apart() {
        let v2 = format!("R02{:<32}Z010075A", "future");
        assert_eq!(parse_str(&v2), Err(MessageError::UnsupportedVersion(2)));
        assert_eq!(parse_str("R99"), Err(MessageError::UnsupportedVersion(99)));
        assert!(matches!(parse_str("R"), Err(MessageError::Field { .. })));
        assert!(matches!(parse_str("R0x"), Err(MessageError::Field { .. })));
    }

    #[test]
    fn frames_end_at_each_nul() {
        let mut stream = Cursor::new(b"E00\0M0012061100\0\0Chi\0".to_vec());
        let mut frames = Vec::new();
        while let Some(f) = read_frame(&mut stream).expect("well framed") {
            frames.push(f);
        }
        assert_eq!(
            frames,
            vec![
                b"E00".to_vec(),
                b"M0012061100".to_vec(),
                vec![],
                b"Chi".to_vec()
            ]
        );

        let mut cut = Cursor::new(b"E00\0M00".to_vec());
        assert!(read_frame(&mut cut).expect("first").is_some());
        assert!(matches!(read_frame(&mut cut), Err(FrameError::Truncated(t)) if t == "M00"));

        let mut endless = Cursor::new(vec![b'C'; 500]);
        assert!(matches!(read_frame(&mut endless), Err(FrameError::TooLong)));

        let longest = [vec![b'C'; MAX_LEN], vec![0]].concat();
        let frame = read_frame(&mut Cursor::new(longest)).expect("127 characters fit");
        assert_eq!(frame.map(|f| f.len()), Some(MAX_LEN));

        let mut written = Vec::new();
        write_frame(&mut written, &Message::BackAccept(BackAnswer::NotSupported)).expect("write");
        assert_eq!(written, b"K1\0");
    }

    fn any_square() -> impl Strategy<Value = Square> {
        (1u8..=50).prop_map(sq)
    }

    fn any_color() -> impl Strategy<Value = Color> {
        prop_oneof![Just(Color::White), Just(Color::Black)]
    }

    fn any_name() -> impl Strategy<Value = String> {
        "[!-~][ -~]{0,30}[!-~]".prop_map(|s| s.trim_end().to_string())
    }

    fn any_setup() -> impl Strategy<Value = Setup> {
        (any_color(), proptest::collection::vec(0u8..5, SQUARES)).prop_map(|(turn, cells)| {
            let mut setup = Setup::empty(BoardSize::Ten);
            setup.turn = turn;
            for (i, c) in cells.into_iter().enumerate() {
                let piece = match c {
                    0 => None,
                    1 => Some((Color::White, PieceKind::Man)),
                    2 => Some((Color::Black, PieceKind::Man)),
                    3 => Some((Color::White, PieceKind::King)),
                    _ => Some((Color::Black, PieceKind::King)),
                };
                setup.set(
                    sq(i as u8 + 1),
                    piece.map(|(color, kind)| Piece { color, kind }),
                );
            }
            setup
        })
    }

    fn any_message() -> impl Strategy<Value = Message> {
        prop_oneof![
            (
                any_name(),
                any_color(),
                0u16..=999,
                0u16..=999,
                proptest::option::of(any_setup())
            )
                .prop_map(|(name, follower, minutes, moves, start)| {
                    Message::GameRequest(GameRequest {
                        name,
                        follower,
                        minutes,
                        moves,
                        start,
                    })
                }),
            (any_name(), 0u8..4).prop_map(|(name, c)| {
                let code = [
                    AcceptCode::Accepted,
                    AcceptCode::WrongVersion,
                    AcceptCode::Declined,
                    AcceptCode::NoGames,
                ][usize::from(c)];
                Message::GameAccept(GameAccept { name, code })
            }),
            (
                0u16..=9999,
                any_square(),
                any_square(),
                proptest::collection::vec(any_square(), 0..=MAX_CAPTURES)
            )
                .prop_map(|(seconds, from, to, captured)| {
                    Message::Move(MoveMessage {
                        seconds,
                        from,
                        to,
                        captured,
                    })
                }),
            (0u8..4, any::<bool>()).prop_map(|(r, stop)| {
                let reason = [
                    EndReason::Unspecified,
                    EndReason::IGiveUp,
                    EndReason::Draw,
                    EndReason::IWin,
                ][usize::from(r)];
                Message::GameEnd(GameEnd { reason, stop })
            }),
            "[ -~]{1,126}".prop_map(Message::Chat),
            (0u16..=999, any_color()).prop_map(|(move_number, turn)| Message::BackRequest(
                BackRequest { move_number, turn }
            )),
            prop_oneof![
                Just(BackAnswer::Accepted),
                Just(BackAnswer::NotSupported),
                Just(BackAnswer::Declined)
            ]
            .prop_map(Message::BackAccept),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn written_messages_read_back(m in any_message()) {
            let text = m.encode();
            prop_assert!(!text.is_empty() && text.len() <= MAX_LEN);
            prop_assert!(text.bytes().all(|b| (1..=127).contains(&b)));
            prop_assert_eq!(Message::parse(text.as_bytes()), Ok(m));
        }

        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            let _ = Message::parse(&bytes);
        }

        #[test]
        fn damaged_messages_never_panic(
            m in any_message(),
            at in any::<prop::sample::Index>(),
            byte in any::<u8>(),
            cut in any::<prop::sample::Index>(),
        ) {
            let mut bytes = m.encode().into_bytes();
            let i = at.index(bytes.len());
            bytes[i] = byte;
            let _ = Message::parse(&bytes);
            bytes.truncate(cut.index(bytes.len() + 1));
            let _ = Message::parse(&bytes);
        }

        #[test]
        fn arbitrary_streams_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
            let mut stream = Cursor::new(bytes);
            // Every frame read consumes at least one byte: this ends.
            while let Ok(Some(frame)) = read_frame(&mut stream) {
                let _ = Message::parse(&frame);
            }
        }
    }
}
