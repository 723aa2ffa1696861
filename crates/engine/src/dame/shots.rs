//! Finding Dame shots for the tactical suites: positions where the best move
//! gives material away (the opponent must capture) and the combination that
//! follows wins material back with interest.
//!
//! The recipe (see `examples/dame_shots.rs`): games from random openings
//! played on by a shallow, slightly random engine; every position of them
//! is screened by a medium search, and the candidates are verified by a
//! deep two-line search. A position is a shot when
//!
//! - the side to move has no capture, and the deep search's best move is a
//!   quiet move after which the opponent must capture (a sacrifice),
//! - the deep principal line, followed until the side to move has no
//!   capture any more, ends with the side that played the shot at least one
//!   man ahead of the start (a king counts [`KING_MEN`] men), or the score
//!   is a forced win,
//! - the next move after the solutions (the best and those within
//!   [`SAME`] of it, at most [`MAX_SOLUTIONS`]) scores at least [`MARGIN`] less
//!   and at most [`SECOND_AT_MOST`] (the game is not won anyway),
//! - each side has at least [`MIN_PIECES_8`] pieces on 8×8 (7 on 10×10).

use std::sync::atomic::AtomicBool;

use dame::{Color, Move, Position};
use search::{Engine, Limits, Score};

use crate::DameState;

/// A king counts this many men in the material balance of a shot.
pub const KING_MEN: i32 = 3;
/// The best move must beat the second best by this much (centipawns).
pub const MARGIN: i32 = 75;
/// Moves scoring within this of the best are solutions too.
pub const SAME: i32 = 20;
/// At most this many solutions.
pub const MAX_SOLUTIONS: usize = 3;
/// Without the shot the game must still be open: the second best move
/// scores at most this much (centipawns).
pub const SECOND_AT_MOST: i32 = 150;
/// Each side has at least this many pieces on 8×8 (twice as many less two
/// on 10×10): shots of the middle game, not king endings.
pub const MIN_PIECES_8: u32 = 4;

/// A verified shot.
#[derive(Clone, Debug)]
pub struct Shot {
    /// The position, the side to move to play the shot.
    pub position: Position,
    /// The verifying search's best move.
    pub best: Move,
    /// The best move and those scoring as well (within [`SAME`]).
    pub solutions: Vec<Move>,
    /// Depth of the verifying search.
    pub depth: u32,
    /// The verifying search's score of the best move.
    pub score: Score,
    /// Score of the second best move at the same depth.
    pub second: Score,
    /// Men won net by the combination (kings count [`KING_MEN`]).
    pub gain: i32,
    /// The combination, as played in the deep line.
    pub line: Vec<Move>,
}

/// Material of `c` in men (kings count [`KING_MEN`]).
pub fn material(pos: &Position, c: Color) -> i32 {
    pos.men(c).count() as i32 + KING_MEN * pos.kings(c).count() as i32
}

/// The material balance for `c`.
pub fn balance(pos: &Position, c: Color) -> i32 {
    material(pos, c) - material(pos, c.other())
}

/// A score as one comparable number (wins above every centipawn value).
pub fn score_value(s: Score) -> i32 {
    match s {
        Score::Cp(v) => v,
        Score::Mate(n) if n > 0 => 100_000 - n,
        Score::Mate(n) => -100_000 - n,
    }
}

/// One search to a fixed depth with a fresh one-thread engine.
pub fn search_lines(pos: &Position, depth: u32, lines: usize) -> search::SearchResult<Move> {
    let engine = Engine::new(16, 1);
    let stop = AtomicBool::new(false);
    engine.search(
        &DameState::new(*pos),
        &[],
        Limits::depth(depth),
        lines,
        &stop,
        &mut |_| {},
    )
}

/// Whether `mv` gives material: a quiet move after which the opponent must
/// capture.
pub fn is_sacrifice(pos: &Position, mv: &Move) -> bool {
    if mv.is_capture() {
        return false;
    }
    let mut next = *pos;
    next.play_unchecked(mv);
    next.outcome().is_none() && next.has_capture()
}

/// Follow `line` from `pos` until, after at least two plies, the side to
/// move has no capture: the combination and the balance gained by the side
/// to move of `pos`. `None` if the line ends while captures are pending.
pub fn combination(pos: &Position, line: &[Move]) -> Option<(Vec<Move>, i32)> {
    let me = pos.turn();
    let before = balance(pos, me);
    let mut p = *pos;
    let mut played = Vec::new();
    for m in line {
        if played.len() >= 2 && !p.has_capture() {
            break;
        }
        if !p.is_legal(m) {
            return None;
        }
        p.play_unchecked(m);
        played.push(*m);
        if p.outcome().is_some() {
            return Some((played, balance(&p, me) - before));
        }
    }
    if p.has_capture() {
        return None;
    }
    Some((played, balance(&p, me) - before))
}

/// The screen: a medium search (`depth`) whose best move is a sacrifice
/// with a gain of at least one man on its line (or a forced win).
pub fn screen(pos: &Position, depth: u32) -> bool {
    let min = match pos.size() {
        dame::BoardSize::Eight => MIN_PIECES_8,
        _ => 2 * MIN_PIECES_8 - 1,
    };
    if pos.outcome().is_some()
        || pos.has_capture()
        || pos.legal_moves().len() < 2
        || [Color::White, Color::Black]
            .iter()
            .any(|&c| pos.pieces(c).count() < min)
    {
        return false;
    }
    let r = search_lines(pos, depth, 1);
    let Some(best) = r.best else { return false };
    if !is_sacrifice(pos, &best) {
        return false;
    }
    let line = r.lines.first().map(|l| l.1.clone()).unwrap_or_default();
    matches!(r.score, Score::Mate(n) if n > 0)
        || combination(pos, &line).is_some_and(|(_, gain)| gain >= 1)
}

