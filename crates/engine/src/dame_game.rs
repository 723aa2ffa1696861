//! Dame as a [`search::Game`].
//!
//! The engine always obeys the capture obligation, even when huffing is
//! allowed: skipping a capture only lets the opponent remove the piece. When
//! the opponent skipped one, [`best_huff`] says which of their pieces to remove.

use dame::{Bitboard, Game as DameGame, Move, Position, Square, eval};
use search::{Game, Status};

/// A Dame position, searchable.
#[derive(Clone, Copy, Debug)]
pub struct DameState(pub Position);

impl Game for DameState {
    type Move = Move;
    const HISTORY_SIZE: usize = 64 * 64;

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        if self.0.outcome().is_none() {
            moves.extend_from_slice(self.0.strict_moves().as_slice());
        }
    }

    fn noisy_moves(&self, moves: &mut Vec<Move>) {
        if self.0.has_capture() {
            self.legal_moves(moves);
        }
    }

    #[inline]
    fn play(&self, mv: Move) -> Self {
        let mut next = self.0;
        next.play_unchecked(&mv);
        DameState(next)
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
        u32::from(self.0.king_moves())
    }

    fn repetition_is_draw(&self) -> bool {
        self.0.rules().repetition_draw.is_some()
    }

    #[inline]
    fn is_noisy(&self, mv: Move) -> bool {
        mv.is_capture()
    }

    fn must_play_noisy(&self) -> bool {
        self.0.has_capture()
    }

    fn order_hint(&self, mv: Move) -> i32 {
        let mut hint = 0;
        if mv.is_capture() {
            hint += 10_000 + 100 * mv.capture_count() as i32;
            if (mv.captured() & self.0.kings(self.0.turn().other())).any() {
                hint += 300;
            }
        }
        if self.0.promotes(&mv) {
            hint += 5_000;
        }
        hint
    }

    #[inline]
    fn history_index(&self, mv: Move) -> usize {
        usize::from(mv.from().bit()) * 64 + usize::from(mv.to().bit())
    }
}

/// When the opponent skipped a capture (huffing on), the piece to remove:
/// the one whose removal leaves the best position by the evaluation.
/// `None` when no huff is possible.
pub fn best_huff(game: &DameGame) -> Option<Square> {
    let huffable: Bitboard = game.huffable();
    huffable.squares(game.position().size()).max_by_key(|&sq| {
        let mut g = game.clone();
        match g.huff(sq) {
            Ok(()) => eval::evaluate(g.position()),
            Err(_) => i32::MIN,
        }
    })
}
