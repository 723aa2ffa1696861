//! The errors of position strings, moves and records as codes and
//! parameters ([`boardgame::ErrorDetail`]), for a user interface to word in
//! its language. The codes are part of the app's API (docs/API.md).

use boardgame::{Detailed, ErrorDetail, color_param};

use crate::{MoveError, ParseMoveError, ParsePositionError, PositionError};

impl Detailed for ParsePositionError {
    fn detail(&self) -> ErrorDetail {
        match self {
            ParsePositionError::FieldCount(n) => {
                ErrorDetail::new("position.field_count").with("found", n)
            }
            ParsePositionError::RowCount(n) => {
                ErrorDetail::new("position.row_count").with("found", n)
            }
            ParsePositionError::RowLength {
                row,
                expected,
                found,
            } => ErrorDetail::new("position.row_length")
                .with("row", row)
                .with("expected", expected)
                .with("found", found),
            ParsePositionError::BadPoint(c) => {
                ErrorDetail::new("position.bad_point").with("found", c)
            }
            ParsePositionError::BadSide(s) => {
                ErrorDetail::new("position.bad_side").with("found", s)
            }
            ParsePositionError::BadNumber { field, value } => {
                let field = match *field {
                    "white's stones in hand" => "white_in_hand",
                    "black's stones in hand" => "black_in_hand",
                    "plies since the last mill" => "plies_since_mill",
                    "the move number" => "move_number",
                    other => other,
                };
                ErrorDetail::new("position.bad_number")
                    .with("field", field)
                    .with("found", value)
            }
            ParsePositionError::Invalid(e) => e.detail(),
        }
    }
}

impl Detailed for PositionError {
    fn detail(&self) -> ErrorDetail {
        match self {
            PositionError::Overlap(sq) => ErrorDetail::new("position.overlap").with("square", sq),
            PositionError::OffBoard => ErrorDetail::new("position.off_board"),
            PositionError::TooManyStones { color, count } => {
                ErrorDetail::new("position.too_many_stones")
                    .with("color", color_param(*color))
                    .with("count", count)
                    .with("max", crate::STONES_PER_SIDE)
            }
            PositionError::TooManyStonesFor { color, count, max } => {
                ErrorDetail::new("position.too_many_stones")
                    .with("color", color_param(*color))
                    .with("count", count)
                    .with("max", max)
            }
            PositionError::HandMismatch { white, black, turn } => {
                ErrorDetail::new("position.hand_mismatch")
                    .with("white", white)
                    .with("black", black)
                    .with("turn", color_param(*turn))
            }
            PositionError::MoverLost(c) => {
                ErrorDetail::new("position.mover_lost").with("color", color_param(*c))
            }
            PositionError::MoveNumberZero => ErrorDetail::new("position.move_number_zero"),
        }
    }
}

impl Detailed for ParseMoveError {
    fn detail(&self) -> ErrorDetail {
        match self {
            ParseMoveError::Empty => ErrorDetail::new("move.empty"),
            ParseMoveError::Syntax { text, why } => ErrorDetail::new("move.syntax")
                .with("move", text)
                .with("why", why),
        }
    }
}

boardgame::move_error_detail!(MoveError {
    MoveError::RemovalRequired {
        mv,
        example,
        removable,
    } => ErrorDetail::new("move.removal_required")
        .with("move", mv)
        .with("example", example)
        .with("removable", removable),
});

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Game, Position, RuleSet};

    #[test]
    fn position_errors_have_codes() {
        let d = Position::from_fen("x", RuleSet::STANDARD)
            .unwrap_err()
            .detail();
        assert_eq!(
            (d.code, d.param("found")),
            ("position.field_count", Some("1"))
        );
        let d = Position::from_fen(
            ".../.../.../...Q../.../.../... w 9 9 0 1",
            RuleSet::STANDARD,
        )
        .unwrap_err()
        .detail();
        assert_eq!(
            (d.code, d.param("found")),
            ("position.bad_point", Some("Q"))
        );
        let d = Position::from_fen(
            ".../.../.../....../.../.../... w 9 9 0 q",
            RuleSet::STANDARD,
        )
        .unwrap_err()
        .detail();
        assert_eq!(d.code, "position.bad_number");
        assert_eq!(d.param("field"), Some("move_number"));
        let d = Position::from_fen(
            "WWW/WWW/WWW/W...../.../.../... b 0 0 0 9",
            RuleSet::STANDARD,
        )
        .unwrap_err()
        .detail();
        assert_eq!(d.code, "position.too_many_stones");
        assert_eq!(
            (d.param("color"), d.param("count"), d.param("max")),
            (Some("white"), Some("10"), Some("9"))
        );
    }

    #[test]
    fn record_errors_name_the_move_and_why() {
        let d = Game::from_record("1. d6 f4 2. d9 *").unwrap_err().detail();
        assert_eq!(d.codes(), ["record.move", "move.syntax"]);
        assert_eq!(
            (d.param("number"), d.param("move")),
            (Some("2"), Some("d9"))
        );
        let d = Game::from_record("1. d6 d6 *").unwrap_err().detail();
        assert_eq!(
            d.codes(),
            ["record.move", "move.illegal", "illegal.occupied"]
        );
        let why = d.cause.as_deref().and_then(|c| c.cause.as_deref()).unwrap();
        assert_eq!(why.param("square"), Some("d6"));
        let d = Game::from_record("[Rules \"fast\"]\n\n1. d6 *")
            .unwrap_err()
            .detail();
        assert_eq!(d.codes(), ["record.rules_tag", "rules.unknown_preset"]);
        let d = Game::from_record("[Bad tag]\n1. d6").unwrap_err().detail();
        assert_eq!((d.code, d.param("line")), ("record.bad_tag", Some("1")));
        let d = Game::from_record("1. d6 { open").unwrap_err().detail();
        assert_eq!(d.code, "record.unclosed");
    }
}
