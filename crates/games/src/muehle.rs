//! Mühle in the server: its rules and options, how a move request reads,
//! its fields of the state, the engine.

use muehle::{Game, MoveError, Position, RuleSet};
use serde::Serialize;
use serde_json::{Map, Value};

use super::{
    Explained, GameDetails, GameError, PerSide, RuleOptions, ServerGame, SessionInfo, Variant,
    session_actions,
};

/// Mühle's rule options (the state's `rule_options`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MuehleOptions {
    /// `tournament` or `strict`.
    pub removal: &'static str,
    /// Whether a player with three stones flies.
    pub flying: bool,
    /// Plies without a mill that draw, if the rule is on.
    pub no_mill: Option<u16>,
    /// The occurrence of a position that draws, if the rule is on.
    pub repetition: Option<u8>,
    /// The board (`twelve`, `lasker`; its geometry is in the catalogue's
    /// `boards`); left out for the standard board (`nine`), so that the
    /// state of a standard game stays as it always was.
    #[serde(skip_serializing_if = "is_nine")]
    pub board: &'static str,
    /// Stones each side brings; left out when nine.
    #[serde(skip_serializing_if = "is_nine_stones")]
    pub stones: u8,
    /// Whether a player with stones in hand may move instead of placing;
    /// left out when not.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub move_in_placing: bool,
}

fn is_nine(board: &&str) -> bool {
    *board == muehle::Board::NINE.name()
}

fn is_nine_stones(stones: &u8) -> bool {
    *stones == muehle::Board::NINE.stones()
}

/// The boards of the mill games for the catalogue (`GET /api/catalogue`):
/// by name, the points with their place on a 7×7 grid (x from the left, y
/// from the top), the lines that make mills, the stones per side and when a
/// side flies.
pub(crate) fn boards_json() -> Value {
    let boards = muehle::Board::ALL.map(|b| {
        let points: Vec<Value> = b
            .points()
            .iter()
            .map(|p| serde_json::json!({"name": p.name(), "x": p.file(), "y": 6 - p.rank()}))
            .collect();
        let lines: Vec<[&str; 3]> = b
            .lines()
            .iter()
            .map(|l| [l[0].name(), l[1].name(), l[2].name()])
            .collect();
        let board = serde_json::json!({
            "points": points,
            "lines": lines,
            "stones": b.stones(),
            "fly_at": b.fly_at(),
        });
        (b.name().to_string(), board)
    });
    Value::Object(boards.into_iter().collect())
}

/// The board a Mühle preset plays on, by name.
pub(crate) fn preset_board(preset: &str) -> Option<&'static str> {
    RuleSet::preset(preset).map(|r| r.board.name())
}

/// Mühle's fields of the state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MuehleDetails {
    /// Every legal move (a mill move once per removable stone).
    pub legal_moves: Vec<String>,
    /// Stones in hand.
    pub in_hand: PerSide<u8>,
    /// Stones on the board.
    pub on_board: PerSide<u32>,
    /// Stones taken off the board.
    pub removed: PerSide<u32>,
    /// `placing`, `moving` or `flying`.
    pub phase: PerSide<&'static str>,
}

impl From<muehle::GameError> for GameError {
    fn from(e: muehle::GameError) -> GameError {
        use boardgame::GameError as E;
        match e {
            E::Move(MoveError::GameOver(t)) | E::Over(t) => GameError::GameOver(t),
            E::Move(m @ MoveError::Parse(_)) => GameError::BadMoveText(Explained::of(&m)),
            E::Move(m) => GameError::IllegalMove(Explained::of(&m)),
            E::NoDrawOffer(c) => GameError::NoDrawOffer(c),
            E::NothingToUndo => GameError::NothingToUndo,
        }
    }
}

/// A new game under `rules` (text form) with `options`, from `position`
/// or the start.
pub(super) fn create(
    rules: &str,
    options: Option<&Map<String, Value>>,
    position: Option<&str>,
) -> Result<Game, GameError> {
    let rs: RuleSet = super::rules_with_options(rules, options, option_text)?;
    let start = super::start_at(position, rs, Position::new, Position::from_fen)?;
    Ok(Game::from_position(start))
}

/// One rule option of the `options` object of a create request in the
/// rules' text form (`key`, `value`).
fn option_text(key: &str, value: &Value) -> Result<(String, String), GameError> {
    let bad = |msg: &str| GameError::BadRules(msg.to_string());
    {
        let text = match (key, value) {
            ("removal", Value::String(s)) => s.clone(),
            ("removal", _) => {
                return Err(bad("option 'removal' is \"tournament\" or \"strict\""));
            }
            ("flying", Value::Bool(b)) => if *b { "on" } else { "off" }.to_string(),
            ("flying", _) => return Err(bad("option 'flying' is true or false")),
            ("no_mill" | "no-mill", Value::Null) => "off".to_string(),
            ("no_mill" | "no-mill", Value::Number(n)) => n.to_string(),
            ("no_mill" | "no-mill", _) => {
                return Err(bad("option 'no_mill' is a number of plies or null"));
            }
            ("repetition", Value::Null) => "off".to_string(),
            ("repetition", Value::Number(n)) => n.to_string(),
            ("repetition", _) => return Err(bad("option 'repetition' is a count or null")),
            (other, _) => {
                return Err(GameError::BadRules(format!(
                    "unknown rule option '{other}' (options: removal, flying, no_mill, repetition)"
                )));
            }
        };
        let key = if key == "no_mill" { "no-mill" } else { key };
        Ok((key.to_string(), text))
    }
}

impl ServerGame for Game {
    fn session(&self) -> &dyn SessionInfo {
        Game::session(self)
    }

    fn game_type(&self) -> Variant {
        Variant::Muehle
    }

    fn rules_text(&self) -> String {
        self.rules().to_string()
    }

    fn rule_options(&self) -> RuleOptions {
        let r = self.rules();
        RuleOptions::Muehle(MuehleOptions {
            removal: match r.removal {
                muehle::RemovalRule::UnlessAllInMills => "tournament",
                muehle::RemovalRule::Never => "strict",
            },
            flying: r.flying,
            no_mill: r.no_mill_draw,
            repetition: r.repetition_draw,
            board: r.board.name(),
            stones: r.stones(),
            move_in_placing: r.move_in_placing,
        })
    }

    fn position(&self) -> String {
        Game::position(self).fen()
    }

    fn details(&self) -> GameDetails {
        let pos = Game::position(self);
        GameDetails::Muehle(MuehleDetails {
            legal_moves: self.legal_moves().iter().map(|m| m.to_string()).collect(),
            in_hand: PerSide::new(|c| pos.in_hand(c)),
            on_board: PerSide::new(|c| pos.stones(c).count()),
            removed: PerSide::new(|c| {
                let left = u32::from(pos.in_hand(c)) + pos.stones(c).count();
                u32::from(pos.rules().stones()).saturating_sub(left)
            }),
            phase: PerSide::new(|c| pos.phase(c).name()),
        })
    }

    fn play(&mut self, text: &str) -> Result<Option<String>, GameError> {
        let joined = muehle::join_removal_tokens(text.split_whitespace());
        match joined.as_slice() {
            [] => Err(GameError::EmptyMove),
            [one] => Ok(Some(self.play_str(one)?.to_string())),
            _ => Err(GameError::SeveralMoves {
                text: text.to_string(),
                huff_first: false,
            }),
        }
    }

    session_actions!(Game);
}
