//! brett's two games behind one interface for the commands: [`Variant`]
//! (what `--game` names, from the catalogue crate `games`), [`Setup`] (the game with its rules, read once
//! from `--game` and `--rules`) and [`CliGame`] (a game being played, as
//! the commands use it: `play`, `analyze`, `perft`, `match`, `engine`),
//! implemented by `muehle::Game` and `dame::Game`.

use std::fmt;

use anyhow::{Context, Result, anyhow, bail};
use engine::{Choice, DameState, LevelPlayer, MuehleState};
use muehle::Color;
use search::{Engine, Limits};

/// Help text for `--rules`.
pub const RULES_HELP: &str = "Rule set: a preset (standard, ravensburger, seed-000, no-flying), optionally followed by options, e.g. 'standard,flying=off,no-mill=40'. Options: removal=tournament|strict, flying=on|off, no-mill=N|off (plies), repetition=N|off";

/// The games `--game` selects: the catalogue's.
pub use games::{Family, Variant};

/// Parse a Mühle `--rules`.
pub fn parse_rules(s: &str) -> Result<muehle::RuleSet> {
    s.parse::<muehle::RuleSet>().context("--rules")
}

/// The Dame rule set of `game`, with `--rules` (a preset, or options
/// `key=value,…` applied to the game's preset).
pub fn dame_rules(game: Variant, rules: Option<&str>) -> Result<dame::RuleSet> {
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
    text.parse::<dame::RuleSet>().context("--rules")
}

/// A game and its rules: `--game` and `--rules` read once.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Setup {
    /// Mühle under these rules.
    Muehle(muehle::RuleSet),
    /// A Dame game (which `--game` named) under these rules.
    Dame(Variant, dame::RuleSet),
}

impl Setup {
    /// `--game` with `--rules`: for Mühle a preset with options (none:
    /// standard); for Dame a preset or options applied to the game's preset
    /// (none, or `standard` — the flag's default — : the game's preset).
    pub fn parse(kind: Variant, rules: Option<&str>) -> Result<Setup> {
        match kind.family() {
            Family::Muehle => Ok(Setup::Muehle(parse_rules(
                rules.unwrap_or(kind.default_rules()),
            )?)),
            Family::Dame => {
                let rules = rules.filter(|r| *r != "standard");
                Ok(Setup::Dame(kind, dame_rules(kind, rules)?))
            }
        }
    }

    /// The game.
    pub fn kind(self) -> Variant {
        match self {
            Setup::Muehle(_) => Variant::Muehle,
            Setup::Dame(kind, _) => kind,
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
            Setup::Dame(kind, r) => {
                let mut lines = vec![format!("setoption name Game value {}", kind.name())];
                if dame_rules(kind, None).ok() != Some(r) {
                    lines.push(format!("setoption name Rules value {r}"));
                }
                lines
            }
        }
    }
}

/// A move entered in the terminal, and what became of it.
pub enum Entered<M> {
    /// Played.
    Played(M),
    /// Not complete yet (a Mühle mill without the stone to remove): the
    /// move so far and what to say.
    Incomplete(M, String),
    /// Refused, with the reason.
    Refused(String),
}

