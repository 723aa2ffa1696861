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

use crate::{
    Color, EndReason, Game, GameError, Outcome, ParsePositionError, ParseRulesError, Position,
    RuleSet,
};

/// Error for a game record that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    #[error("line {line}: a header tag looks like [Name \"value\"]: {text}")]
    BadTag { line: usize, text: String },
    #[error("the Rules tag: {0}")]
    Rules(#[from] ParseRulesError),
    #[error("the FEN tag: {0}")]
    Position(#[from] ParsePositionError),
    #[error("move {number} ('{text}'): {error}")]
    Move {
        number: String,
        text: String,
        error: GameError,
    },
    #[error(
        "unknown Termination '{0}' (known: two-stones, blocked, repetition, no-mill, agreement, resignation)"
    )]
    BadTermination(String),
    #[error("the record says {claimed} but the moves lead to {actual}")]
    ResultMismatch { claimed: String, actual: String },
    #[error("'{0}' after the result")]
    TrailingText(String),
    #[error("unclosed comment")]
    UnclosedComment,
}

/// A tag value as written between the quotes. A record holds one tag a line,
/// so line breaks in a value are written as spaces.
fn escape(v: &str) -> String {
    v.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace(['\r', '\n'], " ")
}

/// A tag name as written: letters, digits and `_` only (what the reader
/// accepts); any other character is written as `_`.
fn tag_name(k: &str) -> String {
    let name: String = k
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if name.is_empty() {
        "_".to_string()
    } else {
        name
    }
}

fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?.trim();
    let (key, rest) = inner.split_once(char::is_whitespace)?;
    let rest = rest.trim();
    let body = rest.strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => value.push(chars.next()?),
            '"' => return None,
            c => value.push(c),
        }
    }
    if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    Some((key.to_string(), value))
}

fn result_token(outcome: Option<Outcome>) -> &'static str {
    outcome.map_or("*", |o| o.result_str())
}

impl Game {
    /// The game record (tags, a blank line, the numbered moves and the result).
    pub fn to_record(&self) -> String {
        let mut tags = self.tags().to_vec();
        let upsert = |tags: &mut Vec<(String, String)>, k: &str, v: String| match tags
            .iter_mut()
            .find(|(key, _)| key == k)
        {
            Some(e) => e.1 = v,
            None => tags.push((k.to_string(), v)),
        };
        let remove = |tags: &mut Vec<(String, String)>, k: &str| tags.retain(|(key, _)| key != k);
        upsert(&mut tags, "Rules", self.rules().to_string());
        if self.start().fen() == Position::new(*self.rules()).fen() {
            remove(&mut tags, "FEN");
        } else {
            upsert(&mut tags, "FEN", self.start().fen());
        }
        upsert(
            &mut tags,
            "Result",
            result_token(self.outcome()).to_string(),
        );
        match self.outcome() {
            Some(o) => upsert(&mut tags, "Termination", o.reason.code().to_string()),
            None => remove(&mut tags, "Termination"),
        }
        let mut out = String::new();
        for (k, v) in &tags {
            out.push_str(&format!("[{} \"{}\"]\n", tag_name(k), escape(v)));
        }
        out.push('\n');
        out.push_str(&self.movetext());
        out.push('\n');
        out
    }

    /// The numbered moves and the result token, wrapped at 80 columns.
    pub fn movetext(&self) -> String {
        let mut tokens: Vec<String> = Vec::new();
        for (i, m) in self.moves().iter().enumerate() {
            let pos = self.position_at(i).expect("a position before every move");
            match pos.turn() {
                Color::White => tokens.push(format!("{}. {m}", pos.move_number())),
                Color::Black if i == 0 => tokens.push(format!("{}... {m}", pos.move_number())),
                Color::Black => tokens.push(m.to_string()),
            }
        }
        tokens.push(result_token(self.outcome()).to_string());
        let mut out = String::new();
        let mut line_len = 0;
        for t in tokens {
            if line_len > 0 && line_len + 1 + t.len() > 80 {
                out.push('\n');
                line_len = 0;
            } else if line_len > 0 {
                out.push(' ');
                line_len += 1;
            }
            out.push_str(&t);
            line_len += t.len();
        }
        out
    }

    /// Read a game record. Every move is checked against the rules.
    pub fn from_record(text: &str) -> Result<Game, RecordError> {
        let mut tags: Vec<(String, String)> = Vec::new();
        let mut movetext = String::new();
        for (n, line) in text.lines().enumerate() {
            let trimmed = line.trim();
            if trimmed.starts_with('[') && movetext.trim().is_empty() {
                let tag = parse_tag(trimmed).ok_or_else(|| RecordError::BadTag {
                    line: n + 1,
                    text: trimmed.chars().take(80).collect(),
                })?;
                tags.push(tag);
            } else {
                // a ';' comment runs to the end of the line
                movetext.push_str(trimmed.split(';').next().unwrap_or(""));
                movetext.push('\n');
            }
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
            return Err(RecordError::UnclosedComment);
        }
        let tag = |k: &str| {
            tags.iter()
                .find(|(key, _)| key == k)
                .map(|(_, v)| v.clone())
        };
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
            if matches!(raw, "1-0" | "0-1" | "1/2-1/2" | "½-½" | "*") {
                result = Some(raw);
                continue;
            }
            let digits = raw.chars().take_while(|c| c.is_ascii_digit()).count();
            let rest = &raw[digits..];
            let tok = if digits > 0 && rest.starts_with('.') {
                number = raw[..digits].to_string();
                rest.trim_start_matches('.')
            } else {
                raw
            };
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
        let termination = tag("Termination");
        let claimed = result.map(str::to_string).or_else(|| tag("Result"));
        let claimed = claimed.map(|c| {
            if c == "½-½" {
                "1/2-1/2".to_string()
            } else {
                c
            }
        });
        match game.outcome() {
            Some(actual) => {
                if let Some(c) = &claimed
                    && c != "*"
                    && c != actual.result_str()
                {
                    return Err(RecordError::ResultMismatch {
                        claimed: c.clone(),
                        actual: actual.describe(),
                    });
                }
            }
            None => {
                let reason = match termination.as_deref() {
                    Some(t) => Some(
                        EndReason::from_code(t)
                            .ok_or_else(|| RecordError::BadTermination(t.to_string()))?,
                    ),
                    None => None,
                };
                let winner = match claimed.as_deref() {
                    Some("1-0") => Some(Some(Color::White)),
                    Some("0-1") => Some(Some(Color::Black)),
                    Some("1/2-1/2") => Some(None),
                    _ => None,
                };
                if let Some(winner) = winner {
                    let reason = match (winner, reason) {
                        (None, Some(EndReason::Agreement) | None) => EndReason::Agreement,
                        (Some(_), Some(EndReason::Resignation) | None) => EndReason::Resignation,
                        (_, Some(r)) => {
                            return Err(RecordError::ResultMismatch {
                                claimed: format!("{} by {}", claimed.unwrap_or_default(), r.code()),
                                actual: "a game that has not ended that way".to_string(),
                            });
                        }
                    };
                    game.set_declared_outcome(Outcome { winner, reason });
                }
            }
        }
        for (k, v) in tags {
            game.set_tag(&k, &v);
        }
        Ok(game)
    }
}
