//! # search — a game-agnostic alpha-beta engine
//!
//! Any two-player, zero-sum, perfect-information game implements [`Game`];
//! [`Engine`] then searches it: iterative deepening, principal-variation
//! search with aspiration windows, a shared transposition table sized in MiB
//! (clusters of four entries, replacement by depth and age), move ordering by
//! table move, the game's own hints (captures, mills, blocks), killers and
//! history, quiescence over noisy moves, repetition and the game's own draw
//! rules inside the tree, "win in N" scores, limits by time, depth, nodes or a
//! clock with increment, a stop flag that ends a search at once, several
//! threads (lazy SMP), and multi-PV for analysis. With one thread and a
//! depth or node limit a search is exactly reproducible.

#![warn(missing_docs)]

mod engine;
mod tt;

use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

pub use engine::{Engine, SearchInfo, SearchResult};
pub use tt::TranspositionTable;

/// Whether the game is over in a position, seen from the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Status {
    /// The game goes on.
    Ongoing,
    /// The side to move has lost.
    Lost,
    /// The game is drawn.
    Draw,
}

/// A game the engine can search. Positions are values: `play` returns the
/// next position (copy-make), so no undo is needed.
pub trait Game: Clone + Send + Sync + 'static {
    /// A move, as small as possible.
    type Move: Copy + Eq + Send + Sync + fmt::Debug + fmt::Display + 'static;

    /// Size of the history table: [`Game::history_index`] is below it.
    const HISTORY_SIZE: usize;

    /// Append the legal moves to `moves` (nothing when the game is over).
    /// The order must depend on the position only.
    fn legal_moves(&self, moves: &mut Vec<Self::Move>);

    /// The position after `mv` (a legal move).
    fn play(&self, mv: Self::Move) -> Self;

    /// A hash of everything that makes two positions the same for repetition.
    fn hash(&self) -> u64;

    /// Whether the game is over here (without looking at repetitions).
    fn status(&self) -> Status;

    /// Static evaluation for the side to move (100 ≈ one stone or man).
    fn evaluate(&self) -> i32;

    /// Index 0 or 1 of the side to move.
    fn side_to_move(&self) -> usize;

    /// Plies since the last irreversible move: repetitions cannot reach
    /// further back.
    fn reversible_plies(&self) -> u32;

    /// Whether a repeated position is a draw under the game's rules.
    fn repetition_is_draw(&self) -> bool {
        true
    }

    /// Whether `mv` is noisy (a capture, a mill): searched by quiescence.
    fn is_noisy(&self, mv: Self::Move) -> bool;

    /// Append the noisy legal moves (quiescence search). The default
    /// filters [`Game::legal_moves`]; games with a faster way override it.
    fn noisy_moves(&self, moves: &mut Vec<Self::Move>) {
        let start = moves.len();
        self.legal_moves(moves);
        let mut i = start;
        while i < moves.len() {
            if self.is_noisy(moves[i]) {
                i += 1;
            } else {
                moves.swap_remove(i);
            }
        }
    }

    /// Whether every legal move here is forced noisy (a compulsory
    /// capture): quiescence then may not stand pat.
    fn must_play_noisy(&self) -> bool {
        false
    }

    /// A move-ordering hint: higher is tried earlier (captures, mills,
    /// blocking the opponent's mill). 0 for ordinary moves.
    fn order_hint(&self, mv: Self::Move) -> i32;

    /// [`Game::order_hint`] for every move of `moves`, into `hints` (same
    /// length). Games can override it to share work between the moves.
    fn order_hints(&self, moves: &[Self::Move], hints: &mut Vec<i32>) {
        hints.clear();
        hints.extend(moves.iter().map(|&m| self.order_hint(m)));
    }

    /// The slot of `mv` in the history table (from/to style).
    fn history_index(&self, mv: Self::Move) -> usize;

    /// Whether the search must look further here instead of judging the
    /// position at the horizon, and must not reduce its moves: e.g. a side
    /// with so few moves left that it may be blocked (Mühle). The search
    /// extends such a position by one ply, at most twice on a path.
    fn critical(&self) -> bool {
        false
    }

    /// Whether a position with a single legal move is searched one ply
    /// deeper (the forced reply costs no depth), within the extensions a
    /// path may have (two, shared with [`Game::critical`]).
    ///
    /// This hook and [`Game::quiet_tactics`] trade nodes for tactical sight
    /// at a given depth. A search with a depth limit ([`Limits::depth`]:
    /// fixed-depth analysis, the weaker levels' depth caps) uses them in
    /// every node; a search limited only by time or nodes uses them only on
    /// the principal variation (an open window), because everywhere they
    /// cost it more depth than they gain (docs/ENGINE.md, "Dame shots").
    fn extend_single_reply(&self) -> bool {
        false
    }

    /// Quiet moves that quiescence tries too at its first ply, appended to
    /// `moves` (in draughts: sacrifices, the start of a shot). None by
    /// default. Used where [`Game::extend_single_reply`] is: in every node
    /// of a search with a depth limit, on the principal variation of others.
    fn quiet_tactics(&self, _moves: &mut Vec<Self::Move>) {}

    /// Reverse futility pruning: at depth 1–3 outside the principal
    /// variation, a position whose evaluation beats beta by this margin per
    /// ply of depth is not searched (never a critical one, nor one where
    /// [`Game::must_play_noisy`]: a pending capture makes the evaluation
    /// meaningless). 0: off.
    const REVERSE_FUTILITY: i32 = 0;

    /// Singular extensions: the margin per ply of depth by which the
    /// table's move must beat every other move to be searched a ply
    /// deeper. 0: off.
    const SINGULAR_MARGIN: i32 = 0;

    /// Late-move reductions growing with the logarithms of depth and move
    /// number (instead of the fixed 1–3 plies).
    const LOG_REDUCTIONS: bool = false;

    /// The contempt for draws this game's engine plays with
    /// ([`Limits::contempt`]): 0 for a game whose engine may as well
    /// accept a draw.
    const CONTEMPT: i32 = 0;

    /// The exact value of this position from the game's own databases, if
    /// it has them and they hold the position. The search then scores the
    /// position exactly instead of searching it (not at the root).
    fn probe(&self) -> Option<Exact> {
        None
    }

    /// Every legal move with its exact value and a preference among moves
    /// of equal value (higher first), if the databases hold this position.
    /// A search whose root is held plays from this list instead of
    /// searching (unless [`Limits::no_databases`] is set).
    fn probe_moves(&self) -> Option<Vec<(Self::Move, Exact, i32)>> {
        None
    }

    /// The root moves that keep this position's exact value, if the game
    /// can solve it within `budget` (Mühle: the placing phase, searched to
    /// the end of placing and the databases). The search then chooses only
    /// among them (with one line, unless [`Limits::no_databases`] is set).
    fn sound_moves(&self, _budget: &SolveBudget) -> Option<Vec<Self::Move>> {
        None
    }

    /// The opening book's move for this position, if the game has a book
    /// that holds it (and it is switched on). A search that plays
    /// ([`Limits::book`]) searches only this move; a clock then answers it
    /// at once.
    fn book_move(&self) -> Option<Self::Move> {
        None
    }
}

