//! Positions: [`Setup`] (any arrangement, unchecked) and [`Position`]
//! (validated, with legal move generation), and the FEN.

use std::fmt;
use std::str::FromStr;

use crate::movegen::{self, G8, G10, Sides};
use crate::zobrist::KEYS;
use crate::{
    Bitboard, BoardSize, Color, Ending, Move, MoveList, MoveText, ParseMoveError, ParseSquareError,
    RuleSet, Square,
};
use boardgame::ErrorDetail;

/// Run a generic move-generation function for the position's board.
macro_rules! on_board {
    ($size:expr, $f:ident ( $($arg:expr),* )) => {
        match $size {
            BoardSize::Eight => movegen::$f::<G8>($($arg),*),
            BoardSize::Ten => movegen::$f::<G10>($($arg),*),
        }
    };
}

/// A man or a king.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum PieceKind {
    /// A man (not crowned).
    Man,
    /// A king: a crowned man.
    King,
}

/// A piece: its colour and kind.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    /// The piece's side.
    pub color: Color,
    /// Man or king.
    pub kind: PieceKind,
}

boardgame::end_reasons! {
    /// Why a game ended.
    pub enum EndReason {
        /// The loser has no pieces left.
        NoPieces => "no-pieces",
        /// The loser is to move and has no legal move.
        Blocked => "blocked",
        /// The same position occurred for the n-th time.
        Repetition => "repetition",
        /// N plies in which only kings moved and nothing was captured.
        KingMoves => "king-moves",
        /// Each side has exactly one king and nothing else.
        OneKingEach => "one-king-each",
        /// A lone king held out against three pieces for the plies the rules
        /// allow (FMJD's 16-move rule, [`RuleSet::king_vs_three_draw`]).
        KingVsThree => "king-vs-three",
        /// A lone king held out against one or two pieces for the plies the
        /// rules allow (FMJD's 5-move rule, [`RuleSet::king_vs_two_draw`]).
        KingVsTwo => "king-vs-two",
    }
}

impl EndReason {
    /// The words for the ends only Dame has ([`boardgame::Reason::describe`]).
    fn describe_end(self, winner: Option<Color>) -> Option<String> {
        let words = match (winner, self) {
            (Some(w), EndReason::NoPieces) => {
                return Some(format!(
                    "{} has no pieces left: {} wins",
                    (!w).title(),
                    w.title()
                ));
            }
            (None, EndReason::KingMoves) => {
                "Draw: only kings moved and nothing was captured for too long"
            }
            (None, EndReason::OneKingEach) => "Draw: each side has just one king",
            (None, EndReason::KingVsThree) => {
                "Draw: three pieces did not beat the lone king within the moves allowed"
            }
            (None, EndReason::KingVsTwo) => {
                "Draw: the lone king was not beaten within the moves allowed"
            }
            _ => return None,
        };
        Some(words.to_string())
    }
}

/// Any arrangement of pieces, with the side to move and the counters of the
/// FEN; not checked against the rules. Turn it into a [`Position`] to play.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Setup {
    /// The board.
    pub size: BoardSize,
    /// Pieces by colour (index [`Color::index`]), men and kings.
    pub pieces: [Bitboard; 2],
    /// Which of the pieces are kings.
    pub kings: Bitboard,
    /// Side to move.
    pub turn: Color,
    /// Plies in a row in which only kings moved and nothing was captured.
    pub king_moves: u16,
    /// Plies played since the material became an [`Ending`] with a move
    /// limit under the rules in force (FMJD's 16- and 5-move rules; see
    /// [`Position::ending_plies`]): the FEN field `E`. Moves keep it at 0
    /// outside such an ending.
    pub ending_plies: u16,
    /// Full-move number, starting at 1, incremented after Black's move.
    pub move_number: u16,
}

impl Setup {
    /// The start position of a board: men on the first three (8×8) or four
    /// (10×10) rows of each side, White to move.
    pub const fn start(size: BoardSize) -> Setup {
        Setup {
            size,
            pieces: [
                size.start_squares(Color::White),
                size.start_squares(Color::Black),
            ],
            kings: Bitboard::EMPTY,
            turn: Color::White,
            king_moves: 0,
            ending_plies: 0,
            move_number: 1,
        }
    }

    /// An empty board with White to move.
    pub const fn empty(size: BoardSize) -> Setup {
        Setup {
            size,
            pieces: [Bitboard::EMPTY; 2],
            kings: Bitboard::EMPTY,
            turn: Color::White,
            king_moves: 0,
            ending_plies: 0,
            move_number: 1,
        }
    }

