//! The Dame block cache (`set_dame_cache_limit`): values read from kept
//! blocks are the values read from the file, the cache holds what it was
//! allowed to, and gives it back when the tables are dropped. Its own test
//! binary: the cache's count is process-wide.

use dame::{Position, RuleSet};
use tablebase::Value;
use tablebase::dame::{
    DameTablebase, Material, build_dame, dame_cache_bytes, set_dame_cache_limit,
};

/// Every position of a white king against a black king and man (both
/// sides to move) on the 8×8 board.
fn three_piece_positions() -> Vec<Position> {
    let mut names = Vec::new();
    for rank in 1..=8u8 {
        for file in b'a'..=b'h' {
            if (file - b'a' + rank - 1).is_multiple_of(2) {
                names.push(format!("{}{rank}", file as char));
            }
        }
    }
    let mut out = Vec::new();
    for a in &names {
        for b in &names {
            for c in &names {
                if a == b || b == c || a == c {
                    continue;
                }
                for turn in ["W", "B"] {
                    let fen = format!("{turn}:WK{a}:B{b},K{c}");
                    if let Ok(p) = Position::from_fen(&fen, RuleSet::DAME) {
                        out.push(p);
                    }
                }
            }
        }
    }
    out
}

fn values(tb: &DameTablebase, positions: &[Position]) -> Vec<Value> {
    positions.iter().map(|p| tb.value(p).unwrap()).collect()
}

#[test]
fn kept_blocks_give_the_files_values_within_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    build_dame(
        dir.path(),
        &RuleSet::DAME,
        &Material::all_up_to(3),
        &mut |_| {},
    )
    .unwrap();
    let positions = three_piece_positions();
    assert!(positions.len() > 50_000, "{}", positions.len());

    set_dame_cache_limit(0);
    let uncached = values(&DameTablebase::new(dir.path()), &positions);
    assert_eq!(dame_cache_bytes(), 0, "nothing is kept under a limit of 0");

    set_dame_cache_limit(64 << 20);
    let tb = DameTablebase::new(dir.path());
    let first = values(&tb, &positions);
    let held = dame_cache_bytes();
    assert!(held > 0, "the blocks read are kept");
    // The second pass reads only kept blocks: nothing more is added.
    let second = values(&tb, &positions);
    assert_eq!(dame_cache_bytes(), held);
    assert_eq!(first, uncached);
    assert_eq!(second, uncached);
    assert!(uncached.iter().any(|v| matches!(v, Value::Win(_))));
    assert!(uncached.iter().any(|v| matches!(v, Value::Loss(_))));
    assert!(uncached.contains(&Value::Draw));

    drop(tb);
    assert_eq!(
        dame_cache_bytes(),
        0,
        "dropped tables give their memory back"
    );

    // A limit below one table: some blocks kept, never more than allowed.
    set_dame_cache_limit(64 << 10);
    let tb = DameTablebase::new(dir.path());
    assert_eq!(values(&tb, &positions), uncached);
    assert!(dame_cache_bytes() <= 64 << 10);
    assert!(dame_cache_bytes() > 0);
}
