//! One test per rule of RULES.md Part 1 (Mühle), each citing its seed
//! documents in `shared/seeds/` (000 … 004).

use std::collections::BTreeSet;

use muehle::{
    Bitboard, Color, EndReason, Game, GameError, Move, MoveError, ParseMoveError,
    ParsePositionError, ParseRulesError, Phase, Position, PositionError, RecordError, RemovalRule,
    RuleSet, STONES_PER_SIDE, Setup, Square, join_removal_tokens,
};

const START: &str = ".../.../.../....../.../.../... w 9 9 0 1";

/// A position from lists of white and black points and the rest of the
/// position string (`<side> <white in hand> <black in hand> <plies> <move>`).
fn position(rules: &str, white: &str, black: &str, rest: &str) -> Position {
    let mut setup: Setup = format!(".../.../.../....../.../.../... {rest}")
        .parse()
        .expect("position string");
    for (i, list) in [white, black].iter().enumerate() {
        for name in list.split_whitespace() {
            setup.stones[i] |= name.parse::<Square>().expect("point").bb();
        }
    }
    let rules: RuleSet = rules.parse().expect("rules");
    Position::from_setup(setup, rules).unwrap_or_else(|e| panic!("{setup}: {e}"))
}

fn sq(name: &str) -> Square {
    name.parse().expect("point")
}

fn bb(names: &str) -> Bitboard {
    names.split_whitespace().map(sq).collect()
}

fn moves(pos: &Position) -> BTreeSet<String> {
    pos.legal_moves().iter().map(|m| m.to_string()).collect()
}

fn set(list: &[&str]) -> BTreeSet<String> {
    list.iter().map(|s| s.to_string()).collect()
}

fn mv(text: &str) -> Move {
    text.parse().expect("move")
}

fn play(pos: &Position, text: &str) -> Position {
    pos.play(mv(text))
        .unwrap_or_else(|e| panic!("{text} in {pos}: {e}"))
}

fn play_all(game: &mut Game, moves: &str) {
    for m in moves.split_whitespace() {
        game.play_str(m)
            .unwrap_or_else(|e| panic!("{m} in {}: {e}", game.position()));
    }
}

fn is_illegal(pos: &Position, text: &str) -> bool {
    matches!(pos.check_move(mv(text)), Err(MoveError::Illegal { .. }))
}

// ---------------------------------------------------------------------------
// Board and names

/// RULES.md "Board and names": 24 points, named like chess squares; the
/// position string lists them row by row from the top. 000: "Mit dieser
/// raffinierten Konstruktion entstehen bei jedem Quadrat acht Schnittpunkten."
#[test]
fn the_board_has_24_points_named_like_chess_squares() {
    let names: BTreeSet<&str> = Square::ALL.iter().map(|s| s.name()).collect();
    let expected: BTreeSet<&str> =
        "a7 d7 g7 b6 d6 f6 c5 d5 e5 a4 b4 c4 e4 f4 g4 c3 d3 e3 b2 d2 f2 a1 d1 g1"
            .split_whitespace()
            .collect();
    assert_eq!(names, expected);
    for s in Square::ALL {
        assert_eq!(s.name().parse::<Square>(), Ok(s));
        assert_eq!(Square::from_coords(s.file(), s.rank()), Some(s));
    }
    for bad in ["d4", "a2", "h1", "a8", "e6", "", "d", "d44"] {
        assert!(bad.parse::<Square>().is_err(), "{bad}");
    }
}

/// RULES.md: "Adjacency is along the drawn lines only." 003: "There are four
/// places on the board with 4 neighbouring places (in the middle ring)."
#[test]
fn adjacency_is_along_the_drawn_lines_only() {
    let expected = [
        ("a7", "d7 a4"),
        ("d7", "a7 g7 d6"),
        ("g7", "d7 g4"),
        ("b6", "d6 b4"),
        ("d6", "b6 f6 d7 d5"),
        ("f6", "d6 f4"),
        ("c5", "d5 c4"),
        ("d5", "c5 e5 d6"),
        ("e5", "d5 e4"),
        ("a4", "a7 a1 b4"),
        ("b4", "a4 c4 b6 b2"),
        ("c4", "b4 c5 c3"),
        ("e4", "f4 e5 e3"),
        ("f4", "e4 g4 f6 f2"),
        ("g4", "f4 g7 g1"),
        ("c3", "c4 d3"),
        ("d3", "c3 e3 d2"),
        ("e3", "d3 e4"),
        ("b2", "b4 d2"),
        ("d2", "b2 f2 d3 d1"),
        ("f2", "d2 f4"),
        ("a1", "a4 d1"),
        ("d1", "a1 g1 d2"),
        ("g1", "d1 g4"),
    ];
    for (p, n) in expected {
        assert_eq!(sq(p).neighbours(), bb(n), "neighbours of {p}");
    }
    let four: Vec<&str> = Square::ALL
        .iter()
        .filter(|s| s.neighbours().count() == 4)
        .map(|s| s.name())
        .collect();
    assert_eq!(four.len(), 4);
    assert!(["b4", "d6", "f4", "d2"].iter().all(|p| four.contains(p)));
}

/// RULES.md lists the 16 mills; 000: "Dies gilt sowohl für vertikale, als
/// auch für horizontale Geraden." No other three points form a mill.
#[test]
fn the_sixteen_mills_of_rules_md_and_no_others() {
    let listed: BTreeSet<Bitboard> = "a7-d7-g7 b6-d6-f6 c5-d5-e5 a4-b4-c4 e4-f4-g4 c3-d3-e3 b2-d2-f2 a1-d1-g1 a1-a4-a7 b2-b4-b6 c3-c4-c5 d1-d2-d3 d5-d6-d7 e3-e4-e5 f2-f4-f6 g1-g4-g7"
        .split_whitespace()
        .map(|m| m.split('-').map(sq).collect())
        .collect();
    assert_eq!(listed.len(), 16);
    let mut found = 0;
    for a in 0..24u8 {
        for b in a + 1..24 {
            for c in b + 1..24 {
                let three: Bitboard = [a, b, c]
                    .iter()
                    .map(|&i| Square::new(i).expect("index"))
                    .collect();
                let is_mill = three.in_mills() == three;
                assert_eq!(is_mill, listed.contains(&three), "{three:?}");
                found += usize::from(is_mill);
            }
        }
    }
    assert_eq!(found, 16);
}

/// 001: "Sind drei Spielsteine über Eck verbunden, gilt dies nicht als
/// Mühle (Abb.3)." Nor are three stones across the centre (d3-d5, c4-e4).
#[test]
fn three_in_a_row_around_a_corner_is_not_a_mill() {
    let pos = position("standard", "a4 a7 d3 d2 c4", "b2 f2 g7 e5 c5", "w 4 4 0 6");
    // a4-a7-d7 turns the corner at a7: d7 removes nothing.
    assert!(!pos.closes_mill(mv("d7")));
    assert!(moves(&pos).contains("d7"));
    assert!(is_illegal(&pos, "d7xb2"));
    // d2-d3-d5 and c4-…-e4 cross the empty centre: no line there.
    assert!(!pos.closes_mill(mv("d5")));
    assert!(moves(&pos).contains("d5"));
    assert!(!pos.closes_mill(mv("e4")));
    // but d1 completes the straight line d1-d2-d3
    assert!(pos.closes_mill(mv("d1")));
    assert!(!moves(&pos).contains("d1"));
    assert!(moves(&pos).contains("d1xb2"));
    let after = play(&play(&pos, "d7"), "g1");
    assert!(after.stones(Color::White).in_mills().is_empty());
}

// ---------------------------------------------------------------------------
// Players and start

/// 000: "Traditionell beginnt der Spieler, der die weissen Spielsteine hat."
/// 001: "der mit den weißen Spielsteinen fängt an". 004: "Abwechselnd,
/// beginnend mit Weiß".
#[test]
fn white_moves_first() {
    for name in muehle::PRESETS {
        let pos = Position::new(RuleSet::preset(name).expect("preset"));
        assert_eq!(pos.turn(), Color::White);
        assert_eq!(pos.phase(Color::White), Phase::Placing);
        let after = play(&pos, "d6");
        assert_eq!(after.turn(), Color::Black);
        assert_eq!(after.stone_at(sq("d6")), Some(Color::White));
    }
    assert_eq!(Game::default().position().turn(), Color::White);
}

