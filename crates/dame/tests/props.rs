//! Property tests over random games for every preset: the incremental hash
//! equals the recomputed one, every generated move applies, notation, FEN
//! and PDN round-trip; and the parsers never panic on arbitrary input.

use proptest::prelude::*;

use dame::{BoardSize, Game, MoveText, Position, RuleSet, Setup, Square, eval, perft::perft};

fn rule_sets() -> Vec<RuleSet> {
    let custom = [
        "dame,huffing=on",
        "international,huffing=on,king-moves=20",
        "dame,king-capture=short,huffing=on",
        "international,king-capture=short",
    ];
    dame::PRESETS
        .into_iter()
        .chain(custom)
        .map(|s| s.parse().expect("rules"))
        .collect()
}

/// Play a random game from the start (seeded), huffing now and then where
/// allowed; check every step.
fn random_game(rules: RuleSet, seed: u64, max_plies: usize) -> Game {
    let mut state = seed | 1;
    let mut next = move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n.max(1) as u64) as usize
    };
    let mut g = Game::new(rules);
    for _ in 0..max_plies {
        if g.is_over() {
            break;
        }
        let huffable: Vec<Square> = g.huffable().squares(rules.board).collect();
        if !huffable.is_empty() && next(2) == 0 {
            g.huff(huffable[next(huffable.len())]).expect("huffable");
            if g.is_over() {
                break;
            }
        }
        let pos = *g.position();
        let moves = pos.legal_moves();
        assert_eq!(pos.count_legal_moves(), moves.len() as u64);
        if moves.is_empty() {
            break;
        }
        for m in &moves {
            // Every generated move applies and its notation reads back.
            let after = pos.play(m).expect("generated moves are legal");
            assert_eq!(after.hash(), after.compute_hash());
            assert_eq!(pos.parse_move(&m.to_string()), Ok(*m));
            assert_eq!(pos.parse_move(&pos.short_notation(m)), Ok(*m));
        }
        let m = moves[next(moves.len())];
        g.play(&m).expect("legal");
        let now = g.position();
        assert_eq!(now.hash(), now.compute_hash(), "incremental hash");
        // FEN round trip.
        let back = Position::from_fen(&now.fen(), rules).expect("own FEN reads");
        assert_eq!(&back, now);
        let _ = eval::evaluate(now);
    }
    g
}

/// A 10×10 ending from a seed: a lone black king against one to three white
/// pieces, at least one of them a king, with the ending counter `counter`.
fn random_ending(seed: u64, counter: u16, black_to_move: bool) -> Setup {
    let mut state = seed | 1;
    let mut next = move |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    let mut setup = Setup::empty(BoardSize::Ten);
    let mut free: Vec<u8> = (1..=50).collect();
    let mut take = |lowest: u8, next: &mut dyn FnMut(u64) -> u64| {
        let candidates: Vec<usize> = (0..free.len()).filter(|&i| free[i] >= lowest).collect();
        let i = candidates[next(candidates.len() as u64) as usize];
        let sq = Square::from_number(BoardSize::Ten, free.swap_remove(i)).expect("1..=50");
        sq.bb()
    };
    let black_king = take(1, &mut next);
    setup.pieces[1] = black_king;
    setup.kings = black_king;
    let white = 1 + next(3);
    for i in 0..white {
        let king = i == 0 || next(2) == 0;
        // White men stand off their promotion row (squares 1-5).
        let sq = take(if king { 1 } else { 6 }, &mut next);
        setup.pieces[0] |= sq;
        if king {
            setup.kings |= sq;
        }
    }
    setup.ending_plies = counter;
    if black_to_move {
        setup.turn = dame::Color::Black;
    }
    setup
}

