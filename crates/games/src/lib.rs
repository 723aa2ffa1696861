//! brett's games behind one adapter, for every consumer above the rules
//! (the server, the command line, the protocols): the catalogue
//! ([`Variant`], [`catalogue_json`]) names every game with its presets;
//! [`LiveGame`] is a game in progress (or finished) with its rules — Mühle,
//! or Dame on 8×8 or 10×10 with huffing as a rule option — seen through the
//! trait [`ServerGame`]. Only this crate and the games' own crates branch
//! on the game.
//!
//! What every game shares (moves, ply, turn, outcome, draw offer, tags) is
//! written once over `boardgame`'s [`Session`]: [`SessionInfo`], and the
//! provided methods of [`ServerGame`]. Each game adds only its own parts
//! (`game/muehle.rs`, `game/dame.rs`): its rules and options, how a move
//! request reads, the game-specific fields of the state, the engine.
//!
//! Every failure is a [`GameError`]; the HTTP layer turns it into its
//! error answer (`crate::error`). This module knows nothing of HTTP or of
//! storage.

mod catalogue;
mod dame;
mod local;
mod muehle;
mod search;

use std::ops::{Deref, DerefMut};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use boardgame::{Detailed, ErrorDetail, Outcome, Reason, Rules, Session};
use serde::Serialize;

pub use boardgame::Color;
pub use boardgame::clock::{self, Clock, TimeControl};
pub use catalogue::{Family, LANGUAGES, Preset, Variant, catalogue_json};

pub use dame::{DameDetails, DameOptions};
pub use local::{Action, BoardArt, Entered, LocalGame, PerGame, Setup};
pub use muehle::{MuehleDetails, MuehleOptions};
pub use search::{Analysis, AnalysisLine, SearchJob, history, run_job, texts};

/// Whether a game goes on: the state's `status`, and the stored one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// The game goes on.
    #[default]
    Ongoing,
    /// The game has ended.
    Over,
}

impl Status {
    /// The name in the API and in the storage (`ongoing`, `over`).
    pub fn name(self) -> &'static str {
        match self {
            Status::Ongoing => "ongoing",
            Status::Over => "over",
        }
    }

    /// The status of this name (exactly as [`Status::name`] writes it).
    pub fn parse(s: &str) -> Option<Status> {
        [Status::Ongoing, Status::Over]
            .into_iter()
            .find(|v| v.name() == s)
    }

    /// `Over` if the game has ended.
    pub fn of_ended(ended: bool) -> Status {
        if ended { Status::Over } else { Status::Ongoing }
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// The winner; `None` for a draw.
    pub winner: Option<Color>,
    /// Mühle: `two-stones`, `blocked`, `repetition`, `no-mill`,
    /// `board-full`; Dame: `no-pieces`, `blocked`, `repetition`,
    /// `king-moves`, `one-king-each`, `king-vs-three`, `king-vs-two`; every
    /// game: `agreement`, `resignation`, `time`, `claimed`, `aborted`.
    pub reason: &'static str,
    /// The ending in English words.
    pub text: String,
}

impl Ending {
    /// The ending of `outcome`.
    pub fn of<R: Reason>(outcome: Outcome<R>) -> Ending {
        Ending {
            winner: outcome.winner,
            reason: outcome.reason.code(),
            text: outcome.describe(),
        }
    }

    /// `1-0`, `0-1`, `1/2-1/2`, or `*` for an aborted game.
    pub fn result(&self) -> &'static str {
        if self.reason == "aborted" {
            return "*";
        }
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

/// An error of a rules crate as its English words and its code and
/// parameters ([`ErrorDetail`]), which the API sends along for a client to
/// word the error in its own language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explained {
    /// The error in English.
    pub message: String,
    /// The error as a code with parameters.
    pub detail: ErrorDetail,
}

impl Explained {
    /// The words and the detail of `e`.
    pub fn of<E: std::fmt::Display + Detailed>(e: &E) -> Explained {
        Explained {
            message: e.to_string(),
            detail: e.detail(),
        }
    }
}

impl std::fmt::Display for Explained {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Explained {}

/// Why a game cannot be created, read or changed as asked. The words are
/// the API's error messages (docs/API.md); `crate::error` gives each
/// variant its HTTP status and code.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The request names no game the server plays (the name, cut to 40
    /// characters).
    #[error("unknown game '{name}' (games: {games})", name = .0, games = Variant::names())]
    UnknownGame(String),
    /// The rules text, or a rule option, is not understood (the words say
    /// why).
    #[error("{0}")]
    BadRules(String),
    /// A position string (Mühle) or FEN (Dame) that cannot be read or is
    /// no legal position.
    #[error("position: {0}")]
    BadPosition(Explained),
    /// A game record that cannot be read (or whose moves cannot be
    /// played).
    #[error("the record: {0}")]
    BadRecord(Explained),
    /// A move request without a move.
    #[error("empty move")]
    EmptyMove,
    /// A move request with more than one move.
    #[error(
        "'{text}' is more than one move: send one move at a time{}",
        if *huff_first { " (a huff, 'H' and the square, may come first)" } else { "" }
    )]
    SeveralMoves {
        /// The request's move text.
        text: String,
        /// Whether the game knows huffs (Dame), which may come first.
        huff_first: bool,
    },
    /// The move text is not a move in the game's notation.
    #[error("{0}")]
    BadMoveText(Explained),
    /// The move (or huff) breaks the rules here.
    #[error("{0}")]
    IllegalMove(Explained),
    /// The game is over (the outcome in words).
    #[error("the game is over: {0}")]
    GameOver(String),
    /// The side has no draw offer of the opponent's to accept or decline.
    #[error("{0} has no draw offer from the opponent to answer")]
    NoDrawOffer(Color),
    /// No move has been played.
    #[error("there is no move to take back")]
    NothingToUndo,
    /// A huff asked for in a game without huffing (Mühle).
    #[error("huffing is a Dame rule; Mühle has no huffing")]
    NoHuffing,
}

