//! The game: huffing scenarios, draws and declared results, undo, and PDN
//! records.

use dame::{
    Bitboard, BoardSize, Color, EndReason, Game, GameError, ParseFenError, Position, RecordError,
    RuleSet, Setup, Square, Undone, game_type, parse_huff_token,
};

fn game(rules: &str, fen: &str) -> Game {
    let rules: RuleSet = rules.parse().expect("rules");
    Game::from_position(Position::from_fen(fen, rules).unwrap_or_else(|e| panic!("{fen}: {e}")))
}

fn sq8(name: &str) -> Square {
    Square::parse(name, BoardSize::Eight).expect("square")
}

fn bb8(names: &str) -> Bitboard {
    names.split_whitespace().map(sq8).collect()
}

fn play(g: &mut Game, moves: &str) {
    for m in moves.split_whitespace() {
        g.play_str(m)
            .unwrap_or_else(|e| panic!("{m} in {}: {e}", g.position()));
    }
}

// ---------------------------------------------------------------------------
// Huffing

/// 004: "Der Stein, der eine Schlagmöglichkeit übersehen hat, wird zur
/// Strafe vom Spielbrett genommen, was nicht als Zug gewertet wird."
#[test]
fn huffing_removes_the_piece_that_should_have_captured_and_is_not_a_move() {
    let mut g = game("dame,huffing=on", "W:Wc3,g3:Bd4,a7");
    play(&mut g, "g3-h4");
    assert_eq!(g.huffable(), bb8("c3"));
    g.huff(sq8("c3")).expect("allowed");
    assert_eq!(g.pending_huff(), Some(sq8("c3")));
    assert_eq!(g.position().turn(), Color::Black);
    assert_eq!(g.position().fen(), "B:Wh4:Bd4,a7");
    play(&mut g, "a7-b6");
    assert_eq!(g.huffs(), &[None, Some(sq8("c3"))]);
    assert_eq!(g.ply(), 2);
}

/// The piece that skipped its capture and moved is huffed on its new square.
#[test]
fn the_moved_piece_is_huffed_on_its_new_square() {
    let mut g = game("dame,huffing=on", "W:Wc3:Bd4,a7");
    play(&mut g, "c3-b4");
    assert_eq!(g.huffable(), bb8("b4"));
    g.huff_str("b4").expect("allowed");
    // White has nothing left: Black wins at once.
    let o = g.outcome().expect("over");
    assert_eq!(
        (o.winner, o.reason),
        (Some(Color::Black), EndReason::NoPieces)
    );
}

/// When several pieces could have captured, the opponent chooses one of
/// them; only one piece is removed.
#[test]
fn with_several_capturers_the_opponent_chooses_one() {
    let mut g = game("dame,huffing=on", "W:Wc3,e3,g1:Bd4,a7");
    play(&mut g, "g1-h2");
    assert_eq!(g.huffable(), bb8("c3 e3"));
    g.huff(sq8("e3")).expect("allowed");
    assert_eq!(g.huffable(), Bitboard::EMPTY);
    match g.huff(sq8("c3")) {
        Err(GameError::HuffNotAllowed { why, .. }) => assert!(why.contains("already"), "{why}"),
        other => panic!("{other:?}"),
    }
}

