//! Perft: the number of move sequences of a given length from a position,
//! the standard check of a move generator. A finished game has no moves,
//! so lines that end the game early add nothing.
//!
//! [`perft`] and [`perft_divide`] count over any position that is
//! [`Perft`]; a game keeps its own fast paths (counting the moves of the
//! last ply without building them, shortcuts over the last plies) in the
//! trait's methods. [`read_table`] reads the perft tables the games' tests
//! check against.

use std::fmt;
use std::ops::Deref;
use std::str::FromStr;

/// A position perft counts from: its moves, the position after one, and
/// the game's fast ways of counting.
pub trait Perft: Clone {
    /// A move.
    type Move: Clone;
    /// A list of moves, the game's list type.
    type Moves: Default + Deref<Target = [Self::Move]>;

    /// Write every legal move (none when the game is over) into `list`,
    /// which is empty.
    fn perft_moves(&self, list: &mut Self::Moves);

    /// Play the legal move `m` on this position (a copy of the parent).
    /// What counting does not need (a hash, say) may be left out.
    fn perft_play(&mut self, m: &Self::Move);

    /// The number of legal moves, perft(1). By default the moves are
    /// listed and counted; a game can count them without building them.
    fn count_moves(&self) -> u64 {
        moves(self).len() as u64
    }

    /// perft(`depth`) by a shortcut of the game for that depth (`depth` is
    /// 2 or more), or `None` to count move by move. By default there is
    /// none.
    fn perft_shortcut(&self, depth: u32) -> Option<u64> {
        let _ = depth;
        None
    }
}

/// [`Perft`] for a game's position type `$pos` (moves `$mv`, in lists
/// `$list`) by its inherent methods: `legal_moves_into` for
/// [`Perft::perft_moves`], `count_legal_moves` for [`Perft::count_moves`],
/// and `perft_play` and `perft_shortcut`, with the trait's signatures.
/// Also the game's own `perft` and `perft_divide` over `$pos`: compiled in
/// the game's crate, where its move generator can be inlined into them.
#[macro_export]
macro_rules! perft_by_inherent_methods {
    ($pos:ty, $mv:ty, $list:ty) => {
        impl $crate::perft::Perft for $pos {
            type Move = $mv;
            type Moves = $list;

            #[inline]
            fn perft_moves(&self, list: &mut $list) {
                <$pos>::legal_moves_into(self, list)
            }

            #[inline(always)]
            fn perft_play(&mut self, m: &$mv) {
                <$pos>::perft_play(self, m)
            }

            #[inline]
            fn count_moves(&self) -> u64 {
                <$pos>::count_legal_moves(self)
            }

            #[inline]
            fn perft_shortcut(&self, depth: u32) -> Option<u64> {
                <$pos>::perft_shortcut(self, depth)
            }
        }

        /// Number of legal move sequences of length `depth` from `pos`.
        pub fn perft(pos: &$pos, depth: u32) -> u64 {
            $crate::perft::perft(pos, depth)
        }

        /// Perft split by the first move.
        pub fn perft_divide(pos: &$pos, depth: u32) -> Vec<($mv, u64)> {
            $crate::perft::perft_divide(pos, depth)
        }
    };
}

/// The number of legal move sequences of length `depth` from `pos`.
pub fn perft<P: Perft>(pos: &P, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_moves(),
        _ => pos.perft_shortcut(depth).unwrap_or_else(|| {
            // The list lives here: moving it out of a function would copy it.
            let mut list = P::Moves::default();
            pos.perft_moves(&mut list);
            list.iter()
                .map(|m| {
                    // Played in place and lent: a child returned by value
                    // would be copied once more.
                    let mut child = pos.clone();
                    child.perft_play(m);
                    perft(&child, depth - 1)
                })
                .sum()
        }),
    }
}

/// [`perft`] split by the first move: every legal move with the number of
/// sequences it starts (none at depth 0).
pub fn perft_divide<P: Perft>(pos: &P, depth: u32) -> Vec<(P::Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    moves(pos)
        .iter()
        .map(|m| {
            let mut child = pos.clone();
            child.perft_play(m);
            (m.clone(), perft(&child, depth - 1))
        })
        .collect()
}

/// The legal moves of `pos`.
fn moves<P: Perft>(pos: &P) -> P::Moves {
    let mut list = P::Moves::default();
    pos.perft_moves(&mut list);
    list
}