/// Why a stored game cannot be read back (a server fault: the storage
/// holds what the server wrote).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RestoreError {
    /// The game, rules or start position are not understood.
    #[error(transparent)]
    Game(#[from] GameError),
    /// A stored move is only a huff.
    #[error("stored move {number} ('{text}') is not a move")]
    NotAMove {
        /// The move's number in the list, from 1.
        number: usize,
        /// The move as stored.
        text: String,
    },
    /// A stored move cannot be played.
    #[error("stored move {number} ('{text}'): {error}")]
    Move {
        /// The move's number in the list, from 1.
        number: usize,
        /// The move as stored.
        text: String,
        /// Why it cannot be played.
        error: GameError,
    },
    /// The stored pending huff is a move.
    #[error("stored huff '{0}' is not a huff")]
    NotAHuff(String),
    /// The stored pending huff cannot be made.
    #[error("stored huff '{square}': {error}")]
    Huff {
        /// The square as stored.
        square: String,
        /// Why the huff cannot be made.
        error: GameError,
    },
    /// The stored outcome is not one the players could have declared.
    #[error("stored outcome {result:?} by {reason:?} does not follow from the moves")]
    Outcome {
        /// The stored result.
        result: Option<String>,
        /// The stored reason.
        reason: Option<String>,
    },
}

/// A game as the storage keeps it, for [`LiveGame::restore`].
#[derive(Clone, Copy, Debug)]
pub struct SavedGame<'a> {
    /// The game's name ([`Variant::name`]).
    pub game: &'a str,
    /// The rules in text form.
    pub rules: &'a str,
    /// The start position.
    pub start: &'a str,
    /// The moves as [`ServerGame::stored_moves`] writes them.
    pub moves: &'a [String],
    /// Whether the game is over.
    pub over: bool,
    /// The result (`1-0`, `0-1`, `1/2-1/2`) when over.
    pub result: Option<&'a str>,
    /// The reason code when over.
    pub reason: Option<&'a str>,
    /// Whose draw offer stands.
    pub draw_offer: Option<Color>,
    /// A piece huffed this turn (Dame).
    pub pending_huff: Option<&'a str>,
}

/// One value per side, written as `{"white": …, "black": …}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PerSide<T> {
    /// White's value.
    pub white: T,
    /// Black's value.
    pub black: T,
}

impl<T> PerSide<T> {
    /// `f` of each side.
    pub fn new(mut f: impl FnMut(Color) -> T) -> PerSide<T> {
        PerSide {
            white: f(Color::White),
            black: f(Color::Black),
        }
    }
}

/// The rule options one by one (the state's `rule_options`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum RuleOptions {
    /// Mühle's options.
    Muehle(MuehleOptions),
    /// Dame's options.
    Dame(DameOptions),
}

/// The fields of the state only one game has (docs/API.md, "Game state"
/// and "Dame games").
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum GameDetails {
    /// Mühle: stones in hand, on the board, removed, the phases.
    Muehle(MuehleDetails),
    /// Dame: the board size, huffs, pieces, captures.
    Dame(DameDetails),
}

/// What every game's [`Session`] tells, whatever the game: written once
/// for all of them.
pub trait SessionInfo {
    /// Number of moves played (plies).
    fn ply(&self) -> usize;
    /// The moves in the game's notation.
    fn move_texts(&self) -> Vec<String>;
    /// The last move in the game's notation.
    fn last_move(&self) -> Option<String>;
    /// The side to move after the last move.
    fn turn(&self) -> Color;
    /// The side that played the move of `ply` (0-based).
    fn mover_of(&self, ply: usize) -> Option<Color>;
    /// How the game ended, if it has.
    fn ending(&self) -> Option<Ending>;
    /// The side whose draw offer stands.
    fn draw_offer(&self) -> Option<Color>;
    /// The start position as text.
    fn start_position(&self) -> String;
    /// The header tags of the game's record.
    fn tags(&self) -> &[(String, String)];
    /// The comments the record the game was read from gave after its
    /// moves (entry `i` after move `i`; see
    /// [`Session::move_comments`]).
    fn move_comments(&self) -> &[Option<String>] {
        &[]
    }
}