/// No huffing after a capture, after a move when no capture was possible,
/// with the rule off, or once the next move has been made.
#[test]
fn huffing_is_allowed_only_right_after_a_skipped_capture() {
    let mut g = game("dame,huffing=on", "W:Wc3,g3:Bd4,a7");
    play(&mut g, "c3xe5");
    assert!(g.huffable().is_empty());
    let mut g = game("dame,huffing=on", "W:Wc3,g3:Bh6,a7");
    play(&mut g, "g3-h4");
    assert!(g.huffable().is_empty());
    assert!(matches!(
        g.huff(sq8("c3")),
        Err(GameError::HuffNotAllowed { .. })
    ));
    // The right lapses with the move: Black moved instead of huffing c3.
    let mut g = game("dame,huffing=on", "W:Wb2,c3,g3:Bd4,a7,h8");
    play(&mut g, "g3-h4");
    assert_eq!(g.huffable(), bb8("c3"));
    play(&mut g, "a7-b6");
    assert!(
        g.huffable().is_empty(),
        "White may not huff, and Black's chance is gone"
    );
    // Rule off: a skipped capture is not even legal.
    let mut g = game("dame", "W:Wc3,g3:Bd4,a7");
    assert!(g.play_str("g3-h4").is_err());
    g.play_str("c3xe5").expect("legal");
    match g.huff(sq8("e5")) {
        Err(GameError::HuffNotAllowed { why, .. }) => assert!(why.contains("huffing=on"), "{why}"),
        other => panic!("{other:?}"),
    }
}

/// With the majority rule only the pieces that could have made a capture
/// of the most pieces count as "should have captured".
#[test]
fn with_the_majority_rule_only_the_longest_capturers_may_be_huffed() {
    let mut g = game("international,huffing=on", "W:W37,38,39,46:B32,21,33,5");
    assert_eq!(g.position().capturing_pieces().count(), 1);
    play(&mut g, "46-41");
    let s = |n| Square::from_number(BoardSize::Ten, n).expect("square");
    assert_eq!(g.huffable(), s(38).bb());
}

/// A player blocked after the opponent's skipped capture may huff the piece
/// that blocks; the game goes on.
#[test]
fn a_blocked_player_who_can_huff_free_plays_on() {
    let mut g = game("dame,huffing=on", "W:Wa3,c3,d2,g1:Bb4");
    play(&mut g, "g1-h2");
    assert!(!g.is_over(), "Black may huff a3 or c3 and then move");
    assert!(g.legal_moves().is_empty());
    assert_eq!(g.huffable(), bb8("a3 c3"));
    g.huff(sq8("c3")).expect("allowed");
    assert_eq!(g.legal_moves().len(), 1);
    play(&mut g, "b4-c3");
}

/// Undo takes back a huff first, then the move (the huff before it is
/// pending again).
#[test]
fn undo_takes_back_huffs_and_moves() {
    let mut g = game("dame,huffing=on", "W:Wc3,g3:Bd4,a7");
    play(&mut g, "g3-h4");
    g.huff(sq8("c3")).expect("allowed");
    assert_eq!(g.undo(), Ok(Undone::Huff(sq8("c3"))));
    assert_eq!(g.huffable(), bb8("c3"));
    g.huff(sq8("c3")).expect("again");
    play(&mut g, "a7-b6");
    let Ok(Undone::Move(m)) = g.undo() else {
        panic!("a move")
    };
    assert_eq!(m.to_string(), "a7-b6");
    assert_eq!(g.pending_huff(), Some(sq8("c3")));
    assert_eq!(g.undo(), Ok(Undone::Huff(sq8("c3"))));
    assert!(matches!(g.undo(), Ok(Undone::Move(_))));
    assert_eq!(g.undo(), Err(GameError::NothingToUndo));
}

/// A huff is written `H` + square before the move in the record, and read
/// back.
#[test]
fn huffs_round_trip_through_pdn() {
    let mut g = game("dame,huffing=on", "W:Wc3,g3:Bd4,a7");
    play(&mut g, "g3-h4");
    g.huff(sq8("c3")).expect("allowed");
    play(&mut g, "a7-b6");
    let pdn = g.to_pdn();
    assert!(pdn.contains("1. g3-h4 Hc3 a7-b6 *"), "{pdn}");
    let back = Game::from_pdn(&pdn).expect("reads");
    assert_eq!(back.moves(), g.moves());
    assert_eq!(back.huffs(), g.huffs());
    assert_eq!(back.position(), g.position());
}

fn all_squares(size: BoardSize) -> Vec<Square> {
    (1..=size.squares() as u8)
        .map(|n| Square::from_number(size, n).expect("square"))
        .collect()
}

