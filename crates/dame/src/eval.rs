//! A static evaluation of Dame positions, for engines.
//!
//! The rules crate knows nothing of search; this module only measures a
//! position. Scores are in hundredths of a man (100 ≈ one man), positive
//! when good for the side to move. Each raw count is described on
//! [`Terms`]; [`Weights`] holds the weight of each.

use crate::movegen::{self, G8, G10, Geo, Sides};
use crate::{Bitboard, BoardSize, Color, Position};

/// Weights of the evaluation terms (hundredths of a man per unit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Each man. 100 by definition of the scale.
    pub man: i32,
    /// Each king. A flying king sweeps whole diagonals and is worth about
    /// three men.
    pub king: i32,
    /// Each row a man has advanced from its own back row (tempo): advanced
    /// men are closer to promotion and cramp the opponent.
    pub tempo: i32,
    /// Each piece on a centre square (the middle rows' middle files), where
    /// it controls both wings.
    pub centre: i32,
    /// Each man still on its own back row while the opponent has men: it
    /// stops the opponent's men from being crowned.
    pub back_rank: i32,
    /// Each move without capture the side could make (counted as if it were
    /// to move).
    pub mobility: i32,
    /// Each runaway man: a man whose whole forward cone up to the
    /// promotion row is empty, so nothing can stop it from being crowned.
    pub runaway: i32,
    /// Extra for a runaway man per row it no longer needs to go (a runaway
    /// close to the back row is crowned sooner).
    pub runaway_closeness: i32,
}

impl Default for Weights {
    fn default() -> Weights {
        Weights::TUNED
    }
}

impl Weights {
    /// The hand-set weights, from draughts practice; the start of the
    /// self-play tuning (`brett tune --game dame`).
    pub const DEFAULT: Weights = Weights {
        man: 100,
        king: 300,
        tempo: 3,
        centre: 6,
        back_rank: 8,
        mobility: 2,
        runaway: 60,
        runaway_closeness: 10,
    };
}

impl Weights {
    /// The weights in use, chosen by self-play tuning from [`Weights::DEFAULT`]
    /// (docs/ENGINE.md, "Dame evaluation").
    pub const TUNED: Weights = Weights {
        tempo: 1,
        centre: 8,
        ..Weights::DEFAULT
    };
}

/// The raw counts behind the evaluation, for one side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Terms {
    /// Men.
    pub men: i32,
    /// Kings.
    pub kings: i32,
    /// Sum over the men of the rows each has advanced from its back row.
    pub tempo: i32,
    /// Pieces on centre squares.
    pub centre: i32,
    /// Men on their own back row while the opponent has men.
    pub back_rank: i32,
    /// Moves without capture (as if this side were to move).
    pub mobility: i32,
    /// Runaway men (empty forward cone).
    pub runaways: i32,
    /// Sum over the runaway men of (board side − 1 − rows still to go).
    pub runaway_closeness: i32,
}

/// The centre squares: files c–f (8×8) or c–h (10×10) on the two middle
/// rows.
pub const fn centre(size: BoardSize) -> Bitboard {
    let side = size.side();
    let mut bb = 0u64;
    let mut rank = side / 2 - 1;
    while rank <= side / 2 {
        let mut file = 2;
        while file < side - 2 {
            if let Some(sq) = crate::Square::from_coords(size, file, rank) {
                bb |= sq.bb().0;
            }
            file += 1;
        }
        rank += 1;
    }
    Bitboard(bb)
}

const CENTRE8: u64 = centre(BoardSize::Eight).0;
const CENTRE10: u64 = centre(BoardSize::Ten).0;

fn measure_on<G: Geo>(pos: &Position, c: Color) -> Terms {
    let size = G::SIZE;
    let own = pos.pieces(c).0;
    let opp = pos.pieces(c.other()).0;
    let kings = pos.kings(c).0;
    let men = own & !kings;
    let empty = G::MASK & !(own | opp);
    let side = i32::from(size.side());
    let mut t = Terms {
        men: men.count_ones() as i32,
        kings: kings.count_ones() as i32,
        ..Terms::default()
    };
    let centre = match size {
        BoardSize::Eight => CENTRE8,
        BoardSize::Ten => CENTRE10,
    };
    t.centre = (own & centre).count_ones() as i32;
    if pos.men(c.other()).any() {
        t.back_rank = (men & size.back_row(c).0).count_ones() as i32;
    }
    let sides = Sides {
        us: c,
        own,
        opp,
        kings: pos.kings(c).0 | pos.kings(c.other()).0,
    };
    t.mobility = movegen::count_quiet::<G>(&sides) as i32;
    let [a, b] = movegen::forward(c);
    let mut rest = men;
    while rest != 0 {
        let bit = rest.trailing_zeros() as u8;
        rest &= rest - 1;
        let sq = crate::Square::from_bit_unchecked(size, bit);
        let advanced = match c {
            Color::White => i32::from(sq.rank()),
            Color::Black => side - 1 - i32::from(sq.rank()),
        };
        t.tempo += advanced;
        // The forward cone: every square the man could reach on its way.
        let to_go = side - 1 - advanced;
        let mut x = 1u64 << bit;
        let mut cone = 0u64;
        for _ in 0..to_go {
            x = (movegen::shift::<G>(x, a) | movegen::shift::<G>(x, b)) & G::MASK;
            cone |= x;
        }
        if cone & !empty == 0 {
            t.runaways += 1;
            t.runaway_closeness += side - 1 - to_go;
        }
    }
    t
}

impl Terms {
    /// Measure side `c` of `pos`.
    pub fn measure(pos: &Position, c: Color) -> Terms {
        match pos.size() {
            BoardSize::Eight => measure_on::<G8>(pos, c),
            BoardSize::Ten => measure_on::<G10>(pos, c),
        }
    }

    /// The weighted sum.
    pub fn score(&self, w: &Weights) -> i32 {
        self.men * w.man
            + self.kings * w.king
            + self.tempo * w.tempo
            + self.centre * w.centre
            + self.back_rank * w.back_rank
            + self.mobility * w.mobility
            + self.runaways * w.runaway
            + self.runaway_closeness * w.runaway_closeness
    }
}

/// Evaluate `pos` for the side to move with the given weights.
pub fn evaluate_with(pos: &Position, w: &Weights) -> i32 {
    let us = pos.turn();
    Terms::measure(pos, us).score(w) - Terms::measure(pos, us.other()).score(w)
}

/// Evaluate `pos` for the side to move with the weights in use
/// ([`Weights::TUNED`]).
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, &Weights::TUNED)
}
