//! Twelve Men's Morris and Lasker Morris through the catalogue's live game,
//! as the app and the CLI use it: the computer at every level plays whole
//! games, the records round-trip.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use games::{LiveGame, Variant};

fn new_game(rules: &str) -> LiveGame {
    LiveGame::create(Variant::Muehle, Some(rules), None, None).expect("a new game")
}

#[test]
fn the_computer_plays_both_games_at_every_level() {
    let stop = AtomicBool::new(false);
    for rules in ["twelve-mens-morris", "lasker-morris"] {
        for level in 1..=10u8 {
            let mut game = new_game(rules);
            let mut plies = 0;
            while game.ending().is_none() && plies < 120 {
                let mv = game
                    .choose_move(
                        level,
                        u64::from(level) * 7 + plies,
                        Duration::from_millis(20),
                        &stop,
                    )
                    .unwrap_or_else(|| panic!("{rules} level {level}: no move at ply {plies}"));
                game.play(&mv)
                    .unwrap_or_else(|e| panic!("{rules} level {level}: {mv} refused: {e}"));
                plies += 1;
            }
            assert!(plies >= 20, "{rules} level {level}: only {plies} plies");
        }
    }
}

#[test]
fn records_keep_the_board() {
    for (rules, moves) in [
        ("twelve-mens-morris", ["a7", "g7", "b6", "g4", "c5xg4"]),
        ("lasker-morris", ["d6", "f4", "d6-d5", "f4-g4", "a1"]),
    ] {
        let mut game = new_game(rules);
        for m in moves {
            game.play(m).unwrap_or_else(|e| panic!("{rules}: {m}: {e}"));
        }
        let record = game.record(&[]);
        assert!(record.contains(rules), "{record}");
        let back = LiveGame::from_record(Some(Variant::Muehle), &record).expect("the record reads");
        assert_eq!(back.moves(), game.moves(), "{record}");
        assert_eq!(back.position(), game.position());
    }
}