/// A game being played, as the commands use it: the position and moves,
/// the search's view, the terminal's and the engine protocol's words.
pub trait CliGame: Clone + Send + Sized + 'static {
    /// A position.
    type Position: Copy + Send + Sync + 'static;
    /// A move.
    type Move: Copy + PartialEq + fmt::Display + Send + Sync + 'static;
    /// The rules.
    type Rules: Copy + PartialEq + fmt::Display + Send + Sync + 'static;
    /// The position as the search sees it.
    type State: search::Game<Move = Self::Move>;

    /// The game's name in the terminal: `Mühle`, `Dame`.
    const TITLE: &'static str;
    /// What a position string is called in messages.
    const POSITION_NAME: &'static str;
    /// The commands of `brett play`.
    const HELP: &'static str;
    /// Whether a match's record of a forfeited or adjudicated game gets
    /// the match's result in its `Result` tag (Mühle). Else (Dame, whose
    /// record's `Result` always follows the game's outcome) the game is
    /// ended before it is written: resigned by the side that forfeited,
    /// drawn by agreement when adjudicated.
    const MATCH_RESULT_TAG: bool;

    /// The start position of `rules`.
    fn start_position(rules: Self::Rules) -> Self::Position;
    /// Read a position string (Mühle) or FEN (Dame) under `rules`.
    fn read_position(text: &str, rules: Self::Rules) -> Result<Self::Position, String>;
    /// A game from `start`.
    fn from_start(start: Self::Position) -> Self;
    /// A game from the start position of `rules`.
    fn new_game(rules: Self::Rules) -> Self {
        Self::from_start(Self::start_position(rules))
    }
    /// The start position, or `position` under `rules` (for `--position`).
    fn start_or(rules: Self::Rules, position: Option<&str>) -> Result<Self::Position> {
        match position {
            None => Ok(Self::start_position(rules)),
            Some(s) => Self::read_position(s, rules)
                .map_err(anyhow::Error::msg)
                .with_context(|| format!("position '{s}'")),
        }
    }

    /// The rules.
    fn rules(&self) -> Self::Rules;
    /// The side to move.
    fn turn(&self) -> Color;
    /// Moves played.
    fn ply(&self) -> usize;
    /// The hash of the position after `ply` moves.
    fn hash_at(&self, ply: usize) -> Option<u64>;
    /// The hashes of the positions before the current one (for the
    /// search's repetition draws).
    fn history(&self) -> Vec<u64> {
        (0..self.ply()).filter_map(|i| self.hash_at(i)).collect()
    }
    /// The position now, as the search sees it.
    fn searchable(&self) -> Self::State;
    /// Whether the game is over.
    fn is_over(&self) -> bool;
    /// The outcome: the winner and the words.
    fn outcome(&self) -> Option<(Option<Color>, String)>;
    /// The outcome's line in the terminal (`*** words (result) ***`).
    fn outcome_line(&self) -> Option<String>;
    /// Legal moves now (none when over).
    fn legal_moves(&self) -> Vec<Self::Move>;
    /// Play a move.
    fn play(&mut self, m: Self::Move) -> Result<()>;
    /// The moves in the record's notation.
    fn movetext(&self) -> String;
    /// Set a tag of the record.
    fn set_tag(&mut self, key: &str, value: &str);
    /// The game record.
    fn to_record(&self) -> String;

    /// Offer a draw (whether the game is drawn now).
    fn offer_draw(&mut self, by: Color) -> Result<bool, String>;
    /// Accept the opponent's offer.
    fn accept_draw(&mut self, by: Color) -> Result<(), String>;
    /// Decline the opponent's offer.
    fn decline_draw(&mut self, by: Color) -> Result<(), String>;
    /// Resign.
    fn resign(&mut self, by: Color) -> Result<(), String>;
    /// The side whose draw offer stands.
    fn draw_offer(&self) -> Option<Color>;
    /// Take back the last action; what was taken back, in words.
    fn undo(&mut self) -> Result<String, String>;

    /// The board and its status lines.
    fn render(&self) -> String;
    /// The mover's phase in the prompt (` (placing)`).
    fn prompt_detail(&self) -> String {
        String::new()
    }
    /// The squares whose piece the side to move may huff (Dame).
    fn huffable(&self) -> Vec<String> {
        Vec::new()
    }
    /// A move typed in the terminal (`partial`: an incomplete one before).
    fn enter(&mut self, text: &str, partial: Option<Self::Move>) -> Entered<Self::Move>;
    /// What to ask while a move is incomplete.
    fn incomplete_prompt(&self) -> String {
        String::new()
    }
    /// A command of this game only (Dame's `huff SQ`; `line` in lower
    /// case): `None` if `line` is none; else what to say (`Ok`: done, the
    /// board is drawn after it; `Err`: refused).
    fn command(&mut self, _line: &str) -> Option<Result<String, String>> {
        None
    }
    /// The engine's huff before its move (Dame with huffing on): the
    /// square huffed.
    fn huff_for_engine(&mut self) -> Option<String> {
        None
    }
    /// The databases' word on the position (`info string …` of the engine
    /// protocol).
    fn tablebase_note(&self) -> Option<String>;
    /// Perfect play by the databases, where they decide (Mühle after
    /// placing); `None` elsewhere.
    fn perfect_move(&self) -> Result<Option<Self::Move>> {
        Ok(None)
    }
    /// The side that lost by being blocked, if so.
    fn blocked_loser(&self) -> Option<Color> {
        None
    }

    /// The position now as a position string / FEN.
    fn fen(&self) -> String;
    /// The hash of the position now.
    fn hash(&self) -> u64;
    /// The outcome for the engine protocol's `d`: the result and the words.
    fn outcome_detail(&self) -> Option<String>;
    /// Perft divided by first moves.
    fn perft_divide(&self, depth: u32) -> Vec<(String, u64)>;
    /// Count the move sequences from the position.
    fn perft(&self, depth: u32) -> u64;
    /// Play the words after `moves` of `position … moves …`.
    fn play_tokens(&mut self, tokens: &[&str]) -> Result<(), String>;
    /// The engine protocol's position for this game: the start (`startpos`
    /// or `fen …`) and the moves.
    fn engine_position(&self) -> Result<(String, Vec<String>)>;
    /// The move in an engine's `bestmove` words.
    fn engine_move(&self, words: &[String]) -> Result<Self::Move, String>;
}

