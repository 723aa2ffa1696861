//! The errors of FENs, moves and PDN records as codes and parameters
//! ([`boardgame::ErrorDetail`]), for a user interface to word in its
//! language. The codes are part of the app's API (docs/API.md).

use boardgame::{Detailed, ErrorDetail, color_param};

use crate::{GameError, MoveError, ParseFenError, ParseMoveError, ParseSquareError, PositionError};

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

boardgame::move_error_detail!(MoveError {
    MoveError::Ambiguous { mv, candidates } => ErrorDetail::new("move.ambiguous")
        .with("move", mv)
        .with("candidates", candidates),
});

/// The errors a game shares with Mühle's have the codes of
/// [`boardgame::GameError`].
impl Detailed for GameError {
    fn detail(&self) -> ErrorDetail {
        let shared = match self {
            GameError::HuffNotAllowed { square, why } => {
                return ErrorDetail::new("move.huff_not_allowed")
                    .with("square", square)
                    .with("why", why);
            }
            GameError::Move(e) => boardgame::GameError::Move(e),
            GameError::Over(o) => boardgame::GameError::Over(o.clone()),
            GameError::NoDrawOffer(c) => boardgame::GameError::NoDrawOffer(*c),
            GameError::NothingToUndo => boardgame::GameError::NothingToUndo,
        };
        shared.detail()
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
        assert_eq!(
            d.codes(),
            ["record.move", "move.illegal", "illegal.must_capture"]
        );
        assert_eq!(
            (d.param("number"), d.param("move")),
            (Some("2"), Some("28-22"))
        );
        let why = d.cause.as_deref().and_then(|c| c.cause.as_deref()).unwrap();
        assert_eq!(why.param("moves"), Some("28x19"));
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
