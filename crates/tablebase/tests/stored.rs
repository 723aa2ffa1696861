//! Database files written by an earlier brett (tests/data) still open and
//! give the values a build computes today, and a build today writes the
//! same bytes: the file formats have not changed.

use std::path::{Path, PathBuf};

use dame::RuleSet;
use tablebase::dame::{
    DameTablebase, Layout, Material, build_dame, dame_path, layers, position_at, verify_dame,
};
use tablebase::{Sector, SectorFile, SectorIndex, Variant, build_sectors, sector_path};

fn data(folder: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("data")
        .join(folder)
}

/// Sector 3-3 of the standard rules and of the rules without flying.
#[test]
fn stored_muehle_sectors_open_and_match_a_new_build() {
    let stored = data("muehle");
    let sector: Sector = "3-3".parse().unwrap();
    for variant in [Variant::STANDARD, Variant::NO_FLYING] {
        let fresh = tempfile::tempdir().unwrap();
        build_sectors(fresh.path(), variant, "3-3").unwrap();
        let old_path = sector_path(&stored, variant, sector);
        let new_path = sector_path(fresh.path(), variant, sector);
        let old = SectorFile::open(&old_path, variant, sector).unwrap();
        let new = SectorFile::open(&new_path, variant, sector).unwrap();
        assert_eq!(old.stats(), new.stats(), "{variant}");
        assert_eq!(old.size(), new.size());
        let index = SectorIndex::new(3, 3);
        let mut held = 0;
        for i in (0..old.size()).filter(|&i| index.is_canonical(i)) {
            let v = old.value(i).unwrap();
            assert_eq!(v, new.value(i).unwrap(), "{variant} index {i}");
            assert_eq!(old.wdl(i).unwrap(), v.wdl(), "{variant} index {i}");
            held += 1;
        }
        assert_eq!(held, 169_626, "{variant}");
        assert_eq!(old.stats().classes, held, "{variant}");
        // The stored values follow from their moves.
        let r = tablebase::verify(&stored, variant, sector).unwrap();
        assert_eq!(r.errors, 0, "{variant}: {:?}", r.examples);
        assert_eq!(
            std::fs::read(&old_path).unwrap(),
            std::fs::read(&new_path).unwrap(),
            "{variant}: a new build writes other bytes"
        );
    }
}

/// The 8×8 tables up to a king and a man against a king, and the
/// international tables up to two kings against one (a counted ending:
/// eleven layers of the ending counter).
#[test]
fn stored_dame_tables_open_and_match_a_new_build() {
    let stored = data("dame");
    let cases = [
        (RuleSet::DAME, "KM-K", 7, false),
        (RuleSet::INTERNATIONAL, "KK-K", 3, true),
    ];
    for (rules, target, tables, counted) in cases {
        let target: Material = target.parse().unwrap();
        let fresh = tempfile::tempdir().unwrap();
        let report = build_dame(fresh.path(), &rules, &[target], &mut |_| {}).unwrap();
        assert_eq!(report.tables.len(), tables);
        let old_tb = DameTablebase::new(&stored);
        let new_tb = DameTablebase::new(fresh.path());
        let mut layered = false;
        for t in &report.tables {
            let m = t.material;
            let old = old_tb.file(&rules, m).unwrap();
            assert_eq!(old.stats(), t.stats, "{m}");
            let nl = layers(&rules, m);
            assert_eq!(old.layers(), nl, "{m}");
            layered |= nl > 1;
            let size = Layout::new(rules.board, m).size();
            for i in 0..size {
                for e in 0..nl {
                    let Some(pos) = position_at(&rules, m, i, e as u16) else {
                        continue;
                    };
                    assert_eq!(
                        old_tb.value(&pos).unwrap(),
                        new_tb.value(&pos).unwrap(),
                        "{m} index {i} layer {e}"
                    );
                }
            }
            let r = verify_dame(&old_tb, &rules, m).unwrap();
            assert_eq!(r.wrong, 0, "{m}");
            assert!(r.checked > 0, "{m}");
            assert_eq!(
                std::fs::read(dame_path(&stored, &rules, m)).unwrap(),
                std::fs::read(dame_path(fresh.path(), &rules, m)).unwrap(),
                "{m}: a new build writes other bytes"
            );
        }
        assert_eq!(layered, counted);
    }
}
