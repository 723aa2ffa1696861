//! Games between the Dame search with its draughts hooks (single-reply
//! extension, sacrifices in quiescence) and the same search without them.
//!
//! ```text
//! cargo run --profile ci -p engine --example dame_ab -- RULES PAIRS NODES|tMS [SEED]
//! ```
//!
//! Each of PAIRS openings (4 random plies on 8×8, 6 on 10×10) is played
//! twice, colours swapped; every move is a one-thread search of NODES nodes
//! (or MS milliseconds: `t20`) with a fresh table.
//! Games longer than 300 plies are drawn. Prints wins, draws and losses of
//! the hooked search and the Elo difference.

use std::sync::atomic::AtomicBool;

use dame::{Move, Position, RuleSet};
use engine::DameState;
use search::{Engine, Exact, Game, Limits, Status};

/// [`DameState`] without the draughts hooks: the search as before them.
#[derive(Clone, Copy, Debug)]
struct Plain(DameState);

impl Game for Plain {
    type Move = Move;
    const HISTORY_SIZE: usize = DameState::HISTORY_SIZE;
    fn legal_moves(&self, moves: &mut Vec<Move>) {
        self.0.legal_moves(moves);
    }
    fn play(&self, mv: Move) -> Self {
        Plain(self.0.play(mv))
    }
    fn hash(&self) -> u64 {
        self.0.hash()
    }
    fn status(&self) -> Status {
        self.0.status()
    }
    fn evaluate(&self) -> i32 {
        self.0.evaluate()
    }
    fn side_to_move(&self) -> usize {
        self.0.side_to_move()
    }
    fn reversible_plies(&self) -> u32 {
        self.0.reversible_plies()
    }
    fn repetition_is_draw(&self) -> bool {
        self.0.repetition_is_draw()
    }
    fn is_noisy(&self, mv: Move) -> bool {
        self.0.is_noisy(mv)
    }
    fn noisy_moves(&self, moves: &mut Vec<Move>) {
        self.0.noisy_moves(moves);
    }
    fn must_play_noisy(&self) -> bool {
        self.0.must_play_noisy()
    }
    fn order_hint(&self, mv: Move) -> i32 {
        self.0.order_hint(mv)
    }
    fn history_index(&self, mv: Move) -> usize {
        self.0.history_index(mv)
    }
    fn probe(&self) -> Option<Exact> {
        self.0.probe()
    }
}

fn best<G: Game<Move = Move>>(state: &G, history: &[u64], limits: Limits) -> Option<Move> {
    let engine = Engine::new(16, 1);
    let stop = AtomicBool::new(false);
    engine
        .search(state, history, limits, 1, &stop, &mut |_| {})
        .best
}

/// 1 when the hooked search wins, 0 draw, -1 loss.
fn play(rules: RuleSet, opening: &[Move], hooked_white: bool, nodes: Limits) -> i32 {
    let mut game = dame::Game::new(rules);
    for m in opening {
        game.play(m).expect("opening move");
    }
    while !game.is_over() && game.ply() < 300 {
        let pos = *game.position();
        let history: Vec<u64> = (0..game.ply())
            .filter_map(|i| game.position_at(i).map(Position::hash))
            .collect();
        let white = pos.turn() == dame::Color::White;
        let mv = if white == hooked_white {
            best(&DameState::new(pos), &history, nodes)
        } else {
            best(&Plain(DameState::new(pos)), &history, nodes)
        };
        let Some(mv) = mv else { break };
        game.play(&mv).expect("legal");
    }
    match game.outcome().and_then(|o| o.winner) {
        Some(c) if (c == dame::Color::White) == hooked_white => 1,
        Some(_) => -1,
        None => 0,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rules = args.first().and_then(|r| RuleSet::preset(r));
    let pairs = args.get(1).and_then(|n| n.parse::<u64>().ok());
    let limit = args.get(2).cloned().unwrap_or_default();
    let nodes = match limit.strip_prefix('t') {
        Some(ms) => ms
            .parse()
            .ok()
            .map(|ms| Limits::movetime(std::time::Duration::from_millis(ms))),
        None => limit.parse().ok().map(Limits::nodes),
    };
    let (Some(rules), Some(pairs), Some(nodes)) = (rules, pairs, nodes) else {
        eprintln!("usage: dame_ab RULES PAIRS NODES [SEED]");
        std::process::exit(2);
    };
    let seed = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1u64);
    let mut rng = fastrand::Rng::with_seed(seed);
    let plies = if rules.board == dame::BoardSize::Ten {
        6
    } else {
        4
    };
    let (mut w, mut d, mut l) = (0, 0, 0);
    for pair in 0..pairs {
        let mut pos = Position::new(rules);
        let mut opening = Vec::new();
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves.as_slice()[rng.usize(0..moves.len())];
            pos.play_unchecked(&m);
            opening.push(m);
        }
        for hooked_white in [true, false] {
            match play(rules, &opening, hooked_white, nodes) {
                1 => w += 1,
                0 => d += 1,
                _ => l += 1,
            }
        }
        eprintln!("pair {}: +{w} ={d} -{l}", pair + 1);
    }
    let n = f64::from(w + d + l);
    let score = (f64::from(w) + f64::from(d) / 2.0) / n;
    let elo = if score > 0.0 && score < 1.0 {
        -400.0 * (1.0 / score - 1.0).log10()
    } else {
        f64::NAN
    };
    println!("hooked vs plain, {limit} a move: +{w} ={d} -{l} score {score:.3} Elo {elo:+.0}");
}
