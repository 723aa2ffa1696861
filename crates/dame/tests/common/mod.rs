//! A naive reference implementation of the Dame rules, written from
//! RULES.md Part 2 alone: an array board indexed by (file, rank), plain
//! recursion for captures, strings for squares. It shares no code with the
//! library's generator (only the rule-set type, to read presets), so the two
//! check each other.

#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};

use dame::{KingCapture, KingLanding, Position, Promotion, RuleSet};

#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Side {
    White,
    Black,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Cell {
    pub side: Side,
    pub king: bool,
}

/// (file, rank), both 0-based; rank 0 is White's back row.
pub type Sq = (i32, i32);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NaiveRules {
    pub n: i32,
    pub backward: bool,
    pub majority: bool,
    pub land_anywhere: bool,
    /// A king captures only a piece on the square next to it (the Italian
    /// text of 004), not from a distance.
    pub king_capture_short: bool,
    pub crown_at_end: bool,
    pub huffing: bool,
    pub king_move_draw: Option<u16>,
    pub one_king_each_draw: bool,
    /// Plies allowed to a lone king against three pieces with a king.
    pub king_vs_three_draw: Option<u16>,
    /// Plies allowed to a lone king against one or two pieces with a king.
    pub king_vs_two_draw: Option<u16>,
}

impl NaiveRules {
    pub fn from_lib(r: &RuleSet) -> NaiveRules {
        NaiveRules {
            n: i32::from(r.board.side()),
            backward: r.men_capture_backward,
            majority: r.majority_capture,
            land_anywhere: r.king_landing == KingLanding::AnywhereBehind,
            king_capture_short: r.king_capture == KingCapture::Short,
            crown_at_end: r.promotion == Promotion::EndOfMove,
            huffing: r.huffing,
            king_move_draw: r.king_move_draw,
            one_king_each_draw: r.one_king_each_draw,
            king_vs_three_draw: r.king_vs_three_draw,
            king_vs_two_draw: r.king_vs_two_draw,
        }
    }
}

