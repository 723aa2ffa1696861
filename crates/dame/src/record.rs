//! Game records in PDN (Portable Draughts Notation): header tags and
//! numbered moves.
//!
//! ```text
//! [Event "Club evening"]
//! [White "Anna"]
//! [Black "Ben"]
//! [GameType "20"]
//! [Rules "international"]
//! [Result "2-0"]
//! [Termination "blocked"]
//!
//! 1. 32-28 19-23 2. 28x19 14x23 ... 2-0
//! ```
//!
//! `GameType` follows the PDN standard: `20` for international draughts;
//! the leaflet variants, which have no standard number, use numbers of the
//! range the standard keeps for future draughts types: `42,W,8,8,A0,0`
//! (`dame`), `43,W,8,8,A0,0` (`dame-fr`), `44,W,10,10,N2,0` (`dame-100`).
//! `Rules` holds our exact rule set ([`RuleSet`]'s text form) and wins over
//! `GameType` when reading. `FEN` (with `SetUp "1"`) holds the start
//! position when it is not the usual one. `Result` is `1-0`, `0-1`,
//! `1/2-1/2` or `*` (for international draughts `2-0`, `0-2`, `1-1`, as the
//! PDN standard has it; both forms are read for every game type).
//! `Termination` holds the reason code of [`EndReason`]. A huff is written
//! as `H` and the removed square before the move it precedes: `H28 19-23`.

use boardgame::record;

use crate::{
    BoardSize, Color, EndReason, Game, GameError, Outcome, ParseFenError, Position, RuleSet, Setup,
    parse_huff_token,
};

/// Error for a game record that cannot be read.
pub type RecordError = record::RecordError<Game>;

impl record::RecordGame for Game {
    type Rules = RuleSet;
    type PositionError = ParseFenError;
    type MoveError = GameError;

    const GAME_TYPES: &'static str = "20 international, 42 dame, 43 dame-fr, 44 dame-100";

    fn termination_codes() -> String {
        EndReason::all_codes()
    }
}

impl From<ParseFenError> for RecordError {
    fn from(e: ParseFenError) -> RecordError {
        RecordError::Position(e)
    }
}

/// The PDN `GameType` value for a rule set: `20` when the rules are the
/// international ones (draw options aside), else the number of the leaflet
/// variant family with board and notation (see the module documentation).
pub fn game_type(rules: &RuleSet) -> &'static str {
    let mut core = *rules;
    core.king_move_draw = RuleSet::INTERNATIONAL.king_move_draw;
    core.repetition_draw = RuleSet::INTERNATIONAL.repetition_draw;
    core.one_king_each_draw = RuleSet::INTERNATIONAL.one_king_each_draw;
    core.king_vs_three_draw = RuleSet::INTERNATIONAL.king_vs_three_draw;
    core.king_vs_two_draw = RuleSet::INTERNATIONAL.king_vs_two_draw;
    if core == RuleSet::INTERNATIONAL {
        return "20";
    }
    match (rules.board, rules.men_capture_backward) {
        (BoardSize::Eight, false) => "42,W,8,8,A0,0",
        (BoardSize::Eight, true) => "43,W,8,8,A0,0",
        (BoardSize::Ten, _) => "44,W,10,10,N2,0",
    }
}

/// The rule set a `GameType` value stands for.
fn rules_of_game_type(value: &str) -> Result<RuleSet, RecordError> {
    let number = value.split(',').next().unwrap_or("").trim();
    match number {
        "20" => Ok(RuleSet::INTERNATIONAL),
        "42" => Ok(RuleSet::DAME),
        "43" => Ok(RuleSet::DAME_FR),
        "44" => Ok(RuleSet::DAME_100),
        _ => Err(RecordError::UnsupportedGameType(
            value.chars().take(40).collect(),
        )),
    }
}

fn result_token(rules: &RuleSet, outcome: Option<Outcome>) -> &'static str {
    let international = game_type(rules) == "20";
    match (outcome.map(|o| o.winner), international) {
        (None, _) => "*",
        (Some(Some(Color::White)), false) => "1-0",
        (Some(Some(Color::Black)), false) => "0-1",
        (Some(None), false) => "1/2-1/2",
        (Some(Some(Color::White)), true) => "2-0",
        (Some(Some(Color::Black)), true) => "0-2",
        (Some(None), true) => "1-1",
    }
}

