//! Shared test helpers: a deliberately simple, independent Mühle move
//! generator written from RULES.md Part 1 alone, a small PRNG, and the
//! reader of `tests/perft.txt`.
//!
//! The naive generator knows nothing of the library's square numbering,
//! bitboards, mill tables or move generator. Its board is an array of 24
//! `Option<Side>` indexed by its own list of point names (row by row from
//! the top, as in the position string); adjacency is the list of the drawn
//! line segments of the RULES.md diagram, and the mills are the 16 lines of
//! three listed in RULES.md, both written out by name. Library types appear
//! only at the boundary: reading a [`Position`] into a naive board, and
//! comparing move sets as strings in the library's notation.

#![allow(dead_code)]

use std::collections::BTreeSet;
use std::sync::LazyLock;

use muehle::{Color, Position, RemovalRule, RuleSet, Square};

/// The 24 points, row by row from the top (a7 d7 g7 / b6 d6 f6 / …).
pub const POINTS: [&str; 24] = [
    "a7", "d7", "g7", //
    "b6", "d6", "f6", //
    "c5", "d5", "e5", //
    "a4", "b4", "c4", "e4", "f4", "g4", //
    "c3", "d3", "e3", //
    "b2", "d2", "f2", //
    "a1", "d1", "g1",
];

/// The drawn line segments of the RULES.md diagram, each joining two
/// neighbouring points.
pub const LINES: [[&str; 2]; 32] = [
    // horizontal segments, top to bottom
    ["a7", "d7"],
    ["d7", "g7"],
    ["b6", "d6"],
    ["d6", "f6"],
    ["c5", "d5"],
    ["d5", "e5"],
    ["a4", "b4"],
    ["b4", "c4"],
    ["e4", "f4"],
    ["f4", "g4"],
    ["c3", "d3"],
    ["d3", "e3"],
    ["b2", "d2"],
    ["d2", "f2"],
    ["a1", "d1"],
    ["d1", "g1"],
    // vertical segments, left to right
    ["a7", "a4"],
    ["a4", "a1"],
    ["b6", "b4"],
    ["b4", "b2"],
    ["c5", "c4"],
    ["c4", "c3"],
    ["d7", "d6"],
    ["d6", "d5"],
    ["d3", "d2"],
    ["d2", "d1"],
    ["e5", "e4"],
    ["e4", "e3"],
    ["f6", "f4"],
    ["f4", "f2"],
    ["g7", "g4"],
    ["g4", "g1"],
];

/// The 16 mills exactly as RULES.md lists them.
pub const MILLS: [[&str; 3]; 16] = [
    ["a7", "d7", "g7"],
    ["b6", "d6", "f6"],
    ["c5", "d5", "e5"],
    ["a4", "b4", "c4"],
    ["e4", "f4", "g4"],
    ["c3", "d3", "e3"],
    ["b2", "d2", "f2"],
    ["a1", "d1", "g1"],
    ["a1", "a4", "a7"],
    ["b2", "b4", "b6"],
    ["c3", "c4", "c5"],
    ["d1", "d2", "d3"],
    ["d5", "d6", "d7"],
    ["e3", "e4", "e5"],
    ["f2", "f4", "f6"],
    ["g1", "g4", "g7"],
];

/// Twelve Men's Morris adds the four diagonals joining the corners of the
/// squares: as drawn segments (for moving) and as lines of three (mills).
pub const DIAGONAL_LINES: [[&str; 2]; 8] = [
    ["a7", "b6"],
    ["b6", "c5"],
    ["g7", "f6"],
    ["f6", "e5"],
    ["a1", "b2"],
    ["b2", "c3"],
    ["g1", "f2"],
    ["f2", "e3"],
];

/// The four diagonal mills of Twelve Men's Morris.
pub const DIAGONAL_MILLS: [[&str; 3]; 4] = [
    ["a7", "b6", "c5"],
    ["g7", "f6", "e5"],
    ["a1", "b2", "c3"],
    ["g1", "f2", "e3"],
];

