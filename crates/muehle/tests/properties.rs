//! Property tests over random games under random rule sets, and parsers fed
//! arbitrary text.

use std::collections::HashSet;

use muehle::symmetry::Symmetry;
use muehle::{Game, Move, Position, RemovalRule, RuleSet, Setup};
use proptest::prelude::*;

/// A random rule set: either removal rule, flying on or off, a no-mill limit
/// (small ones included, so that it ends lines) or none, a repetition count
/// or none.
fn rules() -> impl Strategy<Value = RuleSet> {
    (
        any::<bool>(),
        any::<bool>(),
        prop_oneof![Just(None), (1u16..=120).prop_map(Some)],
        prop_oneof![Just(None), (2u8..=5).prop_map(Some)],
    )
        .prop_map(|(strict, flying, no_mill_draw, repetition_draw)| RuleSet {
            removal: if strict {
                RemovalRule::Never
            } else {
                RemovalRule::UnlessAllInMills
            },
            flying,
            no_mill_draw,
            repetition_draw,
            ..RuleSet::STANDARD
        })
}

/// A small deterministic PRNG driving the random games.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// Play up to `len` random legal moves (preferring mills half of the time,
/// so that games reach the flying phase and the end) and return the game.
fn random_game(rules: RuleSet, seed: u64, len: usize) -> Game {
    let mut rng = Lcg(seed);
    let mut game = Game::new(rules);
    for _ in 0..len {
        let list = game.legal_moves();
        if list.is_empty() {
            break;
        }
        let mills: Vec<Move> = list
            .iter()
            .copied()
            .filter(|m| m.removal().is_some())
            .collect();
        let m = if !mills.is_empty() && rng.below(2) == 0 {
            mills[rng.below(mills.len())]
        } else {
            list[rng.below(list.len())]
        };
        game.play(m).expect("a generated move is legal");
    }
    game
}

/// The comments a record written with `comments` gives back for a game of
/// `ply` moves: as written (see `comment_token`), trimmed, none for empty
/// ones or beyond the moves, without the trailing `None`s.
fn read_as(comments: &[Option<String>], ply: usize) -> Vec<Option<String>> {
    let mut out: Vec<Option<String>> = comments
        .iter()
        .take(ply)
        .map(|c| {
            let written = boardgame::record::comment_token(c.as_deref()?);
            let inner = written[1..written.len() - 1].trim();
            (!inner.is_empty()).then(|| inner.to_string())
        })
        .collect();
    while out.last().is_some_and(Option::is_none) {
        out.pop();
    }
    out
}

fn game_strategy() -> impl Strategy<Value = Game> {
    (rules(), any::<u64>(), 0usize..250)
        .prop_map(|(rules, seed, len)| random_game(rules, seed, len))
}

