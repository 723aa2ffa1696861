//! The Dame builder against a plain solver written for the tests: every
//! position with up to a few pieces (both sides to move, every value of the
//! ending counter where the rules count the ending) in a `HashMap`, moves
//! from the rules crate, values found by passes until nothing changes. No
//! code of the `tablebase` crate is used by the solver (no indexing, no
//! symmetry, no taking moves back). Every position is then probed from the
//! built files and compared.

use std::collections::HashMap;

use dame::{BoardSize, Color, Piece, PieceKind, Position, RuleSet, Setup, Square};
use tablebase::Value;
use tablebase::dame::{DameTablebase, Material, build_dame};

/// The solver's rules: the databases do not count the king-move counter
/// or repetitions.
fn plain(rules: RuleSet) -> RuleSet {
    RuleSet {
        king_move_draw: None,
        repetition_draw: None,
        ..rules
    }
}

fn key(pos: &Position) -> Setup {
    let mut s = pos.to_setup();
    s.king_moves = 0;
    s.move_number = 1;
    s
}

/// Every legal position with `pieces` pieces (both sides present), both
/// sides to move, every ending counter of a counted ending.
fn positions_with(rules: &RuleSet, pieces: usize, out: &mut Vec<Position>) {
    let size = rules.board;
    let n = size.squares() as u8;
    let kinds = [
        (Color::White, PieceKind::Man),
        (Color::White, PieceKind::King),
        (Color::Black, PieceKind::Man),
        (Color::Black, PieceKind::King),
    ];
    let mut squares = vec![0u8; pieces];
    fn combos(n: u8, k: usize, start: u8, at: usize, cur: &mut Vec<u8>, f: &mut dyn FnMut(&[u8])) {
        if at == k {
            f(cur);
            return;
        }
        for s in start..n {
            cur[at] = s;
            combos(n, k, s + 1, at + 1, cur, f);
        }
    }
    combos(n, pieces, 0, 0, &mut squares, &mut |sq| {
        for types in 0..4usize.pow(pieces as u32) {
            let mut setup = Setup::empty(size);
            let mut t = types;
            for &s in sq {
                let (color, kind) = kinds[t % 4];
                t /= 4;
                let square = Square::from_number(size, s + 1).unwrap();
                setup.set(square, Some(Piece { color, kind }));
            }
            if setup.pieces[0].is_empty() || setup.pieces[1].is_empty() {
                continue;
            }
            for turn in [Color::White, Color::Black] {
                setup.turn = turn;
                setup.ending_plies = 0;
                let Ok(p) = Position::from_setup(setup, *rules) else {
                    continue;
                };
                let limit = p.counted_ending().map_or(0, |(_, l)| l);
                for e in 0..=limit {
                    setup.ending_plies = e;
                    out.push(Position::from_setup(setup, *rules).unwrap());
                }
            }
        }
    });
}

/// The plain values of every position with up to `max` pieces.
fn solve(rules: &RuleSet, max: usize) -> (Vec<Position>, Vec<Value>) {
    let mut all = Vec::new();
    for p in 2..=max {
        positions_with(rules, p, &mut all);
    }
    let mut at: HashMap<Setup, usize> = HashMap::new();
    for (i, p) in all.iter().enumerate() {
        at.insert(key(p), i);
    }
    // Children by number; a child where the side to move has no pieces is
    // a position of its own (a loss at once) only if listed, so it is
    // marked -1.
    let children: Vec<Vec<i64>> = all
        .iter()
        .map(|p| {
            if p.outcome().is_some() {
                return Vec::new();
            }
            p.legal_moves()
                .iter()
                .map(|m| {
                    let mut c = *p;
                    c.play_unchecked(m);
                    if c.pieces(c.turn()).is_empty() {
                        -1
                    } else {
                        at[&key(&c)] as i64
                    }
                })
                .collect()
        })
        .collect();
    let mut value: Vec<Option<Value>> = all
        .iter()
        .map(|p| {
            p.outcome().map(|o| match o.winner {
                None => Value::Draw,
                Some(_) => Value::Loss(0),
            })
        })
        .collect();
    let child_value = |value: &[Option<Value>], c: i64| {
        if c < 0 {
            Some(Value::Loss(0))
        } else {
            value[c as usize]
        }
    };
    for n in 1u16.. {
        let mut newly = Vec::new();
        for i in 0..all.len() {
            if value[i].is_some() {
                continue;
            }
            let vs: Vec<Option<Value>> = children[i]
                .iter()
                .map(|&c| child_value(&value, c))
                .collect();
            if vs.iter().any(|v| *v == Some(Value::Loss(n - 1))) {
                newly.push((i, Value::Win(n)));
            } else if vs.iter().all(|v| matches!(v, Some(Value::Win(_))))
                && vs.iter().any(|v| *v == Some(Value::Win(n - 1)))
            {
                newly.push((i, Value::Loss(n)));
            }
        }
        if newly.is_empty() {
            break;
        }
        for (i, v) in newly {
            value[i] = Some(v);
        }
    }
    let value = value
        .into_iter()
        .map(|v| v.unwrap_or(Value::Draw))
        .collect();
    (all, value)
}

