//! Explaining Dame moves in words, from the move itself and the engine's
//! line after it.

use dame::{Color, Move, Position};
use search::Score;

fn side(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

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
pub fn explain_dame_move(pos: &Position, pv: &[Move], score: Option<Score>) -> Vec<String> {
    let Some(&mv) = pv.first() else {
        return Vec::new();
    };
    let us = pos.turn();
    let them = !us;
    let mut why = Vec::new();
    if mv.is_capture() {
        let kings = (mv.captured() & pos.kings(them)).count();
        let mut text = format!("captures {}", pieces(mv.capture_count()));
        if kings > 0 {
            text.push_str(&format!(
                " ({kings} of them {})",
                if kings == 1 { "a king" } else { "kings" }
            ));
        }
        why.push(text);
    }
    if pos.promotes(&mv) {
        why.push(format!("crowns a king on {}", mv.to()));
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
        why.push(format!(
            "a shot: gives material away and wins more back (+{balance} in the line)"
        ));
    } else if !mv.is_capture() && balance > 0 {
        why.push(format!("wins material in the line (+{balance})"));
    } else if balance < 0 && !matches!(score, Some(Score::Mate(m)) if m > 0) {
        why.push(format!(
            "the line loses {}: the other moves lose more",
            pieces(balance.unsigned_abs() as u32)
        ));
    }
    if pos.has_capture() && !mv.is_capture() {
        why.push("skips a capture (huffing rules: the opponent may huff)".to_string());
    }
    let next = {
        let mut n = *pos;
        n.play_unchecked(&mv);
        n
    };
    if !mv.is_capture() && next.has_capture() && balance >= 0 {
        why.push(format!("offers {} a capture", side(them)));
    }
    match score {
        Some(Score::Mate(m)) if m > 0 => why.push(format!("wins by force in {m} move(s)")),
        Some(Score::Mate(m)) => why.push(format!(
            "the best defence, but loses by force in {} move(s)",
            -m
        )),
        _ => {}
    }
    if why.is_empty() {
        why.push("keeps the balance: the best continuation found".to_string());
    }
    why
}
