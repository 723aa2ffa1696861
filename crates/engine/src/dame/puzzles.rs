//! Dame puzzles, "find the best move": endings from the databases where
//! exactly one move keeps the win (or saves the draw), and the shots of the
//! tactical suites (a man given away for more back, `crate::dame::shots`).
//! Moves are written as the API writes them (the whole path of a capture).

use dame::{Bitboard, Position, RuleSet, Square};
use tablebase::Value;
use tablebase::dame::{DameTablebase, Material, position_at};

use crate::dame::databases;

/// One puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The position (FEN).
    pub position: String,
    /// The rules (text form).
    pub rules: String,
    /// `win` (the one move that keeps the win), `draw` (the one move that
    /// saves the draw) or `shot` (the sacrifice that wins material).
    pub goal: &'static str,
    /// The databases' value for the side to move (endings), or `None`.
    pub value: Option<Value>,
    /// The men the shot wins (a king counts three); 0 for endings.
    pub gain: i32,
    /// The first moves that solve it (one for endings, up to three for
    /// shots).
    pub accept: Vec<String>,
    /// The first solving move, then the play that follows (best play by
    /// the databases, or the shot's combination).
    pub solution: Vec<String>,
    /// 1 (easy) to 5 (hard).
    pub difficulty: u8,
}

/// `pos` turned half round with the colours swapped: the same position
/// for the other side to move.
fn mirrored(pos: &Position) -> Option<Position> {
    let mut s = pos.to_setup();
    let size = s.size;
    let last = size.squares() as u8 + 1;
    let turn = |bb: Bitboard| {
        bb.squares(size)
            .filter_map(|q| Square::from_number(size, last - q.number()))
            .fold(Bitboard::EMPTY, |acc, q| Bitboard(acc.0 | q.bb().0))
    };
    s.pieces = [turn(s.pieces[1]), turn(s.pieces[0])];
    s.kings = turn(s.kings);
    s.turn = s.turn.other();
    Position::from_setup(s, *pos.rules()).ok()
}

/// The best line from `pos` by the databases, at most `max` plies.
fn best_line(tb: &DameTablebase, pos: &Position, max: usize) -> Vec<String> {
    let mut line = Vec::new();
    let mut p = *pos;
    while line.len() < max && p.outcome().is_none() {
        let Some(&(m, _)) = tb
            .probe_moves(&p)
            .ok()
            .and_then(|ms| ms.first().copied())
            .as_ref()
        else {
            break;
        };
        line.push(m.to_string());
        p.play_unchecked(&m);
    }
    line
}

/// The puzzle in `pos`, if the databases hold it exactly (the king-move
/// counter cannot change its value), it is quiet (no capture to make),
/// there is a choice, and exactly one move keeps its value (a win in at
/// least three plies, or a draw every other move loses).
pub fn ending_at(tb: &DameTablebase, pos: &Position) -> Option<Puzzle> {
    if pos.outcome().is_some() || pos.has_capture() || pos.legal_moves().len() < 2 {
        return None;
    }
    let value = tb.probe_value(pos)?;
    databases::exact(pos, value)?;
    let goal = match value {
        Value::Win(n) if n >= 3 => "win",
        Value::Draw => "draw",
        _ => return None,
    };
    let moves = tb.probe_moves(pos).ok()?;
    let keeping: Vec<_> = moves.iter().filter(|(_, v)| v.same_result(value)).collect();
    let [(key, _)] = keeping[..] else {
        return None;
    };
    let mut after = *pos;
    after.play_unchecked(key);
    let mut solution = vec![key.to_string()];
    solution.extend(best_line(tb, &after, 11));
    let distance = match value {
        Value::Win(n) => u32::from(n),
        _ => 12,
    };
    let wrong = (moves.len() - 1) as u32;
    let difficulty = (1 + distance / 8 + u32::from(wrong > 8)).clamp(1, 5) as u8;
    Some(Puzzle {
        position: pos.fen(),
        rules: pos.rules().to_string(),
        goal,
        value: Some(value),
        gain: 0,
        accept: vec![key.to_string()],
        solution,
        difficulty,
    })
}

