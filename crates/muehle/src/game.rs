//! A game: a start position, the moves played, and how the game ended.

use boardgame::Session;

use crate::{Move, MoveError, MoveList, Position, RuleSet};

/// Error for an action that a game does not allow now.
pub type GameError = boardgame::GameError<MoveError>;

/// A game of Mühle: the start, every move, the positions they led to, the
/// draw offer in force and the outcome — automatic (two stones left,
/// blocked, repetition, no-mill rule) or declared (agreement, resignation).
/// The bookkeeping is [`boardgame::Session`]'s; this type adds the Mühle
/// types and records.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    session: Session<Position>,
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
        Game {
            session: Session::new(start),
        }
    }

    /// The rules of the game.
    pub fn rules(&self) -> &RuleSet {
        self.start().rules()
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.session.position()
    }

    /// Legal moves now (none when the game is over).
    pub fn legal_moves(&self) -> MoveList {
        if self.is_over() {
            MoveList::new()
        } else {
            self.position().legal_moves()
        }
    }

    /// How many times the current position has occurred in this game,
    /// counting itself.
    pub fn repetition_count(&self) -> usize {
        self.session.repetition_count()
    }

    /// Play a move, checked against the rules.
    pub fn play(&mut self, m: Move) -> Result<(), GameError> {
        self.session.play(m)
    }

    /// Read a move in our notation and play it.
    pub fn play_str(&mut self, text: &str) -> Result<Move, GameError> {
        self.session.play_str(text)
    }

    /// Take back the last move. A game ended by agreement or resignation
    /// is reopened; the draw offer is withdrawn.
    pub fn undo(&mut self) -> Result<Move, GameError> {
        self.session.undo()
    }

    /// The game's session: moves, positions, outcome, draw offer, tags.
    pub(crate) fn session_mut(&mut self) -> &mut Session<Position> {
        &mut self.session
    }
}

boardgame::session_methods!(Game, session, Position, GameError);