/// The name of a square: algebraic on 8×8, the standard number on 10×10
/// (row by row from the top as White sees it, left to right).
pub fn name(n: i32, (f, r): Sq) -> String {
    if n == 8 {
        format!("{}{}", (b'a' + f as u8) as char, r + 1)
    } else {
        let row_from_top = n - 1 - r;
        let num = row_from_top * (n / 2) + f / 2 + 1;
        num.to_string()
    }
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct NaiveMove {
    pub path: Vec<Sq>,
    pub captured: Vec<Sq>,
}

impl NaiveMove {
    /// Start, end and the sorted captured set: what makes two moves equal.
    pub fn key(&self, n: i32) -> String {
        let mut caps: Vec<String> = self.captured.iter().map(|&s| name(n, s)).collect();
        caps.sort();
        format!(
            "{}>{}:{}",
            name(n, self.path[0]),
            name(n, *self.path.last().expect("path")),
            caps.join(",")
        )
    }

    pub fn path_string(&self, n: i32) -> String {
        let sep = if self.captured.is_empty() { "-" } else { "x" };
        self.path
            .iter()
            .map(|&s| name(n, s))
            .collect::<Vec<_>>()
            .join(sep)
    }
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Naive {
    pub rules: NaiveRules,
    pub board: Vec<Vec<Option<Cell>>>,
    pub turn: Side,
    pub king_moves: u16,
    /// Plies left before the draw of the counted king ending on the board
    /// (`None` outside one).
    pub ending_plies_left: Option<u16>,
}

impl Naive {
    pub fn start(rules: NaiveRules) -> Naive {
        let n = rules.n;
        let rows = if n == 8 { 3 } else { 4 };
        let mut board = vec![vec![None; n as usize]; n as usize];
        for f in 0..n {
            for r in 0..n {
                if (f + r) % 2 == 0 {
                    if r < rows {
                        board[f as usize][r as usize] = Some(Cell {
                            side: Side::White,
                            king: false,
                        });
                    } else if r >= n - rows {
                        board[f as usize][r as usize] = Some(Cell {
                            side: Side::Black,
                            king: false,
                        });
                    }
                }
            }
        }
        Naive {
            rules,
            board,
            turn: Side::White,
            king_moves: 0,
            ending_plies_left: None,
        }
    }

    /// The same position as a library position (read square by square
    /// through the library's square names).
    pub fn from_position(pos: &Position) -> Naive {
        let rules = NaiveRules::from_lib(pos.rules());
        let n = rules.n;
        let mut board = vec![vec![None; n as usize]; n as usize];
        for f in 0..n {
            for r in 0..n {
                if (f + r) % 2 != 0 {
                    continue;
                }
                let sq: dame::Square = dame::Square::parse(&name(n, (f, r)), pos.size())
                    .expect("naive names are library names");
                if let Some(p) = pos.piece_at(sq) {
                    board[f as usize][r as usize] = Some(Cell {
                        side: if p.color == dame::Color::White {
                            Side::White
                        } else {
                            Side::Black
                        },
                        king: p.kind == dame::PieceKind::King,
                    });
                }
            }
        }
        let mut naive = Naive {
            rules,
            board,
            turn: if pos.turn() == dame::Color::White {
                Side::White
            } else {
                Side::Black
            },
            king_moves: pos.king_moves(),
            ending_plies_left: None,
        };
        naive.ending_plies_left = naive
            .ending_limit()
            .map(|limit| limit.saturating_sub(pos.ending_plies()));
        naive
    }

    /// The FMJD king ending on the board: 3 for a lone king against three
    /// pieces (the 16-move rule), 2 against one or two (the 5-move rule),
    /// with its limit in plies when the rules give it one.
    fn ending(&self) -> Option<(usize, u16)> {
        let cells: Vec<Cell> = self.board.iter().flatten().flatten().copied().collect();
        for lone in [Side::White, Side::Black] {
            let mine: Vec<&Cell> = cells.iter().filter(|c| c.side == lone).collect();
            let theirs: Vec<&Cell> = cells.iter().filter(|c| c.side != lone).collect();
            if mine.len() == 1 && mine[0].king && theirs.iter().any(|c| c.king) {
                let (class, limit) = match theirs.len() {
                    3 => (3, self.rules.king_vs_three_draw),
                    1 | 2 => (2, self.rules.king_vs_two_draw),
                    _ => (0, None),
                };
                return limit.map(|l| (class, l));
            }
        }
        None
    }

    fn ending_limit(&self) -> Option<u16> {
        self.ending().map(|(_, limit)| limit)
    }

    fn on(&self, (f, r): Sq) -> bool {
        f >= 0 && r >= 0 && f < self.rules.n && r < self.rules.n
    }

    pub fn at(&self, (f, r): Sq) -> Option<Cell> {
        self.board[f as usize][r as usize]
    }

    fn promo_rank(&self, side: Side) -> i32 {
        match side {
            Side::White => self.rules.n - 1,
            Side::Black => 0,
        }
    }

    pub fn count(&self, side: Side) -> usize {
        self.board
            .iter()
            .flatten()
            .filter(|c| matches!(c, Some(c) if c.side == side))
            .count()
    }

    fn one_king_each(&self) -> bool {
        let cells: Vec<Cell> = self.board.iter().flatten().flatten().copied().collect();
        cells.len() == 2 && cells.iter().all(|c| c.king) && cells[0].side != cells[1].side
    }

    /// Whether the game is over by material or a draw the position shows.
    pub fn ended_without_moves(&self) -> bool {
        self.count(Side::White) == 0
            || self.count(Side::Black) == 0
            || (self.rules.one_king_each_draw && self.one_king_each())
            || matches!(self.rules.king_move_draw, Some(n) if self.king_moves >= n)
            || self.ending_plies_left == Some(0)
    }

    fn man_dirs(&self, side: Side, capture: bool) -> Vec<Sq> {
        let fwd = if side == Side::White { 1 } else { -1 };
        if capture && self.rules.backward {
            vec![(-1, 1), (1, 1), (-1, -1), (1, -1)]
        } else {
            vec![(-1, fwd), (1, fwd)]
        }
    }

    const KING_DIRS: [Sq; 4] = [(-1, 1), (1, 1), (-1, -1), (1, -1)];

    /// Every capture sequence (all paths, before merging duplicates).
    pub fn capture_paths(&self) -> Vec<NaiveMove> {
        let mut out = Vec::new();
        let n = self.rules.n;
        for f in 0..n {
            for r in 0..n {
                if let Some(c) = self.at((f, r))
                    && c.side == self.turn
                {
                    let mut path = vec![(f, r)];
                    let mut captured = Vec::new();
                    self.dfs((f, r), c.king, (f, r), &mut path, &mut captured, &mut out);
                }
            }
        }
        out
    }

    /// Empty during the capture of the piece that started on `start`.
    fn free(&self, s: Sq, start: Sq) -> bool {
        self.on(s) && (s == start || self.at(s).is_none())
    }

    fn jumpable(&self, s: Sq, captured: &[Sq]) -> bool {
        self.on(s) && matches!(self.at(s), Some(c) if c.side != self.turn) && !captured.contains(&s)
    }

    /// The single jumps from `cur`: (captured square, landing squares).
    fn jumps(&self, start: Sq, king: bool, cur: Sq, captured: &[Sq]) -> Vec<(Sq, Vec<Sq>)> {
        let mut out = Vec::new();
        if king {
            for (df, dr) in Self::KING_DIRS {
                let mut s = (cur.0 + df, cur.1 + dr);
                while !self.rules.king_capture_short && self.free(s, start) {
                    s = (s.0 + df, s.1 + dr);
                }
                if !self.jumpable(s, captured) {
                    continue;
                }
                let mut lands = Vec::new();
                let mut l = (s.0 + df, s.1 + dr);
                while self.free(l, start) {
                    lands.push(l);
                    if !self.rules.land_anywhere {
                        break;
                    }
                    l = (l.0 + df, l.1 + dr);
                }
                if !lands.is_empty() {
                    out.push((s, lands));
                }
            }
        } else {
            for (df, dr) in self.man_dirs(self.turn, true) {
                let v = (cur.0 + df, cur.1 + dr);
                let l = (cur.0 + 2 * df, cur.1 + 2 * dr);
                if self.jumpable(v, captured) && self.free(l, start) {
                    out.push((v, vec![l]));
                }
            }
        }
        out
    }

    fn dfs(
        &self,
        start: Sq,
        king: bool,
        cur: Sq,
        path: &mut Vec<Sq>,
        captured: &mut Vec<Sq>,
        out: &mut Vec<NaiveMove>,
    ) {
        let jumps = self.jumps(start, king, cur, captured);
        if jumps.is_empty() {
            if !captured.is_empty() {
                out.push(NaiveMove {
                    path: path.clone(),
                    captured: captured.clone(),
                });
            }
            return;
        }
        for (v, lands) in jumps {
            captured.push(v);
            // A king landing anywhere must pick a square from which the
            // capture goes on, if there is one.
            let going_on: Vec<Sq> = lands
                .iter()
                .copied()
                .filter(|&l| !self.jumps(start, king, l, captured).is_empty())
                .collect();
            let choice = if king && !going_on.is_empty() {
                going_on
            } else {
                lands
            };
            for l in choice {
                path.push(l);
                let crowned_here = !king && l.1 == self.promo_rank(self.turn);
                if crowned_here && !self.rules.crown_at_end {
                    out.push(NaiveMove {
                        path: path.clone(),
                        captured: captured.clone(),
                    });
                } else {
                    self.dfs(start, king, l, path, captured, out);
                }
                path.pop();
            }
            captured.pop();
        }
    }

    pub fn quiet_moves(&self) -> Vec<NaiveMove> {
        let mut out = Vec::new();
        let n = self.rules.n;
        for f in 0..n {
            for r in 0..n {
                let Some(c) = self.at((f, r)) else { continue };
                if c.side != self.turn {
                    continue;
                }
                if c.king {
                    for (df, dr) in Self::KING_DIRS {
                        let mut s = (f + df, r + dr);
                        while self.on(s) && self.at(s).is_none() {
                            out.push(NaiveMove {
                                path: vec![(f, r), s],
                                captured: vec![],
                            });
                            s = (s.0 + df, s.1 + dr);
                        }
                    }
                } else {
                    for (df, dr) in self.man_dirs(self.turn, false) {
                        let s = (f + df, r + dr);
                        if self.on(s) && self.at(s).is_none() {
                            out.push(NaiveMove {
                                path: vec![(f, r), s],
                                captured: vec![],
                            });
                        }
                    }
                }
            }
        }
        out
    }

    /// The legal captures with duplicates merged (first path kept) and the
    /// majority rule applied.
    pub fn captures(&self) -> Vec<NaiveMove> {
        let n = self.rules.n;
        let mut seen = BTreeSet::new();
        let mut caps: Vec<NaiveMove> = self
            .capture_paths()
            .into_iter()
            .filter(|m| seen.insert(m.key(n)))
            .collect();
        if self.rules.majority {
            let max = caps.iter().map(|m| m.captured.len()).max().unwrap_or(0);
            caps.retain(|m| m.captured.len() == max);
        }
        caps
    }

    pub fn moves(&self) -> Vec<NaiveMove> {
        if self.ended_without_moves() {
            return Vec::new();
        }
        let mut caps = self.captures();
        if caps.is_empty() {
            return self.quiet_moves();
        }
        if self.rules.huffing {
            caps.extend(self.quiet_moves());
        }
        caps
    }

    pub fn play(&self, m: &NaiveMove) -> Naive {
        let mut next = self.clone();
        let from = m.path[0];
        let to = *m.path.last().expect("path");
        let mut cell = self.at(from).expect("a piece moves");
        next.board[from.0 as usize][from.1 as usize] = None;
        for &c in &m.captured {
            next.board[c.0 as usize][c.1 as usize] = None;
        }
        let was_king = cell.king;
        if !cell.king && to.1 == self.promo_rank(self.turn) {
            cell.king = true;
        }
        next.board[to.0 as usize][to.1 as usize] = Some(cell);
        next.king_moves = if was_king && m.captured.is_empty() {
            self.king_moves + 1
        } else {
            0
        };
        // Every allowance that started keeps running; a new ending adds its
        // own from now on.
        next.ending_plies_left = match (self.ending(), next.ending()) {
            (_, None) => None,
            (None, Some((_, limit))) => Some(limit),
            (Some((a, _)), Some((b, _))) if a == b => {
                self.ending_plies_left.map(|left| left.saturating_sub(1))
            }
            (Some(_), Some((_, limit))) => self
                .ending_plies_left
                .map(|left| left.saturating_sub(1).min(limit)),
        };
        next.turn = self.turn.other();
        next
    }

    pub fn perft(&self, depth: u32) -> u64 {
        boardgame::perft::perft_by(self, depth, &Naive::moves, &Naive::play)
    }

    /// Move keys (start, end, captured set).
    pub fn move_keys(&self) -> BTreeSet<String> {
        let n = self.rules.n;
        self.moves().iter().map(|m| m.key(n)).collect()
    }

    /// For every legal capture key, every path that realises it.
    pub fn paths_by_key(&self) -> BTreeMap<String, BTreeSet<String>> {
        let n = self.rules.n;
        let legal = self.move_keys();
        let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for m in self.capture_paths() {
            let k = m.key(n);
            if legal.contains(&k) {
                out.entry(k).or_default().insert(m.path_string(n));
            }
        }
        out
    }

    /// The pieces of the side to move that can start a legal capture.
    pub fn capturing_squares(&self) -> BTreeSet<String> {
        let n = self.rules.n;
        self.captures().iter().map(|m| name(n, m.path[0])).collect()
    }
}

/// The key of a library move, in the naive form.
pub fn lib_key(m: &dame::Move) -> String {
    let mut caps: Vec<String> = m
        .captured()
        .squares(m.size())
        .map(|s| s.to_string())
        .collect();
    caps.sort();
    format!("{}>{}:{}", m.from(), m.to(), caps.join(","))
}

pub fn lib_keys(pos: &Position) -> BTreeSet<String> {
    pos.legal_moves().iter().map(lib_key).collect()
}

/// A small deterministic random generator (xorshift*), so failures repeat.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }
}

/// A random legal setup for `rules`: up to `max_each` pieces a side, some
/// kings, no man on its promotion row, at least one piece a side.
pub fn random_position(
    rules: RuleSet,
    rng: &mut Rng,
    max_each: usize,
    king_percent: u64,
) -> Position {
    let size = rules.board;
    loop {
        let mut setup = dame::Setup::empty(size);
        let squares: Vec<dame::Square> = (1..=size.squares() as u8)
            .filter_map(|n| dame::Square::from_number(size, n))
            .collect();
        for color in dame::Color::ALL {
            let count = 1 + rng.below(max_each);
            for _ in 0..count {
                let sq = squares[rng.below(squares.len())];
                if setup.piece_at(sq).is_some() {
                    continue;
                }
                let on_promo = size.promotion_row(color).contains(sq);
                let king = on_promo || rng.chance(king_percent);
                setup.set(
                    sq,
                    Some(dame::Piece {
                        color,
                        kind: if king {
                            dame::PieceKind::King
                        } else {
                            dame::PieceKind::Man
                        },
                    }),
                );
            }
        }
        setup.turn = if rng.chance(50) {
            dame::Color::White
        } else {
            dame::Color::Black
        };
        if let Ok(p) = Position::from_setup(setup, rules) {
            return p;
        }
    }
}

/// One line of tests/perft.txt: rules, FEN and (depth, count, deep).
pub type PerftCase = boardgame::perft::TableLine<RuleSet, (u32, u64, bool)>;

/// The perft data file, parsed (the format is
/// [`boardgame::perft::read_table`]'s); the position `start` is the rules'
/// start position.
pub fn perft_cases() -> Vec<PerftCase> {
    let mut cases: Vec<PerftCase> = boardgame::perft::read_table(include_str!("../perft.txt"))
        .unwrap_or_else(|e| panic!("perft.txt {e}"));
    for case in cases.iter_mut().filter(|c| c.fen == "start") {
        case.fen = Position::new(case.rules).fen();
    }
    cases
}
