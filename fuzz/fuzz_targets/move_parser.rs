//! Move notation: any text either fails to parse or gives a move whose
//! notation parses back to the same move.
#![no_main]

use libfuzzer_sys::fuzz_target;
use muehle::{Move, Position};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(m) = Move::parse(&text) {
        let shown = m.to_string();
        assert_eq!(Move::parse(&shown), Ok(m), "{text:?} -> {shown}");
        assert_eq!(Move::from_u16(m.to_u16()), Some(m));
    }
    // The Sanmill token joiner and the checked parser never panic either.
    for token in muehle::join_removal_tokens(text.split_whitespace()) {
        let _ = Move::parse(&token);
    }
    let _ = Position::default().parse_move(&text);
});
