//! Position strings: any text either fails to parse or gives a setup whose
//! string parses back to the same setup; a valid position round-trips and
//! its legal moves are consistent.
#![no_main]

use libfuzzer_sys::fuzz_target;
use muehle::{Position, RuleSet, Setup};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(setup) = text.parse::<Setup>() else {
        return;
    };
    let shown = setup.to_string();
    assert_eq!(shown.parse::<Setup>(), Ok(setup), "{text:?} -> {shown}");
    for rules in [RuleSet::STANDARD, RuleSet::RAVENSBURGER, RuleSet::NO_FLYING] {
        let Ok(pos) = Position::from_setup(setup, rules) else {
            return;
        };
        let fen = pos.fen();
        assert_eq!(Position::from_fen(&fen, rules), Ok(pos), "{fen}");
        assert_eq!(pos.hash(), pos.compute_hash());
        let moves = pos.legal_moves();
        assert_eq!(pos.count_legal_moves(), moves.len() as u64, "{fen}");
        assert_eq!(moves.is_empty(), pos.outcome().is_some(), "{fen}");
        for m in moves {
            let next = pos.play(m).expect("a generated move is legal");
            assert_eq!(next.hash(), next.compute_hash());
            assert!(next.to_setup().validate().is_ok(), "{fen} {m}");
        }
    }
});