/// [`perft`] of a plain move generator given by two functions, `moves`
/// (every legal move of a position) and `play` (the position after one),
/// with no fast paths: for a reference generator that checks a game's own.
pub fn perft_by<P, M>(
    pos: &P,
    depth: u32,
    moves: &impl Fn(&P) -> Vec<M>,
    play: &impl Fn(&P, &M) -> P,
) -> u64 {
    if depth == 0 {
        return 1;
    }
    let list = moves(pos);
    match depth {
        1 => list.len() as u64,
        _ => list
            .iter()
            .map(|m| perft_by(&play(pos, m), depth - 1, moves, play))
            .sum(),
    }
}

/// One line of a perft table: a rule set, a position and its counts, each
/// a [`TableCount`] or a tuple `(depth, count)` or `(depth, count, deep)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableLine<R, C = TableCount> {
    /// The line number in the table, from 1.
    pub line: usize,
    /// The rule set.
    pub rules: R,
    /// The position as written: the game's position string (its FEN), or
    /// a word the game gives a meaning, such as `start`.
    pub fen: String,
    /// The counts, in the order written.
    pub counts: Vec<C>,
}

/// One count of a perft table line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableCount {
    /// The depth.
    pub depth: u32,
    /// perft(depth).
    pub count: u64,
    /// Marked `deep`: too slow for an ordinary test run.
    pub deep: bool,
}

/// `(depth, count)`, whether deep or not.
impl From<TableCount> for (u32, u64) {
    fn from(c: TableCount) -> (u32, u64) {
        (c.depth, c.count)
    }
}

/// `(depth, count, deep)`.
impl From<TableCount> for (u32, u64, bool) {
    fn from(c: TableCount) -> (u32, u64, bool) {
        (c.depth, c.count, c.deep)
    }
}

/// A line of a perft table that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {why}")]
pub struct TableError {
    /// The line number, from 1.
    pub line: usize,
    /// What is wrong with it.
    pub why: String,
}