    /// The piece on `sq`, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let color = Color::ALL
            .into_iter()
            .find(|c| self.pieces[c.index()].contains(sq))?;
        let kind = if self.kings.contains(sq) {
            PieceKind::King
        } else {
            PieceKind::Man
        };
        Some(Piece { color, kind })
    }

    /// Put a piece on `sq` (replacing what stood there) or clear it.
    pub fn set(&mut self, sq: Square, piece: Option<Piece>) {
        let b = sq.bb();
        self.pieces[0] = self.pieces[0] - b;
        self.pieces[1] = self.pieces[1] - b;
        self.kings = self.kings - b;
        if let Some(p) = piece {
            self.pieces[p.color.index()] |= b;
            if p.kind == PieceKind::King {
                self.kings |= b;
            }
        }
    }

    /// Check the setup against the rules of its board.
    pub fn validate(&self) -> Result<(), PositionError> {
        let mask = self.size.mask();
        let [w, b] = self.pieces;
        if ((w | b | self.kings) - mask).any() {
            return Err(PositionError::OffBoard);
        }
        if let Some(sq) = (w & b).first(self.size) {
            return Err(PositionError::Overlap(sq));
        }
        if let Some(sq) = (self.kings - (w | b)).first(self.size) {
            return Err(PositionError::KingWithoutPiece(sq));
        }
        let max = self.size.men_per_side();
        for c in Color::ALL {
            let count = self.pieces[c.index()].count();
            if count > max {
                return Err(PositionError::TooManyPieces {
                    color: c,
                    count,
                    max,
                });
            }
            let men = self.pieces[c.index()] - self.kings;
            if let Some(sq) = (men & self.size.promotion_row(c)).first(self.size) {
                return Err(PositionError::ManOnPromotionRow {
                    color: c,
                    square: sq,
                });
            }
        }
        if (w | b).is_empty() {
            return Err(PositionError::Empty);
        }
        if self.move_number == 0 {
            return Err(PositionError::MoveNumberZero);
        }
        Ok(())
    }

    /// The FEN (see [`Setup::from_fen`]).
    pub fn fen(&self) -> String {
        self.to_string()
    }

    /// Read a FEN for a given board: `W:W31-50:B1-20` (10×10) or
    /// `W:Wa1,c1,e1:Bb8,d8` (8×8). The first field is the side to move, then
    /// one field per colour listing its squares, `K` before a king's square;
    /// on 10×10 ranges like `31-50` are allowed. Optional fields `H<n>` (the
    /// king-move counter), `E<n>` (the ending counter, see
    /// [`Setup::ending_plies`]) and `F<n>` (the move number) may follow; a
    /// final `.` is ignored.
    pub fn from_fen(text: &str, size: BoardSize) -> Result<Setup, ParseFenError> {
        let t = text.trim().trim_end_matches('.');
        if t.is_empty() {
            return Err(ParseFenError::Empty);
        }
        let mut fields = t.split(':');
        let side = fields.next().unwrap_or("").trim();
        let turn = match side {
            "W" | "w" => Color::White,
            "B" | "b" => Color::Black,
            other => return Err(ParseFenError::BadSide(clip(other))),
        };
        let mut setup = Setup::empty(size);
        setup.turn = turn;
        let mut seen = [false; 2];
        for field in fields {
            let field = field.trim();
            let mut chars = field.chars();
            let head = chars.next().map(|c| c.to_ascii_uppercase());
            let rest = chars.as_str();
            match head {
                Some(c @ ('W' | 'B')) => {
                    let color = if c == 'W' { Color::White } else { Color::Black };
                    if seen[color.index()] {
                        return Err(ParseFenError::DuplicateColor(color));
                    }
                    seen[color.index()] = true;
                    read_pieces(rest, size, color, &mut setup)?;
                }
                Some('H') => setup.king_moves = number("H (the king-move counter)", rest)?,
                Some('E') => setup.ending_plies = number("E (the ending counter)", rest)?,
                Some('F') => setup.move_number = number("F (the move number)", rest)?,
                _ => return Err(ParseFenError::BadField(clip(field))),
            }
        }
        if !seen[0] || !seen[1] {
            return Err(ParseFenError::MissingColor(if seen[0] {
                Color::Black
            } else {
                Color::White
            }));
        }
        Ok(setup)
    }
}

fn clip(s: &str) -> String {
    s.chars().take(40).collect()
}

fn number<T: FromStr>(field: &'static str, v: &str) -> Result<T, ParseFenError> {
    v.trim().parse().map_err(|_| ParseFenError::BadNumber {
        field,
        value: clip(v),
    })
}

fn read_pieces(
    list: &str,
    size: BoardSize,
    color: Color,
    setup: &mut Setup,
) -> Result<(), ParseFenError> {
    for item in list.split(',') {
        let item = item.trim();
        if item.is_empty() {
            continue;
        }
        let (king, body) = match item.strip_prefix(['K', 'k']) {
            Some(rest) => (true, rest.trim()),
            None => (false, item),
        };
        let square = |s: &str| {
            Square::parse(s, size).map_err(|error| ParseFenError::Square {
                item: clip(item),
                error,
            })
        };
        let squares: Vec<Square> = match body.split_once('-') {
            Some((a, b)) => {
                if size != BoardSize::Ten {
                    return Err(ParseFenError::BadRange(clip(item)));
                }
                let (a, b) = (square(a)?.number(), square(b)?.number());
                let (lo, hi) = (a.min(b), a.max(b));
                (lo..=hi)
                    .filter_map(|n| Square::from_number(size, n))
                    .collect()
            }
            None => vec![square(body)?],
        };
        for sq in squares {
            setup.pieces[color.index()] |= sq.bb();
            if king {
                setup.kings |= sq.bb();
            }
        }
    }
    Ok(())
}

