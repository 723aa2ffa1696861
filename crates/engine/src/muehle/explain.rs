//! Explaining Mühle moves in words ("what is the best move here, and why?").

use muehle::{Color, Move, Phase, Position, eval::Terms};
use search::Score;

use crate::explain::{Reason, color_param};

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
            format!("closes a mill and removes {}'s stone on {r}", them.title()),
        ));
    } else if pos.closes_mill(mv) {
        why.push(Reason::new(
            "closes_mill_nothing_removed",
            &[],
            "closes a mill (every opponent stone stands in a mill, so none is removed)".to_string(),
        ));
    }
    let their_gaps = pos.board().mill_completions(pos.stones(them)) & pos.empty();
    if their_gaps.contains(mv.to()) {
        why.push(Reason::new(
            "blocks_mill",
            &[c(them), ("square", mv.to().to_string())],
            format!("blocks {}'s mill on {}", them.title(), mv.to()),
        ));
    }
    if let Some(from) = mv.from()
        && pos.board().in_mills(pos.stones(us)).contains(from)
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
                    them.title(),
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
