//! Positions: [`Setup`] (any arrangement, unchecked) and [`Position`]
//! (validated, with legal move generation).

use std::fmt;
use std::str::FromStr;

use arrayvec::ArrayVec;

use crate::zobrist::{IN_HAND, KEYS};
use crate::{Bitboard, Board, Color, Move, RemovalRule, RuleSet, Square};
use boardgame::ErrorDetail;

/// Stones each side starts with on the standard board ([`Board::NINE`]).
pub const STONES_PER_SIDE: u8 = Board::NINE.stones();

/// Upper bound on the number of legal moves in any position.
///
/// With `e` empty points and `n` opponent stones (each a possible removal),
/// placements are at most `e·n`, slides at most `4·e·n` (each empty point has
/// at most four neighbours), flights at most `3·e·n`. On every board here
/// (at most 12 stones a side) that stays below 5·13·12 = 780, even where a
/// player may both place and slide. 1024 leaves room.
pub const MAX_MOVES: usize = 1024;

/// A list of moves that lives on the stack.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

/// What a player does on their turn, by their own state.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Phase {
    /// Stones in hand: place one (phase 1).
    Placing,
    /// Slide a stone to a neighbouring point (phase 2).
    Moving,
    /// Exactly three stones and flying on: move to any empty point (phase 3).
    Flying,
}

impl Phase {
    /// `"placing"`, `"moving"` or `"flying"`.
    pub const fn name(self) -> &'static str {
        match self {
            Phase::Placing => "placing",
            Phase::Moving => "moving",
            Phase::Flying => "flying",
        }
    }
}

boardgame::end_reasons! {
    /// Why a game ended.
    pub enum EndReason {
        /// The loser has only two stones left, counting stones in hand.
        TwoStonesLeft => "two-stones",
        /// The loser is to move and has no legal move.
        Blocked => "blocked",
        /// The same position occurred for the n-th time (RuleSet::repetition_draw).
        Repetition => "repetition",
        /// The no-mill rule: N plies of moving without a mill.
        NoMill => "no-mill",
        /// The board filled while placing and nobody can move: a draw
        /// (Twelve Men's Morris; docs/RULES.md).
        BoardFull => "board-full",
    }
}

impl EndReason {
    /// The words for the ends only Mühle has ([`boardgame::Reason::describe`]).
    fn describe_end(self, winner: Option<Color>) -> Option<String> {
        match (winner, self) {
            (Some(w), EndReason::TwoStonesLeft) => Some(format!(
                "{} has only two stones left: {} wins",
                (!w).title(),
                w.title()
            )),
            (None, EndReason::NoMill) => {
                Some("Draw: no mill closed for too long (no-mill rule)".to_string())
            }
            (None, EndReason::BoardFull) => {
                Some("Draw: the board is full and nobody can move".to_string())
            }
            _ => None,
        }
    }
}

/// Any arrangement of stones with the counters of the position string; not
/// checked against the rules. Turn it into a [`Position`] to play.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Setup {
    /// Stones on the board, by colour (index [`Color::index`]).
    pub stones: [Bitboard; 2],
    /// Stones in hand, by colour.
    pub in_hand: [u8; 2],
    /// Side to move.
    pub turn: Color,
    /// Plies since the last placement or the last mill.
    pub plies_since_mill: u16,
    /// Full-move number, starting at 1, incremented after Black's turn.
    pub move_number: u16,
}

impl Default for Setup {
    fn default() -> Setup {
        Setup::START
    }
}

impl Setup {
    /// The start: empty board, nine stones in each hand, White to move.
    pub const START: Setup = Setup {
        stones: [Bitboard::EMPTY; 2],
        in_hand: [STONES_PER_SIDE; 2],
        turn: Color::White,
        plies_since_mill: 0,
        move_number: 1,
    };

    /// The start under `rules`: empty board, the board's stones in each
    /// hand, White to move.
    pub const fn start(rules: &RuleSet) -> Setup {
        Setup {
            in_hand: [rules.stones(); 2],
            ..Setup::START
        }
    }

    /// The colour on `sq`, if any.
    pub fn stone_at(&self, sq: Square) -> Option<Color> {
        Color::ALL
            .into_iter()
            .find(|c| self.stones[c.index()].contains(sq))
    }
}

