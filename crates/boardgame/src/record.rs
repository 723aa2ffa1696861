//! The parts of a game record that Mühle records and Dame's PDN have in
//! common: header tags `[Name "value"]`, one a line, before the moves; the
//! move text wrapped at 80 columns.

use std::fmt::Debug;

use crate::DeclaredError;
use crate::rules_text::{ParseRulesError, RuleText};

/// A game whose records are read: what the errors of a record name.
pub trait RecordGame {
    /// The rule set a `Rules` tag holds.
    type Rules: RuleText + Clone + Debug + Eq;
    /// Why a `FEN` tag is not a position.
    type PositionError: std::error::Error + Clone + Eq;
    /// Why a move of the record cannot be played.
    type MoveError: std::error::Error + Clone + Eq;

    /// The values of a `GameType` tag the game reads, as errors list them
    /// (PDN; empty for records without that tag).
    const GAME_TYPES: &'static str = "";

    /// The codes a `Termination` tag may hold, as errors list them.
    fn termination_codes() -> String;
}

/// Error for a game record of game `G` that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError<G: RecordGame> {
    /// A header line is not a tag.
    #[error("line {line}: a header tag looks like [Name \"value\"], found: {text}")]
    BadTag {
        /// The line number, from 1.
        line: usize,
        /// The line.
        text: String,
    },
    /// The `Rules` tag is not a rule set.
    #[error("the Rules tag: {0}")]
    Rules(ParseRulesError<G::Rules>),
    /// The `GameType` tag is no game this program plays.
    #[error("GameType '{0}' is not a game this program plays ({types})", types = G::GAME_TYPES)]
    UnsupportedGameType(String),
    /// The `FEN` tag is not a position.
    #[error("the FEN tag: {0}")]
    Position(G::PositionError),
    /// A move cannot be played.
    #[error("move {number} ('{text}'): {error}")]
    Move {
        /// The move number before it in the record.
        number: String,
        /// The move as written.
        text: String,
        /// Why it cannot be played.
        error: G::MoveError,
    },
    /// The `Termination` tag is not a reason code of the game.
    #[error("unknown Termination '{0}' (known: {codes})", codes = G::termination_codes())]
    BadTermination(String),
    /// The result does not fit how the moves end the game.
    #[error("the record says {claimed} but the moves lead to {actual}")]
    ResultMismatch {
        /// The result (and reason) the record gives.
        claimed: String,
        /// How the moves end the game, in words.
        actual: String,
    },
    /// Text follows the result token.
    #[error("'{0}' after the result")]
    TrailingText(String),
    /// A comment or variation is not closed.
    #[error("unclosed comment or variation")]
    Unclosed,
}

impl<G: RecordGame> RecordError<G> {
    /// [`RecordError::Unclosed`] by the name the Mühle crate gave it.
    #[allow(non_upper_case_globals)]
    pub const UnclosedComment: RecordError<G> = RecordError::Unclosed;
}

impl<G: RecordGame> From<BadTag> for RecordError<G> {
    fn from(b: BadTag) -> RecordError<G> {
        RecordError::BadTag {
            line: b.line,
            text: b.text,
        }
    }
}

impl<G: RecordGame> From<ParseRulesError<G::Rules>> for RecordError<G> {
    fn from(e: ParseRulesError<G::Rules>) -> RecordError<G> {
        RecordError::Rules(e)
    }
}

impl<G: RecordGame> From<DeclaredError> for RecordError<G> {
    fn from(e: DeclaredError) -> RecordError<G> {
        match e {
            DeclaredError::BadTermination(t) => RecordError::BadTermination(t),
            DeclaredError::Mismatch { claimed, actual } => {
                RecordError::ResultMismatch { claimed, actual }
            }
        }
    }
}

/// Header tags in order: (name, value).
pub type Tags = Vec<(String, String)>;

/// The width the move text is wrapped at.
pub const LINE_WIDTH: usize = 80;

/// A tag value as written between the quotes: `\` and `"` escaped with `\`.
/// A record holds one tag a line, so line breaks in a value are written as
/// spaces.
pub fn escape(value: &str) -> String {
    value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace(['\r', '\n'], " ")
}

