//! Errors in a form a user interface can word in its own language: a
//! stable code, named parameters and the error it comes from. The English
//! words stay the errors' `Display`; an [`ErrorDetail`] says the same as
//! data (the app's server sends it, and its web page words it in German,
//! English, French or Italian).

use crate::Color;
use crate::record::{RecordError, RecordGame};
use crate::rules_text::{ParseRulesError, RuleText};
use crate::session::{DeclaredError, GameError};

/// An error as a stable machine-readable `code` (`position.field_count`,
/// `record.move`, …), its parameters (name and value, in the order the
/// error names them; values as text: numbers in digits, colours `white` or
/// `black`, squares in the game's notation) and the error it comes from,
/// if any (a record's move: why the move cannot be played).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ErrorDetail {
    /// The code: `area.what`, lower case with `_`.
    pub code: &'static str,
    /// The parameters, in order.
    pub params: Vec<(&'static str, String)>,
    /// The error this one comes from.
    pub cause: Option<Box<ErrorDetail>>,
}

impl ErrorDetail {
    /// A detail with `code` and no parameters.
    pub fn new(code: &'static str) -> ErrorDetail {
        ErrorDetail {
            code,
            params: Vec::new(),
            cause: None,
        }
    }

    /// The same with parameter `name` set to `value`.
    pub fn with(mut self, name: &'static str, value: impl ToString) -> ErrorDetail {
        self.params.push((name, value.to_string()));
        self
    }

    /// The same, coming from `cause`.
    pub fn caused_by(mut self, cause: ErrorDetail) -> ErrorDetail {
        self.cause = Some(Box::new(cause));
        self
    }

    /// The value of parameter `name`.
    pub fn param(&self, name: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The codes from this error down to the first cause.
    pub fn codes(&self) -> Vec<&'static str> {
        let mut codes = vec![self.code];
        let mut next = self.cause.as_deref();
        while let Some(d) = next {
            codes.push(d.code);
            next = d.cause.as_deref();
        }
        codes
    }
}

/// An error that can tell itself as an [`ErrorDetail`].
pub trait Detailed {
    /// The error's code, parameters and cause.
    fn detail(&self) -> ErrorDetail;
}

impl<T: Detailed + ?Sized> Detailed for &T {
    fn detail(&self) -> ErrorDetail {
        (**self).detail()
    }
}

/// The colour as a parameter value: `white` or `black`.
pub fn color_param(c: Color) -> &'static str {
    c.name()
}

impl<E: Detailed> Detailed for GameError<E> {
    fn detail(&self) -> ErrorDetail {
        match self {
            GameError::Move(e) => e.detail(),
            GameError::Over(_) => ErrorDetail::new("move.game_over"),
            GameError::NoDrawOffer(c) => {
                ErrorDetail::new("game.no_draw_offer").with("color", color_param(*c))
            }
            GameError::NothingToUndo => ErrorDetail::new("game.nothing_to_undo"),
        }
    }
}

impl Detailed for DeclaredError {
    fn detail(&self) -> ErrorDetail {
        match self {
            DeclaredError::BadTermination(t) => {
                ErrorDetail::new("record.bad_termination").with("termination", t)
            }
            DeclaredError::Mismatch { claimed, actual } => {
                ErrorDetail::new("record.result_mismatch")
                    .with("claimed", claimed)
                    .with("actual", actual)
            }
        }
    }
}

impl<R: RuleText> Detailed for ParseRulesError<R> {
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
            ParseRulesError::_Rules(never, _) => match *never {},
        }
    }
}

impl<G> Detailed for RecordError<G>
where
    G: RecordGame,
    G::PositionError: Detailed,
    G::MoveError: Detailed,
{
    fn detail(&self) -> ErrorDetail {
        match self {
            RecordError::BadTag { line, text } => ErrorDetail::new("record.bad_tag")
                .with("line", line)
                .with("text", text),
            RecordError::Rules(e) => ErrorDetail::new("record.rules_tag").caused_by(e.detail()),
            RecordError::UnsupportedGameType(g) => {
                ErrorDetail::new("record.game_type_tag").with("value", g)
            }
            RecordError::Position(e) => ErrorDetail::new("record.fen_tag").caused_by(e.detail()),
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

/// [`Detailed`] for a game's move error: the variants every game has
/// (`Parse`, `GameOver`, `Illegal { mv, why, reason }`: the reason as
/// the detail's cause) written once, then the
/// game's own arms.
#[macro_export]
macro_rules! move_error_detail {
    ($err:ident { $($arm:tt)* }) => {
        impl $crate::Detailed for $err {
            fn detail(&self) -> $crate::ErrorDetail {
                match self {
                    $err::Parse(e) => $crate::Detailed::detail(e),
                    $err::GameOver(_) => $crate::ErrorDetail::new("move.game_over"),
                    $err::Illegal { mv, why, reason } => {
                        let d = $crate::ErrorDetail::new("move.illegal")
                            .with("move", mv)
                            .with("why", why);
                        match reason {
                            Some(r) => d.caused_by((**r).clone()),
                            None => d,
                        }
                    }
                    $($arm)*
                }
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug)]
    struct Bad;

    impl Detailed for Bad {
        fn detail(&self) -> ErrorDetail {
            ErrorDetail::new("move.illegal").with("move", "t")
        }
    }

    #[test]
    fn details_carry_code_params_and_cause() {
        let d = ErrorDetail::new("record.move")
            .with("number", 3)
            .caused_by(GameError::Move(Bad).detail());
        assert_eq!(d.param("number"), Some("3"));
        assert_eq!(d.param("move"), None);
        assert_eq!(d.codes(), ["record.move", "move.illegal"]);
        assert_eq!(
            GameError::<Bad>::NoDrawOffer(Color::Black).detail(),
            ErrorDetail::new("game.no_draw_offer").with("color", "black")
        );
        assert_eq!(
            DeclaredError::BadTermination("x".into()).detail().code,
            "record.bad_termination"
        );
    }
}