/// Rows of the position string, from the top.
const ROWS: [&[&str]; 7] = [
    &["a7", "d7", "g7"],
    &["b6", "d6", "f6"],
    &["c5", "d5", "e5"],
    &["a4", "b4", "c4", "e4", "f4", "g4"],
    &["c3", "d3", "e3"],
    &["b2", "d2", "f2"],
    &["a1", "d1", "g1"],
];

/// Error for a position string that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParsePositionError {
    /// The string does not have six fields separated by spaces (the number found).
    #[error(
        "a position string has 6 fields '<board> <side> <white in hand> <black in hand> <plies since mill> <move number>', found {0}"
    )]
    FieldCount(usize),
    /// The board does not have seven rows (the number found).
    #[error("the board needs 7 rows separated by '/', found {0}")]
    RowCount(usize),
    /// A board row has the wrong number of points.
    #[error("board row {row} (from the top) needs {expected} points, found {found}")]
    RowLength {
        /// The row, from 1 at the top.
        row: usize,
        /// The points the row needs.
        expected: usize,
        /// The points found.
        found: usize,
    },
    /// A board character is not `W`, `B` or `.`.
    #[error("'{0}' on the board is not W (white), B (black) or . (empty)")]
    BadPoint(char),
    /// The side to move is not `w` or `b`.
    #[error("side to move must be 'w' or 'b', found '{0}'")]
    BadSide(String),
    /// A counter field is not a number.
    #[error("{field} must be a number, found '{value}'")]
    BadNumber {
        /// The field.
        field: &'static str,
        /// What it holds.
        value: String,
    },
    /// The string is read but the position is not legal.
    #[error("invalid position: {0}")]
    Invalid(#[from] PositionError),
}

impl FromStr for Setup {
    type Err = ParsePositionError;
    fn from_str(s: &str) -> Result<Setup, ParsePositionError> {
        let fields: Vec<&str> = s.split_whitespace().collect();
        if fields.len() != 6 {
            return Err(ParsePositionError::FieldCount(fields.len()));
        }
        let rows: Vec<&str> = fields[0].split('/').collect();
        if rows.len() != 7 {
            return Err(ParsePositionError::RowCount(rows.len()));
        }
        let mut stones = [Bitboard::EMPTY; 2];
        for (i, (row, names)) in rows.iter().zip(ROWS).enumerate() {
            let n = row.chars().count();
            if n != names.len() {
                return Err(ParsePositionError::RowLength {
                    row: i + 1,
                    expected: names.len(),
                    found: n,
                });
            }
            for (ch, name) in row.chars().zip(names) {
                let sq: Square = name.parse().expect("row table names valid points");
                match ch {
                    'W' | 'w' | 'O' => stones[0] |= sq.bb(),
                    'B' | 'b' | '@' | 'X' => stones[1] |= sq.bb(),
                    '.' | '*' | '-' => {}
                    other => return Err(ParsePositionError::BadPoint(other)),
                }
            }
        }
        let turn = match fields[1] {
            "w" | "W" => Color::White,
            "b" | "B" => Color::Black,
            other => return Err(ParsePositionError::BadSide(other.to_string())),
        };
        fn num<T: FromStr>(field: &'static str, v: &str) -> Result<T, ParsePositionError> {
            v.parse().map_err(|_| ParsePositionError::BadNumber {
                field,
                value: v.to_string(),
            })
        }
        Ok(Setup {
            stones,
            in_hand: [
                num("white's stones in hand", fields[2])?,
                num("black's stones in hand", fields[3])?,
            ],
            turn,
            plies_since_mill: num("plies since the last mill", fields[4])?,
            move_number: num("the move number", fields[5])?,
        })
    }
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, names) in ROWS.iter().enumerate() {
            if i > 0 {
                f.write_str("/")?;
            }
            for name in names.iter() {
                let sq: Square = name.parse().expect("row table names valid points");
                f.write_str(match self.stone_at(sq) {
                    Some(Color::White) => "W",
                    Some(Color::Black) => "B",
                    None => ".",
                })?;
            }
        }
        write!(
            f,
            " {} {} {} {} {}",
            self.turn.char(),
            self.in_hand[0],
            self.in_hand[1],
            self.plies_since_mill,
            self.move_number
        )
    }
}

