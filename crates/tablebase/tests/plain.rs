//! The builder against an independent, plain solver written for the tests
//! (`plain/solver.rs`: no symmetries, the rules crate as the only source of
//! the rules, no code of the `tablebase` crate). Sectors are built and every
//! placement of the stones (symmetric copies included) is probed and
//! compared with the plain value: the standard rules up to 4-4, the three
//! other variants in 3-3; the ignored
//! `every_variant_up_to_4_4_equals_the_plain_solver` all four up to 4-4.

#[path = "plain/solver.rs"]
mod solver;

use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::time::Instant;

use muehle::{Bitboard, Color, Position, RemovalRule, RuleSet};
use solver::{DRAW, Shape, Solved, WIN, par_for, solve_group};
use tablebase::{BuildOptions, NoProgress, Sector, Tablebase, Value, Variant, build, position_of};

/// The rules without the no-mill and repetition counters: the databases'
/// values do not count them.
fn plain_rules(base: RuleSet) -> RuleSet {
    RuleSet {
        no_mill_draw: None,
        repetition_draw: None,
        ..base
    }
}

/// The value of a plain code.
fn value(code: u16) -> Value {
    match code {
        DRAW => Value::Draw,
        c if c & WIN != 0 => Value::Win(c & !WIN),
        c => Value::Loss(c),
    }
}

fn build_up_to(dir: &Path, variant: Variant, target: Sector) {
    let t = Instant::now();
    build(
        &BuildOptions {
            dir: dir.to_path_buf(),
            variant,
        },
        &[target],
        &NoProgress,
    )
    .unwrap();
    eprintln!(
        "{variant}: built up to {target} in {:.1} s",
        t.elapsed().as_secs_f64()
    );
}

/// Probe every position of sector `a-b` and compare it with the plain value.
fn compare(tb: &Tablebase, rules: RuleSet, a: u32, b: u32, codes: &[u16]) {
    let t = Instant::now();
    let shape = Shape::new(a, b);
    assert_eq!(codes.len(), shape.size);
    let wrong = AtomicUsize::new(0);
    let examples = Mutex::new(Vec::new());
    let counts: [AtomicUsize; 3] = Default::default();
    par_for(shape.movers, |r| {
        let mut seen = [0usize; 3];
        shape.for_each_in_block(r, |j, mover, other| {
            let want = value(codes[r * shape.per + j]);
            seen[match want {
                Value::Win(_) => 0,
                Value::Draw => 1,
                Value::Loss(_) => 2,
            }] += 1;
            let got = tb.probe_stones(Bitboard(mover), Bitboard(other));
            if !matches!(got, Ok(v) if v == want) {
                wrong.fetch_add(1, Relaxed);
                let mut ex = examples.lock().unwrap();
                if ex.len() < 10 {
                    let fen = position_of(mover, other, Color::White, rules)
                        .unwrap()
                        .fen();
                    let got = match got {
                        Ok(v) => v.to_string(),
                        Err(e) => format!("error: {e}"),
                    };
                    ex.push(format!("{fen}: tablebase {got}, plain {want}"));
                }
            }
        });
        for (c, n) in counts.iter().zip(seen) {
            c.fetch_add(n, Relaxed);
        }
    });
    let [w, d, l] = counts.map(|c| c.into_inner());
    eprintln!(
        "{} {a}-{b}: {} positions ({w} wins, {d} draws, {l} losses) compared in {:.1} s",
        tb.variant(),
        shape.size,
        t.elapsed().as_secs_f64()
    );
    let wrong = wrong.into_inner();
    assert!(
        wrong == 0,
        "{} {a}-{b}: {wrong} of {} positions differ from the plain solver, e.g.\n{}",
        tb.variant(),
        shape.size,
        examples.into_inner().unwrap().join("\n")
    );
}

/// Build the sectors up to the last group of `groups` with the builder,
/// solve the groups with the plain solver and compare every position. The
/// folder of the built files is returned.
fn builder_matches_plain_solver(
    variant: Variant,
    base: RuleSet,
    groups: &[(u32, u32)],
) -> tempfile::TempDir {
    let rules = plain_rules(base);
    assert_eq!(Variant::of(&rules), variant);
    let dir = tempfile::tempdir().unwrap();
    let &(last_a, last_b) = groups.last().unwrap();
    let target = Sector::new(last_a as u8, last_b as u8).unwrap();
    build_up_to(dir.path(), variant, target);
    let tb = Tablebase::new(dir.path(), variant);
    let mut solved = Solved::new();
    for &(a, b) in groups {
        let t = Instant::now();
        solve_group(rules, a, b, &mut solved);
        eprintln!(
            "{variant}: plain solver solved and checked {a}-{b}{} in {:.1} s",
            if a == b {
                String::new()
            } else {
                format!(" and {b}-{a}")
            },
            t.elapsed().as_secs_f64()
        );
        compare(&tb, rules, a, b, &solved[&(a, b)]);
        if a != b {
            compare(&tb, rules, b, a, &solved[&(b, a)]);
        }
    }
    dir
}

/// The standard rules up to 4-4; then the hand-picked values of
/// [`known_values`] in the same files (with the two variants without flying
/// built up to 3-3 beside them).
#[test]
fn standard_up_to_4_4_equals_the_plain_solver_and_known_values() {
    let dir = builder_matches_plain_solver(
        Variant::STANDARD,
        RuleSet::STANDARD,
        &[(3, 3), (3, 4), (4, 4)],
    );
    known_values(dir.path());
}