/// What a solver at the root may spend ([`Game::sound_moves`]): until a
/// deadline, a number of nodes, or the search's stop flag.
pub struct SolveBudget<'a> {
    /// Stop at this time, if set.
    pub deadline: Option<Instant>,
    /// Stop after this many nodes.
    pub nodes: u64,
    /// The search's stop flag: stop when it is set.
    pub stop: &'a AtomicBool,
}

impl SolveBudget<'_> {
    /// Whether a solver that has visited `nodes` must give up (check it
    /// every few hundred nodes: it reads the clock).
    pub fn exhausted(&self, nodes: u64) -> bool {
        nodes >= self.nodes
            || self.stop.load(std::sync::atomic::Ordering::Relaxed)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// A value known exactly (from a database), for the side to move, with the
/// number of plies to the end of the game.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Exact {
    /// The side to move wins in this many plies.
    Win(u32),
    /// Neither side can force a win.
    Draw,
    /// The side to move loses in this many plies.
    Loss(u32),
}

impl Exact {
    /// The search score of the value for a position `ply` plies from the
    /// root, in the "win in N" scale of the search.
    pub fn score(self, ply: usize) -> i32 {
        match self {
            Exact::Win(n) => MATE - (ply as i32 + n as i32).min(MATE_BOUND_PLIES),
            Exact::Draw => DRAW,
            Exact::Loss(n) => -MATE + (ply as i32 + n as i32).min(MATE_BOUND_PLIES),
        }
    }

