//! Built files: checked by `verify`, symmetric positions agree, and a
//! damaged, cut off, foreign or missing file is refused with a clear message.

use std::path::Path;

use muehle::{Bitboard, Symmetry};
use tablebase::{
    Sector, SectorFile, SectorIndex, Tablebase, TablebaseError, Value, Variant, build_sectors,
    sector_path, verify,
};

#[test]
fn every_built_sector_passes_verify_in_every_variant() {
    for variant in [Variant::STANDARD, Variant::RAVENSBURGER, Variant::NO_FLYING] {
        let dir = tempfile::tempdir().unwrap();
        build_sectors(dir.path(), variant, "4-4").unwrap();
        for s in ["3-3", "3-4", "4-3", "4-4"] {
            let r = verify(dir.path(), variant, s.parse().unwrap()).unwrap();
            assert_eq!(r.errors, 0, "{variant} {s}: {:?}", r.examples);
            assert!(r.checked > 100_000, "{variant} {s}: {}", r.checked);
        }
    }
}

#[test]
fn stats_count_all_placements() {
    let dir = tempfile::tempdir().unwrap();
    build_sectors(dir.path(), Variant::STANDARD, "3-4").unwrap();
    let tb = Tablebase::new(dir.path(), Variant::STANDARD);
    let s33 = tb.file("3-3".parse().unwrap()).unwrap().stats();
    assert_eq!(s33.positions, 2_691_920);
    assert_eq!(s33.wins + s33.draws + s33.losses, s33.positions);
    let s34 = tb.file("3-4".parse().unwrap()).unwrap().stats();
    // C(24,3) · C(21,4)
    assert_eq!(s34.positions, 2024 * 5985);
    let s43 = tb.file("4-3".parse().unwrap()).unwrap().stats();
    assert_eq!(s43.positions, 10626 * 1140);
    assert_eq!(s43.losses, 48720);
    assert_eq!(s34.losses, 0);
}

#[test]
fn symmetric_positions_have_equal_values_and_resume_keeps_files() {
    let dir = tempfile::tempdir().unwrap();
    build_sectors(dir.path(), Variant::STANDARD, "4-4").unwrap();
    let tb = Tablebase::new(dir.path(), Variant::STANDARD);
    let idx = SectorIndex::new(4, 3);
    let mut rng = fastrand::Rng::with_seed(5);
    let mut seen = [0usize; 3];
    for _ in 0..20_000 {
        let (m, o) = idx.position(rng.u64(0..idx.size()));
        let v = tb.probe_stones(Bitboard(m), Bitboard(o)).unwrap();
        seen[match v {
            Value::Win(_) => 0,
            Value::Draw => 1,
            Value::Loss(_) => 2,
        }] += 1;
        for s in Symmetry::ALL {
            let w = tb
                .probe_stones(s.apply(Bitboard(m)), s.apply(Bitboard(o)))
                .unwrap();
            assert_eq!(v, w);
        }
    }
    assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
    // A second build keeps every sector.
    let r = build_sectors(dir.path(), Variant::STANDARD, "4-4").unwrap();
    assert!(r.built.is_empty());
    assert_eq!(r.kept.len(), 4);
}

fn open(dir: &Path, variant: Variant, s: &str) -> Result<SectorFile, TablebaseError> {
    let sector: Sector = s.parse().unwrap();
    SectorFile::open(&sector_path(dir, variant, sector), variant, sector)
}

