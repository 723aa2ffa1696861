//! Explaining moves in words ("what is the best move here, and why?"): the
//! [`Reason`]s both games give, worded by [`crate::muehle::explain`] and
//! [`crate::dame::explain`].

/// The colour as a reason's parameter (`white`, `black`).
pub(crate) fn color_param(white: bool) -> String {
    if white { "white" } else { "black" }.to_string()
}

/// One reason a move is good (or what it does): a code and its
/// parameters, for a user interface to word in its language, and the
/// English text (the command line's).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Reason {
    /// What the reason says, e.g. `closes_mill_removes` (docs/API.md).
    pub code: &'static str,
    /// Its parameters: colours as `white`/`black`, squares in the game's
    /// notation, counts as numbers in text.
    pub params: std::collections::BTreeMap<&'static str, String>,
    /// The reason in English.
    pub text: String,
}

impl Reason {
    pub(crate) fn new(
        code: &'static str,
        params: &[(&'static str, String)],
        text: String,
    ) -> Reason {
        Reason {
            code,
            params: params.iter().cloned().collect(),
            text,
        }
    }
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}
