//! The errors of FENs, moves and PDN records as codes and parameters
//! ([`boardgame::ErrorDetail`]), for a user interface to word in its
//! language. The codes are part of the app's API (docs/API.md).

use boardgame::{Detailed, ErrorDetail, color_param};

use crate::{
    GameError, MoveError, ParseFenError, ParseMoveError, ParseRulesError, ParseSquareError,
    PositionError, RecordError,
};

impl Detailed for ParseFenError {
    fn detail(&self) -> ErrorDetail {
        match self {
            ParseFenError::Empty => ErrorDetail::new("fen.empty"),
            ParseFenError::BadSide(s) => ErrorDetail::new("fen.bad_side").with("found", s),
            ParseFenError::BadField(f) => ErrorDetail::new("fen.bad_field").with("field", f),
            ParseFenError::DuplicateColor(c) => {
                ErrorDetail::new("fen.duplicate_color").with("color", color_param(*c))
            }
            ParseFenError::MissingColor(c) => {
                ErrorDetail::new("fen.missing_color").with("color", color_param(*c))
            }
            ParseFenError::Square { item, error } => {
                let code = match error {
                    ParseSquareError::NotOn8x8(_) => "fen.not_on_8x8",
                    ParseSquareError::NotOn10x10(_) => "fen.not_on_10x10",
                    ParseSquareError::Unknown(_) => "fen.not_a_square",
                };
                ErrorDetail::new(code).with("item", item)
            }
            ParseFenError::BadRange(item) => ErrorDetail::new("fen.bad_range").with("item", item),
            ParseFenError::BadNumber { field, value } => {
                let field = field.split(' ').next().unwrap_or(field);
                ErrorDetail::new("fen.bad_number")
                    .with("field", field)
                    .with("found", value)
            }
            ParseFenError::UnknownBoard => ErrorDetail::new("fen.unknown_board"),
            ParseFenError::MixedBoards => ErrorDetail::new("fen.mixed_boards"),
            ParseFenError::Invalid(e) => e.detail(),
        }
    }
}

impl Detailed for PositionError {
    fn detail(&self) -> ErrorDetail {
        match self {
            PositionError::OffBoard => ErrorDetail::new("position.off_dark_squares"),
            PositionError::Overlap(sq) => ErrorDetail::new("position.overlap").with("square", sq),
            PositionError::KingWithoutPiece(sq) => {
                ErrorDetail::new("position.king_without_piece").with("square", sq)
            }
            PositionError::TooManyPieces { color, count, max } => {
                ErrorDetail::new("position.too_many_pieces")
                    .with("color", color_param(*color))
                    .with("count", count)
                    .with("max", max)
            }
            PositionError::ManOnPromotionRow { color, square } => {
                ErrorDetail::new("position.man_on_promotion_row")
                    .with("color", color_param(*color))
                    .with("square", square)
            }
            PositionError::Empty => ErrorDetail::new("position.empty_board"),
            PositionError::MoveNumberZero => ErrorDetail::new("position.move_number_zero"),
            PositionError::BoardMismatch { expected, found } => {
                ErrorDetail::new("position.board_mismatch")
                    .with("expected", expected.side())
                    .with("found", found.side())
            }
        }
    }
}

impl Detailed for ParseRulesError {
    fn detail(&self) -> ErrorDetail {
        match self {
            ParseRulesError::UnknownPreset(p) => {
                ErrorDetail::new("rules.unknown_preset").with("preset", p)
            }
            ParseRulesError::UnknownOption(o) => {
                ErrorDetail::new("rules.unknown_option").with("option", o)
            }
            ParseRulesError::BadValue {
                option,
                value,
                expected,
            } => ErrorDetail::new("rules.bad_value")
                .with("option", option)
                .with("value", value)
                .with("expected", expected),
        }
    }
}

impl Detailed for ParseMoveError {
    fn detail(&self) -> ErrorDetail {
        match self {
            ParseMoveError::Empty => ErrorDetail::new("move.empty"),
            ParseMoveError::Syntax { text, why, .. } => ErrorDetail::new("move.syntax")
                .with("move", text)
                .with("why", why),
            ParseMoveError::Square { text, .. } => {
                ErrorDetail::new("move.bad_square").with("move", text)
            }
        }
    }
}

