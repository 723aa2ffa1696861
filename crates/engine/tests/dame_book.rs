//! Dame's opening book: level 10 plays its move, the lower levels,
//! analysis and a switched-off book do not; `extend` covers every position
//! it promises and resumes where it stopped. In the test binary `installed`:
//! the book switch is for the process.

use std::sync::atomic::AtomicBool;

use dame::{Move, Position, RuleSet};
use engine::DameState;
use engine::dame::book::{self, Book, BuildOptions};
use search::{Engine, Limits};

use crate::common;

fn choose(level: u8, pos: &Position, limits: Limits) -> Move {
    common::level_choice(level, &DameState::new(*pos), limits)
}

fn play(rules: &str, moves: &[&str]) -> Position {
    let mut p = Position::new(RuleSet::preset(rules).unwrap());
    for m in moves {
        let mv = p.parse_move(m).expect("move");
        p.play_unchecked(&mv);
    }
    p
}

#[test]
fn level_10_plays_the_books_move_and_only_level_10_in_play() {
    let _state = common::one_at_a_time();
    let pos = play("international", &["32-28", "18-23"]);
    let limits = Limits {
        no_databases: true,
        ..Limits::depth(4)
    };
    // The search's own move: the book (the built-in one holds this
    // position too) switched off.
    engine::book::set_enabled(false);
    let own = choose(10, &pos, limits);
    engine::book::set_enabled(true);
    let other = *pos
        .strict_moves()
        .iter()
        .find(|&&m| m != own)
        .expect("another move");
    let mut b = Book::new();
    b.insert(&pos, &[(other, 5), (own, 0)], 12);
    book::install(Some(b));
    assert_eq!(book::book_move(&pos), Some(other));
    // Level 10 plays it, at a fixed depth, a fixed time or on a clock
    // (where it is answered at once).
    assert_eq!(choose(10, &pos, limits), other);
    assert_eq!(
        choose(
            10,
            &pos,
            Limits::movetime(std::time::Duration::from_millis(50))
        ),
        other
    );
    // A lower level and the analysis (two lines) search every move.
    let engine = Engine::new(16, 1);
    let stop = AtomicBool::new(false);
    let analysis = engine.search(&DameState::new(pos), &[], limits, 2, &stop, &mut |_| {});
    assert_eq!(analysis.best, Some(own));
    let low = choose(8, &pos, Limits::depth(4));
    assert!(pos.is_legal(&low));
    // The same board under rules without a book, or the book switched
    // off: the search's own move.
    let mut custom = *pos.rules();
    custom.huffing = true;
    let custom = Position::from_setup(pos.to_setup(), custom).unwrap();
    assert_eq!(book::book_move(&custom), None);
    engine::book::set_enabled(false);
    assert_eq!(book::book_move(&pos), None);
    assert_eq!(choose(10, &pos, limits), own);
    engine::book::set_enabled(true);
    book::install(None);
    assert_eq!(book::book_move(&pos), book::built_in().get(&pos));
}

#[test]
fn the_built_in_book_holds_the_starts_and_its_moves_are_legal() {
    let _state = common::one_at_a_time();
    let built_in = book::built_in();
    for name in ["international", "dame", "dame-fr", "dame-100"] {
        let start = Position::new(RuleSet::preset(name).unwrap());
        assert!(built_in.contains(&start), "{name}");
        // Every position after White's first move is held too.
        for m in start.strict_moves().iter() {
            let mut c = start;
            c.play_unchecked(m);
            assert!(!built_in.moves(&c).is_empty(), "{name} {m}");
        }
    }
    for (_, e) in built_in.entries() {
        assert!(!e.moves.is_empty() && e.moves.len() <= book::LINES);
        assert!(e.moves.windows(2).all(|w| w[0].1 >= w[1].1), "{e:?}");
    }
}

#[test]
fn extend_covers_and_resumes() {
    let _state = common::one_at_a_time();
    let options = BuildOptions {
        roots_ply: 1,
        max_ply: 4,
        depth: 3,
        lines: 2,
        margin: 30,
        threads: 2,
    };
    let start = Position::new(RuleSet::preset("dame").unwrap());
    // Stopped after 5 positions, then resumed: the same positions as one
    // uninterrupted build.
    let mut resumed = Book::new();
    let mut n = 0;
    book::extend(&mut resumed, &start, &options, &mut |_, _| {
        n += 1;
        n < 5
    });
    // Positions the other thread finished before it saw the stop are kept.
    let partial = resumed.len();
    assert!(partial >= 5, "{partial}");
    book::extend(&mut resumed, &start, &options, &mut |_, _| true);
    let mut once = Book::new();
    book::extend(&mut once, &start, &options, &mut |_, _| true);
    let keys = |b: &Book| {
        let mut k: Vec<u64> = b.entries().map(|(k, _)| k).collect();
        k.sort_unstable();
        k
    };
    assert_eq!(keys(&resumed), keys(&once));
    assert!(partial < once.len(), "{partial} of {}", once.len());
    // Coverage: the start and every position after one ply, then after
    // each held move within the margin of the best, up to ply 4.
    let mut level = vec![start];
    let mut checked = 0;
    for ply in 0..=4 {
        let mut next = Vec::new();
        // A position reached by two move orders is held once.
        let mut seen = std::collections::HashSet::new();
        level.retain(|p| seen.insert(p.hash()));
        for pos in &level {
            let legal = pos.strict_moves();
            if legal.as_slice().len() == 1 {
                let mut c = *pos;
                c.play_unchecked(&legal.as_slice()[0]);
                next.push(c);
                continue;
            }
            let held = once.moves(pos);
            assert_eq!(held.len(), 2, "ply {ply}: {}", pos.fen());
            assert!(held[0].1 >= held[1].1);
            checked += 1;
            let follow: Vec<Move> = if ply < 1 {
                legal.iter().copied().collect()
            } else {
                held.iter()
                    .filter(|(_, s)| i32::from(*s) >= i32::from(held[0].1) - 30)
                    .map(|(m, _)| *m)
                    .collect()
            };
            for m in follow {
                let mut c = *pos;
                c.play_unchecked(&m);
                next.push(c);
            }
        }
        level = next;
    }
    assert!(checked > 20, "{checked}");
    assert_eq!(checked, once.len());
    // The file keeps every entry.
    let back = Book::from_bytes(&once.to_bytes(), "t").unwrap();
    assert_eq!(keys(&back), keys(&once));
}