/// The squares of a side in FEN order (8×8: by rank, then file; 10×10: by
/// number), with men runs of three or more numbers written as ranges.
fn write_pieces(f: &mut fmt::Formatter<'_>, s: &Setup, color: Color) -> fmt::Result {
    let mut squares: Vec<Square> = s.pieces[color.index()].squares(s.size).collect();
    if s.size == BoardSize::Eight {
        squares.sort_by_key(|q| (q.rank(), q.file()));
    }
    let mut i = 0;
    let mut first = true;
    while i < squares.len() {
        if !first {
            f.write_str(",")?;
        }
        first = false;
        let sq = squares[i];
        if s.kings.contains(sq) {
            write!(f, "K{sq}")?;
            i += 1;
            continue;
        }
        let mut j = i;
        if s.size == BoardSize::Ten {
            while j + 1 < squares.len()
                && !s.kings.contains(squares[j + 1])
                && squares[j + 1].number() == squares[j].number() + 1
            {
                j += 1;
            }
        }
        if j >= i + 2 {
            write!(f, "{}-{}", sq, squares[j])?;
            i = j + 1;
        } else {
            write!(f, "{sq}")?;
            i += 1;
        }
    }
    Ok(())
}

/// The FEN: `W:W31-50:B1-20`, plus `:H<n>` when the king-move counter is
/// not 0, `:E<n>` when the ending counter is not 0 and `:F<n>` when the move
/// number is not 1.
impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.turn == Color::White { "W" } else { "B" })?;
        f.write_str(":W")?;
        write_pieces(f, self, Color::White)?;
        f.write_str(":B")?;
        write_pieces(f, self, Color::Black)?;
        if self.king_moves != 0 {
            write!(f, ":H{}", self.king_moves)?;
        }
        if self.ending_plies != 0 {
            write!(f, ":E{}", self.ending_plies)?;
        }
        if self.move_number != 1 {
            write!(f, ":F{}", self.move_number)?;
        }
        Ok(())
    }
}

/// Reads a FEN and takes the board from the squares' form: algebraic
/// squares (`c3`) mean 8×8, numbers mean 10×10.
impl FromStr for Setup {
    type Err = ParseFenError;
    fn from_str(s: &str) -> Result<Setup, ParseFenError> {
        let mut size = None;
        for field in s.split(':').skip(1) {
            let field = field.trim();
            if !field.starts_with(['W', 'w', 'B', 'b']) {
                continue;
            }
            for item in field[1..].split(',') {
                let body = item.trim().trim_start_matches(['K', 'k']).trim();
                match body.bytes().next() {
                    Some(c) if c.is_ascii_digit() => {
                        if size == Some(BoardSize::Eight) {
                            return Err(ParseFenError::MixedBoards);
                        }
                        size = Some(BoardSize::Ten);
                    }
                    Some(c) if c.is_ascii_alphabetic() => {
                        if size == Some(BoardSize::Ten) {
                            return Err(ParseFenError::MixedBoards);
                        }
                        size = Some(BoardSize::Eight);
                    }
                    _ => {}
                }
            }
        }
        match size {
            Some(size) => Setup::from_fen(s, size),
            None if s.trim().is_empty() => Err(ParseFenError::Empty),
            None => Err(ParseFenError::UnknownBoard),
        }
    }
}

/// Error for a FEN that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseFenError {
    /// The FEN is empty.
    #[error("empty FEN (expected e.g. W:W31-50:B1-20)")]
    Empty,
    /// The FEN does not start with `W` or `B`.
    #[error("the FEN starts with the side to move, 'W' or 'B', found '{0}'")]
    BadSide(String),
    /// A field starts with no letter the FEN knows.
    #[error(
        "'{0}' is not a FEN field: fields start with W or B (a colour's pieces), H (king-move counter), E (ending counter) or F (move number)"
    )]
    BadField(String),
    /// A colour's pieces are listed twice.
    #[error("the FEN lists {0}'s pieces twice")]
    DuplicateColor(Color),
    /// A colour's pieces are not listed.
    #[error("the FEN has no field for {0}'s pieces (write e.g. ':W' for none)")]
    MissingColor(Color),
    /// A piece names no square.
    #[error("FEN piece '{item}': {error}")]
    Square {
        /// The piece as written.
        item: String,
        /// Why it is no square.
        error: ParseSquareError,
    },
    /// A range of squares on the 8×8 board (ranges are for square numbers).
    #[error("FEN piece '{0}': ranges like 31-50 are only for square numbers (10×10)")]
    BadRange(String),
    /// A counter field is not a number.
    #[error("FEN field {field} must be a number, found '{value}'")]
    BadNumber {
        /// The field.
        field: &'static str,
        /// What it holds.
        value: String,
    },
    /// The FEN names no square, so its board is unknown.
    #[error("the FEN names no square, so it does not say which board it is for")]
    UnknownBoard,
    /// The FEN mixes 8×8 and 10×10 squares.
    #[error("the FEN mixes algebraic squares (8×8) and square numbers (10×10)")]
    MixedBoards,
    /// The FEN is read but the position is not legal.
    #[error("invalid position: {0}")]
    Invalid(#[from] PositionError),
}

/// Why a [`Setup`] is not a legal position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// Pieces stand off the dark squares of the board.
    #[error("the pieces must stand on the dark squares of the board")]
    OffBoard,
    /// A square holds pieces of both colours.
    #[error("{0} has both a white and a black piece")]
    Overlap(Square),
    /// A square is marked as a king but holds no piece.
    #[error("{0} is marked as a king but has no piece")]
    KingWithoutPiece(Square),
    /// A side has more pieces than fit the board.
    #[error("{color} has {count} pieces; at most {max} fit this board")]
    TooManyPieces {
        /// The side.
        color: Color,
        /// Its pieces.
        count: u32,
        /// The most that fit.
        max: u32,
    },
    /// A man stands on the row where it would have been crowned.
    #[error(
        "the {color} man on {square} stands on the row where it would have been crowned; make it a king"
    )]
    ManOnPromotionRow {
        /// The man's side.
        color: Color,
        /// Its square.
        square: Square,
    },
    /// The board has no pieces.
    #[error("the board is empty")]
    Empty,
    /// The move number is 0.
    #[error("the move number must be at least 1")]
    MoveNumberZero,
    /// The position is for another board than the rules.
    #[error("the position is for the {found} board but the rules are for {expected}")]
    BoardMismatch {
        /// The rules' board.
        expected: BoardSize,
        /// The position's board.
        found: BoardSize,
    },
}