/// The winner a result token stands for: `Some(Some(c))` a win,
/// `Some(None)` a draw, `None` no result (`*`).
fn result_winner(token: &str) -> Option<Option<Color>> {
    match token {
        "1-0" | "2-0" => Some(Some(Color::White)),
        "0-1" | "0-2" => Some(Some(Color::Black)),
        "1/2-1/2" | "1-1" | "½-½" => Some(None),
        _ => None,
    }
}

fn is_result(token: &str) -> bool {
    token == "*" || result_winner(token).is_some()
}

impl Game {
    /// The PDN record (tags, a blank line, the numbered moves and the
    /// result).
    pub fn to_pdn(&self) -> String {
        self.to_record_with_comments(&[])
    }

    /// The PDN record with `comments[i]` as a `{…}` comment after move `i`
    /// (`None` or no entry: none), as [`Game::from_pdn`] keeps them
    /// ([`boardgame::Session::move_comments`]).
    pub fn to_record_with_comments(&self, comments: &[Option<String>]) -> String {
        let usual_start = self.start().fen() == Position::new(*self.rules()).fen();
        let updates = [
            ("GameType", Some(game_type(self.rules()).to_string())),
            ("Rules", Some(self.rules().to_string())),
            ("SetUp", (!usual_start).then(|| "1".to_string())),
            ("FEN", (!usual_start).then(|| self.start().fen())),
            (
                "Result",
                Some(result_token(self.rules(), self.outcome()).to_string()),
            ),
            (
                "Termination",
                self.outcome().map(|o| o.reason.code().to_string()),
            ),
        ];
        record::write_record(self.tags(), &updates, &self.movetext_with(comments))
    }

    /// The game record: the same as [`Game::to_pdn`] (named like the Mühle
    /// crate's `Game::to_record`).
    pub fn to_record(&self) -> String {
        self.to_pdn()
    }

    /// Read a game record: the same as [`Game::from_pdn`].
    pub fn from_record(text: &str) -> Result<Game, RecordError> {
        Game::from_pdn(text)
    }

    /// The numbered moves (with huffs) and the result token, wrapped at 80
    /// columns. A huff made this turn and not yet followed by a move is
    /// written at the end.
    pub fn movetext(&self) -> String {
        self.movetext_with(&[])
    }

    /// The move text with `comments[i]` after move `i`; Black's move after
    /// a comment gets its number again (`1...`), as PGN has it.
    fn movetext_with(&self, comments: &[Option<String>]) -> String {
        let mut tokens: Vec<String> = Vec::new();
        let comment = |i: usize| record::comment_at(comments, i);
        let number = |i: usize, turn: Color, tokens: &mut Vec<String>| {
            let n = self.position_at(i).map_or(1, |p| p.move_number());
            match turn {
                Color::White => tokens.push(format!("{n}.")),
                Color::Black if i == 0 || comment(i - 1).is_some() => {
                    tokens.push(format!("{n}..."))
                }
                Color::Black => {}
            }
        };
        for (i, m) in self.moves().iter().enumerate() {
            let turn = self.position_at(i).map_or(Color::White, |p| p.turn());
            number(i, turn, &mut tokens);
            if let Some(h) = self.huffs()[i] {
                tokens.push(format!("H{h}"));
            }
            tokens.push(m.to_string());
            if let Some(c) = comment(i) {
                tokens.push(record::comment_token(c));
            }
        }
        if let Some(h) = self.pending_huff() {
            number(self.ply(), self.position().turn(), &mut tokens);
            tokens.push(format!("H{h}"));
        }
        tokens.push(result_token(self.rules(), self.outcome()).to_string());
        record::wrap_tokens(tokens)
    }

