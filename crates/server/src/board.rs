//! The games the server knows, behind one adapter: [`GameType`] names a
//! game, [`Board`] is a game in progress with its rules: Mühle, or Dame on
//! 8×8 or 10×10 (with huffing as a rule option).

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::error::ApiError;
use crate::storage::GameMeta;

pub use boardgame::Color;

/// A colour as the API and the storage write it: exactly `white` or
/// `black` (stricter than [`Color::from_name`], which also reads `w`, `b`
/// and German names).
pub fn color_from_api(s: &str) -> Option<Color> {
    match s {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        _ => None,
    }
}

/// Which game is played: Mühle, or Dame under one of the presets
/// (`dame`, `dame-100`, `dame-fr`, `international`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameType {
    Muehle,
    /// The Dame preset the rules are based on (one of [`dame::PRESETS`]).
    Dame(&'static str),
}

/// The games a create request may name.
const GAME_NAMES: &str = "muehle, dame, dame-100, dame-fr, international";

impl GameType {
    /// The game's name in the API (`muehle`, `dame`, `dame-100`, …).
    pub fn name(self) -> &'static str {
        match self {
            GameType::Muehle => "muehle",
            GameType::Dame(preset) => preset,
        }
    }

    /// Parse the API's `game` field.
    pub fn parse(s: &str) -> Result<GameType, ApiError> {
        if s == "muehle" {
            return Ok(GameType::Muehle);
        }
        match dame::PRESETS.iter().find(|p| **p == s) {
            Some(p) => Ok(GameType::Dame(p)),
            None => Err(ApiError::BadRequest(format!(
                "unknown game '{}' (games: {GAME_NAMES})",
                s.chars().take(40).collect::<String>()
            ))),
        }
    }

    /// The rule preset a game of this type has when no rules are given.
    pub fn default_rules(self) -> &'static str {
        match self {
            GameType::Muehle => "standard",
            GameType::Dame(preset) => preset,
        }
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    pub winner: Option<Color>,
    /// Mühle: `two-stones`, `blocked`, `repetition`, `no-mill`, `agreement`,
    /// `resignation`; Dame: `no-pieces`, `blocked`, `repetition`,
    /// `king-moves`, `one-king-each`, `agreement`, `resignation`.
    pub reason: &'static str,
    /// The ending in English words.
    pub text: String,
}