/// `position startpos|fen <position> [moves …]` (the words after `position`).
pub fn parse_position<G: CliGame>(rules: G::Rules, rest: &[&str]) -> Result<G, String> {
    let (start, after) = match rest.first() {
        Some(&"startpos") => (G::start_position(rules), &rest[1..]),
        Some(&"fen") => {
            let end = rest
                .iter()
                .position(|w| *w == "moves")
                .unwrap_or(rest.len());
            let fen = rest[1..end].join(" ");
            let pos =
                G::read_position(&fen, rules).map_err(|e| format!("position fen '{fen}': {e}"))?;
            (pos, &rest[end..])
        }
        _ => {
            return Err(format!(
                "position needs 'startpos' or 'fen <{}>', then optionally 'moves …'",
                G::POSITION_NAME
            ));
        }
    };
    let mut game = G::from_start(start);
    match after.first() {
        None => {}
        Some(&"moves") => game.play_tokens(&after[1..])?,
        Some(other) => return Err(format!("expected 'moves', found '{other}'")),
    }
    Ok(game)
}

/// The move a level chooses in `game` (searching with `engine` within `limits`).
pub fn level_choice<G: CliGame>(
    level: &mut LevelPlayer,
    engine: &Engine,
    game: &G,
    limits: Limits,
) -> Option<Choice<G::Move>> {
    let stop = std::sync::atomic::AtomicBool::new(false);
    level.choose(
        engine,
        &game.searchable(),
        &game.history(),
        limits,
        &stop,
        &mut |_| {},
    )
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

/// The [`CliGame`] methods that read alike in both games (`$g`: the rules
/// crate, `muehle` or `dame`).
macro_rules! shared_methods {
    ($g:ident) => {
        fn start_position(rules: $g::RuleSet) -> $g::Position {
            $g::Position::new(rules)
        }
        fn read_position(text: &str, rules: $g::RuleSet) -> Result<$g::Position, String> {
            $g::Position::from_fen(text, rules).map_err(|e| e.to_string())
        }
        fn from_start(start: $g::Position) -> Self {
            $g::Game::from_position(start)
        }
        fn rules(&self) -> $g::RuleSet {
            *$g::Game::rules(self)
        }
        fn turn(&self) -> Color {
            self.position().turn()
        }
        fn ply(&self) -> usize {
            $g::Game::ply(self)
        }
        fn hash_at(&self, ply: usize) -> Option<u64> {
            self.position_at(ply).map(|p| p.hash())
        }
        fn is_over(&self) -> bool {
            $g::Game::is_over(self)
        }
        fn outcome(&self) -> Option<(Option<Color>, String)> {
            $g::Game::outcome(self).map(|o| (o.winner, o.describe()))
        }
        fn outcome_line(&self) -> Option<String> {
            $g::Game::outcome(self)
                .map(|o| format!("*** {} ({}) ***", o.describe(), o.result_str()))
        }
        fn legal_moves(&self) -> Vec<$g::Move> {
            $g::Game::legal_moves(self).to_vec()
        }
        fn movetext(&self) -> String {
            $g::Game::movetext(self)
        }
        fn set_tag(&mut self, key: &str, value: &str) {
            $g::Game::set_tag(self, key, value);
        }
        fn to_record(&self) -> String {
            $g::Game::to_record(self)
        }
        fn offer_draw(&mut self, by: Color) -> Result<bool, String> {
            $g::Game::offer_draw(self, by).map_err(|e| e.to_string())
        }
        fn accept_draw(&mut self, by: Color) -> Result<(), String> {
            $g::Game::accept_draw(self, by).map_err(|e| e.to_string())
        }
        fn decline_draw(&mut self, by: Color) -> Result<(), String> {
            $g::Game::decline_draw(self, by).map_err(|e| e.to_string())
        }
        fn resign(&mut self, by: Color) -> Result<(), String> {
            $g::Game::resign(self, by).map_err(|e| e.to_string())
        }
        fn draw_offer(&self) -> Option<Color> {
            $g::Game::draw_offer(self)
        }
        fn fen(&self) -> String {
            self.position().fen()
        }
        fn hash(&self) -> u64 {
            self.position().hash()
        }
        fn perft_divide(&self, depth: u32) -> Vec<(String, u64)> {
            $g::perft::perft_divide(self.position(), depth)
                .into_iter()
                .map(|(m, n)| (m.to_string(), n))
                .collect()
        }
        fn perft(&self, depth: u32) -> u64 {
            $g::perft::perft(self.position(), depth)
        }
    };
}

impl CliGame for muehle::Game {
    type Position = muehle::Position;
    type Move = muehle::Move;
    type Rules = muehle::RuleSet;
    type State = MuehleState;

    const TITLE: &'static str = "Mühle";
    const POSITION_NAME: &'static str = "position string";
    const HELP: &'static str = concat!(
        "\
Commands:
  d6, g7-g4, d6xb4, f2-f4xd5   play a move (place, slide or fly; xSQ removes a stone after a mill)
  moves      list the legal moves
  hint       the engine's suggestion
  list       the moves played so far (game record)
  undo       take back the last move
  draw       offer a draw (the opponent answers with 'accept', or declines by moving)
  accept     accept the opponent's draw offer
  decline    decline the opponent's draw offer
",
        help_tail!()
    );
    const MATCH_RESULT_TAG: bool = true;

    shared_methods!(muehle);

    fn searchable(&self) -> MuehleState {
        MuehleState::new(*self.position())
    }
    fn play(&mut self, m: muehle::Move) -> Result<()> {
        Ok(muehle::Game::play(self, m)?)
    }
    fn undo(&mut self) -> Result<String, String> {
        muehle::Game::undo(self)
            .map(|m| m.to_string())
            .map_err(|e| e.to_string())
    }
    fn render(&self) -> String {
        let last = self.moves().last().copied();
        let mut text = crate::terminal::render(self.position(), last);
        text.push_str(&crate::terminal::status(self.position()));
        text
    }
    fn prompt_detail(&self) -> String {
        let pos = self.position();
        format!(" ({})", pos.phase(pos.turn()).name())
    }
    fn enter(&mut self, text: &str, partial: Option<muehle::Move>) -> Entered<muehle::Move> {
        use muehle::{GameError, Move, MoveError};
        let m = match partial {
            None => match Move::parse(text) {
                Ok(m) => m,
                Err(e) => return Entered::Refused(format!("{e}. Type 'help' for the commands.")),
            },
            Some(m) => match text.trim_start_matches(['x', 'X']).parse() {
                Ok(r) => m.with_removal(r),
                Err(e) => return Entered::Incomplete(m, e.to_string()),
            },
        };
        match muehle::Game::play(self, m) {
            Ok(()) => Entered::Played(m),
            Err(GameError::Move(MoveError::RemovalRequired { removable, .. })) => {
                Entered::Incomplete(m, format!("{m} closes a mill. Removable: {removable}."))
            }
            Err(e) => Entered::Refused(e.to_string()),
        }
    }
    fn incomplete_prompt(&self) -> String {
        format!("Mill! {} removes which stone? ", self.turn().title())
    }
    fn tablebase_note(&self) -> Option<String> {
        let pos = self.position();
        let tb = engine::muehle::databases::for_rules(pos.rules())?;
        match tb.probe(pos) {
            Ok(Some(v)) => Some(format!(
                "tablebase {v} ({})",
                engine::muehle::databases::verdict(pos.turn(), v)
            )),
            Ok(None) => None,
            Err(e) => Some(format!("tablebase unavailable: {e}")),
        }
    }
    fn perfect_move(&self) -> Result<Option<muehle::Move>> {
        let pos = self.position();
        if pos.in_hand(Color::White) > 0 || pos.in_hand(Color::Black) > 0 || self.is_over() {
            return Ok(None);
        }
        if let Some(mut moves) = engine::muehle::databases::probe_moves(pos) {
            moves.sort_by_key(|&(_, e, pref)| std::cmp::Reverse((e.rank(), pref)));
            return Ok(moves.first().map(|m| m.0));
        }
        // The no-mill counter may make a database distance unreachable
        // (the engine then does not take it as exact): the databases' best
        // move all the same, as Malom plays.
        let held = engine::muehle::databases::for_rules(pos.rules())
            .and_then(|tb| tb.probe_moves(pos).ok().flatten());
        match held {
            Some(moves) => Ok(moves.first().map(|m| m.0)),
            None => bail!(
                "'perfect': the databases do not hold {} (build them with `brett tablebase build --rules {}`)",
                pos.fen(),
                pos.rules()
            ),
        }
    }
    fn blocked_loser(&self) -> Option<Color> {
        match muehle::Game::outcome(self) {
            Some(o) if o.reason == muehle::EndReason::Blocked => o.winner.map(|w| !w),
            _ => None,
        }
    }
    fn outcome_detail(&self) -> Option<String> {
        muehle::Game::outcome(self)
            .map(|o| format!("{} ({}, {})", o.result_str(), o.reason.code(), o.describe()))
    }
    fn play_tokens(&mut self, tokens: &[&str]) -> Result<(), String> {
        for (i, text) in muehle::join_removal_tokens(tokens.iter().copied())
            .iter()
            .enumerate()
        {
            self.play_str(text)
                .map_err(|e| format!("move {} '{text}': {e}", i + 1))?;
        }
        Ok(())
    }
    fn engine_position(&self) -> Result<(String, Vec<String>)> {
        let moves = self.moves().iter().map(|m| m.to_string()).collect();
        let start = if self.start().fen() == muehle::Position::new(*self.start().rules()).fen() {
            "startpos".to_string()
        } else {
            format!("fen {}", self.start().fen())
        };
        Ok((start, moves))
    }
    fn engine_move(&self, words: &[String]) -> Result<muehle::Move, String> {
        // The removal may come as its own token: "bestmove d6 xb4".
        let text: String = words.concat();
        self.position()
            .parse_move(&text)
            .map_err(|e| format!("an illegal move '{text}': {e}"))
    }
}

