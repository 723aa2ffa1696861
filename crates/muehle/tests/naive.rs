//! The library's move generator and perft against the naive generator of
//! `tests/common` (written from RULES.md alone), and the perft data file
//! `tests/perft.txt`.

use crate::common;

use std::collections::BTreeSet;

use common::{
    MILLS, Naive, NaiveEnd, NaiveMove, NaiveRules, POINTS, Removal, Rng, Side, lib_move_strings,
    perft_cases,
};
use muehle::perft::{perft, perft_divide};
use muehle::{Color, EndReason, Move, Position, RuleSet, Setup};

/// Rule sets the random tests run under: the four presets and custom ones.
fn rule_sets() -> Vec<RuleSet> {
    [
        "standard",
        "ravensburger",
        "seed-000",
        "no-flying",
        "ravensburger,flying=off",
        "standard,no-mill=8",
        "ravensburger,no-mill=off,repetition=off",
        "no-flying,removal=strict,no-mill=30",
    ]
    .iter()
    .map(|s| s.parse().expect("rule set"))
    .collect()
}

fn fen_of(n: &Naive, move_number: u32) -> String {
    let cells: Vec<char> = n.board_chars().collect();
    let mut rows = Vec::new();
    let mut i = 0;
    for len in [3, 3, 3, 6, 3, 3, 3] {
        rows.push(cells[i..i + len].iter().collect::<String>());
        i += len;
    }
    format!(
        "{} {} {} {} {} {}",
        rows.join("/"),
        if n.turn == Side::White { 'w' } else { 'b' },
        n.hand[0],
        n.hand[1],
        n.plies,
        move_number
    )
}

/// Compare everything the naive generator knows about a position with the library.
fn assert_same(pos: &Position, naive: &Naive, context: &str) {
    assert_eq!(
        Naive::from_position(pos).key(),
        naive.key(),
        "state differs ({context})"
    );
    let lib = lib_move_strings(pos);
    let ours = naive.move_strings();
    if lib != ours {
        let extra: Vec<_> = lib.difference(&ours).collect();
        let missing: Vec<_> = ours.difference(&lib).collect();
        panic!(
            "move sets differ in {} under {} ({context}):\n  library only: {extra:?}\n  naive only: {missing:?}",
            pos.fen(),
            pos.rules()
        );
    }
    assert_eq!(
        pos.legal_moves().len(),
        naive.moves().len(),
        "duplicate moves in {}",
        pos.fen()
    );
    assert_eq!(
        pos.count_legal_moves(),
        lib.len() as u64,
        "count_legal_moves in {} under {}",
        pos.fen(),
        pos.rules()
    );
    let lib_end = pos.outcome().map(|o| (o.winner, o.reason));
    let naive_end = naive.end().map(|e| match e {
        NaiveEnd::TwoStones => (Some(pos.turn().other()), EndReason::TwoStonesLeft),
        NaiveEnd::Blocked => (Some(pos.turn().other()), EndReason::Blocked),
        NaiveEnd::NoMill => (None, EndReason::NoMill),
        NaiveEnd::BoardFull => (None, EndReason::BoardFull),
    });
    assert_eq!(
        lib_end,
        naive_end,
        "outcome differs in {} under {}",
        pos.fen(),
        pos.rules()
    );
}

/// Whether the naive move closes a mill (the moved stone ends in a mill).
fn closes(naive: &Naive, m: &NaiveMove) -> bool {
    let mut b = naive.clone();
    if let Some(f) = m.from {
        b.board[f] = None;
    }
    b.board[m.to] = Some(naive.turn);
    b.in_mill(m.to)
}

#[derive(Default, Debug)]
struct Stats {
    positions: u64,
    placing: u64,
    moving: u64,
    flying: u64,
    mill_moves: u64,
    mill_moves_removing_nothing: u64,
    removals_from_mills: u64,
    flyer_mill_stone_removals: u64,
    ends: [u64; 3],
}

impl Stats {
    fn record(&mut self, naive: &Naive) {
        self.positions += 1;
        let us = naive.turn;
        if naive.hand[us.i()] > 0 {
            self.placing += 1;
        } else if naive.is_flying(us) {
            self.flying += 1;
        } else {
            self.moving += 1;
        }
        for m in naive.moves() {
            if closes(naive, &m) {
                self.mill_moves += 1;
                match m.remove {
                    None => self.mill_moves_removing_nothing += 1,
                    Some(r) if naive.in_mill(r) => {
                        self.removals_from_mills += 1;
                        if naive.is_flying(us.other()) {
                            self.flyer_mill_stone_removals += 1;
                        }
                    }
                    Some(_) => {}
                }
            }
        }
        match naive.end() {
            Some(NaiveEnd::TwoStones) => self.ends[0] += 1,
            Some(NaiveEnd::Blocked) => self.ends[1] += 1,
            Some(NaiveEnd::NoMill | NaiveEnd::BoardFull) => self.ends[2] += 1,
            None => {}
        }
    }
}

