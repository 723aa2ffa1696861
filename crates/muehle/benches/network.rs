//! The cost of the network's correction (`Network::score`) and of the
//! evaluation without it, on positions of random games (placing and
//! moving), with a network of fixed made-up weights.

use criterion::{Criterion, criterion_group, criterion_main};
use muehle::eval::evaluate;
use muehle::network::{Network, VALUES};
use muehle::{Position, RuleSet};

fn positions() -> Vec<Position> {
    let mut rng = 7u64;
    let mut next = |n: usize| {
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (rng >> 33) as usize % n
    };
    let mut out = Vec::new();
    while out.len() < 1000 {
        let mut pos = Position::new(RuleSet::STANDARD);
        for _ in 0..next(40) {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.is_game_over() {
                break;
            }
            pos = pos.play(moves[next(moves.len())]).expect("legal");
        }
        out.push(pos);
    }
    out
}

fn bench_network(c: &mut Criterion) {
    let positions = positions();
    let bytes: Vec<u8> = (0..2 * VALUES)
        .map(|i| {
            if i % 2 == 0 {
                (i * 37 % 121) as u8
            } else {
                if i % 6 == 1 { 0xff } else { 0 }
            }
        })
        .collect();
    let net = Network::from_bytes(&bytes).expect("a network");
    let mut group = c.benchmark_group("evaluation of 1000 positions");
    group.bench_function("network correction", |b| {
        b.iter(|| positions.iter().map(|p| net.score(p)).sum::<i32>())
    });
    group.bench_function("evaluation without network", |b| {
        b.iter(|| positions.iter().map(evaluate).sum::<i32>())
    });
    group.finish();
}

criterion_group!(benches, bench_network);
criterion_main!(benches);