/// Why a [`Setup`] is not a legal position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A point holds stones of both colours.
    #[error("{0} has both a white and a black stone")]
    Overlap(Square),
    /// Stones lie outside the 24 points.
    #[error("the stones must fit on the 24 points")]
    OffBoard,
    /// A side has more than nine stones on the board and in hand (the
    /// standard board).
    #[error("{color} has {count} stones on the board and in hand; at most 9 are allowed")]
    TooManyStones {
        /// The side.
        color: Color,
        /// Its stones, on the board and in hand.
        count: u32,
    },
    /// A side has more stones on the board and in hand than the board of
    /// the rules gives it (a board other than the standard one).
    #[error("{color} has {count} stones on the board and in hand; at most {max} are allowed")]
    TooManyStonesFor {
        /// The side.
        color: Color,
        /// Its stones, on the board and in hand.
        count: u32,
        /// The stones a side brings on this board.
        max: u8,
    },
    /// The stones in hand do not fit the side to move (White places first).
    #[error(
        "stones in hand do not fit the side to move: White places first, so with White to move both hands hold the same number, and with Black to move Black holds one more (or both are empty); found white {white}, black {black}, {turn} to move"
    )]
    HandMismatch {
        /// White's stones in hand.
        white: u8,
        /// Black's stones in hand.
        black: u8,
        /// The side to move.
        turn: Color,
    },
    /// The side that has just moved has fewer than three stones: the game would be over.
    #[error("{0} has fewer than three stones but has just moved: the game would already be over")]
    MoverLost(Color),
    /// The move number is 0.
    #[error("the move number must be at least 1")]
    MoveNumberZero,
}

impl Setup {
    /// Check the setup against the standard rules.
    pub fn validate(&self) -> Result<(), PositionError> {
        self.validate_under(&RuleSet::STANDARD)
    }

    /// Check the setup against `rules` (their board's stones per side, and
    /// whether the hands must follow the turn).
    pub fn validate_under(&self, rules: &RuleSet) -> Result<(), PositionError> {
        let [w, b] = self.stones;
        if (w | b).0 & !Bitboard::FULL.0 != 0 {
            return Err(PositionError::OffBoard);
        }
        if let Some(sq) = (w & b).first() {
            return Err(PositionError::Overlap(sq));
        }
        for c in Color::ALL {
            let count = self.stones[c.index()].count() + u32::from(self.in_hand[c.index()]);
            let max = rules.stones();
            if count > u32::from(max) {
                return Err(if rules.board == &Board::NINE {
                    PositionError::TooManyStones { color: c, count }
                } else {
                    PositionError::TooManyStonesFor {
                        color: c,
                        count,
                        max,
                    }
                });
            }
        }
        let [wh, bh] = self.in_hand;
        // Where a player may move instead of placing, the hands need not
        // follow the turn.
        let hands_ok = rules.move_in_placing
            || match self.turn {
                Color::White => wh == bh,
                Color::Black => u16::from(bh) == u16::from(wh) + 1 || (wh == 0 && bh == 0),
            };
        if !hands_ok {
            return Err(PositionError::HandMismatch {
                white: wh,
                black: bh,
                turn: self.turn,
            });
        }
        let mover = self.turn.other();
        if self.stones[mover.index()].count() + u32::from(self.in_hand[mover.index()]) < 3 {
            return Err(PositionError::MoverLost(mover));
        }
        if self.move_number == 0 {
            return Err(PositionError::MoveNumberZero);
        }
        Ok(())
    }
}

boardgame::move_errors! {
    /// Error for a move that cannot be played in a position.
    pub enum MoveError from crate::ParseMoveError {
        /// The move closes a mill but names no stone to remove.
        #[error(
            "{mv} closes a mill: say which stone to remove, e.g. {example} (removable: {removable})"
        )]
        RemovalRequired {
            /// The move.
            mv: String,
            /// The move with a stone to remove, as an example.
            example: String,
            /// The stones that may be removed.
            removable: String,
        },
    }
}

/// A legal position under a [`RuleSet`]: the board, whose turn it is, the
/// stones in hand and the counters, with an incrementally kept Zobrist hash.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Position {
    stones: [Bitboard; 2],
    in_hand: [u8; 2],
    turn: Color,
    plies_since_mill: u16,
    move_number: u16,
    hash: u64,
    rules: RuleSet,
}

impl Default for Position {
    fn default() -> Position {
        Position::new(RuleSet::STANDARD)
    }
}