impl Detailed for MoveError {
    fn detail(&self) -> ErrorDetail {
        match self {
            MoveError::Parse(e) => e.detail(),
            MoveError::GameOver(_) => ErrorDetail::new("move.game_over"),
            MoveError::Illegal { mv, why } => ErrorDetail::new("move.illegal")
                .with("move", mv)
                .with("why", why),
            MoveError::Ambiguous { mv, candidates } => ErrorDetail::new("move.ambiguous")
                .with("move", mv)
                .with("candidates", candidates),
        }
    }
}

impl Detailed for GameError {
    fn detail(&self) -> ErrorDetail {
        match self {
            GameError::Move(e) => e.detail(),
            GameError::Over(_) => ErrorDetail::new("move.game_over"),
            GameError::NoDrawOffer(c) => {
                ErrorDetail::new("game.no_draw_offer").with("color", color_param(*c))
            }
            GameError::NothingToUndo => ErrorDetail::new("game.nothing_to_undo"),
            GameError::HuffNotAllowed { square, why } => ErrorDetail::new("move.huff_not_allowed")
                .with("square", square)
                .with("why", why),
        }
    }
}

impl Detailed for RecordError {
    fn detail(&self) -> ErrorDetail {
        match self {
            RecordError::BadTag { line, text } => ErrorDetail::new("record.bad_tag")
                .with("line", line)
                .with("text", text),
            RecordError::Rules(e) => ErrorDetail::new("record.rules_tag").caused_by(e.detail()),
            RecordError::UnsupportedGameType(g) => {
                ErrorDetail::new("record.game_type_tag").with("value", g)
            }
            RecordError::Fen(e) => ErrorDetail::new("record.fen_tag").caused_by(e.detail()),
            RecordError::Move {
                number,
                text,
                error,
            } => ErrorDetail::new("record.move")
                .with("number", number)
                .with("move", text)
                .caused_by(error.detail()),
            RecordError::BadTermination(t) => {
                ErrorDetail::new("record.bad_termination").with("termination", t)
            }
            RecordError::ResultMismatch { claimed, actual } => {
                ErrorDetail::new("record.result_mismatch")
                    .with("claimed", claimed)
                    .with("actual", actual)
            }
            RecordError::TrailingText(t) => {
                ErrorDetail::new("record.trailing_text").with("text", t)
            }
            RecordError::Unclosed => ErrorDetail::new("record.unclosed"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Game, Position, RuleSet};

    #[test]
    fn fen_errors_have_codes() {
        let d = Position::from_fen("X:W31-50:B1-20", RuleSet::INTERNATIONAL)
            .unwrap_err()
            .detail();
        assert_eq!((d.code, d.param("found")), ("fen.bad_side", Some("X")));
        let d = Position::from_fen("W:W31-50:B1-20:Hx", RuleSet::INTERNATIONAL)
            .unwrap_err()
            .detail();
        assert_eq!(
            (d.code, d.param("field"), d.param("found")),
            ("fen.bad_number", Some("H"), Some("x"))
        );
        let d = Position::from_fen("W:Wa1,z9:Bb8", RuleSet::DAME)
            .unwrap_err()
            .detail();
        assert_eq!((d.code, d.param("item")), ("fen.not_on_8x8", Some("z9")));
        let d = Position::from_fen("W:Wb8:Bc1,e1", RuleSet::DAME)
            .unwrap_err()
            .detail();
        assert_eq!(
            (d.code, d.param("color"), d.param("square")),
            ("position.man_on_promotion_row", Some("white"), Some("b8"))
        );
    }

    #[test]
    fn record_errors_name_the_move_and_why() {
        let d = Game::from_record("[GameType \"20\"]\n\n1. 32-28 19-23 2. 28-22 *")
            .unwrap_err()
            .detail();
        assert_eq!(d.codes(), ["record.move", "move.illegal"]);
        assert_eq!(
            (d.param("number"), d.param("move")),
            (Some("2"), Some("28-22"))
        );
        let d = Game::from_record("[GameType \"99\"]\n\n1. 32-28 *")
            .unwrap_err()
            .detail();
        assert_eq!(
            (d.code, d.param("value")),
            ("record.game_type_tag", Some("99"))
        );
        let d = Game::from_record("[GameType \"20\"]\n[FEN \"W:W:B\"]\n\n*")
            .unwrap_err()
            .detail();
        assert_eq!(d.code, "record.fen_tag");
        assert!(d.cause.is_some());
    }
}