/// Sector 3-3 only: up to four stones a side the Ravensburger values equal
/// the standard ones (below), so 3-4 and 4-3 would add half a minute of the
/// tests' time and little else; `every_variant_up_to_4_4_equals_the_plain_solver`
/// compares them.
#[test]
fn ravensburger_3_3_equals_the_plain_solver() {
    builder_matches_plain_solver(Variant::RAVENSBURGER, RuleSet::RAVENSBURGER, &[(3, 3)]);
}

/// Sector 3-3 only: three stones that cannot fly, blocked or not, are all
/// there; the standard 4-4 above has every stone moving without flying, and
/// `every_variant_up_to_4_4_equals_the_plain_solver` compares 3-4 and 4-4.
#[test]
fn no_flying_3_3_equals_the_plain_solver() {
    builder_matches_plain_solver(Variant::NO_FLYING, RuleSet::NO_FLYING, &[(3, 3)]);
}

/// Up to four stones a side the strict removal rule only matters without
/// flying: three stones in a mill are then protected (with flying they are
/// not, and four stones always have one outside a mill), so a mill against
/// them removes nothing. (The Ravensburger files above equal the standard
/// ones.) Sector 3-3 only, as for Ravensburger above: three stones all in a
/// mill are there.
#[test]
fn ravensburger_no_flying_3_3_equals_the_plain_solver() {
    builder_matches_plain_solver(
        Variant::of(&strict_no_flying()),
        strict_no_flying(),
        &[(3, 3)],
    );
}

fn strict_no_flying() -> RuleSet {
    RuleSet {
        removal: RemovalRule::Never,
        flying: false,
        ..RuleSet::STANDARD
    }
}

/// The whole comparison, every variant from 3-3 to 4-4 (about five minutes
/// on two cores): `cargo test --profile ci -p tablebase --test integration
/// -- --ignored plain::every_variant`.
#[test]
#[ignore = "minutes: the whole comparison, run by hand"]
fn every_variant_up_to_4_4_equals_the_plain_solver() {
    let groups = [(3, 3), (3, 4), (4, 4)];
    builder_matches_plain_solver(Variant::STANDARD, RuleSet::STANDARD, &groups);
    builder_matches_plain_solver(Variant::RAVENSBURGER, RuleSet::RAVENSBURGER, &groups);
    builder_matches_plain_solver(Variant::NO_FLYING, RuleSet::NO_FLYING, &groups);
    builder_matches_plain_solver(
        Variant::of(&strict_no_flying()),
        strict_no_flying(),
        &groups,
    );
}

/// Hand-picked positions with values known without a database, in `dir`,
/// which holds the standard files up to 4-4.
fn known_values(dir: &Path) {
    build_up_to(dir, Variant::NO_FLYING, Sector::new(3, 3).unwrap());
    let strict_no_flying = Variant {
        removal: RemovalRule::Never,
        flying: false,
    };
    build_up_to(dir, strict_no_flying, Sector::new(3, 3).unwrap());
    let standard = Tablebase::new(dir, Variant::STANDARD);
    let no_flying = Tablebase::new(dir, Variant::NO_FLYING);
    let strict_no_flying = Tablebase::new(dir, strict_no_flying);
    let probe = |tb: &Tablebase, fen: &str| {
        let rules = tb.variant().rules();
        let pos = Position::from_fen(fen, rules).unwrap();
        let v = tb.probe(&pos).unwrap().expect("a moving-phase position");
        // The same stones through probe_stones.
        let us = pos.turn();
        assert_eq!(
            tb.probe_stones(pos.stones(us), pos.stones(us.other()))
                .unwrap(),
            v
        );
        v
    };
    // 4-4: White's a7 d7 g7 g4 are hemmed in by a4 d6 f4 g1: blocked.
    let blocked = "WWW/.B./.../B...BW/.../.../..B w 0 0 0 1";
    assert_eq!(probe(&standard, blocked), Value::Loss(0));
    // 4-3: g4-g7 closes a7 d7 g7 and leaves Black two stones.
    assert_eq!(
        probe(&standard, "WW./.../.../B....W/.../.B./W.B w 0 0 0 1"),
        Value::Win(1)
    );
    // 3-3: flying g1-g7 closes a7 d7 g7; without flying there is no mill in
    // one move.
    let fly = "WW./B.B/.../....../B../.../..W w 0 0 0 1";
    assert_eq!(probe(&standard, fly), Value::Win(1));
    assert_ne!(probe(&no_flying, fly), Value::Win(1));
    // 3-3: Black threatens g7 (a7 d7) and a4 (a7 a1); White has no mill in
    // one move and blocks one threat at most: loss in 2.
    let fork = "BB./.../.../.W..W./.W./.../B.. w 0 0 0 1";
    assert_eq!(probe(&standard, fork), Value::Loss(2));
    // The same position with Black to move: a mill at once.
    let fork_black = "BB./.../.../.W..W./.W./.../B.. b 0 0 0 1";
    assert_eq!(probe(&standard, fork_black), Value::Win(1));
    // Without flying White's three stones a7 d7 g7 are blocked by a4 d6 g4.
    let stuck = "WWW/.B./.../B....B/.../.../... w 0 0 0 1";
    assert_eq!(probe(&no_flying, stuck), Value::Loss(0));
    assert_ne!(probe(&standard, stuck), Value::Loss(0));
    // g4-g7 closes a7 d7 g7 against Black's mill a1 d1 g1: without flying
    // the strict rule protects it and nothing is removed.
    let protected = "WW./.../.../.....W/.../.../BBB w 0 0 0 1";
    assert_eq!(probe(&no_flying, protected), Value::Win(1));
    assert_ne!(probe(&strict_no_flying, protected), Value::Win(1));
}
