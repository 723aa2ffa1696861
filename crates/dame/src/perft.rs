//! Perft: the number of move sequences of a given length, with bulk counting
//! at the last ply and duplicate captures merged. A finished game has no
//! moves, so lines that end the game early add nothing. Repetition needs a
//! game's history and is not applied; the draws that the position shows by
//! itself (one king each, the king-move counter, the move limits of the
//! king endings) are.

use crate::{Move, MoveList, Position};

/// Number of legal move sequences of length `depth` from `pos`.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(),
        2 => pos.perft2(),
        3 => pos.perft3(),
        _ => {
            let mut total = 0;
            let mut list = MoveList::new();
            pos.legal_moves_into(&mut list);
            for m in &list {
                let mut child = *pos;
                child.play_unhashed(m);
                total += perft(&child, depth - 1);
            }
            total
        }
    }
}

/// Perft split by the first move.
pub fn perft_divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .into_iter()
        .map(|m| {
            let mut child = *pos;
            child.play_unchecked(&m);
            (m, perft(&child, depth - 1))
        })
        .collect()
}