impl<P: Rules> SessionInfo for Session<P> {
    fn ply(&self) -> usize {
        Session::ply(self)
    }

    fn move_texts(&self) -> Vec<String> {
        self.moves().iter().map(|m| m.to_string()).collect()
    }

    fn last_move(&self) -> Option<String> {
        self.moves().last().map(|m| m.to_string())
    }

    fn turn(&self) -> Color {
        self.position().turn()
    }

    fn mover_of(&self, ply: usize) -> Option<Color> {
        self.position_at(ply).map(|p| p.turn())
    }

    fn ending(&self) -> Option<Ending> {
        self.outcome().map(Ending::of)
    }

    fn draw_offer(&self) -> Option<Color> {
        Session::draw_offer(self)
    }

    fn start_position(&self) -> String {
        self.start().position_string()
    }

    fn tags(&self) -> &[(String, String)] {
        Session::tags(self)
    }

    fn move_comments(&self) -> &[Option<String>] {
        Session::move_comments(self)
    }
}

/// A game as the server sees it: what is the same for every game comes
/// from its session ([`ServerGame::session`]) and the provided methods;
/// each game implements the rest.
pub trait ServerGame: Send + Sync {
    /// The game's session, seen the same for every game.
    fn session(&self) -> &dyn SessionInfo;

    /// The game and the preset its rules are closest to.
    fn game_type(&self) -> Variant;

    /// The rule set in text form (`standard`, `standard,flying=off`,
    /// `dame,huffing=on`).
    fn rules_text(&self) -> String;

    /// The rule options one by one.
    fn rule_options(&self) -> RuleOptions;

    /// The position now as text (Dame: after a huff made this turn).
    fn position(&self) -> String;

    /// The game's own fields of the state.
    fn details(&self) -> GameDetails;

    /// Play a move given in the game's notation (Mühle: a removal may come
    /// as its own token, `d6 xb4`; Dame: a huff may come first, `He5
    /// g3-h4`, or alone, `He5`). Returns the move as stored (see
    /// [`ServerGame::stored_moves`]), or `None` when only a piece was
    /// huffed (the same player is still to move). Nothing changes on an
    /// error.
    fn play(&mut self, text: &str) -> Result<Option<String>, GameError>;

    /// Huff (Dame) the opponent's piece on `square` before moving.
    fn huff(&mut self, square: &str) -> Result<(), GameError> {
        let _ = square;
        Err(GameError::NoHuffing)
    }

    /// The moves as stored: Dame moves preceded by a huff carry it (`He5
    /// f6xd4`); [`ServerGame::play`] reads them back.
    fn stored_moves(&self) -> Vec<String> {
        self.moves()
    }

    /// The piece huffed this turn before the move not yet made (Dame).
    fn pending_huff(&self) -> Option<String> {
        None
    }

    /// `side` offers a draw; returns whether the game is drawn now (the
    /// opponent's offer stood).
    fn offer_draw(&mut self, side: Color) -> Result<bool, GameError>;

    /// `side` accepts the opponent's draw offer.
    fn accept_draw(&mut self, side: Color) -> Result<(), GameError>;

    /// `side` declines the opponent's draw offer.
    fn decline_draw(&mut self, side: Color) -> Result<(), GameError>;

    /// `side` resigns.
    fn resign(&mut self, side: Color) -> Result<(), GameError>;

    /// `loser`'s time ran out: the opponent wins.
    fn flag(&mut self, loser: Color) -> Result<(), GameError>;

    /// `by` claims the game after the opponent left: the win (`win`) or a
    /// draw.
    fn claim(&mut self, by: Color, win: bool) -> Result<(), GameError>;

    /// End the game without a result.
    fn abort(&mut self) -> Result<(), GameError>;

    /// Take back the last action (a move, or a huff made this turn);
    /// `false` when there is none.
    fn undo_one(&mut self) -> bool;

    /// The game record with the given header tags (the game adds rules,
    /// start position, result and termination): Mühle's record format or
    /// PDN for Dame.
    fn record(&self, tags: &[(String, String)]) -> String;

    /// The game record as [`ServerGame::record`] writes it, with
    /// `comments[i]` as a `{…}` comment after move `i` (`None` or no
    /// entry: none).
    fn record_with_comments(
        &self,
        tags: &[(String, String)],
        comments: &[Option<String>],
    ) -> String {
        let _ = comments;
        self.record(tags)
    }

    /// The same game seen as the command line and the protocols use it.
    fn local(&self) -> &dyn LocalGame;

    /// The same game seen as the command line and the protocols use it,
    /// to change.
    fn local_mut(&mut self) -> &mut dyn LocalGame;

