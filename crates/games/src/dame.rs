//! Dame in the server: its rules and options, how a move request reads
//! (a huff may come first), its fields of the state, the engine.

use dame::{BoardSize, Game, MoveError, Position, RuleSet};
use serde::Serialize;
use serde_json::{Map, Value};

use super::{
    Explained, GameDetails, GameError, PerSide, RuleOptions, ServerGame, SessionInfo, Variant,
    session_actions,
};

/// Dame's rule options (the state's `rule_options`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DameOptions {
    /// 8 or 10.
    pub board: u8,
    /// Whether men capture backward.
    pub men_capture_backward: bool,
    /// Whether the capture of the most pieces is compulsory.
    pub majority: bool,
    /// `behind` or `anywhere`.
    pub king_landing: &'static str,
    /// `long` or `short`.
    pub king_capture: &'static str,
    /// `immediate` or `end-of-move`.
    pub promotion: &'static str,
    /// Whether huffing is on.
    pub huffing: bool,
    /// Plies of king moves without capture that draw, if the rule is on.
    pub king_moves: Option<u16>,
    /// The occurrence of a position that draws, if the rule is on.
    pub repetition: Option<u8>,
    /// Whether one king each is a draw.
    pub one_king_each: bool,
    /// The king-against-three limit in plies, if on.
    pub king_vs_three: Option<u16>,
    /// The king-against-two limit in plies, if on.
    pub king_vs_two: Option<u16>,
}

/// Men and kings of one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Pieces {
    /// Men on the board.
    pub men: u32,
    /// Kings on the board.
    pub kings: u32,
}

/// Dame's fields of the state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DameDetails {
    /// Every legal move, once with one path (empty when the game is over).
    pub legal_moves: Vec<String>,
    /// 8 or 10.
    pub board_size: u8,
    /// For each move, the piece huffed before it.
    pub huffs: Vec<Option<String>>,
    /// A piece huffed this turn, before the move not yet made.
    pub pending_huff: Option<String>,
    /// The opponent pieces the player to move may huff now.
    pub huffable: Vec<String>,
    /// Men and kings on the board.
    pub pieces: PerSide<Pieces>,
    /// Pieces of that colour taken off so far.
    pub captured: PerSide<u32>,
}

impl From<dame::GameError> for GameError {
    fn from(e: dame::GameError) -> GameError {
        use dame::GameError as E;
        match e {
            E::Move(MoveError::GameOver(t)) | E::Over(t) => GameError::GameOver(t),
            E::Move(m @ MoveError::Parse(_)) => GameError::BadMoveText(Explained::of(&m)),
            E::Move(m) => GameError::IllegalMove(Explained::of(&m)),
            e @ E::HuffNotAllowed { .. } => GameError::IllegalMove(Explained::of(&e)),
            E::NoDrawOffer(c) => GameError::NoDrawOffer(c),
            E::NothingToUndo => GameError::NothingToUndo,
        }
    }
}

/// The game type of a Dame game under `rules`: the preset its text starts
/// with.
pub(super) fn game_type(rules: &RuleSet) -> Variant {
    let text = rules.to_string();
    let base = text.split(',').next().unwrap_or("dame");
    Variant::of_dame_preset(base).unwrap_or(Variant::Dame)
}

/// A new game of the Dame game `preset` under `rules` (text form) with
/// `options`, from `position` (a FEN) or the start.
pub(super) fn create(
    preset: &str,
    rules: &str,
    options: Option<&Map<String, Value>>,
    position: Option<&str>,
) -> Result<Game, GameError> {
    let rs: RuleSet = super::rules_with_options(rules, options, option_text)?;
    let size = RuleSet::preset(preset).unwrap_or_default().board;
    if rs.board != size {
        return Err(GameError::BadRules(format!(
            "the rules '{rs}' are for another board than the game '{preset}' ({})",
            match size {
                BoardSize::Eight => "8×8",
                BoardSize::Ten => "10×10",
            }
        )));
    }
    let start = super::start_at(position, rs, Position::new, Position::from_fen)?;
    Ok(Game::from_position(start))
}

