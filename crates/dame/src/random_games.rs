//! Test helper: the positions of games of pseudo-random moves, the same
//! every run, for checking a fast routine against its plain definition.

use crate::{Position, RuleSet};

/// Calls `visit` on every position of `games` games of at most `plies`
/// pseudo-random moves from the start of `rules` (a game ends early when
/// the side to move has none). `seed` (not zero) fixes the moves.
pub(crate) fn for_each_position(
    rules: RuleSet,
    mut seed: u64,
    games: usize,
    plies: usize,
    mut visit: impl FnMut(&Position),
) {
    for _game in 0..games {
        let mut pos = Position::new(rules);
        for _ply in 0..plies {
            visit(&pos);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let mv = moves.as_slice()[(seed % moves.len() as u64) as usize];
            pos.play_unchecked(&mv);
        }
    }
}