    /// The computer's move at `level` (1–10) within `movetime`, in the
    /// form [`ServerGame::play`] takes (Dame: with the huff first when the
    /// opponent skipped a capture); `None` when the game is over or the
    /// search was stopped before it found one. Blocking: call it on a
    /// blocking thread.
    fn choose_move(
        &self,
        level: u8,
        seed: u64,
        movetime: Duration,
        stop: &AtomicBool,
    ) -> Option<String> {
        if self.ending().is_some() {
            return None;
        }
        let mut game = self.local().to_live();
        let huff = game.local_mut().huff_for_engine();
        if let Some(sq) = &huff
            && game.ending().is_some()
        {
            // The huff took the opponent's last piece (or left them
            // without a move): nothing is left to play.
            return Some(format!("H{sq}"));
        }
        // A new table each move, and a person waits: the only move is
        // played at once.
        let limits = ::search::Limits {
            answer_only_move: true,
            ..::search::Limits::movetime(movetime)
        };
        let mv = game.local().level_choice(
            &mut engine::LevelPlayer::new(level, seed),
            &::search::Engine::new(8, 1),
            limits,
            stop,
        )?;
        Some(match huff {
            Some(sq) => format!("H{sq} {mv}"),
            None => mv,
        })
    }

    /// The engine's best `lines` moves within `time`, with reasons.
    /// Blocking: call it on a blocking thread.
    fn analyze(&self, time: Duration, lines: usize, stop: &AtomicBool) -> Analysis {
        if self.ending().is_some() {
            return Analysis::default();
        }
        self.local().analysis(
            &::search::Engine::new(32, 1),
            ::search::Limits::movetime(time),
            lines,
            stop,
            &mut |_| {},
        )
    }

    /// Number of moves played (plies).
    fn ply(&self) -> usize {
        self.session().ply()
    }

    /// The moves in the game's notation (Dame: without huffs).
    fn moves(&self) -> Vec<String> {
        self.session().move_texts()
    }

    /// The last move in the game's notation.
    fn last_move(&self) -> Option<String> {
        self.session().last_move()
    }

    /// The side to move now.
    fn turn(&self) -> Color {
        self.session().turn()
    }

    /// The side that played the move of `ply` (0-based).
    fn mover_of(&self, ply: usize) -> Option<Color> {
        self.session().mover_of(ply)
    }

    /// How the game ended, if it has.
    fn ending(&self) -> Option<Ending> {
        self.session().ending()
    }

    /// The side whose draw offer stands.
    fn draw_offer(&self) -> Option<Color> {
        self.session().draw_offer()
    }

    /// The start position as text.
    fn start_position(&self) -> String {
        self.session().start_position()
    }

    /// The header tags the record carried (for imports).
    fn tags(&self) -> Vec<(String, String)> {
        self.session().tags().to_vec()
    }

    /// Take back the moves from `ply` on (and a huff made before the first
    /// of them).
    fn undo_to(&mut self, ply: usize) {
        while self.ply() > ply || self.pending_huff().is_some() {
            if !self.undo_one() {
                break;
            }
        }
    }
}

/// What every game type built on a `boardgame::Session` has in the same
/// words — the players' actions (offer, accept or decline a draw, resign;
/// the game's errors turned into [`GameError`] by `From`) and the record
/// with extra tags, taking back, and the game as a [`LocalGame`] — for
/// `impl ServerGame for $game`.
macro_rules! session_actions {
    ($game:ty) => {
        fn offer_draw(&mut self, side: $crate::Color) -> Result<bool, $crate::GameError> {
            Ok(<$game>::offer_draw(self, side)?)
        }

        fn accept_draw(&mut self, side: $crate::Color) -> Result<(), $crate::GameError> {
            Ok(<$game>::accept_draw(self, side)?)
        }

        fn decline_draw(&mut self, side: $crate::Color) -> Result<(), $crate::GameError> {
            Ok(<$game>::decline_draw(self, side)?)
        }

        fn resign(&mut self, side: $crate::Color) -> Result<(), $crate::GameError> {
            Ok(<$game>::resign(self, side)?)
        }

        fn flag(&mut self, loser: $crate::Color) -> Result<(), $crate::GameError> {
            Ok(<$game>::flag(self, loser)?)
        }

        fn claim(&mut self, by: $crate::Color, win: bool) -> Result<(), $crate::GameError> {
            Ok(<$game>::claim(self, by, win)?)
        }

        fn abort(&mut self) -> Result<(), $crate::GameError> {
            Ok(<$game>::abort(self)?)
        }

        fn record(&self, tags: &[(String, String)]) -> String {
            self.record_with_comments(tags, &[])
        }

        fn record_with_comments(
            &self,
            tags: &[(String, String)],
            comments: &[Option<String>],
        ) -> String {
            let mut g = self.clone();
            for (k, v) in tags {
                g.set_tag(k, v);
            }
            g.to_record_with_comments(comments)
        }

        fn undo_one(&mut self) -> bool {
            self.undo().is_ok()
        }

        fn local(&self) -> &dyn $crate::LocalGame {
            self
        }

        fn local_mut(&mut self) -> &mut dyn $crate::LocalGame {
            self
        }
    };
}
use session_actions;

/// A game in progress (or finished): the start, the moves, the outcome.
/// It is a [`ServerGame`] (through `Deref`).
#[derive(Clone, Debug)]
pub enum LiveGame {
    /// A game of Mühle.
    Muehle(::muehle::Game),
    /// A game of Dame.
    Dame(::dame::Game),
}

/// The `TimeControl` tag of a record.
const TIME_CONTROL_TAG: &str = "TimeControl";

