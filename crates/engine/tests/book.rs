//! The opening book: level 10 plays its move (in any orientation of the
//! position) and not when switched off; `extend` covers every position it
//! promises, proves its moves with the solver, and resumes where it
//! stopped. In the test binary `installed`: the book switch is for the process.

use engine::MuehleState;
use engine::muehle::book::{self, Book, BuildOptions, PROVEN};
use engine::muehle::placing::{PlacingSolver, PlacingTable};
use muehle::{Bitboard, Color, Position, RuleSet, Setup, Symmetry};
use search::Limits;
use tablebase::{Tablebase, Variant};

use crate::common;

fn level10(pos: &Position) -> muehle::Move {
    level10_with(pos, Limits::depth(3))
}

fn level10_with(pos: &Position, limits: Limits) -> muehle::Move {
    common::level_choice(10, &MuehleState::new(*pos), limits)
}

fn play(moves: &[&str]) -> Position {
    let mut p = Position::new(RuleSet::STANDARD);
    for m in moves {
        p.play_unchecked(p.parse_move(m).expect("move"));
    }
    p
}

#[test]
fn level_10_plays_the_books_move_and_not_when_switched_off() {
    let _state = common::one_at_a_time();
    let pos = play(&["d2", "d6"]);
    // The search's own move, with the book switched off.
    book::set_enabled(false);
    let own = level10(&pos);
    book::set_enabled(true);
    let other = pos
        .legal_moves()
        .into_iter()
        .find(|&m| m != own)
        .expect("another move");
    let mut b = Book::new();
    b.insert(&pos, other, 0);
    book::install(Some(b));
    assert_eq!(level10(&pos), other);
    // Without the databases too (the book is built into brett).
    let alone = Limits {
        no_databases: true,
        ..Limits::depth(3)
    };
    assert_eq!(level10_with(&pos, alone), other);
    // Any image of the position: the image of the move (or, where the
    // position is symmetric, a move to the same position).
    let mut after = pos;
    after.play_unchecked(other);
    for s in Symmetry::ALL {
        let image = pos.transformed(s);
        let mut played = image;
        played.play_unchecked(level10(&image));
        assert_eq!(book::key(&played).0, book::key(&after).0, "{s:?}");
    }
    // Other rules, or switched off: the search's own move.
    let no_flying =
        Position::from_setup(pos.to_setup(), RuleSet::preset("no-flying").unwrap()).unwrap();
    assert_ne!(book::book_move(&no_flying), Some(other));
    book::set_enabled(false);
    assert_eq!(level10(&pos), own);
    book::set_enabled(true);
    book::install(None);
    assert_eq!(
        book::book_move(&pos),
        book::built_in().get(&pos).map(|(m, _)| m)
    );
}

/// Four stones a side, all in hand: placing ends in sector 4-4 (or
/// smaller ones after mills).
fn small_start() -> Position {
    let setup = Setup {
        stones: [Bitboard::EMPTY; 2],
        in_hand: [4, 4],
        turn: Color::White,
        plies_since_mill: 0,
        move_number: 1,
    };
    Position::from_setup(setup, RuleSet::STANDARD).unwrap()
}

/// The databases of [`small_start`] (sector 4-4 and below, built in a
/// folder that lives as long as the first value), installed, and a solver
/// table.
fn small_databases() -> (tempfile::TempDir, Tablebase, PlacingTable) {
    let dir = tempfile::tempdir().unwrap();
    tablebase::build_sectors(dir.path(), Variant::STANDARD, "4-4").unwrap();
    engine::muehle::databases::install(Some(dir.path()));
    let tb = Tablebase::new(dir.path(), Variant::STANDARD);
    (dir, tb, PlacingTable::new(1_000_000))
}

