//! Mühle as a [`search::Game`].

use muehle::{Move, Phase, Position, eval};
use search::{Game, Status};

/// A Mühle position, searchable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MuehleState(pub Position);

impl Game for MuehleState {
    type Move = Move;
    const HISTORY_SIZE: usize = 25 * 24;

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        self.0.legal_moves_into(moves);
    }

    fn noisy_moves(&self, moves: &mut Vec<Move>) {
        // Mills that remove a stone (a mill under the strict rule that may
        // remove nothing is not noisy).
        let start = moves.len();
        self.0.mill_moves_into(moves);
        let mut i = start;
        while i < moves.len() {
            if moves[i].removal().is_some() {
                i += 1;
            } else {
                moves.swap_remove(i);
            }
        }
    }

    #[inline]
    fn play(&self, mv: Move) -> Self {
        let mut next = self.0;
        next.play_unchecked(mv);
        MuehleState(next)
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.0.hash()
    }

    fn status(&self) -> Status {
        match self.0.outcome() {
            None => Status::Ongoing,
            Some(o) if o.winner.is_none() => Status::Draw,
            Some(_) => Status::Lost,
        }
    }

    fn evaluate(&self) -> i32 {
        eval::evaluate(&self.0)
    }

    fn side_to_move(&self) -> usize {
        self.0.turn().index()
    }

    fn reversible_plies(&self) -> u32 {
        u32::from(self.0.plies_since_mill())
    }

    fn repetition_is_draw(&self) -> bool {
        self.0.rules().repetition_draw.is_some()
    }

    #[inline]
    fn is_noisy(&self, mv: Move) -> bool {
        mv.removal().is_some()
    }

    fn order_hint(&self, mv: Move) -> i32 {
        let mut hints = Vec::with_capacity(1);
        self.order_hints(&[mv], &mut hints);
        hints[0]
    }

    fn order_hints(&self, moves: &[Move], hints: &mut Vec<i32>) {
        let pos = &self.0;
        let us = pos.turn();
        let them = us.other();
        let opp = pos.stones(them);
        let opp_completions = opp.mill_completions();
        // Points that would complete an opponent's mill and that the
        // opponent can reach next move: occupying one blocks the mill.
        let mut block = opp_completions & pos.empty();
        if pos.phase(them) == Phase::Moving {
            block &= opp.neighbours();
        }
        hints.clear();
        hints.extend(moves.iter().map(|&mv| {
            let mut hint = 0;
            if let Some(r) = mv.removal() {
                hint += 10_000;
                // Prefer removing stones that threaten to close a mill.
                if (opp ^ r.bb()).mill_completions() != opp_completions {
                    hint += 200;
                }
            }
            if block.contains(mv.to()) {
                hint += 5_000;
            }
            hint
        }));
    }

    #[inline]
    fn history_index(&self, mv: Move) -> usize {
        let from = mv.from().map_or(24, |s| s.index());
        from * 24 + mv.to().index()
    }
}
