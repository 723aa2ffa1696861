//! The Dame builder holds only the finished tables the pair being solved
//! leads to and reads the others back from their files: a build resumed
//! from the smaller tables' files alone writes the same files as a build
//! from nothing, under the plain rules (8×8 `dame`) and the counted
//! endings (10×10 `international`, its 3-piece tables solved layer by
//! layer).

use std::collections::BTreeMap;
use std::path::Path;

use dame::RuleSet;
use tablebase::dame::{DameBuildEvent, Material, build_dame, plan_dame};

/// Every file of a folder, by name.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

fn resumed_build_matches(rules: RuleSet, pieces: u32) {
    let targets = Material::all_up_to(pieces);
    let whole = tempfile::tempdir().unwrap();
    build_dame(whole.path(), &rules, &targets, &mut |_| {}).unwrap();
    let expected = files(whole.path());

    // The same build with only the smaller tables' files there (as after
    // an interruption): they are found, not built, and the largest tables
    // are solved from what is read back.
    let resumed = tempfile::tempdir().unwrap();
    let mut removed = 0;
    for (name, bytes) in &expected {
        let m = Material::all_up_to(pieces)
            .into_iter()
            .find(|m| name.ends_with(&format!("-{m}.dtb")))
            .unwrap_or_else(|| panic!("no material in {name}"));
        if m.pieces() == pieces {
            removed += 1;
        } else {
            std::fs::write(resumed.path().join(name), bytes).unwrap();
        }
    }
    assert!(removed > 0);
    let (mut found, mut solved) = (0, 0);
    let report = build_dame(resumed.path(), &rules, &targets, &mut |e| {
        if let DameBuildEvent::Done(r) = e {
            if r.skipped {
                found += 1;
            } else {
                solved += 1;
            }
        }
    })
    .unwrap();
    assert_eq!(solved, removed, "only the missing tables are solved");
    assert_eq!(found, expected.len() - removed);
    assert_eq!(report.tables.len(), expected.len());
    assert_eq!(
        files(resumed.path()),
        expected,
        "the resumed build writes the same files"
    );
}

#[test]
fn a_dame_build_resumed_from_the_smaller_files_writes_the_same_tables() {
    resumed_build_matches(RuleSet::DAME, 4);
}

#[test]
fn an_international_build_resumed_from_the_smaller_files_writes_the_same_tables() {
    resumed_build_matches(RuleSet::INTERNATIONAL, 3);
}

/// The plan holds, while a pair is solved, only the tables its moves lead
/// to: never more than the pair's own work and every table the build has
/// finished before it, and for the 10×10 tables of 6 pieces far less than
/// all the finished tables together.
#[test]
fn the_plan_holds_only_the_tables_a_pair_leads_to() {
    let rules = RuleSet::INTERNATIONAL;
    let plan = plan_dame(&rules, &Material::all_up_to(6));
    let all_finished: u64 = plan
        .tables
        .iter()
        .map(|t| t.indices * t.layers as u64 * 2)
        .sum();
    // The largest pair alone (`KKM-KKM`, its own mirror, 3.04·10⁹ indices)
    // takes 3 bytes an index.
    let largest = plan.largest().unwrap();
    assert_eq!(largest.material.to_string(), "KKM-KKM");
    assert!(plan.peak_bytes >= largest.indices * 3);
    assert!(
        plan.peak_bytes < all_finished,
        "{} bytes at the peak, {all_finished} in all tables",
        plan.peak_bytes
    );
}