impl LiveGame {
    /// The game record as [`ServerGame::record`] writes it, for a game on
    /// `control`: the `TimeControl` tag (PGN form, [`TimeControl::tag`];
    /// only when timed) and after move `i` the comment `{[%clk h:mm:ss]}`
    /// with `clocks[i]`, the mover's time left after it (`None` or no
    /// entry: no comment), as lichess writes its PGNs.
    /// [`LiveGame::record_clock`] reads them back.
    pub fn record_with_clock(
        &self,
        tags: &[(String, String)],
        control: TimeControl,
        clocks: &[Option<u64>],
    ) -> String {
        let mut tags = tags.to_vec();
        if control.is_timed() {
            boardgame::record::set_tag(&mut tags, TIME_CONTROL_TAG, control.tag());
        }
        let comments: Vec<Option<String>> = clocks
            .iter()
            .map(|c| c.map(boardgame::clock::clk_comment))
            .collect();
        self.record_with_comments(&tags, &comments)
    }

    /// What a record read by [`LiveGame::from_record`] said of the clock:
    /// its `TimeControl` tag (`None`: none, or one that is not a time
    /// control) and for each move the `[%clk h:mm:ss]` of the comment after
    /// it (`None`: none, or not a time). A malformed tag or time is left
    /// out, never an error.
    pub fn record_clock(&self) -> (Option<TimeControl>, Vec<Option<u64>>) {
        let session = self.session();
        let control = boardgame::record::find_tag(session.tags(), TIME_CONTROL_TAG)
            .and_then(|t| TimeControl::from_tag(t).ok());
        let comments = session.move_comments();
        let clocks = (0..session.ply())
            .map(|i| {
                comments
                    .get(i)
                    .and_then(Option::as_deref)
                    .and_then(boardgame::clock::clk_in_comment)
            })
            .collect();
        (control, clocks)
    }

    /// The game of Mühle, if it is one (for what only Mühle has, like its
    /// databases of the moving phase).
    pub fn as_muehle(&self) -> Option<&::muehle::Game> {
        match self {
            LiveGame::Muehle(g) => Some(g),
            LiveGame::Dame(_) => None,
        }
    }
}

impl Deref for LiveGame {
    type Target = dyn ServerGame;

    fn deref(&self) -> &(dyn ServerGame + 'static) {
        match self {
            LiveGame::Muehle(g) => g,
            LiveGame::Dame(g) => g,
        }
    }
}

impl DerefMut for LiveGame {
    fn deref_mut(&mut self) -> &mut (dyn ServerGame + 'static) {
        match self {
            LiveGame::Muehle(g) => g,
            LiveGame::Dame(g) => g,
        }
    }
}

/// The rules text a request gives, or the game's default preset.
fn rules_or_default(game: Variant, rules: Option<&str>) -> &str {
    rules
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .unwrap_or(game.default_rules())
}

/// A rule set from its text form (a preset, then options) and the
/// `options` object of a create request, each option put in the text form
/// by the game's `option_text`.
pub(crate) fn rules_with_options<R>(
    text: &str,
    options: Option<&serde_json::Map<String, serde_json::Value>>,
    option_text: impl Fn(&str, &serde_json::Value) -> Result<(String, String), GameError>,
) -> Result<R, GameError>
where
    R: boardgame::rules_text::RuleText,
{
    let bad = |e: boardgame::rules_text::ParseRulesError<R>| GameError::BadRules(e.to_string());
    let mut rules: R = boardgame::rules_text::parse(text).map_err(bad)?;
    for (key, value) in options.into_iter().flatten() {
        let (key, value) = option_text(key, value)?;
        rules.set_option(&key, &value).map_err(bad)?;
    }
    Ok(rules)
}

/// The start of a new game under `rules`: the game's start position
/// (`start`), or the position string `position` read by `read`.
pub(crate) fn start_at<R, P, E>(
    position: Option<&str>,
    rules: R,
    start: impl FnOnce(R) -> P,
    read: impl FnOnce(&str, R) -> Result<P, E>,
) -> Result<P, GameError>
where
    E: std::fmt::Display + Detailed,
{
    match position {
        None => Ok(start(rules)),
        Some(p) => read(p, rules).map_err(|e| GameError::BadPosition(Explained::of(&e))),
    }
}

impl LiveGame {
    /// A new game of `game` under `rules` (a preset, optionally with
    /// options in text form; `None`: the game's default preset) and
    /// `options` (the API's `options` object), from `position` or the
    /// start.
    pub fn create(
        game: Variant,
        rules: Option<&str>,
        options: Option<&serde_json::Map<String, serde_json::Value>>,
        position: Option<&str>,
    ) -> Result<LiveGame, GameError> {
        let rules = rules_or_default(game, rules);
        match game.family() {
            Family::Muehle => muehle::create(rules, options, position).map(LiveGame::Muehle),
            Family::Dame => {
                dame::create(game.default_rules(), rules, options, position).map(LiveGame::Dame)
            }
        }
    }

