//! A game as the command line and the engine protocol play it: [`Setup`]
//! (`--game` with `--rules`, read once) starts a [`LiveGame`], and
//! [`LocalGame`] is what the terminal, the engine protocol, matches and
//! tuning do with it — moves as text, the engine's searches, the record.
//! What is the same in both games is written once (`local_shared!`);
//! `muehle.rs` and `dame.rs` add each game's own parts.

mod dame;
mod muehle;

use std::any::Any;
use std::sync::atomic::AtomicBool;

use boardgame::Color;
use search::{Engine, Limits, SearchInfo};

use crate::{Analysis, Family, GameError, LiveGame, SearchJob, ServerGame, Variant};

/// A game and its rules: `--game` and `--rules` read once.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Setup {
    /// Mühle under these rules.
    Muehle(::muehle::RuleSet),
    /// A Dame game (the one named) under these rules.
    Dame(Variant, ::dame::RuleSet),
}

/// The Dame rule set of `game` with `rules`: a preset, or options
/// `key=value,…` applied to the game's preset (none: the preset).
fn dame_rules(game: Variant, rules: Option<&str>) -> Result<::dame::RuleSet, GameError> {
    let base = match game.family() {
        Family::Dame => game.default_rules(),
        Family::Muehle => Variant::Dame.default_rules(),
    };
    let text = match rules {
        None => base.to_string(),
        Some(r) if r.split(',').next().is_some_and(|first| first.contains('=')) => {
            format!("{base},{r}")
        }
        Some(r) => r.to_string(),
    };
    text.parse::<::dame::RuleSet>()
        .map_err(|e| GameError::BadRules(e.to_string()))
}

/// Mühle's rule set of `text`.
fn muehle_rules(text: &str) -> Result<::muehle::RuleSet, GameError> {
    text.parse::<::muehle::RuleSet>()
        .map_err(|e| GameError::BadRules(e.to_string()))
}

/// What each game's [`Setup`] does with the other's parts: the rules of
/// the game that the setup names, for code written per game (Mühle's and
/// Dame's evaluation weights).
pub trait PerGame {
    /// What comes of it.
    type Output;
    /// Mühle under `rules`.
    fn muehle(self, rules: ::muehle::RuleSet) -> Self::Output;
    /// The Dame game `game` under `rules`.
    fn dame(self, game: Variant, rules: ::dame::RuleSet) -> Self::Output;
}

/// The engine protocol's game before any option: Mühle's standard rules.
impl Default for Setup {
    fn default() -> Setup {
        Setup::Muehle(::muehle::RuleSet::STANDARD)
    }
}

impl Setup {
    /// `--game` with `--rules`: for Mühle a preset with options (none:
    /// standard); for Dame a preset or options applied to the game's preset
    /// (none, or `standard` — the flag's default — : the game's preset).
    pub fn parse(game: Variant, rules: Option<&str>) -> Result<Setup, GameError> {
        match game.family() {
            Family::Muehle => Ok(Setup::Muehle(muehle_rules(
                rules.unwrap_or(game.default_rules()),
            )?)),
            Family::Dame => {
                let rules = rules.filter(|r| *r != "standard");
                Ok(Setup::Dame(game, dame_rules(game, rules)?))
            }
        }
    }

    /// The same game under `rules` as the engine protocol's `Rules` option
    /// gives them (Dame: a preset, or options applied to the game's preset).
    pub fn with_rules(self, rules: &str) -> Result<Setup, GameError> {
        match self {
            Setup::Muehle(_) => Ok(Setup::Muehle(muehle_rules(rules)?)),
            Setup::Dame(game, _) => Ok(Setup::Dame(game, dame_rules(game, Some(rules))?)),
        }
    }

    /// The game `game` as the engine protocol's `Game` option selects it:
    /// Mühle keeps its rules, a Dame game starts from its preset.
    pub fn with_game(self, game: Variant) -> Setup {
        match (self, game.family()) {
            (Setup::Muehle(_), Family::Muehle) => self,
            _ => Setup::parse(game, None).unwrap_or(self),
        }
    }

    /// The game.
    pub fn variant(self) -> Variant {
        match self {
            Setup::Muehle(_) => Variant::Muehle,
            Setup::Dame(game, _) => game,
        }
    }

    /// The rules' name (as `--rules` takes it).
    pub fn rules_name(self) -> String {
        match self {
            Setup::Muehle(r) => r.to_string(),
            Setup::Dame(_, r) => r.to_string(),
        }
    }

