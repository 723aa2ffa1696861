//! Puzzles from the databases: "find the best move" (seed 000), positions
//! where exactly one move keeps the win (or saves the draw).

use muehle::{Color, Move, Position, RuleSet};
use tablebase::{Sector, SectorIndex, Tablebase, Value, position_of};

/// One puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The position string.
    pub position: String,
    /// The rules (text form).
    pub rules: String,
    /// `win` (the one move that keeps the win) or `draw` (the one move
    /// that saves the draw).
    pub goal: &'static str,
    /// The value for the side to move.
    pub value: Value,
    /// The one move, then the best play of both sides from the databases.
    pub solution: Vec<Move>,
    /// 1 (easy) to 5 (hard), by the distance to the end and the number of
    /// tempting wrong moves.
    pub difficulty: u8,
}

/// The best line from `pos` by the databases, at most `max` plies.
pub fn best_line(tb: &Tablebase, pos: &Position, max: usize) -> Vec<Move> {
    let mut line = Vec::new();
    let mut p = *pos;
    while line.len() < max && !p.is_game_over() {
        let Ok(Some(moves)) = tb.probe_moves(&p) else {
            break;
        };
        let Some(&(m, _)) = moves.first() else {
            break;
        };
        line.push(m);
        p.play_unchecked(m);
    }
    line
}

/// The puzzle in `pos`, if exactly one move keeps its value (a win, or a
/// draw that every other move loses).
pub fn puzzle_at(tb: &Tablebase, pos: &Position) -> Option<Puzzle> {
    let value = tb.probe(pos).ok()??;
    let moves = tb.probe_moves(pos).ok()??;
    if moves.len() < 2 {
        return None;
    }
    let keeping: Vec<&(Move, Value)> = moves.iter().filter(|(_, v)| v.same_result(value)).collect();
    let goal = match value {
        Value::Win(n) if n >= 3 => "win",
        Value::Draw => "draw",
        _ => return None,
    };
    if keeping.len() != 1 {
        return None;
    }
    let key = keeping[0].0;
    let mut after = *pos;
    after.play_unchecked(key);
    let mut solution = vec![key];
    solution.extend(best_line(tb, &after, 11));
    let distance = match value {
        Value::Win(n) => u32::from(n),
        _ => 12,
    };
    let wrong = (moves.len() - 1) as u32;
    let difficulty = (1 + distance / 6 + u32::from(wrong > 12)).clamp(1, 5) as u8;
    Some(Puzzle {
        position: pos.fen(),
        rules: pos.rules().to_string(),
        goal,
        value,
        solution,
        difficulty,
    })
}

/// `count` puzzles from random positions of the built sectors `sectors`
/// (each side to move alike), reproducible by `seed`. Positions where a
/// mill closes at once are left out (too easy), so are duplicates.
pub fn generate(
    tb: &Tablebase,
    rules: RuleSet,
    sectors: &[Sector],
    count: usize,
    seed: u64,
) -> Vec<Puzzle> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut out: Vec<Puzzle> = Vec::new();
    let usable: Vec<Sector> = sectors
        .iter()
        .copied()
        .filter(|&s| tb.file(s).is_ok())
        .collect();
    if usable.is_empty() {
        return out;
    }
    let mut tries = 0usize;
    while out.len() < count && tries < count * 20_000 {
        tries += 1;
        let s = usable[rng.usize(0..usable.len())];
        let idx = SectorIndex::new(u32::from(s.mover), u32::from(s.other));
        let (m, o) = idx.position(rng.u64(0..idx.size()));
        let color = if rng.bool() {
            Color::White
        } else {
            Color::Black
        };
        let Ok(pos) = position_of(m, o, color, rules) else {
            continue;
        };
        if pos.is_game_over() || pos.legal_moves().iter().any(|mv| mv.removal().is_some()) {
            continue;
        }
        if let Some(p) = puzzle_at(tb, &pos)
            && !out.iter().any(|q| q.position == p.position)
        {
            out.push(p);
        }
    }
    out.sort_by_key(|p| p.difficulty);
    out
}
