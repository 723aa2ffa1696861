//! A static evaluation of Mühle positions, for engines.
//!
//! The rules crate knows nothing of search; this module only measures a
//! position. Scores are in hundredths of a stone, positive when good for the
//! side to move. Each term is described on [`Terms`]; [`Weights`] holds their
//! weights (see `brett tune` and docs/ENGINE.md for how they were fitted to
//! the perfect-play databases' values).
//!
//! The evaluation is linear: [`features`] gives, for each weight, the
//! side to move's count minus the opponent's, and the score is the sum of
//! the weighted features. That makes fitting the weights to labelled
//! positions a plain logistic regression (`brett tune --labels`). A network
//! ([`crate::network`]), when one is installed, adds its correction.

use crate::pattern::{PATTERNS_IN_USE, PatternWeights};
use crate::{Bitboard, Color, Phase, Position};

/// The number of evaluation weights (and features).
pub const FEATURES: usize = 18;

/// The weights' names, in the order of [`Weights::to_array`] and
/// [`features`].
pub const NAMES: [&str; FEATURES] = [
    "stone",
    "closed_mill",
    "open_line",
    "threat",
    "double_threat",
    "zwickmuehle",
    "mobility",
    "blocked_stone",
    "junction",
    "tempo",
    "liberty",
    "placing_mobility",
    "placing_blocked",
    "cramped",
    "flying",
    "free_mill",
    "running_mill",
    "low_mobility",
];

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
    /// Each empty point next to an own stone (placing and moving phase):
    /// room to move once placing ends.
    pub liberty: i32,
    /// Each slide the stones on the board could make (placing phase): the
    /// mobility the side will start the moving phase with.
    pub placing_mobility: i32,
    /// Each own stone with no empty neighbour (placing phase).
    pub placing_blocked: i32,
    /// Danger of a blockade: how far the empty points next to the side's
    /// stones, less the opponent's stones still in hand (that could fill
    /// them), fall short of three (0 to 3; not when flying).
    pub cramped: i32,
    /// Having only three stones and flying with them (any point is a move).
    pub flying: i32,
    /// Each stone of a closed mill that can step out and back in while the
    /// opponent cannot move onto its point: a mill that closes again and
    /// again.
    pub free_mill: i32,
    /// Each Zwickmühle whose second mill the opponent cannot block: a stone
    /// wins a stone with every move.
    pub running_mill: i32,
    /// Blockade danger in the moving phase: how far the side's slides fall
    /// short of three.
    pub low_mobility: i32,
    /// The pattern weights added to the linear terms, if any
    /// ([`crate::pattern`]).
    pub patterns: Option<&'static PatternWeights>,
}

impl Default for Weights {
    fn default() -> Weights {
        Weights::TUNED
    }
}

impl Weights {
    /// The weights the engine plays with: fitted to the databases' values
    /// of positions at and just before the end of placing (`brett tune
    /// --labels`, recipe in docs/ENGINE.md).
    pub const TUNED: Weights = Weights {
        stone: 100,
        closed_mill: 91,
        open_line: 26,
        threat: 150,
        double_threat: -63,
        zwickmuehle: 66,
        mobility: 10,
        blocked_stone: 45,
        junction: -5,
        tempo: 78,
        liberty: 3,
        placing_mobility: 22,
        placing_blocked: 49,
        cramped: 54,
        flying: 166,
        free_mill: 36,
        running_mill: 27,
        low_mobility: 33,
        patterns: Some(&PATTERNS_IN_USE),
    };

    /// The weights of the first brett (before the blockade terms), for
    /// comparisons.
    pub const CLASSIC: Weights = Weights {
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
        liberty: 0,
        placing_mobility: 0,
        placing_blocked: 0,
        cramped: 0,
        flying: 60,
        free_mill: 0,
        running_mill: 0,
        low_mobility: 0,
        patterns: None,
    };

    /// The weights in the order of [`NAMES`].
    pub const fn to_array(&self) -> [i32; FEATURES] {
        [
            self.stone,
            self.closed_mill,
            self.open_line,
            self.threat,
            self.double_threat,
            self.zwickmuehle,
            self.mobility,
            self.blocked_stone,
            self.junction,
            self.tempo,
            self.liberty,
            self.placing_mobility,
            self.placing_blocked,
            self.cramped,
            self.flying,
            self.free_mill,
            self.running_mill,
            self.low_mobility,
        ]
    }

