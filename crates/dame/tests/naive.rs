//! The library's move generator and perft against the naive generator of
//! `tests/common` (written from RULES.md alone), and the perft data file
//! `tests/perft.txt`.

use crate::common;

use common::{Naive, NaiveRules, Rng, lib_key, lib_keys, perft_cases, random_position};
use dame::perft::{perft, perft_divide};
use dame::{Position, RuleSet};

/// Rule sets the random tests run under: the four presets and custom ones
/// that combine the options differently.
fn rule_sets() -> Vec<RuleSet> {
    let custom = [
        "dame,huffing=on",
        "international,huffing=on",
        "dame-100,king-landing=anywhere",
        "dame,men-capture-backward=on,promotion=end-of-move",
        "dame-fr,majority=on",
        "international,promotion=immediate",
        "dame,king-moves=4",
        "dame-100,men-capture-backward=on,king-landing=anywhere",
        "dame,one-king-each=off,king-vs-three=6,king-vs-two=3",
        "dame,king-capture=short",
        "dame-fr,king-capture=short,huffing=on",
        "international,king-capture=short",
        "dame-100,king-capture=short,king-landing=anywhere",
    ];
    dame::PRESETS
        .into_iter()
        .chain(custom)
        .map(|s| s.parse().expect("rule set"))
        .collect()
}

/// Compare everything the naive generator knows about a position with the
/// library: the set of moves (start, end, captured set), that every library
/// path is a real capture path, the bulk count, and the capturing pieces.
fn compare(pos: &Position, context: &str) {
    let naive = Naive::from_position(pos);
    let lib = lib_keys(pos);
    let want = naive.move_keys();
    assert_eq!(
        lib,
        want,
        "{context}: moves differ in {} under {}\nlibrary only: {:?}\nnaive only: {:?}",
        pos.fen(),
        pos.rules(),
        lib.difference(&want).collect::<Vec<_>>(),
        want.difference(&lib).collect::<Vec<_>>()
    );
    let moves = pos.legal_moves();
    assert_eq!(
        moves.len(),
        lib.len(),
        "{context}: duplicate moves in {}",
        pos.fen()
    );
    assert_eq!(
        pos.count_legal_moves(),
        moves.len() as u64,
        "{context}: bulk count in {}",
        pos.fen()
    );
    let paths = naive.paths_by_key();
    for m in &moves {
        if m.is_capture() {
            let real = paths.get(&lib_key(m)).expect("a capture has paths");
            assert!(
                real.contains(&m.to_string()),
                "{context}: {m} is not a real capture path in {} (paths: {real:?})",
                pos.fen()
            );
        }
    }
    let lib_capturing: std::collections::BTreeSet<String> = pos
        .capturing_pieces()
        .squares(pos.size())
        .map(|s| s.to_string())
        .collect();
    if !naive.ended_without_moves() {
        assert_eq!(
            lib_capturing,
            naive.capturing_squares(),
            "{context}: capturing pieces in {}",
            pos.fen()
        );
    }
}

/// Random positions (many kings, crowded boards) for every rule set.
#[test]
fn random_positions_agree_with_the_naive_generator_for_every_rule_set() {
    let mut rng = Rng::new(2024);
    for rules in rule_sets() {
        let max_each = rules.board.men_per_side() as usize;
        for i in 0..400 {
            let king_percent = [0, 10, 30, 70][i % 4];
            let pos = random_position(rules, &mut rng, max_each, king_percent);
            compare(&pos, &format!("{rules} random position {i}"));
        }
    }
}

/// Random games from the start for every rule set, compared at every ply,
/// and perft(2) compared at some plies.
#[test]
fn random_games_agree_with_the_naive_generator_for_every_rule_set() {
    let mut rng = Rng::new(7);
    for rules in rule_sets() {
        for game in 0..12 {
            let mut pos = Position::new(rules);
            for ply in 0..200 {
                let context = format!("{rules} game {game} ply {ply}");
                compare(&pos, &context);
                if ply % 17 == 0 {
                    let naive = Naive::from_position(&pos);
                    assert_eq!(perft(&pos, 2), naive.perft(2), "{context}: perft 2");
                }
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.below(moves.len())];
                pos.play_unchecked(&m);
                assert_eq!(pos.hash(), pos.compute_hash(), "{context}: hash");
            }
        }
    }
}

/// Random endings of a few pieces (where the FMJD 16- and 5-move rules and
/// the one-king-each rule apply), with a random ending counter, played out
/// on both sides: the library and the naive generator, which keeps the plies
/// left instead of the library's counter, agree at every ply, perft(2) and
/// perft(3) included.
#[test]
fn random_endings_agree_with_the_naive_generator() {
    let mut rng = Rng::new(16);
    for rules in [
        "international",
        "dame,one-king-each=off,king-vs-three=6,king-vs-two=3",
        "dame-fr,king-vs-two=4",
    ] {
        let rules: RuleSet = rules.parse().expect("rule set");
        for game in 0..150 {
            let start = random_position(rules, &mut rng, 3, 60);
            let mut setup = start.to_setup();
            setup.ending_plies = rng.below(12) as u16;
            let mut pos = Position::from_setup(setup, rules).expect("valid");
            let mut naive = Naive::from_position(&pos);
            let mut trail = vec![pos.fen()];
            for ply in 0..40 {
                let context = format!("{rules} ending {game} ply {ply}");
                compare(&pos, &context);
                assert_eq!(
                    Naive::from_position(&pos).ended_without_moves(),
                    naive.ended_without_moves(),
                    "{context}: the naive game and position disagree in {} (naive left {:?}) {}",
                    pos.fen(),
                    naive.ending_plies_left,
                    trail.join(" ")
                );
                if ply % 5 == 0 {
                    assert_eq!(perft(&pos, 2), naive.perft(2), "{context}: perft 2");
                    assert_eq!(perft(&pos, 3), naive.perft(3), "{context}: perft 3");
                }
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.below(moves.len())];
                let key = lib_key(&m);
                let nm = naive
                    .moves()
                    .into_iter()
                    .find(|n| n.key(naive.rules.n) == key)
                    .expect("the naive generator has the move");
                naive = naive.play(&nm);
                pos.play_unchecked(&m);
                trail.push(format!("{m} {} {:?}", pos.fen(), naive.ending_plies_left));
            }
        }
    }
}