/// 000: "Beide Spieler besitzen zu Beginn neun Spielsteine"; 001: "9 schwarze
/// und 9 weiße Spielsteine"; 004: "Jeder Spieler nimmt neun Steine".
#[test]
fn nine_stones_each_all_in_hand_at_the_start() {
    let pos = Position::default();
    assert_eq!(STONES_PER_SIDE, 9);
    for c in Color::ALL {
        assert_eq!(pos.in_hand(c), 9);
        assert_eq!(pos.stones(c), Bitboard::EMPTY);
        assert_eq!(pos.material(c), 9);
    }
    assert_eq!(pos.fen(), START);
    assert_eq!(pos.move_number(), 1);
    assert_eq!(pos.plies_since_mill(), 0);
}

// ---------------------------------------------------------------------------
// A turn

/// 000 Setzphase: "legen die beiden Spieler ihre Spielsteine abwechselnd auf
/// das zunächst leere Spielbrett"; 002: "auf einen freien Schnittpunkt";
/// 004: "auf einen beliebigen freien Punkt".
#[test]
fn placing_puts_a_stone_on_any_empty_point() {
    let start = Position::default();
    let all: BTreeSet<String> = Square::ALL.iter().map(|s| s.to_string()).collect();
    assert_eq!(moves(&start), all);
    let pos = play(&play(&start, "d6"), "f4");
    assert_eq!(moves(&pos).len(), 22);
    assert!(!moves(&pos).contains("d6") && !moves(&pos).contains("f4"));
    assert!(is_illegal(&pos, "d6"));
    assert!(is_illegal(&pos, "f4"));
    // with stones in hand, no stone on the board may move
    assert!(is_illegal(&pos, "d6-d7"));
    assert_eq!(pos.in_hand(Color::White), 8);
    assert_eq!(pos.in_hand(Color::Black), 8);
}

/// RULES.md: "Both players place alternately until all 18 stones are placed
/// (Black places last)"; 003: "This phase ends when every player has placed
/// his 9 stones"; phases are per player (003).
#[test]
fn placing_alternates_until_all_eighteen_are_placed_black_last() {
    let mut pos = Position::default();
    for ply in 0..18 {
        let turn = if ply % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        assert_eq!(pos.turn(), turn);
        assert_eq!(pos.phase(turn), Phase::Placing, "ply {ply}");
        let m = pos
            .legal_moves()
            .into_iter()
            .find(|&m| !pos.closes_mill(m))
            .expect("a quiet placement");
        assert!(m.is_place());
        pos = pos.play(m).expect("legal");
        if ply == 16 {
            // White has placed all nine and moves; Black still places its last.
            assert_eq!(pos.phase(Color::White), Phase::Moving);
            assert_eq!(pos.phase(Color::Black), Phase::Placing);
            assert_eq!(pos.fen().split(' ').nth(2), Some("0"));
            assert_eq!(pos.fen().split(' ').nth(3), Some("1"));
        }
    }
    assert_eq!(pos.turn(), Color::White);
    assert_eq!(pos.occupied().count(), 18);
    assert_eq!(pos.phase(Color::White), Phase::Moving);
    assert_eq!(pos.phase(Color::Black), Phase::Moving);
    assert_eq!(pos.move_number(), 10);
    assert!(pos.legal_moves().iter().all(|m| !m.is_place()));
}

/// 000 Zugphase: "von einem Schnittpunkt zu einem benachbarten zu ziehen.
/// Allerdings müssen die Schnittpunkte … frei von anderen Spielsteinen sein";
/// 002: "entlang der Verbindungslinien zu einem benachbarten freien
/// Schnittpunkt"; 003: "move one of your stones to an adjacent free place
/// (along a line)".
#[test]
fn sliding_only_along_lines_to_adjacent_empty_point() {
    let pos = position("standard", "d6 a7 c4 g1", "d7 e4 a1 f2", "w 0 0 0 20");
    assert_eq!(pos.phase(Color::White), Phase::Moving);
    assert_eq!(
        moves(&pos),
        set(&[
            "d6-b6", "d6-f6", "d6-d5", "a7-a4", "c4-c5", "c4-c3", "c4-b4", "g1-g4", "g1-d1"
        ])
    );
    for bad in [
        "g1-g7", "c4-d3", "c4-e4", "d6-d7", "a7-d7", "a7-b6", "d6-d4",
    ] {
        if let Ok(m) = bad.parse::<Move>() {
            assert!(pos.check_move(m).is_err(), "{bad}");
        }
    }
    assert!(is_illegal(&pos, "d5-d6"), "no stone on d5");
    assert!(is_illegal(&pos, "e4-e5"), "not White's stone");
    assert!(is_illegal(&pos, "d5"), "no stones in hand: no placement");
}

/// 000: "Die Endphase beginnt für einen Spieler, sobald er nur noch drei
/// Spielsteine … hat. Er darf nun seine Spielsteine von einem beliebigen
/// Schnittpunkt zu einem freien anderen bewegen"; 001, 003 ("to any place on
/// the board"), 004 ("Er kann einen Stein auf jeden freien Punkt setzen").
#[test]
fn flying_with_three_stones_to_any_empty_point() {
    let pos = position("standard", "a7 d5 g1", "b6 f6 c3 e3 d2", "w 0 0 0 30");
    assert_eq!(pos.phase(Color::White), Phase::Flying);
    let empties = pos.empty().count() as usize;
    assert_eq!(empties, 16);
    let list = pos.legal_moves();
    assert_eq!(list.len(), 3 * empties);
    for from in ["a7", "d5", "g1"] {
        for to in pos.empty() {
            assert!(list.contains(&Move::slide(sq(from), to)), "{from}-{to}");
        }
    }
    assert!(moves(&pos).contains("a7-e4"));
    assert!(is_illegal(&pos, "a7-b6"), "only to empty points");
}

/// 003: "The third phase starts when a player has only 3 stones left. That
/// player is allowed to move his stones to any place … When both players
/// have 3 stones left, both of them may do so."
#[test]
fn only_the_side_with_three_stones_flies() {
    let pos = position("standard", "a7 d5 g1", "b6 f6 c3 e3 d2", "w 0 0 0 30");
    assert_eq!(pos.phase(Color::White), Phase::Flying);
    assert_eq!(pos.phase(Color::Black), Phase::Moving);
    let after = play(&pos, "a7-e4");
    for m in after.legal_moves() {
        let from = m.from().expect("a slide");
        assert!(from.neighbours().contains(m.to()), "Black flies: {m}");
    }
    assert!(is_illegal(&after, "b6-a7"));
    // Both with three: both fly.
    let both = position("standard", "a7 d5 g1", "b6 f6 c3", "w 0 0 0 30");
    assert_eq!(both.phase(Color::White), Phase::Flying);
    assert_eq!(both.phase(Color::Black), Phase::Flying);
    let after = play(&both, "a7-e4");
    assert!(moves(&after).contains("b6-a7"));
    // Three stones with stones still in hand: placing, not flying.
    let placing = position("standard", "a7 d5 g1", "b6 f6 c3 e3", "w 2 2 0 8");
    assert_eq!(placing.phase(Color::White), Phase::Placing);
}

/// 002: "Phase 3: Springphase (optional)" — the `no-flying` preset: three
/// stones slide like the others (and can be blocked).
#[test]
fn no_flying_preset_three_stones_slide() {
    let pos = position("no-flying", "a7 d5 g1", "b6 f6 c3 e3 d2", "w 0 0 0 30");
    assert_eq!(pos.phase(Color::White), Phase::Moving);
    assert_eq!(
        moves(&pos),
        set(&[
            "a7-d7", "a7-a4", "d5-c5", "d5-e5", "d5-d6", "g1-g4", "g1-d1"
        ])
    );
    assert!(is_illegal(&pos, "a7-e4"));
    assert!(!pos.rules().flying);
    assert_eq!(RuleSet::preset("no-flying"), Some(RuleSet::NO_FLYING));
    // Blocked with three stones: lost without flying, flies with it.
    let fen = "BWB/.../.../W....W/.../.../BW. b 0 0 0 20";
    let standard = Position::from_fen(fen, RuleSet::STANDARD).expect("valid");
    let no_fly = Position::from_fen(fen, RuleSet::NO_FLYING).expect("valid");
    assert!(standard.outcome().is_none());
    assert!(!standard.legal_moves().is_empty());
    assert_eq!(no_fly.outcome().map(|o| o.reason), Some(EndReason::Blocked));
}