/// Pick a move, preferring mills (so that games reach the later phases),
/// and sometimes moves that keep the own stones together.
fn pick(naive: &Naive, moves: &[NaiveMove], rng: &mut Rng) -> NaiveMove {
    if rng.chance(55) {
        let mills: Vec<&NaiveMove> = moves.iter().filter(|m| closes(naive, m)).collect();
        if !mills.is_empty() {
            return *mills[rng.below(mills.len())];
        }
    }
    moves[rng.below(moves.len())]
}

#[test]
fn naive_perft_from_the_start_matches_rules_md() {
    let start = Naive::start(NaiveRules::STANDARD);
    let counts: Vec<u64> = (1..=4).map(|d| start.perft(d)).collect();
    assert_eq!(counts, [24, 552, 12_144, 255_024]);
}

#[test]
fn library_perft_equals_naive_perft_at_depth_5_from_the_start() {
    let lib = perft(&Position::new(RuleSet::STANDARD), 5);
    let naive = Naive::start(NaiveRules::STANDARD).perft(5);
    assert_eq!(lib, naive);
    assert_eq!(lib, 5_140_800);
}

#[test]
fn library_perft_equals_naive_perft_from_the_start_for_every_preset() {
    for name in muehle::PRESETS {
        let rules = RuleSet::preset(name).expect("preset");
        let pos = Position::new(rules);
        let naive = Naive::start(NaiveRules::from_lib(&rules));
        for depth in 1..=4 {
            assert_eq!(
                perft(&pos, depth),
                naive.perft(depth),
                "{name} depth {depth}"
            );
        }
    }
}

#[test]
fn library_moves_equal_naive_moves_in_random_games() {
    let mut rng = Rng::new(0x5EED_0001);
    let mut stats = Stats::default();
    for rules in rule_sets() {
        for game in 0..120 {
            let mut pos = Position::new(rules);
            let mut naive = Naive::start(NaiveRules::from_lib(&rules));
            for ply in 0..400 {
                assert_same(&pos, &naive, &format!("{rules} game {game} ply {ply}"));
                stats.record(&naive);
                let moves = naive.moves();
                if moves.is_empty() {
                    break;
                }
                let m = pick(&naive, &moves, &mut rng);
                let lib_move = Move::parse(&m.to_string()).expect("notation");
                pos = pos.play(lib_move).expect("the naive move is legal");
                naive = naive.play(&m);
            }
        }
    }
    println!("{stats:?}");
    assert!(stats.positions > 20_000, "{stats:?}");
    assert!(stats.placing > 5_000 && stats.moving > 5_000, "{stats:?}");
    assert!(stats.flying > 1_000, "{stats:?}");
    assert!(stats.removals_from_mills > 100, "{stats:?}");
    assert!(stats.mill_moves_removing_nothing > 0, "{stats:?}");
    assert!(stats.ends[0] > 100 && stats.ends[2] > 10, "{stats:?}");
    assert!(stats.ends[1] > 0, "{stats:?}");
}