/// Every position of the game, the start included.
fn positions(game: &Game) -> impl Iterator<Item = &Position> {
    (0..=game.ply()).map(|i| game.position_at(i).expect("position"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn incremental_hash_equals_computed_hash(game in game_strategy()) {
        for pos in positions(&game) {
            prop_assert_eq!(pos.hash(), pos.compute_hash(), "{}", pos);
            let reread = Position::from_fen(&pos.fen(), *pos.rules()).expect("valid");
            prop_assert_eq!(reread.hash(), pos.hash());
        }
    }

    #[test]
    fn generated_moves_are_legal_and_counted(game in game_strategy()) {
        for pos in positions(&game) {
            let list = pos.legal_moves();
            prop_assert_eq!(pos.count_legal_moves(), list.len() as u64, "{}", pos);
            let distinct: HashSet<Move> = list.iter().copied().collect();
            prop_assert_eq!(distinct.len(), list.len(), "duplicates in {}", pos);
            prop_assert_eq!(list.is_empty(), pos.outcome().is_some(), "{}", pos);
            for &m in &list {
                prop_assert!(pos.is_legal(m));
                prop_assert!(pos.check_move(m).is_ok());
                let next = pos.play(m);
                prop_assert!(next.is_ok(), "{} in {}", m, pos);
                let next = next.expect("checked");
                let mut unchecked = *pos;
                unchecked.play_unchecked(m);
                prop_assert_eq!(unchecked, next);
                prop_assert_eq!(next.turn(), pos.turn().other());
                prop_assert!(Setup::validate(&next.to_setup()).is_ok(), "{} after {}", next, m);
                // a removal exactly when the move closes a mill and a stone may be removed
                let closes = pos.closes_mill(m);
                prop_assert_eq!(m.removal().is_some(), closes && pos.removable(pos.turn()).any());
            }
        }
    }

    #[test]
    fn symmetries_preserve_legal_moves(game in game_strategy()) {
        for pos in positions(&game).step_by(3) {
            let list = pos.legal_moves();
            for sym in Symmetry::ALL {
                let t = pos.transformed(sym);
                prop_assert_eq!(t.hash(), t.compute_hash());
                prop_assert_eq!(t.count_legal_moves(), list.len() as u64, "{:?} of {}", sym, pos);
                prop_assert_eq!(t.outcome(), pos.outcome());
                let mapped: HashSet<Move> = t.legal_moves().into_iter().collect();
                prop_assert_eq!(mapped.len(), list.len());
                let inverse = sym.inverse();
                for &m in &list {
                    let image = sym.apply_move(m);
                    prop_assert!(mapped.contains(&image), "{} -> {} under {:?} in {}", m, image, sym, pos);
                    prop_assert_eq!(inverse.apply_move(image), m);
                }
                prop_assert_eq!(t.transformed(inverse), *pos);
            }
        }
    }

    #[test]
    fn move_notation_round_trips(game in game_strategy()) {
        for pos in positions(&game).step_by(2) {
            for m in pos.legal_moves() {
                let text = m.to_string();
                prop_assert_eq!(Move::parse(&text), Ok(m));
                prop_assert_eq!(text.to_uppercase().parse::<Move>(), Ok(m));
                prop_assert_eq!(pos.parse_move(&text), Ok(m));
                prop_assert_eq!(Move::from_u16(m.to_u16()), Some(m));
            }
        }
    }

    #[test]
    fn position_strings_round_trip(game in game_strategy()) {
        for pos in positions(&game) {
            let fen = pos.fen();
            let back = Position::from_fen(&fen, *pos.rules());
            prop_assert_eq!(back.as_ref().map(Position::fen), Ok(fen.clone()));
            prop_assert_eq!(back.expect("valid"), *pos);
            let setup: Setup = fen.parse().expect("setup");
            prop_assert_eq!(setup, pos.to_setup());
            prop_assert_eq!(setup.to_string(), fen);
        }
    }

    #[test]
    fn game_records_round_trip(
        game in game_strategy(),
        event in any::<String>(),
        key in any::<String>(),
        value in any::<String>(),
    ) {
        let mut game = game;
        game.set_tag(&key, &value);
        game.set_tag("Event", &event);
        let record = game.to_record();
        let back = Game::from_record(&record);
        prop_assert!(back.is_ok(), "{:?}\n{}", back.err(), record);
        let back = back.expect("checked");
        prop_assert_eq!(back.to_record(), record.clone());
        prop_assert_eq!(back.moves(), game.moves());
        prop_assert_eq!(back.outcome(), game.outcome());
        // line breaks in tag values are written as spaces
        let written = event.replace(['\r', '\n'], " ");
        prop_assert_eq!(back.tag("Event"), Some(written.as_str()));
        // The movetext alone (with the rules and start tags) replays the same game.
        let header: String = record.lines().filter(|l| l.starts_with("[Rules") || l.starts_with("[FEN")).map(|l| format!("{l}\n")).collect();
        let replay = Game::from_record(&format!("{header}\n{}", game.movetext()));
        prop_assert!(replay.is_ok(), "{:?}", replay.err());
        let replay = replay.expect("checked");
        prop_assert_eq!(replay.moves(), game.moves());
    }

    #[test]
    fn comments_after_the_moves_read_back(
        game in game_strategy(),
        comments in prop::collection::vec(prop::option::of(any::<String>()), 0..40),
    ) {
        let record = game.to_record_with_comments(&comments);
        let back = Game::from_record(&record);
        prop_assert!(back.is_ok(), "{:?}\n{}", back.err(), record);
        let back = back.expect("checked");
        prop_assert_eq!(back.moves(), game.moves());
        prop_assert_eq!(back.session().move_comments(), &read_as(&comments, game.ply())[..]);
        prop_assert_eq!(back.to_record_with_comments(back.session().move_comments()), record);
    }

    #[test]
    fn rule_sets_round_trip(rules in rules()) {
        let text = rules.to_string();
        prop_assert_eq!(text.parse::<RuleSet>(), Ok(rules));
        prop_assert!(!text.contains(' '));
    }
}

/// Text that looks somewhat like the inputs, to reach deeper into the parsers.
fn move_like() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[a-hA-HxX:\\- 0-9]{0,10}",
        "[a-g][1-7](-[a-g][1-7])?(x[a-g][1-7])?",
    ]
}

