use criterion::{Criterion, criterion_group, criterion_main};
use muehle::{Position, RuleSet, perft::perft};

fn bench_perft(c: &mut Criterion) {
    let start = Position::new(RuleSet::STANDARD);
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for depth in [4, 5] {
        group.bench_function(format!("start depth {depth}"), |b| {
            b.iter(|| perft(&start, depth))
        });
    }
    let mid: Position = "W.B/.WB/W.B/BW..WB/.W./B.W/... w 0 0 12 20"
        .parse()
        .expect("valid");
    group.bench_function("moving phase depth 5", |b| b.iter(|| perft(&mid, 5)));
    // The figure the board description must not slow down: perft(7) from the start.
    group.bench_function("start depth 7", |b| b.iter(|| perft(&start, 7)));
    group.finish();
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);