/// The naive generator reproduces the reference counts of RULES.md at the
/// depths it can reach quickly.
#[test]
fn naive_generator_reproduces_the_reference_counts() {
    let cases: [(&str, &[u64]); 3] = [
        ("dame", &[7, 49, 302, 1469, 7361, 36768]),
        ("dame-100", &[9, 81, 658, 4265, 26875]),
        ("international", &[9, 81, 658, 4265, 27117]),
    ];
    for (rules, counts) in cases {
        let rules: RuleSet = rules.parse().expect("preset");
        let naive = Naive::start(NaiveRules::from_lib(&rules));
        for (d, &want) in counts.iter().enumerate() {
            assert_eq!(naive.perft(d as u32 + 1), want, "{rules} depth {}", d + 1);
        }
    }
}

/// Option `king-capture=short` (004 IT: "la dama deve trovarsi direttamente
/// dietro alla pedina che vuole «mangiare»"): perft of positions with kings
/// differs between the short and the flying (long) king capture, and the
/// library's counts under both equal the naive generator's brute force.
#[test]
fn italian_short_king_capture_perft_differs_from_long_and_matches_the_naive_generator() {
    let cases: [(&str, &str, u32, u64, u64); 4] = [
        // rules, FEN, depth, perft long, perft short
        (
            "dame",
            "W:WKa1,Kh2,c3,e3,g3,b4:Bb6,d6,f6,Kd8,Kg7,a7",
            4,
            3_886,
            4_898,
        ),
        (
            "dame",
            "B:Wa1,c1,e1,b2,d2,c3,e3,d4,f4,Kh6:Bb6,d6,f6,a7,c7,e7,g7,Kb8",
            5,
            745,
            962,
        ),
        (
            "dame-100",
            "W:WK3,K26,K40,29,33,38,44:BK8,K46,12,17,18,23,24,35",
            4,
            1_067,
            1_483,
        ),
        (
            "international",
            "W:WK47:B7,9,11,18,20,29,31,33,40",
            4,
            2_347,
            2_705,
        ),
    ];
    for (rules, fen, depth, long, short) in cases {
        let long_rules: RuleSet = rules.parse().expect("preset");
        let short_rules: RuleSet = format!("{rules},king-capture=short")
            .parse()
            .expect("rules");
        for (r, want) in [(long_rules, long), (short_rules, short)] {
            let pos = Position::from_fen(fen, r).expect("fen");
            assert_eq!(perft(&pos, depth), want, "{r} {fen} depth {depth}");
            let naive = Naive::from_position(&pos);
            assert_eq!(naive.perft(depth), want, "naive: {r} {fen} depth {depth}");
        }
    }
}

/// Counts up to this are also checked with the naive generator.
fn naive_limit() -> u64 {
    std::env::var("DAME_NAIVE_PERFT_MAX")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(60_000)
}

fn check_case(case: &common::PerftCase, deep: bool) {
    let pos = Position::from_fen(&case.fen, case.rules)
        .unwrap_or_else(|e| panic!("perft.txt line {}: {e}", case.line));
    for &(depth, want, is_deep) in &case.counts {
        if is_deep != deep {
            continue;
        }
        assert_eq!(
            perft(&pos, depth),
            want,
            "perft.txt line {}: {} {} depth {depth}",
            case.line,
            case.rules,
            case.fen
        );
        if !deep && want <= naive_limit() {
            let naive = Naive::from_position(&pos);
            assert_eq!(
                naive.perft(depth),
                want,
                "perft.txt line {}: naive generator, depth {depth}",
                case.line
            );
        }
    }
}

/// Every count of tests/perft.txt not marked `deep` (the shallow ones
/// also against the naive generator).
#[test]
fn perft_data_file() {
    let cases = perft_cases();
    assert!(cases.len() >= 10, "perft.txt has its cases");
    for case in &cases {
        check_case(case, false);
    }
}

/// The counts of tests/perft.txt marked `deep` (minutes in release mode:
/// `cargo test -p dame --release -- --ignored`).
#[test]
#[ignore]
fn perft_data_file_deep() {
    for case in &perft_cases() {
        check_case(case, true);
    }
}

/// perft_divide adds up to perft and lists every legal move once.
#[test]
fn perft_divide_sums_to_perft() {
    for rules in ["dame", "international"] {
        let rules: RuleSet = rules.parse().expect("preset");
        let pos = Position::new(rules);
        let divide = perft_divide(&pos, 4);
        assert_eq!(divide.len(), pos.legal_moves().len());
        assert_eq!(divide.iter().map(|(_, n)| n).sum::<u64>(), perft(&pos, 4));
    }
}