    /// Order for the side to move: fast wins first, slow losses last.
    pub fn rank(self) -> i64 {
        match self {
            Exact::Win(n) => 1_000_000 - i64::from(n),
            Exact::Draw => 0,
            Exact::Loss(n) => -1_000_000 + i64::from(n),
        }
    }
}

/// Exact scores stay inside the "win in N" band.
const MATE_BOUND_PLIES: i32 = MATE - MATE_BOUND - 1;

/// The highest score: a win now.
pub const MATE: i32 = 30_000;
/// Scores beyond this are wins or losses in a known number of plies.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// Score of a draw.
pub const DRAW: i32 = 0;

/// A search score from the side to move's point of view.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Score {
    /// Evaluation in hundredths of a stone (or man).
    Cp(i32),
    /// A forced win in N moves (N > 0), or a forced loss in -N moves (N < 0).
    /// N counts the side to move's own moves, as in "win in N".
    Mate(i32),
}

impl Score {
    /// From an internal score.
    pub fn from_internal(v: i32) -> Score {
        if v >= MATE_BOUND {
            Score::Mate((MATE - v + 1) / 2)
        } else if v <= -MATE_BOUND {
            Score::Mate(-((MATE + v) / 2).max(1))
        } else {
            Score::Cp(v)
        }
    }

    /// The protocol form: `cp 35` or `mate 4` / `mate -3`.
    pub fn protocol(&self) -> String {
        match *self {
            Score::Cp(v) => format!("cp {v}"),
            Score::Mate(n) => format!("mate {n}"),
        }
    }
}

impl fmt::Display for Score {
    /// Words: `+0.35`, `win in 4`, `loss in 3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Score::Cp(v) => write!(f, "{:+.2}", f64::from(v) / 100.0),
            Score::Mate(n) if n > 0 => write!(f, "win in {n}"),
            Score::Mate(n) => write!(f, "loss in {}", -n),
        }
    }
}

/// A clock: time left and increment per move, for the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Clock {
    /// Time left.
    pub time: Duration,
    /// Time added after each move.
    pub increment: Duration,
    /// Moves until the next time control, if any.
    pub moves_to_go: Option<u32>,
}

/// When to stop searching. Unset limits do not apply; with none at all the
/// search runs until stopped (`infinite`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Limits {
    /// Search at most this deep.
    pub depth: Option<u32>,
    /// Search at most this many nodes.
    pub nodes: Option<u64>,
    /// Search this long for the move.
    pub movetime: Option<Duration>,
    /// The side to move's clock: the time for the move is taken from it.
    pub clock: Option<Clock>,
    /// Search until stopped, whatever else is set.
    pub infinite: bool,
    /// Do not use the game's databases ([`Game::probe`]): search as if
    /// there were none (weaker levels, comparisons).
    pub no_databases: bool,
    /// What a draw costs the side to move at the root, in the evaluation's
    /// units (a draw is scored `-contempt` for it, `+contempt` for the
    /// opponent): a player out to win avoids drawn lines that are not
    /// clearly better than the alternative. 0 (the default) scores draws
    /// exactly, as analysis must; play sets [`Game::CONTEMPT`].
    pub contempt: i32,
    /// Answer a single legal move at once under a fixed move time too (a
    /// clock always does). Without it the only move is searched on for the
    /// whole move time, which fills the table for the next search: set it
    /// where the table is not kept for the next move or a person waits.
    pub answer_only_move: bool,
    /// Play the game's opening-book move where it has one
    /// ([`Game::book_move`]) instead of choosing among all moves (one
    /// line, not `infinite`). Set by [`Limits::playing`]: analysis shows
    /// the search's own choice.
    pub book: bool,
}

impl Limits {
    /// These limits for a search that plays a move in game `G` (not
    /// analysis): draws cost the game's contempt ([`Game::CONTEMPT`]), and
    /// the book's move is played where the game's book has one
    /// ([`Game::book_move`]).
    pub fn playing<G: Game>(self) -> Limits {
        Limits {
            contempt: G::CONTEMPT,
            book: true,
            ..self
        }
    }

    /// Search to a fixed depth.
    pub fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    /// Search for a fixed time.
    pub fn movetime(t: Duration) -> Limits {
        Limits {
            movetime: Some(t),
            ..Limits::default()
        }
    }

    /// Search a fixed number of nodes.
    pub fn nodes(n: u64) -> Limits {
        Limits {
            nodes: Some(n),
            ..Limits::default()
        }
    }
}
