//! Explaining Mühle moves in words ("what is the best move here, and why?").

use muehle::{Color, Move, Phase, Position, eval::Terms};
use search::Score;

fn side(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// Reasons why `mv` is good (or what it does) in `pos`, in English, given
/// the engine's score for it.
pub fn explain_move(pos: &Position, mv: Move, score: Option<Score>) -> Vec<String> {
    let us = pos.turn();
    let them = us.other();
    let mut why = Vec::new();
    let next = {
        let mut p = *pos;
        p.play_unchecked(mv);
        p
    };
    if let Some(r) = mv.removal() {
        why.push(format!(
            "closes a mill and removes {}'s stone on {r}",
            side(them)
        ));
    } else if pos.closes_mill(mv) {
        why.push(
            "closes a mill (every opponent stone stands in a mill, so none is removed)".to_string(),
        );
    }
    let their_gaps = pos.stones(them).mill_completions() & pos.empty();
    if their_gaps.contains(mv.to()) {
        why.push(format!("blocks {}'s mill on {}", side(them), mv.to()));
    }
    if let Some(from) = mv.from()
        && pos.stones(us).in_mills().contains(from)
    {
        why.push(format!(
            "opens the mill through {from}, to close it again next move"
        ));
    }
    let before = Terms::measure(pos, us);
    let after = Terms::measure(&next, us);
    if after.zwickmuehlen > before.zwickmuehlen {
        why.push("builds a Zwickmühle: a mill can be closed on every move".to_string());
    }
    if after.double_threat > 0 && before.double_threat == 0 {
        why.push("makes two mill threats at once: only one can be blocked".to_string());
    } else if after.threats > before.threats {
        why.push("threatens to close a mill".to_string());
    }
    if next.phase(them) == Phase::Moving {
        let their_before = Terms::measure(pos, them);
        let their_after = Terms::measure(&next, them);
        if their_after.mobility < their_before.mobility && their_after.mobility <= 2 {
            why.push(format!(
                "hems {} in ({} moves left)",
                side(them),
                their_after.mobility
            ));
        }
    }
    if let Some(o) = next.outcome() {
        why.push(format!("ends the game: {}", o.describe()));
    } else if let Some(Score::Mate(n)) = score {
        if n > 0 {
            why.push(format!("wins by force in {n} move(s)"));
        } else {
            why.push(format!(
                "the best defence, but loses by force in {} move(s)",
                -n
            ));
        }
    }
    if why.is_empty() {
        why.push("improves the position (mobility and mill chances)".to_string());
    }
    why
}