/// Index of a point name in [`POINTS`].
pub fn pt(name: &str) -> usize {
    POINTS
        .iter()
        .position(|&p| p == name)
        .unwrap_or_else(|| panic!("{name} is not a point"))
}

struct Geometry {
    adjacent: Vec<Vec<usize>>,
    mills: Vec<[usize; 3]>,
}

fn geometry(diagonals: bool) -> Geometry {
    let extra_lines: &[[&str; 2]] = if diagonals { &DIAGONAL_LINES } else { &[] };
    let extra_mills: &[[&str; 3]] = if diagonals { &DIAGONAL_MILLS } else { &[] };
    let mut adjacent = vec![Vec::new(); 24];
    for [a, b] in LINES.iter().chain(extra_lines) {
        adjacent[pt(a)].push(pt(b));
        adjacent[pt(b)].push(pt(a));
    }
    let mills = MILLS
        .iter()
        .chain(extra_mills)
        .map(|m| [pt(m[0]), pt(m[1]), pt(m[2])])
        .collect();
    Geometry { adjacent, mills }
}

static GEOMETRY: LazyLock<Geometry> = LazyLock::new(|| geometry(false));
static GEOMETRY_DIAGONALS: LazyLock<Geometry> = LazyLock::new(|| geometry(true));

/// The naive generator's own colours.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Side {
    White,
    Black,
}

impl Side {
    pub fn i(self) -> usize {
        match self {
            Side::White => 0,
            Side::Black => 1,
        }
    }
    pub fn other(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }
}

/// Which stones a mill may remove.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Removal {
    /// Stones in closed mills are protected unless all opponent stones stand in mills.
    Tournament,
    /// Stones in closed mills are never removed, except a flying player's.
    Strict,
}

/// The rule options the move generator depends on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct NaiveRules {
    pub removal: Removal,
    pub flying: bool,
    pub no_mill: Option<u32>,
    /// Stones each side brings (9; Twelve Men's Morris 12; Lasker Morris 10).
    pub stones: u32,
    /// The diagonals are lines (Twelve Men's Morris).
    pub diagonals: bool,
    /// A player with stones in hand may slide instead of placing (Lasker Morris).
    pub move_in_placing: bool,
}

impl NaiveRules {
    pub const STANDARD: NaiveRules = NaiveRules {
        removal: Removal::Tournament,
        flying: true,
        no_mill: Some(100),
        stones: 9,
        diagonals: false,
        move_in_placing: false,
    };
    /// Twelve Men's Morris.
    pub const TWELVE: NaiveRules = NaiveRules {
        stones: 12,
        diagonals: true,
        ..NaiveRules::STANDARD
    };
    /// Lasker Morris.
    pub const LASKER: NaiveRules = NaiveRules {
        stones: 10,
        move_in_placing: true,
        ..NaiveRules::STANDARD
    };

    /// Boundary conversion from the library's rule set.
    pub fn from_lib(r: &RuleSet) -> NaiveRules {
        NaiveRules {
            removal: match r.removal {
                RemovalRule::UnlessAllInMills => Removal::Tournament,
                RemovalRule::Never => Removal::Strict,
            },
            flying: r.flying,
            no_mill: r.no_mill_draw.map(u32::from),
            stones: u32::from(r.stones()),
            diagonals: r.board.has_diagonals(),
            move_in_placing: r.move_in_placing,
        }
    }
}

/// One turn: placement (`from == None`) or slide/flight, plus the removed stone.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub struct NaiveMove {
    pub from: Option<usize>,
    pub to: usize,
    pub remove: Option<usize>,
}

impl std::fmt::Display for NaiveMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(from) = self.from {
            write!(f, "{}-", POINTS[from])?;
        }
        write!(f, "{}", POINTS[self.to])?;
        if let Some(r) = self.remove {
            write!(f, "x{}", POINTS[r])?;
        }
        Ok(())
    }
}

/// How a naive game ends in a position (repetition is not part of a position).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum NaiveEnd {
    /// The side to move has fewer than three stones, counting stones in hand.
    TwoStones,
    /// The side to move has stones but no legal move.
    Blocked,
    /// The no-mill counter reached the limit.
    NoMill,
    /// Every point holds a stone: nobody can move, a draw.
    BoardFull,
}

