//! Dame FEN: any text either fails to parse or gives a setup whose FEN
//! parses back to the same setup; a valid position's FEN round-trips, its
//! hash is right, the bulk count equals the move list, and every generated
//! move plays to a position whose incremental hash is right.
#![no_main]

use dame::{BoardSize, Position, RuleSet, Setup};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = Setup::from_fen(&text, BoardSize::Eight);
    let _ = Setup::from_fen(&text, BoardSize::Ten);
    let Ok(setup) = text.parse::<Setup>() else {
        return;
    };
    let fen = setup.fen();
    assert_eq!(Setup::from_fen(&fen, setup.size), Ok(setup), "{text:?} -> {fen}");
    let presets: &[RuleSet] = match setup.size {
        BoardSize::Eight => &[RuleSet::DAME, RuleSet::DAME_FR],
        BoardSize::Ten => &[RuleSet::DAME_100, RuleSet::INTERNATIONAL],
    };
    for &rules in presets {
        let Ok(pos) = Position::from_setup(setup, rules) else {
            continue;
        };
        assert_eq!(Position::from_fen(&pos.fen(), rules), Ok(pos));
        assert_eq!(pos.hash(), pos.compute_hash());
        let moves = pos.legal_moves();
        assert_eq!(pos.count_legal_moves(), moves.len() as u64);
        for m in &moves {
            let mut next = pos;
            next.play_unchecked(m);
            assert_eq!(next.hash(), next.compute_hash(), "after {m}");
            assert!(next.to_setup().validate().is_ok(), "after {m}: {next}");
        }
        let _ = pos.outcome();
        let _ = dame::eval::evaluate(&pos);
    }
});
