//! The computer as the app and `brett play` use it: a person waits for it.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use games::{LiveGame, Variant};

/// With a single legal move the computer answers at once, whatever time it
/// was given (the engine protocols search on with it instead, to fill their
/// table for the next move: the app's searches do not keep theirs).
#[test]
fn the_computer_answers_the_only_move_at_once() {
    // After c3-d4 f6-e5 White's only move is the capture d4xf6.
    let mut game = LiveGame::create(Variant::Dame, None, None, None).expect("a game");
    for m in ["c3-d4", "f6-e5"] {
        game.play(m).expect("legal");
    }
    let stop = AtomicBool::new(false);
    let start = Instant::now();
    let mv = game
        .choose_move(10, 1, Duration::from_secs(60), &stop)
        .expect("a move");
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "the only move took {:?}",
        start.elapsed()
    );
    game.clone().play(&mv).expect("the move is legal");
    assert!(mv.contains("f6"), "{mv}");
}
