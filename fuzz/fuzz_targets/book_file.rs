//! Opening book files (`brett --book FILE`): any bytes are either refused
//! with an error or read as a book of either game; a book that is read
//! writes bytes that read back to the same book, and a lookup in it never
//! panics (a held move that is not legal in the position is not played).
#![no_main]

use engine::dame::book::Book as DameBook;
use engine::muehle::book::Book as MuehleBook;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(book) = MuehleBook::from_bytes(data, "fuzz") {
        let bytes = book.to_bytes();
        let again = MuehleBook::from_bytes(&bytes, "again").expect("written book reads");
        assert_eq!(again.len(), book.len());
        assert_eq!(again.to_bytes(), bytes);
        let mut pos = muehle::Position::new(muehle::RuleSet::STANDARD);
        for _ in 0..4 {
            let Some((m, _)) = book.get(&pos) else { break };
            assert!(pos.is_legal(m));
            pos.play_unchecked(m);
        }
    }
    if let Ok(book) = DameBook::from_bytes(data, "fuzz") {
        let bytes = book.to_bytes();
        let again = DameBook::from_bytes(&bytes, "again").expect("written book reads");
        assert_eq!(again.len(), book.len());
        assert_eq!(again.to_bytes(), bytes);
        for rules in [dame::RuleSet::DAME, dame::RuleSet::INTERNATIONAL] {
            let mut pos = dame::Position::new(rules);
            for _ in 0..4 {
                let Some(m) = book.get(&pos) else { break };
                assert!(pos.is_legal(&m));
                pos.play_unchecked(&m);
            }
        }
    }
});
