//! Explaining Dame moves in words, from the move itself and the engine's
//! line after it.

use dame::{Color, Move, Position};
use search::Score;

use crate::explain::{Reason, color_param};

fn pieces(n: u32) -> String {
    if n == 1 {
        "1 piece".to_string()
    } else {
        format!("{n} pieces")
    }
}

/// Reasons why the first move of `pv` is good (or what it does) in `pos`, in
/// English, given the engine's score for it. `pv` is the engine's line (the
/// move first); an empty line gives no reasons.
pub fn explain_move(pos: &Position, pv: &[Move], score: Option<Score>) -> Vec<String> {
    reasons(pos, pv, score)
        .into_iter()
        .map(|r| r.text)
        .collect()
}

/// [`explain_move`] with codes and parameters ([`Reason`]).
pub fn reasons(pos: &Position, pv: &[Move], score: Option<Score>) -> Vec<Reason> {
    let Some(&mv) = pv.first() else {
        return Vec::new();
    };
    let us = pos.turn();
    let them = !us;
    let mut why = Vec::new();
    if mv.is_capture() {
        let kings = (mv.captured() & pos.kings(them)).count();
        let n = mv.capture_count();
        let mut text = format!("captures {}", pieces(n));
        if kings > 0 {
            text.push_str(&format!(
                " ({kings} of them {})",
                if kings == 1 { "a king" } else { "kings" }
            ));
            why.push(Reason::new(
                "captures_kings",
                &[("n", n.to_string()), ("kings", kings.to_string())],
                text,
            ));
        } else {
            why.push(Reason::new("captures", &[("n", n.to_string())], text));
        }
    }
    if pos.promotes(&mv) {
        why.push(Reason::new(
            "crowns",
            &[("square", mv.to().to_string())],
            format!("crowns a king on {}", mv.to()),
        ));
    }
    // What the line does to the material: the balance at the first quiet
    // position (no capture to make) from the fourth ply on, or at the end of
    // the line.
    let mut p = *pos;
    let mut balance = 0i64;
    let mut settled = None;
    let mut first_loss: Option<usize> = None;
    for (i, m) in pv.iter().take(16).enumerate() {
        if !p.is_legal(m) {
            break;
        }
        let n = i64::from(m.capture_count());
        if p.turn() == us {
            balance += n;
        } else {
            balance -= n;
            if n > 0 && first_loss.is_none() {
                first_loss = Some(i);
            }
        }
        p.play_unchecked(m);
        if i >= 3 && !p.has_capture() {
            settled = Some(balance);
            break;
        }
    }
    let balance = settled.unwrap_or(balance);
    if first_loss == Some(1) && balance > 0 && !mv.is_capture() {
        why.push(Reason::new(
            "shot",
            &[("n", balance.to_string())],
            format!("a shot: gives material away and wins more back (+{balance} in the line)"),
        ));
    } else if !mv.is_capture() && balance > 0 {
        why.push(Reason::new(
            "wins_material",
            &[("n", balance.to_string())],
            format!("wins material in the line (+{balance})"),
        ));
    } else if balance < 0 && !matches!(score, Some(Score::Mate(m)) if m > 0) {
        let n = balance.unsigned_abs() as u32;
        why.push(Reason::new(
            "loses_least",
            &[("n", n.to_string())],
            format!("the line loses {}: the other moves lose more", pieces(n)),
        ));
    }
    if pos.has_capture() && !mv.is_capture() {
        why.push(Reason::new(
            "skips_capture",
            &[],
            "skips a capture (huffing rules: the opponent may huff)".to_string(),
        ));
    }
    let next = {
        let mut n = *pos;
        n.play_unchecked(&mv);
        n
    };
    if !mv.is_capture() && next.has_capture() && balance >= 0 {
        why.push(Reason::new(
            "offers_capture",
            &[("color", color_param(them == Color::White))],
            format!("offers {} a capture", them.title()),
        ));
    }
    match score {
        Some(Score::Mate(m)) if m > 0 => why.push(Reason::new(
            "wins_by_force",
            &[("n", m.to_string())],
            format!("wins by force in {m} move(s)"),
        )),
        Some(Score::Mate(m)) => why.push(Reason::new(
            "loses_by_force",
            &[("n", (-m).to_string())],
            format!("the best defence, but loses by force in {} move(s)", -m),
        )),
        _ => {}
    }
    if why.is_empty() {
        why.push(Reason::new(
            "keeps_balance",
            &[],
            "keeps the balance: the best continuation found".to_string(),
        ));
    }
    why
}