/// docs/DAME.md "Notation": a huff is `H` followed by the removed square.
/// On every square of both boards, `H` or `h` and the square's name (on
/// 8×8 in either case) is the huff of that square, and of no square on the
/// other board.
#[test]
fn huff_token_is_h_and_one_square_of_the_board() {
    for (size, other) in [
        (BoardSize::Eight, BoardSize::Ten),
        (BoardSize::Ten, BoardSize::Eight),
    ] {
        for sq in all_squares(size) {
            let name = sq.name();
            for token in [
                format!("H{name}"),
                format!("h{name}"),
                format!("H{}", name.to_ascii_uppercase()),
                format!("h{}", name.to_ascii_uppercase()),
                format!(" H{name} "),
            ] {
                assert_eq!(parse_huff_token(&token, size), Some(sq), "'{token}'");
                assert_eq!(parse_huff_token(&token, other), None, "'{token}'");
            }
            // A square alone, or with anything else around it, is no huff.
            for token in [
                name.to_string(),
                format!("H {name}"),
                format!("HH{name}"),
                format!("H{name}x"),
                format!("H{name}-"),
                format!("X{name}"),
                format!("{name}H"),
            ] {
                assert_eq!(parse_huff_token(&token, size), None, "'{token}'");
            }
        }
        for token in ["", "H", "h", "H0", "H51", "Hi1", "Ha2", "h-", "Hx", "H:"] {
            assert_eq!(parse_huff_token(token, size), None, "'{token}'");
        }
    }
    // On 8×8 `h3` is the square h3, never "a huff of 3"; on 10×10 (squares
    // are numbers) it is the huff of square 3.
    assert_eq!(parse_huff_token("h3", BoardSize::Eight), None);
    assert_eq!(
        parse_huff_token("h3", BoardSize::Ten),
        Square::from_number(BoardSize::Ten, 3)
    );
}

/// Every move token that starts on the h-file of 8×8 (`h2-g3`, `h4xf6`,
/// `h4xf6xd8`, upper case, `:` for `x`) is a move, never a huff; and no
/// legal move of the positions a few plies from the start, written in full
/// or by start and end, reads as a huff on either board.
#[test]
fn moves_from_the_h_file_are_moves_never_huffs() {
    let size = BoardSize::Eight;
    let squares = all_squares(size);
    for from in squares.iter().filter(|s| s.name().starts_with('h')) {
        for to in &squares {
            for via in &squares {
                let (f, t, v) = (from.name(), to.name(), via.name());
                for token in [
                    format!("{f}-{t}"),
                    format!("{f}x{t}"),
                    format!("{f}:{t}"),
                    format!("{f}x{v}x{t}"),
                    format!("{}X{}", f.to_ascii_uppercase(), t.to_ascii_uppercase()),
                ] {
                    assert!(dame::MoveText::parse(&token, size).is_ok(), "{token}");
                    assert_eq!(parse_huff_token(&token, size), None, "'{token}'");
                }
            }
        }
    }
    for rules in [RuleSet::DAME, RuleSet::DAME_FR, RuleSet::INTERNATIONAL] {
        let mut frontier = vec![Position::new(rules)];
        let mut seen_h_file = 0;
        for _ in 0..4 {
            let mut next = Vec::new();
            for pos in &frontier {
                for m in pos.legal_moves().iter() {
                    for token in [m.to_string(), m.short_notation()] {
                        assert_eq!(parse_huff_token(&token, rules.board), None, "'{token}'");
                        let back = pos.parse_move(&token).expect("reads back");
                        assert_eq!(&back, m);
                    }
                    if m.from().name().starts_with('h') {
                        seen_h_file += 1;
                    }
                    next.push(pos.play(m).expect("legal"));
                }
            }
            frontier = next;
        }
        if rules.board == size {
            assert!(seen_h_file > 100, "{seen_h_file} moves from the h-file");
        }
    }
}

