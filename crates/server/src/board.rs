//! The games the server knows, behind one adapter: [`GameType`] names a
//! game, [`Board`] is a game in progress with its rules. Mühle is the only
//! game today; Dame becomes another variant of both enums.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::error::ApiError;
use crate::storage::GameMeta;

/// A side of the board. White moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    White,
    Black,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::White, Side::Black];

    pub fn index(self) -> usize {
        match self {
            Side::White => 0,
            Side::Black => 1,
        }
    }

    pub fn other(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Side::White => "white",
            Side::Black => "black",
        }
    }

    pub fn from_name(s: &str) -> Option<Side> {
        match s {
            "white" => Some(Side::White),
            "black" => Some(Side::Black),
            _ => None,
        }
    }

    fn from_muehle(c: muehle::Color) -> Side {
        match c {
            muehle::Color::White => Side::White,
            muehle::Color::Black => Side::Black,
        }
    }

    fn to_muehle(self) -> muehle::Color {
        match self {
            Side::White => muehle::Color::White,
            Side::Black => muehle::Color::Black,
        }
    }
}

/// Which game is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameType {
    Muehle,
}

impl GameType {
    /// The game's name in the API (`muehle`).
    pub fn name(self) -> &'static str {
        match self {
            GameType::Muehle => "muehle",
        }
    }

    /// Parse the API's `game` field.
    pub fn parse(s: &str) -> Result<GameType, ApiError> {
        match s {
            "muehle" => Ok(GameType::Muehle),
            "dame" | "dame-100" | "dame-fr" | "international" => Err(ApiError::BadRequest(
                format!("the game '{s}' is not available yet (available: muehle)"),
            )),
            other => Err(ApiError::BadRequest(format!(
                "unknown game '{other}' (available: muehle)"
            ))),
        }
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    pub winner: Option<Side>,
    /// `two-stones`, `blocked`, `repetition`, `no-mill`, `agreement`, `resignation`.
    pub reason: &'static str,
    /// The ending in English words.
    pub text: String,
}