#[test]
fn damaged_cut_off_foreign_and_missing_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    build_sectors(dir.path(), Variant::STANDARD, "3-4").unwrap();
    let path33 = sector_path(dir.path(), Variant::STANDARD, "3-3".parse().unwrap());
    let good = std::fs::read(&path33).unwrap();
    assert!(open(dir.path(), Variant::STANDARD, "3-3").is_ok());

    // One flipped bit in the values.
    let mut bad = good.clone();
    let at = bad.len() - 10;
    bad[at] ^= 0x10;
    std::fs::write(&path33, &bad).unwrap();
    let e = open(dir.path(), Variant::STANDARD, "3-3").err().unwrap();
    assert!(matches!(e, TablebaseError::Corrupt { .. }), "{e}");
    assert!(e.to_string().contains("checksum"), "{e}");
    // The prober refuses it too, and a build redoes it.
    let tb = Tablebase::new(dir.path(), Variant::STANDARD);
    assert!(
        tb.probe_stones(Bitboard(0b111), Bitboard(0b111000))
            .is_err()
    );

    // Cut off.
    std::fs::write(&path33, &good[..good.len() / 2]).unwrap();
    let e = open(dir.path(), Variant::STANDARD, "3-3").err().unwrap();
    assert!(matches!(e, TablebaseError::Corrupt { .. }), "{e}");
    assert!(e.to_string().contains("truncated"), "{e}");
    std::fs::write(&path33, &good[..40]).unwrap();
    assert!(matches!(
        open(dir.path(), Variant::STANDARD, "3-3"),
        Err(TablebaseError::Corrupt { .. })
    ));

    // Not a database file at all.
    std::fs::write(&path33, b"hello, this is not a database file at all, but long enough to have a header of 128 bytes ................................................").unwrap();
    let e = open(dir.path(), Variant::STANDARD, "3-3").err().unwrap();
    assert!(matches!(e, TablebaseError::Foreign { .. }), "{e}");

    // Another sector's file under this name.
    let path34 = sector_path(dir.path(), Variant::STANDARD, "3-4".parse().unwrap());
    std::fs::copy(&path34, &path33).unwrap();
    let e = open(dir.path(), Variant::STANDARD, "3-3").err().unwrap();
    assert!(e.to_string().contains("holds sector 3-4"), "{e}");

    // Another variant's file.
    std::fs::write(&path33, &good).unwrap();
    let other = sector_path(dir.path(), Variant::RAVENSBURGER, "3-3".parse().unwrap());
    std::fs::create_dir_all(other.parent().unwrap()).unwrap();
    std::fs::copy(&path33, &other).unwrap();
    let e = open(dir.path(), Variant::RAVENSBURGER, "3-3")
        .err()
        .unwrap();
    assert!(matches!(e, TablebaseError::Foreign { .. }), "{e}");
    assert!(e.to_string().contains("other rules"), "{e}");

    // Missing: the message says how to build it.
    let e = open(dir.path(), Variant::STANDARD, "5-5").err().unwrap();
    assert!(matches!(e, TablebaseError::Missing { .. }), "{e}");
    assert!(e.to_string().contains("brett tablebase build"), "{e}");

    // A build replaces the damaged file.
    std::fs::write(&path33, &good[..100]).unwrap();
    let r = build_sectors(dir.path(), Variant::STANDARD, "3-3").unwrap();
    assert_eq!(r.built.len(), 1);
    assert_eq!(std::fs::read(&path33).unwrap(), good);
}

#[test]
fn probe_of_positions_and_moves() {
    let dir = tempfile::tempdir().unwrap();
    build_sectors(dir.path(), Variant::STANDARD, "3-4").unwrap();
    let tb = Tablebase::new(dir.path(), Variant::STANDARD);
    let rules = muehle::RuleSet::STANDARD;
    // Placing phase: not in the databases.
    assert_eq!(tb.probe(&muehle::Position::new(rules)).unwrap(), None);
    // White closes a mill against three black stones: a win in 1.
    let p = muehle::Position::from_fen("WW./.../.../B.B..B/.../.../W.. w 0 0 0 1", rules).unwrap();
    assert_eq!(tb.probe(&p).unwrap(), Some(Value::Win(1)));
    let moves = tb.probe_moves(&p).unwrap().unwrap();
    assert_eq!(moves.len(), p.legal_moves().len());
    assert_eq!(moves[0].1, Value::Win(1));
    // Black to move (Black's view, sector 3-3 with colours swapped).
    let q = muehle::Position::from_fen("WW./.../.../B.B..B/.../.../W.. b 0 0 0 1", rules).unwrap();
    let v = tb.probe(&q).unwrap().unwrap();
    let best = tb.probe_moves(&q).unwrap().unwrap()[0].1;
    assert_eq!(v, best);
    // A sector not built.
    let r = muehle::Position::from_fen("WWW/WW./.../B.B..B/.../.../... w 0 0 0 1", rules).unwrap();
    assert!(matches!(tb.probe(&r), Err(TablebaseError::Missing { .. })));
}
