//! Game records: header tags and numbered moves, in the style of PGN.
//!
//! ```text
//! [White "Anna"]
//! [Black "Ben"]
//! [Date "2026.11.22"]
//! [Rules "standard"]
//! [Result "1-0"]
//! [Termination "blocked"]
//!
//! 1. d6 f4 2. d2 b4 3. b6 f6 ... 1-0
//! ```
//!
//! `Rules` holds the rule set ([`RuleSet`]'s text form), `FEN` the start
//! position when it is not the usual start, `Result` one of `1-0`, `0-1`,
//! `1/2-1/2`, `*`, and `Termination` the reason code of [`EndReason`].

use boardgame::record;

use crate::{Color, Game, GameError, Outcome, ParsePositionError, Position, RuleSet};

/// Error for a game record that cannot be read.
pub type RecordError = record::RecordError<Game>;

impl record::RecordGame for Game {
    type Rules = RuleSet;
    type PositionError = ParsePositionError;
    type MoveError = GameError;

    fn termination_codes() -> String {
        "two-stones, blocked, repetition, no-mill, agreement, resignation".to_string()
    }
}

impl From<ParsePositionError> for RecordError {
    fn from(e: ParsePositionError) -> RecordError {
        RecordError::Position(e)
    }
}

fn result_token(outcome: Option<Outcome>) -> &'static str {
    outcome.map_or("*", |o| o.result_str())
}

/// Whether a move-text token (its move number taken off) is a result.
fn is_result(token: &str) -> bool {
    matches!(token, "1-0" | "0-1" | "1/2-1/2" | "½-½" | "*")
}

/// Whether a move-text token (its move number taken off) is a move: not a
/// result, nor a removal written apart (`xb4`), which belongs to the move
/// before it.
fn is_move_token(token: &str) -> bool {
    let removal = token.len() > 1 && token.starts_with(['x', 'X']);
    !removal && !is_result(token)
}

impl Game {
    /// The game record (tags, a blank line, the numbered moves and the result).
    pub fn to_record(&self) -> String {
        self.to_record_with_comments(&[])
    }

    /// The game record with `comments[i]` as a `{…}` comment after move
    /// `i` (`None` or no entry: none), as [`Game::from_record`] keeps them
    /// ([`boardgame::Session::move_comments`]).
    pub fn to_record_with_comments(&self, comments: &[Option<String>]) -> String {
        let usual_start = self.start().fen() == Position::new(*self.rules()).fen();
        let updates = [
            ("Rules", Some(self.rules().to_string())),
            ("FEN", (!usual_start).then(|| self.start().fen())),
            ("Result", Some(result_token(self.outcome()).to_string())),
            (
                "Termination",
                self.outcome().map(|o| o.reason.code().to_string()),
            ),
        ];
        record::write_record(self.tags(), &updates, &self.movetext_with(comments))
    }

    /// The numbered moves and the result token, wrapped at 80 columns.
    pub fn movetext(&self) -> String {
        self.movetext_with(&[])
    }

    /// The move text with `comments[i]` after move `i`; Black's move after
    /// a comment gets its number again (`1... f4`), as PGN has it.
    fn movetext_with(&self, comments: &[Option<String>]) -> String {
        let mut tokens: Vec<String> = Vec::new();
        let comment = |i: usize| record::comment_at(comments, i);
        for (i, m) in self.moves().iter().enumerate() {
            let pos = self.position_at(i).expect("a position before every move");
            let renumber = i == 0 || comment(i - 1).is_some();
            match pos.turn() {
                Color::White => tokens.push(format!("{}. {m}", pos.move_number())),
                Color::Black if renumber => tokens.push(format!("{}... {m}", pos.move_number())),
                Color::Black => tokens.push(m.to_string()),
            }
            if let Some(c) = comment(i) {
                tokens.push(record::comment_token(c));
            }
        }
        tokens.push(result_token(self.outcome()).to_string());
        record::wrap_tokens(tokens)
    }

    /// Read a game record. Every move is checked against the rules.
    pub fn from_record(text: &str) -> Result<Game, RecordError> {
        // A ';' comment runs to the end of the line.
        fn without_comment(line: &str) -> &str {
            line.trim().split(';').next().unwrap_or("")
        }
        let (tags, lines) = record::split_record(text, |l| without_comment(l).trim().is_empty())?;
        let mut movetext = String::new();
        for line in lines {
            movetext.push_str(without_comment(line));
            movetext.push('\n');
        }
        // Remove {…} comments.
        let mut clean = String::with_capacity(movetext.len());
        let mut depth = 0usize;
        for c in movetext.chars() {
            match c {
                '{' => depth += 1,
                '}' if depth > 0 => depth -= 1,
                c if depth == 0 => clean.push(c),
                _ => {}
            }
        }
        if depth > 0 {
            return Err(RecordError::Unclosed);
        }
        let tag = |k: &str| record::find_tag(&tags, k).map(str::to_string);
        let rules: RuleSet = match tag("Rules") {
            Some(r) => r.parse()?,
            None => RuleSet::STANDARD,
        };
        let start = match tag("FEN") {
            Some(f) => Position::from_fen(&f, rules)?,
            None => Position::new(rules),
        };
        let mut game = Game::from_position(start);
        // Tokens: strip move numbers ("12." or "12..." possibly glued to the move).
        let mut move_tokens: Vec<(String, &str)> = Vec::new();
        let mut result: Option<&str> = None;
        let mut number = String::new();
        for raw in clean.split_whitespace() {
            if let Some(r) = result {
                return Err(RecordError::TrailingText(format!("{r} {raw}")));
            }
            if is_result(raw) {
                result = Some(raw);
                continue;
            }
            let tok = record::strip_move_number(raw, &mut number);
            if !tok.is_empty() {
                move_tokens.push((number.clone(), tok));
            }
        }
        // A removal written as a token of its own ("d6 xb4") joins the move before it.
        let mut moves: Vec<(String, String)> = Vec::new();
        for (number, tok) in move_tokens {
            let is_removal = tok.len() > 1 && tok.starts_with(['x', 'X']);
            match moves.last_mut() {
                Some((_, prev)) if is_removal && !prev.contains(['x', 'X']) => prev.push_str(tok),
                _ => moves.push((number, tok.to_string())),
            }
        }
        for (number, text) in moves {
            game.play_str(&text).map_err(|error| RecordError::Move {
                number,
                text,
                error,
            })?;
        }
        game.session_mut()
            .set_move_comments(record::move_comments(&movetext, is_move_token));
        let claimed = result.map(str::to_string).or_else(|| tag("Result"));
        let claimed = claimed.map(|c| {
            if c == "½-½" {
                "1/2-1/2".to_string()
            } else {
                c
            }
        });
        if let Some(actual) = game.outcome()
            && let Some(c) = &claimed
            && c != "*"
            && c != actual.result_str()
        {
            return Err(RecordError::ResultMismatch {
                claimed: c.clone(),
                actual: actual.describe(),
            });
        }
        let winner = match claimed.as_deref() {
            Some("1-0") => Some(Some(Color::White)),
            Some("0-1") => Some(Some(Color::Black)),
            Some("1/2-1/2") => Some(None),
            _ => None,
        };
        game.session_mut()
            .finish_record(claimed.as_deref(), winner, tags)?;
        Ok(game)
    }
}