/// Random legal setups, including ones where every stone of the side not
/// to move stands in a mill, and both removal rules.
#[test]
fn library_moves_equal_naive_moves_in_random_setups() {
    let mut rng = Rng::new(0x5EED_0002);
    let mut stats = Stats::default();
    let rule_sets = rule_sets();
    let mut tried = 0;
    while stats.positions < 20_000 {
        tried += 1;
        assert!(tried < 200_000, "too few valid setups");
        let rules = rule_sets[rng.below(rule_sets.len())];
        let mut naive = Naive::start(NaiveRules::from_lib(&rules));
        naive.turn = if rng.chance(50) {
            Side::White
        } else {
            Side::Black
        };
        let placing = rng.chance(30);
        let h = if placing { rng.below(9) as u32 } else { 0 };
        naive.hand = match naive.turn {
            Side::White => [h, h],
            Side::Black if h > 0 => [h - 1, h],
            Side::Black => [0, 0],
        };
        let victim = naive.turn.other();
        // The side not to move: sometimes exactly one or two full mills.
        if rng.chance(50) {
            for _ in 0..1 + rng.below(2) {
                for p in MILLS[rng.below(16)] {
                    naive.board[common::pt(p)] = Some(victim);
                }
            }
        }
        // Stones on the board: 2 to 9 minus the hand; a crowded board now
        // and then, where blocked positions occur.
        let crowded = !placing && rng.chance(25);
        let want = |rng: &mut Rng, hand: u32| {
            if crowded {
                7 + rng.below(3) as u32
            } else {
                2 + rng.below(8 - hand.min(7) as usize) as u32
            }
        };
        let victim_want = want(&mut rng, naive.hand[victim.i()]);
        let mover_want = want(&mut rng, naive.hand[naive.turn.i()]);
        // Sometimes give the side to move two stones of a mill with the third empty.
        if rng.chance(50) {
            let m = MILLS[rng.below(16)];
            let skip = rng.below(3);
            for (k, p) in m.iter().enumerate() {
                let p = common::pt(p);
                if k != skip && naive.board[p].is_none() {
                    naive.board[p] = Some(naive.turn);
                }
            }
        }
        // Now and then try to block the side to move: its stones first, then
        // the opponent's on their empty neighbours.
        let block = crowded && rng.chance(50);
        if block {
            let us = naive.turn;
            let mut guard = 0;
            while naive.on_board(us) < 4 + rng.below(3) as u32 && guard < 100 {
                guard += 1;
                let p = rng.below(24);
                if naive.board[p].is_none() {
                    naive.board[p] = Some(us);
                }
            }
            for [a, b] in common::LINES {
                let (a, b) = (common::pt(a), common::pt(b));
                for (x, y) in [(a, b), (b, a)] {
                    if naive.board[x] == Some(us)
                        && naive.board[y].is_none()
                        && naive.on_board(victim) < 9
                    {
                        naive.board[y] = Some(victim);
                    }
                }
            }
        }
        let mover_want = if block { 0 } else { mover_want };
        for (side, want) in [(victim, victim_want), (naive.turn, mover_want)] {
            let mut guard = 0;
            while naive.on_board(side) < want && guard < 100 {
                guard += 1;
                let p = rng.below(24);
                if naive.board[p].is_none() {
                    naive.board[p] = Some(side);
                }
            }
        }
        // The counter: near the limit now and then; in the placing phase
        // mostly 0 (as in games), but a position string may say otherwise.
        naive.plies = match rules.no_mill_draw {
            Some(limit) if rng.chance(if placing { 5 } else { 30 }) => {
                u32::from(limit) - 1 + rng.below(3) as u32
            }
            _ if placing => 0,
            _ => rng.below(20) as u32,
        };
        let fen = fen_of(&naive, 1 + rng.below(60) as u32);
        let Ok(pos) = Position::from_fen(&fen, rules) else {
            continue;
        };
        assert_same(&pos, &naive, &format!("setup {fen}"));
        stats.record(&naive);
        let depth = if stats.positions % 16 == 0 { 3 } else { 2 };
        assert_eq!(
            perft(&pos, depth),
            naive.perft(depth),
            "perft {depth} of {fen} under {rules}"
        );
        // And one move further.
        let moves = naive.moves();
        if !moves.is_empty() {
            let m = pick(&naive, &moves, &mut rng);
            let next = pos
                .play(Move::parse(&m.to_string()).expect("notation"))
                .expect("legal");
            let next_naive = naive.play(&m);
            assert_same(&next, &next_naive, &format!("after {m} from {fen}"));
        }
    }
    println!("{stats:?}");
    assert!(stats.flying > 500, "{stats:?}");
    assert!(stats.mill_moves_removing_nothing > 200, "{stats:?}");
    assert!(stats.removals_from_mills > 1_000, "{stats:?}");
    assert!(stats.flyer_mill_stone_removals > 100, "{stats:?}");
    assert!(stats.ends.iter().all(|&n| n > 50), "{stats:?}");
}