impl Ending {
    pub fn result(&self) -> &'static str {
        match self.winner {
            Some(Side::White) => "1-0",
            Some(Side::Black) => "0-1",
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
    pub why: Vec<String>,
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
    /// options in text form) and `options`, from `position` or the start.
    pub fn create(
        game: GameType,
        rules: &str,
        options: Option<&Map<String, Value>>,
        position: Option<&str>,
    ) -> Result<Board, ApiError> {
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
        let mut board = Board::create(gt, rules, None, Some(start)).map_err(|e| e.to_string())?;
        for (i, mv) in moves.iter().enumerate() {
            board
                .play(mv)
                .map_err(|e| format!("stored move {} ('{mv}'): {e}", i + 1))?;
        }
        if meta.status == "over" && board.ending().is_none() {
            match (meta.reason.as_deref(), meta.result.as_deref()) {
                (Some("agreement"), _) => {
                    let side = board.turn();
                    board.offer_draw(side).map_err(|e| e.to_string())?;
                    board.accept_draw(side.other()).map_err(|e| e.to_string())?;
                }
                (Some("resignation"), Some("1-0")) => {
                    board.resign(Side::Black).map_err(|e| e.to_string())?
                }
                (Some("resignation"), Some("0-1")) => {
                    board.resign(Side::White).map_err(|e| e.to_string())?
                }
                (reason, result) => {
                    return Err(format!(
                        "stored outcome {result:?} by {reason:?} does not follow from the moves"
                    ));
                }
            }
        }
        if board.ending().is_none()
            && let Some(side) = meta.draw_offer.as_deref().and_then(Side::from_name)
        {
            board.offer_draw(side).map_err(|e| e.to_string())?;
        }
        Ok(board)
    }

    /// Read a game record; also returns its header tags.
    pub fn from_record(game: GameType, text: &str) -> Result<Board, ApiError> {
        match game {
            GameType::Muehle => muehle::Game::from_record(text)
                .map(Board::Muehle)
                .map_err(|e| ApiError::BadRequest(format!("the record: {e}"))),
        }
    }

    pub fn game_type(&self) -> GameType {
        match self {
            Board::Muehle(_) => GameType::Muehle,
        }
    }

    /// The rule set in text form (`standard`, `standard,flying=off`).
    pub fn rules_text(&self) -> String {
        match self {
            Board::Muehle(g) => g.rules().to_string(),
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
        }
    }

    pub fn start_position(&self) -> String {
        match self {
            Board::Muehle(g) => g.start().fen(),
        }
    }

    pub fn position(&self) -> String {
        match self {
            Board::Muehle(g) => g.position().fen(),
        }
    }

    pub fn moves(&self) -> Vec<String> {
        match self {
            Board::Muehle(g) => g.moves().iter().map(|m| m.to_string()).collect(),
        }
    }

    pub fn last_move(&self) -> Option<String> {
        match self {
            Board::Muehle(g) => g.moves().last().map(|m| m.to_string()),
        }
    }

    pub fn ply(&self) -> usize {
        match self {
            Board::Muehle(g) => g.ply(),
        }
    }

    /// The side to move now.
    pub fn turn(&self) -> Side {
        match self {
            Board::Muehle(g) => Side::from_muehle(g.position().turn()),
        }
    }

    /// The side that played the move before `ply` (0-based).
    pub fn mover_of(&self, ply: usize) -> Option<Side> {
        match self {
            Board::Muehle(g) => g.position_at(ply).map(|p| Side::from_muehle(p.turn())),
        }
    }

    pub fn ending(&self) -> Option<Ending> {
        match self {
            Board::Muehle(g) => g.outcome().map(|o| Ending {
                winner: o.winner.map(Side::from_muehle),
                reason: o.reason.code(),
                text: o.describe(),
            }),
        }
    }

    pub fn draw_offer(&self) -> Option<Side> {
        match self {
            Board::Muehle(g) => g.draw_offer().map(Side::from_muehle),
        }
    }

    /// Play a move given in the game's notation (a removal may come as its
    /// own token: `d6 xb4`). Returns the move in canonical notation.
    pub fn play(&mut self, text: &str) -> Result<String, ApiError> {
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
                g.play_str(one).map(|m| m.to_string()).map_err(game_error)
            }
        }
    }

    /// Take back the moves from `ply` on.
    pub fn undo_to(&mut self, ply: usize) {
        match self {
            Board::Muehle(g) => {
                while g.ply() > ply {
                    if g.undo().is_err() {
                        break;
                    }
                }
            }
        }
    }

    /// `side` offers a draw; returns whether the game is drawn now (the
    /// opponent's offer stood).
    pub fn offer_draw(&mut self, side: Side) -> Result<bool, ApiError> {
        match self {
            Board::Muehle(g) => g.offer_draw(side.to_muehle()).map_err(game_error),
        }
    }

    pub fn accept_draw(&mut self, side: Side) -> Result<(), ApiError> {
        match self {
            Board::Muehle(g) => g.accept_draw(side.to_muehle()).map_err(game_error),
        }
    }

    pub fn decline_draw(&mut self, side: Side) -> Result<(), ApiError> {
        match self {
            Board::Muehle(g) => g.decline_draw(side.to_muehle()).map_err(game_error),
        }
    }

    pub fn resign(&mut self, side: Side) -> Result<(), ApiError> {
        match self {
            Board::Muehle(g) => g.resign(side.to_muehle()).map_err(game_error),
        }
    }

    /// The game-specific fields of the state: `legal_moves`, `in_hand`,
    /// `on_board`, `removed`, `phase`.
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
        }
    }

    /// The game record with the given header tags (the board adds rules,
    /// start position, result and termination).
    pub fn record(&self, tags: &[(String, String)]) -> String {
        match self {
            Board::Muehle(g) => {
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
        }
    }

    /// The computer's move at `level` (1–10) within `movetime`; `None` when
    /// the game is over or the search was stopped before it found one.
    /// Blocking: call it on a blocking thread.
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
                let engine = search::Engine::new(8, 1);
                let mut player = engine::LevelPlayer::new(level, seed);
                player
                    .choose(
                        &engine,
                        &engine::MuehleState(*g.position()),
                        &muehle_history(g),
                        search::Limits::movetime(movetime),
                        stop,
                        &mut |_| {},
                    )
                    .map(|c| c.mv.to_string())
            }
        }
    }

    /// The engine's best `lines` moves within `time`, with reasons.
    /// Blocking: call it on a blocking thread.
    pub fn analyze(&self, time: Duration, lines: usize, stop: &AtomicBool) -> Analysis {
        match self {
            Board::Muehle(g) => {
                if g.is_over() {
                    return Analysis {
                        depth: 0,
                        nodes: 0,
                        time_ms: 0,
                        lines: Vec::new(),
                    };
                }
                let pos = *g.position();
                let engine = search::Engine::new(32, 1);
                let result = engine.search(
                    &engine::MuehleState(pos),
                    &muehle_history(g),
                    search::Limits::movetime(time),
                    lines.max(1),
                    stop,
                    &mut |_| {},
                );
                let lines = result
                    .lines
                    .iter()
                    .filter_map(|(score, pv)| {
                        let mv = *pv.first()?;
                        Some(AnalysisLine {
                            mv: mv.to_string(),
                            score: score_json(*score),
                            score_text: score.to_string(),
                            pv: pv.iter().map(|m| m.to_string()).collect(),
                            why: engine::explain::explain_move(&pos, mv, Some(*score)),
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
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_apply() {
        let opts: Map<String, Value> =
            serde_json::from_str(r#"{"flying": false, "no_mill": 40, "repetition": null}"#)
                .unwrap();
        let b = Board::create(GameType::Muehle, "standard", Some(&opts), None).unwrap();
        assert_eq!(b.rules_text(), "no-flying,no-mill=40,repetition=off");
        let bad: Map<String, Value> = serde_json::from_str(r#"{"flying": "yes"}"#).unwrap();
        assert!(Board::create(GameType::Muehle, "standard", Some(&bad), None).is_err());
        let unknown: Map<String, Value> = serde_json::from_str(r#"{"speed": 1}"#).unwrap();
        assert!(Board::create(GameType::Muehle, "standard", Some(&unknown), None).is_err());
        assert!(Board::create(GameType::Muehle, "nonsense", None, None).is_err());
    }

    #[test]
    fn removal_as_its_own_token() {
        let mut b = Board::create(GameType::Muehle, "standard", None, None).unwrap();
        for m in ["a7", "b6", "d7", "d6"] {
            b.play(m).unwrap();
        }
        assert_eq!(b.play("g7 xb6").unwrap(), "g7xb6");
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
        assert_eq!(b.draw_offer(), Some(Side::White));
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
