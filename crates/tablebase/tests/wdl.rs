//! The win/draw/loss cache: it answers what the values with distances say,
//! for every position of a sector, and keeps no more than its limit (a test
//! binary of its own: the limit is for the whole process).

use std::sync::atomic::AtomicBool;

use tablebase::{Sector, SectorIndex, Tablebase, Variant};

#[test]
fn the_wdl_cache_agrees_with_the_values_and_keeps_its_limit() {
    let dir = tempfile::tempdir().unwrap();
    tablebase::build_sectors(dir.path(), Variant::STANDARD, "3-4").unwrap();
    let tb = Tablebase::new(dir.path(), Variant::STANDARD);
    // No memory: answers are still right, nothing is kept.
    tablebase::set_wdl_cache_limit(0);
    let sector: Sector = "3-4".parse().unwrap();
    let file = tb.file(sector).unwrap();
    let idx = SectorIndex::new(3, 4);
    let mut checked = 0;
    for i in (0..idx.size()).step_by(97) {
        if !idx.is_canonical(i) {
            continue;
        }
        let Ok(v) = file.value(i) else { continue };
        assert_eq!(file.wdl(i).unwrap(), v.wdl(), "index {i}");
        checked += 1;
    }
    assert!(checked > 1000, "{checked}");
    assert_eq!(tablebase::wdl_cache_bytes(), 0);
    // With memory: warming keeps the whole sector, the answers stay the same.
    tablebase::set_wdl_cache_limit(64 << 20);
    let stop = AtomicBool::new(false);
    assert!(tb.warm_wdl(7, &stop) > 0);
    let kept = tablebase::wdl_cache_bytes();
    assert!(kept >= (idx.size() / 4) as usize, "{kept}");
    for i in (0..idx.size()).step_by(89) {
        if let Ok(v) = file.value(i) {
            assert_eq!(file.wdl(i).unwrap(), v.wdl(), "index {i}");
        }
    }
    // A second warm-up reads nothing more.
    assert_eq!(tb.warm_wdl(7, &stop), 0);
    assert_eq!(tablebase::wdl_cache_bytes(), kept);
}