/// A record with moves from the h-file and huffs of pieces on the h-file
/// (`Hh4`, and `hh4` when read) goes through PDN unchanged.
#[test]
fn pdn_with_h_file_moves_and_h_file_huffs_round_trips() {
    let mut g = Game::new("dame,huffing=on".parse().expect("rules"));
    // White skips h4xf6; Black huffs h4 and plays into the hole.
    play(&mut g, "g3-h4 f6-g5 a3-b4");
    assert_eq!(g.huffable(), bb8("h4"));
    g.huff(sq8("h4")).expect("allowed");
    play(&mut g, "g5-h4 h2-g3");
    let pdn = g.to_pdn();
    assert!(
        pdn.contains("1. g3-h4 f6-g5 2. a3-b4 Hh4 g5-h4 3. h2-g3 *"),
        "{pdn}"
    );
    for text in [
        pdn.clone(),
        pdn.replace("Hh4", "hh4"),
        pdn.replace("Hh4", "HH4"),
    ] {
        let back = Game::from_pdn(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back.moves(), g.moves());
        assert_eq!(back.huffs(), g.huffs());
        assert_eq!(back.position(), g.position());
        assert_eq!(back.to_pdn(), pdn);
    }
    // `h4` alone is neither a huff nor a move: the record is refused.
    let broken = pdn.replace("Hh4", "h4");
    assert!(Game::from_pdn(&broken).is_err(), "{broken}");
}

// ---------------------------------------------------------------------------
// Declared results, offers, undo

#[test]
fn draw_offers_resignation_and_game_over() {
    let mut g = Game::new(RuleSet::DAME);
    assert!(!g.offer_draw(Color::White).expect("running"));
    assert_eq!(g.draw_offer(), Some(Color::White));
    assert_eq!(
        g.accept_draw(Color::White),
        Err(GameError::NoDrawOffer(Color::White))
    );
    g.decline_draw(Color::Black).expect("declines");
    assert_eq!(g.draw_offer(), None);
    g.offer_draw(Color::Black).expect("offer");
    play(&mut g, "c3-d4");
    assert_eq!(g.draw_offer(), None, "moving declines the opponent's offer");
    g.offer_draw(Color::White).expect("offer");
    assert!(
        g.offer_draw(Color::Black).expect("offer"),
        "crossing offers agree"
    );
    assert_eq!(g.outcome().map(|o| o.reason), Some(EndReason::Agreement));
    assert!(matches!(g.play_str("f6-g5"), Err(GameError::Over(_))));
    // Undo reopens a declared result.
    g.undo().expect("undo");
    assert!(!g.is_over());
    g.resign(Color::White).expect("resigns");
    let o = g.outcome().expect("over");
    assert_eq!(
        (o.winner, o.reason),
        (Some(Color::Black), EndReason::Resignation)
    );
    assert_eq!(o.describe(), "White resigns: Black wins");
}

#[test]
fn end_reasons_have_codes() {
    for r in EndReason::ALL {
        assert_eq!(EndReason::from_code(r.code()), Some(r));
    }
    assert_eq!(EndReason::from_code("checkmate"), None);
}

// ---------------------------------------------------------------------------
// PDN

#[test]
fn pdn_of_an_international_game() {
    let mut g = Game::new(RuleSet::INTERNATIONAL);
    g.set_tag("White", "Anna");
    g.set_tag("Black", "Ben");
    play(&mut g, "32-28 19-23 28x19 14x23 37-32");
    g.resign(Color::Black).expect("resigns");
    let pdn = g.to_pdn();
    assert!(pdn.contains("[GameType \"20\"]"), "{pdn}");
    assert!(pdn.contains("[Rules \"international\"]"), "{pdn}");
    assert!(pdn.contains("[Result \"2-0\"]"), "{pdn}");
    assert!(
        pdn.contains("1. 32-28 19-23 2. 28x19 14x23 3. 37-32 2-0"),
        "{pdn}"
    );
    let back = Game::from_pdn(&pdn).expect("reads");
    assert_eq!(back.moves(), g.moves());
    assert_eq!(back.outcome(), g.outcome());
    assert_eq!(back.tag("White"), Some("Anna"));
    assert_eq!(back.to_pdn(), pdn);
}