impl Ending {
    pub fn result(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

/// One line of an analysis.
#[derive(Clone, Debug, Serialize)]
pub struct AnalysisLine {
    #[serde(rename = "move")]
    pub mv: String,
    pub score: Value,
    pub score_text: String,
    pub pv: Vec<String>,
    /// The reasons in English (the command line's words).
    pub why: Vec<String>,
    /// The same reasons as codes and parameters, for the UI to word in the
    /// player's language (docs/API.md).
    pub reasons: Vec<engine::explain::Reason>,
}

/// The engine's answer to an analysis request.
#[derive(Clone, Debug, Serialize)]
pub struct Analysis {
    pub depth: u32,
    pub nodes: u64,
    pub time_ms: u64,
    pub lines: Vec<AnalysisLine>,
}

/// A game in progress (or finished): the start, the moves, the outcome.
#[derive(Clone, Debug)]
pub enum Board {
    Muehle(muehle::Game),
    Dame(dame::Game),
}

fn dame_error(e: dame::GameError) -> ApiError {
    use dame::{GameError, MoveError};
    match e {
        GameError::Move(MoveError::GameOver(t)) | GameError::Over(t) => {
            ApiError::GameOver(format!("the game is over: {t}"))
        }
        GameError::Move(m) => ApiError::IllegalMove(m.to_string()),
        GameError::HuffNotAllowed { .. } => ApiError::IllegalMove(e.to_string()),
        GameError::NoDrawOffer(c) => {
            ApiError::NoDrawOffer(format!("{c} has no draw offer from the opponent to answer"))
        }
        GameError::NothingToUndo => ApiError::NotAllowed("there is no move to take back".into()),
    }
}

/// The rule options of the `options` object of a create request for Dame,
/// applied to `rules`.
fn apply_dame_options(
    rules: &mut dame::RuleSet,
    options: &Map<String, Value>,
) -> Result<(), ApiError> {
    let bad = |msg: String| ApiError::BadRequest(msg);
    let on_off = |b: bool| if b { "on" } else { "off" }.to_string();
    for (key, value) in options {
        let (name, text) = match (key.as_str(), value) {
            ("huffing", Value::Bool(b)) => ("huffing", on_off(*b)),
            ("men_capture_backward" | "men-capture-backward", Value::Bool(b)) => {
                ("men-capture-backward", on_off(*b))
            }
            ("majority", Value::Bool(b)) => ("majority", on_off(*b)),
            ("huffing" | "men_capture_backward" | "men-capture-backward" | "majority", _) => {
                return Err(bad(format!("option '{key}' is true or false")));
            }
            ("king_landing" | "king-landing", Value::String(v))
                if v == "behind" || v == "anywhere" =>
            {
                ("king-landing", v.clone())
            }
            ("king_landing" | "king-landing", _) => {
                return Err(bad(
                    "option 'king_landing' is \"behind\" or \"anywhere\"".into()
                ));
            }
            ("king_capture" | "king-capture", Value::String(v)) if v == "long" || v == "short" => {
                ("king-capture", v.clone())
            }
            ("king_capture" | "king-capture", _) => {
                return Err(bad("option 'king_capture' is \"long\" or \"short\"".into()));
            }
            ("promotion", Value::String(v)) if v == "immediate" || v == "end-of-move" => {
                ("promotion", v.clone())
            }
            ("promotion", _) => {
                return Err(bad(
                    "option 'promotion' is \"immediate\" or \"end-of-move\"".into(),
                ));
            }
            ("king_moves" | "king-moves", Value::Null) => ("king-moves", "off".to_string()),
            ("king_moves" | "king-moves", Value::Number(n)) => ("king-moves", n.to_string()),
            ("king_moves" | "king-moves", _) => {
                return Err(bad(
                    "option 'king_moves' is a number of plies or null".into()
                ));
            }
            ("repetition", Value::Null) => ("repetition", "off".to_string()),
            ("repetition", Value::Number(n)) => ("repetition", n.to_string()),
            ("repetition", _) => return Err(bad("option 'repetition' is a count or null".into())),
            ("one_king_each" | "one-king-each", Value::Bool(b)) => ("one-king-each", on_off(*b)),
            ("one_king_each" | "one-king-each", _) => {
                return Err(bad("option 'one_king_each' is true or false".into()));
            }
            ("king_vs_three" | "king-vs-three", Value::Null) => {
                ("king-vs-three", "off".to_string())
            }
            ("king_vs_three" | "king-vs-three", Value::Number(n)) => {
                ("king-vs-three", n.to_string())
            }
            ("king_vs_three" | "king-vs-three", _) => {
                return Err(bad(
                    "option 'king_vs_three' is a number of plies or null".into()
                ));
            }
            ("king_vs_two" | "king-vs-two", Value::Null) => ("king-vs-two", "off".to_string()),
            ("king_vs_two" | "king-vs-two", Value::Number(n)) => ("king-vs-two", n.to_string()),
            ("king_vs_two" | "king-vs-two", _) => {
                return Err(bad(
                    "option 'king_vs_two' is a number of plies or null".into()
                ));
            }
            (other, _) => {
                return Err(bad(format!(
                    "unknown rule option '{}' (options: huffing, men_capture_backward, majority, king_landing, king_capture, promotion, king_moves, repetition, one_king_each, king_vs_three, king_vs_two)",
                    other.chars().take(40).collect::<String>()
                )));
            }
        };
        rules
            .set_option(name, &text)
            .map_err(|e| bad(e.to_string()))?;
    }
    Ok(())
}

fn dame_history(game: &dame::Game) -> Vec<u64> {
    (0..game.ply())
        .filter_map(|i| game.position_at(i).map(|p| p.hash()))
        .collect()
}

fn game_error(e: muehle::GameError) -> ApiError {
    use muehle::{GameError, MoveError};
    match e {
        GameError::Move(MoveError::GameOver(t)) | GameError::Over(t) => {
            ApiError::GameOver(format!("the game is over: {t}"))
        }
        GameError::Move(m) => ApiError::IllegalMove(m.to_string()),
        GameError::NoDrawOffer(c) => {
            ApiError::NoDrawOffer(format!("{c} has no draw offer from the opponent to answer"))
        }
        GameError::NothingToUndo => ApiError::NotAllowed("there is no move to take back".into()),
    }
}

/// The rule options of the `options` object of a create request, applied to
/// `rules`.
fn apply_muehle_options(
    rules: &mut muehle::RuleSet,
    options: &Map<String, Value>,
) -> Result<(), ApiError> {
    let bad = |msg: String| ApiError::BadRequest(msg);
    for (key, value) in options {
        let text = match (key.as_str(), value) {
            ("removal", Value::String(s)) => s.clone(),
            ("removal", _) => {
                return Err(bad(
                    "option 'removal' is \"tournament\" or \"strict\"".into()
                ));
            }
            ("flying", Value::Bool(b)) => if *b { "on" } else { "off" }.to_string(),
            ("flying", _) => return Err(bad("option 'flying' is true or false".into())),
            ("no_mill" | "no-mill", Value::Null) => "off".to_string(),
            ("no_mill" | "no-mill", Value::Number(n)) => n.to_string(),
            ("no_mill" | "no-mill", _) => {
                return Err(bad("option 'no_mill' is a number of plies or null".into()));
            }
            ("repetition", Value::Null) => "off".to_string(),
            ("repetition", Value::Number(n)) => n.to_string(),
            ("repetition", _) => return Err(bad("option 'repetition' is a count or null".into())),
            (other, _) => {
                return Err(bad(format!(
                    "unknown rule option '{other}' (options: removal, flying, no_mill, repetition)"
                )));
            }
        };
        let key = if key == "no_mill" {
            "no-mill"
        } else {
            key.as_str()
        };
        rules
            .set_option(key, &text)
            .map_err(|e| bad(e.to_string()))?;
    }
    Ok(())
}

fn muehle_history(game: &muehle::Game) -> Vec<u64> {
    (0..game.ply())
        .filter_map(|i| game.position_at(i).map(|p| p.hash()))
        .collect()
}

fn score_json(s: search::Score) -> Value {
    match s {
        search::Score::Cp(v) => json!({"cp": v}),
        search::Score::Mate(n) => json!({"mate": n}),
    }
}

impl Board {
    /// A new game of `game` under `rules` (a preset, optionally with
    /// options in text form; `None`: the game's default preset) and
    /// `options`, from `position` or the start.
    pub fn create(
        game: GameType,
        rules: Option<&str>,
        options: Option<&Map<String, Value>>,
        position: Option<&str>,
    ) -> Result<Board, ApiError> {
        let rules = rules
            .map(str::trim)
            .filter(|r| !r.is_empty())
            .unwrap_or(game.default_rules());
        match game {
            GameType::Muehle => {
                let mut rs: muehle::RuleSet = rules
                    .parse()
                    .map_err(|e: muehle::ParseRulesError| ApiError::BadRequest(e.to_string()))?;
                if let Some(options) = options {
                    apply_muehle_options(&mut rs, options)?;
                }
                let start = match position {
                    None => muehle::Position::new(rs),
                    Some(p) => muehle::Position::from_fen(p, rs)
                        .map_err(|e| ApiError::BadRequest(format!("position: {e}")))?,
                };
                Ok(Board::Muehle(muehle::Game::from_position(start)))
            }
            GameType::Dame(preset) => {
                let mut rs: dame::RuleSet = rules
                    .parse()
                    .map_err(|e: dame::ParseRulesError| ApiError::BadRequest(e.to_string()))?;
                if let Some(options) = options {
                    apply_dame_options(&mut rs, options)?;
                }
                let size = dame::RuleSet::preset(preset).unwrap_or_default().board;
                if rs.board != size {
                    return Err(ApiError::BadRequest(format!(
                        "the rules '{rs}' are for another board than the game '{preset}' ({})",
                        match size {
                            dame::BoardSize::Eight => "8×8",
                            dame::BoardSize::Ten => "10×10",
                        }
                    )));
                }
                let start = match position {
                    None => dame::Position::new(rs),
                    Some(p) => dame::Position::from_fen(p, rs)
                        .map_err(|e| ApiError::BadRequest(format!("position: {e}")))?,
                };
                Ok(Board::Dame(dame::Game::from_position(start)))
            }
        }
    }

    /// A stored game, replayed move by move (every move is checked again).
    pub fn restore(
        game: &str,
        rules: &str,
        start: &str,
        moves: &[String],
        meta: &GameMeta,
    ) -> Result<Board, String> {
        let gt = GameType::parse(game).map_err(|e| e.to_string())?;
        let mut board =
            Board::create(gt, Some(rules), None, Some(start)).map_err(|e| e.to_string())?;
        for (i, mv) in moves.iter().enumerate() {
            match board.play(mv) {
                Ok(Some(_)) => {}
                Ok(None) => {
                    return Err(format!("stored move {} ('{mv}') is not a move", i + 1));
                }
                Err(e) => return Err(format!("stored move {} ('{mv}'): {e}", i + 1)),
            }
        }
        if let Some(sq) = meta.pending_huff.as_deref() {
            match board.play(&format!("H{sq}")) {
                Ok(None) => {}
                Ok(Some(_)) => return Err(format!("stored huff '{sq}' is not a huff")),
                Err(e) => return Err(format!("stored huff '{sq}': {e}")),
            }
        }
        if meta.status == "over" && board.ending().is_none() {
            match (meta.reason.as_deref(), meta.result.as_deref()) {
                (Some("agreement"), _) => {
                    let side = board.turn();
                    board.offer_draw(side).map_err(|e| e.to_string())?;
                    board.accept_draw(side.other()).map_err(|e| e.to_string())?;
                }
                (Some("resignation"), Some("1-0")) => {
                    board.resign(Color::Black).map_err(|e| e.to_string())?
                }
                (Some("resignation"), Some("0-1")) => {
                    board.resign(Color::White).map_err(|e| e.to_string())?
                }
                (reason, result) => {
                    return Err(format!(
                        "stored outcome {result:?} by {reason:?} does not follow from the moves"
                    ));
                }
            }
        }
        if board.ending().is_none()
            && let Some(side) = meta.draw_offer.as_deref().and_then(color_from_api)
        {
            board.offer_draw(side).map_err(|e| e.to_string())?;
        }
        Ok(board)
    }

    /// Read a game record (its header tags are kept). `game`: the game the
    /// record is of; `None`: told by the record — a PDN `GameType` tag or a
    /// Dame `Rules` tag make it Dame, otherwise Mühle.
    pub fn from_record(game: Option<GameType>, text: &str) -> Result<Board, ApiError> {
        let game = match game {
            Some(g) => g,
            None => detect_record_game(text),
        };
        match game {
            GameType::Muehle => muehle::Game::from_record(text)
                .map(Board::Muehle)
                .map_err(|e| ApiError::BadRequest(format!("the record: {e}"))),
            GameType::Dame(_) => dame::Game::from_record(text)
                .map(Board::Dame)
                .map_err(|e| ApiError::BadRequest(format!("the record: {e}"))),
        }
    }

    pub fn game_type(&self) -> GameType {
        match self {
            Board::Muehle(_) => GameType::Muehle,
            Board::Dame(g) => {
                let text = g.rules().to_string();
                let base = text.split(',').next().unwrap_or("dame");
                GameType::Dame(
                    dame::PRESETS
                        .iter()
                        .copied()
                        .find(|p| *p == base)
                        .unwrap_or("dame"),
                )
            }
        }
    }

    /// The rule set in text form (`standard`, `standard,flying=off`,
    /// `dame,huffing=on`).
    pub fn rules_text(&self) -> String {
        match self {
            Board::Muehle(g) => g.rules().to_string(),
            Board::Dame(g) => g.rules().to_string(),
        }
    }

    /// The rule options one by one, as JSON.
    pub fn rule_options(&self) -> Value {
        match self {
            Board::Muehle(g) => {
                let r = g.rules();
                json!({
                    "removal": match r.removal {
                        muehle::RemovalRule::UnlessAllInMills => "tournament",
                        muehle::RemovalRule::Never => "strict",
                    },
                    "flying": r.flying,
                    "no_mill": r.no_mill_draw,
                    "repetition": r.repetition_draw,
                })
            }
            Board::Dame(g) => {
                let r = g.rules();
                json!({
                    "board": match r.board {
                        dame::BoardSize::Eight => 8,
                        dame::BoardSize::Ten => 10,
                    },
                    "men_capture_backward": r.men_capture_backward,
                    "majority": r.majority_capture,
                    "king_landing": match r.king_landing {
                        dame::KingLanding::DirectlyBehind => "behind",
                        dame::KingLanding::AnywhereBehind => "anywhere",
                    },
                    "king_capture": match r.king_capture {
                        dame::KingCapture::Long => "long",
                        dame::KingCapture::Short => "short",
                    },
                    "promotion": match r.promotion {
                        dame::Promotion::Immediate => "immediate",
                        dame::Promotion::EndOfMove => "end-of-move",
                    },
                    "huffing": r.huffing,
                    "king_moves": r.king_move_draw,
                    "repetition": r.repetition_draw,
                    "one_king_each": r.one_king_each_draw,
                    "king_vs_three": r.king_vs_three_draw,
                    "king_vs_two": r.king_vs_two_draw,
                })
            }
        }
    }

    pub fn start_position(&self) -> String {
        match self {
            Board::Muehle(g) => g.start().fen(),
            Board::Dame(g) => g.start().fen(),
        }
    }

    pub fn position(&self) -> String {
        match self {
            Board::Muehle(g) => g.position().fen(),
            Board::Dame(g) => g.position().fen(),
        }
    }

    /// The moves in the game's notation (Dame: without huffs).
    pub fn moves(&self) -> Vec<String> {
        match self {
            Board::Muehle(g) => g.moves().iter().map(|m| m.to_string()).collect(),
            Board::Dame(g) => g.moves().iter().map(|m| m.to_string()).collect(),
        }
    }

    /// The moves as stored: Dame moves preceded by a huff carry it
    /// (`He5 f6xd4`); [`Board::play`] reads them back.
    pub fn stored_moves(&self) -> Vec<String> {
        match self {
            Board::Muehle(_) => self.moves(),
            Board::Dame(g) => g
                .moves()
                .iter()
                .zip(g.huffs())
                .map(|(m, h)| match h {
                    Some(sq) => format!("H{sq} {m}"),
                    None => m.to_string(),
                })
                .collect(),
        }
    }

    /// The piece huffed this turn before the move not yet made (Dame).
    pub fn pending_huff(&self) -> Option<String> {
        match self {
            Board::Muehle(_) => None,
            Board::Dame(g) => g.pending_huff().map(|sq| sq.to_string()),
        }
    }

    pub fn last_move(&self) -> Option<String> {
        match self {
            Board::Muehle(g) => g.moves().last().map(|m| m.to_string()),
            Board::Dame(g) => g.moves().last().map(|m| m.to_string()),
        }
    }

    pub fn ply(&self) -> usize {
        match self {
            Board::Muehle(g) => g.ply(),
            Board::Dame(g) => g.ply(),
        }
    }

    /// The side to move now.
    pub fn turn(&self) -> Color {
        match self {
            Board::Muehle(g) => g.position().turn(),
            Board::Dame(g) => g.position().turn(),
        }
    }

    /// The side that played the move before `ply` (0-based).
    pub fn mover_of(&self, ply: usize) -> Option<Color> {
        match self {
            Board::Muehle(g) => g.position_at(ply).map(|p| p.turn()),
            Board::Dame(g) => g.position_at(ply).map(|p| p.turn()),
        }
    }

    pub fn ending(&self) -> Option<Ending> {
        match self {
            Board::Muehle(g) => g.outcome().map(|o| Ending {
                winner: o.winner,
                reason: o.reason.code(),
                text: o.describe(),
            }),
            Board::Dame(g) => g.outcome().map(|o| Ending {
                winner: o.winner,
                reason: o.reason.code(),
                text: o.describe(),
            }),
        }
    }

    pub fn draw_offer(&self) -> Option<Color> {
        match self {
            Board::Muehle(g) => g.draw_offer(),
            Board::Dame(g) => g.draw_offer(),
        }
    }

    /// Play a move given in the game's notation (Mühle: a removal may come
    /// as its own token, `d6 xb4`; Dame: a huff may come first, `He5 g3-h4`,
    /// or alone, `He5`). Returns the move as stored (see
    /// [`Board::stored_moves`]), or `None` when only a piece was huffed (the
    /// same player is still to move). Nothing changes on an error.
    pub fn play(&mut self, text: &str) -> Result<Option<String>, ApiError> {
        match self {
            Board::Muehle(g) => {
                let joined = muehle::join_removal_tokens(text.split_whitespace());
                let [one] = joined.as_slice() else {
                    return Err(ApiError::IllegalMove(if joined.is_empty() {
                        "empty move".to_string()
                    } else {
                        format!("'{text}' is more than one move: send one move at a time")
                    }));
                };
                g.play_str(one)
                    .map(|m| Some(m.to_string()))
                    .map_err(game_error)
            }
            Board::Dame(g) => {
                let size = g.position().size();
                let tokens: Vec<&str> = text.split_whitespace().collect();
                let (huff, moves) = match tokens.as_slice() {
                    [] => return Err(ApiError::IllegalMove("empty move".to_string())),
                    [first, rest @ ..] => match dame::parse_huff_token(first, size) {
                        Some(sq) => (Some(sq), rest),
                        None => (None, &tokens[..]),
                    },
                };
                if moves.len() > 1 {
                    return Err(ApiError::IllegalMove(format!(
                        "'{text}' is more than one move: send one move at a time (a huff, 'H' and the square, may come first)"
                    )));
                }
                let mut next = g.clone();
                if let Some(sq) = huff {
                    next.huff(sq).map_err(dame_error)?;
                }
                let Some(mv) = moves.first() else {
                    *g = next;
                    return Ok(None);
                };
                next.play_str(mv).map_err(dame_error)?;
                *g = next;
                Ok(self.stored_moves().pop())
            }
        }
    }

    /// Huff (Dame) the opponent's piece on `square` before moving.
    pub fn huff(&mut self, square: &str) -> Result<(), ApiError> {
        match self {
            Board::Muehle(_) => Err(ApiError::NotAllowed(
                "huffing is a Dame rule; Mühle has no huffing".into(),
            )),
            Board::Dame(g) => {
                let mut next = g.clone();
                next.huff_str(square).map_err(dame_error)?;
                *g = next;
                Ok(())
            }
        }
    }

    /// Take back the moves from `ply` on (and a huff made before the first
    /// of them).
    pub fn undo_to(&mut self, ply: usize) {
        match self {
            Board::Muehle(g) => {
                while g.ply() > ply {
                    if g.undo().is_err() {
                        break;
                    }
                }
            }
            Board::Dame(g) => {
                while g.ply() > ply {
                    if g.undo().is_err() {
                        break;
                    }
                }
                if g.pending_huff().is_some() {
                    let _ = g.undo();
                }
            }
        }
    }

    /// `side` offers a draw; returns whether the game is drawn now (the
    /// opponent's offer stood).
    pub fn offer_draw(&mut self, side: Color) -> Result<bool, ApiError> {
        match self {
            Board::Muehle(g) => g.offer_draw(side).map_err(game_error),
            Board::Dame(g) => g.offer_draw(side).map_err(dame_error),
        }
    }

    pub fn accept_draw(&mut self, side: Color) -> Result<(), ApiError> {
        match self {
            Board::Muehle(g) => g.accept_draw(side).map_err(game_error),
            Board::Dame(g) => g.accept_draw(side).map_err(dame_error),
        }
    }

    pub fn decline_draw(&mut self, side: Color) -> Result<(), ApiError> {
        match self {
            Board::Muehle(g) => g.decline_draw(side).map_err(game_error),
            Board::Dame(g) => g.decline_draw(side).map_err(dame_error),
        }
    }

    pub fn resign(&mut self, side: Color) -> Result<(), ApiError> {
        match self {
            Board::Muehle(g) => g.resign(side).map_err(game_error),
            Board::Dame(g) => g.resign(side).map_err(dame_error),
        }
    }

    /// The game-specific fields of the state (docs/API.md): Mühle
    /// `legal_moves`, `in_hand`, `on_board`, `removed`, `phase`; Dame
    /// `legal_moves`, `board_size`, `huffs`, `pending_huff`, `huffable`,
    /// `pieces`, `captured`.
    pub fn fill_state(&self, state: &mut Map<String, Value>) {
        match self {
            Board::Muehle(g) => {
                let pos = g.position();
                let legal: Vec<String> = g.legal_moves().iter().map(|m| m.to_string()).collect();
                let per_side = |f: &dyn Fn(muehle::Color) -> Value| json!({"white": f(muehle::Color::White), "black": f(muehle::Color::Black)});
                state.insert("legal_moves".into(), json!(legal));
                state.insert("in_hand".into(), per_side(&|c| json!(pos.in_hand(c))));
                state.insert(
                    "on_board".into(),
                    per_side(&|c| json!(pos.stones(c).count())),
                );
                state.insert(
                    "removed".into(),
                    per_side(&|c| {
                        let left = u32::from(pos.in_hand(c)) + pos.stones(c).count();
                        json!(u32::from(muehle::STONES_PER_SIDE).saturating_sub(left))
                    }),
                );
                state.insert("phase".into(), per_side(&|c| json!(pos.phase(c).name())));
            }
            Board::Dame(g) => {
                let pos = g.position();
                let start = g.start();
                let size = pos.size();
                let legal: Vec<String> = if g.is_over() {
                    Vec::new()
                } else {
                    g.legal_moves().iter().map(|m| m.to_string()).collect()
                };
                let per_side = |f: &dyn Fn(dame::Color) -> Value| json!({"white": f(dame::Color::White), "black": f(dame::Color::Black)});
                state.insert("legal_moves".into(), json!(legal));
                state.insert(
                    "board_size".into(),
                    json!(match size {
                        dame::BoardSize::Eight => 8,
                        dame::BoardSize::Ten => 10,
                    }),
                );
                let huffs: Vec<Option<String>> = g
                    .huffs()
                    .iter()
                    .map(|h| h.map(|sq| sq.to_string()))
                    .collect();
                state.insert("huffs".into(), json!(huffs));
                state.insert("pending_huff".into(), json!(self.pending_huff()));
                let huffable: Vec<String> = g
                    .huffable()
                    .squares(size)
                    .map(|sq| sq.to_string())
                    .collect();
                state.insert("huffable".into(), json!(huffable));
                state.insert(
                    "pieces".into(),
                    per_side(
                        &|c| json!({"men": pos.men(c).count(), "kings": pos.kings(c).count()}),
                    ),
                );
                state.insert(
                    "captured".into(),
                    per_side(&|c| {
                        json!(
                            start
                                .pieces(c)
                                .count()
                                .saturating_sub(pos.pieces(c).count())
                        )
                    }),
                );
            }
        }
    }

    /// The game record with the given header tags (the board adds rules,
    /// start position, result and termination): Mühle's record format or
    /// PDN for Dame.
    pub fn record(&self, tags: &[(String, String)]) -> String {
        match self {
            Board::Muehle(g) => {
                let mut g = g.clone();
                for (k, v) in tags {
                    g.set_tag(k, v);
                }
                g.to_record()
            }
            Board::Dame(g) => {
                let mut g = g.clone();
                for (k, v) in tags {
                    g.set_tag(k, v);
                }
                g.to_record()
            }
        }
    }

    /// The header tags the record carried (for imports).
    pub fn tags(&self) -> Vec<(String, String)> {
        match self {
            Board::Muehle(g) => g.tags().to_vec(),
            Board::Dame(g) => g.tags().to_vec(),
        }
    }

    /// The computer's move at `level` (1–10) within `movetime`, in the form
    /// [`Board::play`] takes (Dame: with the huff first when the opponent
    /// skipped a capture); `None` when the game is over or the search was
    /// stopped before it found one. Blocking: call it on a blocking thread.
    pub fn choose_move(
        &self,
        level: u8,
        seed: u64,
        movetime: Duration,
        stop: &AtomicBool,
    ) -> Option<String> {
        match self {
            Board::Muehle(g) => {
                if g.is_over() {
                    return None;
                }
                level_move(
                    &engine::MuehleState::new(*g.position()),
                    &muehle_history(g),
                    level,
                    seed,
                    movetime,
                    stop,
                )
            }
            Board::Dame(g) => {
                if g.is_over() {
                    return None;
                }
                let mut g = g.clone();
                let huff = engine::dame::best_huff(&g);
                if let Some(sq) = huff {
                    g.huff(sq).ok()?;
                    if g.is_over() {
                        // The huff took the opponent's last piece (or left
                        // them without a move): nothing is left to play.
                        return Some(format!("H{sq}"));
                    }
                }
                let mv = level_move(
                    &engine::DameState::new(*g.position()),
                    &dame_history(&g),
                    level,
                    seed,
                    movetime,
                    stop,
                )?;
                Some(match huff {
                    Some(sq) => format!("H{sq} {mv}"),
                    None => mv,
                })
            }
        }
    }

    /// The engine's best `lines` moves within `time`, with reasons.
    /// Blocking: call it on a blocking thread.
    pub fn analyze(&self, time: Duration, lines: usize, stop: &AtomicBool) -> Analysis {
        match self {
            Board::Muehle(g) if !g.is_over() => {
                let pos = *g.position();
                analyze_root(
                    &engine::MuehleState::new(pos),
                    &muehle_history(g),
                    time,
                    lines,
                    stop,
                    |pv, score| {
                        pv.first()
                            .map(|mv| engine::muehle::explain::reasons(&pos, *mv, Some(score)))
                            .unwrap_or_default()
                    },
                )
            }
            Board::Dame(g) if !g.is_over() => {
                let pos = *g.position();
                analyze_root(
                    &engine::DameState::new(pos),
                    &dame_history(g),
                    time,
                    lines,
                    stop,
                    |pv, score| engine::dame::explain::reasons(&pos, pv, Some(score)),
                )
            }
            _ => Analysis {
                depth: 0,
                nodes: 0,
                time_ms: 0,
                lines: Vec::new(),
            },
        }
    }
}

/// Search `root` for its best `lines` moves and explain each with `why`
/// (given the line and its score).
fn analyze_root<G: search::Game>(
    root: &G,
    history: &[u64],
    time: Duration,
    lines: usize,
    stop: &AtomicBool,
    why: impl Fn(&[G::Move], search::Score) -> Vec<engine::explain::Reason>,
) -> Analysis {
    let engine = search::Engine::new(32, 1);
    let result = engine.search(
        root,
        history,
        search::Limits::movetime(time),
        lines.max(1),
        stop,
        &mut |_| {},
    );
    let lines = result
        .lines
        .iter()
        .filter_map(|(score, pv)| {
            let mv = pv.first()?;
            let reasons = why(pv, *score);
            Some(AnalysisLine {
                mv: mv.to_string(),
                score: score_json(*score),
                score_text: score.to_string(),
                pv: pv.iter().map(|m| m.to_string()).collect(),
                why: reasons.iter().map(|r| r.text.clone()).collect(),
                reasons,
            })
        })
        .collect();
    Analysis {
        depth: result.depth,
        nodes: result.nodes,
        time_ms: result.time.as_millis() as u64,
        lines,
    }
}

/// The move the computer at `level` plays from `root` within `movetime`.
fn level_move<G: search::Game>(
    root: &G,
    history: &[u64],
    level: u8,
    seed: u64,
    movetime: Duration,
    stop: &AtomicBool,
) -> Option<String> {
    let engine = search::Engine::new(8, 1);
    engine::LevelPlayer::new(level, seed)
        .choose(
            &engine,
            root,
            history,
            search::Limits::movetime(movetime),
            stop,
            &mut |_| {},
        )
        .map(|c| c.mv.to_string())
}

/// Which game a record is of, when the request does not say: a PDN
/// `GameType` tag, or a `Rules` tag that names Dame rules, make it Dame
/// (its preset told by the rules); otherwise Mühle.
fn detect_record_game(text: &str) -> GameType {
    let tag = |name: &str| {
        text.lines().find_map(|l| {
            let l = l.trim();
            let rest = l.strip_prefix('[')?.strip_prefix(name)?;
            let v = rest.trim().strip_suffix(']')?.trim();
            Some(v.trim_matches('"').to_string())
        })
    };
    if let Some(rules) = tag("Rules")
        && let Ok(rs) = rules.parse::<dame::RuleSet>()
        && rules.parse::<muehle::RuleSet>().is_err()
    {
        let board = Board::Dame(dame::Game::new(rs));
        return board.game_type();
    }
    if tag("GameType").is_some() {
        return GameType::Dame("dame");
    }
    GameType::Muehle
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_apply() {
        let opts: Map<String, Value> =
            serde_json::from_str(r#"{"flying": false, "no_mill": 40, "repetition": null}"#)
                .unwrap();
        let b = Board::create(GameType::Muehle, Some("standard"), Some(&opts), None).unwrap();
        assert_eq!(b.rules_text(), "no-flying,no-mill=40,repetition=off");
        let bad: Map<String, Value> = serde_json::from_str(r#"{"flying": "yes"}"#).unwrap();
        assert!(Board::create(GameType::Muehle, Some("standard"), Some(&bad), None).is_err());
        let unknown: Map<String, Value> = serde_json::from_str(r#"{"speed": 1}"#).unwrap();
        assert!(Board::create(GameType::Muehle, Some("standard"), Some(&unknown), None).is_err());
        assert!(Board::create(GameType::Muehle, Some("nonsense"), None, None).is_err());
    }

    #[test]
    fn removal_as_its_own_token() {
        let mut b = Board::create(GameType::Muehle, Some("standard"), None, None).unwrap();
        for m in ["a7", "b6", "d7", "d6"] {
            b.play(m).unwrap();
        }
        assert_eq!(b.play("g7 xb6").unwrap().as_deref(), Some("g7xb6"));
        assert!(b.play("a1 a4").is_err());
    }

    #[test]
    fn restore_declared_outcomes() {
        let meta =
            |status: &str, result: Option<&str>, reason: Option<&str>, offer: Option<&str>| {
                GameMeta {
                    status: status.into(),
                    result: result.map(Into::into),
                    reason: reason.map(Into::into),
                    draw_offer: offer.map(Into::into),
                    pending_huff: None,
                    updated_at: String::new(),
                }
            };
        let start = muehle::Position::new(muehle::RuleSet::STANDARD).fen();
        let moves = vec!["d6".to_string()];
        let b = Board::restore(
            "muehle",
            "standard",
            &start,
            &moves,
            &meta("over", Some("0-1"), Some("resignation"), None),
        )
        .unwrap();
        assert_eq!(b.ending().unwrap().result(), "0-1");
        let b = Board::restore(
            "muehle",
            "standard",
            &start,
            &moves,
            &meta("over", Some("1/2-1/2"), Some("agreement"), None),
        )
        .unwrap();
        assert_eq!(b.ending().unwrap().reason, "agreement");
        let b = Board::restore(
            "muehle",
            "standard",
            &start,
            &moves,
            &meta("ongoing", None, None, Some("white")),
        )
        .unwrap();
        assert_eq!(b.draw_offer(), Some(Color::White));
        assert!(
            Board::restore(
                "muehle",
                "standard",
                &start,
                &["d6".into(), "d6".into()],
                &meta("ongoing", None, None, None)
            )
            .is_err()
        );
    }
}