/// One rule option of the `options` object of a create request for Dame
/// in the rules' text form (`key`, `value`).
fn option_text(key: &str, value: &Value) -> Result<(String, String), GameError> {
    let bad = |msg: &str| GameError::BadRules(msg.to_string());
    let on_off = |b: bool| if b { "on" } else { "off" }.to_string();
    {
        let (name, text) = match (key, value) {
            ("huffing", Value::Bool(b)) => ("huffing", on_off(*b)),
            ("men_capture_backward" | "men-capture-backward", Value::Bool(b)) => {
                ("men-capture-backward", on_off(*b))
            }
            ("majority", Value::Bool(b)) => ("majority", on_off(*b)),
            ("huffing" | "men_capture_backward" | "men-capture-backward" | "majority", _) => {
                return Err(GameError::BadRules(format!(
                    "option '{key}' is true or false"
                )));
            }
            ("king_landing" | "king-landing", Value::String(v))
                if v == "behind" || v == "anywhere" =>
            {
                ("king-landing", v.clone())
            }
            ("king_landing" | "king-landing", _) => {
                return Err(bad("option 'king_landing' is \"behind\" or \"anywhere\""));
            }
            ("king_capture" | "king-capture", Value::String(v)) if v == "long" || v == "short" => {
                ("king-capture", v.clone())
            }
            ("king_capture" | "king-capture", _) => {
                return Err(bad("option 'king_capture' is \"long\" or \"short\""));
            }
            ("promotion", Value::String(v)) if v == "immediate" || v == "end-of-move" => {
                ("promotion", v.clone())
            }
            ("promotion", _) => {
                return Err(bad(
                    "option 'promotion' is \"immediate\" or \"end-of-move\"",
                ));
            }
            ("king_moves" | "king-moves", Value::Null) => ("king-moves", "off".to_string()),
            ("king_moves" | "king-moves", Value::Number(n)) => ("king-moves", n.to_string()),
            ("king_moves" | "king-moves", _) => {
                return Err(bad("option 'king_moves' is a number of plies or null"));
            }
            ("repetition", Value::Null) => ("repetition", "off".to_string()),
            ("repetition", Value::Number(n)) => ("repetition", n.to_string()),
            ("repetition", _) => return Err(bad("option 'repetition' is a count or null")),
            ("one_king_each" | "one-king-each", Value::Bool(b)) => ("one-king-each", on_off(*b)),
            ("one_king_each" | "one-king-each", _) => {
                return Err(bad("option 'one_king_each' is true or false"));
            }
            ("king_vs_three" | "king-vs-three", Value::Null) => {
                ("king-vs-three", "off".to_string())
            }
            ("king_vs_three" | "king-vs-three", Value::Number(n)) => {
                ("king-vs-three", n.to_string())
            }
            ("king_vs_three" | "king-vs-three", _) => {
                return Err(bad("option 'king_vs_three' is a number of plies or null"));
            }
            ("king_vs_two" | "king-vs-two", Value::Null) => ("king-vs-two", "off".to_string()),
            ("king_vs_two" | "king-vs-two", Value::Number(n)) => ("king-vs-two", n.to_string()),
            ("king_vs_two" | "king-vs-two", _) => {
                return Err(bad("option 'king_vs_two' is a number of plies or null"));
            }
            (other, _) => {
                return Err(GameError::BadRules(format!(
                    "unknown rule option '{}' (options: huffing, men_capture_backward, majority, king_landing, king_capture, promotion, king_moves, repetition, one_king_each, king_vs_three, king_vs_two)",
                    other.chars().take(40).collect::<String>()
                )));
            }
        };
        Ok((name.to_string(), text))
    }
}

impl ServerGame for Game {
    fn session(&self) -> &dyn SessionInfo {
        Game::session(self)
    }

    fn game_type(&self) -> Variant {
        game_type(self.rules())
    }

    fn rules_text(&self) -> String {
        self.rules().to_string()
    }

    fn rule_options(&self) -> RuleOptions {
        let r = self.rules();
        RuleOptions::Dame(DameOptions {
            board: r.board.side(),
            men_capture_backward: r.men_capture_backward,
            majority: r.majority_capture,
            king_landing: match r.king_landing {
                dame::KingLanding::DirectlyBehind => "behind",
                dame::KingLanding::AnywhereBehind => "anywhere",
            },
            king_capture: match r.king_capture {
                dame::KingCapture::Long => "long",
                dame::KingCapture::Short => "short",
            },
            promotion: match r.promotion {
                dame::Promotion::Immediate => "immediate",
                dame::Promotion::EndOfMove => "end-of-move",
            },
            huffing: r.huffing,
            king_moves: r.king_move_draw,
            repetition: r.repetition_draw,
            one_king_each: r.one_king_each_draw,
            king_vs_three: r.king_vs_three_draw,
            king_vs_two: r.king_vs_two_draw,
        })
    }

    fn position(&self) -> String {
        Game::position(self).fen()
    }

    fn details(&self) -> GameDetails {
        let pos = Game::position(self);
        let start = self.start();
        let size = pos.size();
        GameDetails::Dame(DameDetails {
            legal_moves: if self.is_over() {
                Vec::new()
            } else {
                self.legal_moves().iter().map(|m| m.to_string()).collect()
            },
            board_size: size.side(),
            huffs: self
                .huffs()
                .iter()
                .map(|h| h.map(|sq| sq.to_string()))
                .collect(),
            pending_huff: ServerGame::pending_huff(self),
            huffable: self
                .huffable()
                .squares(size)
                .map(|sq| sq.to_string())
                .collect(),
            pieces: PerSide::new(|c| Pieces {
                men: pos.men(c).count(),
                kings: pos.kings(c).count(),
            }),
            captured: PerSide::new(|c| {
                start
                    .pieces(c)
                    .count()
                    .saturating_sub(pos.pieces(c).count())
            }),
        })
    }

    fn play(&mut self, text: &str) -> Result<Option<String>, GameError> {
        let size = Game::position(self).size();
        let tokens: Vec<&str> = text.split_whitespace().collect();
        let (huff, moves) = match tokens.as_slice() {
            [] => return Err(GameError::EmptyMove),
            [first, rest @ ..] => match dame::parse_huff_token(first, size) {
                Some(sq) => (Some(sq), rest),
                None => (None, &tokens[..]),
            },
        };
        if moves.len() > 1 {
            return Err(GameError::SeveralMoves {
                text: text.to_string(),
                huff_first: true,
            });
        }
        let mut next = self.clone();
        if let Some(sq) = huff {
            Game::huff(&mut next, sq)?;
        }
        let Some(mv) = moves.first() else {
            *self = next;
            return Ok(None);
        };
        next.play_str(mv)?;
        *self = next;
        Ok(self.stored_moves().pop())
    }

    fn huff(&mut self, square: &str) -> Result<(), GameError> {
        let mut next = self.clone();
        next.huff_str(square)?;
        *self = next;
        Ok(())
    }

    fn stored_moves(&self) -> Vec<String> {
        self.moves()
            .iter()
            .zip(self.huffs())
            .map(|(m, h)| match h {
                Some(sq) => format!("H{sq} {m}"),
                None => m.to_string(),
            })
            .collect()
    }

    fn pending_huff(&self) -> Option<String> {
        Game::pending_huff(self).map(|sq| sq.to_string())
    }

    session_actions!(Game);
}