/// 003: "If you form a mill, you must capture an opposing stone of your
/// choice"; 000: "Das Bilden von Mühlen ist in allen drei Phasen des Spiels
/// möglich". The removal is part of the same turn.
#[test]
fn closing_a_mill_removes_an_opponent_stone_in_the_same_turn() {
    // placing
    let pos = position("standard", "a7 d7 b4", "b6 f6 c3", "w 6 6 0 4");
    let after = play(&pos, "g7xc3");
    assert_eq!(after.turn(), Color::Black);
    assert_eq!(after.stone_at(sq("c3")), None);
    assert_eq!(after.material(Color::Black), 8);
    assert_eq!(
        after.in_hand(Color::Black),
        6,
        "a removed stone is not returned to the hand"
    );
    // moving
    let pos = position("standard", "a7 d7 g4 c4 e4", "b6 f6 c3 e3 a1", "w 0 0 5 20");
    let after = play(&pos, "g4-g7xa1");
    assert_eq!(after.stones(Color::Black), bb("b6 f6 c3 e3"));
    assert_eq!(after.turn(), Color::Black);
    // flying
    let pos = position("standard", "a7 d7 e4", "b6 f6 c3 e3 a1", "w 0 0 5 20");
    assert_eq!(pos.phase(Color::White), Phase::Flying);
    let after = play(&pos, "e4-g7xc3");
    assert_eq!(after.stones(Color::Black), bb("b6 f6 e3 a1"));
}

/// 003: "If you form a mill, you must capture" (and "you must remove an
/// opposing stone from the board"): the plain move is not legal while a stone
/// may be removed.
#[test]
fn mill_must_remove_when_possible() {
    let pos = position("standard", "a7 d7 b4", "b6 f6 c3", "w 6 6 0 4");
    assert!(pos.closes_mill(mv("g7")));
    assert!(!pos.is_legal(mv("g7")));
    let with: BTreeSet<String> = moves(&pos)
        .into_iter()
        .filter(|m| m.starts_with("g7"))
        .collect();
    assert_eq!(with, set(&["g7xb6", "g7xf6", "g7xc3"]));
    match pos.check_move(mv("g7")) {
        Err(MoveError::RemovalRequired {
            example, removable, ..
        }) => {
            assert!(removable.contains("b6") && removable.contains("c3"));
            assert!(pos.is_legal(mv(&example)));
        }
        other => panic!("expected RemovalRequired, got {other:?}"),
    }
    // a removal without a mill is not legal either
    assert!(is_illegal(&pos, "g4xb6"));
    // nor removing an empty point or an own stone
    assert!(is_illegal(&pos, "g7xd6"));
    assert!(is_illegal(&pos, "g7xb4"));
}

/// 000 Sonderfall 2: "Werden während der Setzphase durch einen Spielstein
/// zwei Mühlen gleichzeitig gebildet, darf dennoch nur ein Spielstein des
/// Gegners entfernt werden."
#[test]
fn closing_two_mills_with_one_stone_removes_one_stone() {
    let pos = position("standard", "a7 g7 d6 d5", "a4 c4 b2 f2", "w 5 5 0 5");
    let d7: BTreeSet<String> = moves(&pos)
        .into_iter()
        .filter(|m| m.starts_with("d7"))
        .collect();
    assert_eq!(d7, set(&["d7xa4", "d7xc4", "d7xb2", "d7xf2"]));
    let after = play(&pos, "d7xb2");
    assert_eq!(after.stones(Color::White).in_mills(), bb("a7 d7 g7 d6 d5"));
    assert_eq!(after.stones(Color::Black).count(), 3);
    assert!(Move::parse("d7xb2xf2").is_err(), "one removal per move");
    assert_eq!(after.turn(), Color::Black);
}

/// 000 Sonderfall 1: "Im Prinzip dürfen keine Steine aus bestehenden Mühlen
/// genommen werden. Nach offiziellen Turnierregeln ist dies jedoch erlaubt,
/// wenn kein anderer Stein zur Verfügung steht. Beispiel: Bei sechs Steinen
/// und zwei Mühlen, darf man die eine Mühle zerstören." 002: "Ausnahme: Alle
/// gegnerischen Steine sind Teil von Mühlen". 003: "except when this stone is
/// part of a mill and your opponent has other stones which are not part of a
/// mill".
#[test]
fn stones_in_mills_protected_unless_all_in_mills() {
    // Black: a mill a7-d7-g7 and two free stones.
    let pos = position("standard", "c3 d3 a1", "a7 d7 g7 b4 f4", "w 4 4 0 6");
    assert_eq!(pos.removable(Color::White), bb("b4 f4"));
    let e3: BTreeSet<String> = moves(&pos)
        .into_iter()
        .filter(|m| m.starts_with("e3"))
        .collect();
    assert_eq!(e3, set(&["e3xb4", "e3xf4"]));
    match pos.check_move(mv("e3xd7")) {
        Err(MoveError::Illegal { why, .. }) => assert!(why.contains("mill"), "{why}"),
        other => panic!("{other:?}"),
    }
    // Six stones in two mills (the example of 000): any may be removed.
    let pos = position("standard", "c3 d3 a1", "a7 d7 g7 b6 d6 f6", "w 3 3 0 7");
    assert_eq!(pos.removable(Color::White), bb("a7 d7 g7 b6 d6 f6"));
    let after = play(&pos, "e3xd6");
    assert_eq!(after.stones(Color::Black), bb("a7 d7 g7 b6 f6"));
    assert_eq!(RuleSet::STANDARD.removal, RemovalRule::UnlessAllInMills);
}

/// 004: "Wichtig dabei: Dieser Stein darf kein Bestandteil einer
/// geschlossenen Mühle sein." The `ravensburger` preset (removal=strict):
/// stones in mills are never removed; when all are in mills, the mill
/// removes nothing (and still counts as a mill for the no-mill counter).
#[test]
fn ravensburger_never_removes_from_mills_nothing_removed_when_all_in_mills() {
    let pos = position("ravensburger", "c3 d3 a1", "a7 d7 g7 b4 f4", "w 4 4 0 6");
    assert_eq!(pos.removable(Color::White), bb("b4 f4"));
    let pos = position(
        "ravensburger",
        "c3 d3 e4 e5 f4",
        "a7 d7 g7 b6 d6 f6",
        "w 0 0 7 30",
    );
    assert!(pos.removable(Color::White).is_empty());
    assert!(pos.is_legal(mv("e4-e3")));
    assert!(moves(&pos).iter().all(|m| !m.contains('x')));
    match pos.check_move(mv("e4-e3xa7")) {
        Err(MoveError::Illegal { why, .. }) => assert!(why.contains("without"), "{why}"),
        other => panic!("{other:?}"),
    }
    let after = play(&pos, "e4-e3");
    assert_eq!(after.stones(Color::Black), pos.stones(Color::Black));
    assert_eq!(
        after.plies_since_mill(),
        0,
        "the mill counts even without removal"
    );
    // The same under the tournament rule removes any of the six.
    let standard = Position::from_fen(&pos.fen(), RuleSet::STANDARD).expect("valid");
    assert_eq!(standard.removable(Color::White).count(), 6);
    assert!(!standard.is_legal(mv("e4-e3")));
}

/// 004 "Ende des Spiels": "Gelingt es dem Gegner eines Springer-Spielers, eine
/// Mühle zu schließen, hat er sofort das Spiel gewonnen. Der Springer verliert
/// alle drei Steine – auch wenn sie sich in einer Mühle befinden."
#[test]
fn ravensburger_flying_players_stones_are_not_protected() {
    let pos = position("ravensburger", "c3 d3 e4 e5 f4", "a7 d7 g7", "w 0 0 4 30");
    assert_eq!(pos.phase(Color::Black), Phase::Flying);
    assert_eq!(pos.removable(Color::White), bb("a7 d7 g7"));
    let mut game = Game::from_position(pos);
    game.play_str("e4-e3xd7").expect("legal");
    let outcome = game.outcome().expect("the flyer lost");
    assert_eq!(outcome.winner, Some(Color::White));
    assert_eq!(outcome.reason, EndReason::TwoStonesLeft);
    // Without flying the three stones are not a flyer's and stay protected.
    let no_fly = position(
        "ravensburger,flying=off",
        "c3 d3 e4 e5 f4",
        "a7 d7 g7",
        "w 0 0 4 30",
    );
    assert!(no_fly.removable(Color::White).is_empty());
    assert!(no_fly.is_legal(mv("e4-e3")));
    // Three stones with stones in hand do not fly: protected too.
    let placing = position("ravensburger", "c3 d3 b4", "a7 d7 g7", "w 2 2 0 10");
    assert!(placing.removable(Color::White).is_empty());
    assert!(placing.is_legal(mv("e3")));
}

