//! The static evaluation: symmetric, in hundredths of a man, from the side
//! to move's point of view; each term measured as documented.

use dame::eval::{Terms, Weights, centre, evaluate, evaluate_with};
use dame::{BoardSize, Color, Position, RuleSet};

fn pos(rules: RuleSet, fen: &str) -> Position {
    Position::from_fen(fen, rules).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

#[test]
fn the_start_is_even_on_both_boards() {
    for rules in [RuleSet::DAME, RuleSet::DAME_100, RuleSet::INTERNATIONAL] {
        let p = Position::new(rules);
        assert_eq!(evaluate(&p), 0, "{rules}");
        assert_eq!(
            Terms::measure(&p, Color::White),
            Terms::measure(&p, Color::Black)
        );
    }
}

#[test]
fn scores_are_for_the_side_to_move() {
    let w = pos(RuleSet::DAME, "W:Wc3,e3:Bf6");
    let b = pos(RuleSet::DAME, "B:Wc3,e3:Bf6");
    assert!(evaluate(&w) > 0);
    assert_eq!(evaluate(&w), -evaluate(&b));
}

#[test]
fn material_counts_about_a_hundred_a_man_and_more_for_a_king() {
    let even = pos(RuleSet::DAME, "W:Wc3:Bf6");
    let up = pos(RuleSet::DAME, "W:Wc3,g3:Bf6");
    let diff = evaluate(&up) - evaluate(&even);
    assert!((80..=140).contains(&diff), "{diff}");
    let w = Weights::DEFAULT;
    assert_eq!(w.man, 100);
    assert!(w.king > 2 * w.man);
    let t = Terms::measure(&pos(RuleSet::DAME, "W:WKa1,c3:Bf6"), Color::White);
    assert_eq!((t.men, t.kings), (1, 1));
}

#[test]
fn terms_measure_tempo_centre_back_rank_mobility_and_runaways() {
    let p = pos(RuleSet::DAME, "W:Wa1,c1,d4,b6:Bh8,g7");
    let t = Terms::measure(&p, Color::White);
    assert_eq!(t.tempo, 3 + 5, "d4 is three rows up, b6 five");
    assert_eq!(t.back_rank, 2, "a1 and c1 guard while Black has men");
    assert_eq!(t.centre, 1, "d4");
    assert_eq!(t.mobility, 1 + 2 + 2 + 2, "a1-b2; c1, d4 and b6 two each");
    assert_eq!(t.runaways, 1, "b6: a7, c7, b8, d8 are empty");
    let black = Terms::measure(&p, Color::Black);
    assert_eq!(
        black.runaways, 0,
        "d4 stands in the cone of g7, g7 in that of h8"
    );
    assert_eq!(centre(BoardSize::Eight).count(), 4);
    assert_eq!(centre(BoardSize::Ten).count(), 6);
}

#[test]
fn custom_weights_change_the_score() {
    let p = pos(RuleSet::DAME, "W:Wc3,e3:Bf6");
    let zero = Weights {
        man: 0,
        king: 0,
        tempo: 0,
        centre: 0,
        back_rank: 0,
        mobility: 0,
        runaway: 0,
        runaway_closeness: 0,
    };
    assert_eq!(evaluate_with(&p, &zero), 0);
    let only_men = Weights { man: 100, ..zero };
    assert_eq!(evaluate_with(&p, &only_men), 100);
}

#[test]
fn the_engine_evaluates_with_the_tuned_weights() {
    assert_eq!(Weights::default(), Weights::TUNED);
    assert_eq!(Weights::TUNED.man, 100, "the unit is not tuned");
    let p = pos(RuleSet::DAME, "W:Wa1,c1,d4,b6:Bh8,g7");
    assert_eq!(evaluate(&p), evaluate_with(&p, &Weights::TUNED));
    if Weights::TUNED != Weights::DEFAULT {
        assert_ne!(
            evaluate_with(&p, &Weights::TUNED),
            evaluate_with(&p, &Weights::DEFAULT),
            "the terms that changed show in this position"
        );
    }
}