/// perft(2) added up by hand: the children's move counts.
fn children_move_counts(pos: &Position) -> u64 {
    pos.legal_moves()
        .iter()
        .map(|m| {
            let mut c = *pos;
            c.play_unchecked(m);
            c.count_legal_moves()
        })
        .sum()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// FMJD endings under `international`: the ending counter round-trips
    /// through the FEN and PDN, is 0 outside a counted ending, grows by one
    /// per ply within one, the limit draws, and perft's bulk counting agrees.
    #[test]
    fn endings_keep_their_counter_through_play_fen_and_pdn(seed in any::<u64>(), counter in 0u16..40, black in any::<bool>()) {
        let rules = RuleSet::INTERNATIONAL;
        let setup = random_ending(seed, counter, black);
        let start = Position::from_setup(setup, rules).expect("valid ending");
        prop_assert!(start.counted_ending().is_some());
        prop_assert_eq!(start.ending_plies(), counter);
        prop_assert_eq!(Position::from_fen(&start.fen(), rules), Ok(start));
        let mut g = Game::from_position(start);
        let mut state = seed.rotate_left(17) | 1;
        for _ in 0..24 {
            let pos = *g.position();
            prop_assert_eq!(perft(&pos, 2), children_move_counts(&pos));
            if let Some((_, limit)) = pos.counted_ending()
                && pos.ending_plies() >= limit
            {
                prop_assert!(pos.outcome().is_some(), "{}", pos.fen());
            }
            if g.is_over() {
                break;
            }
            let moves = pos.legal_moves();
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let m = moves[(state % moves.len() as u64) as usize];
            g.play(&m).expect("legal");
            let now = g.position();
            match (pos.counted_ending(), now.counted_ending()) {
                (_, None) | (None, Some(_)) => prop_assert_eq!(now.ending_plies(), 0),
                (Some((a, _)), Some((b, _))) if a == b => {
                    prop_assert_eq!(now.ending_plies(), pos.ending_plies() + 1);
                }
                (Some((_, old)), Some((_, new))) => {
                    // The new ending ends no later than the old one would have.
                    let left_before = old.saturating_sub(pos.ending_plies() + 1);
                    prop_assert_eq!(new - now.ending_plies().min(new), left_before.min(new));
                }
            }
            prop_assert_eq!(&Position::from_fen(&now.fen(), rules).expect("own FEN"), now);
        }
        let pdn = g.to_pdn();
        let back = Game::from_pdn(&pdn).unwrap_or_else(|e| panic!("{e}\n{pdn}"));
        prop_assert_eq!(back.position(), g.position());
        prop_assert_eq!(back.outcome(), g.outcome());
    }

    #[test]
    fn random_games_keep_every_invariant_and_round_trip_through_pdn(seed in any::<u64>(), which in 0usize..8) {
        let rules = rule_sets()[which];
        let g = random_game(rules, seed, 160);
        let pdn = g.to_pdn();
        let back = Game::from_pdn(&pdn).unwrap_or_else(|e| panic!("{e}\n{pdn}"));
        prop_assert_eq!(back.moves(), g.moves());
        prop_assert_eq!(back.huffs(), g.huffs());
        prop_assert_eq!(back.position(), g.position());
        prop_assert_eq!(back.outcome(), g.outcome());
        prop_assert_eq!(back.to_pdn(), pdn);
    }

    #[test]
    fn clock_comments_and_any_other_comment_survive_the_pdn(
        seed in any::<u64>(),
        which in 0usize..8,
        text in "\\PC{0,30}",
    ) {
        let g = random_game(rule_sets()[which], seed, 80);
        // A clock time after every move but the third, which gets `text`.
        let comments: Vec<Option<String>> = (0..g.ply())
            .map(|i| {
                Some(if i == 2 {
                    text.clone()
                } else {
                    boardgame::clock::clk_comment(1000 * i as u64)
                })
            })
            .collect();
        let pdn = g.to_record_with_comments(&comments);
        let back = Game::from_pdn(&pdn).unwrap_or_else(|e| panic!("{e}\n{pdn}"));
        prop_assert_eq!(back.moves(), g.moves());
        prop_assert_eq!(back.huffs(), g.huffs());
        let read = back.session().move_comments();
        for (i, c) in read.iter().enumerate().filter(|(i, _)| *i != 2) {
            let time = c.as_deref().and_then(boardgame::clock::clk_in_comment);
            prop_assert_eq!(time, Some(1000 * i as u64), "{}", pdn);
        }
        prop_assert_eq!(back.to_record_with_comments(read), pdn);
    }

    #[test]
    fn undo_restores_every_earlier_state(seed in any::<u64>(), which in 0usize..8) {
        let rules = rule_sets()[which];
        let mut g = random_game(rules, seed, 60);
        while g.undo().is_ok() {
            prop_assert_eq!(g.position().hash(), g.position().compute_hash());
        }
        prop_assert_eq!(g.position(), &Position::new(rules));
        prop_assert_eq!(g.ply(), 0);
    }

    #[test]
    fn perft_two_equals_the_sum_of_the_childrens_counts(seed in any::<u64>(), which in 0usize..8) {
        let rules = rule_sets()[which];
        let g = random_game(rules, seed, 40);
        let pos = *g.position();
        prop_assert_eq!(perft(&pos, 2), children_move_counts(&pos));
    }

    #[test]
    fn fen_of_any_valid_setup_round_trips(bits_w in any::<u64>(), bits_b in any::<u64>(), kings in any::<u64>(), ten in any::<bool>(), black in any::<bool>(), clock in 0u16..100, ending in any::<u16>(), number in 1u16..300) {
        let size = if ten { BoardSize::Ten } else { BoardSize::Eight };
        let mask = size.mask().0;
        let w = bits_w & mask;
        let b = bits_b & mask & !w;
        let mut setup = Setup::empty(size);
        setup.pieces = [dame::Bitboard(w), dame::Bitboard(b)];
        setup.kings = dame::Bitboard(kings & (w | b));
        setup.turn = if black { dame::Color::Black } else { dame::Color::White };
        setup.king_moves = clock;
        setup.ending_plies = ending;
        setup.move_number = number;
        let text = setup.fen();
        let back = Setup::from_fen(&text, size).unwrap_or_else(|e| panic!("{text}: {e}"));
        prop_assert_eq!(back, setup);
        // Valid or not, the checks never panic.
        let _ = setup.validate();
    }

    #[test]
    fn parsers_never_panic(text in "\\PC{0,60}") {
        let _ = text.parse::<Square>();
        let _ = Square::parse(&text, BoardSize::Eight);
        let _ = Square::parse(&text, BoardSize::Ten);
        let _ = MoveText::parse(&text, BoardSize::Eight);
        let _ = MoveText::parse(&text, BoardSize::Ten);
        let _ = text.parse::<Setup>();
        let _ = text.parse::<Position>();
        let _ = text.parse::<RuleSet>();
        let _ = Game::from_pdn(&text);
        for rules in [RuleSet::DAME, RuleSet::INTERNATIONAL] {
            let _ = Position::new(rules).parse_move(&text);
            let _ = Position::from_fen(&text, rules);
        }
    }

    #[test]
    fn parsers_never_panic_on_near_misses(text in "[WBKwbkHEF:,.0-9a-jx -]{0,40}") {
        let _ = text.parse::<Setup>();
        let _ = Setup::from_fen(&text, BoardSize::Eight);
        let _ = Setup::from_fen(&text, BoardSize::Ten);
        let _ = MoveText::parse(&text, BoardSize::Ten);
        let _ = Game::from_pdn(&format!("[GameType \"20\"]\n\n{text}"));
        let _ = Game::from_pdn(&format!("[Rules \"dame,huffing=on\"]\n\n{text}"));
        let mut g = Game::new(RuleSet::INTERNATIONAL);
        let _ = g.play_str(&text);
        let _ = g.huff_str(&text);
    }
}
