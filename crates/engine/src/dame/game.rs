//! Dame as a [`search::Game`].
//!
//! The engine always obeys the capture obligation, even when huffing is
//! allowed: skipping a capture only lets the opponent remove the piece. When
//! the opponent skipped one, [`best_huff`] says which of their pieces to remove.

use dame::eval::{self, Weights};
use dame::{Bitboard, Game as DameGame, Move, MoveList, Position, Square};
use search::Game;

/// A Dame position as the search sees it: the position, the weights of its
/// evaluation and whether the search may ask the endgame databases.
#[derive(Clone, Copy, Debug)]
pub struct DameState {
    /// The position.
    pub pos: Position,
    weights: &'static Weights,
    databases: bool,
}

impl DameState {
    /// `pos` evaluated with the tuned weights of its rules
    /// ([`Weights::for_rules`]), with the endgame databases (those installed).
    #[inline]
    pub fn new(pos: Position) -> DameState {
        DameState {
            pos,
            weights: Weights::for_rules(pos.rules()),
            databases: true,
        }
    }

    crate::state_weights!(DameState);
}

fn order_hint(pos: &Position, mv: Move) -> i32 {
    let mut hint = 0;
    if mv.is_capture() {
        hint += 10_000 + 100 * mv.capture_count() as i32;
        if (mv.captured() & pos.kings(pos.turn().other())).any() {
            hint += 300;
        }
    }
    if pos.promotes(&mv) {
        hint += 5_000;
    }
    hint
}

/// The quiet moves after which the opponent must capture: sacrifices, the
/// first move of a shot. Appended to `moves`.
fn sacrifices(pos: &Position, moves: &mut Vec<Move>) {
    if pos.has_capture() {
        return;
    }
    for m in pos.strict_moves().iter() {
        let mut next = *pos;
        next.play_unchecked(m);
        if next.has_capture() {
            moves.push(*m);
        }
    }
}

/// Reverse futility margin of the Dame search per ply of depth (hundredths
/// of a man; never with a capture pending, see `search::Game`).
const DAME_REVERSE_FUTILITY: i32 = 60;

/// What a draw costs the Dame engine in play (hundredths of a man,
/// [`search::Limits::contempt`]): draughts games are drawn often, and an
/// engine that takes every equal draw wins nothing.
const DAME_CONTEMPT: i32 = 15;

/// Late-move reductions by the logarithms of depth and move number.
const DAME_LOG_REDUCTIONS: bool = true;

/// Singular extensions: the table's move is searched a ply deeper when it
/// beats every other move by this margin per ply of depth (hundredths of
/// a man).
const DAME_SINGULAR_MARGIN: i32 = 2;

impl Game for DameState {
    type Move = Move;
    const HISTORY_SIZE: usize = 64 * 64;
    const REVERSE_FUTILITY: i32 = DAME_REVERSE_FUTILITY;
    const LOG_REDUCTIONS: bool = DAME_LOG_REDUCTIONS;
    const SINGULAR_MARGIN: i32 = DAME_SINGULAR_MARGIN;
    const CONTEMPT: i32 = DAME_CONTEMPT;

    /// None in an ended position: `strict_moves_into` writes none when
    /// the material or a draw rule ended the game, and a blocked side
    /// has none.
    fn legal_moves(&self, moves: &mut Vec<Move>) {
        let mut list = MoveList::new();
        self.pos.strict_moves_into(&mut list);
        moves.extend_from_slice(list.as_slice());
    }

    fn noisy_moves(&self, moves: &mut Vec<Move>) {
        if self.pos.has_capture() {
            self.legal_moves(moves);
        }
    }

    #[inline]
    fn play(&self, mv: Move) -> Self {
        let mut next = *self;
        next.pos.play_unchecked(&mv);
        next
    }

    // hash, status (FMJD's 16- and 5-move rules are kept by the position's
    // ending counter), evaluate, side_to_move.
    crate::state_basics!();

    /// The king-move counter: a man's move or a capture resets it,
    /// and only those change the material, so a repetition never
    /// reaches across a change of the ending counter's ending.
    fn reversible_plies(&self) -> u32 {
        u32::from(self.pos.king_moves())
    }

    fn repetition_is_draw(&self) -> bool {
        self.pos.rules().repetition_draw.is_some()
    }

    #[inline]
    fn is_noisy(&self, mv: Move) -> bool {
        mv.is_capture()
    }

    fn must_play_noisy(&self) -> bool {
        self.pos.has_capture()
    }

    fn order_hint(&self, mv: Move) -> i32 {
        order_hint(&self.pos, mv)
    }

    /// A single reply (a lone capture, the only move) costs no
    /// depth: a shot's forced captures do not eat the horizon.
    fn extend_single_reply(&self) -> bool {
        true
    }

    /// Sacrifices at the first ply of quiescence: a shot starting
    /// at the horizon is seen.
    fn quiet_tactics(&self, moves: &mut Vec<Move>) {
        sacrifices(&self.pos, moves);
    }

    #[inline]
    fn history_index(&self, mv: Move) -> usize {
        usize::from(mv.from().bit()) * 64 + usize::from(mv.to().bit())
    }

    fn probe(&self) -> Option<search::Exact> {
        if !self.databases {
            return None;
        }
        crate::dame::databases::probe(&self.pos)
    }

    fn probe_moves(&self) -> Option<Vec<(Move, search::Exact, i32)>> {
        if !self.databases {
            return None;
        }
        crate::dame::databases::probe_moves(&self.pos)
    }

    fn book_move(&self) -> Option<Move> {
        crate::dame::book::book_move(&self.pos)
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
