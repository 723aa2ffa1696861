//! Perft benchmarks (criterion): `cargo bench -p dame`. Bulk counting at the
//! last ply; the leaves per second are perft(d) / time.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dame::perft::perft;
use dame::{Position, RuleSet};

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    let cases: [(&str, RuleSet, &str, u32); 5] = [
        ("dame start", RuleSet::DAME, "start", 9),
        ("dame-fr start", RuleSet::DAME_FR, "start", 9),
        ("dame-100 start", RuleSet::DAME_100, "start", 8),
        ("international start", RuleSet::INTERNATIONAL, "start", 8),
        (
            "international kings",
            RuleSet::INTERNATIONAL,
            "W:WK3,K26,K40,29,33,38,44:BK8,K46,12,17,18,23,24,35",
            6,
        ),
    ];
    for (name, rules, fen, depth) in cases {
        let pos = if fen == "start" {
            Position::new(rules)
        } else {
            Position::from_fen(fen, rules).expect("valid FEN")
        };
        let leaves = perft(&pos, depth);
        group.throughput(Throughput::Elements(leaves));
        group.bench_function(format!("{name} depth {depth}"), |b| {
            b.iter(|| perft(&pos, depth))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);
