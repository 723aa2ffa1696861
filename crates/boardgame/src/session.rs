//! A game being played: the moves, the positions they led to, draw offers,
//! resignation, the outcome and the record's tags — the same for every game.

use crate::Color;
use crate::record::{self, Tags};
use crate::rules::{Outcome, Reason, Rules};

/// Error for an action that a game does not allow now. `E` is the game's
/// error for a move that cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError<E> {
    /// The move cannot be played.
    #[error(transparent)]
    Move(#[from] E),
    /// The game is over (the outcome in words).
    #[error("the game is over: {0}")]
    Over(String),
    /// The side has no draw offer from the opponent to accept or decline.
    #[error("{0} has no draw offer from the opponent to accept")]
    NoDrawOffer(Color),
    /// No move has been played.
    #[error("there is no move to take back")]
    NothingToUndo,
}

/// A game from its start position: every move, the positions they led to,
/// the draw offer in force, the outcome — automatic (by the position, or a
/// repetition) or declared (agreement, resignation) — and the header tags
/// of its record.
///
/// A game with actions besides moves (Dame's huffs) builds on the plain
/// steps [`Session::record_move`], [`Session::take_back`] and
/// [`Session::set_outcome`] and works out its outcome itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Session<P: Rules> {
    /// positions[i]: the position after i moves (0 = the start).
    positions: Vec<P>,
    moves: Vec<P::Move>,
    outcome: Option<Outcome<P::Reason>>,
    draw_offer: Option<Color>,
    tags: Tags,
    /// The comments a record gave after its moves (`comments[i]` after
    /// move `i`), as read.
    comments: Vec<Option<String>>,
}

impl<P: Rules> Session<P> {
    /// A new game from `start`; it may be over at once.
    pub fn new(start: P) -> Session<P> {
        let mut s = Session {
            positions: vec![start],
            moves: Vec::new(),
            outcome: None,
            draw_offer: None,
            tags: Tags::new(),
            comments: Vec::new(),
        };
        s.outcome = s.automatic_outcome(s.position());
        s
    }

    /// The start position.
    pub fn start(&self) -> &P {
        &self.positions[0]
    }

    /// The position after the last move.
    pub fn position(&self) -> &P {
        self.positions.last().expect("a game has a start position")
    }

    /// The position after `ply` moves (0 = the start).
    pub fn position_at(&self, ply: usize) -> Option<&P> {
        self.positions.get(ply)
    }

    /// The moves played.
    pub fn moves(&self) -> &[P::Move] {
        &self.moves
    }