#[test]
fn pdn_game_types_of_the_presets() {
    assert_eq!(game_type(&RuleSet::INTERNATIONAL), "20");
    assert_eq!(game_type(&RuleSet::DAME), "42,W,8,8,A0,0");
    assert_eq!(game_type(&RuleSet::DAME_FR), "43,W,8,8,A0,0");
    assert_eq!(game_type(&RuleSet::DAME_100), "44,W,10,10,N2,0");
    let with_huffing: RuleSet = "international,huffing=on".parse().expect("rules");
    assert_eq!(game_type(&with_huffing), "44,W,10,10,N2,0");
    // Read by GameType alone.
    let g = Game::from_pdn("[GameType \"43,W,8,8,A0,0\"]\n\n1. c3-d4 *").expect("reads");
    assert_eq!(*g.rules(), RuleSet::DAME_FR);
    let g = Game::from_pdn("[GameType \"20\"]\n\n1. 32-28 *").expect("reads");
    assert_eq!(*g.rules(), RuleSet::INTERNATIONAL);
    assert!(matches!(
        Game::from_pdn("[GameType \"21\"]\n\n1. 11-15 *"),
        Err(RecordError::UnsupportedGameType(_))
    ));
}

#[test]
fn pdn_reader_accepts_comments_variations_and_short_captures() {
    let text = "[Event \"Club\"]\n[Result \"*\"]\n\n\
        1. 32-28 {a comment} 19-23 (1... 18-23 2. 33-29) 2. 28x19 ; line comment\n\
        14x23! 3. 37-32 $1 *\n";
    let g = Game::from_pdn(text).expect("reads");
    assert_eq!(
        *g.rules(),
        RuleSet::INTERNATIONAL,
        "numbers without tags: PDN's default 20"
    );
    assert_eq!(g.ply(), 5);
    let g = Game::from_pdn("1. c3-d4 f6-g5 2. d4-e5 d6xf4 3. g3xe5 *").expect("8x8");
    assert_eq!(*g.rules(), RuleSet::DAME);
    assert_eq!(g.ply(), 5);
}

#[test]
fn pdn_with_a_start_position_and_errors() {
    let mut g = game("dame", "B:WKa1,c3:BKh8,f6:F12");
    play(&mut g, "h8-g7");
    let pdn = g.to_pdn();
    assert!(pdn.contains("[SetUp \"1\"]"), "{pdn}");
    assert!(pdn.contains("[FEN \"B:WKa1,c3:Bf6,Kh8:F12\"]"), "{pdn}");
    assert!(pdn.contains("12... h8-g7 *"), "{pdn}");
    assert_eq!(
        Game::from_pdn(&pdn).expect("reads").position(),
        g.position()
    );

    assert!(matches!(
        Game::from_pdn("[Event Club]\n\n*"),
        Err(RecordError::BadTag { line: 1, .. })
    ));
    assert!(matches!(
        Game::from_pdn("[Rules \"dame\"]\n\n1. c3-d4 d4-e5 *"),
        Err(RecordError::Move { .. })
    ));
    assert!(matches!(
        Game::from_pdn("[Rules \"dame\"]\n\n1. c3-d4 { open"),
        Err(RecordError::Unclosed)
    ));
    assert!(matches!(
        Game::from_pdn("[Rules \"dame\"]\n\n1-0 c3-d4"),
        Err(RecordError::TrailingText(_))
    ));
    // A finished game whose record claims another result.
    let mut g = game("dame", "W:Wc3:Bd4");
    play(&mut g, "c3xe5");
    let pdn = g.to_pdn().replace("1-0", "0-1");
    assert!(matches!(
        Game::from_pdn(&pdn),
        Err(RecordError::ResultMismatch { .. })
    ));
}