/// 003 Strategy: "When you form a mill, move one of the millstones away and
/// make the mill again the next turn, will give you one capture each 2 turns."
/// 004: "Mühlen werden geöffnet, indem man einen Stein … zum nächsten freien
/// Punkt zieht und wieder geschlossen, indem man ihn wieder zurückzieht."
#[test]
fn reopened_and_reclosed_mill_removes_again() {
    let start = position(
        "standard",
        "a7 d7 g7 c4 e4",
        "b2 f2 c3 e3 a1",
        "w 0 0 10 20",
    );
    let mut game = Game::from_position(start);
    play_all(&mut game, "g7-g4 a1-d1");
    assert!(matches!(
        game.play_str("g4-g7"),
        Err(GameError::Move(MoveError::RemovalRequired { .. }))
    ));
    play_all(&mut game, "g4-g7xb2");
    assert_eq!(game.position().material(Color::Black), 4);
    assert_eq!(game.position().plies_since_mill(), 0);
    play_all(&mut game, "d1-a1 g7-g4 a1-d1 g4-g7xf2");
    assert_eq!(game.position().material(Color::Black), 3);
    assert_eq!(game.position().stones(Color::Black), bb("c3 e3 d1"));
}

/// 001: "Schafft es ein Spieler, seine Steine so zu positionieren, dass es
/// durch das Öffnen einer Mühle eine andere wieder schließt, spricht man von
/// einer Zwickmühle"; 004: "Doppelmühle … Sie besteht demnach aus fünf
/// Steinen"; 003: "This stone will capture every turn."
#[test]
fn zwickmuehle_closes_a_mill_with_every_move() {
    let start = position(
        "standard",
        "a7 d7 g7 b6 f6",
        "a1 g1 c3 e3 b2 f2",
        "w 0 0 0 20",
    );
    let mut game = Game::from_position(start);
    play_all(&mut game, "d7-d6xc3 a1-a4 d6-d7xe3 a4-a1 d7-d6xb2");
    assert_eq!(game.position().stones(Color::Black), bb("a1 g1 f2"));
}

/// 001: "Bei Mühle herrscht Zugzwang": a player must move; there is no pass.
#[test]
fn zugzwang_no_passing() {
    for pass in ["pass", "--", "0000", "null", "-", "x"] {
        assert!(Move::parse(pass).is_err(), "{pass}");
    }
    // Black has moves, and each of them changes the board: there is no null move.
    let pos = position("standard", "a7 d7 b4 c4 e4", "g7 g4 g1 b6 f2", "b 0 0 0 20");
    let list = pos.legal_moves();
    assert!(!list.is_empty());
    for m in list {
        let next = pos.play(m).expect("legal");
        assert_ne!(
            next.stones(Color::Black),
            pos.stones(Color::Black),
            "{m} passes"
        );
        assert_eq!(next.turn(), Color::White);
    }
    // A player without a move does not pass: the game is over.
    let blocked = Position::from_fen(
        "BWB/.../.../W....W/.../.../BWB b 0 0 0 20",
        RuleSet::STANDARD,
    )
    .expect("valid");
    assert!(blocked.legal_moves().is_empty());
    assert!(blocked.is_game_over());
}

// ---------------------------------------------------------------------------
// End of the game

/// 000: "Ein Spieler hat weniger als drei Spielsteine … (dieser Spieler hat
/// verloren)"; 001: "sobald ein Spieler weniger als drei Steine hat"; 002:
/// "wenn ein Spieler nur noch zwei Steine hat"; 003: "capturing 7 opposing
/// stones (so the opponent has just 2 stones left)"; 004: "Der Springer
/// verliert alle drei Steine". Stones in hand count (RULES.md).
#[test]
fn two_stones_left_loses_counting_stones_in_hand() {
    // moving phase: three stones, one removed
    let pos = position("standard", "c3 d3 e4 e5 f4", "a7 d7 b6", "w 0 0 4 30");
    let mut game = Game::from_position(pos);
    game.play_str("e4-e3xb6").expect("legal");
    let o = game.outcome().expect("over");
    assert_eq!(
        (o.winner, o.reason),
        (Some(Color::White), EndReason::TwoStonesLeft)
    );
    assert_eq!(o.result_str(), "1-0");
    assert!(game.legal_moves().is_empty());
    assert!(game.position().legal_moves().is_empty());
    assert!(matches!(game.play_str("a7-a4"), Err(GameError::Over(_))));
    // placing phase: one stone on the board and two in hand is three; losing
    // the stone on the board leaves two (in hand) and loses.
    let pos = position("standard", "c3 d3 f4 g1", "b6", "w 2 2 0 8");
    assert!(pos.outcome().is_none());
    let after = play(&pos, "e3xb6");
    assert_eq!(after.material(Color::Black), 2);
    assert_eq!(after.in_hand(Color::Black), 2);
    assert_eq!(
        after.outcome().map(|o| (o.winner, o.reason)),
        Some((Some(Color::White), EndReason::TwoStonesLeft))
    );
    assert!(after.legal_moves().is_empty());
    // but two on the board with five in hand play on
    let pos = position("standard", "a7 d7 c3 d3", "b6 f6", "w 5 5 0 5");
    let after = play(&pos, "g4");
    assert_eq!(after.material(Color::Black), 7);
    assert!(after.outcome().is_none());
    // 16 quiet placements and d6 (b6-d6-f6) with five removal choices
    assert_eq!(after.legal_moves().len(), 16 + 5);
}

/// 000: "Ein Spieler kann keinen legalen Zug mehr ausführen, obwohl er an der
/// Reihe ist (dieser Spieler hat verloren)"; 001: "oder nicht mehr ziehen
/// kann"; 003: "or if your opponent has no legal move"; 004: "wenn er die
/// gegnerischen Steine so einschließen konnte, dass kein Zug mehr möglich ist".
#[test]
fn blocked_player_loses() {
    let before = Position::from_fen(
        "BWB/.../.../W....W/.../.W./B.B w 0 0 0 20",
        RuleSet::STANDARD,
    )
    .expect("valid");
    assert!(before.outcome().is_none());
    let mut game = Game::from_position(before);
    game.play_str("d2-d1").expect("legal");
    let o = game.outcome().expect("Black is blocked");
    assert_eq!(
        (o.winner, o.reason),
        (Some(Color::White), EndReason::Blocked)
    );
    assert!(game.position().is_blocked());
    assert!(o.describe().contains("cannot move"));
    // The same for White.
    let white_blocked = Position::from_fen(
        "WBW/.../.../B....B/.../.../WBW w 0 0 0 20",
        RuleSet::STANDARD,
    )
    .expect("valid");
    assert_eq!(
        white_blocked.outcome().map(|o| (o.winner, o.reason)),
        Some((Some(Color::Black), EndReason::Blocked))
    );
    // A placing player is never blocked.
    let placing = position("standard", "d7 a4 g4 d1 b6", "a7 g7 a1 g1", "b 0 1 0 9");
    assert!(!placing.is_blocked() && placing.outcome().is_none());
}

/// 000: "Es wird dreimal in Folge die gleiche Stellung der Spielsteine
/// erreicht (Unentschieden)"; 001: "wenn drei Mal die gleiche Stellung
/// erreicht wird"; 003: "if the same position occurs three times in a game".
#[test]
fn threefold_repetition_is_a_draw() {
    let start = position("standard", "a7 g1 c4 d2", "g7 a1 e4 f6", "w 0 0 0 20");
    let mut game = Game::from_position(start);
    play_all(&mut game, "a7-d7 g7-g4 d7-a7 g4-g7");
    assert_eq!(game.repetition_count(), 2);
    assert!(!game.is_over());
    play_all(&mut game, "a7-d7 g7-g4 d7-a7");
    assert!(!game.is_over());
    play_all(&mut game, "g4-g7");
    assert_eq!(game.repetition_count(), 3);
    let o = game.outcome().expect("draw");
    assert_eq!((o.winner, o.reason), (None, EndReason::Repetition));
    assert_eq!(o.result_str(), "1/2-1/2");
    assert!(game.legal_moves().is_empty());
}

/// RULES.md option "repetition draw: third occurrence | off, or another
/// count" (000 "dreimal", 001, 003).
#[test]
fn repetition_option_off_or_another_count() {
    let cycle = "a7-d7 g7-g4 d7-a7 g4-g7";
    let game_under = |rules: &str| {
        let start = position(rules, "a7 g1 c4 d2", "g7 a1 e4 f6", "w 0 0 0 20");
        Game::from_position(start)
    };
    let mut off = game_under("standard,repetition=off");
    for _ in 0..10 {
        play_all(&mut off, cycle);
    }
    assert!(!off.is_over());
    assert_eq!(off.repetition_count(), 11);
    let mut two = game_under("standard,repetition=2");
    play_all(&mut two, "a7-d7 g7-g4 d7-a7");
    assert!(!two.is_over());
    play_all(&mut two, "g4-g7");
    assert_eq!(two.outcome().map(|o| o.reason), Some(EndReason::Repetition));
    let mut five = game_under("standard,repetition=5");
    for _ in 0..3 {
        play_all(&mut five, cycle);
    }
    assert!(!five.is_over());
    play_all(&mut five, cycle);
    assert_eq!(
        five.outcome().map(|o| o.reason),
        Some(EndReason::Repetition)
    );
}

