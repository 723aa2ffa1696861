//! A static evaluation of Mühle positions, for engines.
//!
//! The rules crate knows nothing of search; this module only measures a
//! position. Scores are in hundredths of a stone, positive when good for the
//! side to move. Each term is described on [`Terms`]; [`Weights`] holds their
//! weights (see `brett tune` and the engine documentation for how they were
//! chosen by self-play).

use crate::tables::MILL_PARTNERS;
use crate::{Bitboard, Color, Phase, Position};

/// Weights of the evaluation terms (hundredths of a stone per unit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Each stone on the board or in hand.
    pub stone: i32,
    /// Each closed mill (can be opened and closed again).
    pub closed_mill: i32,
    /// Each line with two own stones and the third point empty.
    pub open_line: i32,
    /// Each open line that an own stone can close on the next move (a threat).
    pub threat: i32,
    /// Two or more threats at once (the opponent can block only one).
    pub double_threat: i32,
    /// Each Zwickmühle: a stone that moves out of one mill into another.
    pub zwickmuehle: i32,
    /// Each possible slide (moving phase).
    pub mobility: i32,
    /// Each own stone that cannot move (moving phase).
    pub blocked_stone: i32,
    /// Each stone on a point with four neighbours (placing phase).
    pub junction: i32,
    /// Being the side to move.
    pub tempo: i32,
}

impl Default for Weights {
    fn default() -> Weights {
        Weights::TUNED
    }
}

impl Weights {
    /// The weights the engine plays with.
    pub const TUNED: Weights = Weights {
        stone: 100,
        closed_mill: 16,
        open_line: 18,
        threat: 31,
        double_threat: 120,
        zwickmuehle: 140,
        mobility: 6,
        blocked_stone: 10,
        junction: 8,
        tempo: 13,
    };
}

/// The raw counts behind the evaluation, for one side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Terms {
    /// Stones on the board plus in hand.
    pub stones: i32,
    /// Closed mills.
    pub closed_mills: i32,
    /// Lines with two own stones and an empty third point.
    pub open_lines: i32,
    /// Open lines the side could close with its next move (placing: any
    /// open line; moving: a stone outside the line can slide to the gap;
    /// flying: any open line).
    pub threats: i32,
    /// 1 when there are two or more threats on different points.
    pub double_threat: i32,
    /// Zwickmühlen (moving phase).
    pub zwickmuehlen: i32,
    /// Possible slides (moving phase only, else 0).
    pub mobility: i32,
    /// Stones without an empty neighbour (moving phase only, else 0).
    pub blocked: i32,
    /// Stones on the four points with four neighbours (placing phase).
    pub junctions: i32,
}

/// The midpoints of the middle ring (d6, f4, d2, b4): four neighbours each.
const JUNCTIONS: Bitboard = Bitboard(0x00AA00);

impl Terms {
    /// Measure side `c` of `pos`.
    pub fn measure(pos: &Position, c: Color) -> Terms {
        let own = pos.stones(c);
        let empty = pos.empty();
        let phase = pos.phase(c);
        let mut t = Terms {
            stones: pos.material(c) as i32,
            closed_mills: own.mill_count() as i32,
            ..Terms::default()
        };
        // Open lines: each gap point with the one or two lines it completes.
        let mut threat_points = Bitboard::EMPTY;
        for gap in own.mill_completions() & empty {
            for partners in MILL_PARTNERS[gap.index()] {
                let partners = Bitboard(partners);
                if !own.contains_all(partners) {
                    continue;
                }
                t.open_lines += 1;
                let can_close = match phase {
                    Phase::Placing | Phase::Flying => true,
                    Phase::Moving => (gap.neighbours() & own & !partners).any(),
                };
                if can_close {
                    t.threats += 1;
                    threat_points |= gap.bb();
                }
            }
        }
        t.double_threat = i32::from(threat_points.count() >= 2);
        match phase {
            Phase::Moving => {
                let movable = empty.neighbours() & own;
                t.blocked = (own - movable).count() as i32;
                t.mobility = own.slides_to(empty) as i32;
                for s in own.in_mills() & movable {
                    let rest = own ^ s.bb();
                    if (s.neighbours() & empty & rest.mill_completions()).any() {
                        t.zwickmuehlen += 1;
                    }
                }
            }
            Phase::Placing => {
                t.junctions = (own & JUNCTIONS).count() as i32;
            }
            Phase::Flying => {}
        }
        t
    }

    /// The weighted sum.
    pub fn score(&self, w: &Weights) -> i32 {
        self.stones * w.stone
            + self.closed_mills * w.closed_mill
            + self.open_lines * w.open_line
            + self.threats * w.threat
            + self.double_threat * w.double_threat
            + self.zwickmuehlen * w.zwickmuehle
            + self.mobility * w.mobility
            - self.blocked * w.blocked_stone
            + self.junctions * w.junction
    }
}

/// Evaluate `pos` for the side to move with the given weights.
pub fn evaluate_with(pos: &Position, w: &Weights) -> i32 {
    let us = pos.turn();
    let mut score =
        Terms::measure(pos, us).score(w) - Terms::measure(pos, us.other()).score(w) + w.tempo;
    // A side about to be blocked in the moving phase is in great danger;
    // one with only three stones and no flying is nearly lost.
    for (c, sign) in [(us, 1), (us.other(), -1)] {
        if pos.phase(c) == Phase::Flying {
            // Flying stones are worth more than their count says: each is
            // mobile anywhere. The real danger is the opponent's threats.
            score += sign * 60;
        }
    }
    score
}

/// Evaluate `pos` for the side to move with the tuned weights.
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, &Weights::TUNED)
}