/// A tag name as written: letters, digits and `_` only (what
/// [`parse_tag`] accepts); any other character is written as `_`, and an
/// empty name as `_`.
pub fn tag_name(name: &str) -> String {
    let cleaned: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if cleaned.is_empty() {
        "_".to_string()
    } else {
        cleaned
    }
}

/// Set tag `name` to `value` in `tags`: in place if it is there, else at
/// the end.
pub fn set_tag(tags: &mut Tags, name: &str, value: String) {
    match tags.iter_mut().find(|(key, _)| key == name) {
        Some(e) => e.1 = value,
        None => tags.push((name.to_string(), value)),
    }
}

/// The value of tag `name` in `tags`.
pub fn find_tag<'a>(tags: &'a [(String, String)], name: &str) -> Option<&'a str> {
    tags.iter()
        .find(|(key, _)| key == name)
        .map(|(_, v)| v.as_str())
}

/// A whole record: the game's `tags` with `updates` applied in order (a
/// value sets the tag, `None` removes it), a blank line, the move text and
/// a line break.
pub fn write_record(
    tags: &[(String, String)],
    updates: &[(&str, Option<String>)],
    movetext: &str,
) -> String {
    let mut tags = tags.to_vec();
    for (name, value) in updates {
        match value {
            Some(v) => set_tag(&mut tags, name, v.clone()),
            None => remove_tag(&mut tags, name),
        }
    }
    let mut out = header(&tags);
    out.push_str(movetext);
    out.push('\n');
    out
}

/// Remove tag `name` from `tags`.
pub fn remove_tag(tags: &mut Tags, name: &str) {
    tags.retain(|(key, _)| key != name);
}

/// The header: one line a tag, then a blank line.
pub fn header(tags: &[(String, String)]) -> String {
    let mut out: String = tags.iter().map(|(k, v)| tag_line(k, v)).collect();
    out.push('\n');
    out
}

/// One header line, `[Name "value"]`, with its line break.
pub fn tag_line(name: &str, value: &str) -> String {
    format!("[{} \"{}\"]\n", tag_name(name), escape(value))
}

/// Read a header line `[Name "value"]` (the line trimmed); `None` if it is
/// not one.
pub fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?.trim();
    let (key, rest) = inner.split_once(char::is_whitespace)?;
    let body = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
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

/// A header line that is not a tag: its line number (from 1) and text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadTag {
    /// The line number, from 1.
    pub line: usize,
    /// The line (its first 80 characters, trimmed).
    pub text: String,
}

/// Split a record into its header tags and its move-text lines: lines
/// starting with `[` before any move text are tags, everything else is move
/// text. `blank` tells a move-text line that holds no moves (only white
/// space, or a comment), after which tags may still come.
pub fn split_record(text: &str, blank: impl Fn(&str) -> bool) -> Result<(Tags, Vec<&str>), BadTag> {
    let mut tags = Vec::new();
    let mut moves: Vec<&str> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') && moves.iter().all(|l| blank(l)) {
            let tag = parse_tag(trimmed).ok_or_else(|| BadTag {
                line: n + 1,
                text: trimmed.chars().take(80).collect(),
            })?;
            tags.push(tag);
        } else {
            moves.push(line);
        }
    }
    Ok((tags, moves))
}

/// A move-text token without the move number before it: `12.d6` gives
/// `d6`, `12...` gives an empty token, and either sets `number` to `12`; a
/// token without a number (`d6`, `32-28`) is returned as it is.
pub fn strip_move_number<'a>(token: &'a str, number: &mut String) -> &'a str {
    let digits = token.chars().take_while(|c| c.is_ascii_digit()).count();
    let rest = &token[digits..];
    if digits > 0 && rest.starts_with('.') {
        *number = token[..digits].to_string();
        rest.trim_start_matches('.')
    } else {
        token
    }
}