/// RULES.md: the same position means the same stones, side to move and
/// stones in hand (not the counters).
#[test]
fn repetition_compares_stones_side_to_move_and_hands() {
    let a = Position::from_fen(
        "W../.../.../....../.../.../B.. w 8 8 0 2",
        RuleSet::STANDARD,
    )
    .expect("valid");
    let b = Position::from_fen(
        "W../.../.../....../.../.../B.. w 8 8 0 7",
        RuleSet::STANDARD,
    )
    .expect("valid");
    let c = Position::from_fen(
        "W../.../.../....../.../.../B.. w 7 7 0 2",
        RuleSet::STANDARD,
    )
    .expect("valid");
    let d = Position::from_fen(
        "W../.../.../....../.../.../B.. b 7 8 0 2",
        RuleSet::STANDARD,
    )
    .expect("valid");
    assert!(a.same_position(&b));
    assert_eq!(a.hash(), b.hash());
    assert!(!a.same_position(&c) && a.hash() != c.hash());
    assert!(!a.same_position(&d) && a.hash() != d.hash());
    // Every number of stones in hand gives its own hash.
    let mut hashes = BTreeSet::new();
    for h in 0..=9u8 {
        let board = if h <= 6 {
            "WWW/.../.../....../.../.../BBB"
        } else {
            ".../.../.../....../.../.../..."
        };
        let p = Position::from_fen(&format!("{board} w {h} {h} 0 9"), RuleSet::STANDARD)
            .expect("valid");
        assert_eq!(p.hash(), p.compute_hash());
        hashes.insert((board, p.hash()));
    }
    let distinct: BTreeSet<u64> = hashes.iter().map(|&(_, h)| h).collect();
    assert_eq!(distinct.len(), 10);
}

/// 001: "50 Züge hintereinander keine Mühle geschlossen wurde"; 003: "if
/// during 50 moves no mill is formed" — 100 plies in the standard rules.
#[test]
fn no_mill_rule_100_plies() {
    let start = position(
        "standard,repetition=off",
        "a7 g1 c4 d2",
        "g7 a1 e4 f6",
        "w 0 0 0 20",
    );
    let mut game = Game::from_position(start);
    for _ in 0..24 {
        play_all(&mut game, "a7-d7 g7-g4 d7-a7 g4-g7");
    }
    play_all(&mut game, "a7-d7 g7-g4 d7-a7");
    assert_eq!(game.position().plies_since_mill(), 99);
    assert!(!game.is_over());
    play_all(&mut game, "g4-g7");
    assert_eq!(game.position().plies_since_mill(), 100);
    let o = game.outcome().expect("draw");
    assert_eq!((o.winner, o.reason), (None, EndReason::NoMill));
    assert!(game.legal_moves().is_empty());
    assert_eq!(RuleSet::STANDARD.no_mill_draw, Some(100));
    // From a position string: counter 99, a quiet move draws, a mill does not.
    let pos = position(
        "standard",
        "a7 d7 g4 c4 e4",
        "b2 f2 c3 e3 a1",
        "w 0 0 99 60",
    );
    let quiet = play(&pos, "c4-b4");
    assert_eq!(quiet.outcome().map(|o| o.reason), Some(EndReason::NoMill));
    let mill = play(&pos, "g4-g7xa1");
    assert_eq!(mill.plies_since_mill(), 0);
    assert!(mill.outcome().is_none());
}

/// 000: "Es wird nach insgesamt 20 Spielzügen von keinem der beiden Spieler
/// eine Mühle gebildet (Unentschieden)" — the `seed-000` preset.
#[test]
fn seed_000_no_mill_rule_20_plies() {
    assert_eq!(RuleSet::SEED_000.no_mill_draw, Some(20));
    let start = position("seed-000", "a7 g1 c4 d2", "g7 a1 e4 f6", "w 0 0 0 20");
    let mut game = Game::from_position(start);
    // 20 quiet plies, each to a position not seen before.
    let mut seen = vec![*game.position()];
    for ply in 0..20 {
        assert_eq!(game.position().plies_since_mill(), ply);
        assert!(!game.is_over(), "ply {ply}: {:?}", game.outcome());
        let m = game
            .legal_moves()
            .into_iter()
            .find(|&m| {
                let next = game.position().play(m).expect("legal");
                m.removal().is_none()
                    && !game.position().closes_mill(m)
                    && !seen.iter().any(|p| p.same_position(&next))
            })
            .expect("a quiet move to a new position");
        game.play(m).expect("legal");
        seen.push(*game.position());
    }
    let o = game.outcome().expect("draw after 20 plies");
    assert_eq!((o.winner, o.reason), (None, EndReason::NoMill));
    // The standard rules play on from the same position.
    let same = Position::from_fen(&game.position().fen(), RuleSet::STANDARD).expect("valid");
    assert!(same.outcome().is_none());
}

/// RULES.md: the no-mill counter (fifth field of the position string) counts
/// plies since the last placement or the last mill; it is 0 after either.
/// Option: any N, or off.
#[test]
fn no_mill_counter_counts_plies_since_placement_or_mill() {
    let mut game = Game::default();
    play_all(&mut game, "a7 b6 d7 f6");
    assert_eq!(game.position().plies_since_mill(), 0);
    assert!(game.position().fen().ends_with(" 0 3"));
    let pos = position("standard", "a7 d7 g4 c4 e4", "b2 f2 c3 e3 a1", "w 0 0 5 20");
    let p1 = play(&pos, "c4-b4");
    assert_eq!(p1.plies_since_mill(), 6);
    assert_eq!(p1.fen().split(' ').nth(4), Some("6"));
    let p2 = play(&p1, "a1-d1");
    assert_eq!(p2.plies_since_mill(), 7);
    let p3 = play(&p2, "g4-g7xd1");
    assert_eq!(p3.plies_since_mill(), 0);
    let p4 = play(&p3, "e3-d3");
    assert_eq!(p4.plies_since_mill(), 1);
    // The last placement (Black's ninth stone) resets the counter too.
    let pos = position("standard", "d7 a4 g4 d1 b6", "a7 g7 a1 g1", "b 0 1 9 9");
    assert_eq!(play(&pos, "f2").plies_since_mill(), 0);
    // no-mill=off never draws; no-mill=N draws at N.
    let off = position(
        "standard,no-mill=off",
        "a7 d7 g4 c4 e4",
        "b2 f2 c3 e3 a1",
        "w 0 0 65535 60",
    );
    assert!(off.outcome().is_none());
    assert!(!off.legal_moves().is_empty());
    let n = position(
        "standard,no-mill=7",
        "a7 d7 g4 c4 e4",
        "b2 f2 c3 e3 a1",
        "w 0 0 6 60",
    );
    assert!(n.outcome().is_none());
    assert_eq!(
        play(&n, "c4-b4").outcome().map(|o| o.reason),
        Some(EndReason::NoMill)
    );
}

/// docs/RULES.md: when a move both wins and reaches a draw count, the win
/// counts.
#[test]
fn a_win_counts_over_the_no_mill_draw() {
    let pos = Position::from_fen(
        "BWB/.../.../W....W/.../.W./B.B w 0 0 99 60",
        RuleSet::STANDARD,
    )
    .expect("valid");
    let after = play(&pos, "d2-d1");
    assert_eq!(after.plies_since_mill(), 100);
    assert_eq!(
        after.outcome().map(|o| (o.winner, o.reason)),
        Some((Some(Color::White), EndReason::Blocked))
    );
}

/// 001: "oder sich beide Spieler darauf einigen"; 003: "both players agree to
/// draw".
#[test]
fn draw_by_agreement() {
    let mut game = Game::default();
    play_all(&mut game, "d6 f4");
    assert!(matches!(
        game.accept_draw(Color::Black),
        Err(GameError::NoDrawOffer(Color::Black))
    ));
    assert_eq!(game.offer_draw(Color::White), Ok(false));
    assert_eq!(game.draw_offer(), Some(Color::White));
    assert!(
        game.accept_draw(Color::White).is_err(),
        "not one's own offer"
    );
    game.accept_draw(Color::Black).expect("accept");
    let o = game.outcome().expect("drawn");
    assert_eq!((o.winner, o.reason), (None, EndReason::Agreement));
    assert!(matches!(game.play_str("d2"), Err(GameError::Over(_))));
    assert!(game.legal_moves().is_empty());
    // Two offers meet: drawn.
    let mut game = Game::default();
    assert_eq!(game.offer_draw(Color::Black), Ok(false));
    assert_eq!(game.offer_draw(Color::White), Ok(true));
    assert_eq!(game.outcome().map(|o| o.reason), Some(EndReason::Agreement));
}