impl CliGame for dame::Game {
    type Position = dame::Position;
    type Move = dame::Move;
    type Rules = dame::RuleSet;
    type State = DameState;

    const TITLE: &'static str = "Dame";
    const POSITION_NAME: &'static str = "FEN";
    const HELP: &'static str = concat!(
        "\
Commands:
  c3-d4, c3xe5, c3xe5xg7 (8x8) or 32-28, 28x19x10 (10x10)   play a move
             (a capture may be given by start and end alone when that is unique)
  huff SQ    remove the opponent's piece on SQ that skipped a capture (huffing on)
  moves      list the legal moves
  hint       the engine's suggestion
  list       the moves played so far
  undo       take back the last move
  draw       offer a draw;  accept / decline the opponent's offer
",
        help_tail!()
    );
    const MATCH_RESULT_TAG: bool = false;

    shared_methods!(dame);

    fn searchable(&self) -> DameState {
        DameState::new(*self.position())
    }
    fn play(&mut self, m: dame::Move) -> Result<()> {
        Ok(dame::Game::play(self, &m)?)
    }
    fn undo(&mut self) -> Result<String, String> {
        match dame::Game::undo(self) {
            Ok(dame::Undone::Move(m)) => Ok(m.to_string()),
            Ok(dame::Undone::Huff(sq)) => Ok(format!("the huff on {}", sq.name())),
            Err(e) => Err(e.to_string()),
        }
    }
    fn render(&self) -> String {
        let mut text = crate::terminal::render_dame(self.position());
        text.push_str(&crate::terminal::dame_status(self.position()));
        text
    }
    fn huffable(&self) -> Vec<String> {
        dame::Game::huffable(self)
            .squares(self.position().size())
            .map(|s| s.name().to_string())
            .collect()
    }
    fn enter(&mut self, text: &str, _partial: Option<dame::Move>) -> Entered<dame::Move> {
        match self.play_str(text) {
            Ok(m) => Entered::Played(m),
            Err(e) => Entered::Refused(format!("{e}. Type 'help' for the commands.")),
        }
    }
    fn command(&mut self, line: &str) -> Option<Result<String, String>> {
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        if !word.eq_ignore_ascii_case("huff") {
            return None;
        }
        let turn = self.turn();
        Some(match self.huff_str(rest.trim()) {
            Ok(sq) => Ok(format!(
                "{} huffs the piece on {}.",
                turn.title(),
                sq.name()
            )),
            Err(e) => Err(e.to_string()),
        })
    }
    fn huff_for_engine(&mut self) -> Option<String> {
        let sq = engine::dame::best_huff(self)?;
        self.huff(sq).ok()?;
        Some(sq.name().to_string())
    }
    fn tablebase_note(&self) -> Option<String> {
        let v = engine::dame::databases::installed()?.probe_value(self.position())?;
        Some(format!(
            "tablebase {v} ({})",
            engine::dame::databases::verdict(v)
        ))
    }
    fn outcome_detail(&self) -> Option<String> {
        dame::Game::outcome(self).map(|o| format!("{} ({})", o.result_str(), o.describe()))
    }
    fn play_tokens(&mut self, tokens: &[&str]) -> Result<(), String> {
        let size = self.position().size();
        for (i, text) in tokens.iter().enumerate() {
            // A huff is `H` and one square of the board; anything else is a
            // move (`h2-g3`, `h4xf6` on 8×8 are moves): the one rule of
            // `dame::parse_huff_token`.
            let result = match dame::parse_huff_token(text, size) {
                Some(sq) => self.huff(sq),
                None => self.play_str(text).map(|_| ()),
            };
            result.map_err(|e| format!("move {} '{text}': {e}", i + 1))?;
        }
        Ok(())
    }
    fn engine_position(&self) -> Result<(String, Vec<String>)> {
        let mut moves: Vec<String> = self.moves().iter().map(|m| m.to_string()).collect();
        // Engines before this version read a move starting with `h` (8×8:
        // `h2-g3`) as a huff: such a move is sent as the position after it.
        let cut = moves
            .iter()
            .rposition(|m| m.starts_with(['h', 'H']))
            .map_or(0, |i| i + 1);
        let start = if cut > 0 {
            let at = self
                .position_at(cut)
                .ok_or_else(|| anyhow!("no position after move {cut}"))?;
            format!("fen {}", at.fen())
        } else if self
            .start()
            .same_position(&dame::Position::new(*self.start().rules()))
        {
            "startpos".to_string()
        } else {
            format!("fen {}", self.start().fen())
        };
        moves.drain(..cut);
        Ok((start, moves))
    }
    fn engine_move(&self, words: &[String]) -> Result<dame::Move, String> {
        let word = words.first().map_or("", String::as_str);
        self.position()
            .parse_move(word)
            .map_err(|e| format!("an illegal move '{word}': {e}"))
    }
}
