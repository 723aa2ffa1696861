//! A game: a start position, the moves played (with huffs), and how the game
//! ended.

use crate::{
    Bitboard, Color, EndReason, Move, MoveError, MoveList, Outcome, Position, RuleSet, Square,
};

/// Error for an action that a game does not allow now.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    #[error(transparent)]
    Move(#[from] MoveError),
    #[error("the game is over: {0}")]
    Over(String),
    #[error("{0} has no draw offer from the opponent to accept")]
    NoDrawOffer(Color),
    #[error("there is nothing to take back")]
    NothingToUndo,
    #[error("cannot huff {square}: {why}")]
    HuffNotAllowed { square: String, why: String },
}

/// What [`Game::undo`] took back.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Undone {
    /// A move (a huff made before it is pending again).
    Move(Move),
    /// A huff made this turn, before any move.
    Huff(Square),
}

/// A game of Dame: the start, every move and huff, the positions they led
/// to, the draw offer in force and the outcome — automatic (no pieces,
/// blocked, repetition, king-move rule, one king each, the move limits of
/// the king endings) or declared (agreement, resignation).
///
/// **Huffing** (rule option `huffing`): when the last move made no capture
/// although its player could have captured, the player now to move may,
/// before moving, remove one of the pieces that could have captured
/// ([`Game::huffable`], [`Game::huff`]). The removal is not a move: the same
/// player then moves. The right lapses with that move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// positions[i]: the position after i moves (0 = the start).
    positions: Vec<Position>,
    moves: Vec<Move>,
    /// huffs[i]: the piece huffed before moves[i], if any.
    huffs: Vec<Option<Square>>,
    /// A huff made this turn, already applied to `current`.
    pending_huff: Option<Square>,
    current: Position,
    outcome: Option<Outcome>,
    draw_offer: Option<Color>,
    tags: Vec<(String, String)>,
}

