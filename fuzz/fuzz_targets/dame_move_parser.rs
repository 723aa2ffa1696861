//! Dame move notation: any text either fails to parse or gives squares whose
//! notation parses back the same; a move matched against the legal moves of
//! a position is legal and its own notation names it again.
#![no_main]

use dame::{BoardSize, MoveText, Position, RuleSet};
use libfuzzer_sys::fuzz_target;

/// Positions with captures, kings and multi-captures on both boards.
const POSITIONS: [(&str, RuleSet); 6] = [
    ("W:We3:Bd4,d6,f6,f4", RuleSet::DAME),
    ("W:We3:Bd4,d6,f6,f4", RuleSet::DAME_FR),
    ("W:Wb6,Kg1:Bc7,e7,e5,c5,Kh8", RuleSet::DAME_FR),
    ("W:WK47:B7,9,11,18,20,29,31,33,40", RuleSet::INTERNATIONAL),
    ("W:WK47:B7,9,11,18,20,29,31,33,40", RuleSet::DAME_100),
    ("W:WK3,K26,K40,29,33,38,44:BK8,K46,12,17,18,23,24,35", RuleSet::INTERNATIONAL),
];

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for size in [BoardSize::Eight, BoardSize::Ten] {
        if let Ok(mt) = MoveText::parse(&text, size) {
            let shown = mt.to_string();
            assert_eq!(MoveText::parse(&shown, size), Ok(mt), "{text:?} -> {shown}");
        }
    }
    let starts = [
        Position::new(RuleSet::DAME),
        Position::new(RuleSet::INTERNATIONAL),
    ];
    let others = POSITIONS
        .iter()
        .map(|(fen, rules)| Position::from_fen(fen, *rules).expect("valid position"));
    for pos in starts.into_iter().chain(others) {
        if let Ok(m) = pos.parse_move(&text) {
            assert!(pos.is_legal(&m), "{text:?} gave an illegal {m}");
            assert_eq!(pos.parse_move(&m.to_string()), Ok(m), "{m}");
            assert_eq!(pos.parse_move(&pos.short_notation(&m)), Ok(m), "{m}");
        }
    }
});