fn position_like() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[WBwbO@X.*\\-/]{0,30} [wbWBx] [0-9]{1,3} [0-9]{1,3} [0-9]{1,5} [0-9]{1,5}",
        "[WB.]{3}/[WB.]{3}/[WB.]{3}/[WB.]{6}/[WB.]{3}/[WB.]{3}/[WB.]{3} [wb] [0-9] [0-9] [0-9]{1,3} [0-9]{1,2}",
    ]
}

fn rules_like() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "(standard|ravensburger|seed-000|no-flying|)(,(removal|flying|no-mill|repetition|x)=(on|off|strict|tournament|[0-9]{1,6}| ))*",
    ]
}

fn record_like() -> impl Strategy<Value = String> {
    let tag = "\\[(Event|Rules|FEN|Result|Termination|[A-Za-z_]{1,5}) \"[ -~]{0,20}\"\\]\n";
    let token = "([0-9]{1,2}\\.{1,3} ?)?([a-g][1-7](-[a-g][1-7])?( ?x[a-g][1-7])?|1-0|0-1|1/2-1/2|\\*|\\{[a-z ]*\\}|;[a-z ]*\n) ";
    prop_oneof![
        any::<String>(),
        (
            proptest::collection::vec(tag, 0..4),
            proptest::collection::vec(token, 0..12)
        )
            .prop_map(|(tags, tokens)| format!("{}\n{}", tags.concat(), tokens.concat())),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn parsing_arbitrary_moves_never_panics(text in move_like()) {
        if let Ok(m) = Move::parse(&text) {
            prop_assert_eq!(Move::parse(&m.to_string()), Ok(m));
            prop_assert_eq!(Move::from_u16(m.to_u16()), Some(m));
        }
        let _ = muehle::join_removal_tokens(text.split_whitespace());
        let _ = Position::default().parse_move(&text);
    }

    #[test]
    fn parsing_arbitrary_positions_never_panics(text in position_like()) {
        if let Ok(setup) = text.parse::<Setup>() {
            prop_assert_eq!(setup.to_string().parse::<Setup>(), Ok(setup));
            if let Ok(pos) = Position::from_setup(setup, RuleSet::STANDARD) {
                prop_assert_eq!(Position::from_fen(&pos.fen(), RuleSet::STANDARD), Ok(pos));
                prop_assert_eq!(pos.count_legal_moves(), pos.legal_moves().len() as u64);
            }
        }
        let _ = Position::from_fen(&text, RuleSet::RAVENSBURGER);
    }

    #[test]
    fn parsing_arbitrary_rule_sets_never_panics(text in rules_like()) {
        if let Ok(rules) = text.parse::<RuleSet>() {
            prop_assert_eq!(rules.to_string().parse::<RuleSet>(), Ok(rules));
        }
    }

    #[test]
    fn parsing_arbitrary_records_never_panics(text in record_like()) {
        if let Ok(game) = Game::from_record(&text) {
            let record = game.to_record();
            let back = Game::from_record(&record);
            prop_assert!(back.is_ok(), "{:?}\n{}", back.err(), record);
            let back = back.expect("checked");
            prop_assert_eq!(back.to_record(), record);
            prop_assert_eq!(back.moves(), game.moves());
            prop_assert_eq!(back.outcome(), game.outcome());
        }
    }
}