#[test]
fn extend_covers_proves_and_resumes() {
    let _state = common::one_at_a_time();
    let (_dir, tb, table) = small_databases();
    let options = BuildOptions {
        roots_ply: 1,
        max_ply: 4,
        depth: 3,
        candidates: 2,
        budget: 50_000_000,
        threads: 2,
        prove_from_ply: 0,
    };
    let start = small_start();
    // Stopped after 5 positions, then resumed: the same positions as one
    // uninterrupted build.
    let mut resumed = Book::new();
    let mut n = 0;
    book::extend(&mut resumed, &tb, &table, &start, &options, &mut |_, _| {
        n += 1;
        n < 5
    });
    assert_eq!(resumed.len(), 5);
    book::extend(&mut resumed, &tb, &table, &start, &options, &mut |_, _| {
        true
    });
    let mut once = Book::new();
    book::extend(&mut once, &tb, &table, &start, &options, &mut |_, _| true);
    let keys = |b: &Book| {
        let mut k: Vec<u64> = b.entries().map(|(k, _)| k).collect();
        k.sort_unstable();
        k
    };
    assert_eq!(keys(&resumed), keys(&once));

    // Coverage: the start, every position after one ply, and after each
    // book move every reply, up to ply 4.
    let mut level = vec![start];
    for p in start.legal_moves() {
        let mut c = start;
        c.play_unchecked(p);
        assert!(once.contains(&c), "{}", c.fen());
    }
    let mut checked = 0;
    for _ in 0..2 {
        let mut next = Vec::new();
        for pos in &level {
            let (m, flags) = once.get(pos).expect("held");
            // The move is proven not to lose: the opponent gets at most a
            // draw after it.
            let mut after = *pos;
            after.play_unchecked(m);
            let mut solver = PlacingSolver::new(&tb, &table, u64::MAX);
            let v = solver.solve(&after).unwrap();
            if flags & PROVEN != 0 {
                assert!(v <= 0, "{} {m}", pos.fen());
            }
            checked += 1;
            for r in after.legal_moves() {
                let mut c = after;
                c.play_unchecked(r);
                assert!(once.contains(&c), "{}", c.fen());
                next.push(c);
            }
        }
        level = next;
    }
    assert!(checked > 20, "{checked}");
    let proven = once
        .entries()
        .filter(|(_, e)| e.flags & PROVEN != 0)
        .count();
    assert!(proven * 10 >= once.len() * 9, "{proven} of {}", once.len());
}

#[test]
fn add_played_holds_the_placing_positions_of_played_lines_with_the_moves_played() {
    let _state = common::one_at_a_time();
    let (_dir, tb, table) = small_databases();
    let options = BuildOptions {
        roots_ply: 0,
        max_ply: 0,
        depth: 3,
        candidates: 2,
        budget: 50_000_000,
        threads: 2,
        prove_from_ply: 0,
    };
    // Two played lines from the small start, to the first moves after
    // placing; the second is the first's mirror image for five plies.
    let line = |moves: &[&str]| {
        let mut pos = small_start();
        let mut out = Vec::new();
        for m in moves {
            let mv = pos.parse_move(m).expect(m);
            out.push((pos, mv));
            pos.play_unchecked(mv);
        }
        out
    };
    let first = line(&["a1", "g7", "a4", "a7", "d2", "d6", "f4", "b4", "d2-d1"]);
    let second = line(&["a7", "g1", "a4", "a1", "d6"]);
    // A position off both lines with a move that is not legal there (a
    // stone on a taken point): the book takes a move of its own.
    let mut off_pos = small_start();
    for m in ["g7", "b6", "f2"] {
        off_pos.play_unchecked(off_pos.parse_move(m).unwrap());
    }
    let taken = first[1].1;
    assert!(!off_pos.is_legal(taken) && off_pos.in_hand(Color::Black) > 0);
    let mut solver = PlacingSolver::new(&tb, &table, u64::MAX);
    let keeps = |solver: &mut PlacingSolver, pos: &Position, m: muehle::Move| {
        let mut after = *pos;
        after.play_unchecked(m);
        solver.solve(&after).unwrap() <= 0
    };
    let mut played = first.clone();
    played.extend(&second);
    played.push((off_pos, taken));
    let mut book = Book::new();
    let mut steps = 0;
    book::add_played(&mut book, &tb, &table, &played, &options, &mut |_, _| {
        steps += 1;
        true
    });
    // Every placing position is held, the moving one (after the eighth
    // stone) is not, and the mirrored positions were worked on once.
    for (pos, _) in first.iter().chain(&second) {
        let placing = pos.in_hand(Color::White) + pos.in_hand(Color::Black) > 0;
        assert_eq!(book.contains(pos), placing, "{}", pos.fen());
    }
    assert_eq!(book.len(), 8 + 1);
    assert_eq!(steps, book.len());
    // The move played wherever it does not lose; each move proven so.
    for (pos, played) in first.iter().take(8).chain(&second) {
        let (m, flags) = book.get(pos).expect("held");
        assert!(flags & PROVEN != 0, "{}", pos.fen());
        assert!(keeps(&mut solver, pos, m), "{} {m}", pos.fen());
        if keeps(&mut solver, pos, *played) {
            // The same move up to the position's own symmetries.
            let after = |mv| {
                let mut a = *pos;
                a.play_unchecked(mv);
                book::key(&a).0
            };
            assert_eq!(after(m), after(*played), "{} {m} {played}", pos.fen());
        }
    }
    let (m, flags) = book.get(&off_pos).expect("held");
    assert!(flags & PROVEN != 0 && keeps(&mut solver, &off_pos, m));
    // Held positions are not worked on again.
    book::add_played(&mut book, &tb, &table, &played, &options, &mut |_, _| {
        panic!("a held position was worked on again")
    });
}