    /// The engine protocol's options that select this game and its rules
    /// (`setoption …` lines; Dame rules only when not the game's preset).
    pub fn engine_options(self) -> Vec<String> {
        match self {
            Setup::Muehle(r) => vec![format!("setoption name Rules value {r}")],
            Setup::Dame(game, r) => {
                let mut lines = vec![format!("setoption name Game value {}", game.name())];
                if dame_rules(game, None).ok() != Some(r) {
                    lines.push(format!("setoption name Rules value {r}"));
                }
                lines
            }
        }
    }

    /// The line of the engine protocol's `d` that names the game (Dame's
    /// games; Mühle's output has none).
    pub fn game_line(self) -> Option<String> {
        match self {
            Setup::Muehle(_) => None,
            Setup::Dame(game, _) => Some(format!("Game: {}", game.name())),
        }
    }

    /// Whether the databases play this game perfectly (`perfect` in a
    /// match) and a match counts the games lost by being blocked: Mühle.
    pub fn has_perfect_play(self) -> bool {
        matches!(self, Setup::Muehle(_))
    }

    /// What a position is called in messages.
    pub fn position_name(self) -> &'static str {
        match self {
            Setup::Muehle(_) => "position string",
            Setup::Dame(..) => "FEN",
        }
    }

    /// `per_game` applied to this game's rules.
    pub fn apply<P: PerGame>(self, per_game: P) -> P::Output {
        match self {
            Setup::Muehle(r) => per_game.muehle(r),
            Setup::Dame(game, r) => per_game.dame(game, r),
        }
    }

    /// A new game from the start position.
    pub fn new_game(self) -> LiveGame {
        match self {
            Setup::Muehle(r) => LiveGame::Muehle(::muehle::Game::new(r)),
            Setup::Dame(_, r) => LiveGame::Dame(::dame::Game::new(r)),
        }
    }

    /// A new game from `position` (a Mühle position string or a Dame
    /// FEN; the error is the rules crate's), or from the start.
    pub fn start(self, position: Option<&str>) -> Result<LiveGame, String> {
        let Some(s) = position else {
            return Ok(self.new_game());
        };
        match self {
            Setup::Muehle(r) => ::muehle::Position::from_fen(s, r)
                .map(|p| LiveGame::Muehle(::muehle::Game::from_position(p)))
                .map_err(|e| e.to_string()),
            Setup::Dame(_, r) => ::dame::Position::from_fen(s, r)
                .map(|p| LiveGame::Dame(::dame::Game::from_position(p)))
                .map_err(|e| e.to_string()),
        }
    }

    /// The engine protocol's `position startpos|fen <position> [moves …]`
    /// (the words after `position`).
    pub fn parse_position(self, rest: &[&str]) -> Result<LiveGame, String> {
        let (mut game, after) = match rest.first() {
            Some(&"startpos") => (self.new_game(), &rest[1..]),
            Some(&"fen") => {
                let end = rest
                    .iter()
                    .position(|w| *w == "moves")
                    .unwrap_or(rest.len());
                let fen = rest[1..end].join(" ");
                let game = self
                    .start(Some(&fen))
                    .map_err(|e| format!("position fen '{fen}': {e}"))?;
                (game, &rest[end..])
            }
            _ => {
                return Err(format!(
                    "position needs 'startpos' or 'fen <{}>', then optionally 'moves …'",
                    self.position_name()
                ));
            }
        };
        match after.first() {
            None => {}
            Some(&"moves") => game.local_mut().play_tokens(&after[1..])?,
            Some(other) => return Err(format!("expected 'moves', found '{other}'")),
        }
        Ok(game)
    }
}

/// A move entered in the terminal, and what became of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entered {
    /// Played (the move).
    Played(String),
    /// Not complete yet (a Mühle mill without the stone to remove): the
    /// move so far and what to say.
    Incomplete(String, String),
    /// Refused, with the reason.
    Refused(String),
}

/// A player's action besides moving.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Offer a draw.
    OfferDraw,
    /// Accept the opponent's draw offer.
    AcceptDraw,
    /// Decline the opponent's draw offer.
    DeclineDraw,
    /// Resign.
    Resign,
}

/// How a front end draws each game's board (the terminal's pictures).
pub trait BoardArt {
    /// A Mühle position (and the move that led to it) with its status.
    fn muehle(&self, pos: &::muehle::Position, last: Option<::muehle::Move>) -> String;
    /// A Dame position with its status.
    fn dame(&self, pos: &::dame::Position) -> String;
}