/// The ending counter of the FMJD draws is the FEN field `E<n>`: written
/// when it is not 0 (between `H` and `F`), optional when read, and a bad
/// value is a typed error.
#[test]
fn fen_carries_the_ending_counter() {
    let rules = RuleSet::INTERNATIONAL;
    let p = Position::from_fen("B:WK46,K47,K48:BK3:H7:E12:F40", rules).expect("reads");
    assert_eq!(
        (p.king_moves(), p.ending_plies(), p.move_number()),
        (7, 12, 40)
    );
    assert_eq!(p.fen(), "B:WK46,K47,K48:BK3:H7:E12:F40");
    // Fields in any order, lower case too; 0 is not written.
    let p = Position::from_fen("B:e12:WK46,K47,K48:BK3", rules).expect("reads");
    assert_eq!(p.fen(), "B:WK46,K47,K48:BK3:E12");
    let p = Position::from_fen("W:WK46:BK3:E0", rules).expect("reads");
    assert_eq!(p.fen(), "W:WK46:BK3");
    assert_eq!(Setup::start(BoardSize::Ten).ending_plies, 0);
    for bad in [
        "W:WK46:BK3:E",
        "W:WK46:BK3:Ex",
        "W:WK46:BK3:E-1",
        "W:WK46:BK3:E65536",
    ] {
        let err = Setup::from_fen(bad, BoardSize::Ten).expect_err(bad);
        assert!(
            matches!(err, ParseFenError::BadNumber { field, .. } if field.starts_with('E')),
            "{bad}: {err}"
        );
    }
    let err = Setup::from_fen("W:WK46:BK3:Z5", BoardSize::Ten).expect_err("unknown field");
    assert!(err.to_string().contains("E (ending counter)"), "{err}");
}

/// A game record keeps the ending counter of its start position (FEN tag)
/// and ends with the FMJD draw reasons as `Termination`.
#[test]
fn pdn_keeps_the_ending_counter_and_the_fmjd_draw_reasons() {
    let mut g = game("international", "W:WK46,K47,K48:BK3:E29");
    play(&mut g, "48-43 3-9 43-48");
    let o = g.outcome().expect("drawn by the 16-move rule");
    assert_eq!((o.winner, o.reason), (None, EndReason::KingVsThree));
    let pdn = g.to_pdn();
    assert!(pdn.contains("[FEN \"W:WK46,K47,K48:BK3:E29\"]"), "{pdn}");
    assert!(pdn.contains("[Termination \"king-vs-three\"]"), "{pdn}");
    assert!(pdn.contains("[Result \"1-1\"]"), "{pdn}");
    let back = Game::from_pdn(&pdn).expect("reads");
    assert_eq!(back.position(), g.position());
    assert_eq!(back.outcome(), g.outcome());
    assert_eq!(back.to_pdn(), pdn);
    // Without the E field the same moves do not reach the limit, so the
    // record's draw by the 16-move rule contradicts them.
    let shorter = pdn.replace(":E29", "");
    assert!(matches!(
        Game::from_pdn(&shorter),
        Err(RecordError::ResultMismatch { .. })
    ));
    let err = Game::from_pdn("[Rules \"international\"]\n[Termination \"sixteen\"]\n\n1-1")
        .expect_err("unknown reason");
    assert!(
        err.to_string().contains("king-vs-three, king-vs-two"),
        "{err}"
    );
    assert_eq!(
        EndReason::KingVsTwo.code(),
        "king-vs-two",
        "reason codes are part of the record format"
    );
}

/// A hand-built move text without squares is an error, not a panic.
#[test]
fn an_empty_move_text_is_refused() {
    let empty = dame::MoveText {
        squares: arrayvec::ArrayVec::new(),
        capture: false,
    };
    assert_eq!((empty.from(), empty.to()), (None, None));
    assert!(Position::new(RuleSet::DAME).resolve(&empty).is_err());
    // The record aliases mirror the Mühle crate.
    let g = Game::from_record("[Rules \"dame\"]\n\n1. c3-d4 *").expect("reads");
    assert_eq!(g.to_record(), g.to_pdn());
}