/// RULES.md: "Resignation ends the game as a loss for the resigning player"
/// (a game can end by the players' word, as draws by agreement in 001, 003).
#[test]
fn resignation() {
    let mut game = Game::default();
    play_all(&mut game, "d6");
    game.resign(Color::Black).expect("resign");
    let o = game.outcome().expect("over");
    assert_eq!(
        (o.winner, o.reason),
        (Some(Color::White), EndReason::Resignation)
    );
    assert!(o.describe().contains("Black resigns"));
    assert!(game.resign(Color::White).is_err());
    assert!(game.offer_draw(Color::White).is_err());
    let mut game = Game::default();
    game.resign(Color::White).expect("resign");
    assert_eq!(game.outcome().and_then(|o| o.winner), Some(Color::Black));
}

/// RULES.md: an offer stands until the opponent accepts it, declines it, or
/// makes a move (003: "You must not actually make the move, then you have no
/// more the right to claim a draw").
#[test]
fn draw_offer_declined_by_moving() {
    let mut game = Game::default();
    game.offer_draw(Color::White).expect("offer");
    play_all(&mut game, "d6");
    assert_eq!(
        game.draw_offer(),
        Some(Color::White),
        "the offerer's own move keeps it"
    );
    play_all(&mut game, "f4");
    assert_eq!(game.draw_offer(), None, "the opponent's move declines it");
    assert!(game.accept_draw(Color::Black).is_err());
    assert!(!game.is_over());
    // Declining explicitly.
    game.offer_draw(Color::White).expect("offer");
    assert!(game.decline_draw(Color::White).is_err());
    game.decline_draw(Color::Black).expect("decline");
    assert_eq!(game.draw_offer(), None);
    assert!(!game.is_over());
}

// ---------------------------------------------------------------------------
// Notation, position strings, games and records

/// RULES.md Notation: placement `d6`, move `g7-g4`, mill turns `d6xb4`,
/// `f2-f4xd5` — one move; 003 writes "35. g7-g4".
#[test]
fn move_notation() {
    let place = mv("d6");
    assert_eq!(place, Move::place(sq("d6")));
    assert!(place.is_place() && place.removal().is_none());
    assert_eq!(mv("g7-g4"), Move::slide(sq("g7"), sq("g4")));
    assert_eq!(mv("d6xb4"), Move::place(sq("d6")).with_removal(sq("b4")));
    let m = mv("f2-f4xd5");
    assert_eq!(
        (m.from(), m.to(), m.removal()),
        (Some(sq("f2")), sq("f4"), Some(sq("d5")))
    );
    for text in ["d6", "g7-g4", "d6xb4", "f2-f4xd5"] {
        assert_eq!(mv(text).to_string(), text);
        assert_eq!(Move::from_u16(mv(text).to_u16()), Some(mv(text)));
    }
    // accepted variants
    assert_eq!(mv("F2-F4XD5"), m);
    assert_eq!(mv("f2:f4xd5"), m);
    assert_eq!(mv(" d6 "), place);
    assert_eq!(mv("d6xb4").without_removal(), place);
    // errors
    assert_eq!(Move::parse(""), Err(ParseMoveError::Empty));
    for bad in [
        "d4", "d6-d6", "d6xd6", "xb4", "d6x", "d6-", "-d6", "d6xb4xf4", "d6 f4", "h9",
    ] {
        assert!(
            matches!(Move::parse(bad), Err(ParseMoveError::Syntax { .. })),
            "{bad}"
        );
    }
}

/// RULES.md: a mill turn names the removed stone; a removal is required when
/// possible, forbidden otherwise, and written without `x` when the strict
/// rule lets the mill remove nothing; Sanmill-style tokens (`d6`, `xb4`)
/// join the move before them.
#[test]
fn removal_notation_requirements() {
    let pos = position("standard", "a7 d7 b4", "b6 f6 c3", "w 6 6 0 4");
    assert!(matches!(
        pos.parse_move("g7"),
        Err(MoveError::RemovalRequired { .. })
    ));
    assert_eq!(pos.parse_move("g7xb6"), Ok(mv("g7xb6")));
    assert!(matches!(
        pos.parse_move("g4xb6"),
        Err(MoveError::Illegal { .. })
    ));
    assert!(matches!(
        pos.parse_move("g7xg4"),
        Err(MoveError::Illegal { .. })
    ));
    assert!(matches!(pos.parse_move("g9"), Err(MoveError::Parse(_))));
    let message = pos.check_move(mv("g7")).expect_err("removal").to_string();
    assert!(message.contains("g7x"), "{message}");
    assert_eq!(
        join_removal_tokens(["d6", "xb4", "f4", "g7-g4", "Xa1", "xc3"]),
        ["d6xb4", "f4", "g7-g4Xa1", "xc3"]
    );
    let mut game = Game::from_position(pos);
    let joined = join_removal_tokens("g7 xb6".split_whitespace());
    assert_eq!(game.play_str(&joined[0]), Ok(mv("g7xb6")));
}

/// RULES.md: the start position string `.../.../.../....../.../.../... w 9 9 0 1`
/// and its round trip.
#[test]
fn position_string_round_trip_of_the_start() {
    assert_eq!(Position::default().fen(), START);
    assert_eq!(Setup::START.to_string(), START);
    let parsed: Position = START.parse().expect("start");
    assert_eq!(parsed, Position::default());
    assert_eq!(parsed.fen(), START);
    assert_eq!(Position::default().to_setup(), Setup::START);
    // Row order: a7d7g7/b6d6f6/c5d5e5/a4b4c4e4f4g4/c3d3e3/b2d2f2/a1d1g1.
    let rows = "a7d7g7/b6d6f6/c5d5e5/a4b4c4e4f4g4/c3d3e3/b2d2f2/a1d1g1";
    let names: Vec<String> = rows
        .split('/')
        .flat_map(|r| {
            r.as_bytes()
                .chunks(2)
                .map(|c| String::from_utf8_lossy(c).into_owned())
        })
        .collect();
    for (i, name) in names.iter().enumerate() {
        let mut board: Vec<char> = rows
            .split('/')
            .map(|r| ".".repeat(r.len() / 2))
            .collect::<Vec<_>>()
            .join("/")
            .chars()
            .collect();
        let mut k = 0;
        for c in board.iter_mut() {
            if *c == '.' {
                if k == i {
                    *c = 'W';
                }
                k += 1;
            }
        }
        let board: String = board.into_iter().collect();
        let setup: Setup = format!("{board} b 0 1 0 9").parse().expect("setup");
        assert_eq!(setup.stones[0], bb(name), "{board}");
        assert_eq!(setup.to_string(), format!("{board} b 0 1 0 9"));
    }
}