fn check(rules: RuleSet, max: usize) -> (usize, [usize; 3]) {
    let dir = tempfile::tempdir().unwrap();
    build_dame(
        dir.path(),
        &rules,
        &Material::all_up_to(max as u32),
        &mut |_| {},
    )
    .unwrap();
    let tb = DameTablebase::new(dir.path());
    let rules = plain(rules);
    let (all, values) = solve(&rules, max);
    let mut wdl = [0; 3];
    let mut bad = Vec::new();
    for (p, &v) in all.iter().zip(&values) {
        let got = tb.value(p).unwrap();
        if got != v {
            bad.push(format!("{}: plain {v}, database {got}", p.fen()));
        }
        wdl[match v {
            Value::Win(_) => 0,
            Value::Draw => 1,
            Value::Loss(_) => 2,
        }] += 1;
    }
    assert!(
        bad.is_empty(),
        "{} of {} differ, e.g. {:?}",
        bad.len(),
        all.len(),
        &bad[..bad.len().min(8)]
    );
    (all.len(), wdl)
}

#[test]
fn dame_up_to_three_pieces_agrees_with_the_plain_solver() {
    let (n, [w, d, l]) = check(RuleSet::DAME, 3);
    assert!(n > 300_000, "{n}");
    assert!(w > 0 && d > 0 && l > 0);
}

#[test]
fn dame_fr_up_to_three_pieces_agrees_with_the_plain_solver() {
    let (n, [w, d, l]) = check(RuleSet::DAME_FR, 3);
    assert!(n > 300_000, "{n}");
    assert!(w > 0 && d > 0 && l > 0);
}

/// The FMJD rules on the small board: the counted endings K-K, KK-K and
/// KM-K with the ending counter in the key, on every layer.
#[test]
fn fmjd_rules_on_8x8_up_to_three_pieces_agree_with_the_plain_solver() {
    let rules: RuleSet = "international,board=8".parse().unwrap();
    assert_eq!(rules.board, BoardSize::Eight);
    let (n, [w, d, l]) = check(rules, 3);
    assert!(n > 1_000_000, "{n}");
    assert!(w > 0 && d > 0 && l > 0);
}

/// The Italian text's king (`king-capture=short`: it captures only a
/// piece next to it), built and probed under its own fingerprint.
#[test]
fn dame_short_king_capture_up_to_three_pieces_agrees_with_the_plain_solver() {
    let rules: RuleSet = "dame,king-capture=short".parse().unwrap();
    let (n, [w, d, l]) = check(rules, 3);
    assert!(n > 300_000, "{n}");
    assert!(w > 0 && d > 0 && l > 0);
    // And it differs from the flying king's values somewhere.
    let (_, [w_long, d_long, l_long]) = check(RuleSet::DAME, 3);
    assert_ne!((w, d, l), (w_long, d_long, l_long));
}

#[test]
fn international_up_to_two_pieces_agrees_with_the_plain_solver() {
    let (n, _) = check(RuleSet::INTERNATIONAL, 2);
    assert!(n > 10_000, "{n}");
}