/// The verification: a deep two-line search (`depth`).
pub fn verify(pos: &Position, depth: u32) -> Option<Shot> {
    check(pos, depth).ok()
}

/// [`verify`], with the reason of a rejection.
pub fn check(pos: &Position, depth: u32) -> Result<Shot, String> {
    let r = search_lines(pos, depth, 1 + MAX_SOLUTIONS);
    let best = r.best.ok_or("no move".to_string())?;
    if !is_sacrifice(pos, &best) {
        return Err("the best move is no sacrifice".into());
    }
    let (score, line) = r.lines[0].clone();
    // Moves as good as the best (another order of the same combination)
    // count as solutions too.
    let solutions: Vec<Move> = r
        .lines
        .iter()
        .take_while(|l| score_value(score) - score_value(l.0) <= SAME)
        .filter_map(|l| l.1.first().copied())
        .collect();
    let Some(&(second, _)) = r.lines.get(solutions.len()) else {
        return Err("no other move, or too many solutions".into());
    };
    if score_value(score) - score_value(second) < MARGIN {
        return Err(format!(
            "the best move not beating the others: {} vs {}",
            score.protocol(),
            second.protocol()
        ));
    }
    if score_value(second) > SECOND_AT_MOST {
        return Err(format!("won anyway: {}", second.protocol()));
    }
    let won = matches!(score, Score::Mate(n) if n > 0);
    let (combo, gain) = combination(pos, &line).ok_or("the line ends in captures".to_string())?;
    if gain < 1 && !won {
        return Err("no material gained".into());
    }
    Ok(Shot {
        position: *pos,
        best,
        solutions,
        depth,
        score,
        second,
        gain,
        line: combo,
    })
}

/// A game from a random opening of `random_plies` moves, played on by a
/// `depth`-ply search that plays a random move one time in `noise`: every
/// position reached, the start excluded.
pub fn random_game(
    rules: dame::RuleSet,
    seed: u64,
    random_plies: usize,
    depth: u32,
    noise: u32,
    max_plies: usize,
) -> Vec<Position> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut pos = Position::new(rules);
    let mut seen = Vec::new();
    for ply in 0..max_plies {
        if pos.outcome().is_some() {
            break;
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = if ply < random_plies || rng.u32(0..noise.max(1)) == 0 {
            moves.as_slice()[rng.usize(0..moves.len())]
        } else {
            match search_lines(&pos, depth, 1).best {
                Some(m) => m,
                None => break,
            }
        };
        pos.play_unchecked(&mv);
        seen.push(pos);
    }
    seen
}

/// One suite line with its comment: the verification (depth, scores, gain,
/// the combination) above `name ; rules ; fen ; depth ; move`.
pub fn suite_entry(name: &str, rules: &str, shot: &Shot) -> String {
    let mut p = shot.position;
    let mut words = Vec::new();
    for m in &shot.line {
        words.push(p.short_notation(m));
        p.play_unchecked(m);
    }
    format!(
        "# depth {} score {} (next best {}), gain {} men: {}\n{name} ; {rules} ; {} ; {} ; {}\n",
        shot.depth,
        shot.score.protocol(),
        shot.second.protocol(),
        shot.gain,
        words.join(" "),
        shot.position.fen(),
        shot.depth,
        shot.solutions
            .iter()
            .map(|m| shot.position.short_notation(m))
            .collect::<Vec<_>>()
            .join(" "),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use dame::RuleSet;

    #[test]
    fn the_two_for_one_shot_is_found_and_verified() {
        // b4-c5 gives a man, b6xd4 is forced, c3xe5xg7 takes two back.
        let pos = Position::from_fen("W:Wb2,c3,b4:Bb6,f6,h6,a7", RuleSet::DAME).expect("fen");
        // Too few pieces for the suites' screen, but a shot all the same.
        assert!(!screen(&pos, 6));
        let shot = check(&pos, 8).unwrap_or_else(|why| panic!("{why}"));
        assert_eq!(pos.short_notation(&shot.best), "b4-c5");
        assert!(shot.gain >= 1, "{shot:?}");
        assert!(is_sacrifice(&pos, &shot.best));
    }

    #[test]
    fn a_suite_shot_passes_the_screen() {
        // shot8-s1115-p33 of tests/dame_shots_8.txt.
        let fen = "B:Wa1,g1,b2,h2,a3,d4,h4,Kb8:Bd2,a5,d6,f6,h6,g7,d8,h8:F17";
        let pos = Position::from_fen(fen, RuleSet::DAME).expect("fen");
        assert!(screen(&pos, 6));
    }

    #[test]
    fn a_quiet_position_is_no_shot() {
        let pos = Position::new(RuleSet::DAME);
        assert!(!screen(&pos, 4));
        assert!(verify(&pos, 4).is_none());
    }

    #[test]
    fn the_combination_stops_when_the_captures_end() {
        let pos = Position::from_fen("W:Wb2,c3,b4:Bb6,f6,h6,a7", RuleSet::DAME).expect("fen");
        let line: Vec<Move> = ["b4-c5", "b6xd4", "c3xe5xg7", "a7-b6"]
            .iter()
            .scan(pos, |p, m| {
                let mv = p.parse_move(m).expect(m);
                p.play_unchecked(&mv);
                Some(mv)
            })
            .collect();
        // Black cannot take g7 back (men do not capture backward): the
        // combination ends after three plies, one man up from one behind.
        let (combo, gain) = combination(&pos, &line).expect("complete");
        assert_eq!(combo.len(), 3);
        assert_eq!(gain, 1);
        // A line that stops while a capture is pending is no combination.
        assert!(combination(&pos, &line[..2]).is_none());
    }
}