boardgame::move_errors! {
    /// Error for a move that cannot be played in a position.
    pub enum MoveError from ParseMoveError {
        /// The text fits more than one legal move.
        #[error("{mv} is ambiguous: it could be {candidates}; give every landing square")]
        Ambiguous {
            /// The move as written.
            mv: String,
            /// The moves it could be.
            candidates: String,
        },
    }
}

/// A legal position under a [`RuleSet`]: the pieces, whose turn it is and
/// the counters, with an incrementally kept Zobrist hash.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Position {
    pieces: [Bitboard; 2],
    kings: Bitboard,
    turn: Color,
    king_moves: u16,
    ending_plies: u16,
    move_number: u16,
    hash: u64,
    rules: RuleSet,
}

impl Default for Position {
    fn default() -> Position {
        Position::new(RuleSet::DAME)
    }
}

impl Position {
    /// The start position under `rules`.
    pub fn new(rules: RuleSet) -> Position {
        Position::from_setup_unchecked(Setup::start(rules.board), rules)
    }

    /// A validated position from a setup for the board of `rules`.
    pub fn from_setup(setup: Setup, rules: RuleSet) -> Result<Position, PositionError> {
        if setup.size != rules.board {
            return Err(PositionError::BoardMismatch {
                expected: rules.board,
                found: setup.size,
            });
        }
        setup.validate()?;
        Ok(Position::from_setup_unchecked(setup, rules))
    }

    fn from_setup_unchecked(setup: Setup, rules: RuleSet) -> Position {
        let mut p = Position {
            pieces: setup.pieces,
            kings: setup.kings,
            turn: setup.turn,
            king_moves: setup.king_moves,
            ending_plies: setup.ending_plies,
            move_number: setup.move_number,
            hash: 0,
            rules,
        };
        p.hash = p.compute_hash();
        p
    }

    /// Read a FEN for the board of `rules`.
    pub fn from_fen(text: &str, rules: RuleSet) -> Result<Position, ParseFenError> {
        let setup = Setup::from_fen(text, rules.board)?;
        Ok(Position::from_setup(setup, rules)?)
    }

    /// The FEN.
    pub fn fen(&self) -> String {
        self.to_setup().to_string()
    }

    /// The unchecked form.
    pub fn to_setup(&self) -> Setup {
        Setup {
            size: self.rules.board,
            pieces: self.pieces,
            kings: self.kings,
            turn: self.turn,
            king_moves: self.king_moves,
            ending_plies: self.ending_plies,
            move_number: self.move_number,
        }
    }

    /// The rules this position is played under.
    #[inline]
    pub fn rules(&self) -> &RuleSet {
        &self.rules
    }

    /// The board.
    #[inline]
    pub fn size(&self) -> BoardSize {
        self.rules.board
    }

    /// Side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// All pieces of `c`.
    #[inline]
    pub fn pieces(&self, c: Color) -> Bitboard {
        self.pieces[c.index()]
    }

    /// The men of `c`.
    #[inline]
    pub fn men(&self, c: Color) -> Bitboard {
        self.pieces[c.index()] - self.kings
    }

    /// The kings of `c`.
    #[inline]
    pub fn kings(&self, c: Color) -> Bitboard {
        self.pieces[c.index()] & self.kings
    }