/// `count` ending puzzles from random positions of the tables of `rules`
/// with at most `pieces` pieces that are installed in `tb` (at least three
/// pieces; each side to move alike), reproducible by `seed`, easiest
/// first; no position twice.
pub fn endings(
    tb: &DameTablebase,
    rules: RuleSet,
    pieces: u32,
    count: usize,
    seed: u64,
) -> Vec<Puzzle> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let usable: Vec<Material> = Material::all_up_to(pieces)
        .into_iter()
        .filter(|m| m.pieces() >= 3 && tb.try_file(&rules, *m).is_some())
        .collect();
    let mut out: Vec<Puzzle> = Vec::new();
    if usable.is_empty() {
        return out;
    }
    let mut tries = 0usize;
    while out.len() < count && tries < count * 20_000 {
        tries += 1;
        let m = usable[rng.usize(0..usable.len())];
        let size = tablebase::dame::Layout::new(rules.board, m).size();
        let Some(pos) = position_at(&rules, m, rng.u64(0..size.max(1)), 0) else {
            continue;
        };
        let pos = if rng.bool() {
            match mirrored(&pos) {
                Some(p) => p,
                None => continue,
            }
        } else {
            pos
        };
        if let Some(p) = ending_at(tb, &pos)
            && !out.iter().any(|q| q.position == p.position)
        {
            out.push(p);
        }
    }
    out.sort_by_key(|p| p.difficulty);
    out
}

/// Why a line of a shot suite could not be made a puzzle.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("line {line}: {why}")]
pub struct SuiteError {
    /// The line number (from 1).
    pub line: usize,
    /// What is wrong.
    pub why: String,
}

/// The puzzles of a shot suite (the format of `tests/dame_shots_8.txt`:
/// `name ; rules ; FEN ; depth ; solutions`, each under its verification
/// comment `# depth … gain N men: <the combination>`), in the suite's
/// order. Shots that win by force without winning material (a gain below
/// one man) are left out: their combination is not the whole solution.
pub fn shots(suite: &str) -> Result<Vec<Puzzle>, SuiteError> {
    let mut out = Vec::new();
    let mut combo: Option<(i32, Vec<String>)> = None;
    for (i, raw) in suite.lines().enumerate() {
        let line = raw.trim();
        let err = |why: String| SuiteError { line: i + 1, why };
        if let Some(comment) = line.strip_prefix('#') {
            combo = comment.split_once(", gain ").and_then(|(_, rest)| {
                let (gain, moves) = rest.split_once(" men: ")?;
                Some((
                    gain.trim().parse().ok()?,
                    moves.split_whitespace().map(str::to_string).collect(),
                ))
            });
            continue;
        }
        if line.is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        let [_name, rules, fen, depth, solutions] = fields[..] else {
            return Err(err(format!("{} fields, not 5", fields.len())));
        };
        let rules: RuleSet = rules.parse().map_err(|e| err(format!("{e}")))?;
        let pos = Position::from_fen(fen, rules).map_err(|e| err(e.to_string()))?;
        let Some((gain, moves)) = combo.take() else {
            return Err(err(
                "no verification comment with the combination above it".into()
            ));
        };
        let full = |p: &Position, text: &str| {
            p.parse_move(text)
                .map(|m| m.to_string())
                .map_err(|e| err(format!("{text}: {e}")))
        };
        let accept = solutions
            .split_whitespace()
            .map(|m| full(&pos, m))
            .collect::<Result<Vec<_>, _>>()?;
        let mut p = pos;
        let mut solution = Vec::new();
        for text in &moves {
            let m = p
                .parse_move(text)
                .map_err(|e| err(format!("{text}: {e}")))?;
            solution.push(m.to_string());
            p.play_unchecked(&m);
        }
        if gain < 1 {
            continue;
        }
        if solution.first().is_none_or(|first| !accept.contains(first)) {
            return Err(err("the combination does not start with a solution".into()));
        }
        let depth: u32 = depth
            .parse()
            .map_err(|_| err(format!("bad depth '{depth}'")))?;
        let long = solution.len() as u32;
        let ten = u32::from(pos.size() != dame::BoardSize::Eight);
        let difficulty =
            (long / 2 + ten + u32::from(depth > 10 && accept.len() == 1)).clamp(1, 5) as u8;
        out.push(Puzzle {
            position: pos.fen(),
            rules: pos.rules().to_string(),
            goal: "shot",
            value: None,
            gain,
            accept,
            solution,
            difficulty,
        });
    }
    Ok(out)
}