    /// A stored game, replayed move by move (every move is checked again).
    pub fn restore(saved: &SavedGame<'_>) -> Result<LiveGame, RestoreError> {
        let game = Variant::parse(saved.game)?;
        let mut live = LiveGame::create(game, Some(saved.rules), None, Some(saved.start))?;
        for (i, mv) in saved.moves.iter().enumerate() {
            let (number, text) = (i + 1, mv.clone());
            match live.play(mv) {
                Ok(Some(_)) => {}
                Ok(None) => return Err(RestoreError::NotAMove { number, text }),
                Err(error) => {
                    return Err(RestoreError::Move {
                        number,
                        text,
                        error,
                    });
                }
            }
        }
        if let Some(sq) = saved.pending_huff {
            match live.play(&format!("H{sq}")) {
                Ok(None) => {}
                Ok(Some(_)) => return Err(RestoreError::NotAHuff(sq.to_string())),
                Err(error) => {
                    return Err(RestoreError::Huff {
                        square: sq.to_string(),
                        error,
                    });
                }
            }
        }
        if saved.over && live.ending().is_none() {
            match (saved.reason, saved.result) {
                (Some("agreement"), _) => {
                    let side = live.turn();
                    live.offer_draw(side)?;
                    live.accept_draw(side.other())?;
                }
                (Some("resignation"), Some("1-0")) => live.resign(Color::Black)?,
                (Some("resignation"), Some("0-1")) => live.resign(Color::White)?,
                (Some("time"), Some("1-0")) => live.flag(Color::Black)?,
                (Some("time"), Some("0-1")) => live.flag(Color::White)?,
                (Some("claimed"), Some("1-0")) => live.claim(Color::White, true)?,
                (Some("claimed"), Some("0-1")) => live.claim(Color::Black, true)?,
                (Some("claimed"), Some("1/2-1/2")) => live.claim(Color::White, false)?,
                (Some("aborted"), None | Some("*")) => live.abort()?,
                (reason, result) => {
                    return Err(RestoreError::Outcome {
                        result: result.map(str::to_string),
                        reason: reason.map(str::to_string),
                    });
                }
            }
        }
        if live.ending().is_none()
            && let Some(side) = saved.draw_offer
        {
            live.offer_draw(side)?;
        }
        Ok(live)
    }

    /// Read a game record (its header tags are kept). `game`: the game the
    /// record is of; `None`: told by the record — a PDN `GameType` tag or a
    /// Dame `Rules` tag make it Dame, otherwise Mühle.
    pub fn from_record(game: Option<Variant>, text: &str) -> Result<LiveGame, GameError> {
        let game = match game {
            Some(g) => g,
            None => detect_record_game(text),
        };
        let bad = |e: Explained| GameError::BadRecord(e);
        match game.family() {
            Family::Muehle => ::muehle::Game::from_record(text)
                .map(LiveGame::Muehle)
                .map_err(|e| bad(Explained::of(&e))),
            Family::Dame => ::dame::Game::from_record(text)
                .map(LiveGame::Dame)
                .map_err(|e| bad(Explained::of(&e))),
        }
    }
}

/// Which game a record is of, when the request does not say: a PDN
/// `GameType` tag, or a `Rules` tag that names Dame rules, make it Dame
/// (its preset told by the rules); otherwise Mühle.
fn detect_record_game(text: &str) -> Variant {
    let tag = |name: &str| {
        text.lines().find_map(|l| {
            let l = l.trim();
            let rest = l.strip_prefix('[')?.strip_prefix(name)?;
            let v = rest.trim().strip_suffix(']')?.trim();
            Some(v.trim_matches('"').to_string())
        })
    };
    if let Some(rules) = tag("Rules")
        && let Ok(rs) = rules.parse::<::dame::RuleSet>()
        && rules.parse::<::muehle::RuleSet>().is_err()
    {
        return dame::game_type(&rs);
    }
    if tag("GameType").is_some() {
        return Variant::Dame;
    }
    Variant::Muehle
}

#[cfg(test)]
mod tests {
    use super::*;