impl Position {
    /// The start position under `rules`.
    pub fn new(rules: RuleSet) -> Position {
        Position::from_setup_unchecked(Setup::start(&rules), rules)
    }

    /// A validated position from a setup.
    pub fn from_setup(setup: Setup, rules: RuleSet) -> Result<Position, PositionError> {
        setup.validate_under(&rules)?;
        Ok(Position::from_setup_unchecked(setup, rules))
    }

    fn from_setup_unchecked(setup: Setup, rules: RuleSet) -> Position {
        let mut p = Position {
            stones: setup.stones,
            in_hand: setup.in_hand,
            turn: setup.turn,
            plies_since_mill: setup.plies_since_mill,
            move_number: setup.move_number,
            hash: 0,
            rules,
        };
        p.hash = p.compute_hash();
        p
    }

    /// Read a position string under `rules`.
    pub fn from_fen(s: &str, rules: RuleSet) -> Result<Position, ParsePositionError> {
        let setup: Setup = s.parse()?;
        Ok(Position::from_setup(setup, rules)?)
    }

    /// The position string.
    pub fn fen(&self) -> String {
        self.to_setup().to_string()
    }

    /// The unchecked form.
    pub fn to_setup(&self) -> Setup {
        Setup {
            stones: self.stones,
            in_hand: self.in_hand,
            turn: self.turn,
            plies_since_mill: self.plies_since_mill,
            move_number: self.move_number,
        }
    }

    /// The rules this position is played under.
    #[inline]
    pub fn rules(&self) -> &RuleSet {
        &self.rules
    }