/// A game as the command line and the engine protocol play it: moves in
/// the game's notation, the engine's searches, the terminal's and the
/// engine protocol's words. Object safe: one type for both games.
pub trait LocalGame: ServerGame {
    /// The game's name in the terminal: `Mühle`, `Dame`.
    fn title(&self) -> &'static str;
    /// The commands of `brett play`.
    fn help(&self) -> &'static str;
    /// Whether a match's record of a forfeited or adjudicated game gets
    /// the match's result in its `Result` tag (Mühle). Else (Dame, whose
    /// record's `Result` always follows the game's outcome) the game is
    /// ended before it is written: resigned by the side that forfeited,
    /// drawn by agreement when adjudicated.
    fn match_result_tag(&self) -> bool;
    /// A copy of the game.
    fn to_live(&self) -> LiveGame;

    /// Legal moves now (none when over).
    fn legal_moves(&self) -> Vec<String>;
    /// The moves in the record's notation.
    fn movetext(&self) -> String;
    /// The hash of the position now.
    fn hash(&self) -> u64;
    /// The board and its status lines, drawn by `art`.
    fn render(&self, art: &dyn BoardArt) -> String;
    /// The mover's phase in the prompt (` (placing)`).
    fn prompt_detail(&self) -> String {
        String::new()
    }
    /// The squares whose piece the side to move may huff (Dame).
    fn huffable(&self) -> Vec<String> {
        Vec::new()
    }
    /// What to ask while a move is incomplete.
    fn incomplete_prompt(&self) -> String {
        String::new()
    }
    /// The outcome for the engine protocol's `d`: the result and the words.
    fn outcome_detail(&self) -> Option<String>;
    /// The outcome's line in the terminal (`*** words (result) ***`).
    fn outcome_line(&self) -> Option<String> {
        self.ending()
            .map(|e| format!("*** {} ({}) ***", e.text, e.result()))
    }
    /// The side that lost by being blocked, if so.
    fn blocked_loser(&self) -> Option<Color> {
        None
    }

    /// Play a move in the game's notation.
    fn play_text(&mut self, text: &str) -> Result<(), String>;
    /// A move typed in the terminal (`partial`: an incomplete one before).
    fn enter(&mut self, text: &str, partial: Option<&str>) -> Entered;
    /// A command of this game only (Dame's `huff SQ`; `line` in lower
    /// case): `None` if `line` is none; else what to say (`Ok`: done, the
    /// board is drawn after it; `Err`: refused).
    fn command(&mut self, _line: &str) -> Option<Result<String, String>> {
        None
    }
    /// Offer, accept or decline a draw, or resign (for an offer: whether
    /// the game is drawn now).
    fn act(&mut self, action: Action, by: Color) -> Result<bool, String>;
    /// Take back the last action; what was taken back, in words.
    fn undo_last(&mut self) -> Result<String, String>;
    /// Play the words after `moves` of `position … moves …`.
    fn play_tokens(&mut self, tokens: &[&str]) -> Result<(), String>;

    /// The engine's huff before its move (Dame with huffing on): the
    /// square huffed.
    fn huff_for_engine(&mut self) -> Option<String> {
        None
    }
    /// The move `player` chooses with `engine` within `limits`.
    fn level_choice(
        &self,
        player: &mut engine::LevelPlayer,
        engine: &Engine,
        limits: Limits,
        stop: &AtomicBool,
    ) -> Option<String>;
    /// The engine protocol's search ([`crate::run_job`]): the best move and
    /// its line.
    fn protocol_search(
        &self,
        job: &SearchJob,
        stop: &AtomicBool,
        info: &mut dyn FnMut(&SearchInfo<String>),
    ) -> (Option<String>, Vec<String>);
    /// The best `lines` moves with `engine` within `limits`, with reasons;
    /// `info` hears each depth.
    fn analysis(
        &self,
        engine: &Engine,
        limits: Limits,
        lines: usize,
        stop: &AtomicBool,
        info: &mut dyn FnMut(&SearchInfo<String>),
    ) -> Analysis;
    /// The best move by a search to `depth` that evaluates with `weights`
    /// (the game's `eval::Weights`; anything else: the weights in use).
    fn best_move_with(
        &self,
        engine: &Engine,
        depth: u32,
        weights: &'static dyn Any,
    ) -> Option<String>;
    /// The databases' word on the position (`info string …` of the engine
    /// protocol).
    fn tablebase_note(&self) -> Option<String>;
    /// Perfect play by the databases, where they decide (Mühle after
    /// placing); `None` elsewhere.
    fn perfect_move(&self) -> Result<Option<String>, String> {
        Ok(None)
    }
    /// The databases' value of the position and of every move, as lines
    /// for `brett analyze` (none where they do not know it).
    fn perfect_play(&self) -> Vec<String> {
        Vec::new()
    }