impl Default for Game {
    fn default() -> Game {
        Game::new(RuleSet::DAME)
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
            huffs: Vec::new(),
            pending_huff: None,
            current: start,
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

    /// The current position (after a huff made this turn, if any).
    pub fn position(&self) -> &Position {
        &self.current
    }

    /// The position after `ply` moves (0 = the start).
    pub fn position_at(&self, ply: usize) -> Option<&Position> {
        self.positions.get(ply)
    }

    /// The position in which move `ply` (0-based) was played: the position
    /// before it, after the huff that preceded it, if any.
    pub fn position_before_move(&self, ply: usize) -> Option<Position> {
        let before = *self.positions.get(ply)?;
        if ply >= self.moves.len() {
            return None;
        }
        match self.huffs[ply] {
            Some(sq) => before.huffed(sq),
            None => Some(before),
        }
    }

    /// The moves played.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// For each move, the piece huffed before it, if any.
    pub fn huffs(&self) -> &[Option<Square>] {
        &self.huffs
    }

    /// The piece huffed this turn, if any (before the move that follows).
    pub fn pending_huff(&self) -> Option<Square> {
        self.pending_huff
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
    pub fn legal_moves(&self) -> MoveList {
        if self.is_over() {
            MoveList::new()
        } else {
            self.current.legal_moves()
        }
    }

    /// How many times the current position has occurred in this game,
    /// counting itself (positions after a move, with the same pieces and
    /// side to move).
    pub fn repetition_count(&self) -> usize {
        let now = &self.current;
        let h = now.hash();
        self.positions
            .iter()
            .filter(|p| p.hash() == h && p.same_position(now))
            .count()
    }

    /// The pieces the player to move may huff now, ignoring whether the
    /// game is over.
    fn huffable_raw(&self) -> Bitboard {
        if !self.rules().huffing || self.pending_huff.is_some() {
            return Bitboard::EMPTY;
        }
        let Some(last) = self.moves.last() else {
            return Bitboard::EMPTY;
        };
        if last.is_capture() {
            return Bitboard::EMPTY;
        }
        let Some(before) = self.position_before_move(self.moves.len() - 1) else {
            return Bitboard::EMPTY;
        };
        let should = before.capturing_pieces();
        if should.contains(last.from()) {
            (should - last.from().bb()) | last.to().bb()
        } else {
            should
        }
    }

    /// The pieces the player to move may remove (huff) now: with huffing
    /// on, when the opponent's last move captured nothing although a capture
    /// was possible, every opponent piece that could have started a capture
    /// allowed by the rules (with the majority rule: a capture of the most
    /// pieces) — on its new square if it is the piece that moved. Empty when
    /// huffing is off, the game is over, or a piece was already huffed this
    /// turn.
    pub fn huffable(&self) -> Bitboard {
        if self.is_over() {
            return Bitboard::EMPTY;
        }
        self.huffable_raw()
    }

    /// Remove (huff) the opponent's piece on `sq` before moving. Allowed
    /// only for a square of [`Game::huffable`]. The removal is not a move:
    /// the same player is still to move.
    pub fn huff(&mut self, sq: Square) -> Result<(), GameError> {
        self.ensure_running()?;
        let allowed = self.huffable();
        let not = |why: String| GameError::HuffNotAllowed {
            square: sq.to_string(),
            why,
        };
        if !allowed.contains(sq) || sq.size() != self.current.size() {
            let why = if !self.rules().huffing {
                "huffing is not part of these rules (rule option huffing=on)".to_string()
            } else if self.pending_huff.is_some() {
                "a piece was already removed this turn".to_string()
            } else if allowed.is_empty() {
                "the opponent's last move did not skip a capture".to_string()
            } else {
                let list: Vec<&str> = allowed
                    .squares(self.current.size())
                    .map(|s| s.name())
                    .collect();
                format!(
                    "it is not a piece that could have captured (these could: {})",
                    list.join(", ")
                )
            };
            return Err(not(why));
        }
        let next = self
            .current
            .huffed(sq)
            .ok_or_else(|| not("there is no opponent piece there".to_string()))?;
        self.current = next;
        self.pending_huff = Some(sq);
        self.outcome = self.automatic_outcome();
        Ok(())
    }

    /// Read a square and huff the piece there.
    pub fn huff_str(&mut self, text: &str) -> Result<Square, GameError> {
        let sq =
            Square::parse(text, self.current.size()).map_err(|e| GameError::HuffNotAllowed {
                square: text.trim().chars().take(20).collect(),
                why: e.to_string(),
            })?;
        self.huff(sq)?;
        Ok(sq)
    }

    /// Whether removing some huffable piece would give the (blocked) player
    /// to move a move.
    fn huff_can_free(&self) -> bool {
        let size = self.current.size();
        self.huffable_raw()
            .squares(size)
            .filter_map(|sq| self.current.huffed(sq))
            .any(|p| !matches!(p.outcome(), Some(o) if o.reason == EndReason::Blocked))
    }

    fn automatic_outcome(&self) -> Option<Outcome> {
        let pos = &self.current;
        let intrinsic = pos.outcome();
        if let Some(o) = intrinsic
            && o.winner.is_some()
        {
            // A blocked player who may huff a piece that frees a move plays on.
            if !(o.reason == EndReason::Blocked && self.huff_can_free()) {
                return Some(o);
            }
            return None;
        }
        if self.pending_huff.is_none()
            && let Some(n) = pos.rules().repetition_draw
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
    pub fn play(&mut self, m: &Move) -> Result<(), GameError> {
        self.ensure_running()?;
        let next = self.current.play(m)?;
        let mover = self.current.turn();
        // Keep the path as generated (the caller's may be another path of
        // the same move).
        let m = self
            .current
            .legal_moves()
            .iter()
            .find(|l| *l == m)
            .copied()
            .unwrap_or(*m);
        self.positions.push(next);
        self.moves.push(m);
        self.huffs.push(self.pending_huff.take());
        self.current = next;
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
        let m = self.current.parse_move(text)?;
        self.play(&m)?;
        Ok(m)
    }

    /// Take back the last action: a huff made this turn, or else the last
    /// move (after which the huff that preceded it, if any, is pending
    /// again). A game ended by agreement or resignation is reopened; the
    /// draw offer is withdrawn.
    pub fn undo(&mut self) -> Result<Undone, GameError> {
        if let Some(sq) = self.pending_huff.take() {
            self.current = *self.positions.last().expect("a game has a start position");
            self.draw_offer = None;
            self.outcome = self.automatic_outcome();
            return Ok(Undone::Huff(sq));
        }
        let m = self.moves.pop().ok_or(GameError::NothingToUndo)?;
        self.positions.pop();
        let huff = self.huffs.pop().flatten();
        self.current = *self.positions.last().expect("a game has a start position");
        if let Some(sq) = huff
            && let Some(p) = self.current.huffed(sq)
        {
            self.current = p;
            self.pending_huff = Some(sq);
        }
        self.draw_offer = None;
        self.outcome = self.automatic_outcome();
        Ok(Undone::Move(m))
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