/// Hand-written middle-game and endgame positions: (rules, position, depth).
const POSITIONS: &[(&str, &str, u32)] = &[
    // moving phase, many stones
    ("standard", "W.B/.WB/W.B/BW..WB/.W./B.W/... w 0 0 12 20", 4),
    (
        "ravensburger",
        "W.B/.WB/W.B/BW..WB/.W./B.W/... w 0 0 12 20",
        4,
    ),
    // placing phase with a mill threat for each side
    ("standard", "WW./.B./.../B..W../.../..B/... w 6 6 0 4", 3),
    (
        "ravensburger",
        "WW./.B./.../B..W../.../..B/... w 6 6 0 4",
        3,
    ),
    // last stone to place for Black, White already moving
    ("standard", "WWB/BWB/.W./B.W.BW/.B./W.B/.W. b 0 1 0 9", 4),
    // both sides fly
    ("standard", "W../.../B.B/...W../.../.B./..W w 0 0 5 40", 3),
    // only White flies
    ("standard", "W../.B./B.B/...W../.B./.B./..W w 0 0 5 40", 3),
    // three stones do not fly without the flying rule
    ("no-flying", "W../.B./B.B/...W../.B./.B./..W w 0 0 5 40", 4),
    // all Black stones in mills: the tournament rule removes any, the strict rule none
    ("standard", "BBB/B../..W/.B.WW./WW./B../... w 0 0 3 30", 4),
    (
        "ravensburger",
        "BBB/B../..W/.B.WW./WW./B../... w 0 0 3 30",
        4,
    ),
    // a flyer's stones in a mill: not protected even under the strict rule
    (
        "ravensburger",
        "BBB/.../..W/...WW./WW./.../... w 0 0 0 30",
        3,
    ),
    (
        "ravensburger,flying=off",
        "BBB/.../..W/...WW./WW./.../... w 0 0 0 30",
        3,
    ),
    // the 20-ply rule of seed 000 cuts lines short
    ("seed-000", "W.B/.WB/W.B/BW..WB/.W./B.W/... w 0 0 16 20", 5),
    // a blocked side to move
    ("standard", "BWB/.../.../W....W/.../.../BWB b 0 0 0 20", 2),
];

#[test]
fn perft_of_middle_and_endgame_positions_equals_naive_perft() {
    let mut distinct = BTreeSet::new();
    for &(rules, fen, depth) in POSITIONS {
        let rules: RuleSet = rules.parse().expect("rules");
        let pos = Position::from_fen(fen, rules).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let naive = Naive::from_position(&pos);
        for d in 1..=depth {
            let lib = perft(&pos, d);
            assert_eq!(lib, naive.perft(d), "{rules} {fen} depth {d}");
            distinct.insert(lib);
        }
        // perft_divide splits the same total over the first moves
        let divided: u64 = perft_divide(&pos, depth).iter().map(|(_, n)| n).sum();
        assert_eq!(divided, perft(&pos, depth), "divide {rules} {fen}");
    }
    assert!(
        distinct.len() > 20,
        "the positions should not all be trivial"
    );
}

#[test]
fn perft_shows_the_rule_differences() {
    let all_in_mills = "BBB/B../..W/.B.WW./WW./B../... w 0 0 3 30";
    let std = Position::from_fen(all_in_mills, RuleSet::STANDARD).expect("valid");
    let rav = Position::from_fen(all_in_mills, RuleSet::RAVENSBURGER).expect("valid");
    // e4-e3 (c3-d3-e3) and d3-e3 (e3-e4-e5) close mills: six choices each
    // under the tournament rule, one move without removal each under the strict rule.
    assert_eq!(perft(&std, 1) - perft(&rav, 1), 2 * 5);
    let flyer = "BBB/.../..W/...WW./WW./.../... w 0 0 0 30";
    let rav = Position::from_fen(flyer, RuleSet::RAVENSBURGER).expect("valid");
    let strict_no_fly =
        Position::from_fen(flyer, "ravensburger,flying=off".parse().expect("rules"))
            .expect("valid");
    // The same two mills against the flyer: three choices each instead of one move each.
    assert_eq!(perft(&rav, 1) - perft(&strict_no_fly, 1), 2 * 2);
}

