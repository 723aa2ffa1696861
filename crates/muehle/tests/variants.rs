//! The two mill games beyond the box, one test per rule (docs/RULES.md,
//! "Twelve Men's Morris" and "Lasker Morris"), and random games of each
//! checked move by move against the independent generator of tests/common.

use crate::common;

use common::{Naive, NaiveEnd, Rng};
use muehle::{
    Board, Color, EndReason, Game, Move, ParsePositionError, Phase, Position, PositionError,
    RuleSet, Setup, Square,
};

fn sq(name: &str) -> Square {
    name.parse().expect("point")
}

fn position(rules: RuleSet, white: &str, black: &str, rest: &str) -> Position {
    let mut setup: Setup = format!(".../.../.../....../.../.../... {rest}")
        .parse()
        .expect("position string");
    for (i, list) in [white, black].iter().enumerate() {
        for name in list.split_whitespace() {
            setup.stones[i] |= sq(name).bb();
        }
    }
    Position::from_setup(setup, rules).unwrap_or_else(|e| panic!("{setup}: {e}"))
}

fn moves(pos: &Position) -> Vec<String> {
    let mut v: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

/// Twelve Men's Morris (Wikipedia, "Nine men's morris", section "Twelve
/// men's morris"): each player has twelve stones.
#[test]
fn twelve_mens_morris_gives_each_side_twelve_stones() {
    let rules: RuleSet = "twelve-mens-morris".parse().expect("preset");
    assert_eq!(rules, RuleSet::TWELVE_MENS_MORRIS);
    assert_eq!(rules.stones(), 12);
    let pos = Position::new(rules);
    assert_eq!(pos.fen(), ".../.../.../....../.../.../... w 12 12 0 1");
    assert_eq!(pos.in_hand(Color::White), 12);
    // Thirteen stones are one too many; twelve are fine.
    let err = Position::from_fen(".../.../.../....../.../.../... w 13 13 0 1", rules).unwrap_err();
    assert_eq!(
        err,
        ParsePositionError::Invalid(PositionError::TooManyStonesFor {
            color: Color::White,
            count: 13,
            max: 12
        })
    );
    assert!(err.to_string().contains("at most 12"));
    assert!(
        Position::from_fen(
            ".../.../.../....../.../.../... w 12 12 0 1",
            RuleSet::STANDARD
        )
        .is_err()
    );
}

/// Twelve Men's Morris: the four diagonals joining the corners of the
/// squares are lines — a stone slides along them, and three in a row on
/// one make a mill.
#[test]
fn twelve_mens_morris_diagonals_are_lines_for_moves_and_mills() {
    let twelve = RuleSet::TWELVE_MENS_MORRIS;
    // Moving: a corner of the middle square has four neighbours.
    let pos = position(twelve, "b6 g1 g4 d1", "a1 d7 f6", "w 0 0 5 20");
    let from_b6: Vec<String> = moves(&pos)
        .into_iter()
        .filter(|m| m.starts_with("b6-"))
        .collect();
    assert_eq!(from_b6, ["b6-a7", "b6-b4", "b6-c5", "b6-d6"]);
    let nine = position(RuleSet::STANDARD, "b6 g1 g4 d1", "a1 d7 f6", "w 0 0 5 20");
    let from_b6: Vec<String> = moves(&nine)
        .into_iter()
        .filter(|m| m.starts_with("b6-"))
        .collect();
    assert_eq!(from_b6, ["b6-b4", "b6-d6"]);
    // Mills: placing c5 next to a7 and b6 closes the diagonal a7-b6-c5.
    let pos = position(twelve, "a7 b6", "g1 g4", "w 10 10 0 3");
    assert!(pos.closes_mill(Move::place(sq("c5"))));
    let nine = position(RuleSet::STANDARD, "a7 b6", "g1 g4", "w 7 7 0 3");
    assert!(!nine.closes_mill(Move::place(sq("c5"))));
    // A stone in a diagonal mill is protected like any other.
    let pos = position(twelve, "g1 g4", "a7 b6 c5 d1", "w 8 8 0 5");
    let removals: Vec<String> = moves(&pos)
        .into_iter()
        .filter(|m| m.starts_with("g7x"))
        .collect();
    assert_eq!(removals, ["g7xd1"]);
    assert_eq!(Board::TWELVE.lines().len(), 20);
}

/// Twelve Men's Morris: twelve stones each fill all 24 points when no mill
/// is closed while placing; then nobody can move and the game is drawn
/// (Wikipedia, "Nine men's morris", "Twelve men's morris"; bead.game,
/// "Twelve Men's Morris", "How to win" 2). docs/RULES.md.
#[test]
fn twelve_mens_morris_board_filled_while_placing_is_a_draw() {
    let twelve = RuleSet::TWELVE_MENS_MORRIS;
    let start =
        Position::from_fen("WBW/WBW/BWB/BWWWBW/WBB/.BW/B.B w 1 1 0 12", twelve).expect("valid");
    let mut game = Game::from_position(start);
    // Two points are empty; each side places its last stone, closing nothing.
    let quiet: Vec<Move> = game
        .position()
        .legal_moves()
        .into_iter()
        .filter(|m| !game.position().closes_mill(*m))
        .collect();
    assert!(!quiet.is_empty(), "a quiet placement exists");
    game.play(quiet[0]).expect("legal");
    let last: Vec<Move> = game
        .position()
        .legal_moves()
        .into_iter()
        .filter(|m| !game.position().closes_mill(*m))
        .collect();
    assert!(!last.is_empty(), "a quiet last placement exists");
    game.play(last[0]).expect("legal");
    let pos = game.position();
    assert_eq!(pos.empty().count(), 0, "{}", pos.fen());
    assert_eq!(pos.phase(Color::White), Phase::Moving);
    let outcome = game.session().outcome().expect("the game is over");
    assert_eq!(outcome.winner, None);
    assert_eq!(outcome.reason, EndReason::BoardFull);
    assert_eq!(
        EndReason::from_code("board-full"),
        Some(EndReason::BoardFull)
    );
    // Blocked on a board with room stays a loss.
    let blocked = position(
        twelve,
        "a7 d7 g7 a4",
        "b6 d6 f6 c5 e5 a1 b4 g4 d5",
        "w 0 0 5 20",
    );
    assert_eq!(
        blocked.outcome().map(|o| o.reason),
        Some(EndReason::Blocked)
    );
}

/// Lasker Morris (Emanuel Lasker; Wikipedia, "Nine men's morris", "Lasker
/// morris"): ten stones each.
#[test]
fn lasker_morris_gives_each_side_ten_stones() {
    let rules: RuleSet = "lasker-morris".parse().expect("preset");
    assert_eq!(rules, RuleSet::LASKER_MORRIS);
    assert_eq!(
        Position::new(rules).fen(),
        ".../.../.../....../.../.../... w 10 10 0 1"
    );
    assert_eq!(rules.to_string(), "lasker-morris");
}

/// Lasker Morris: while a player still has stones in hand, they may move a
/// stone on the board to a neighbouring point instead of placing one; the
/// hands then need not follow the turn.
#[test]
fn lasker_morris_may_move_instead_of_placing() {
    let lasker = RuleSet::LASKER_MORRIS;
    let pos = position(lasker, "d6", "f4", "w 9 9 0 2");
    let all = moves(&pos);
    assert!(all.contains(&"a1".to_string()), "placing");
    assert!(all.contains(&"d6-d7".to_string()), "moving");
    assert_eq!(all.len(), 22 + 4);
    let after = pos
        .play(Move::parse("d6-d5").expect("move"))
        .expect("legal");
    assert_eq!(
        after.in_hand(Color::White),
        9,
        "moving keeps the stone in hand"
    );
    assert_eq!(after.fen(), ".../.../.W./....B./.../.../... b 9 9 1 2");
    // Hands that do not follow the turn are a position of this game only.
    let uneven = ".../.W./.../....B./.../.../... w 8 9 0 3";
    assert!(Position::from_fen(uneven, lasker).is_ok());
    assert!(Position::from_fen(uneven, RuleSet::STANDARD).is_err());
    // In the standard game the same slide is refused with the reason.
    let nine = position(RuleSet::STANDARD, "d6", "f4", "w 8 8 0 2");
    let err = nine.play(Move::parse("d6-d7").expect("move")).unwrap_err();
    assert!(err.to_string().contains("must place"), "{err}");
    // A slide must follow a line.
    let err = pos.play(Move::parse("d6-a1").expect("move")).unwrap_err();
    assert!(err.to_string().contains("not next to"), "{err}");
    // The option stands on its own: the standard board with it.
    let custom: RuleSet = "standard,move-in-placing=on".parse().expect("rules");
    assert!(custom.move_in_placing && custom.stones() == 9);
    assert_eq!(custom.to_string(), "standard,move-in-placing=on");
    let custom: RuleSet = "standard,board=twelve".parse().expect("rules");
    assert_eq!(custom.to_string(), "twelve-mens-morris");
}

/// Random games of both games, every position compared with the naive
/// generator (moves, counts, outcome), reaching the rules that are new.
#[test]
fn variants_agree_with_the_naive_generator_in_random_games() {
    let mut rng = Rng::new(0x5EED_1210);
    for rules in [RuleSet::TWELVE_MENS_MORRIS, RuleSet::LASKER_MORRIS] {
        let mut full = 0;
        let mut slides_in_placing = 0;
        let mut diagonal_mills = 0;
        let mut positions = 0;
        for _ in 0..150 {
            let mut pos = Position::new(rules);
            let mut naive = Naive::start(common::NaiveRules::from_lib(&rules));
            for _ in 0..300 {
                positions += 1;
                assert_eq!(
                    common::lib_move_strings(&pos),
                    naive.move_strings(),
                    "{}",
                    pos.fen()
                );
                assert_eq!(
                    pos.count_legal_moves(),
                    naive.moves().len() as u64,
                    "{}",
                    pos.fen()
                );
                let lib_end = pos.outcome().map(|o| o.reason);
                let naive_end = naive.end().map(|e| match e {
                    NaiveEnd::TwoStones => EndReason::TwoStonesLeft,
                    NaiveEnd::Blocked => EndReason::Blocked,
                    NaiveEnd::NoMill => EndReason::NoMill,
                    NaiveEnd::BoardFull => EndReason::BoardFull,
                });
                assert_eq!(lib_end, naive_end, "{}", pos.fen());
                if lib_end == Some(EndReason::BoardFull) {
                    full += 1;
                }
                let ms = naive.moves();
                if ms.is_empty() {
                    break;
                }
                // Rarely close mills while placing in the twelve-stone game,
                // so that boards fill.
                let quiet: Vec<_> = ms
                    .iter()
                    .filter(|m| {
                        m.remove.is_none() || rules != RuleSet::TWELVE_MENS_MORRIS || rng.chance(3)
                    })
                    .collect();
                let m = if quiet.is_empty() {
                    ms[rng.below(ms.len())]
                } else {
                    *quiet[rng.below(quiet.len())]
                };
                let lib = Move::parse(&m.to_string()).expect("notation");
                if m.from.is_some() && pos.phase(pos.turn()) == Phase::Placing {
                    slides_in_placing += 1;
                }
                if pos.closes_mill(lib) {
                    let to = lib.to();
                    let own = pos.stones(pos.turn()) | to.bb();
                    if !Board::NINE
                        .closes_mill_at(own - lib.from().map_or(Default::default(), |f| f.bb()), to)
                    {
                        diagonal_mills += 1;
                    }
                }
                pos = pos.play(lib).expect("the naive move is legal");
                naive = naive.play(&m);
            }
        }
        assert!(positions > 10_000, "{rules}: {positions}");
        if rules == RuleSet::TWELVE_MENS_MORRIS {
            assert!(full > 0, "no game filled the board");
            assert!(diagonal_mills > 10, "{diagonal_mills} diagonal mills");
        } else {
            assert!(
                slides_in_placing > 100,
                "{slides_in_placing} slides while placing"
            );
        }
    }
}