    /// Number of moves played (plies).
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// How the game ended, if it has.
    pub fn outcome(&self) -> Option<Outcome<P::Reason>> {
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
    pub fn legal_moves(&self) -> Vec<P::Move> {
        if self.is_over() {
            Vec::new()
        } else {
            self.position().legal_moves()
        }
    }

    /// How many times `pos` has occurred after a move of this game (or at
    /// the start).
    pub fn occurrences(&self, pos: &P) -> usize {
        let h = pos.hash();
        self.positions
            .iter()
            .filter(|p| p.hash() == h && p.same_position(pos))
            .count()
    }

    /// How many times the position after the last move has occurred in
    /// this game, counting itself.
    pub fn repetition_count(&self) -> usize {
        self.occurrences(self.position())
    }

    /// The outcome of the game if `current` is its position now: a win by
    /// the position, else a draw by repetition when `current` has occurred
    /// as often as the rules allow, else a draw by the position.
    pub fn automatic_outcome(&self, current: &P) -> Option<Outcome<P::Reason>> {
        let intrinsic = current.outcome();
        if let Some(o) = intrinsic
            && o.winner.is_some()
        {
            return Some(o);
        }
        if let Some(n) = current.repetition_draw()
            && self.occurrences(current) >= usize::from(n)
        {
            return Some(Outcome {
                winner: None,
                reason: P::Reason::REPETITION,
            });
        }
        intrinsic
    }

    /// `Ok` while the game goes on, else [`GameError::Over`].
    pub fn ensure_running<E>(&self) -> Result<(), GameError<E>> {
        match self.outcome {
            Some(o) => Err(GameError::Over(o.describe())),
            None => Ok(()),
        }
    }

    /// Play a move, checked against the rules.
    pub fn play(&mut self, m: P::Move) -> Result<(), GameError<P::MoveError>> {
        self.ensure_running()?;
        let next = self.position().play(&m)?;
        self.record_move(m, next);
        self.outcome = self.automatic_outcome(self.position());
        Ok(())
    }

    /// Read a move in the game's notation and play it.
    pub fn play_str(&mut self, text: &str) -> Result<P::Move, GameError<P::MoveError>> {
        self.ensure_running()?;
        let m = self.position().parse_move(text)?;
        self.play(m.clone())?;
        Ok(m)
    }

    /// Take back the last move. A game ended by agreement or resignation
    /// is reopened; the draw offer is withdrawn.
    pub fn undo(&mut self) -> Result<P::Move, GameError<P::MoveError>> {
        let m = self.take_back().ok_or(GameError::NothingToUndo)?;
        self.outcome = self.automatic_outcome(self.position());
        Ok(m)
    }

    /// Add a move that leads to `next`, both checked by the caller. The
    /// opponent's draw offer lapses (moving instead of accepting declines
    /// it). The outcome is left as it was: set it with
    /// [`Session::set_outcome`].
    pub fn record_move(&mut self, m: P::Move, next: P) {
        let mover = self.position().turn();
        self.positions.push(next);
        self.moves.push(m);
        if self.draw_offer == Some(mover.other()) {
            self.draw_offer = None;
        }
    }

    /// Remove the last move and the position it led to, and withdraw the
    /// draw offer; `None` at the start. The outcome is left as it was: set
    /// it with [`Session::set_outcome`].
    pub fn take_back(&mut self) -> Option<P::Move> {
        let m = self.moves.pop()?;
        self.positions.pop();
        self.comments.truncate(self.moves.len());
        self.draw_offer = None;
        Some(m)
    }

    /// Set the outcome (for a game that works it out itself).
    pub fn set_outcome(&mut self, outcome: Option<Outcome<P::Reason>>) {
        self.outcome = outcome;
    }

    /// Withdraw the draw offer in force, if any.
    pub fn withdraw_draw_offer(&mut self) {
        self.draw_offer = None;
    }

    /// `by` offers a draw. If the opponent's offer already stands, the
    /// game is drawn by agreement. Returns whether the game is now drawn.
    pub fn offer_draw<E>(&mut self, by: Color) -> Result<bool, GameError<E>> {
        self.ensure_running()?;
        if self.draw_offer == Some(by.other()) {
            self.declare(None, P::Reason::AGREEMENT);
            return Ok(true);
        }
        self.draw_offer = Some(by);
        Ok(false)
    }

    /// `by` accepts the opponent's standing draw offer.
    pub fn accept_draw<E>(&mut self, by: Color) -> Result<(), GameError<E>> {
        self.ensure_running()?;
        if self.draw_offer != Some(by.other()) {
            return Err(GameError::NoDrawOffer(by));
        }
        self.declare(None, P::Reason::AGREEMENT);
        Ok(())
    }

    /// `by` declines the opponent's standing draw offer.
    pub fn decline_draw<E>(&mut self, by: Color) -> Result<(), GameError<E>> {
        self.ensure_running()?;
        if self.draw_offer != Some(by.other()) {
            return Err(GameError::NoDrawOffer(by));
        }
        self.draw_offer = None;
        Ok(())
    }

    /// `by` resigns.
    pub fn resign<E>(&mut self, by: Color) -> Result<(), GameError<E>> {
        self.ensure_running()?;
        self.declare(Some(by.other()), P::Reason::RESIGNATION);
        Ok(())
    }

    /// `loser`'s time ran out: the opponent wins.
    pub fn flag<E>(&mut self, loser: Color) -> Result<(), GameError<E>> {
        self.ensure_running()?;
        self.declare(Some(loser.other()), P::Reason::TIME);
        Ok(())
    }

    /// `by` claims the game after the opponent left: the win (`win`) or
    /// a draw.
    pub fn claim<E>(&mut self, by: Color, win: bool) -> Result<(), GameError<E>> {
        self.ensure_running()?;
        self.declare(win.then_some(by), P::Reason::CLAIMED);
        Ok(())
    }

    /// End the game without a result (it was aborted).
    pub fn abort<E>(&mut self) -> Result<(), GameError<E>> {
        self.ensure_running()?;
        self.declare(None, P::Reason::ABORTED);
        Ok(())
    }

    fn declare(&mut self, winner: Option<Color>, reason: P::Reason) {
        self.outcome = Some(Outcome { winner, reason });
        self.draw_offer = None;
    }

    /// End the game as a record says it ended, when the moves did not end
    /// it: `claimed` is the record's result token, `winner` what it means
    /// (`Some(None)` a draw, `None` no result), `termination` the record's
    /// `Termination` tag. A draw can only be agreed and a win only come
    /// from resignation; an automatic outcome is kept as it is.
    pub fn declare_from_record(
        &mut self,
        claimed: Option<&str>,
        winner: Option<Option<Color>>,
        termination: Option<&str>,
    ) -> Result<(), DeclaredError> {
        if self.is_over() {
            return Ok(());
        }
        let reason = match termination {
            // PGN's word for a game lost on time.
            Some(record::TIME_FORFEIT) => Some(P::Reason::TIME),
            Some(t) => Some(
                P::Reason::from_code(t).ok_or_else(|| DeclaredError::BadTermination(t.into()))?,
            ),
            None => None,
        };
        let Some(winner) = winner else {
            if reason == Some(P::Reason::ABORTED) {
                self.declare(None, P::Reason::ABORTED);
            }
            return Ok(());
        };
        let reason = match (winner, reason) {
            (None, None) => P::Reason::AGREEMENT,
            (None, Some(r)) if r == P::Reason::AGREEMENT || r == P::Reason::CLAIMED => r,
            (Some(_), None) => P::Reason::RESIGNATION,
            (Some(_), Some(r))
                if r == P::Reason::RESIGNATION
                    || r == P::Reason::TIME
                    || r == P::Reason::CLAIMED =>
            {
                r
            }
            (_, Some(r)) => {
                return Err(DeclaredError::Mismatch {
                    claimed: format!("{} by {}", claimed.unwrap_or_default(), r.code()),
                    actual: "a game that has not ended that way".to_string(),
                });
            }
        };
        self.declare(winner, reason);
        Ok(())
    }

    /// The end of reading a record: the game ended as the record says
    /// ([`Session::declare_from_record`], with the reason of the
    /// `Termination` tag of `tags`), then the record's header `tags` set in
    /// order.
    pub fn finish_record(
        &mut self,
        claimed: Option<&str>,
        winner: Option<Option<Color>>,
        tags: Tags,
    ) -> Result<(), DeclaredError> {
        let termination = record::find_tag(&tags, "Termination");
        self.declare_from_record(claimed, winner, termination)?;
        for (k, v) in &tags {
            self.set_tag(k, v);
        }
        Ok(())
    }

    /// The header tags of the game record, in order.
    pub fn tags(&self) -> &[(String, String)] {
        &self.tags
    }

    /// The value of a header tag.
    pub fn tag(&self, key: &str) -> Option<&str> {
        record::find_tag(&self.tags, key)
    }

    /// Set a header tag (replacing its value, or adding it at the end).
    pub fn set_tag(&mut self, key: &str, value: &str) {
        record::set_tag(&mut self.tags, key, value.to_string());
    }

    /// The comments the record this game was read from gave after its
    /// moves: entry `i` follows move `i` (from 0), `None` where none did;
    /// shorter than the moves when the last ones had none (empty for a
    /// game not read from a record). Taking a move back drops its comment.
    pub fn move_comments(&self) -> &[Option<String>] {
        &self.comments
    }

    /// Keep the comments a record gave after its moves (see
    /// [`Session::move_comments`]); entries beyond the moves are dropped.
    pub fn set_move_comments(&mut self, mut comments: Vec<Option<String>>) {
        comments.truncate(self.moves.len());
        while comments.last().is_some_and(Option::is_none) {
            comments.pop();
        }
        self.comments = comments;
    }
}

/// Why [`Session::declare_from_record`] cannot end a game as its record
/// says.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DeclaredError {
    /// The `Termination` tag is no reason of this game.
    #[error("unknown Termination '{0}'")]
    BadTermination(String),
    /// The record's result and reason are not how the game ended.
    #[error("the record says {claimed} but the moves lead to {actual}")]
    Mismatch {
        /// The result and reason the record gives.
        claimed: String,
        /// How the moves end the game, in words.
        actual: String,
    },
}

