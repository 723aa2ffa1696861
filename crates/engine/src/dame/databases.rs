//! The Dame endgame databases in play (`brett tablebase build --game …`):
//! the search scores the positions they hold exactly
//! ([`search::Game::probe`]) and, when the root is held, plays from them
//! ([`search::Game::probe_moves`]): a win by the fastest line, a loss by
//! the longest, a draw by a move that keeps it.
//!
//! The tables do not count the king-move counter (draw after 50 plies of
//! king moves without capture). A win or loss in `n` plies is used only
//! when `n` is at most the plies left before that draw (`limit − counter`):
//! then the game ends before the counter can, and the value and distance
//! are exact; longer ones are refused (the search decides). Draws are
//! always used. The FMJD ending limits are in the tables and exact.

use dame::{Move, Position};
use search::Exact;
use tablebase::Value;
use tablebase::dame::DameTablebase;

/// Positions with more pieces are not looked up (no table has them).
pub const MAX_PIECES: u32 = 8;

/// The installed Dame databases, if any.
pub fn installed() -> Option<&'static DameTablebase> {
    crate::muehle::databases::installed().map(|d| d.dame())
}

/// The value as the search's exact value, if the king-move counter cannot
/// change it.
pub fn exact(pos: &Position, v: Value) -> Option<Exact> {
    let left = pos
        .rules()
        .king_move_draw
        .map(|limit| u32::from(limit.saturating_sub(pos.king_moves())));
    crate::exact_within(v, left)
}

/// The value of `pos` from `tb`, if held and exact.
pub fn probe_in(tb: &DameTablebase, pos: &Position) -> Option<Exact> {
    if pos.occupied().count() > MAX_PIECES {
        return None;
    }
    exact(pos, tb.probe_value(pos)?)
}

/// The exact value of `pos` from the installed databases.
pub fn probe(pos: &Position) -> Option<Exact> {
    probe_in(installed()?, pos)
}

/// Every legal move with its exact value, if the databases hold the
/// position and all its moves exactly. The preference among moves of equal
/// value is the evaluation after the move (for the side to move): of two
/// drawing moves the one that keeps material and pressure comes first, so
/// an opponent who errs can still lose, and of two losses as long as each
/// other the one that resists best.
pub fn probe_moves(pos: &Position) -> Option<Vec<(Move, Exact, i32)>> {
    if pos.occupied().count() > MAX_PIECES || pos.outcome().is_some() {
        return None;
    }
    let tb = installed()?;
    tb.probe_value(pos)?;
    let list = tb.probe_moves(pos).ok()?;
    let mut out = Vec::with_capacity(list.len());
    for (m, v) in list {
        let mut child = *pos;
        child.play_unchecked(&m);
        // The child's own counter decides whether the value is exact (a
        // man's move or a capture starts the king-move counter afresh).
        let (child_value, e) = match v {
            Value::Win(n) => (Value::Loss(n.saturating_sub(1)), Exact::Win(u32::from(n))),
            Value::Loss(n) => (Value::Win(n.saturating_sub(1)), Exact::Loss(u32::from(n))),
            Value::Draw => (Value::Draw, Exact::Draw),
        };
        exact(&child, child_value)?;
        out.push((m, e, -settled_eval(&child)));
    }
    Some(out)
}

/// The evaluation for the side to move once the captures are over: with a
/// capture due, the best of them (capture by capture, as quiescence does).
/// Cheap in the few-piece positions the databases hold.
fn settled_eval(pos: &Position) -> i32 {
    if pos.outcome().is_some() || !pos.has_capture() {
        return dame::eval::evaluate(pos);
    }
    pos.strict_moves()
        .iter()
        .map(|m| {
            let mut next = *pos;
            next.play_unchecked(m);
            -settled_eval(&next)
        })
        .max()
        .unwrap_or_else(|| dame::eval::evaluate(pos))
}

/// The value in words for the side to move: "win in 7 plies (database)".
pub fn verdict(v: Value) -> String {
    match v {
        Value::Win(n) => format!("win in {n} plies (database)"),
        Value::Loss(n) => format!("loss in {n} plies (database)"),
        Value::Draw => "draw (database)".to_string(),
    }
}
