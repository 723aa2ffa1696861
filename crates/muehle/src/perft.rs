//! Perft: the number of move sequences of a given length, with bulk counting
//! at the last ply. A finished game has no moves, so lines that end the game
//! early add nothing. Repetition needs a game's history and is not applied;
//! the no-mill counter is part of the position and is.

use crate::{Bitboard, Move, MoveList, Position};

// `perft` and `perft_divide`, and `Perft` for `Position` with the
// shortcuts below.
boardgame::perft_by_inherent_methods!(Position, Move, MoveList);

impl Position {
    /// Play the legal move `m`.
    #[inline(always)]
    fn perft_play(&mut self, m: &Move) {
        self.play_unchecked(*m);
    }

    /// perft(2) by [`perft2`]; the deeper counts go move by move.
    #[inline]
    fn perft_shortcut(&self, depth: u32) -> Option<u64> {
        (depth == 2).then(|| perft2(self))
    }
}

/// Perft at depth 2. While both sides are placing (and may only place), the
/// children's move counts follow from the parent's board without playing
/// the moves; any other position plays each move and bulk-counts the
/// replies.
fn perft2(pos: &Position) -> u64 {
    let us = pos.turn();
    let them = us.other();
    // The shortcut needs a game that goes on here and after our placement
    // (which sets the no-mill counter to 0).
    let no_mill_over =
        |plies: u16| matches!(pos.rules().no_mill_draw, Some(limit) if plies >= limit);
    let placing = pos.phase(us) == crate::Phase::Placing
        && !pos.rules().move_in_placing
        && pos.in_hand(them) > 0
        && pos.material(us) >= 3
        && !no_mill_over(pos.plies_since_mill())
        && !no_mill_over(0);
    if !placing {
        return perft_generic2(pos);
    }
    let own = pos.stones(us);
    let opp = pos.stones(them);
    let empty = pos.empty();
    let board = pos.board();
    let our_closers = board.mill_completions(own) & empty;
    let our_removable = if our_closers.any() {
        pos.removable(us)
    } else {
        Bitboard::EMPTY
    };
    let their_completions = board.mill_completions(opp);
    let our_hand_after = pos.in_hand(us) - 1;
    let mut total = 0;
    for to in empty {
        if our_closers.contains(to) && our_removable.any() {
            // A mill: the reply counts depend on the removed stone.
            for r in our_removable {
                let mut child = *pos;
                child.play_unchecked(Move::place(to).with_removal(r));
                total += child.count_legal_moves();
            }
            continue;
        }
        let child_empty = empty ^ to.bb();
        let n = u64::from(child_empty.count());
        let closing = u64::from((their_completions & child_empty).count());
        let per_closing = if closing > 0 {
            u64::from(
                pos.removable_from(own | to.bb(), our_hand_after)
                    .count()
                    .max(1),
            )
        } else {
            1
        };
        total += n - closing + closing * per_closing;
    }
    total
}

fn perft_generic2(pos: &Position) -> u64 {
    let mut list = MoveList::new();
    pos.legal_moves_into(&mut list);
    list.iter()
        .map(|m| {
            let mut child = *pos;
            child.play_unchecked(*m);
            child.count_legal_moves()
        })
        .sum()
}
