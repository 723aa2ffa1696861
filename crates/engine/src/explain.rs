//! Explaining Mühle moves in words ("what is the best move here, and why?").

use muehle::{Color, Move, Phase, Position, eval::Terms};
use search::Score;

fn side(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

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

/// Reasons why `mv` is good (or what it does) in `pos`, in English, given
/// the engine's score for it.
pub fn explain_move(pos: &Position, mv: Move, score: Option<Score>) -> Vec<String> {
    reasons(pos, mv, score)
        .into_iter()
        .map(|r| r.text)
        .collect()
}

/// [`explain_move`] with codes and parameters ([`Reason`]).
pub fn reasons(pos: &Position, mv: Move, score: Option<Score>) -> Vec<Reason> {
    let c = |c: Color| ("color", color_param(c == Color::White));
    let us = pos.turn();
    let them = us.other();
    let mut why = Vec::new();
    let next = {
        let mut p = *pos;
        p.play_unchecked(mv);
        p
    };
    if let Some(r) = mv.removal() {
        why.push(Reason::new(
            "closes_mill_removes",
            &[c(them), ("square", r.to_string())],
            format!("closes a mill and removes {}'s stone on {r}", side(them)),
        ));
    } else if pos.closes_mill(mv) {
        why.push(Reason::new(
            "closes_mill_nothing_removed",
            &[],
            "closes a mill (every opponent stone stands in a mill, so none is removed)".to_string(),
        ));
    }
    let their_gaps = pos.stones(them).mill_completions() & pos.empty();
    if their_gaps.contains(mv.to()) {
        why.push(Reason::new(
            "blocks_mill",
            &[c(them), ("square", mv.to().to_string())],
            format!("blocks {}'s mill on {}", side(them), mv.to()),
        ));
    }
    if let Some(from) = mv.from()
        && pos.stones(us).in_mills().contains(from)
    {
        why.push(Reason::new(
            "opens_mill",
            &[("square", from.to_string())],
            format!("opens the mill through {from}, to close it again next move"),
        ));
    }
    let before = Terms::measure(pos, us);
    let after = Terms::measure(&next, us);
    if after.zwickmuehlen > before.zwickmuehlen {
        why.push(Reason::new(
            "zwickmuehle",
            &[],
            "builds a Zwickmühle: a mill can be closed on every move".to_string(),
        ));
    }
    if after.double_threat > 0 && before.double_threat == 0 {
        why.push(Reason::new(
            "double_threat",
            &[],
            "makes two mill threats at once: only one can be blocked".to_string(),
        ));
    } else if after.threats > before.threats {
        why.push(Reason::new(
            "threatens_mill",
            &[],
            "threatens to close a mill".to_string(),
        ));
    }
    if next.phase(them) == Phase::Moving {
        let their_before = Terms::measure(pos, them);
        let their_after = Terms::measure(&next, them);
        if their_after.mobility < their_before.mobility && their_after.mobility <= 2 {
            why.push(Reason::new(
                "hems_in",
                &[c(them), ("n", their_after.mobility.to_string())],
                format!(
                    "hems {} in ({} moves left)",
                    side(them),
                    their_after.mobility
                ),
            ));
        }
    }
    if let Some(o) = next.outcome() {
        let text = format!("ends the game: {}", o.describe());
        why.push(match o.winner {
            Some(w) => Reason::new("ends_game_win", &[c(w)], text),
            None => Reason::new("ends_game_draw", &[], text),
        });
    } else if let Some(Score::Mate(n)) = score {
        if n > 0 {
            why.push(Reason::new(
                "wins_by_force",
                &[("n", n.to_string())],
                format!("wins by force in {n} move(s)"),
            ));
        } else {
            why.push(Reason::new(
                "loses_by_force",
                &[("n", (-n).to_string())],
                format!("the best defence, but loses by force in {} move(s)", -n),
            ));
        }
    }
    if why.is_empty() {
        why.push(Reason::new(
            "improves",
            &[],
            "improves the position (mobility and mill chances)".to_string(),
        ));
    }
    why
}