/// A naive position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Naive {
    pub board: [Option<Side>; 24],
    pub hand: [u32; 2],
    pub turn: Side,
    pub plies: u32,
    pub rules: NaiveRules,
}

impl Naive {
    /// Empty board, the rules' stones in each hand, White to move.
    pub fn start(rules: NaiveRules) -> Naive {
        Naive {
            board: [None; 24],
            hand: [rules.stones, rules.stones],
            turn: Side::White,
            plies: 0,
            rules,
        }
    }

    /// Boundary conversion: read a library position point by point.
    pub fn from_position(pos: &Position) -> Naive {
        let mut board = [None; 24];
        for (i, name) in POINTS.iter().enumerate() {
            let sq: Square = name.parse().expect("point name");
            board[i] = match pos.stone_at(sq) {
                Some(Color::White) => Some(Side::White),
                Some(Color::Black) => Some(Side::Black),
                None => None,
            };
        }
        Naive {
            board,
            hand: [
                u32::from(pos.in_hand(Color::White)),
                u32::from(pos.in_hand(Color::Black)),
            ],
            turn: match pos.turn() {
                Color::White => Side::White,
                Color::Black => Side::Black,
            },
            plies: u32::from(pos.plies_since_mill()),
            rules: NaiveRules::from_lib(pos.rules()),
        }
    }

    /// Stones of `s` on the board.
    pub fn on_board(&self, s: Side) -> u32 {
        self.board.iter().filter(|&&p| p == Some(s)).count() as u32
    }

    /// Stones of `s` on the board plus in hand.
    pub fn material(&self, s: Side) -> u32 {
        self.on_board(s) + self.hand[s.i()]
    }