    /// Weights from an array in the order of [`NAMES`], without patterns.
    pub const fn from_array(a: [i32; FEATURES]) -> Weights {
        Weights {
            stone: a[0],
            closed_mill: a[1],
            open_line: a[2],
            threat: a[3],
            double_threat: a[4],
            zwickmuehle: a[5],
            mobility: a[6],
            blocked_stone: a[7],
            junction: a[8],
            tempo: a[9],
            liberty: a[10],
            placing_mobility: a[11],
            placing_blocked: a[12],
            cramped: a[13],
            flying: a[14],
            free_mill: a[15],
            running_mill: a[16],
            low_mobility: a[17],
            patterns: None,
        }
    }
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
    /// Empty points next to the side's stones (not when flying).
    pub liberties: i32,
    /// Possible slides of the stones on the board (placing phase only).
    pub placing_mobility: i32,
    /// Stones without an empty neighbour (placing phase only).
    pub placing_blocked: i32,
    /// `max(0, 3 − (liberties − opponent's stones in hand))` (not when
    /// flying).
    pub cramped: i32,
    /// 1 when the side flies.
    pub flying: i32,
    /// Stones of closed mills with an empty neighbour whose point the
    /// opponent cannot reach next move (the side has at most one stone in
    /// hand and does not fly).
    pub free_mills: i32,
    /// Zwickmühlen whose gap the opponent cannot reach next move (same
    /// conditions).
    pub running_mills: i32,
    /// `max(0, 3 − mobility)` in the moving phase.
    pub low_mobility: i32,
}

impl Terms {
    /// Measure side `c` of `pos`.
    pub fn measure(pos: &Position, c: Color) -> Terms {
        let board = pos.board();
        let own = pos.stones(c);
        let empty = pos.empty();
        let phase = pos.phase(c);
        let mut t = Terms {
            stones: pos.material(c) as i32,
            closed_mills: board.mill_count(own) as i32,
            ..Terms::default()
        };
        // Open lines: each gap point with the one or two lines it completes.
        let mut threat_points = Bitboard::EMPTY;
        for gap in board.mill_completions(own) & empty {
            for partners in board.mill_partners(gap) {
                if !own.contains_all(partners) {
                    continue;
                }
                t.open_lines += 1;
                let can_close = match phase {
                    Phase::Placing | Phase::Flying => true,
                    Phase::Moving => (board.neighbours_of(gap) & own & !partners).any(),
                };
                if can_close {
                    t.threats += 1;
                    threat_points |= gap.bb();
                }
            }
        }
        t.double_threat = i32::from(threat_points.count() >= 2);
        if phase != Phase::Flying {
            t.liberties = (board.neighbours(own) & empty).count() as i32;
            let margin = t.liberties - i32::from(pos.in_hand(c.other()));
            t.cramped = (3 - margin).clamp(0, 3);
        }
        let movable = board.neighbours(empty) & own;
        match phase {
            Phase::Moving => {
                t.blocked = (own - movable).count() as i32;
                t.mobility = board.slides_to(own, empty) as i32;
                for s in board.in_mills(own) & movable {
                    let rest = own ^ s.bb();
                    if (board.neighbours_of(s) & empty & board.mill_completions(rest)).any() {
                        t.zwickmuehlen += 1;
                    }
                }
            }
            Phase::Placing => {
                t.junctions = (own & board.junctions()).count() as i32;
                t.placing_blocked = (own - movable).count() as i32;
                t.placing_mobility = board.slides_to(own, empty) as i32;
            }
            Phase::Flying => t.flying = 1,
        }
        // Mills that run: the side is about to move its stones, and the
        // opponent reaches only the neighbours of its stones (none in hand,
        // not flying).
        let them = c.other();
        if pos.in_hand(c) <= 1
            && phase != Phase::Flying
            && pos.in_hand(them) == 0
            && pos.phase(them) != Phase::Flying
        {
            let reach = board.neighbours(pos.stones(them));
            for s in board.in_mills(own) {
                let gaps = board.neighbours_of(s) & empty;
                if !gaps.any() {
                    continue;
                }
                if !reach.contains(s) {
                    t.free_mills += 1;
                }
                let rest = own ^ s.bb();
                if (gaps & board.mill_completions(rest) & !reach).any() {
                    t.running_mills += 1;
                }
            }
        }
        if phase == Phase::Moving {
            t.low_mobility = (3 - t.mobility).max(0);
        }
        t
    }

    /// The counts in the order of [`NAMES`] (tempo 0).
    pub fn to_array(&self) -> [i32; FEATURES] {
        [
            self.stones,
            self.closed_mills,
            self.open_lines,
            self.threats,
            self.double_threat,
            self.zwickmuehlen,
            self.mobility,
            -self.blocked,
            self.junctions,
            0,
            self.liberties,
            self.placing_mobility,
            -self.placing_blocked,
            -self.cramped,
            self.flying,
            self.free_mills,
            self.running_mills,
            -self.low_mobility,
        ]
    }

    /// The weighted sum.
    pub fn score(&self, w: &Weights) -> i32 {
        self.to_array()
            .iter()
            .zip(w.to_array())
            .map(|(f, w)| f * w)
            .sum()
    }
}

/// The features of `pos` for the side to move: each term of [`Terms`] of
/// the side to move minus the opponent's (blocked stones and cramping count
/// negatively), and 1 for the tempo. The evaluation is their dot product
/// with the weights.
pub fn features(pos: &Position) -> [i32; FEATURES] {
    let us = pos.turn();
    let a = Terms::measure(pos, us).to_array();
    let b = Terms::measure(pos, us.other()).to_array();
    let mut f = [0; FEATURES];
    for i in 0..FEATURES {
        f[i] = a[i] - b[i];
    }
    f[9] = 1;
    f
}