    /// Read a PDN record of one game. Every move is checked against the
    /// rules (see the module documentation for the tags).
    pub fn from_pdn(text: &str) -> Result<Game, RecordError> {
        let (tags, lines) = record::split_record(text, |l| l.trim().is_empty())?;
        let mut movetext = String::new();
        for line in lines {
            movetext.push_str(line);
            movetext.push('\n');
        }
        let clean = strip_comments(&movetext)?;
        let tag = |k: &str| record::find_tag(&tags, k).map(str::to_string);
        let rules: RuleSet = match (tag("Rules"), tag("GameType")) {
            (Some(r), _) => r.parse()?,
            (None, Some(gt)) => rules_of_game_type(&gt)?,
            (None, None) => guess_rules(tag("FEN").as_deref(), &clean),
        };
        let start = match tag("FEN") {
            Some(f) => Position::from_fen(&f, rules)?,
            None => Position::new(rules),
        };
        let mut game = Game::from_position(start);
        let mut result: Option<String> = None;
        let mut number = String::new();
        for raw in clean.split_whitespace() {
            if let Some(r) = &result {
                return Err(RecordError::TrailingText(format!(
                    "{r} {}",
                    raw.chars().take(40).collect::<String>()
                )));
            }
            if is_result(raw) {
                result = Some(raw.to_string());
                continue;
            }
            if raw.starts_with('$') {
                continue; // a numeric annotation glyph
            }
            let tok = record::strip_move_number(raw, &mut number);
            let tok = tok.trim_end_matches(['!', '?', '+']);
            if tok.is_empty() {
                continue;
            }
            let err = |error: GameError| RecordError::Move {
                number: number.clone(),
                text: tok.chars().take(40).collect(),
                error,
            };
            if let Some(sq) = parse_huff_token(tok, rules.board) {
                game.huff(sq).map_err(err)?;
            } else {
                game.play_str(tok).map_err(err)?;
            }
        }
        game.session_mut()
            .set_move_comments(record::move_comments(&movetext, |t| {
                let t = t.trim_end_matches(['!', '?', '+']);
                !t.is_empty()
                    && !is_result(t)
                    && !t.starts_with('$')
                    && parse_huff_token(t, rules.board).is_none()
            }));
        let claimed = result.or_else(|| tag("Result"));
        if let Some(actual) = game.outcome()
            && let Some(c) = &claimed
            && let Some(w) = result_winner(c)
            && w != actual.winner
        {
            return Err(RecordError::ResultMismatch {
                claimed: c.clone(),
                actual: actual.describe(),
            });
        }
        let winner = claimed.as_deref().and_then(result_winner);
        game.session_mut()
            .finish_record(claimed.as_deref(), winner, tags)?;
        Ok(game)
    }
}

/// The rules of a record with neither `Rules` nor `GameType`: `dame` when
/// the squares are algebraic, else international draughts (PDN's default
/// game type 20).
fn guess_rules(fen: Option<&str>, movetext: &str) -> RuleSet {
    if let Some(f) = fen
        && let Ok(setup) = f.parse::<Setup>()
    {
        return match setup.size {
            BoardSize::Eight => RuleSet::DAME,
            BoardSize::Ten => RuleSet::INTERNATIONAL,
        };
    }
    for tok in movetext.split_whitespace() {
        let digits = tok.chars().take_while(|c| c.is_ascii_digit()).count();
        let rest = tok[digits..].trim_start_matches('.');
        if is_result(tok) || rest.is_empty() || tok.starts_with('$') {
            continue;
        }
        let b = rest.as_bytes();
        if !b[0].is_ascii_alphabetic() {
            return RuleSet::INTERNATIONAL;
        }
        let numeric_huff =
            matches!(b[0], b'H' | b'h') && b.len() > 1 && b[1..].iter().all(u8::is_ascii_digit);
        return if numeric_huff {
            RuleSet::INTERNATIONAL
        } else {
            RuleSet::DAME
        };
    }
    RuleSet::DAME
}

/// Remove `{…}` comments, `(…)` variations and `;` line comments.
fn strip_comments(text: &str) -> Result<String, RecordError> {
    let mut out = String::with_capacity(text.len());
    let mut brace = false;
    let mut paren = 0usize;
    let mut line_comment = false;
    for c in text.chars() {
        if line_comment {
            if c == '\n' {
                line_comment = false;
                out.push(' ');
            }
            continue;
        }
        if brace {
            if c == '}' {
                brace = false;
                out.push(' ');
            }
            continue;
        }
        match c {
            '{' => brace = true,
            '(' => paren += 1,
            ')' if paren > 0 => {
                paren -= 1;
                out.push(' ');
            }
            ';' if paren == 0 => line_comment = true,
            c if paren == 0 => out.push(c),
            _ => {}
        }
    }
    if brace || paren > 0 {
        return Err(RecordError::Unclosed);
    }
    Ok(out)
}