/// The tokens joined by spaces, wrapped at [`LINE_WIDTH`] columns (a token
/// longer than a line stands on its own line).
pub fn wrap_tokens<S: AsRef<str>>(tokens: impl IntoIterator<Item = S>) -> String {
    let mut out = String::new();
    let mut line_len = 0;
    for t in tokens {
        let t = t.as_ref();
        let len = t.chars().count();
        if line_len > 0 && line_len + 1 + len > LINE_WIDTH {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(t);
        line_len += len;
    }
    out
}

/// The `Termination` tag of a game lost on time, as PGN writes it. A
/// reader takes it for the game's reason `time` where the game has one,
/// else for a result the record declares (like a resignation).
pub const TIME_FORFEIT: &str = "time forfeit";

/// A comment as written in move text: `{text}`, with braces in the text
/// written as parentheses, `;` (which starts a comment to the end of the
/// line in Mühle records) as `,` and line breaks as spaces, so it closes
/// where it should; white space around the text is left out (a reader
/// trims it).
pub fn comment_token(text: &str) -> String {
    let inner: String = text
        .chars()
        .map(|c| match c {
            '{' => '(',
            '}' => ')',
            ';' => ',',
            '\r' | '\n' => ' ',
            c => c,
        })
        .collect();
    format!("{{{}}}", inner.trim())
}

/// The comment to write after move `i` of `comments` (entry `i`): `None`
/// where there is none or it is blank.
pub fn comment_at(comments: &[Option<String>], i: usize) -> Option<&str> {
    comments
        .get(i)
        .and_then(Option::as_deref)
        .filter(|c| !c.trim().is_empty())
}

/// The `{…}` comments of a record's move text by the move they follow:
/// entry `i` holds the comments after move `i` (from 0; several joined by
/// a space), `None` where none follows; the list ends with the last move
/// that has one. `is_move` tells a move from the other tokens (results,
/// annotation glyphs, a Dame huff, a Mühle removal written apart); it gets
/// each token with its move number taken off (see [`strip_move_number`]),
/// never an empty one. Comments before the first move, inside variations
/// `(…)` and `;` comments to the end of the line are passed over. Any text
/// is read: an unclosed comment runs to the end.
pub fn move_comments(movetext: &str, is_move: impl Fn(&str) -> bool) -> Vec<Option<String>> {
    let mut out: Vec<Option<String>> = Vec::new();
    let mut moves = 0usize;
    let mut token = String::new();
    let mut paren = 0usize;
    let mut flush = |token: &mut String, paren: usize| {
        let mut number = String::new();
        let t = strip_move_number(token, &mut number);
        if paren == 0 && !t.is_empty() && is_move(t) {
            moves += 1;
        }
        token.clear();
        moves
    };
    let mut chars = movetext.chars();
    while let Some(c) = chars.next() {
        match c {
            '{' => {
                let moves = flush(&mut token, paren);
                let mut depth = 1usize;
                let mut text = String::new();
                for c in chars.by_ref() {
                    match c {
                        '{' => depth += 1,
                        '}' => depth -= 1,
                        _ => {}
                    }
                    if depth == 0 {
                        break;
                    }
                    text.push(c);
                }
                let text = text.trim();
                if paren > 0 || moves == 0 || text.is_empty() {
                    continue;
                }
                out.resize(out.len().max(moves), None);
                match &mut out[moves - 1] {
                    Some(before) => {
                        before.push(' ');
                        before.push_str(text);
                    }
                    slot => *slot = Some(text.to_string()),
                }
            }
            '(' | ')' => {
                flush(&mut token, paren);
                paren = if c == '(' {
                    paren + 1
                } else {
                    paren.saturating_sub(1)
                };
            }
            ';' => {
                flush(&mut token, paren);
                chars.by_ref().find(|&c| c == '\n');
            }
            c if c.is_whitespace() => {
                flush(&mut token, paren);
            }
            c => token.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn tags_are_read_and_written() {
        assert_eq!(
            parse_tag(r#"[White "Anna \"A\" \\ B"]"#),
            Some(("White".into(), r#"Anna "A" \ B"#.into()))
        );
        assert_eq!(parse_tag("[White Anna]"), None);
        assert_eq!(parse_tag(r#"[Wh-ite "x"]"#), None);
        assert_eq!(tag_line("Wh ite", "a\nb"), "[Wh_ite \"a b\"]\n");
        let (tags, moves) =
            split_record("[A \"1\"]\n[B \"2\"]\n\n1. d6 *\n", |l| l.trim().is_empty()).unwrap();
        assert_eq!(tags.len(), 2);
        assert_eq!(moves.concat().trim(), "1. d6 *");
        assert_eq!(
            split_record("[A \"1\"]\n[B 2]\n", |l| l.trim().is_empty()),
            Err(BadTag {
                line: 2,
                text: "[B 2]".into()
            })
        );
    }

    #[test]
    fn a_record_gets_its_tags_updated_in_order() {
        let tags = vec![
            ("Event".to_string(), "Club".to_string()),
            ("FEN".to_string(), "x".to_string()),
            ("Result".to_string(), "*".to_string()),
        ];
        let updates = [
            ("Rules", Some("standard".to_string())),
            ("FEN", None),
            ("Result", Some("1-0".to_string())),
        ];
        assert_eq!(
            write_record(&tags, &updates, "1. d6 1-0"),
            "[Event \"Club\"]\n[Result \"1-0\"]\n[Rules \"standard\"]\n\n1. d6 1-0\n"
        );
        assert_eq!(find_tag(&tags, "FEN"), Some("x"));
        assert_eq!(find_tag(&tags, "Date"), None);
    }

    #[test]
    fn move_numbers_are_stripped_and_kept() {
        let mut number = String::new();
        assert_eq!(strip_move_number("12.d6", &mut number), "d6");
        assert_eq!(number, "12");
        assert_eq!(strip_move_number("13...", &mut number), "");
        assert_eq!(number, "13");
        assert_eq!(strip_move_number("32-28", &mut number), "32-28");
        assert_eq!(strip_move_number("f4", &mut number), "f4");
        assert_eq!(number, "13");
    }

    #[test]
    fn move_text_is_wrapped_at_80_columns() {
        let tokens: Vec<String> = (1..=40).map(|i| format!("{i}. c3-d4")).collect();
        let text = wrap_tokens(&tokens);
        assert!(text.lines().all(|l| l.chars().count() <= LINE_WIDTH));
        assert_eq!(text.split_whitespace().count(), 80);
    }

    #[test]
    fn comments_are_found_after_their_moves() {
        let is_move = |t: &str| !matches!(t, "1-0" | "*") && !t.starts_with('x');
        let text = "{before} 1. d6 {[%clk 0:05:00]} 1... f4 2.d2 {a} {b} (2. a1 {no}) b4 ; x {y}\n\
                    xb6 {after the removal} 1-0 {end}";
        assert_eq!(
            move_comments(text, is_move),
            [
                Some("[%clk 0:05:00]".to_string()),
                None,
                Some("a b".to_string()),
                Some("after the removal end".to_string()),
            ]
        );
        assert_eq!(
            move_comments("1. d6 f4 *", is_move),
            Vec::<Option<String>>::new()
        );
        assert_eq!(
            move_comments("1. d6 {open {nested} still", is_move),
            [Some("open {nested} still".to_string())]
        );
        assert_eq!(comment_token("a}b{\nc;d"), "{a)b( c,d}");
    }

    proptest! {
        #[test]
        fn any_comment_text_is_read_without_panic(text in "\\PC{0,200}") {
            let found = move_comments(&text, |t| t.len() < 4);
            prop_assert!(found.last().is_none_or(Option::is_some));
        }

        #[test]
        fn a_written_comment_reads_back(text in "\\PC{0,60}") {
            let written = format!("1. d6 {} *", comment_token(&text));
            let found = move_comments(&written, |t| t != "*");
            let expected: String = comment_token(&text);
            let expected = expected[1..expected.len() - 1].trim();
            if expected.is_empty() {
                prop_assert!(found.is_empty());
            } else {
                prop_assert_eq!(found, vec![Some(expected.to_string())]);
            }
        }

        #[test]
        fn any_tag_reads_back(name in "[A-Za-z0-9_]{1,12}", value in "\\PC{0,40}") {
            let line = tag_line(&name, &value);
            let (n, v) = parse_tag(line.trim()).unwrap();
            prop_assert_eq!(n, name);
            prop_assert_eq!(v, value.replace(['\r', '\n'], " "));
        }
    }
}
