//! A game: a start position, the moves played, and how the game ended.

use crate::{Color, EndReason, Move, MoveError, Outcome, Position, RuleSet};

/// Error for an action that a game does not allow now.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    #[error(transparent)]
    Move(#[from] MoveError),
    #[error("the game is over: {0}")]
    Over(String),
    #[error("{0} has no draw offer from the opponent to accept")]
    NoDrawOffer(Color),
    #[error("there is no move to take back")]
    NothingToUndo,
}

/// A game of Mühle: the start, every move, the positions they led to, the
/// draw offer in force and the outcome — automatic (two stones left,
/// blocked, repetition, no-mill rule) or declared (agreement, resignation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    positions: Vec<Position>,
    moves: Vec<Move>,
    outcome: Option<Outcome>,
    draw_offer: Option<Color>,
    tags: Vec<(String, String)>,
}

impl Default for Game {
    fn default() -> Game {
        Game::new(RuleSet::STANDARD)
    }
}

impl Game {
    /// A new game from the start position.
    pub fn new(rules: RuleSet) -> Game {
        Game::from_position(Position::new(rules))
    }

    /// A new game from any legal position.
    pub fn from_position(start: Position) -> Game {
        let mut g = Game {
            positions: vec![start],
            moves: Vec::new(),
            outcome: None,
            draw_offer: None,
            tags: Vec::new(),
        };
        g.outcome = g.automatic_outcome();
        g
    }

    /// The rules of the game.
    pub fn rules(&self) -> &RuleSet {
        self.start().rules()
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions.last().expect("a game has a start position")
    }

    /// The position after `ply` moves (0 = the start).
    pub fn position_at(&self, ply: usize) -> Option<&Position> {
        self.positions.get(ply)
    }

    /// The moves played.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Number of moves played (plies).
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// How the game ended, if it has.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The side whose draw offer stands, if any.
    pub fn draw_offer(&self) -> Option<Color> {
        self.draw_offer
    }

    /// Legal moves now (none when the game is over).
    pub fn legal_moves(&self) -> crate::MoveList {
        if self.is_over() {
            crate::MoveList::new()
        } else {
            self.position().legal_moves()
        }
    }

    /// How many times the current position has occurred in this game,
    /// counting itself.
    pub fn repetition_count(&self) -> usize {
        let now = self.position();
        let h = now.hash();
        self.positions
            .iter()
            .filter(|p| p.hash() == h && p.same_position(now))
            .count()
    }

    fn automatic_outcome(&self) -> Option<Outcome> {
        let pos = self.position();
        let intrinsic = pos.outcome();
        if let Some(o) = intrinsic
            && o.winner.is_some()
        {
            return Some(o);
        }
        if let Some(n) = pos.rules().repetition_draw
            && self.repetition_count() >= usize::from(n)
        {
            return Some(Outcome {
                winner: None,
                reason: EndReason::Repetition,
            });
        }
        intrinsic
    }

    fn ensure_running(&self) -> Result<(), GameError> {
        match self.outcome {
            Some(o) => Err(GameError::Over(o.describe())),
            None => Ok(()),
        }
    }

    /// Play a move, checked against the rules.
    pub fn play(&mut self, m: Move) -> Result<(), GameError> {
        self.ensure_running()?;
        let next = self.position().play(m)?;
        let mover = self.position().turn();
        self.positions.push(next);
        self.moves.push(m);
        if self.draw_offer == Some(mover.other()) {
            // Moving instead of accepting declines the opponent's offer.
            self.draw_offer = None;
        }
        self.outcome = self.automatic_outcome();
        Ok(())
    }

    /// Read a move in our notation and play it.
    pub fn play_str(&mut self, text: &str) -> Result<Move, GameError> {
        self.ensure_running()?;
        let m = self.position().parse_move(text)?;
        self.play(m)?;
        Ok(m)
    }

    /// Take back the last move. A game ended by agreement or resignation
    /// is reopened; the draw offer is withdrawn.
    pub fn undo(&mut self) -> Result<Move, GameError> {
        let m = self.moves.pop().ok_or(GameError::NothingToUndo)?;
        self.positions.pop();
        self.draw_offer = None;
        self.outcome = self.automatic_outcome();
        Ok(m)
    }

    /// `by` offers a draw. If the opponent's offer already stands, the
    /// game is drawn by agreement. Returns whether the game is now drawn.
    pub fn offer_draw(&mut self, by: Color) -> Result<bool, GameError> {
        self.ensure_running()?;
        if self.draw_offer == Some(by.other()) {
            self.declare(None, EndReason::Agreement);
            return Ok(true);
        }
        self.draw_offer = Some(by);
        Ok(false)
    }

    /// `by` accepts the opponent's standing draw offer.
    pub fn accept_draw(&mut self, by: Color) -> Result<(), GameError> {
        self.ensure_running()?;
        if self.draw_offer != Some(by.other()) {
            return Err(GameError::NoDrawOffer(by));
        }
        self.declare(None, EndReason::Agreement);
        Ok(())
    }

    /// `by` declines the opponent's standing draw offer.
    pub fn decline_draw(&mut self, by: Color) -> Result<(), GameError> {
        self.ensure_running()?;
        if self.draw_offer != Some(by.other()) {
            return Err(GameError::NoDrawOffer(by));
        }
        self.draw_offer = None;
        Ok(())
    }

    /// `by` resigns.
    pub fn resign(&mut self, by: Color) -> Result<(), GameError> {
        self.ensure_running()?;
        self.declare(Some(by.other()), EndReason::Resignation);
        Ok(())
    }

    fn declare(&mut self, winner: Option<Color>, reason: EndReason) {
        self.outcome = Some(Outcome { winner, reason });
        self.draw_offer = None;
    }

    /// Set the outcome from a game record (agreement or resignation; an
    /// automatic outcome is kept as it is).
    pub(crate) fn set_declared_outcome(&mut self, outcome: Outcome) {
        if self.outcome.is_none() {
            self.declare(outcome.winner, outcome.reason);
        }
    }

    /// The header tags of the game record, in order.
    pub fn tags(&self) -> &[(String, String)] {
        &self.tags
    }

    /// The value of a header tag.
    pub fn tag(&self, key: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Set a header tag (replacing its value, or adding it at the end).
    pub fn set_tag(&mut self, key: &str, value: &str) {
        match self.tags.iter_mut().find(|(k, _)| k == key) {
            Some(entry) => entry.1 = value.to_string(),
            None => self.tags.push((key.to_string(), value.to_string())),
        }
    }
}