/// Evaluate `pos` for the side to move with the given weights: the linear
/// terms, the patterns if the weights have them, and the correction of the
/// network in use ([`crate::network::in_use`]).
pub fn evaluate_with(pos: &Position, w: &Weights) -> i32 {
    let score = evaluate_terms(pos, w);
    match crate::network::in_use() {
        Some(net) => score + net.score(pos),
        None => score,
    }
}

/// The linear terms and the patterns of [`evaluate_with`], without the
/// network: what a network is fitted to correct.
pub fn evaluate_terms(pos: &Position, w: &Weights) -> i32 {
    let linear: i32 = features(pos)
        .iter()
        .zip(w.to_array())
        .map(|(f, w)| f * w)
        .sum();
    match w.patterns {
        Some(p) => linear + p.score(pos),
        None => linear,
    }
}

/// Evaluate `pos` for the side to move with the tuned weights.
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, &Weights::TUNED)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The evaluation is the dot product of features and weights plus the
    /// patterns' values, and the network's correction.
    #[test]
    fn evaluation_is_linear_in_the_features() {
        let pos: Position = "W.B/.WB/W.B/BW..WB/.W./B.W/... w 0 0 12 20"
            .parse()
            .unwrap();
        let f = features(&pos);
        let w = Weights::TUNED.to_array();
        let dot: i32 = f.iter().zip(w).map(|(a, b)| a * b).sum();
        let patterns = PATTERNS_IN_USE.score(&pos);
        assert_eq!(evaluate_terms(&pos, &Weights::TUNED), dot + patterns);
        let net = crate::network::built_in().score(&pos);
        assert_ne!(net, 0);
        assert_eq!(evaluate(&pos), dot + patterns + net);
        assert_eq!(f[9], 1, "tempo");
        assert_eq!(
            Weights {
                patterns: Weights::TUNED.patterns,
                ..Weights::from_array(w)
            },
            Weights::TUNED
        );
    }

    /// A side whose few free neighbours the opponent can fill with the
    /// stones still in hand is cramped.
    #[test]
    fn cramped_counts_free_neighbours_against_stones_in_hand() {
        // White a7 alone: free neighbours d7 and a4; Black has 8 in hand.
        let pos: Position = "W../.../.../....../.../.../... b 8 9 0 1".parse().unwrap();
        let white = Terms::measure(&pos, Color::White);
        assert_eq!(white.liberties, 2);
        assert_eq!(white.cramped, 3);
        assert_eq!(white.placing_mobility, 2);
        assert_eq!(white.placing_blocked, 0);
    }

    /// A mill whose stones can step out and back while the opponent
    /// cannot follow runs freely; a Zwickmühle whose gap the opponent cannot
    /// reach wins a stone with every move (the running mill of the game
    /// lost at ply 36 in tests/lost_games.rec).
    #[test]
    fn running_mills_are_the_ones_the_opponent_cannot_stop() {
        // White: the mill a7 d7 g7, and b4 c4: a7-a4 closes a4 b4 c4.
        let pos: Position = "WWW/.../.../.WW.../..B/..B/.BB w 0 0 0 30".parse().unwrap();
        let white = Terms::measure(&pos, Color::White);
        assert_eq!(white.zwickmuehlen, 1);
        assert_eq!(white.running_mills, 1);
        assert_eq!(white.free_mills, 3, "a7, d7 and g7 can step out and back");
        // A Black stone on a1 reaches a4: the Zwickmühle can be blocked.
        let pos: Position = "WWW/.../.../.WW.../..B/..B/BBB w 0 0 0 30".parse().unwrap();
        let white = Terms::measure(&pos, Color::White);
        assert_eq!(white.zwickmuehlen, 1);
        assert_eq!(white.running_mills, 0);
        assert_eq!(white.free_mills, 3);
        // A Black stone on d6 can step into d7 once it is left.
        let pos: Position = "WWW/.B./.../.WW.../..B/..B/BBB w 0 0 0 30".parse().unwrap();
        assert_eq!(Terms::measure(&pos, Color::White).free_mills, 2);
        // While the opponent still has stones in hand it can place on any
        // point: nothing runs.
        let pos: Position = "WWW/.../.../.WW.../..B/..B/.BB b 0 1 0 30".parse().unwrap();
        let white = Terms::measure(&pos, Color::White);
        assert_eq!((white.free_mills, white.running_mills), (0, 0));
    }

    /// A side with fewer than three slides left in the moving phase is in
    /// danger of being blocked.
    #[test]
    fn low_mobility_counts_the_slides_short_of_three() {
        // Black a1 d1 g1 are shut in by White a4 d2 g4; e3 has two slides.
        let pos: Position = "W../.../.../W....W/..B/.W./BBB b 0 0 0 30".parse().unwrap();
        let black = Terms::measure(&pos, Color::Black);
        assert_eq!(black.mobility, 2);
        assert_eq!(black.low_mobility, 1);
        assert_eq!(Terms::measure(&pos, Color::White).low_mobility, 0);
    }
}