/// RULES.md (docs): a position string is accepted only if it can occur in a
/// game — no point with two stones, at most nine stones per side, hands that
/// fit the side to move, the side that just moved has at least three stones,
/// move number at least 1 — and the string must be well-formed.
#[test]
fn position_validation_errors() {
    let err = |s: &str| Position::from_fen(s, RuleSet::STANDARD).expect_err(s);
    assert_eq!(
        err("WWW/WWW/WWW/W...../.../.../... b 0 0 0 20"),
        ParsePositionError::Invalid(PositionError::TooManyStones {
            color: Color::White,
            count: 10
        })
    );
    assert_eq!(
        err("WWW/.../.../....../.../.../BBB w 7 7 0 3"),
        ParsePositionError::Invalid(PositionError::TooManyStones {
            color: Color::White,
            count: 10
        })
    );
    assert!(matches!(
        err(".../.../.../....../.../.../... w 9 8 0 1"),
        ParsePositionError::Invalid(PositionError::HandMismatch {
            white: 9,
            black: 8,
            turn: Color::White
        })
    ));
    assert!(matches!(
        err("W../.../.../....../.../.../... w 8 9 0 1"),
        ParsePositionError::Invalid(PositionError::HandMismatch { .. })
    ));
    assert!(matches!(
        err("W../.../.../....../.../.../... b 8 10 0 1"),
        ParsePositionError::Invalid(_)
    ));
    assert!(matches!(
        err("W../.../.../....../.../.../... b 8 8 0 1"),
        ParsePositionError::Invalid(PositionError::HandMismatch { .. })
    ));
    assert!(matches!(
        err("W../.../.../....../.../.../BBB b 1 1 0 1"),
        ParsePositionError::Invalid(PositionError::HandMismatch { .. })
    ));
    assert_eq!(
        err("WW./.../.../....../.../.../BBB b 0 0 0 20"),
        ParsePositionError::Invalid(PositionError::MoverLost(Color::White))
    );
    assert_eq!(
        err(".../.../.../....../.../.../... w 9 9 0 0"),
        ParsePositionError::Invalid(PositionError::MoveNumberZero)
    );
    assert_eq!(
        err(".../.../.../....../.../.../... w 9 9 0"),
        ParsePositionError::FieldCount(5)
    );
    assert_eq!(
        err(".../.../.../....../.../... w 9 9 0 1"),
        ParsePositionError::RowCount(6)
    );
    assert_eq!(
        err(".../..../.../....../.../.../... w 9 9 0 1"),
        ParsePositionError::RowLength {
            row: 2,
            expected: 3,
            found: 4
        }
    );
    assert_eq!(
        err("..Z/.../.../....../.../.../... w 9 9 0 1"),
        ParsePositionError::BadPoint('Z')
    );
    assert_eq!(
        err(".../.../.../....../.../.../... x 9 9 0 1"),
        ParsePositionError::BadSide("x".into())
    );
    assert!(matches!(
        err(".../.../.../....../.../.../... w nine 9 0 1"),
        ParsePositionError::BadNumber { .. }
    ));
    assert!(matches!(
        err(".../.../.../....../.../.../... w 9 9 -1 1"),
        ParsePositionError::BadNumber { .. }
    ));
    // Overlap and off-board points cannot be written in the string; a Setup can hold them.
    let mut overlap = Setup::START;
    overlap.stones = [bb("d6 f4"), bb("d6")];
    overlap.in_hand = [7, 8];
    assert_eq!(overlap.validate(), Err(PositionError::Overlap(sq("d6"))));
    assert_eq!(
        Position::from_setup(overlap, RuleSet::STANDARD),
        Err(PositionError::Overlap(sq("d6")))
    );
    let mut off = Setup::START;
    off.stones[1] = Bitboard(1 << 24);
    assert_eq!(off.validate(), Err(PositionError::OffBoard));
    // Accepted: Black to move with both hands empty, and Black one stone more in hand.
    assert!(
        Position::from_fen(
            "WWW/.../.../....../.../.../BBB b 0 0 0 20",
            RuleSet::STANDARD
        )
        .is_ok()
    );
    assert!(
        Position::from_fen(
            "W../.../.../....../.../.../... b 8 9 0 1",
            RuleSet::STANDARD
        )
        .is_ok()
    );
}

/// Game undo: taking back moves restores the earlier positions, reopens an
/// ended game and withdraws a draw offer.
#[test]
fn game_undo() {
    let mut game = Game::default();
    assert_eq!(game.undo(), Err(GameError::NothingToUndo));
    play_all(&mut game, "d6 f4");
    let after_d6 = *game.position_at(1).expect("ply 1");
    assert_eq!(game.undo(), Ok(mv("f4")));
    assert_eq!(*game.position(), after_d6);
    assert_eq!(game.ply(), 1);
    assert_eq!(game.undo(), Ok(mv("d6")));
    assert_eq!(*game.position(), Position::default());
    assert_eq!(game.undo(), Err(GameError::NothingToUndo));
    // undo a winning move: the game goes on
    let pos = position("standard", "c3 d3 e4 e5 f4", "a7 d7 b6", "w 0 0 4 30");
    let mut game = Game::from_position(pos);
    play_all(&mut game, "e4-e3xb6");
    assert!(game.is_over());
    assert_eq!(game.undo(), Ok(mv("e4-e3xb6")));
    assert!(!game.is_over());
    assert_eq!(*game.position(), pos);
    // undo after a resignation reopens the game; it withdraws a draw offer
    let mut game = Game::default();
    play_all(&mut game, "d6 f4");
    game.resign(Color::White).expect("resign");
    game.undo().expect("undo");
    assert!(!game.is_over());
    game.offer_draw(Color::Black).expect("offer");
    game.undo().expect("undo");
    assert_eq!(game.draw_offer(), None);
    // undo across a repetition draw
    let start = position("standard", "a7 g1 c4 d2", "g7 a1 e4 f6", "w 0 0 0 20");
    let mut game = Game::from_position(start);
    for _ in 0..2 {
        play_all(&mut game, "a7-d7 g7-g4 d7-a7 g4-g7");
    }
    assert!(game.is_over());
    game.undo().expect("undo");
    assert!(!game.is_over());
    play_all(&mut game, "g4-g7");
    assert!(game.is_over());
}

/// Play a whole game with a fixed-seed choice of moves.
fn random_game(rules: RuleSet, seed: u64, max_plies: usize) -> Game {
    let mut state = seed;
    let mut game = Game::new(rules);
    for _ in 0..max_plies {
        let list = game.legal_moves();
        if list.is_empty() {
            break;
        }
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        // prefer mills so that the game ends in reasonable time
        let mills: Vec<Move> = list
            .iter()
            .copied()
            .filter(|m| m.removal().is_some())
            .collect();
        let m = if !mills.is_empty() && !(state >> 40).is_multiple_of(3) {
            mills[(state >> 33) as usize % mills.len()]
        } else {
            list[(state >> 33) as usize % list.len()]
        };
        game.play(m).expect("legal");
    }
    game
}

fn assert_record_round_trip(game: &Game) -> String {
    let record = game.to_record();
    let back = Game::from_record(&record).unwrap_or_else(|e| panic!("{e}\n{record}"));
    assert_eq!(back.to_record(), record);
    assert_eq!(back.moves(), game.moves());
    assert_eq!(back.outcome(), game.outcome());
    assert_eq!(back.position(), game.position());
    assert_eq!(back.rules(), game.rules());
    assert_eq!(
        back.tags(),
        Game::from_record(&back.to_record()).expect("again").tags()
    );
    record
}

/// RULES.md: "Game records number full moves, White then Black: `1. d6 f4
/// 2. d2 b4 … 35. g7-g4 a1-d1xg1`" — written and read back identically.
#[test]
fn game_record_round_trip() {
    let mut finished = 0;
    for (i, name) in muehle::PRESETS.iter().enumerate() {
        for seed in 0..5 {
            let mut game = random_game(
                RuleSet::preset(name).expect("preset"),
                seed + 10 * i as u64,
                400,
            );
            game.set_tag("White", "Anna");
            game.set_tag("Black", "Ben \"the mill\" \\ B.");
            game.set_tag("Event", "Club evening; round 1 {A}");
            let record = assert_record_round_trip(&game);
            assert!(record.contains(&format!("[Rules \"{name}\"]")));
            assert!(record.contains("\n1. "));
            if game.is_over() {
                finished += 1;
                let o = game.outcome().expect("over");
                assert!(record.contains(&format!("[Termination \"{}\"]", o.reason.code())));
                assert!(record.trim_end().ends_with(o.result_str()));
            }
        }
    }
    assert!(finished >= 10);
    // An unfinished game: result "*".
    let mut game = Game::default();
    play_all(&mut game, "d6 f4 d2");
    let record = assert_record_round_trip(&game);
    assert!(record.contains("[Result \"*\"]"));
    assert!(record.contains("1. d6 f4 2. d2 *"));
    assert!(!record.contains("Termination"));
    assert!(!record.contains("FEN"));
    // A custom rule set.
    let game = random_game(
        "no-flying,no-mill=40,repetition=off"
            .parse()
            .expect("rules"),
        3,
        300,
    );
    let record = assert_record_round_trip(&game);
    assert!(record.contains("[Rules \"no-flying,no-mill=40,repetition=off\"]"));
}

/// Records of games ended by agreement and by resignation (001, 003).
#[test]
fn game_record_round_trip_agreement_and_resignation() {
    let mut game = Game::default();
    play_all(&mut game, "d6 f4 d2");
    game.offer_draw(Color::Black).expect("offer");
    game.accept_draw(Color::White).expect("accept");
    let record = assert_record_round_trip(&game);
    assert!(record.contains("[Result \"1/2-1/2\"]"));
    assert!(record.contains("[Termination \"agreement\"]"));
    let back = Game::from_record(&record).expect("record");
    assert_eq!(back.outcome().map(|o| o.reason), Some(EndReason::Agreement));

    let mut game = Game::default();
    play_all(&mut game, "d6 f4 d2 b4");
    game.resign(Color::White).expect("resign");
    let record = assert_record_round_trip(&game);
    assert!(record.contains("[Result \"0-1\"]"));
    assert!(record.contains("[Termination \"resignation\"]"));
    let back = Game::from_record(&record).expect("record");
    assert_eq!(
        back.outcome().map(|o| (o.winner, o.reason)),
        Some((Some(Color::Black), EndReason::Resignation))
    );
}