    /// The board of the rules: its lines, stones per side, when a side flies.
    #[inline]
    pub fn board(&self) -> &'static Board {
        self.rules.board
    }

    /// Side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Stones of `c` on the board.
    #[inline]
    pub fn stones(&self, c: Color) -> Bitboard {
        self.stones[c.index()]
    }

    /// All stones on the board.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.stones[0] | self.stones[1]
    }

    /// Empty points.
    #[inline]
    pub fn empty(&self) -> Bitboard {
        self.occupied().complement()
    }

    /// The colour on `sq`.
    pub fn stone_at(&self, sq: Square) -> Option<Color> {
        self.to_setup().stone_at(sq)
    }

    /// Stones of `c` still in hand.
    #[inline]
    pub fn in_hand(&self, c: Color) -> u8 {
        self.in_hand[c.index()]
    }

    /// Stones of `c` on the board plus in hand.
    #[inline]
    pub fn material(&self, c: Color) -> u32 {
        self.stones[c.index()].count() + u32::from(self.in_hand[c.index()])
    }

    /// Plies since the last placement or mill (the no-mill counter).
    #[inline]
    pub fn plies_since_mill(&self) -> u16 {
        self.plies_since_mill
    }

    boardgame::position_counters!();

    /// The hash computed from scratch (equals [`Position::hash`]).
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for c in Color::ALL {
            for sq in self.stones[c.index()] {
                h ^= KEYS.stone[c.index()][sq.index()];
            }
            h ^= IN_HAND[c.index()][usize::from(self.in_hand[c.index()].min(12))];
        }
        if self.turn == Color::Black {
            h ^= KEYS.black_to_move;
        }
        h
    }

    /// Whether `other` has the same stones, stones in hand and side to move
    /// (the repetition rule's notion of "the same position").
    pub fn same_position(&self, other: &Position) -> bool {
        self.stones == other.stones && self.in_hand == other.in_hand && self.turn == other.turn
    }

    /// The phase of player `c`.
    #[inline]
    pub fn phase(&self, c: Color) -> Phase {
        if self.in_hand[c.index()] > 0 {
            Phase::Placing
        } else if self.rules.flying
            && self.stones[c.index()].count() == u32::from(self.rules.board.fly_at())
        {
            Phase::Flying
        } else {
            Phase::Moving
        }
    }

    /// The set of stones a mill closed by `by` may remove now. Empty when
    /// nothing may be removed (strict rule with all in mills, or no stones).
    #[inline]
    pub fn removable(&self, by: Color) -> Bitboard {
        let victim = by.other().index();
        self.removable_from(self.stones[victim], self.in_hand[victim])
    }

    /// Which of `victim` (a side's stones, with `victim_in_hand` in hand) a
    /// mill may remove under this position's rules.
    #[inline]
    pub(crate) fn removable_from(&self, victim: Bitboard, victim_in_hand: u8) -> Bitboard {
        let free = victim - self.rules.board.in_mills(victim);
        match self.rules.removal {
            RemovalRule::UnlessAllInMills => {
                if free.any() {
                    free
                } else {
                    victim
                }
            }
            RemovalRule::Never => {
                let flying = self.rules.flying
                    && victim_in_hand == 0
                    && victim.count() == u32::from(self.rules.board.fly_at());
                if flying { victim } else { free }
            }
        }
    }

    /// The end of the game this position shows by itself, if any: the side to
    /// move has only two stones, or cannot move (a draw when the board is
    /// full: nobody can), or the no-mill rule applies.
    /// (Repetition needs the game's history: see [`crate::Game`].)
    /// Wins take precedence over the no-mill draw.
    pub fn outcome(&self) -> Option<Outcome> {
        let us = self.turn;
        if self.material(us) < 3 {
            return Some(Outcome {
                winner: Some(us.other()),
                reason: EndReason::TwoStonesLeft,
            });
        }
        if self.is_blocked() {
            if self.rules.board.is_full(self.occupied()) {
                return Some(Outcome {
                    winner: None,
                    reason: EndReason::BoardFull,
                });
            }
            return Some(Outcome {
                winner: Some(us.other()),
                reason: EndReason::Blocked,
            });
        }
        if let Some(limit) = self.rules.no_mill_draw
            && self.plies_since_mill >= limit
        {
            return Some(Outcome {
                winner: None,
                reason: EndReason::NoMill,
            });
        }
        None
    }

    /// Whether the game is over in this position.
    #[inline]
    pub fn is_game_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// Whether the side to move is in the moving phase and no stone can slide.
    #[inline]
    pub fn is_blocked(&self) -> bool {
        self.phase(self.turn) == Phase::Moving
            && (self.rules.board.neighbours(self.empty()) & self.stones[self.turn.index()])
                .is_empty()
    }

    /// All legal moves (none when the game is over).
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.legal_moves_into(&mut list);
        list
    }

    /// Append all legal moves to `out` (nothing when the game is over).
    pub fn legal_moves_into<L: Extend<Move>>(&self, out: &mut L) {
        if self.material(self.turn) >= 3 && !self.no_mill_limit_reached() {
            self.generate(out, false);
        }
    }

    /// Append the legal moves that close a mill to `out` (for engines'
    /// quiescence search).
    pub fn mill_moves_into<L: Extend<Move>>(&self, out: &mut L) {
        if self.material(self.turn) >= 3 && !self.no_mill_limit_reached() {
            self.generate(out, true);
        }
    }

    #[inline]
    fn no_mill_limit_reached(&self) -> bool {
        matches!(self.rules.no_mill_draw, Some(limit) if self.plies_since_mill >= limit)
    }

    fn generate<L: Extend<Move>>(&self, list: &mut L, only_mills: bool) {
        let board = self.rules.board;
        let us = self.turn;
        let own = self.stones[us.index()];
        let empty = self.empty();
        let mut removable = None;
        let mut push = |list: &mut L, m: Move, closes: bool| {
            if closes {
                let rem = *removable.get_or_insert_with(|| self.removable(us));
                if rem.any() {
                    list.extend(rem.iter().map(|r| m.with_removal(r)));
                    return;
                }
            }
            if !only_mills || closes {
                list.extend(std::iter::once(m));
            }
        };
        let phase = self.phase(us);
        if phase == Phase::Placing {
            let closers = board.mill_completions(own);
            let targets = if only_mills { empty & closers } else { empty };
            for to in targets {
                push(list, Move::place(to), closers.contains(to));
            }
        }
        match phase {
            Phase::Placing if !self.rules.move_in_placing => {}
            Phase::Placing | Phase::Moving => {
                for from in own {
                    let mut targets = board.neighbours_of(from) & empty;
                    if targets.is_empty() {
                        continue;
                    }
                    let closers = board.mill_completions(own ^ from.bb());
                    if only_mills {
                        targets &= closers;
                    }
                    for to in targets {
                        push(list, Move::slide(from, to), closers.contains(to));
                    }
                }
            }
            Phase::Flying => {
                for from in own {
                    let closers = board.mill_completions(own ^ from.bb());
                    let targets = if only_mills { empty & closers } else { empty };
                    for to in targets {
                        push(list, Move::slide(from, to), closers.contains(to));
                    }
                }
            }
        }
    }

    /// The number of legal moves, counted without generating them (bulk
    /// counting for perft). Equals `legal_moves().len()`.
    pub fn count_legal_moves(&self) -> u64 {
        let us = self.turn;
        if self.material(us) < 3 || self.no_mill_limit_reached() {
            return 0;
        }
        let board = self.rules.board;
        let own = self.stones[us.index()];
        let empty = self.empty();
        let slides = || {
            let mut plain = 0;
            let mut closing = 0;
            for from in own {
                let targets = board.neighbours_of(from) & empty;
                if targets.any() {
                    let c = (board.mill_completions(own ^ from.bb()) & targets).count();
                    closing += c;
                    plain += targets.count() - c;
                }
            }
            (plain, closing)
        };
        // Moves that close a mill: with n removable stones they count n times.
        let (plain, closing) = match self.phase(us) {
            Phase::Placing => {
                let closers = (board.mill_completions(own) & empty).count();
                let (plain, closing) = if self.rules.move_in_placing {
                    slides()
                } else {
                    (0, 0)
                };
                (plain + empty.count() - closers, closing + closers)
            }
            Phase::Moving => slides(),
            Phase::Flying => {
                let n = empty.count();
                let mut plain = 0;
                let mut closing = 0;
                for from in own {
                    let c = (board.mill_completions(own ^ from.bb()) & empty).count();
                    closing += c;
                    plain += n - c;
                }
                (plain, closing)
            }
        };
        let per_closing = if closing > 0 {
            self.removable(us).count().max(1)
        } else {
            1
        };
        u64::from(plain) + u64::from(closing) * u64::from(per_closing)
    }

    /// Whether `m` is a legal move here.
    pub fn is_legal(&self, m: Move) -> bool {
        self.legal_moves().contains(&m)
    }

    /// Whether moving (or placing) a stone as in `m` closes a mill.
    #[inline]
    pub fn closes_mill(&self, m: Move) -> bool {
        let own = self.stones[self.turn.index()];
        let own = match m.from() {
            Some(from) => own ^ from.bb(),
            None => own,
        };
        self.rules.board.closes_mill_at(own | m.to().bb(), m.to())
    }

    /// Play a legal move in place. The move must be legal
    /// ([`Position::is_legal`]); an illegal one leaves a position that breaks
    /// the rules (no memory unsafety).
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) {
        let us = self.turn.index();
        let them = 1 - us;
        let to = m.to();
        match m.from() {
            Some(from) => {
                self.stones[us] ^= from.bb() | to.bb();
                self.hash ^= KEYS.stone[us][from.index()] ^ KEYS.stone[us][to.index()];
                self.plies_since_mill = self.plies_since_mill.saturating_add(1);
                if self.rules.board.closes_mill_at(self.stones[us], to) {
                    self.plies_since_mill = 0;
                }
            }
            None => {
                self.stones[us] |= to.bb();
                let n = usize::from(self.in_hand[us].min(12));
                self.hash ^=
                    KEYS.stone[us][to.index()] ^ IN_HAND[us][n] ^ IN_HAND[us][n.saturating_sub(1)];
                self.in_hand[us] = self.in_hand[us].saturating_sub(1);
                self.plies_since_mill = 0;
            }
        }
        if let Some(r) = m.removal() {
            self.stones[them] ^= r.bb();
            self.hash ^= KEYS.stone[them][r.index()];
        }
        if self.turn == Color::Black {
            self.move_number = self.move_number.saturating_add(1);
        }
        self.turn = self.turn.other();
        self.hash ^= KEYS.black_to_move;
    }

    /// Play a move, checking it first.
    pub fn play(&self, m: Move) -> Result<Position, MoveError> {
        self.check_move(m)?;
        let mut next = *self;
        next.play_unchecked(m);
        Ok(next)
    }

    /// Explain why `m` is not legal here, or return `Ok(())` if it is.
    pub fn check_move(&self, m: Move) -> Result<(), MoveError> {
        if let Some(o) = self.outcome() {
            return Err(MoveError::GameOver(o.describe()));
        }
        if self.is_legal(m) {
            return Ok(());
        }
        let us = self.turn;
        let illegal = |why: String, reason: ErrorDetail| MoveError::Illegal {
            mv: m.to_string(),
            why,
            reason: Some(Box::new(reason)),
        };
        let to = m.to();
        let phase = self.phase(us);
        let may_slide =
            phase == Phase::Moving || (phase == Phase::Placing && self.rules.move_in_placing);
        match (phase, m.from()) {
            (Phase::Placing, Some(_)) if !self.rules.move_in_placing => {
                return Err(illegal(
                    format!(
                        "{us} still has {} stone(s) in hand and must place one",
                        self.in_hand(us)
                    ),
                    ErrorDetail::new("illegal.must_place")
                        .with("color", us.name())
                        .with("count", self.in_hand(us)),
                ));
            }
            (Phase::Moving | Phase::Flying, None) => {
                return Err(illegal(
                    format!("{us} has no stones left in hand: move a stone"),
                    ErrorDetail::new("illegal.must_move").with("color", us.name()),
                ));
            }
            (_, Some(from)) if self.stone_at(from) != Some(us) => {
                return Err(illegal(
                    format!("there is no {us} stone on {from}"),
                    ErrorDetail::new("illegal.no_piece")
                        .with("color", us.name())
                        .with("square", from),
                ));
            }
            (_, Some(from)) if may_slide && !self.rules.board.neighbours_of(from).contains(to) => {
                return Err(illegal(
                    format!(
                        "{to} is not next to {from} along a line (only a player with three stones flies)"
                    ),
                    ErrorDetail::new("illegal.not_adjacent")
                        .with("from", from)
                        .with("to", to),
                ));
            }
            _ => {}
        }
        if !self.empty().contains(to) {
            return Err(illegal(
                format!("{to} is not empty"),
                ErrorDetail::new("illegal.occupied").with("square", to),
            ));
        }
        let closes = self.closes_mill(m);
        let removable = self.removable(us);
        match (closes, m.removal()) {
            (false, Some(_)) => Err(illegal(
                "it does not close a mill, so nothing is removed".into(),
                ErrorDetail::new("illegal.no_mill"),
            )),
            (true, None) if removable.any() => Err(MoveError::RemovalRequired {
                mv: m.to_string(),
                example: m
                    .with_removal(removable.first().expect("non-empty"))
                    .to_string(),
                removable: list_squares(removable),
            }),
            (true, Some(r)) if removable.is_empty() => Err(illegal(
                format!(
                    "no stone may be removed (all of the opponent's stones stand in mills), so {} is played without 'x{r}'",
                    m.without_removal()
                ),
                ErrorDetail::new("illegal.nothing_removable").with("move", m.without_removal()),
            )),
            (true, Some(r)) if self.stone_at(r) != Some(us.other()) => Err(illegal(
                format!("there is no {} stone on {r} to remove", us.other()),
                ErrorDetail::new("illegal.no_piece")
                    .with("color", us.other().name())
                    .with("square", r),
            )),
            (true, Some(r)) => Err(illegal(
                format!(
                    "the stone on {r} stands in a closed mill and may not be removed (removable: {})",
                    list_squares(removable)
                ),
                ErrorDetail::new("illegal.in_mill")
                    .with("square", r)
                    .with("removable", list_squares(removable)),
            )),
            _ => Err(MoveError::Illegal {
                mv: m.to_string(),
                why: "it breaks the rules".into(),
                reason: None,
            }),
        }
    }

    /// Read a move in our notation and check it against this position.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let m = Move::parse(text)?;
        self.check_move(m)?;
        Ok(m)
    }

    /// Apply a symmetry (0..16, see [`crate::symmetry`]) to the board.
    pub fn transformed(&self, sym: crate::Symmetry) -> Position {
        let mut p = *self;
        p.stones = [sym.apply(self.stones[0]), sym.apply(self.stones[1])];
        p.hash = p.compute_hash();
        p
    }
}

fn list_squares(bb: Bitboard) -> String {
    bb.iter().map(|s| s.name()).collect::<Vec<_>>().join(", ")
}

boardgame::display_via_setup!(Position);

impl FromStr for Position {
    type Err = ParsePositionError;
    /// A position string under the standard rules.
    fn from_str(s: &str) -> Result<Position, ParsePositionError> {
        Position::from_fen(s, RuleSet::STANDARD)
    }
}

boardgame::rules_by_inherent_methods!(Position, Move, MoveError, EndReason, play: by_value);