    fn geometry(&self) -> &'static Geometry {
        if self.rules.diagonals {
            &GEOMETRY_DIAGONALS
        } else {
            &GEOMETRY
        }
    }

    /// Whether the stone on `p` stands in a closed mill of its own colour.
    pub fn in_mill(&self, p: usize) -> bool {
        let Some(s) = self.board[p] else {
            return false;
        };
        self.geometry()
            .mills
            .iter()
            .any(|m| m.contains(&p) && m.iter().all(|&q| self.board[q] == Some(s)))
    }

    /// Whether `s` is a flying player: flying rule on, none in hand, exactly three on board.
    pub fn is_flying(&self, s: Side) -> bool {
        self.rules.flying && self.hand[s.i()] == 0 && self.on_board(s) == 3
    }

    /// The opponent stones that `by` may remove after closing a mill.
    pub fn removal_choices(&self, by: Side) -> Vec<usize> {
        let victim = by.other();
        let all: Vec<usize> = (0..24).filter(|&p| self.board[p] == Some(victim)).collect();
        let free: Vec<usize> = all.iter().copied().filter(|&p| !self.in_mill(p)).collect();
        match self.rules.removal {
            Removal::Tournament => {
                if free.is_empty() {
                    all
                } else {
                    free
                }
            }
            Removal::Strict => {
                if self.is_flying(victim) {
                    all
                } else {
                    free
                }
            }
        }
    }

    /// The stone movements (without removals) the side to move may make,
    /// ignoring whether the game is over.
    fn movements(&self) -> Vec<(Option<usize>, usize)> {
        let us = self.turn;
        let empty: Vec<usize> = (0..24).filter(|&p| self.board[p].is_none()).collect();
        let own: Vec<usize> = (0..24).filter(|&p| self.board[p] == Some(us)).collect();
        let mut out = Vec::new();
        let slide = |out: &mut Vec<(Option<usize>, usize)>| {
            for &from in &own {
                for &to in &self.geometry().adjacent[from] {
                    if self.board[to].is_none() {
                        out.push((Some(from), to));
                    }
                }
            }
        };
        if self.hand[us.i()] > 0 {
            for &to in &empty {
                out.push((None, to));
            }
            if self.rules.move_in_placing {
                slide(&mut out);
            }
        } else if self.is_flying(us) {
            for &from in &own {
                for &to in &empty {
                    out.push((Some(from), to));
                }
            }
        } else {
            slide(&mut out);
        }
        out
    }

    /// Board after moving a stone (no removal), and whether it closed a mill.
    fn after_movement(&self, from: Option<usize>, to: usize) -> (Naive, bool) {
        let mut next = self.clone();
        if let Some(f) = from {
            next.board[f] = None;
        }
        next.board[to] = Some(self.turn);
        let closed = next.in_mill(to);
        (next, closed)
    }

    /// How the game has ended in this position, if it has.
    pub fn end(&self) -> Option<NaiveEnd> {
        if self.material(self.turn) < 3 {
            return Some(NaiveEnd::TwoStones);
        }
        if self.movements().is_empty() {
            if self.board.iter().all(|p| p.is_some()) {
                return Some(NaiveEnd::BoardFull);
            }
            return Some(NaiveEnd::Blocked);
        }
        if let Some(limit) = self.rules.no_mill
            && self.plies >= limit
        {
            return Some(NaiveEnd::NoMill);
        }
        None
    }

    /// All legal moves: none when the game is over; a mill-closing move once
    /// per removable stone, or once without removal if none may be removed.
    pub fn moves(&self) -> Vec<NaiveMove> {
        if self.end().is_some() {
            return Vec::new();
        }
        let mut out = Vec::new();
        for (from, to) in self.movements() {
            let (after, closed) = self.after_movement(from, to);
            let choices = if closed {
                after.removal_choices(self.turn)
            } else {
                Vec::new()
            };
            if choices.is_empty() {
                out.push(NaiveMove {
                    from,
                    to,
                    remove: None,
                });
            } else {
                for r in choices {
                    out.push(NaiveMove {
                        from,
                        to,
                        remove: Some(r),
                    });
                }
            }
        }
        out
    }

    /// The position after a move from [`Naive::moves`].
    pub fn play(&self, m: &NaiveMove) -> Naive {
        let (mut next, closed) = self.after_movement(m.from, m.to);
        if let Some(r) = m.remove {
            assert_eq!(next.board[r], Some(self.turn.other()));
            next.board[r] = None;
        }
        if m.from.is_none() {
            next.hand[self.turn.i()] -= 1;
            next.plies = 0;
        } else if closed {
            next.plies = 0;
        } else {
            next.plies += 1;
        }
        next.turn = self.turn.other();
        next
    }

    /// Number of move sequences of length `depth`.
    pub fn perft(&self, depth: u32) -> u64 {
        boardgame::perft::perft_by(self, depth, &Naive::moves, &Naive::play)
    }

    /// The legal moves in the library's notation, as a sorted set.
    pub fn move_strings(&self) -> BTreeSet<String> {
        self.moves().iter().map(|m| m.to_string()).collect()
    }

    /// The points as `W`, `B` or `.`, in the order of [`POINTS`].
    pub fn board_chars(&self) -> impl Iterator<Item = char> + '_ {
        self.board.iter().map(|p| match p {
            Some(Side::White) => 'W',
            Some(Side::Black) => 'B',
            None => '.',
        })
    }

    /// The board, hands, side to move and no-mill counter, for comparisons.
    pub fn key(&self) -> String {
        let board: String = self.board_chars().collect();
        format!(
            "{board} {:?} {} {} {}",
            self.turn, self.hand[0], self.hand[1], self.plies
        )
    }
}

/// The library's legal moves as a sorted set of strings.
pub fn lib_move_strings(pos: &Position) -> BTreeSet<String> {
    pos.legal_moves().iter().map(|m| m.to_string()).collect()
}

/// A small deterministic PRNG (SplitMix64).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
    /// True with probability `percent`/100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }
}

/// One line of `tests/perft.txt`: rules, position string and (depth, count) pairs.
pub type PerftCase = boardgame::perft::TableLine<RuleSet, (u32, u64)>;

/// The perft data file, parsed (the format is
/// [`boardgame::perft::read_table`]'s).
pub fn perft_cases() -> Vec<PerftCase> {
    boardgame::perft::read_table(include_str!("../perft.txt"))
        .unwrap_or_else(|e| panic!("perft.txt {e}"))
}
