//! A game: a start position, the moves played (with huffs), and how the game
//! ended.

use boardgame::Session;

use crate::{
    Bitboard, Color, EndReason, Move, MoveError, MoveList, Outcome, Position, RuleSet, Square,
};

/// Error for an action that a game does not allow now.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The move cannot be played.
    #[error(transparent)]
    Move(#[from] MoveError),
    /// The game is over (the outcome in words).
    #[error("the game is over: {0}")]
    Over(String),
    /// The side has no draw offer from the opponent to accept or decline.
    #[error("{0} has no draw offer from the opponent to accept")]
    NoDrawOffer(Color),
    /// Nothing has been played.
    #[error("there is nothing to take back")]
    NothingToUndo,
    /// The piece cannot be huffed.
    #[error("cannot huff {square}: {why}")]
    HuffNotAllowed {
        /// The square as given.
        square: String,
        /// Why it cannot be huffed.
        why: String,
    },
}

impl From<boardgame::GameError<MoveError>> for GameError {
    fn from(e: boardgame::GameError<MoveError>) -> GameError {
        match e {
            boardgame::GameError::Move(m) => GameError::Move(m),
            boardgame::GameError::Over(o) => GameError::Over(o),
            boardgame::GameError::NoDrawOffer(c) => GameError::NoDrawOffer(c),
            boardgame::GameError::NothingToUndo => GameError::NothingToUndo,
        }
    }
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
///
/// The bookkeeping of moves, draw offers, resignation and tags is
/// [`boardgame::Session`]'s; this type adds the huffs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// The moves, the positions after them, the outcome, the draw offer and
    /// the tags.
    session: Session<Position>,
    /// huffs[i]: the piece huffed before moves[i], if any.
    huffs: Vec<Option<Square>>,
    /// A huff made this turn, already applied to `current`.
    pending_huff: Option<Square>,
    /// The position now: after the last move and the huff made since.
    current: Position,
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
            session: Session::new(start),
            huffs: Vec::new(),
            pending_huff: None,
            current: start,
        };
        g.session.set_outcome(g.automatic_outcome());
        g
    }

    /// The rules of the game.
    pub fn rules(&self) -> &RuleSet {
        self.start().rules()
    }

    /// The current position (after a huff made this turn, if any).
    pub fn position(&self) -> &Position {
        &self.current
    }

    /// The position in which move `ply` (0-based) was played: the position
    /// before it, after the huff that preceded it, if any.
    pub fn position_before_move(&self, ply: usize) -> Option<Position> {
        let before = *self.session.position_at(ply)?;
        if ply >= self.ply() {
            return None;
        }
        match self.huffs[ply] {
            Some(sq) => before.huffed(sq),
            None => Some(before),
        }
    }

    /// For each move, the piece huffed before it, if any.
    pub fn huffs(&self) -> &[Option<Square>] {
        &self.huffs
    }

    /// The piece huffed this turn, if any (before the move that follows).
    pub fn pending_huff(&self) -> Option<Square> {
        self.pending_huff
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
        self.session.occurrences(&self.current)
    }

    /// The pieces the player to move may huff now, ignoring whether the
    /// game is over.
    fn huffable_raw(&self) -> Bitboard {
        if !self.rules().huffing || self.pending_huff.is_some() {
            return Bitboard::EMPTY;
        }
        let Some(last) = self.moves().last() else {
            return Bitboard::EMPTY;
        };
        if last.is_capture() {
            return Bitboard::EMPTY;
        }
        let Some(before) = self.position_before_move(self.ply() - 1) else {
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
        self.session.set_outcome(self.automatic_outcome());
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

    /// The outcome with `current` as the position now: the session's (a
    /// win by the position, a repetition, a draw by the position) — without
    /// the repetition while a huff is pending, and not the blocked player's
    /// loss when a huff would give them a move.
    fn automatic_outcome(&self) -> Option<Outcome> {
        let outcome = if self.pending_huff.is_some() {
            self.current.outcome()
        } else {
            self.session.automatic_outcome(&self.current)
        };
        match outcome {
            Some(o)
                if o.winner.is_some() && o.reason == EndReason::Blocked && self.huff_can_free() =>
            {
                None
            }
            o => o,
        }
    }

    fn ensure_running(&self) -> Result<(), GameError> {
        Ok(self.session.ensure_running::<MoveError>()?)
    }

    /// Play a move, checked against the rules.
    pub fn play(&mut self, m: &Move) -> Result<(), GameError> {
        self.ensure_running()?;
        let next = self.current.play(m)?;
        // Keep the path as generated (the caller's may be another path of
        // the same move).
        let m = self
            .current
            .legal_moves()
            .iter()
            .find(|l| *l == m)
            .copied()
            .unwrap_or(*m);
        self.session.record_move(m, next);
        self.huffs.push(self.pending_huff.take());
        self.current = next;
        self.session.set_outcome(self.automatic_outcome());
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
        let undone = if let Some(sq) = self.pending_huff.take() {
            self.session.withdraw_draw_offer();
            Undone::Huff(sq)
        } else {
            let m = self.session.take_back().ok_or(GameError::NothingToUndo)?;
            self.pending_huff = self.huffs.pop().flatten();
            Undone::Move(m)
        };
        self.current = *self.session.position();
        if let Some(sq) = self.pending_huff {
            match self.current.huffed(sq) {
                Some(p) => self.current = p,
                None => self.pending_huff = None,
            }
        }
        self.session.set_outcome(self.automatic_outcome());
        Ok(undone)
    }

    /// The game's session: moves, positions, outcome, draw offer, tags.
    pub(crate) fn session_mut(&mut self) -> &mut Session<Position> {
        &mut self.session
    }
}

boardgame::session_methods!(Game, session, Position, GameError);