    /// Perft divided by first moves.
    fn perft_divide(&self, depth: u32) -> Vec<(String, u64)>;
    /// Count the move sequences from the position.
    fn perft(&self, depth: u32) -> u64;
    /// The engine protocol's position for this game: the start (`startpos`
    /// or `fen …`) and the moves.
    fn engine_position(&self) -> Result<(String, Vec<String>), String>;
    /// The move in an engine's `bestmove` words, checked.
    fn engine_move(&self, words: &[String]) -> Result<String, String>;
}

/// The last lines of both games' `help`.
macro_rules! help_tail {
    () => {
        "  resign     resign the game
  show       draw the board again
  new        start a new game with the same rules
  help       this text
  quit       leave
"
    };
}
use help_tail;

/// The [`LocalGame`] methods that read alike in both games (`$g`: the
/// rules crate, `muehle` or `dame`; `$state`: the engine's searchable
/// position; `$live`: the [`LiveGame`] variant; `$why`: the reasons of a
/// line).
macro_rules! local_shared {
    ($g:ident, $state:ty, $live:ident, $why:expr) => {
        fn to_live(&self) -> $crate::LiveGame {
            $crate::LiveGame::$live(self.clone())
        }
        fn legal_moves(&self) -> Vec<String> {
            ::$g::Game::legal_moves(self)
                .iter()
                .map(|m| m.to_string())
                .collect()
        }
        fn movetext(&self) -> String {
            ::$g::Game::movetext(self)
        }
        fn hash(&self) -> u64 {
            self.position().hash()
        }
        fn play_text(&mut self, text: &str) -> Result<(), String> {
            self.play_str(text).map(|_| ()).map_err(|e| e.to_string())
        }
        fn act(&mut self, action: $crate::Action, by: ::boardgame::Color) -> Result<bool, String> {
            use $crate::Action;
            match action {
                Action::OfferDraw => ::$g::Game::offer_draw(self, by),
                Action::AcceptDraw => ::$g::Game::accept_draw(self, by).map(|()| true),
                Action::DeclineDraw => ::$g::Game::decline_draw(self, by).map(|()| false),
                Action::Resign => ::$g::Game::resign(self, by).map(|()| true),
            }
            .map_err(|e| e.to_string())
        }
        fn level_choice(
            &self,
            player: &mut engine::LevelPlayer,
            engine: &search::Engine,
            limits: search::Limits,
            stop: &std::sync::atomic::AtomicBool,
        ) -> Option<String> {
            $crate::search::level_choice(
                player,
                engine,
                &<$state>::new(*self.position()),
                &$crate::history(self.session()),
                limits,
                stop,
            )
        }
        fn protocol_search(
            &self,
            job: &$crate::SearchJob,
            stop: &std::sync::atomic::AtomicBool,
            info: &mut dyn FnMut(&search::SearchInfo<String>),
        ) -> (Option<String>, Vec<String>) {
            let (best, pv) = $crate::run_job(
                job,
                &<$state>::new(*self.position()),
                &$crate::history(self.session()),
                stop,
                &mut |i| info(&$crate::texts(i)),
            );
            (
                best.map(|m| m.to_string()),
                pv.iter().map(|m| m.to_string()).collect(),
            )
        }
        fn analysis(
            &self,
            engine: &search::Engine,
            limits: search::Limits,
            lines: usize,
            stop: &std::sync::atomic::AtomicBool,
            info: &mut dyn FnMut(&search::SearchInfo<String>),
        ) -> $crate::Analysis {
            let pos = *self.position();
            let result = engine.search(
                &<$state>::new(pos),
                &$crate::history(self.session()),
                limits,
                lines.max(1),
                stop,
                &mut |i| info(&$crate::texts(i)),
            );
            $crate::search::analysis_of(result, |pv, score| $why(&pos, pv, score))
        }
        fn best_move_with(
            &self,
            engine: &search::Engine,
            depth: u32,
            weights: &'static dyn std::any::Any,
        ) -> Option<String> {
            let pos = *self.position();
            let state = match weights.downcast_ref::<::$g::eval::Weights>() {
                Some(w) => <$state>::with_weights(pos, w),
                None => <$state>::new(pos),
            };
            $crate::search::depth_move(engine, &state, &$crate::history(self.session()), depth)
        }
        fn perft_divide(&self, depth: u32) -> Vec<(String, u64)> {
            ::$g::perft::perft_divide(self.position(), depth)
                .into_iter()
                .map(|(m, n)| (m.to_string(), n))
                .collect()
        }
        fn perft(&self, depth: u32) -> u64 {
            ::$g::perft::perft(self.position(), depth)
        }
    };
}
use local_shared;