    fn saved<'a>(
        start: &'a str,
        moves: &'a [String],
        over: bool,
        result: Option<&'a str>,
        reason: Option<&'a str>,
        draw_offer: Option<Color>,
    ) -> SavedGame<'a> {
        SavedGame {
            game: "muehle",
            rules: "standard",
            start,
            moves,
            over,
            result,
            reason,
            draw_offer,
            pending_huff: None,
        }
    }

    #[test]
    fn options_apply() {
        let opts: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(r#"{"flying": false, "no_mill": 40, "repetition": null}"#)
                .unwrap();
        let b = LiveGame::create(Variant::Muehle, Some("standard"), Some(&opts), None).unwrap();
        assert_eq!(b.rules_text(), "no-flying,no-mill=40,repetition=off");
        let bad = serde_json::from_str(r#"{"flying": "yes"}"#).unwrap();
        assert!(LiveGame::create(Variant::Muehle, Some("standard"), Some(&bad), None).is_err());
        let unknown = serde_json::from_str(r#"{"speed": 1}"#).unwrap();
        assert!(LiveGame::create(Variant::Muehle, Some("standard"), Some(&unknown), None).is_err());
        assert!(LiveGame::create(Variant::Muehle, Some("nonsense"), None, None).is_err());
    }

    #[test]
    fn removal_as_its_own_token() {
        let mut b = LiveGame::create(Variant::Muehle, Some("standard"), None, None).unwrap();
        for m in ["a7", "b6", "d7", "d6"] {
            b.play(m).unwrap();
        }
        assert_eq!(b.play("g7 xb6").unwrap().as_deref(), Some("g7xb6"));
        assert_eq!(
            b.play("a1 a4"),
            Err(GameError::SeveralMoves {
                text: "a1 a4".into(),
                huff_first: false
            })
        );
        assert_eq!(b.play(" "), Err(GameError::EmptyMove));
        assert_eq!(b.huff("a1"), Err(GameError::NoHuffing));
    }

    #[test]
    fn errors_keep_the_api_words() {
        let mut b = LiveGame::create(Variant::Dame, None, None, None).unwrap();
        assert_eq!(
            b.play("He5 c3-d4 d4-e5").unwrap_err().to_string(),
            "'He5 c3-d4 d4-e5' is more than one move: send one move at a time (a huff, 'H' and \
             the square, may come first)"
        );
        assert!(matches!(b.play("c3-c5"), Err(GameError::IllegalMove(_))));
        assert!(matches!(b.play("zz"), Err(GameError::BadMoveText(_))));
        assert_eq!(
            b.accept_draw(Color::White).unwrap_err().to_string(),
            "white has no draw offer from the opponent to answer"
        );
        b.resign(Color::White).unwrap();
        assert_eq!(
            b.play("c3-d4").unwrap_err().to_string(),
            "the game is over: White resigns: Black wins"
        );
        assert_eq!(
            Variant::parse("chess").unwrap_err().to_string(),
            "unknown game 'chess' (games: muehle, dame, dame-100, dame-fr, international)"
        );
        let e = LiveGame::create(Variant::Muehle, None, None, Some("x")).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("position: a position string has 6 fields")
        );
        let GameError::BadPosition(x) = e else {
            panic!("{e:?}")
        };
        assert_eq!(x.detail.code, "position.field_count");
    }

    #[test]
    fn restore_declared_outcomes() {
        let start = ::muehle::Position::new(::muehle::RuleSet::STANDARD).fen();
        let moves = vec!["d6".to_string()];
        let b = LiveGame::restore(&saved(
            &start,
            &moves,
            true,
            Some("0-1"),
            Some("resignation"),
            None,
        ))
        .unwrap();
        assert_eq!(b.ending().unwrap().result(), "0-1");
        let b = LiveGame::restore(&saved(
            &start,
            &moves,
            true,
            Some("1/2-1/2"),
            Some("agreement"),
            None,
        ))
        .unwrap();
        assert_eq!(b.ending().unwrap().reason, "agreement");
        for (result, reason, winner) in [
            (Some("0-1"), "time", Some(Color::Black)),
            (Some("1-0"), "claimed", Some(Color::White)),
            (Some("1/2-1/2"), "claimed", None),
            (None, "aborted", None),
        ] {
            let b = LiveGame::restore(&saved(&start, &moves, true, result, Some(reason), None))
                .unwrap();
            let ending = b.ending().unwrap();
            assert_eq!((ending.reason, ending.winner), (reason, winner));
            assert_eq!(ending.result(), result.unwrap_or("*"));
        }
        let b = LiveGame::restore(&saved(
            &start,
            &moves,
            false,
            None,
            None,
            Some(Color::White),
        ))
        .unwrap();
        assert_eq!(b.draw_offer(), Some(Color::White));
        let twice = ["d6".to_string(), "d6".to_string()];
        assert!(matches!(
            LiveGame::restore(&saved(&start, &twice, false, None, None, None)),
            Err(RestoreError::Move { number: 2, .. })
        ));
    }

    /// A game of `variant` (under `rules`) after the moves `moves`, then
    /// `plies` more: each time the first legal move.
    fn played(variant: Variant, rules: Option<&str>, moves: &[&str], plies: usize) -> LiveGame {
        let mut g = LiveGame::create(variant, rules, None, None).unwrap();
        for m in moves {
            g.play(m).unwrap();
        }
        for _ in 0..plies {
            let Some(m) = g.local().legal_moves().into_iter().next() else {
                break;
            };
            g.local_mut().play_text(&m).unwrap();
        }
        g
    }

    #[test]
    fn records_carry_the_clock_and_read_it_back() {
        let tags = [("White".to_string(), "Anna".to_string())];
        let games = [
            played(Variant::Muehle, None, &[], 14),
            played(Variant::Dame, None, &[], 12),
            played(Variant::International, None, &[], 12),
            // A huffed move: the comment follows the move, not the huff.
            played(
                Variant::Dame,
                Some("dame,huffing=on"),
                &["c3-d4", "f6-e5", "g3-h4", "Hd4 e5-f4"],
                3,
            ),
        ];
        for control in [
            TimeControl::live(5, 3),
            "0.5+0".parse().unwrap(),
            TimeControl::Correspondence { days: 3 },
        ] {
            for g in &games {
                let n = g.ply();
                let initial = control.initial_ms().unwrap();
                // Every third move without a time; the last one missing.
                let clocks: Vec<Option<u64>> = (0..n - 1)
                    .map(|i| (i % 3 != 1).then(|| initial - 1000 * i as u64))
                    .collect();
                let text = g.record_with_clock(&tags, control, &clocks);
                assert!(text.contains(&format!("[TimeControl \"{}\"]", control.tag())));
                assert!(text.contains("{[%clk "), "{text}");
                let back = LiveGame::from_record(Some(g.game_type()), &text)
                    .unwrap_or_else(|e| panic!("{e}\n{text}"));
                assert_eq!(back.stored_moves(), g.stored_moves(), "{text}");
                let (read, times) = back.record_clock();
                assert_eq!(read, Some(control));
                let mut expected = clocks.clone();
                expected.push(None);
                assert_eq!(times, expected, "{text}");
                // Written again as it was read.
                assert_eq!(back.record_with_clock(&tags, control, &times), text);
            }
        }
    }

    #[test]
    fn an_untimed_record_is_the_plain_record() {
        let tags = [("Event".to_string(), "Club".to_string())];
        for g in [
            played(Variant::Muehle, None, &[], 9),
            played(Variant::International, None, &[], 9),
        ] {
            let plain = g.record(&tags);
            assert_eq!(g.record_with_clock(&tags, TimeControl::Untimed, &[]), plain);
            assert_eq!(
                g.record_with_clock(&tags, TimeControl::Untimed, &[None; 3]),
                plain
            );
            assert!(!plain.contains("TimeControl") && !plain.contains('{'));
            let back = LiveGame::from_record(Some(g.game_type()), &plain).unwrap();
            assert_eq!(back.record_clock(), (None, vec![None; g.ply()]));
            assert_eq!(back.record(&tags), plain);
        }
    }

    #[test]
    fn a_malformed_clock_is_left_out_and_the_record_still_reads() {
        let text = "[TimeControl \"5 minutes\"]\n\n\
                    1. d6 {[%clk 0:04:59]} 1... f4 {[%clk 9:99:99]} 2. d2 {[%clk} \
                    2... b4 {[%clk 0:04:50] a good move} *\n";
        let g = LiveGame::from_record(Some(Variant::Muehle), text).unwrap();
        assert_eq!(g.moves(), ["d6", "f4", "d2", "b4"]);
        assert_eq!(
            g.record_clock(),
            (None, vec![Some(299_000), None, None, Some(290_000)])
        );
        let pdn = "[GameType \"20\"]\n[TimeControl \"300+3\"]\n\n\
                   1. 32-28 {[%clk 0:05:01]} 19-23 {[%clk 0:05:02]} $1 2. 28x19 {[%clk x]} *\n";
        let g = LiveGame::from_record(None, pdn).unwrap();
        assert_eq!(g.moves(), ["32-28", "19-23", "28x19"]);
        assert_eq!(
            g.record_clock(),
            (
                Some(TimeControl::live(5, 3)),
                vec![Some(301_000), Some(302_000), None]
            )
        );
    }

    #[test]
    fn a_game_lost_on_time_reads_as_the_result_the_record_gives() {
        let text = "[Result \"0-1\"]\n[Termination \"time forfeit\"]\n\n1. d6 f4 0-1\n";
        let g = LiveGame::from_record(Some(Variant::Muehle), text).unwrap();
        assert_eq!(g.ending().map(|e| e.winner), Some(Some(Color::Black)));
        assert_eq!(
            g.tags().last(),
            Some(&("Termination".to_string(), "time forfeit".to_string()))
        );
        let pdn = "[GameType \"20\"]\n[Termination \"time forfeit\"]\n\n1. 32-28 2-0\n";
        let g = LiveGame::from_record(None, pdn).unwrap();
        assert_eq!(g.ending().map(|e| e.winner), Some(Some(Color::White)));
        // Any other unknown Termination is still refused.
        let bad = text.replace("time forfeit", "flag");
        assert!(LiveGame::from_record(Some(Variant::Muehle), &bad).is_err());
    }

    #[test]
    fn takeback_takes_a_pending_huff_along() {
        let mut g = LiveGame::create(Variant::Dame, Some("dame,huffing=on"), None, None).unwrap();
        // White skips the capture d4xf6: Black may huff d4, then moves.
        for m in ["c3-d4", "f6-e5", "g3-h4"] {
            g.play(m).unwrap();
        }
        let GameDetails::Dame(details) = g.details() else {
            panic!("a Dame game")
        };
        assert_eq!(details.huffable, ["d4"]);
        g.huff("d4").unwrap();
        assert_eq!(g.pending_huff().as_deref(), Some("d4"));
        g.play("e5-f4").unwrap();
        assert_eq!(
            g.stored_moves().last().map(String::as_str),
            Some("Hd4 e5-f4")
        );
        g.undo_to(3);
        assert_eq!((g.ply(), g.pending_huff()), (3, None));
        g.undo_to(1);
        assert_eq!(g.moves(), ["c3-d4"]);
    }
}
