//! Perft: the number of move sequences of a given length, with bulk counting
//! at the last ply and duplicate captures merged. A finished game has no
//! moves, so lines that end the game early add nothing. Repetition needs a
//! game's history and is not applied; the draws that the position shows by
//! itself (one king each, the king-move counter, the move limits of the
//! king endings) are.

use crate::{Move, MoveList, Position};

// `perft` and `perft_divide`, and `Perft` for `Position` with the
// shortcuts below.
boardgame::perft_by_inherent_methods!(Position, Move, MoveList);

impl Position {
    /// Play the legal move `m`, the hash not kept up to date.
    #[inline(always)]
    fn perft_play(&mut self, m: &Move) {
        self.play_unhashed(m);
    }

    /// perft(2) and perft(3) by their shortcuts; the deeper counts go move
    /// by move.
    #[inline]
    fn perft_shortcut(&self, depth: u32) -> Option<u64> {
        match depth {
            2 => Some(self.perft2()),
            3 => Some(self.perft3()),
            _ => None,
        }
    }
}
