//! Mühle as a [`search::Game`].

use muehle::eval::{self, Weights};
use muehle::{Move, Phase, Position};
use search::Game;

/// A Mühle position as the search sees it: the position, the weights of
/// its evaluation and whether the search may ask the perfect-play
/// databases, the opening book and the placing solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MuehleState {
    /// The position.
    pub pos: Position,
    weights: &'static Weights,
    databases: bool,
}

impl MuehleState {
    /// `pos` evaluated with the tuned weights, with the databases, the
    /// book and the placing solver (those installed).
    #[inline]
    pub fn new(pos: Position) -> MuehleState {
        MuehleState {
            pos,
            weights: &Weights::TUNED,
            databases: true,
        }
    }

    crate::state_weights!(MuehleState);
}

fn noisy_moves(pos: &Position, moves: &mut Vec<Move>) {
    // Mills that remove a stone (a mill under the strict rule that may
    // remove nothing is not noisy).
    let start = moves.len();
    pos.mill_moves_into(moves);
    let mut i = start;
    while i < moves.len() {
        if moves[i].removal().is_some() {
            i += 1;
        } else {
            moves.swap_remove(i);
        }
    }
}

/// A side that moves (or is about to: at most one stone left in hand) with
/// at most three slides left may be blocked by the next moves: the search
/// looks further ([`Game::critical`]).
fn critical(pos: &Position) -> bool {
    let empty = pos.empty();
    [pos.turn(), pos.turn().other()].into_iter().any(|c| {
        pos.in_hand(c) <= 1
            && pos.phase(c) != Phase::Flying
            && pos.stones(c).count() >= 3
            && pos.board().slides_to(pos.stones(c), empty) <= 3
    })
}

fn order_hints(pos: &Position, moves: &[Move], hints: &mut Vec<i32>) {
    let us = pos.turn();
    let them = us.other();
    let board = pos.board();
    let opp = pos.stones(them);
    let opp_completions = board.mill_completions(opp);
    // Points that would complete an opponent's mill and that the opponent
    // can reach next move: occupying one blocks the mill.
    let mut block = opp_completions & pos.empty();
    if pos.phase(them) == Phase::Moving {
        block &= board.neighbours(opp);
    }
    hints.clear();
    hints.extend(moves.iter().map(|&mv| {
        let mut hint = 0;
        if let Some(r) = mv.removal() {
            hint += 10_000;
            // Prefer removing stones that threaten to close a mill.
            if board.mill_completions(opp ^ r.bb()) != opp_completions {
                hint += 200;
            }
        }
        if block.contains(mv.to()) {
            hint += 5_000;
        }
        hint
    }));
}

impl Game for MuehleState {
    type Move = Move;
    const HISTORY_SIZE: usize = 25 * 24;
    const REVERSE_FUTILITY: i32 = 90;
    const LOG_REDUCTIONS: bool = true;

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        self.pos.legal_moves_into(moves);
    }

    fn noisy_moves(&self, moves: &mut Vec<Move>) {
        noisy_moves(&self.pos, moves);
    }

    #[inline]
    fn play(&self, mv: Move) -> Self {
        let mut next = *self;
        next.pos.play_unchecked(mv);
        next
    }

    crate::state_basics!();

    #[inline]
    fn critical(&self) -> bool {
        critical(&self.pos)
    }

    fn reversible_plies(&self) -> u32 {
        u32::from(self.pos.plies_since_mill())
    }

    fn repetition_is_draw(&self) -> bool {
        self.pos.rules().repetition_draw.is_some()
    }

    #[inline]
    fn is_noisy(&self, mv: Move) -> bool {
        mv.removal().is_some()
    }

    fn order_hint(&self, mv: Move) -> i32 {
        let mut hints = Vec::with_capacity(1);
        order_hints(&self.pos, &[mv], &mut hints);
        hints[0]
    }

    fn order_hints(&self, moves: &[Move], hints: &mut Vec<i32>) {
        order_hints(&self.pos, moves, hints);
    }

    #[inline]
    fn history_index(&self, mv: Move) -> usize {
        let from = mv.from().map_or(24, |s| s.index());
        from * 24 + mv.to().index()
    }

    fn probe(&self) -> Option<search::Exact> {
        if !self.databases {
            return None;
        }
        crate::muehle::databases::probe(&self.pos)
    }

    fn probe_moves(&self) -> Option<Vec<(Move, search::Exact, i32)>> {
        if !self.databases {
            return None;
        }
        crate::muehle::databases::probe_moves(&self.pos)
    }

    fn sound_moves(&self, budget: &search::SolveBudget) -> Option<Vec<Move>> {
        if !self.databases {
            return None;
        }
        let tb = crate::muehle::databases::for_rules(self.pos.rules())?;
        crate::muehle::placing::sound_moves(tb, &self.pos, budget)
    }

    fn book_move(&self) -> Option<Move> {
        crate::muehle::book::book_move(&self.pos)
    }
}