/// A record of a game that starts from a position string (`FEN` tag), with
/// Black to move first (`12... ` numbering).
#[test]
fn game_record_round_trip_from_a_fen_start() {
    let start = position("standard", "a7 d7 g4 c4 e4", "b2 f2 c3 e3 a1", "b 0 0 5 12");
    let mut game = Game::from_position(start);
    play_all(&mut game, "a1-d1 g4-g7xd1 c3-d3");
    let record = assert_record_round_trip(&game);
    assert!(record.contains(&format!("[FEN \"{}\"]", start.fen())));
    assert!(
        record.contains("12... a1-d1 13. g4-g7xd1 c3-d3 *"),
        "{record}"
    );
    let back = Game::from_record(&record).expect("record");
    assert_eq!(*back.start(), start);
    // A flying endgame under the ravensburger rules, played to the end.
    let start = position("ravensburger", "c3 d3 e4 e5 f4", "a7 d7 g7", "w 0 0 4 30");
    let mut game = Game::from_position(start);
    play_all(&mut game, "e4-e3xd7");
    let record = assert_record_round_trip(&game);
    assert!(record.contains("[Rules \"ravensburger\"]"));
    assert!(record.contains("[Termination \"two-stones\"]"));
}

/// RULES.md: "Engines of the Sanmill family send the removal as a token of
/// its own (`d6`, then `xb4`)"; records accept that form, numbers glued to
/// moves, comments and `½-½`.
#[test]
fn record_parsing_of_the_sanmill_form() {
    let sanmill = Game::from_record("1. a7 b6 2. d7 f6 3. g7 xb6 c3 *").expect("record");
    let ours = Game::from_record("1. a7 b6 2. d7 f6 3. g7xb6 c3 *").expect("record");
    assert_eq!(sanmill.moves(), ours.moves());
    assert_eq!(sanmill.moves()[4], mv("g7xb6"));
    assert_eq!(sanmill.to_record(), ours.to_record());
    let glued = Game::from_record("1.a7 b6 2.d7 f6 {a comment} 3.g7 XB6 ; a line comment\nc3")
        .expect("record");
    assert_eq!(glued.moves(), ours.moves());
    assert!(!glued.is_over());
    let drawn = Game::from_record("1. a7 b6 ½-½").expect("record");
    assert_eq!(
        drawn.outcome().map(|o| o.reason),
        Some(EndReason::Agreement)
    );
    let tags_only = Game::from_record("[Event \"x\"]\n[Rules \"seed-000\"]\n\n*").expect("record");
    assert_eq!(*tags_only.rules(), RuleSet::SEED_000);
    assert_eq!(tags_only.tag("Event"), Some("x"));
}

/// A record always reads back, whatever its header tags hold: a line break
/// in a tag value is written as a space, a tag name with characters a tag
/// line cannot hold is written with `_` for them.
#[test]
fn records_with_odd_tags_read_back() {
    let mut game = Game::default();
    play_all(&mut game, "d6 f4");
    game.set_tag("Annotator", "line one\nline two\r\nthree");
    game.set_tag("Site", "quote \" and backslash \\ and ] and ;{");
    game.set_tag("Time Control", "40/2h");
    game.set_tag("", "no name");
    let record = game.to_record();
    assert!(record.contains("[Annotator \"line one line two  three\"]\n"));
    assert!(record.contains("[Time_Control \"40/2h\"]\n"));
    assert!(record.contains("[_ \"no name\"]\n"));
    let back = Game::from_record(&record).unwrap_or_else(|e| panic!("{e}\n{record}"));
    assert_eq!(back.to_record(), record);
    assert_eq!(back.moves(), game.moves());
    assert_eq!(back.tag("Annotator"), Some("line one line two  three"));
    assert_eq!(back.tag("Site"), game.tag("Site"));
    assert_eq!(back.tag("Time_Control"), Some("40/2h"));
}

/// Bad records are rejected with an error saying what is wrong.
#[test]
fn bad_records_give_errors() {
    let e = |text: &str| Game::from_record(text).expect_err(text);
    assert!(matches!(e("1. a7 a7"), RecordError::Move { .. }));
    match e("1. a7 b6 2. d7 f6 3. g7 c3") {
        RecordError::Move {
            number,
            text,
            error,
        } => {
            assert_eq!((number.as_str(), text.as_str()), ("3", "g7"));
            assert!(matches!(
                error,
                GameError::Move(MoveError::RemovalRequired { .. })
            ));
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(e("xb4 1. a7"), RecordError::Move { .. }));
    assert!(matches!(e("1. a7 d4"), RecordError::Move { .. }));
    assert!(matches!(
        e("[Rules \"chess\"]\n\n1. a7"),
        RecordError::Rules(ParseRulesError::UnknownPreset(_))
    ));
    assert!(matches!(
        e("[FEN \"nonsense\"]\n\n*"),
        RecordError::Position(_)
    ));
    assert!(matches!(
        e("[Event \"unclosed]\n\n*"),
        RecordError::BadTag { line: 1, .. }
    ));
    assert!(matches!(e("[Event]\n\n*"), RecordError::BadTag { .. }));
    assert!(matches!(e("1. a7 * b6"), RecordError::TrailingText(_)));
    assert!(matches!(e("1. a7 { comment"), RecordError::UnclosedComment));
    assert!(matches!(
        e("[Termination \"bored\"]\n\n1. a7 b6 1-0"),
        RecordError::BadTermination(_)
    ));
    assert!(matches!(
        e("[Termination \"blocked\"]\n\n1. a7 b6 1-0"),
        RecordError::ResultMismatch { .. }
    ));
    // The moves end the game one way, the result says another.
    let over = "[FEN \"BWB/.../.../W....W/.../.W./B.B w 0 0 0 20\"]\n\n1. d2-d1 0-1";
    assert!(matches!(e(over), RecordError::ResultMismatch { .. }));
    let ok = Game::from_record(&over.replace("0-1", "1-0")).expect("right result");
    assert_eq!(ok.outcome().map(|o| o.reason), Some(EndReason::Blocked));
    // a move after the game ended
    assert!(matches!(
        e("[FEN \"BWB/.../.../W....W/.../.W./B.B w 0 0 0 20\"]\n\n1. d2-d1 a1-a4"),
        RecordError::Move { .. }
    ));
}

// ---------------------------------------------------------------------------
// Rule options

/// RULES.md "Rule options" and presets: standard, ravensburger (004),
/// seed-000 (000), no-flying (002); options removal, flying, no-mill,
/// repetition, written as a preset followed by the options that differ.
#[test]
fn rule_presets_and_options() {
    assert_eq!(RuleSet::default(), RuleSet::STANDARD);
    assert_eq!(RuleSet::STANDARD.repetition_draw, Some(3));
    assert_eq!(RuleSet::RAVENSBURGER.removal, RemovalRule::Never);
    for name in muehle::PRESETS {
        let r: RuleSet = name.parse().expect("preset");
        assert_eq!(r.to_string(), name);
        assert_eq!(r.preset_name(), Some(name));
    }
    let r: RuleSet = "standard,flying=off,no-mill=40".parse().expect("rules");
    assert!(!r.flying && r.no_mill_draw == Some(40));
    assert_eq!(r.to_string().parse::<RuleSet>(), Ok(r));
    let r: RuleSet = "removal=strict".parse().expect("rules");
    assert_eq!(r, RuleSet::RAVENSBURGER);
    let r: RuleSet = "ravensburger,no-mill=off,repetition=off"
        .parse()
        .expect("rules");
    assert_eq!((r.no_mill_draw, r.repetition_draw), (None, None));
    assert_eq!(r.to_string(), "ravensburger,no-mill=off,repetition=off");
    assert_eq!("".parse::<RuleSet>(), Ok(RuleSet::STANDARD));
    assert!(matches!(
        "chess".parse::<RuleSet>(),
        Err(ParseRulesError::UnknownPreset(_))
    ));
    assert!(matches!(
        "standard,speed=9".parse::<RuleSet>(),
        Err(ParseRulesError::UnknownOption(_))
    ));
    assert!(matches!(
        "standard,flying".parse::<RuleSet>(),
        Err(ParseRulesError::UnknownOption(_))
    ));
    for bad in [
        "no-mill=0",
        "no-mill=x",
        "repetition=1",
        "repetition=256",
        "flying=maybe",
        "removal=some",
    ] {
        assert!(
            matches!(
                format!("standard,{bad}").parse::<RuleSet>(),
                Err(ParseRulesError::BadValue { .. })
            ),
            "{bad}"
        );
    }
}
