use engine::muehle::game::MuehleState;
use muehle::Position;
use search::{Engine, Limits};
use std::sync::atomic::AtomicBool;
fn main() {
    let fen = std::env::args().nth(1);
    let pos = match fen {
        Some(f) => f.parse::<Position>().unwrap(),
        None => Position::default(),
    };
    let e = Engine::new(64, 1);
    let stop = AtomicBool::new(false);
    let r = e.search(
        &MuehleState::new(pos),
        &[],
        Limits::movetime(std::time::Duration::from_secs(2)),
        1,
        &stop,
        &mut |i| {
            println!(
                "depth {} sel {} score {} nodes {} nps {} pv {}",
                i.depth,
                i.seldepth,
                i.score.protocol(),
                i.nodes,
                i.nps,
                i.pv.iter()
                    .map(|m| m.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            );
        },
    );
    println!("best {:?} {:?}", r.best, r.score);
}