    /// All occupied squares.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.pieces[0] | self.pieces[1]
    }

    /// All empty squares.
    #[inline]
    pub fn empty(&self) -> Bitboard {
        self.size().mask() - self.occupied()
    }

    /// The piece on `sq` (`None` also for a square of the other board).
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        if sq.size() != self.size() {
            return None;
        }
        self.to_setup().piece_at(sq)
    }

    /// Plies in a row in which only kings moved and nothing was captured.
    #[inline]
    pub fn king_moves(&self) -> u16 {
        self.king_moves
    }

    /// Plies played since the material became the [`Ending`] it is now
    /// (see [`Position::counted_ending`]), not counting the move that made
    /// it. Every move sets it to 0 outside a counted ending (a value read
    /// from a FEN is kept until then, and counts for nothing outside one).
    /// When a capture turns one counted ending into another, the earlier
    /// limit keeps running: the counter goes on so that the new ending ends
    /// no later than the old one would have (FMJD: "the maximum of 16 moves
    /// remains valid").
    #[inline]
    pub fn ending_plies(&self) -> u16 {
        self.ending_plies
    }

    boardgame::position_counters!();

    /// The hash computed from scratch (equals [`Position::hash`]).
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for c in Color::ALL {
            let mut bits = self.pieces[c.index()].0;
            while bits != 0 {
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let king = usize::from(self.kings.0 & (1 << b) != 0);
                h ^= KEYS.piece[2 * c.index() + king][b];
            }
        }
        if self.turn == Color::Black {
            h ^= KEYS.black_to_move;
        }
        h
    }

    /// Whether `other` has the same pieces and side to move.
    pub fn same_position(&self, other: &Position) -> bool {
        self.pieces == other.pieces && self.kings == other.kings && self.turn == other.turn
    }

    #[inline]
    fn sides(&self) -> Sides {
        let us = self.turn.index();
        Sides {
            us: self.turn,
            own: self.pieces[us].0,
            opp: self.pieces[1 - us].0,
            kings: self.kings.0,
        }
    }

    /// Whether each side has exactly one king and nothing else.
    #[inline]
    pub fn one_king_each(&self) -> bool {
        let [w, b] = self.pieces;
        w.count() == 1 && b.count() == 1 && self.kings == (w | b)
    }

    /// Whether the rules' one-king-each draw applies.
    #[inline]
    fn one_king_each_drawn(&self) -> bool {
        self.rules.one_king_each_draw && self.one_king_each()
    }

    /// The [`Ending`] the material forms, whatever the rules: one side has
    /// a single king and nothing else, the other three pieces
    /// ([`Ending::KingVsThree`]) or one or two ([`Ending::KingVsTwo`]), at
    /// least one of them a king.
    pub fn ending(&self) -> Option<Ending> {
        let [w, b] = self.pieces;
        let (nw, nb) = (w.count(), b.count());
        if nw + nb > 4 {
            return None;
        }
        let lone_king = |side: Bitboard, n: u32| n == 1 && (side & self.kings).any();
        let (strong, n) = if lone_king(b, nb) {
            (w, nw)
        } else if lone_king(w, nw) {
            (b, nb)
        } else {
            return None;
        };
        if (strong & self.kings).is_empty() {
            return None;
        }
        match n {
            3 => Some(Ending::KingVsThree),
            1 | 2 => Some(Ending::KingVsTwo),
            _ => None,
        }
    }

    /// The [`Ending`] the material forms with its limit in plies, when the
    /// rules give it one.
    #[inline]
    pub fn counted_ending(&self) -> Option<(Ending, u16)> {
        if !self.rules.counts_endings() {
            return None;
        }
        let ending = self.ending()?;
        Some((ending, self.rules.ending_limit(ending)?))
    }

    /// The ending counter after the material changed (or not) from the
    /// counted ending `before`: `elapsed` is the old counter plus the ply
    /// just played (plus nothing for a huff, which is not a move).
    fn next_ending_plies(&self, before: Option<(Ending, u16)>, elapsed: u16) -> u16 {
        match (before, self.counted_ending()) {
            (_, None) | (None, Some(_)) => 0,
            (Some((old, _)), Some((new, _))) if old == new => elapsed,
            // A capture turned one counted ending into another: the new
            // limit runs from now, but the old one still holds.
            (Some((_, old_limit)), Some((_, new_limit))) => {
                let counter = u32::from(elapsed) + u32::from(new_limit);
                u16::try_from(counter.saturating_sub(u32::from(old_limit))).unwrap_or(u16::MAX)
            }
        }
    }

    /// Whether the ending counter can matter within a few plies: the rules
    /// count endings and no more than four pieces are left. The bulk
    /// counting of perft, which does not keep that counter, is not used
    /// then.
    #[inline]
    fn ending_counter_may_move(&self) -> bool {
        self.rules.counts_endings() && self.occupied().count() <= 4
    }

    /// Whether the king-move counter has reached the rules' limit.
    #[inline]
    fn king_move_limit_reached(&self) -> bool {
        matches!(self.rules.king_move_draw, Some(n) if self.king_moves >= n)
    }

    /// The counted ending whose limit the ending counter has reached.
    #[inline]
    fn ending_limit_reached(&self) -> Option<Ending> {
        match self.counted_ending() {
            Some((ending, limit)) if self.ending_plies >= limit => Some(ending),
            _ => None,
        }
    }

    /// Whether the game is over without looking at the moves: a side has no
    /// pieces, or a draw applies by the position alone.
    #[inline]
    fn ended_by_material_or_draw(&self) -> bool {
        self.pieces[0].is_empty()
            || self.pieces[1].is_empty()
            || self.one_king_each_drawn()
            || self.king_move_limit_reached()
            || self.ending_limit_reached().is_some()
    }

    /// All legal moves; none when the game is over. With huffing on, moves
    /// that skip a possible capture are legal too.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.legal_moves_into(&mut list);
        list
    }

    /// The legal moves, written into `list` (cleared first): lets a caller
    /// reuse one list without moving it around.
    #[inline]
    pub fn legal_moves_into(&self, list: &mut MoveList) {
        list.clear();
        if !self.ended_by_material_or_draw() {
            let s = self.sides();
            on_board!(self.size(), generate(&s, &self.rules, list, false));
        }
    }

    /// The moves that obey the capture obligation even when huffing is on
    /// (without huffing: the legal moves).
    pub fn strict_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.strict_moves_into(&mut list);
        list
    }

    /// The moves of [`Position::strict_moves`], written into `list`
    /// (cleared first): lets a caller reuse one list without moving it
    /// around.
    #[inline]
    pub fn strict_moves_into(&self, list: &mut MoveList) {
        list.clear();
        if !self.ended_by_material_or_draw() {
            let s = self.sides();
            on_board!(self.size(), generate(&s, &self.rules, list, true));
        }
    }

    /// The number of legal moves, counted without building most of them
    /// (bulk counting for perft). Equals `legal_moves().len()`.
    #[inline]
    pub fn count_legal_moves(&self) -> u64 {
        if self.ended_by_material_or_draw() {
            return 0;
        }
        let s = self.sides();
        on_board!(self.size(), count(&s, &self.rules))
    }

    /// perft(2) (see [`crate::perft`]): without captures counted straight
    /// from the bitboards, otherwise by playing each move.
    pub(crate) fn perft2(&self) -> u64 {
        if self.ended_by_material_or_draw() {
            return 0;
        }
        if self.ending_counter_may_move() {
            return self.sum_over_children(Position::count_legal_moves);
        }
        let s = self.sides();
        if let Some(n) = on_board!(self.size(), perft2_quiet(&s, &self.rules, self.king_moves)) {
            return n;
        }
        self.sum_over_children(Position::count_legal_moves)
    }

    /// perft(3): when the side to move has no capture (and huffing is off),
    /// the moves are applied straight from the bitboards, without building
    /// a move list; otherwise move by move.
    pub(crate) fn perft3(&self) -> u64 {
        if self.ended_by_material_or_draw() {
            return 0;
        }
        let s = self.sides();
        if !self.rules.huffing
            && !self.ending_counter_may_move()
            && !on_board!(self.size(), capture_exists(&s, &self.rules))
        {
            let mut total = 0;
            let promo = self.size().promotion_row(self.turn).0;
            let us = self.turn.index();
            let black = self.turn == Color::Black;
            let mut visit = |from: u64, to: u64| {
                let mut c = *self;
                let was_king = c.kings.0 & from != 0;
                c.pieces[us].0 ^= from | to;
                if was_king || promo & to != 0 {
                    c.kings.0 = (c.kings.0 & !from) | to;
                }
                c.king_moves = if was_king {
                    c.king_moves.saturating_add(1)
                } else {
                    0
                };
                c.ending_plies = 0;
                if black {
                    c.move_number = c.move_number.saturating_add(1);
                }
                c.turn = !c.turn;
                total += c.perft2();
            };
            match self.size() {
                BoardSize::Eight => movegen::for_each_quiet::<G8>(&s, &mut visit),
                BoardSize::Ten => movegen::for_each_quiet::<G10>(&s, &mut visit),
            }
            return total;
        }
        self.sum_over_children(Position::perft2)
    }

    /// The sum of `f` over the positions after each legal move.
    #[inline]
    fn sum_over_children(&self, f: impl Fn(&Position) -> u64) -> u64 {
        let mut list = MoveList::new();
        self.legal_moves_into(&mut list);
        list.iter()
            .map(|m| {
                let mut child = *self;
                child.play_unhashed(m);
                f(&child)
            })
            .sum()
    }

    /// Whether the side to move can capture.
    #[inline]
    pub fn has_capture(&self) -> bool {
        let s = self.sides();
        on_board!(self.size(), capture_exists(&s, &self.rules))
    }

    /// The pieces of the side to move that can start a capture the rules
    /// allow (with the majority rule: a capture of the most pieces). These
    /// are the pieces that "should have captured" for huffing.
    pub fn capturing_pieces(&self) -> Bitboard {
        if !self.has_capture() {
            return Bitboard::EMPTY;
        }
        self.strict_moves()
            .iter()
            .filter(|m| m.is_capture())
            .map(|m| m.from())
            .collect()
    }

    /// Whether `m` is a legal move here.
    pub fn is_legal(&self, m: &Move) -> bool {
        m.size() == self.size() && self.legal_moves().contains(m)
    }

    /// Whether `m` crowns the moving piece (a man ending on its promotion row).
    pub fn promotes(&self, m: &Move) -> bool {
        let us = self.turn;
        self.men(us).contains(m.from()) && self.size().promotion_row(us).contains(m.to())
    }

    /// The end of the game this position shows by itself, if any: a side has
    /// no pieces, the side to move cannot move, each side has one king (with
    /// the rule `one-king-each`), the king-move counter reached its limit, or
    /// the ending counter reached the limit of the ending on the board. Wins
    /// take precedence over draws. (Repetition needs the game's history, and huffing can free a
    /// blocked side: see [`crate::Game`].)
    pub fn outcome(&self) -> Option<Outcome> {
        let us = self.turn;
        let lose = |reason| {
            Some(Outcome {
                winner: Some(us.other()),
                reason,
            })
        };
        if self.pieces[us.index()].is_empty() {
            return lose(EndReason::NoPieces);
        }
        if self.pieces[us.other().index()].is_empty() {
            return Some(Outcome {
                winner: Some(us),
                reason: EndReason::NoPieces,
            });
        }
        let s = self.sides();
        if !on_board!(self.size(), any_move(&s, &self.rules)) {
            return lose(EndReason::Blocked);
        }
        let draw = |reason| {
            Some(Outcome {
                winner: None,
                reason,
            })
        };
        if self.one_king_each_drawn() {
            return draw(EndReason::OneKingEach);
        }
        if self.king_move_limit_reached() {
            return draw(EndReason::KingMoves);
        }
        match self.ending_limit_reached() {
            Some(Ending::KingVsThree) => draw(EndReason::KingVsThree),
            Some(Ending::KingVsTwo) => draw(EndReason::KingVsTwo),
            None => None,
        }
    }

    /// Whether the game is over in this position.
    #[inline]
    pub fn is_game_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// Play a legal move in place. The move must be legal
    /// ([`Position::is_legal`]); an illegal one leaves a position that breaks
    /// the rules (no memory unsafety, no panic).
    #[inline]
    pub fn play_unchecked(&mut self, m: &Move) {
        self.apply::<true>(m);
    }

    /// Play a legal move without keeping the hash up to date (perft only:
    /// the position never leaves the perft).
    #[inline]
    pub(crate) fn play_unhashed(&mut self, m: &Move) {
        self.apply::<false>(m);
    }

    #[inline(always)]
    fn apply<const HASH: bool>(&mut self, m: &Move) {
        let ending_before = self.counted_ending();
        let us = self.turn.index();
        let them = 1 - us;
        let fb = m.start_bit() as usize & 63;
        let tb = m.end_bit() as usize & 63;
        let from = 1u64 << fb;
        let to = 1u64 << tb;
        let was_king = self.kings.0 & from != 0;
        let crowned = !was_king && self.size().promotion_row(self.turn).0 & to != 0;
        let king_after = was_king || crowned;
        if HASH {
            self.hash ^= KEYS.piece[2 * us + usize::from(was_king)][fb]
                ^ KEYS.piece[2 * us + usize::from(king_after)][tb];
        }
        self.pieces[us].0 = (self.pieces[us].0 & !from) | to;
        self.kings.0 &= !from;
        if king_after {
            self.kings.0 |= to;
        }
        let cap = m.captured().0 & !to & !from;
        if cap != 0 {
            if HASH {
                let mut bits = cap & self.pieces[them].0;
                while bits != 0 {
                    let b = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let k = usize::from(self.kings.0 & (1 << b) != 0);
                    self.hash ^= KEYS.piece[2 * them + k][b];
                }
            }
            self.pieces[them].0 &= !cap;
            self.kings.0 &= !cap;
        }
        self.king_moves = if was_king && cap == 0 {
            self.king_moves.saturating_add(1)
        } else {
            0
        };
        self.ending_plies =
            self.next_ending_plies(ending_before, self.ending_plies.saturating_add(1));
        if self.turn == Color::Black {
            self.move_number = self.move_number.saturating_add(1);
        }
        self.turn = self.turn.other();
        if HASH {
            self.hash ^= KEYS.black_to_move;
        }
    }

    /// Play a move, checking it first.
    pub fn play(&self, m: &Move) -> Result<Position, MoveError> {
        self.check_move(m)?;
        let mut next = *self;
        next.play_unchecked(m);
        Ok(next)
    }

    /// The position after the opponent removed (huffed) the piece of the
    /// side *not* to move on `sq`: the piece is gone, the side to move is
    /// unchanged, the king-move counter restarts and the ending counter
    /// follows the new material. `None` if no such piece stands there. Whether the huff is allowed is the [`crate::Game`]'s
    /// business.
    pub fn huffed(&self, sq: Square) -> Option<Position> {
        let them = self.turn.other().index();
        if sq.size() != self.size() || !self.pieces[them].contains(sq) {
            return None;
        }
        let ending_before = self.counted_ending();
        let mut p = *self;
        let b = sq.bit() as usize;
        let k = usize::from(p.kings.contains(sq));
        p.hash ^= KEYS.piece[2 * them + k][b];
        p.pieces[them] = p.pieces[them] - sq.bb();
        p.kings = p.kings - sq.bb();
        p.king_moves = 0;
        p.ending_plies = p.next_ending_plies(ending_before, self.ending_plies);
        Some(p)
    }

    /// Explain why `m` is not legal here, or return `Ok(())` if it is.
    pub fn check_move(&self, m: &Move) -> Result<(), MoveError> {
        if let Some(o) = self.outcome() {
            return Err(MoveError::GameOver(o.describe()));
        }
        if self.is_legal(m) {
            return Ok(());
        }
        Err(self.explain(&m.to_string(), m.from(), m.is_capture()))
    }

    fn explain(&self, text: &str, from: Square, capture_written: bool) -> MoveError {
        let us = self.turn;
        let illegal = |why: String, reason: ErrorDetail| MoveError::Illegal {
            mv: text.to_string(),
            why,
            reason: Some(Box::new(reason)),
        };
        if from.size() != self.size() {
            return illegal(
                format!("{from} is not a square of the {} board", self.size()),
                ErrorDetail::new("illegal.off_board").with("size", self.size()),
            );
        }
        match self.piece_at(from) {
            Some(p) if p.color == us => {}
            Some(_) => {
                return illegal(
                    format!("the piece on {from} is not {us}'s"),
                    ErrorDetail::new("illegal.not_yours")
                        .with("square", from)
                        .with("color", us.name()),
                );
            }
            None => {
                return illegal(
                    format!("there is no {us} piece on {from}"),
                    ErrorDetail::new("illegal.no_piece")
                        .with("color", us.name())
                        .with("square", from),
                );
            }
        }
        let legal = self.legal_moves();
        let captures: Vec<&Move> = legal.iter().filter(|m| m.is_capture()).collect();
        let list = |ms: &[&Move]| {
            let mut names: Vec<String> = ms.iter().take(8).map(|m| m.to_string()).collect();
            if ms.len() > 8 {
                names.push(format!("… ({} in all)", ms.len()));
            }
            names.join(", ")
        };
        if !captures.is_empty() && !self.rules.huffing && !capture_written {
            return illegal(
                format!("capturing is compulsory: {}", list(&captures)),
                ErrorDetail::new("illegal.must_capture").with("moves", list(&captures)),
            );
        }
        if !captures.is_empty() && self.rules.majority_capture {
            return illegal(
                format!(
                    "the capture that takes the most pieces ({}) is compulsory: {}",
                    captures[0].capture_count(),
                    list(&captures)
                ),
                ErrorDetail::new("illegal.must_capture_most")
                    .with("count", captures[0].capture_count())
                    .with("moves", list(&captures)),
            );
        }
        if !captures.is_empty() && !self.rules.huffing {
            return illegal(
                format!("the legal captures are {}", list(&captures)),
                ErrorDetail::new("illegal.captures_are").with("moves", list(&captures)),
            );
        }
        let own: Vec<&Move> = legal.iter().filter(|m| m.from() == from).collect();
        if own.is_empty() {
            illegal(
                format!("the piece on {from} cannot move"),
                ErrorDetail::new("illegal.cannot_move").with("square", from),
            )
        } else {
            illegal(
                format!("the piece on {from} can play {}", list(&own)),
                ErrorDetail::new("illegal.can_play")
                    .with("square", from)
                    .with("moves", list(&own)),
            )
        }
    }

    /// The pieces a king or man jumps going in a straight diagonal line from
    /// `a` to `b`: `Some(the opponent pieces between)` when the two squares
    /// share a diagonal, else `None`.
    fn between(&self, a: Square, b: Square) -> Option<Bitboard> {
        let (df, dr) = (
            i32::from(b.file()) - i32::from(a.file()),
            i32::from(b.rank()) - i32::from(a.rank()),
        );
        if df == 0 || df.abs() != dr.abs() {
            return None;
        }
        let (sf, sr) = (df.signum(), dr.signum());
        let mut out = Bitboard::EMPTY;
        for i in 1..df.abs() {
            let f = i32::from(a.file()) + i * sf;
            let r = i32::from(a.rank()) + i * sr;
            let sq = Square::from_coords(self.size(), f as u8, r as u8)?;
            out |= sq.bb() & self.occupied();
        }
        Some(out)
    }

    /// Match a written move against the legal moves. A capture may be given
    /// by start and end only when that is unique; otherwise by every landing
    /// square (or enough of them, in order, to tell the captures apart).
    pub fn resolve(&self, text: &MoveText) -> Result<Move, MoveError> {
        let written = text.to_string();
        if let Some(o) = self.outcome() {
            return Err(MoveError::GameOver(o.describe()));
        }
        let (Some(from), Some(to)) = (text.from(), text.to()) else {
            return Err(MoveError::Parse(ParseMoveError::Empty));
        };
        if text.squares.iter().any(|s| s.size() != self.size()) || text.squares.len() < 2 {
            return Err(MoveError::Illegal {
                mv: written,
                why: format!("not a move of the {} board", self.size()),
                reason: Some(Box::new(
                    ErrorDetail::new("illegal.off_board").with("size", self.size()),
                )),
            });
        }
        let legal = self.legal_moves();
        let mut candidates: Vec<Move> = legal
            .iter()
            .filter(|m| m.from() == from && m.to() == to)
            .copied()
            .collect();
        let inner = &text.squares[1..text.squares.len() - 1];
        if !inner.is_empty() {
            // The pieces jumped on the written path, if every leg is a
            // straight diagonal jumping exactly one piece.
            let implied = text.squares.windows(2).try_fold(Bitboard::EMPTY, |acc, w| {
                self.between(w[0], w[1])
                    .filter(|b| b.count() == 1)
                    .map(|b| acc | b)
            });
            candidates.retain(|m| {
                implied == Some(m.captured())
                    || is_subsequence(inner, &m.path().collect::<Vec<_>>())
            });
        }
        if candidates.len() > 1 {
            // A candidate whose whole path was written wins (`b6xd8` is the
            // single jump, even if a longer capture also ends on d8).
            let exact: Vec<Move> = candidates
                .iter()
                .filter(|m| m.path().eq(text.squares.iter().copied()))
                .copied()
                .collect();
            if exact.len() == 1 {
                return Ok(exact[0]);
            }
        }
        match candidates.len() {
            1 => Ok(candidates[0]),
            0 => Err(self.explain(&written, from, text.capture)),
            _ => {
                candidates.sort();
                Err(MoveError::Ambiguous {
                    mv: written,
                    candidates: candidates
                        .iter()
                        .map(|m| m.to_string())
                        .collect::<Vec<_>>()
                        .join(" or "),
                })
            }
        }
    }

    /// Read a move in our notation and match it against the legal moves.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let mt = MoveText::parse(text, self.size())?;
        self.resolve(&mt)
    }

    /// The shortest notation that names `m` uniquely here: start and end
    /// (`28x10`) when no other legal move has them, else the full path.
    pub fn short_notation(&self, m: &Move) -> String {
        let clash = self
            .legal_moves()
            .iter()
            .filter(|o| o.from() == m.from() && o.to() == m.to())
            .count()
            > 1;
        if clash {
            m.to_string()
        } else {
            m.short_notation()
        }
    }
}

fn is_subsequence(needle: &[Square], hay: &[Square]) -> bool {
    let mut it = hay.iter();
    needle.iter().all(|n| it.any(|h| h == n))
}

boardgame::display_via_setup!(Position);

/// Reads a FEN under the board's default preset: `dame` for algebraic
/// squares, `dame-100` for square numbers.
impl FromStr for Position {
    type Err = ParseFenError;
    fn from_str(s: &str) -> Result<Position, ParseFenError> {
        let setup: Setup = s.parse()?;
        let rules = match setup.size {
            BoardSize::Eight => RuleSet::DAME,
            BoardSize::Ten => RuleSet::DAME_100,
        };
        Ok(Position::from_setup(setup, rules)?)
    }
}

boardgame::rules_by_inherent_methods!(Position, Move, MoveError, EndReason, play: by_ref);
