//! One test per rule of RULES.md Part 2 (Dame), each citing the German or
//! French text of the Ravensburger leaflet (`shared/seeds/004_…`), and one
//! per draw rule of the FMJD rules that the `international` preset plays.

use std::collections::BTreeSet;

use dame::{
    BoardSize, Color, EndReason, Ending, Game, KingCapture, KingLanding, MoveError, Position,
    Promotion, RuleSet, Setup, Square,
};

fn pos(rules: &str, fen: &str) -> Position {
    let rules: RuleSet = rules.parse().expect("rules");
    Position::from_fen(fen, rules).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn moves(p: &Position) -> BTreeSet<String> {
    p.legal_moves().iter().map(|m| m.to_string()).collect()
}

fn set(list: &[&str]) -> BTreeSet<String> {
    list.iter().map(|s| s.to_string()).collect()
}

fn sq8(name: &str) -> Square {
    Square::parse(name, BoardSize::Eight).expect("square")
}

// ---------------------------------------------------------------------------
// Boards

/// RULES.md "Boards", Dame 8×8: 32 dark squares, a1 dark, White's 12 men on
/// rows 1–3, Black's on rows 6–8. 004: "Man legt den Plan so, dass jeder
/// Spieler links ein dunkles Feld hat. Es wird nur auf den dunklen Feldern
/// gespielt. Jeder setzt 12 Steine seiner Farbe auf die unteren drei Reihen.
/// Die zwei Reihen in der Mitte bleiben frei."
#[test]
fn dame_is_played_on_the_32_dark_squares_of_8x8_with_12_men_each() {
    let size = BoardSize::Eight;
    assert_eq!(size.mask().count(), 32);
    let a1 = sq8("a1");
    assert_eq!((a1.file(), a1.rank()), (0, 0));
    assert!(Square::parse("b1", size).is_err(), "b1 is light");
    assert!(Square::parse("h8", size).is_ok(), "h8 is dark");
    let p = Position::new(RuleSet::DAME);
    assert_eq!(p.pieces(Color::White).count(), 12);
    assert_eq!(p.pieces(Color::Black).count(), 12);
    for s in p.pieces(Color::White).squares(size) {
        assert!(s.rank() <= 2, "White on rows 1-3: {s}");
    }
    for s in p.pieces(Color::Black).squares(size) {
        assert!(s.rank() >= 5, "Black on rows 6-8: {s}");
    }
    assert_eq!(
        p.fen(),
        "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"
    );
}

/// RULES.md "Boards", Dame 100: 50 dark squares, 20 men each on the first
/// four rows. 004: "Jeder Spieler erhält 20 Steine einer Farbe, die er auf
/// die ersten vier Reihen der dunklen Felder stellt."
#[test]
fn dame_100_is_played_on_10x10_with_20_men_each_on_four_rows() {
    let p = Position::new(RuleSet::DAME_100);
    assert_eq!(BoardSize::Ten.mask().count(), 50);
    assert_eq!(p.pieces(Color::White).count(), 20);
    assert_eq!(p.pieces(Color::Black).count(), 20);
    assert_eq!(p.fen(), "W:W31-50:B1-20");
    // Square 1 is top left from White's view (b10), 46 is a1, 50 is i1.
    let s = |n| Square::from_number(BoardSize::Ten, n).expect("square");
    assert_eq!((s(1).file(), s(1).rank()), (1, 9));
    assert_eq!((s(46).file(), s(46).rank()), (0, 0));
    assert_eq!((s(50).file(), s(50).rank()), (8, 0));
}

/// RULES.md: "White moves first." 004: "Die Spieler ziehen abwechselnd einen
/// Stein. Weiß beginnt."
#[test]
fn white_moves_first_and_the_players_alternate() {
    for rules in [RuleSet::DAME, RuleSet::DAME_100] {
        let mut g = Game::new(rules);
        assert_eq!(g.position().turn(), Color::White);
        let m = g.legal_moves()[0];
        g.play(&m).expect("legal");
        assert_eq!(g.position().turn(), Color::Black);
    }
}

// ---------------------------------------------------------------------------
// Default rules

/// RULES.md: a man moves one square diagonally forward to an empty square.
/// 004: "Die Steine werden in diagonaler Richtung jeweils ein Feld
/// vorgezogen." — "Es wird immer nur vorwärts, nie rückwärts gezogen."
#[test]
fn a_man_moves_one_square_diagonally_forward() {
    assert_eq!(moves(&pos("dame", "W:Wc3:Bh8")), set(&["c3-b4", "c3-d4"]));
    assert_eq!(moves(&pos("dame", "B:Wa1:Bd6")), set(&["d6-c5", "d6-e5"]));
    // Never backward, not even where men capture backward (FR: "jamais
    // reculer (sauf pour une capture)").
    assert_eq!(
        moves(&pos("dame-fr", "W:Wc3:Bh8")),
        set(&["c3-b4", "c3-d4"])
    );
    // Only to an empty square.
    assert_eq!(
        moves(&pos("dame", "W:Wc3,d4:Bh8")),
        set(&["c3-b4", "d4-c5", "d4-e5"])
    );
}

/// RULES.md "Capturing": a piece jumps an adjacent opponent piece onto the
/// empty square directly behind it. 004: "Steht ein eigener Stein auf einem
/// Feld, das an einen gegnerischen Stein angrenzt und ist das diagonal
/// davorliegende Feld frei, springt der Stein auf dieses. Der gegnerische
/// Stein ist damit geschlagen und wird vom Brett genommen."
#[test]
fn a_man_captures_by_jumping_onto_the_empty_square_behind() {
    let p = pos("dame", "W:Wc3:Bd4");
    assert_eq!(moves(&p), set(&["c3xe5"]));
    let after = p
        .play(&p.parse_move("c3xe5").expect("legal"))
        .expect("legal");
    assert_eq!(after.fen(), "B:We5:B");
    assert!(after.pieces(Color::Black).is_empty());
    // The square behind must be empty.
    assert_eq!(moves(&pos("dame", "W:Wc3:Bd4,e5")), set(&["c3-b4"]));
}

/// RULES.md: men capture forward only in the German text. 004: "Es wird
/// immer nur vorwärts, nie rückwärts gezogen" and "das diagonal
/// davorliegende Feld" (the square in front).
#[test]
fn men_capture_forward_only_by_default() {
    // The black man on d4 stands behind the white man on e5.
    assert_eq!(
        moves(&pos("dame", "W:We5:Bd4,h8")),
        set(&["e5-d6", "e5-f6"])
    );
    assert_eq!(
        moves(&pos("dame-100", "W:W28:B33,1")),
        set(&["28-22", "28-23"])
    );
}

/// RULES.md: capturing is compulsory. 004: "Übersieht man eine
/// Schlagmöglichkeit, kann der Gegner auf das Schlagen bestehen." (FR: "Si
/// un joueur oublie une capture obligatoire, l'adversaire peut le lui
/// signaler.")
#[test]
fn capturing_is_compulsory() {
    let p = pos("dame", "W:Wc3,g3:Bd4");
    assert_eq!(moves(&p), set(&["c3xe5"]));
    match p.parse_move("g3-h4") {
        Err(MoveError::Illegal { why, .. }) => {
            assert!(why.contains("compulsory") && why.contains("c3xe5"), "{why}")
        }
        other => panic!("{other:?}"),
    }
}

/// RULES.md: when several captures are possible the player chooses freely —
/// no rule to take the most pieces (004 names none).
#[test]
fn the_player_chooses_freely_among_captures() {
    let fen = "W:Wa3,h2:Bb4,d6,g3";
    assert_eq!(moves(&pos("dame", fen)), set(&["a3xc5xe7", "h2xf4"]));
    assert_eq!(moves(&pos("dame-fr", fen)), set(&["a3xc5xe7", "h2xf4"]));
    assert_eq!(
        moves(&pos("dame-100", "W:W37,38:B32,21,33")),
        set(&["37x28", "38x27x16", "38x29"])
    );
}

/// RULES.md: a capture that can continue must continue. 004: "Gelangt er
/// mit seinem Zug auf ein Feld, von dem er weitere gegnerische Steine
/// schlagen kann, muss er dies tun!"
#[test]
fn a_capture_that_can_continue_must_continue() {
    let p = pos("dame", "W:Wa3,h2:Bb4,d6,g3");
    assert!(!moves(&p).contains("a3xc5"));
    assert!(matches!(
        p.parse_move("a3xc5"),
        Err(MoveError::Illegal { .. })
    ));
    // Written by start and end only, the capture is found.
    assert_eq!(
        p.parse_move("a3xe7").expect("unique").to_string(),
        "a3xc5xe7"
    );
}

/// RULES.md: captured pieces are removed only at the end of the move; they
/// block and may not be jumped twice. 004: "Am Ende seines Zuges werden alle
/// geschlagenen Steine vom Brett genommen." — "Ein übersprungener Stein darf
/// jedoch nicht zwei Mal übersprungen werden."
#[test]
fn captured_pieces_stay_until_the_end_and_are_not_jumped_twice() {
    // dame-fr: the man could jump back over d4 onto its own start square if
    // d4 could be jumped twice.
    assert_eq!(moves(&pos("dame-fr", "W:Wc3:Bd4,h8")), set(&["c3xe5"]));
    // A king: after a1xd4 the captured c3 still blocks the way back.
    let p = pos("dame", "W:WKa1:Bc3,e5,g7");
    assert_eq!(moves(&p), set(&["a1xd4xf6xh8"]));
    let after = p.play(&p.legal_moves()[0]).expect("legal");
    assert!(
        after.pieces(Color::Black).is_empty(),
        "all three removed at the end"
    );
}

/// RULES.md: a piece never jumps its own pieces. 004: "Eigene Steine dürfen
/// nie übersprungen werden!" (FR: "Il est interdit de sauter par-dessus ses
/// propres pions !")
#[test]
fn a_piece_never_jumps_its_own_pieces() {
    assert_eq!(
        moves(&pos("dame", "W:Wc3,d4:Bh8")),
        set(&["c3-b4", "d4-c5", "d4-e5"])
    );
    // A king's ray stops at an own piece: no capture of e5 behind d4.
    let p = pos("dame", "W:WKc3,d4:Be5,f6,a7");
    assert!(moves(&p).iter().all(|m| !m.contains('x')));
}

/// RULES.md: a man that reaches the opponent's back row becomes a king.
/// 004: "Erreicht ein eigener Stein die Grundlinie seines Gegners, wird er
/// zur Dame gekrönt."
#[test]
fn a_man_reaching_the_back_row_is_crowned() {
    let p = pos("dame", "W:Wc7:BKa1");
    let m = p.parse_move("c7-d8").expect("legal");
    assert!(p.promotes(&m));
    let after = p.play(&m).expect("legal");
    assert!(after.kings(Color::White).contains(sq8("d8")));
    let p = pos("dame-100", "B:W50:B41");
    let after = p
        .play(&p.parse_move("41-46").expect("legal"))
        .expect("legal");
    assert_eq!(after.fen(), "W:W50:BK46:F2");
}

/// RULES.md: a king moves any distance diagonally, forward and backward,
/// over empty squares. 004: "Eine Dame darf in ihrem Zug beliebig weit
/// vorwärts und rückwärts ziehen."
#[test]
fn a_king_moves_any_distance_forward_and_backward() {
    let p = pos("dame", "W:WKd4:Bh8");
    assert_eq!(p.legal_moves().len(), 12);
    for target in ["a7", "a1", "g1", "g7", "e5", "c3"] {
        assert!(p.parse_move(&format!("d4-{target}")).is_ok(), "{target}");
    }
    // Not through or onto a piece.
    let p = pos("dame", "W:WKd4,f6:Ba7,h8");
    assert!(p.parse_move("d4-g7").is_err());
    assert!(p.parse_move("d4-e5").is_ok());
}

/// RULES.md: a king captures from a distance but lands on the square
/// directly behind the captured piece. 004: "Beim Schlagen muss sie jedoch
/// direkt hinter dem geschlagenen Stein aufsetzen." (FR: "à chaque saut,
/// elle doit pouvoir atterrir sur la case juste derrière le pion capturé")
#[test]
fn a_king_captures_from_a_distance_and_lands_directly_behind() {
    assert_eq!(moves(&pos("dame", "W:WKa1:Bd4")), set(&["a1xe5"]));
    assert_eq!(
        moves(&pos("dame", "W:WKa1:Bd4,e5")).len(),
        2,
        "no capture: a1-b2, a1-c3"
    );
    assert_eq!(moves(&pos("dame-100", "W:WK46:B28")), set(&["46x23"]));
}

/// RULES.md: a king must go on capturing while it can, each further jump
/// again from any distance. 004: "Wie beim einzelnen Stein muss sie jede
/// Schlagmöglichkeit ausnutzen. Sie kann dabei vorwärts und rückwärts
/// ziehen."
#[test]
fn a_king_goes_on_capturing_from_any_distance() {
    let p = pos("dame", "W:WKa1:Bc3,f6");
    assert_eq!(moves(&p), set(&["a1xd4xg7"]));
    // Backward too: after d4, the king turns back towards the lower right.
    let p = pos("dame", "W:WKa1:Bc3,f2,h8");
    assert_eq!(moves(&p), set(&["a1xd4xg1"]));
}

/// RULES.md: a piece's own start square counts as empty during its capture;
/// and two moves with the same start, end and captured set are one move.
/// 004 FR: "il saute par-dessus lui sur cette case, en avançant ou en
/// reculant" — the man may come back round to where it started.
#[test]
fn the_start_square_is_empty_during_the_capture_and_equal_moves_count_once() {
    // Round the square d4-d6-f6-f4: both directions give the same move.
    let p = pos("dame-fr", "W:We3:Bd4,d6,f6,f4");
    let ms = p.legal_moves();
    assert_eq!(ms.len(), 1, "{ms:?}");
    assert_eq!(ms[0].from(), ms[0].to());
    assert_eq!(ms[0].capture_count(), 4);
    // Either path names it.
    assert_eq!(p.parse_move("e3xc5xe7xg5xe3").expect("path"), ms[0]);
    assert_eq!(p.parse_move("e3xg5xe7xc5xe3").expect("other path"), ms[0]);
    let after = p.play(&ms[0]).expect("legal");
    assert_eq!(after.fen(), "B:We3:B");
    // Forward only: two captures end on e7 with different pieces: two moves,
    // and "e3xe7" is ambiguous.
    let p = pos("dame", "W:We3:Bd4,d6,f6,f4");
    assert_eq!(moves(&p), set(&["e3xc5xe7", "e3xg5xe7"]));
    assert!(matches!(
        p.parse_move("e3xe7"),
        Err(MoveError::Ambiguous { .. })
    ));
    assert_eq!(
        p.parse_move("e3xc5xe7").expect("full path").to_string(),
        "e3xc5xe7"
    );
}

/// RULES.md: a man that reaches the back row during a capture stops there
/// and is crowned, even where (with backward capture) it could go on. 004
/// FR: "Si un pion atteint la première rangée devant son adversaire, il
/// forme une dame" — the leaflet knows no passing through.
#[test]
fn a_man_reaching_the_back_row_during_a_capture_stops_and_is_crowned() {
    let fen = "W:Wb6,Kg1:Bc7,e7,e5,c5,Kh8";
    let p = pos("dame-fr", fen);
    let ms = moves(&p);
    assert!(ms.contains("b6xd8"), "{ms:?}");
    assert!(ms.iter().all(|m| m.ends_with("d8")), "{ms:?}");
    let m = p.parse_move("b6xd8").expect("legal");
    assert!(
        p.play(&m)
            .expect("legal")
            .kings(Color::White)
            .contains(sq8("d8"))
    );
    // Under the FMJD rule it goes on as a man over e7 and is not crowned.
    let p = pos("dame-fr,promotion=end-of-move", fen);
    assert!(
        moves(&p).iter().all(|m| !m.ends_with("d8")),
        "{:?}",
        moves(&p)
    );
}

// ---------------------------------------------------------------------------
// End of the game

/// RULES.md: a player with no pieces loses. 004: "Sobald ein Spieler alle
/// Steine des Gegners geschlagen hat, gewinnt er das Spiel."
#[test]
fn a_player_without_pieces_loses() {
    let mut g = Game::from_position(pos("dame", "W:Wc3:Bd4"));
    g.play_str("c3xe5").expect("legal");
    let o = g.outcome().expect("over");
    assert_eq!(o.winner, Some(Color::White));
    assert_eq!(o.reason, EndReason::NoPieces);
    assert!(g.legal_moves().is_empty());
}

/// RULES.md: a player who is to move and cannot move loses. 004: "Er
/// gewinnt ebenfalls, wenn der Gegner eingeschlossen ist und sich nicht mehr
/// bewegen kann."
#[test]
fn a_player_who_cannot_move_loses() {
    let p = pos("dame", "W:Wa1:Bb2,c3");
    let o = p.outcome().expect("blocked");
    assert_eq!(o.winner, Some(Color::Black));
    assert_eq!(o.reason, EndReason::Blocked);
    assert!(Game::from_position(p).is_over());
}

/// RULES.md: draw by agreement. 004: "Ein Unentschieden (Remis) entsteht,
/// wenn beispielsweise jeder nur noch eine Dame besitzt, die er nicht
/// opfern möchte." — players may agree to a draw.
#[test]
fn a_draw_by_agreement() {
    let mut g = Game::new(RuleSet::DAME);
    assert!(!g.offer_draw(Color::White).expect("running"));
    g.accept_draw(Color::Black).expect("offer stands");
    let o = g.outcome().expect("over");
    assert_eq!((o.winner, o.reason), (None, EndReason::Agreement));
}

/// RULES.md: each side with just one king is a draw, declared
/// automatically. 004: "wenn beispielsweise jeder nur noch eine Dame
/// besitzt" (FR: "si, par exemple, chaque joueur n'a plus qu'une dame").
#[test]
fn one_king_each_is_a_draw() {
    let p = pos("dame", "W:WKa1:BKh8");
    assert_eq!(p.outcome().map(|o| o.reason), Some(EndReason::OneKingEach));
    // Reached by a capture in a game.
    let mut g = Game::from_position(pos("dame", "W:WKa1:BKh8,c3"));
    g.play_str("a1xd4").expect("legal");
    assert_eq!(
        g.outcome().map(|o| (o.winner, o.reason)),
        Some((None, EndReason::OneKingEach))
    );
    // A king and a man against a king plays on.
    assert!(pos("dame", "W:WKa1,c1:BKh8").outcome().is_none());
}

/// RULES.md: threefold repetition is a draw.
#[test]
fn threefold_repetition_is_a_draw() {
    let mut g = Game::from_position(pos("dame", "W:WKa1,c3:BKh8,f6"));
    for _ in 0..2 {
        for m in ["a1-b2", "h8-g7", "b2-a1", "g7-h8"] {
            assert!(!g.is_over());
            g.play_str(m).expect("legal");
        }
    }
    assert_eq!(g.repetition_count(), 3);
    assert_eq!(g.outcome().map(|o| o.reason), Some(EndReason::Repetition));
}

/// RULES.md: 50 plies in which both sides only moved kings and nothing was
/// captured are a draw.
#[test]
fn fifty_plies_of_king_moves_without_capture_are_a_draw() {
    let mut g = Game::from_position(pos("dame", "W:WKa1,c3:BKh8,f6:H47"));
    g.play_str("a1-b2").expect("legal");
    g.play_str("h8-g7").expect("legal");
    assert_eq!(g.position().king_moves(), 49);
    assert!(!g.is_over());
    g.play_str("b2-a1").expect("legal");
    assert_eq!(g.outcome().map(|o| o.reason), Some(EndReason::KingMoves));
    // A man's move resets the counter.
    let mut g = Game::from_position(pos("dame", "W:WKa1,c3:BKh8,f6:H48"));
    g.play_str("c3-d4").expect("legal");
    assert_eq!(g.position().king_moves(), 0);
}

// ---------------------------------------------------------------------------
// FMJD draws (the `international` preset)

/// FMJD rules, article on the draw: "If during 25 successive moves only
/// kings have been moved, without moving of men and without capture, the
/// game is drawn" — 25 moves by each player, 50 plies, counted by the
/// king-move counter `H`.
#[test]
fn international_25_moves_each_of_only_kings_without_capture_are_a_draw() {
    let r = RuleSet::INTERNATIONAL;
    assert_eq!(r.king_move_draw, Some(50), "25 moves each");
    let mut g = Game::from_position(pos("international", "W:WK48,45:BK3,6:H47"));
    g.play_str("48-43").expect("legal");
    g.play_str("3-8").expect("legal");
    assert_eq!(g.position().king_moves(), 49);
    assert!(!g.is_over(), "24½ moves each are not enough");
    g.play_str("43-48").expect("legal");
    assert_eq!(
        g.outcome().map(|o| (o.winner, o.reason)),
        Some((None, EndReason::KingMoves))
    );
    // A man's move restarts the count.
    let mut g = Game::from_position(pos("international", "W:WK48,45:BK3,6:H49"));
    g.play_str("45-40").expect("legal");
    assert_eq!(g.position().king_moves(), 0);
    assert!(!g.is_over());
}

/// FMJD rules, article on the draw: "If there are only three kings, two
/// kings and one man, or one king and two men against one king, the game is
/// drawn when both players still play 16 moves each at most" — counted from
/// the moment that material arose (the move that made it not counted);
/// the `E` field of the FEN carries the count.
#[test]
fn international_a_lone_king_against_three_pieces_is_a_draw_after_16_moves_each() {
    // The three pieces: at least one of them a king.
    assert_eq!(
        pos("international", "W:WK46,K47,K48:BK3").ending(),
        Some(Ending::KingVsThree)
    );
    assert_eq!(
        pos("international", "W:WK46,K47,33:BK3").ending(),
        Some(Ending::KingVsThree)
    );
    assert_eq!(
        pos("international", "W:WK46,32,33:BK3").ending(),
        Some(Ending::KingVsThree)
    );
    assert_eq!(pos("international", "W:W31,32,33:BK3").ending(), None);
    assert_eq!(pos("international", "W:WK46,K47,K48:B3").ending(), None);
    // The count starts when the capture leaves three kings against one.
    let mut g = Game::from_position(pos("international", "W:WK46,K47,K48:BK3,42"));
    assert_eq!(g.position().counted_ending(), None);
    g.play_str("47x38").expect("legal");
    assert_eq!(
        g.position().counted_ending(),
        Some((Ending::KingVsThree, 32))
    );
    assert_eq!(g.position().ending_plies(), 0, "the capture is not counted");
    g.play_str("3-9").expect("legal");
    assert_eq!(g.position().ending_plies(), 1);
    assert_eq!(g.position().fen(), "W:WK38,K46,K48:BK9:H1:E1:F2");
    // After 16 moves each (32 plies) the game is drawn.
    let mut g = Game::from_position(pos("international", "W:WK46,K47,K48:BK3:E29"));
    g.play_str("48-43").expect("legal");
    g.play_str("3-9").expect("legal");
    assert_eq!(g.position().ending_plies(), 31);
    assert!(!g.is_over());
    g.play_str("43-48").expect("legal");
    assert_eq!(
        g.outcome().map(|o| (o.winner, o.reason)),
        Some((None, EndReason::KingVsThree))
    );
    assert!(g.legal_moves().is_empty());
    // The leaflet presets have no such rule.
    let p = pos("dame-100", "W:WK46,K47,K48:BK3:E40");
    assert_eq!(p.counted_ending(), None);
    assert!(p.outcome().is_none());
}

/// FMJD rules, article on the draw: "The end of the game in which there are
/// two kings, one king and one man, or one king against one king, will be
/// considered as drawn, when both players still play 5 moves each at most."
/// One king against one king is therefore no immediate draw under FMJD: the
/// `international` preset turns the leaflet's one-king-each rule off. When a
/// capture turns the 16-move ending into this one, the 16 moves keep
/// running ("the maximum of 16 moves remains valid").
#[test]
fn international_a_lone_king_against_one_or_two_pieces_is_a_draw_after_5_moves_each() {
    for fen in ["W:WK46,K47:BK3", "W:WK46,33:BK3", "W:WK46:BK3"] {
        assert_eq!(
            pos("international", fen).counted_ending(),
            Some((Ending::KingVsTwo, 10)),
            "{fen}"
        );
    }
    assert_eq!(pos("international", "W:W32,33:BK3").ending(), None);
    // One king each: no immediate draw, but the 5 moves each.
    let p = pos("international", "W:WK46:BK3");
    assert!(p.outcome().is_none());
    assert_eq!(
        pos("dame-100", "W:WK46:BK3").outcome().map(|o| o.reason),
        Some(EndReason::OneKingEach)
    );
    let mut g = Game::from_position(pos("international", "W:WK46:BK3:E8"));
    g.play_str("46-41").expect("legal");
    assert!(!g.is_over());
    g.play_str("3-9").expect("legal");
    assert_eq!(
        g.outcome().map(|o| (o.winner, o.reason)),
        Some((None, EndReason::KingVsTwo))
    );
    // Two kings against one: drawn after 5 moves each.
    let mut g = Game::from_position(pos("international", "B:WK46,K47:BK3:E4"));
    for (i, m) in ["3-9", "46-41", "9-3", "41-46", "3-9"]
        .into_iter()
        .enumerate()
    {
        g.play_str(m).expect("legal");
        assert_eq!(g.position().ending_plies(), i as u16 + 5);
        assert!(!g.is_over(), "after {m}");
    }
    g.play_str("46-41").expect("legal");
    assert_eq!(g.outcome().map(|o| o.reason), Some(EndReason::KingVsTwo));
    // 13 moves each of the 16-move ending are played (26 plies); the lone
    // king captures a king: only the 3 moves each that were left remain.
    let mut g = Game::from_position(pos("international", "B:WK46,K47,K14:BK3:E26"));
    g.play_str("3x25").expect("legal");
    assert_eq!(g.position().counted_ending(), Some((Ending::KingVsTwo, 10)));
    assert_eq!(g.position().ending_plies(), 5, "27 of 32 plies are used up");
    for m in ["46-41", "25-30", "41-46", "30-25"] {
        g.play_str(m).expect("legal");
        assert!(!g.is_over(), "after {m}");
    }
    g.play_str("46-41").expect("legal");
    assert_eq!(g.outcome().map(|o| o.reason), Some(EndReason::KingVsTwo));
}

/// FMJD rules, article on the draw, as rule options of every preset:
/// `one-king-each=on|off`, `king-vs-three=N|off`, `king-vs-two=N|off` (plies).
#[test]
fn the_fmjd_draws_are_rule_options_of_every_preset() {
    let i = RuleSet::INTERNATIONAL;
    assert!(!i.one_king_each_draw);
    assert_eq!(
        (i.king_vs_three_draw, i.king_vs_two_draw),
        (Some(32), Some(10))
    );
    for preset in [RuleSet::DAME, RuleSet::DAME_100, RuleSet::DAME_FR] {
        assert!(preset.one_king_each_draw);
        assert_eq!(
            (preset.king_vs_three_draw, preset.king_vs_two_draw),
            (None, None)
        );
    }
    let r: RuleSet = "dame,one-king-each=off,king-vs-three=32,king-vs-two=10"
        .parse()
        .expect("options");
    assert!(!r.one_king_each_draw);
    assert_eq!(
        (r.king_vs_three_draw, r.king_vs_two_draw),
        (Some(32), Some(10))
    );
    assert_eq!(
        r.to_string(),
        "dame,one-king-each=off,king-vs-three=32,king-vs-two=10"
    );
    assert_eq!(r.to_string().parse::<RuleSet>(), Ok(r));
    let r: RuleSet = "international,king-vs-two=off,one-king-each=on"
        .parse()
        .expect("options");
    assert_eq!(
        r.to_string(),
        "international,one-king-each=on,king-vs-two=off"
    );
    assert_eq!(r.to_string().parse::<RuleSet>(), Ok(r));
    // Under these options a 5-move ending on 8×8 is drawn too.
    let p = pos(
        "dame,king-vs-two=10,one-king-each=off",
        "W:WKa1,Kc1:BKh8:E10",
    );
    assert_eq!(p.outcome().map(|o| o.reason), Some(EndReason::KingVsTwo));
    for bad in [
        "dame,king-vs-three=0",
        "dame,king-vs-two=many",
        "dame,one-king-each=maybe",
    ] {
        assert!(
            matches!(
                bad.parse::<RuleSet>(),
                Err(dame::ParseRulesError::BadValue { .. })
            ),
            "{bad}"
        );
    }
    let unknown = "dame,sixteen=1".parse::<RuleSet>().expect_err("unknown");
    let text = unknown.to_string();
    for option in [
        "one-king-each=on|off",
        "king-vs-three=N|off",
        "king-vs-two=N|off",
    ] {
        assert!(text.contains(option), "{text}");
    }
}

// ---------------------------------------------------------------------------
// Rule options and presets

/// RULES.md option "men capture backward" (dame-fr). 004 FR: "il saute
/// par-dessus lui sur cette case, en avançant ou en reculant" and "Un pion
/// doit toujours avancer, jamais reculer (sauf pour une capture)."
#[test]
fn men_capture_backward_in_dame_fr() {
    let r = RuleSet::DAME_FR;
    assert!(r.men_capture_backward && r.board == BoardSize::Eight);
    assert_eq!(moves(&pos("dame-fr", "W:We5:Bd4,h8")), set(&["e5xc3"]));
    assert_eq!(
        moves(&pos("dame", "W:We5:Bd4,h8")),
        set(&["e5-d6", "e5-f6"])
    );
}

/// RULES.md option "huffing" ("Blasen"). 004: "Variante: Der Stein, der eine
/// Schlagmöglichkeit übersehen hat, wird zur Strafe vom Spielbrett genommen,
/// was nicht als Zug gewertet wird. Das nennt man „Blasen“." (FR:
/// "Souffler n'est pas jouer !")
#[test]
fn huffing_allows_skipping_a_capture_and_the_opponent_may_remove_the_piece() {
    let p = pos("dame,huffing=on", "W:Wc3,g3:Bd4,a7");
    assert_eq!(
        moves(&p).len(),
        4,
        "c3xe5 and the three moves without capture"
    );
    let mut g = Game::from_position(p);
    g.play_str("g3-h4").expect("allowed with huffing");
    assert_eq!(g.huffable(), sq8("c3").bb());
    g.huff(sq8("c3")).expect("may huff");
    assert_eq!(g.position().turn(), Color::Black, "the huff is not a move");
    assert!(g.position().piece_at(sq8("c3")).is_none());
}

/// RULES.md presets: dame (8×8 defaults), dame-100 (10×10 defaults),
/// dame-fr (men capture backward), international (FMJD); the text form is
/// a preset plus `key=value` options.
#[test]
fn presets_and_their_text_form() {
    assert_eq!(RuleSet::default(), RuleSet::DAME);
    for name in dame::PRESETS {
        let r: RuleSet = name.parse().expect("preset");
        assert_eq!(r.to_string(), name);
    }
    let i = RuleSet::INTERNATIONAL;
    assert!(i.men_capture_backward && i.majority_capture);
    assert_eq!(i.king_landing, KingLanding::AnywhereBehind);
    assert_eq!(i.promotion, Promotion::EndOfMove);
    assert_eq!(i.board, BoardSize::Ten);
    let r: RuleSet = "dame,huffing=on,repetition=off".parse().expect("options");
    assert!(r.huffing && r.repetition_draw.is_none());
    assert_eq!(r.to_string(), "dame,huffing=on,repetition=off");
    assert_eq!(r.to_string().parse::<RuleSet>(), Ok(r));
    assert!("checkers".parse::<RuleSet>().is_err());
    assert!("dame,majority=maybe".parse::<RuleSet>().is_err());
    assert!("dame,flying=on".parse::<RuleSet>().is_err());
}

/// RULES.md international: the capture taking the most pieces is
/// compulsory (kings and men count alike).
#[test]
fn international_the_capture_of_the_most_pieces_is_compulsory() {
    let fen = "W:W37,38:B32,21,33";
    // 37x28 and 38x29 take one piece, 38x27x16 two.
    let free = moves(&pos("dame-100", fen));
    let majority = moves(&pos("international", fen));
    assert!(free.len() > majority.len(), "{free:?} / {majority:?}");
    let most = pos("international", fen)
        .legal_moves()
        .iter()
        .map(|m| m.capture_count())
        .min();
    let max = pos("dame-100", fen)
        .legal_moves()
        .iter()
        .map(|m| m.capture_count())
        .max();
    assert_eq!(most, max);
}

/// RULES.md international: a king may land on any empty square behind the
/// captured piece.
#[test]
fn international_a_king_lands_anywhere_behind() {
    assert_eq!(
        moves(&pos("international", "W:WK46:B28")),
        set(&["46x23", "46x19", "46x14", "46x10", "46x5"])
    );
    // Where one landing square lets the capture go on, it is compulsory
    // (and by the majority rule the longest capture wins anyway).
    let p = pos("international", "W:WK46:B28,13");
    assert_eq!(moves(&p), set(&["46x19x8", "46x19x2"]));
}

/// RULES.md international: a man is crowned only if its move ends on the
/// back row; passing over it in a capture it stays a man.
#[test]
fn international_a_man_is_crowned_only_at_the_end_of_its_move() {
    // 12 jumps 7 onto square 1, the back row, and cannot go on: crowned.
    let p = pos("international", "W:W12:B7,40");
    let after = p
        .play(&p.parse_move("12x1").expect("legal"))
        .expect("legal");
    assert!(
        after
            .kings(Color::White)
            .contains(Square::from_number(BoardSize::Ten, 1).expect("1"))
    );
    // Passing over the back row (d8) the man goes on and stays a man.
    let fen = "W:Wb6:Bc7,e7,Ka1";
    let p = pos("dame-fr,promotion=end-of-move", fen);
    assert_eq!(moves(&p), set(&["b6xd8xf6"]));
    let after = p.play(&p.legal_moves()[0]).expect("legal");
    assert!(after.men(Color::White).contains(sq8("f6")), "still a man");
}

// ---------------------------------------------------------------------------
// Option king-capture=short (the Italian text of 004)

/// 004 IT: "Per eliminare, la dama deve trovarsi direttamente dietro alla
/// pedina che vuole «mangiare»." Under `king-capture=short` a king two or
/// more squares away from a piece cannot capture it (it may still move
/// any distance: "di tutte le caselle che si vogliono"); the flying king
/// of the German text (`long`, the default) can.
#[test]
fn italian_short_king_capture_a_king_two_or_more_squares_away_cannot_capture() {
    let fen = "W:WKa1:Bd4";
    assert_eq!(moves(&pos("dame", fen)), set(&["a1xe5"]));
    assert_eq!(
        moves(&pos("dame,king-capture=short", fen)),
        set(&["a1-b2", "a1-c3"])
    );
    let fen = "W:WKa1:Be5";
    assert_eq!(moves(&pos("dame,king-capture=short", fen)).len(), 3);
    let fen = "W:WK46:B28";
    assert_eq!(moves(&pos("dame-100", fen)), set(&["46x23"]));
    assert_eq!(
        moves(&pos("dame-100,king-capture=short", fen)),
        set(&["46-41", "46-37", "46-32"])
    );
    // Neither is there anything to huff: the king had no capture.
    let p = pos("dame,king-capture=short", "W:WKa1:Bd4");
    assert!(!p.has_capture());
    assert!(p.capturing_pieces().is_empty());
}

/// 004 IT: "la dama deve trovarsi direttamente dietro alla pedina": a king
/// on the square next to a piece captures it (compulsorily, as every
/// capture), landing as `king-landing` says: directly behind (default) or,
/// with `king-landing=anywhere`, on any empty square behind it.
#[test]
fn italian_short_king_capture_a_king_next_to_a_piece_captures_it() {
    let fen = "W:WKc3,a1:Bd4,h6";
    assert_eq!(moves(&pos("dame,king-capture=short", fen)), set(&["c3xe5"]));
    assert_eq!(
        moves(&pos("dame,king-capture=short,king-landing=anywhere", fen)),
        set(&["c3xe5", "c3xf6", "c3xg7", "c3xh8"])
    );
    // Backward as well as forward.
    assert_eq!(
        moves(&pos("dame,king-capture=short", "W:WKe5:Bd4,h8")),
        set(&["e5xc3"])
    );
    // Not when the square behind the piece is taken.
    assert!(!pos("dame,king-capture=short", "W:WKc3:Bd4,e5").has_capture());
    // 10×10: 32 (d4) next to 28 (e5).
    assert_eq!(
        moves(&pos("dame-100,king-capture=short", "W:WK32:B28")),
        set(&["32x23"])
    );
}

/// 004 IT: the king "must exploit every chance to capture" like a man, and
/// each jump of a multiple capture must again start next to its piece:
/// where the next piece could only be reached by flying up to it, the
/// capture ends there; with the flying king it goes on.
#[test]
fn italian_short_king_capture_each_jump_of_a_multiple_capture_starts_next_to_its_piece() {
    // After a1xc3 the next piece, f6, is three squares away.
    let fen = "W:WKa1:Bb2,f6";
    assert_eq!(moves(&pos("dame", fen)), set(&["a1xc3xg7"]));
    assert_eq!(moves(&pos("dame,king-capture=short", fen)), set(&["a1xc3"]));
    // b2 and d4 are each next to the king when it jumps; g7 is not.
    let fen = "W:WKa1:Bb2,d4,g7";
    assert_eq!(moves(&pos("dame", fen)), set(&["a1xc3xe5xh8"]));
    assert_eq!(
        moves(&pos("dame,king-capture=short", fen)),
        set(&["a1xc3xe5"])
    );
    // A turn is fine, as long as the next piece is next to the king.
    assert_eq!(
        moves(&pos("dame,king-capture=short", "W:WKa1:Bb2,b4,h8")),
        set(&["a1xc3xa5"])
    );
    // With landing anywhere, the king must land where the next jump can
    // start (next to a piece), if there is such a square.
    let fen = "W:WKa1:Bb2,f4,h8";
    assert_eq!(
        moves(&pos("dame,king-capture=short,king-landing=anywhere", fen)),
        set(&["a1xe5xg3", "a1xe5xh2"])
    );
}

/// The option is part of the rule set's text form (and so of the PDN
/// `Rules` tag and every place that takes a rule set): `dame,king-capture=short`;
/// every preset keeps the flying king. A record played under the short
/// capture is read back under it, and refused under the flying king.
#[test]
fn italian_short_king_capture_is_a_rule_option_that_round_trips() {
    for name in dame::PRESETS {
        let r: RuleSet = name.parse().expect("preset");
        assert_eq!(r.king_capture, KingCapture::Long, "{name}");
    }
    for (text, shortest) in [
        ("dame,king-capture=short", "dame,king-capture=short"),
        ("dame,king_capture=adjacent", "dame,king-capture=short"),
        (
            "international,king-capture=short",
            "international,king-capture=short",
        ),
        (
            "dame-fr,king-capture=short,huffing=on",
            "dame-fr,king-capture=short,huffing=on",
        ),
        ("dame,king-capture=long", "dame"),
        ("king-capture=short", "dame,king-capture=short"),
    ] {
        let r: RuleSet = text.parse().expect(text);
        assert_eq!(r.to_string(), shortest, "{text}");
        assert_eq!(shortest.parse::<RuleSet>(), Ok(r), "{text}");
    }
    assert!(matches!(
        "dame,king-capture=medium".parse::<RuleSet>(),
        Err(dame::ParseRulesError::BadValue { .. })
    ));
    let short: RuleSet = "international,king-capture=short".parse().expect("rules");
    assert_eq!(
        dame::game_type(&short),
        "44,W,10,10,N2,0",
        "not FMJD's game 20"
    );

    let rules: RuleSet = "dame,king-capture=short".parse().expect("rules");
    let start = Position::from_fen("W:WKa1:Bd4,h8", rules).expect("fen");
    let mut g = Game::from_position(start);
    g.play_str("a1-c3").expect("no capture from afar");
    g.play_str("d4xb2").expect("the man takes the king");
    let pdn = g.to_pdn();
    assert!(pdn.contains("[Rules \"dame,king-capture=short\"]"), "{pdn}");
    let back = Game::from_pdn(&pdn).unwrap_or_else(|e| panic!("{e}\n{pdn}"));
    assert_eq!(back.rules(), &rules);
    assert_eq!(back.position(), g.position());
    assert_eq!(back.to_pdn(), pdn);
    let flying = pdn.replace("dame,king-capture=short", "dame");
    assert!(Game::from_pdn(&flying).is_err(), "a1-c3 skips a1xe5");
}

// ---------------------------------------------------------------------------
// Notation

/// RULES.md notation 8×8: algebraic squares a1–h8 from White's side:
/// `c3-d4`, `c3xe5`, `c3xe5xg7`.
#[test]
fn notation_8x8_is_algebraic() {
    let p = pos("dame", "W:Wc3:Bd4,f6");
    let m = p.parse_move("c3xe5xg7").expect("legal");
    assert_eq!(m.to_string(), "c3xe5xg7");
    assert_eq!(p.parse_move("c3xg7").expect("start and end"), m);
    assert_eq!(p.parse_move("C3XG7").expect("upper case"), m);
    assert_eq!(m.short_notation(), "c3xg7");
    let p = Position::new(RuleSet::DAME);
    assert_eq!(p.parse_move("c3-d4").expect("legal").to_string(), "c3-d4");
    assert!(matches!(p.parse_move("c3-d5"), Err(MoveError::Parse(_))));
    assert!(matches!(
        p.parse_move("c3-e5"),
        Err(MoveError::Illegal { .. })
    ));
}

/// RULES.md notation 10×10: the standard numbers 1–50: `32-28`, `28x19`,
/// `28x19x10`.
#[test]
fn notation_10x10_uses_square_numbers() {
    let mut g = Game::new(RuleSet::INTERNATIONAL);
    for m in ["32-28", "19-23", "28x19", "14x23"] {
        assert_eq!(g.play_str(m).expect("legal").to_string(), m);
    }
    let p = pos("dame-100", "W:W28:B23,14");
    assert_eq!(
        p.parse_move("28x10").expect("legal").to_string(),
        "28x19x10"
    );
    assert_eq!(
        p.parse_move("28x19x10").expect("legal").to_string(),
        "28x19x10"
    );
}

/// RULES.md positions: the FEN `W:W31-50:B1-20`, `K` before a king's
/// square, algebraic squares on 8×8.
#[test]
fn fen_lists_each_sides_squares_with_k_for_kings() {
    let p = pos("international", "B:WK5,31-33:B1,K50");
    assert_eq!(p.turn(), Color::Black);
    assert_eq!(p.fen(), "B:WK5,31-33:B1,K50");
    let s: Setup = "W:WKa1,c3:Bh8".parse().expect("8x8");
    assert_eq!(s.size, BoardSize::Eight);
    assert!(s.kings.contains(sq8("a1")));
    let s: Setup = "W:W31-50:B1-20".parse().expect("10x10");
    assert_eq!(s, Setup::start(BoardSize::Ten));
}
