//! The static evaluation: symmetric, in hundredths of a man, from the side
//! to move's point of view; each feature counted as documented, the phase
//! mixing middle-game and endgame weights, and the endings that cannot be
//! won scaled towards a draw.

use dame::eval::{
    FEATURES, NAMES, Weights, centre, draw_scale, evaluate, evaluate_with, f, features, full_phase,
    linear, phase, side_counts,
};
use dame::{BoardSize, Color, Position, RuleSet};

fn pos(rules: RuleSet, fen: &str) -> Position {
    Position::from_fen(fen, rules).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The weights in use for `rules`' board without the pattern weights.
fn linear_only(rules: RuleSet) -> Weights {
    Weights {
        patterns: None,
        ..*Weights::for_rules(&rules)
    }
}

#[test]
fn the_start_is_even_on_both_boards() {
    for rules in [
        RuleSet::DAME,
        RuleSet::DAME_FR,
        RuleSet::DAME_100,
        RuleSet::INTERNATIONAL,
    ] {
        let p = Position::new(rules);
        // The linear terms are level; the pattern weights read the board
        // from the side to move, which at the start is worth a little:
        // less than half a man (8×8: −0.3, what the fit learned from the
        // self-play games, see `eval::tests::the_start_is_level`).
        assert_eq!(evaluate_with(&p, &linear_only(rules)), 0, "{rules}");
        assert!(evaluate(&p).abs() < 50, "{rules}: {}", evaluate(&p));
        assert_eq!(side_counts(&p, Color::White), side_counts(&p, Color::Black));
        assert_eq!(phase(&p), full_phase(p.size()));
    }
}

#[test]
fn scores_are_for_the_side_to_move() {
    let w = pos(RuleSet::DAME, "W:Wc3,e3:Bf6");
    let b = pos(RuleSet::DAME, "B:Wc3,e3:Bf6");
    assert!(evaluate(&w) > 0 && evaluate(&b) < 0);
    let linear = linear_only(RuleSet::DAME);
    assert_eq!(evaluate_with(&w, &linear), -evaluate_with(&b, &linear));
    assert_eq!(
        features(&w),
        features(&b).map(|x| -x),
        "each side's counts do not depend on the turn"
    );
}

#[test]
fn a_man_more_is_worth_about_a_man_and_a_king_more() {
    for rules in [RuleSet::DAME, RuleSet::INTERNATIONAL] {
        let (even, up, king) = if rules.board == BoardSize::Eight {
            ("W:Wc3:Bf6", "W:Wc3,g3:Bf6", "W:WKa1,c3:Bf6")
        } else {
            ("W:W32:B19", "W:W32,35:B19", "W:WK46,32:B19")
        };
        let even = evaluate(&pos(rules, even));
        let up = evaluate(&pos(rules, up));
        let king = evaluate(&pos(rules, king));
        assert!(up - even >= 30, "{rules}: {up} vs {even}");
        assert!(king > up, "{rules}: a king beats a man: {king} vs {up}");
    }
    for w in [
        Weights::DEFAULT,
        Weights::TUNED_8,
        Weights::TUNED_10,
        Weights::TUNED_100,
    ] {
        assert_eq!(w.mid[f::MAN], 100, "the unit");
        assert!(w.end[f::KING] > w.end[f::MAN]);
    }
}

#[test]
fn each_feature_is_counted_as_documented() {
    // 8×8 `dame`, White: men a1, c1, d4, b6; Black: men h8, g7.
    let p = pos(RuleSet::DAME, "W:Wa1,c1,d4,b6:Bh8,g7");
    let w = side_counts(&p, Color::White);
    let expect_w = [
        (f::MAN, 4),
        (f::KING, 0),
        (f::TEMPO, 3 + 5), // d4 three rows up, b6 five
        (f::CENTRE, 1),    // d4
        (f::BACK_RANK, 2), // a1, c1 while Black has men
        (f::MOBILITY, 1 + 2 + 2 + 2),
        (f::KING_MOBILITY, 0),
        (f::RUNAWAY, 1),           // b6: a7, c7, b8, d8 empty
        (f::RUNAWAY_CLOSENESS, 5), // b6 has come five rows
        (f::IMBALANCE, 4),         // all four on files a–d
        (f::BACKED, 2),            // a1, c1: the edge behind them
        (f::ADVANCED_ALONE, 1),    // b6: a5, c5 empty
        (f::ISOLATED, 4),
        (f::LOCKED, 0),
        (f::MAIN_DIAGONAL, 0),
        (f::ATTACKED, 0),
        (f::ATTACKED_TWICE, 0),
    ];
    for (i, v) in expect_w {
        assert_eq!(w[i], v, "White's {}", NAMES[i]);
    }
    let b = side_counts(&p, Color::Black);
    let expect_b = [
        (f::MAN, 2),
        (f::TEMPO, 1),     // g7 one row down from h8's row
        (f::BACK_RANK, 1), // h8
        (f::MOBILITY, 2),  // g7-f6, g7-h6; h8 is hemmed in
        (f::RUNAWAY, 0),   // d4 stands in g7's cone, g7 in h8's
        (f::IMBALANCE, 2),
        (f::BACKED, 1),   // h8
        (f::ISOLATED, 0), // g7 and h8 touch
        (f::LOCKED, 1),   // h8
    ];
    for (i, v) in expect_b {
        assert_eq!(b[i], v, "Black's {}", NAMES[i]);
    }
    assert_eq!(centre(BoardSize::Eight).count(), 4);
    assert_eq!(centre(BoardSize::Ten).count(), 6);
}

#[test]
fn kings_count_their_moves_and_the_main_diagonal() {
    // 10×10: a white king on 46 (a1) sees the whole empty long diagonal
    // but for the black man on 5 at its end, and 41 (b2... along the other
    // diagonal a1 has none).
    let p = pos(RuleSet::INTERNATIONAL, "W:WK46:B5");
    let w = side_counts(&p, Color::White);
    assert_eq!(w[f::MAIN_DIAGONAL], 1);
    assert_eq!(w[f::KING_MOBILITY], 8, "41, 37, 32, 28, 23, 19, 14, 10");
}

#[test]
fn pieces_the_opponent_can_jump_are_attacked() {
    // 8×8 `dame`: Black's man on e5 next to White's d4 with f6 empty.
    let p = pos(RuleSet::DAME, "B:Wd4,c3:Be5,h8");
    assert_eq!(side_counts(&p, Color::Black)[f::ATTACKED], 1);
    assert_eq!(
        side_counts(&p, Color::White)[f::ATTACKED],
        0,
        "c3 covers d4"
    );
    // Two black men hanging: the double threat counts once more.
    let p = pos(RuleSet::DAME, "B:Wd4,f4,c3,g3:Be5,h8");
    let b = side_counts(&p, Color::Black);
    assert_eq!(b[f::ATTACKED], 1, "one man, attacked twice, counts once");
    let p = pos(RuleSet::DAME, "B:Wd4,h4,c3,g3:Be5,g5,h8");
    let b = side_counts(&p, Color::Black);
    assert_eq!((b[f::ATTACKED], b[f::ATTACKED_TWICE]), (2, 1));
    // Men capture backward in `dame-fr` only.
    let back = "B:Wd4:Bc3,h8";
    assert_eq!(
        side_counts(&pos(RuleSet::DAME, back), Color::Black)[f::ATTACKED],
        0
    );
    assert_eq!(
        side_counts(&pos(RuleSet::DAME_FR, back), Color::Black)[f::ATTACKED],
        1
    );
    // A flying king attacks from afar; under `king-capture=short` (004 IT)
    // only the piece next to it.
    let far = "B:WKa1:Bd4,h8";
    let short: RuleSet = "dame,king-capture=short".parse().expect("rules");
    assert_eq!(
        side_counts(&pos(RuleSet::DAME, far), Color::Black)[f::ATTACKED],
        1
    );
    assert_eq!(side_counts(&pos(short, far), Color::Black)[f::ATTACKED], 0);
    let near = "B:WKc3:Bd4,h8";
    assert_eq!(side_counts(&pos(short, near), Color::Black)[f::ATTACKED], 1);
}

#[test]
fn the_phase_mixes_middle_game_and_endgame_weights() {
    let mut w = Weights {
        mid: [0; FEATURES],
        end: [0; FEATURES],
        patterns: None,
    };
    w.mid[f::KING] = 100;
    w.end[f::KING] = 300;
    let mut feats = [0; FEATURES];
    feats[f::KING] = 1;
    assert_eq!(linear(&feats, 24, 24, &w), 100);
    assert_eq!(linear(&feats, 0, 24, &w), 300);
    assert_eq!(linear(&feats, 12, 24, &w), 200);
    // A lone king against a king and a man: the evaluation is scaled.
    let p = pos(RuleSet::INTERNATIONAL, "W:WK46,32:BK5");
    assert_eq!(draw_scale(&p, true), 1);
    assert!(evaluate(&p).abs() <= 30, "{}", evaluate(&p));
    // Two kings against one: the raw score is cut to a sixteenth.
    let p = pos(RuleSet::INTERNATIONAL, "W:WK46,K32:BK5");
    let raw = linear(&features(&p), phase(&p), 40, &w);
    assert_eq!(raw, (100 * 3 + 300 * 37) / 40);
    assert_eq!(evaluate_with(&p, &w), raw / 16);
}

/// `rules` is evaluated with `own`, and `other` (the preset of the same
/// board whose men capture in the other directions) with `theirs`; the two
/// tables differ, so the same men on `fen` are judged by each game's own.
fn judged_by_weights_of_its_own(
    rules: RuleSet,
    own: &'static Weights,
    other: RuleSet,
    theirs: &'static Weights,
    fen: &str,
) {
    let p = pos(rules, fen);
    assert_eq!(evaluate(&p), evaluate_with(&p, own));
    assert_eq!(Weights::for_rules(&rules), own);
    assert_eq!(Weights::for_rules(&other), theirs);
    assert_ne!(own.patterns, theirs.patterns);
    assert_ne!(
        evaluate_with(&p, own),
        evaluate_with(&pos(other, fen), theirs)
    );
}

/// `dame-100` (10×10, men capture forward only, no majority rule) has
/// weights of its own, fitted to its games; `international` keeps the
/// 10×10 ones. A rule set is judged by its board and whether men capture
/// backward.
#[test]
fn dame_100_evaluates_with_weights_of_its_own() {
    judged_by_weights_of_its_own(
        RuleSet::DAME_100,
        &Weights::TUNED_100,
        RuleSet::INTERNATIONAL,
        &Weights::TUNED_10,
        "W:W31,32,33,28,36,37:B19,20,24,13,14",
    );
    let backward: RuleSet = "dame-100,men-capture-backward=on".parse().unwrap();
    assert_eq!(Weights::for_rules(&backward), &Weights::TUNED_10);
}

/// `dame-fr` (8×8, men capture backward too) has weights of its own,
/// fitted to its games; `dame` (men capture forward only) keeps the 8×8
/// ones.
#[test]
fn dame_fr_evaluates_with_weights_of_its_own() {
    judged_by_weights_of_its_own(
        RuleSet::DAME_FR,
        &Weights::TUNED_FR,
        RuleSet::DAME,
        &Weights::TUNED_8,
        "W:Wa1,c1,d4,b6,c3,e3:Bh8,g7,f6,d6,e5",
    );
    let forward: RuleSet = "dame-fr,men-capture-backward=off".parse().unwrap();
    assert_eq!(Weights::for_rules(&forward), &Weights::TUNED_8);
    let backward: RuleSet = "dame,men-capture-backward=on".parse().unwrap();
    assert_eq!(Weights::for_rules(&backward), &Weights::TUNED_FR);
}

#[test]
fn the_engine_evaluates_with_the_tuned_weights_of_its_board() {
    let p8 = pos(RuleSet::DAME, "W:Wa1,c1,d4,b6:Bh8,g7");
    assert_eq!(evaluate(&p8), evaluate_with(&p8, &Weights::TUNED_8));
    let p10 = pos(RuleSet::INTERNATIONAL, "W:W31,32,33,28:B19,20,24");
    assert_eq!(evaluate(&p10), evaluate_with(&p10, &Weights::TUNED_10));
    assert_ne!(Weights::TUNED_8, Weights::DEFAULT);
    assert_ne!(
        evaluate_with(&p10, &Weights::TUNED_10),
        evaluate_with(&p10, &Weights::DEFAULT)
    );
}