/// Read a perft table. One case a line:
///
/// ```text
/// <rules> <position> ; D<depth> <count> ; deep D<depth> <count> ...
/// ```
///
/// `<rules>` is a rule set as `R` parses it (no spaces), `<position>` the
/// rest up to the first `;`; every count is `D` and the depth, then the
/// number, `_` allowed between its digits; `deep` before a count marks it
/// as too slow for an ordinary test run. `#` starts a comment, blank lines
/// are skipped; a case needs at least one count.
///
/// ```
/// use boardgame::perft::read_table;
/// let text = "# start\nfast x y ; D1 7 ; deep D9 3_963_648\n";
/// let table = read_table::<String, (u32, u64, bool)>(text).unwrap();
/// assert_eq!(table[0].line, 2);
/// assert_eq!((table[0].rules.as_str(), table[0].fen.as_str()), ("fast", "x y"));
/// assert_eq!(table[0].counts, [(1, 7, false), (9, 3_963_648, true)]);
/// ```
pub fn read_table<R, C>(text: &str) -> Result<Vec<TableLine<R, C>>, TableError>
where
    R: FromStr,
    R::Err: fmt::Display,
    C: From<TableCount>,
{
    let mut table = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let bad = |why: String| TableError { line, why };
        let text = raw.split('#').next().unwrap_or("").trim();
        if text.is_empty() {
            continue;
        }
        let mut fields = text.split(';').map(str::trim);
        let head = fields.next().unwrap_or("");
        let (rules, position) = head
            .split_once(char::is_whitespace)
            .ok_or_else(|| bad(format!("'{head}' is not '<rules> <position>'")))?;
        let rules = rules.parse().map_err(|e| bad(format!("{e}")))?;
        let counts = fields
            .map(|field| {
                read_count(field)
                    .map(C::from)
                    .ok_or_else(|| bad(format!("'{field}' is not '[deep] D<depth> <count>'")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        if counts.is_empty() {
            return Err(bad("no counts given".to_string()));
        }
        table.push(TableLine {
            line,
            rules,
            fen: position.trim().to_string(),
            counts,
        });
    }
    Ok(table)
}

/// `[deep] D<depth> <count>`.
fn read_count(field: &str) -> Option<TableCount> {
    let mut words = field.split_whitespace().peekable();
    let deep = words.next_if_eq(&"deep").is_some();
    let depth = words.next()?.strip_prefix('D')?.parse().ok()?;
    let count = words.next()?.replace('_', "").parse().ok()?;
    words
        .next()
        .is_none()
        .then_some(TableCount { depth, count, deep })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game of counting down: from `n` the moves are 1 and 2 (not more
    /// than `n`), so perft follows the Fibonacci numbers.
    #[derive(Clone, Copy, Debug, PartialEq)]
    struct Countdown(u32);

    impl Perft for Countdown {
        type Move = u32;
        type Moves = Vec<u32>;
        fn perft_moves(&self, list: &mut Vec<u32>) {
            list.extend((1..=2).filter(|&m| m <= self.0));
        }
        fn perft_play(&mut self, m: &u32) {
            self.0 -= m;
        }
    }

    /// The same game with a shortcut at depth 2 that is wrong on purpose:
    /// perft must take it.
    #[derive(Clone, Copy, Debug, PartialEq)]
    struct Shortcut(Countdown);

    impl Perft for Shortcut {
        type Move = u32;
        type Moves = Vec<u32>;
        fn perft_moves(&self, list: &mut Vec<u32>) {
            self.0.perft_moves(list);
        }
        fn perft_play(&mut self, m: &u32) {
            self.0.perft_play(m);
        }
        fn count_moves(&self) -> u64 {
            100
        }
        fn perft_shortcut(&self, depth: u32) -> Option<u64> {
            (depth == 2).then_some(1000)
        }
    }

    #[test]
    fn perft_counts_move_sequences() {
        let counts: Vec<u64> = (0..6).map(|d| perft(&Countdown(10), d)).collect();
        assert_eq!(counts, [1, 2, 4, 8, 16, 32]);
        // Lines that end early (at 0) add nothing: 1+1+1, 1+1+2, 1+2+1
        // and 2+1+1 from 4.
        assert_eq!(perft(&Countdown(4), 3), 4);
        assert_eq!(perft_divide(&Countdown(4), 3), [(1, 3), (2, 1)]);
        assert_eq!(perft_divide(&Countdown(4), 0), []);
    }

    #[test]
    fn a_plain_generator_counts_the_same() {
        let moves = |p: &Countdown| super::moves(p);
        let play = |p: &Countdown, m: &u32| Countdown(p.0 - m);
        for (n, depth) in [(10, 5), (4, 3), (3, 0), (0, 2)] {
            let pos = Countdown(n);
            assert_eq!(perft_by(&pos, depth, &moves, &play), perft(&pos, depth));
        }
        assert_eq!(perft_by(&Countdown(4), 3, &moves, &play), 4);
    }

    #[test]
    fn the_games_fast_paths_are_taken() {
        let pos = Shortcut(Countdown(10));
        assert_eq!(perft(&pos, 1), 100);
        assert_eq!(perft(&pos, 2), 1000);
        assert_eq!(perft(&pos, 3), 2000);
        assert_eq!(perft_divide(&pos, 2), [(1, 100), (2, 100)]);
    }

    #[test]
    fn tables_are_read_with_their_line_numbers() {
        let text = "# comment\n\nstandard  a b c ; D1 24 ; D2 5_52 # note\nx y;deep D3 1\n";
        let table = read_table::<String, TableCount>(text).unwrap();
        assert_eq!(
            table,
            [
                TableLine {
                    line: 3,
                    rules: "standard".to_string(),
                    fen: "a b c".to_string(),
                    counts: vec![
                        TableCount {
                            depth: 1,
                            count: 24,
                            deep: false
                        },
                        TableCount {
                            depth: 2,
                            count: 552,
                            deep: false
                        },
                    ],
                },
                TableLine {
                    line: 4,
                    rules: "x".to_string(),
                    fen: "y".to_string(),
                    counts: vec![TableCount {
                        depth: 3,
                        count: 1,
                        deep: true
                    }],
                },
            ]
        );
    }

    #[test]
    fn counts_come_as_tuples_too() {
        let table = read_table::<String, (u32, u64)>("r p ; D1 2 ; deep D2 4").unwrap();
        assert_eq!(table[0].counts, [(1, 2), (2, 4)]);
    }

    #[test]
    fn bad_lines_are_errors() {
        let err = |text: &str| read_table::<u8, (u32, u64)>(text).unwrap_err();
        assert_eq!(err("\n1 p ; D1 x").line, 2);
        assert_eq!(
            err("1 p ; E1 3").why,
            "'E1 3' is not '[deep] D<depth> <count>'"
        );
        assert_eq!(err("1 p ; D1 3 4").line, 1);
        assert_eq!(err("1 p").why, "no counts given");
        assert_eq!(err("1p ; D1 3").why, "'1p' is not '<rules> <position>'");
        assert_eq!(
            err("300 p ; D1 3").why,
            "number too large to fit in target type"
        );
    }
}