/// The methods every game type built on a [`Session`] shares, written once:
/// `session_methods!(Game, session, Position, GameError)` gives the struct
/// `Game` with a field `session: Session<Position>` the read methods
/// (`session`, `start`, `position_at`, `moves`, `ply`, `outcome`, `is_over`,
/// `draw_offer`, `tags`, `tag`) and the players' actions (`offer_draw`,
/// `accept_draw`, `decline_draw`, `resign`, `set_tag`), whose errors are
/// turned into `GameError` with `From`.
#[macro_export]
macro_rules! session_methods {
    ($game:ty, $field:ident, $pos:ty, $err:ty) => {
        // `Ok(…?)` converts the session's error; it is needless only for a
        // game whose error is the session's own (Mühle's).
        #[allow(clippy::needless_question_mark)]
        impl $game {
            /// The game's session: the moves, the positions they led to,
            /// the outcome, the draw offer and the tags.
            pub fn session(&self) -> &$crate::Session<$pos> {
                &self.$field
            }

            /// The start position.
            pub fn start(&self) -> &$pos {
                self.$field.start()
            }

            /// The position after `ply` moves (0 = the start).
            pub fn position_at(&self, ply: usize) -> Option<&$pos> {
                self.$field.position_at(ply)
            }

            /// The moves played.
            pub fn moves(&self) -> &[<$pos as $crate::Rules>::Move] {
                self.$field.moves()
            }

            /// Number of moves played (plies).
            pub fn ply(&self) -> usize {
                self.$field.ply()
            }

            /// How the game ended, if it has.
            pub fn outcome(&self) -> Option<$crate::Outcome<<$pos as $crate::Rules>::Reason>> {
                self.$field.outcome()
            }

            /// Whether the game is over.
            pub fn is_over(&self) -> bool {
                self.$field.is_over()
            }

            /// The side whose draw offer stands, if any.
            pub fn draw_offer(&self) -> Option<$crate::Color> {
                self.$field.draw_offer()
            }

            /// `by` offers a draw. If the opponent's offer already stands,
            /// the game is drawn by agreement. Returns whether the game is
            /// now drawn.
            pub fn offer_draw(&mut self, by: $crate::Color) -> Result<bool, $err> {
                Ok(self
                    .$field
                    .offer_draw::<<$pos as $crate::Rules>::MoveError>(by)?)
            }

            /// `by` accepts the opponent's standing draw offer.
            pub fn accept_draw(&mut self, by: $crate::Color) -> Result<(), $err> {
                Ok(self
                    .$field
                    .accept_draw::<<$pos as $crate::Rules>::MoveError>(by)?)
            }

            /// `by` declines the opponent's standing draw offer.
            pub fn decline_draw(&mut self, by: $crate::Color) -> Result<(), $err> {
                Ok(self
                    .$field
                    .decline_draw::<<$pos as $crate::Rules>::MoveError>(by)?)
            }

            /// `by` resigns.
            pub fn resign(&mut self, by: $crate::Color) -> Result<(), $err> {
                Ok(self
                    .$field
                    .resign::<<$pos as $crate::Rules>::MoveError>(by)?)
            }

            /// `loser`'s time ran out: the opponent wins.
            pub fn flag(&mut self, loser: $crate::Color) -> Result<(), $err> {
                Ok(self
                    .$field
                    .flag::<<$pos as $crate::Rules>::MoveError>(loser)?)
            }

            /// `by` claims the game after the opponent left: the win
            /// (`win`) or a draw.
            pub fn claim(&mut self, by: $crate::Color, win: bool) -> Result<(), $err> {
                Ok(self
                    .$field
                    .claim::<<$pos as $crate::Rules>::MoveError>(by, win)?)
            }

            /// End the game without a result (aborted).
            pub fn abort(&mut self) -> Result<(), $err> {
                Ok(self.$field.abort::<<$pos as $crate::Rules>::MoveError>()?)
            }

            /// The header tags of the game record, in order.
            pub fn tags(&self) -> &[(String, String)] {
                self.$field.tags()
            }

            /// The value of a header tag.
            pub fn tag(&self, key: &str) -> Option<&str> {
                self.$field.tag(key)
            }

            /// Set a header tag (replacing its value, or adding it at the
            /// end).
            pub fn set_tag(&mut self, key: &str, value: &str) {
                self.$field.set_tag(key, value)
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use std::fmt;

    use super::*;

    /// A tiny game: a heap of tokens; a move takes one (`t`) or waits
    /// (`w`, allowed while the heap is not empty). Who is to move with an
    /// empty heap is blocked and loses.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    struct Heap {
        tokens: u8,
        turn: Color,
        plies: u16,
    }

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum Step {
        Take,
        Wait,
    }

    impl fmt::Display for Step {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(match self {
                Step::Take => "t",
                Step::Wait => "w",
            })
        }
    }

    #[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
    #[error("no such move")]
    struct Illegal;

    crate::end_reasons! {
        pub enum Why {
            Blocked => "blocked",
            Repetition => "repetition",
        }
    }

    impl Why {
        fn describe_end(self, _: Option<Color>) -> Option<String> {
            None
        }
    }

    impl Rules for Heap {
        type Move = Step;
        type MoveError = Illegal;
        type Reason = Why;

        fn turn(&self) -> Color {
            self.turn
        }

        fn move_number(&self) -> u16 {
            self.plies / 2 + 1
        }

        fn parse_move(&self, text: &str) -> Result<Step, Illegal> {
            let m = match text {
                "t" => Step::Take,
                "w" => Step::Wait,
                _ => return Err(Illegal),
            };
            self.play(&m)?;
            Ok(m)
        }

        fn legal_moves(&self) -> Vec<Step> {
            if self.tokens == 0 {
                Vec::new()
            } else {
                vec![Step::Take, Step::Wait]
            }
        }

        fn play(&self, m: &Step) -> Result<Heap, Illegal> {
            if self.tokens == 0 {
                return Err(Illegal);
            }
            Ok(Heap {
                tokens: self.tokens - u8::from(*m == Step::Take),
                turn: !self.turn,
                plies: self.plies + 1,
            })
        }

        fn outcome(&self) -> Option<crate::Outcome<Why>> {
            (self.tokens == 0).then_some(crate::Outcome {
                winner: Some(!self.turn),
                reason: Why::Blocked,
            })
        }

        fn position_string(&self) -> String {
            format!("{} {}", self.tokens, self.turn.char())
        }

        fn hash(&self) -> u64 {
            u64::from(self.tokens) * 2 + self.turn.index() as u64
        }

        fn same_position(&self, other: &Heap) -> bool {
            self.tokens == other.tokens && self.turn == other.turn
        }

        fn repetition_draw(&self) -> Option<u8> {
            Some(3)
        }
    }

    type Error = GameError<Illegal>;

    fn heap(tokens: u8) -> Session<Heap> {
        Session::new(Heap {
            tokens,
            turn: Color::White,
            plies: 0,
        })
    }

    #[test]
    fn moves_are_played_and_taken_back() {
        let mut s = heap(2);
        assert_eq!(s.undo(), Err(Error::NothingToUndo));
        assert_eq!(s.play_str("t"), Ok(Step::Take));
        assert_eq!(s.play_str("x"), Err(Error::Move(Illegal)));
        assert_eq!(s.ply(), 1);
        assert_eq!(s.position().position_string(), "1 b");
        s.play(Step::Take).unwrap();
        let lost = Outcome {
            winner: Some(Color::Black),
            reason: Why::Blocked,
        };
        assert_eq!(s.outcome(), Some(lost));
        assert!(s.legal_moves().is_empty());
        assert_eq!(
            s.play(Step::Wait),
            Err(Error::Over("White cannot move: Black wins".into()))
        );
        assert_eq!(s.undo(), Ok(Step::Take));
        assert_eq!(s.outcome(), None);
        assert_eq!(s.moves(), &[Step::Take]);
        assert_eq!(s.position_at(0), Some(s.start()));
    }

    #[test]
    fn the_third_occurrence_draws() {
        let mut s = heap(1);
        for _ in 0..3 {
            s.play(Step::Wait).unwrap();
        }
        assert_eq!(s.repetition_count(), 2);
        assert!(!s.is_over());
        s.play(Step::Wait).unwrap();
        assert_eq!(s.repetition_count(), 3);
        assert_eq!(
            s.outcome().map(|o| o.describe()),
            Some("Draw by repetition of the position".to_string())
        );
        s.undo().unwrap();
        assert!(!s.is_over());
    }

    #[test]
    fn draw_offers_are_made_accepted_declined_and_lapse() {
        let mut s = heap(5);
        assert_eq!(
            s.accept_draw::<Illegal>(Color::Black),
            Err(Error::NoDrawOffer(Color::Black))
        );
        assert_eq!(s.offer_draw::<Illegal>(Color::White), Ok(false));
        assert_eq!(s.draw_offer(), Some(Color::White));
        // The side that offered cannot accept or decline its own offer.
        assert!(s.accept_draw::<Illegal>(Color::White).is_err());
        assert!(s.decline_draw::<Illegal>(Color::White).is_err());
        assert_eq!(s.decline_draw::<Illegal>(Color::Black), Ok(()));
        assert_eq!(s.draw_offer(), None);

        // A move by the offering side keeps the offer; the opponent's move
        // declines it.
        s.offer_draw::<Illegal>(Color::White).unwrap();
        s.play(Step::Wait).unwrap();
        assert_eq!(s.draw_offer(), Some(Color::White));
        s.play(Step::Wait).unwrap();
        assert_eq!(s.draw_offer(), None);

        // Taking back withdraws the offer.
        s.offer_draw::<Illegal>(Color::White).unwrap();
        s.undo().unwrap();
        assert_eq!(s.draw_offer(), None);

        // An offer against a standing offer draws; so does accepting.
        s.offer_draw::<Illegal>(Color::Black).unwrap();
        assert_eq!(s.offer_draw::<Illegal>(Color::White), Ok(true));
        assert_eq!(s.outcome().map(|o| o.reason), Some(Why::Agreement));
        assert_eq!(s.draw_offer(), None);
        assert!(s.offer_draw::<Illegal>(Color::White).is_err());
        s.undo().unwrap();
        assert!(!s.is_over());
        s.offer_draw::<Illegal>(Color::Black).unwrap();
        s.accept_draw::<Illegal>(Color::White).unwrap();
        assert_eq!(s.outcome().map(|o| o.result_str()), Some("1/2-1/2"));
    }

    #[test]
    fn time_claims_and_aborts_end_the_game() {
        let mut s = heap(5);
        s.play(Step::Take).unwrap();
        s.flag::<Illegal>(Color::Black).unwrap();
        let o = s.outcome().unwrap();
        assert_eq!((o.winner, o.reason), (Some(Color::White), Why::Time));
        assert_eq!(o.describe(), "Black ran out of time: White wins");
        assert_eq!(o.result_str(), "1-0");
        assert!(s.flag::<Illegal>(Color::White).is_err());
        assert!(Why::all_codes().ends_with("resignation, time, claimed, aborted"));

        let mut s = heap(5);
        s.claim::<Illegal>(Color::White, false).unwrap();
        let o = s.outcome().unwrap();
        assert_eq!((o.winner, o.reason), (None, Why::Claimed));
        assert_eq!(o.result_str(), "1/2-1/2");

        let mut s = heap(5);
        s.abort::<Illegal>().unwrap();
        let o = s.outcome().unwrap();
        assert_eq!(
            (o.winner, o.reason, o.result_str()),
            (None, Why::Aborted, "*")
        );

        let mut s = heap(5);
        s.declare_from_record(Some("*"), None, Some("aborted"))
            .unwrap();
        assert_eq!(s.outcome().map(|o| o.reason), Some(Why::Aborted));
        let mut s = heap(5);
        s.declare_from_record(Some("0-1"), Some(Some(Color::Black)), Some("time"))
            .unwrap();
        assert_eq!(s.outcome().map(|o| o.reason), Some(Why::Time));
    }

    #[test]
    fn resignation_ends_the_game_until_taken_back() {
        let mut s = heap(5);
        s.play(Step::Take).unwrap();
        s.offer_draw::<Illegal>(Color::Black).unwrap();
        s.resign::<Illegal>(Color::Black).unwrap();
        let o = s.outcome().unwrap();
        assert_eq!((o.winner, o.reason), (Some(Color::White), Why::Resignation));
        assert_eq!(o.describe(), "Black resigns: White wins");
        assert_eq!(o.result_str(), "1-0");
        assert_eq!(s.draw_offer(), None);
        assert!(s.resign::<Illegal>(Color::White).is_err());
        assert!(s.play(Step::Take).is_err());
        s.undo().unwrap();
        assert!(!s.is_over());
    }

    #[test]
    fn a_record_declares_agreement_or_resignation_only() {
        let mut s = heap(5);
        assert_eq!(s.declare_from_record(None, None, None), Ok(()));
        assert!(!s.is_over());
        assert_eq!(
            s.declare_from_record(Some("1/2-1/2"), Some(None), Some("end")),
            Err(DeclaredError::BadTermination("end".into()))
        );
        assert_eq!(
            s.declare_from_record(Some("1/2-1/2"), Some(None), Some("blocked")),
            Err(DeclaredError::Mismatch {
                claimed: "1/2-1/2 by blocked".into(),
                actual: "a game that has not ended that way".into()
            })
        );
        s.declare_from_record(Some("0-1"), Some(Some(Color::Black)), None)
            .unwrap();
        assert_eq!(s.outcome().map(|o| o.reason), Some(Why::Resignation));

        let mut s = heap(0);
        let blocked = s.outcome();
        assert_eq!(s.declare_from_record(Some("1-1"), Some(None), None), Ok(()));
        assert_eq!(s.outcome(), blocked, "an automatic outcome stays");
    }

    #[test]
    fn tags_keep_their_order() {
        let mut s = heap(1);
        assert_eq!(s.tag("White"), None);
        s.set_tag("White", "Anna");
        s.set_tag("Black", "Ben");
        s.set_tag("White", "Alma");
        assert_eq!(s.tag("White"), Some("Alma"));
        assert_eq!(
            s.tags(),
            &[
                ("White".to_string(), "Alma".to_string()),
                ("Black".to_string(), "Ben".to_string())
            ]
        );
    }
}
