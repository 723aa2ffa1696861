//! Playing levels 1 (a beginner who makes human mistakes) to 10 (full strength).
//!
//! | level | depth | noise | random move | plays like |
//! |---|---|---|---|---|
//! | 1 | 1 | ±300 | 25 % | a beginner: sees a mill it can close, often misses the opponent's |
//! | 2 | 1 | ±180 | 12 % | a casual player who blocks some threats |
//! | 3 | 2 | ±120 | 6 % | sees the opponent's direct threats |
//! | 4 | 2 | ±70 | 3 % | a club beginner |
//! | 5 | 3 | ±45 | 1 % | plans one move ahead |
//! | 6 | 4 | ±25 | 0 | a club player |
//! | 7 | 6 | ±12 | 0 | a strong club player |
//! | 8 | 8 | ±5 | 0 | an expert |
//! | 9 | 9 | 0 | 0 | a master, within the time given |
//! | 10 | — | 0 | 0 | full strength: deepest search in the time given |
//!
//! Below level 10 the engine searches the best few lines to the level's
//! depth, adds random noise of the given size to their scores (hundredths of
//! a stone) and plays the best line after the noise — so weaker levels
//! prefer plausible moves but misjudge close choices, like people do. With
//! the "random move" chance it plays any legal move instead (a blunder).

use std::sync::atomic::AtomicBool;

use search::{Engine, Game, Limits, Score, SearchInfo};

/// What a level does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelSpec {
    /// The level, 1 to 10.
    pub level: u8,
    /// Depth limit (None: only the time limit).
    pub depth: Option<u32>,
    /// Noise added to line scores, in hundredths of a stone (±).
    pub noise: i32,
    /// Chance in percent of playing a random legal move.
    pub random_percent: u32,
    /// Number of best lines compared.
    pub lines: usize,
}

/// The weakest and strongest level.
pub const MIN_LEVEL: u8 = 1;
/// The strongest level (full strength).
pub const MAX_LEVEL: u8 = 10;

/// The specification of `level` (clamped to 1..=10).
pub fn spec(level: u8) -> LevelSpec {
    let level = level.clamp(MIN_LEVEL, MAX_LEVEL);
    let (depth, noise, random_percent) = match level {
        1 => (Some(1), 300, 25),
        2 => (Some(1), 180, 12),
        3 => (Some(2), 120, 6),
        4 => (Some(2), 70, 3),
        5 => (Some(3), 45, 1),
        6 => (Some(4), 25, 0),
        7 => (Some(6), 12, 0),
        8 => (Some(8), 5, 0),
        9 => (Some(9), 0, 0),
        _ => (None, 0, 0),
    };
    LevelSpec {
        level,
        depth,
        noise,
        random_percent,
        lines: if noise > 0 { 5 } else { 1 },
    }
}

/// A score as a number for comparing lines: wins beat everything, sooner
/// wins beat later ones.
fn comparable(s: Score) -> i32 {
    match s {
        Score::Cp(v) => v,
        Score::Mate(n) if n > 0 => 100_000 - n,
        Score::Mate(n) => -100_000 - n,
    }
}

/// The move chosen at a level, with the engine's score for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice<M> {
    /// The move.
    pub mv: M,
    /// The engine's score for it.
    pub score: Score,
    /// The line the move starts.
    pub pv: Vec<M>,
    /// The depth the search completed.
    pub depth: u32,
    /// The nodes the search visited.
    pub nodes: u64,
}

/// A player at a level, with its own random numbers.
#[derive(Clone, Debug)]
pub struct LevelPlayer {
    /// The level, 1 to 10.
    pub level: u8,
    /// The random numbers of its mistakes.
    pub rng: fastrand::Rng,
}

impl LevelPlayer {
    /// A player at `level` whose random choices follow `seed`.
    pub fn new(level: u8, seed: u64) -> LevelPlayer {
        LevelPlayer {
            level,
            rng: fastrand::Rng::with_seed(seed),
        }
    }

    /// Choose a move in `root` within `limits` (the level's depth caps any
    /// depth limit). `None` when the game is over.
    pub fn choose<G: Game>(
        &mut self,
        engine: &Engine,
        root: &G,
        history: &[u64],
        limits: Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchInfo<G::Move>),
    ) -> Option<Choice<G::Move>> {
        choose_move(engine, root, history, limits, self, stop, on_info)
    }
}

fn choose_move<G: Game>(
    engine: &Engine,
    root: &G,
    history: &[u64],
    mut limits: Limits,
    player: &mut LevelPlayer,
    stop: &AtomicBool,
    on_info: &mut dyn FnMut(&SearchInfo<G::Move>),
) -> Option<Choice<G::Move>> {
    let spec = spec(player.level);
    let rng = &mut player.rng;
    let mut moves = Vec::new();
    root.legal_moves(&mut moves);
    if moves.is_empty() {
        return None;
    }
    if spec.random_percent > 0 && rng.u32(0..100) < spec.random_percent {
        let mv = moves[rng.usize(0..moves.len())];
        return Some(Choice {
            mv,
            score: Score::Cp(0),
            pv: vec![mv],
            depth: 0,
            nodes: 0,
        });
    }
    // Only full strength plays perfectly where the databases know the way.
    if spec.level < MAX_LEVEL {
        limits.no_databases = true;
    }
    // A player out to win: draws cost the game's contempt (one line only;
    // the noisy levels compare several).
    if spec.lines == 1 {
        limits = limits.playing::<G>();
    }
    // Only full strength plays from the opening book.
    limits.book = limits.book && spec.level == MAX_LEVEL;
    if let Some(d) = spec.depth {
        limits.depth = Some(limits.depth.map_or(d, |x| x.min(d)));
        // A level with a depth limit does not need more than the time given.
        limits.infinite = false;
    }
    let result = engine.search(root, history, limits, spec.lines, stop, on_info);
    let best = result.best?;
    if spec.noise == 0 || result.lines.len() < 2 {
        return Some(Choice {
            mv: best,
            score: result.score,
            pv: result
                .lines
                .first()
                .map(|l| l.1.clone())
                .unwrap_or_else(|| vec![best]),
            depth: result.depth,
            nodes: result.nodes,
        });
    }
    let (score, pv) = result
        .lines
        .iter()
        .max_by_key(|(s, _)| comparable(*s) + rng.i32(-spec.noise..=spec.noise))
        .cloned()
        .expect("at least two lines");
    Some(Choice {
        mv: pv[0],
        score,
        pv,
        depth: result.depth,
        nodes: result.nodes,
    })
}