/// The counts of `tests/perft.txt` that the naive generator can check in
/// reasonable time.
#[test]
fn perft_file_small_counts_equal_naive_perft() {
    let mut checked = 0;
    for case in perft_cases() {
        let pos = Position::from_fen(&case.fen, case.rules).expect("valid position");
        let naive = Naive::from_position(&pos);
        for &(depth, count) in &case.counts {
            if count <= 600_000 {
                assert_eq!(
                    naive.perft(depth),
                    count,
                    "perft.txt line {} depth {depth}",
                    case.line
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 30, "only {checked} counts checked");
}

/// The generic perft test: every count in `tests/perft.txt`.
#[test]
fn perft_file() {
    let cases = perft_cases();
    assert!(cases.len() >= 8);
    for case in cases {
        let pos = Position::from_fen(&case.fen, case.rules)
            .unwrap_or_else(|e| panic!("perft.txt line {}: {e}", case.line));
        for (depth, count) in case.counts {
            assert_eq!(
                perft(&pos, depth),
                count,
                "perft.txt line {} ({} {}) depth {depth}",
                case.line,
                case.rules,
                case.fen
            );
        }
    }
}

#[test]
fn perft_file_covers_every_preset_from_the_start_to_depth_6() {
    let start = Setup::START.to_string();
    for name in muehle::PRESETS {
        let rules = RuleSet::preset(name).expect("preset");
        let depths: Vec<u32> = perft_cases()
            .into_iter()
            .filter(|c| c.rules == rules && c.fen == start)
            .flat_map(|c| c.counts.into_iter().map(|(d, _)| d))
            .collect();
        for d in 1..=6 {
            assert!(depths.contains(&d), "{name}: no depth {d} from the start");
        }
    }
}

#[test]
fn naive_geometry_is_the_drawn_board() {
    // 24 points, 32 segments, every point in exactly two mills, and the
    // four middle-ring midpoints (003: "four places … with 4 neighbouring
    // places") are the only points with four neighbours.
    assert_eq!(POINTS.len(), 24);
    let mut degree = [0; 24];
    for [a, b] in common::LINES {
        degree[common::pt(a)] += 1;
        degree[common::pt(b)] += 1;
    }
    let four: BTreeSet<&str> = (0..24)
        .filter(|&i| degree[i] == 4)
        .map(|i| POINTS[i])
        .collect();
    assert_eq!(four, ["b4", "d2", "d6", "f4"].into_iter().collect());
    for p in POINTS {
        let n = MILLS.iter().filter(|m| m.contains(&p)).count();
        assert_eq!(n, 2, "{p}");
    }
    // Every mill is a straight line of drawn segments.
    for m in MILLS {
        let joined = |a: &str, b: &str| {
            common::LINES
                .iter()
                .any(|l| (l[0] == a && l[1] == b) || (l[0] == b && l[1] == a))
        };
        assert!(joined(m[0], m[1]) && joined(m[1], m[2]), "{m:?}");
    }
    // The library's neighbours are the drawn lines.
    for (i, p) in POINTS.iter().enumerate() {
        let sq: muehle::Square = p.parse().expect("point");
        let lib: BTreeSet<&str> = sq.neighbours().iter().map(|s| s.name()).collect();
        let ours: BTreeSet<&str> = common::LINES
            .iter()
            .filter_map(|l| {
                if l[0] == POINTS[i] {
                    Some(l[1])
                } else if l[1] == POINTS[i] {
                    Some(l[0])
                } else {
                    None
                }
            })
            .collect();
        assert_eq!(lib, ours, "{p}");
    }
}

#[test]
fn naive_removal_rules() {
    // Black's stones a7 d7 g7 (a mill) and b4 (free): the tournament and the
    // strict rule both allow only b4.
    let mut n = Naive::start(NaiveRules::STANDARD);
    n.hand = [0, 0];
    for p in ["a7", "d7", "g7", "b4"] {
        n.board[common::pt(p)] = Some(Side::Black);
    }
    let free = vec![common::pt("b4")];
    assert_eq!(n.removal_choices(Side::White), free);
    n.rules.removal = Removal::Strict;
    assert_eq!(n.removal_choices(Side::White), free);
    // Without b4 every black stone stands in a mill and Black flies.
    n.board[common::pt("b4")] = None;
    assert_eq!(n.removal_choices(Side::White).len(), 3);
    n.rules.flying = false;
    assert!(n.removal_choices(Side::White).is_empty());
    n.rules.removal = Removal::Tournament;
    assert_eq!(n.removal_choices(Side::White).len(), 3);
}

#[test]
fn random_games_agree_on_the_color_of_the_winner() {
    // The naive generator and the library agree on who wins random games played to the end.
    let mut rng = Rng::new(7);
    let mut decided = 0;
    for _ in 0..200 {
        let mut pos = Position::new(RuleSet::STANDARD);
        let mut naive = Naive::start(NaiveRules::STANDARD);
        loop {
            let moves = naive.moves();
            if moves.is_empty() {
                break;
            }
            let m = pick(&naive, &moves, &mut rng);
            pos = pos
                .play(Move::parse(&m.to_string()).expect("notation"))
                .expect("legal");
            naive = naive.play(&m);
        }
        let outcome = pos.outcome().expect("the game is over");
        match naive.end().expect("over") {
            NaiveEnd::TwoStones | NaiveEnd::Blocked => {
                decided += 1;
                let loser = if naive.turn == Side::White {
                    Color::White
                } else {
                    Color::Black
                };
                assert_eq!(outcome.winner, Some(loser.other()));
            }
            NaiveEnd::NoMill | NaiveEnd::BoardFull => assert_eq!(outcome.winner, None),
        }
    }
    assert!(decided > 100);
}
