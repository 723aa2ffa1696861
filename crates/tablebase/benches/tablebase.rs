//! Benchmarks: building sector 3-3 (positions per second), indexing, and
//! probing warm (block cached) and cold (a new block each time).

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tablebase::{BuildOptions, NoProgress, Sector, SectorIndex, Tablebase, Variant, build};

fn benches(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    let options = BuildOptions {
        dir: dir.path().to_path_buf(),
        variant: Variant::STANDARD,
    };
    let s33 = Sector::new(3, 3).expect("sector");
    let classes = SectorIndex::new(3, 3).size();
    let mut g = c.benchmark_group("build");
    g.sample_size(10);
    g.throughput(Throughput::Elements(classes));
    g.bench_function("sector 3-3", |b| {
        b.iter(|| {
            let _ = std::fs::remove_dir_all(dir.path().join("standard"));
            build(&options, &[s33], &NoProgress).expect("build")
        })
    });
    g.finish();

    let idx = SectorIndex::new(8, 8);
    let mut rng = fastrand::Rng::with_seed(1);
    let positions: Vec<(u32, u32)> = (0..1024)
        .map(|_| idx.position(rng.u64(0..idx.size())))
        .collect();
    c.bench_function("index 8-8 (1024 positions)", |b| {
        b.iter(|| positions.iter().map(|&(m, o)| idx.index(m, o)).sum::<u64>())
    });

    let tb = Tablebase::new(dir.path(), Variant::STANDARD);
    let idx33 = SectorIndex::new(3, 3);
    let probes: Vec<(u32, u32)> = (0..4096)
        .map(|_| idx33.position(rng.u64(0..idx33.size())))
        .collect();
    let (m0, o0) = probes[0];
    c.bench_function("probe warm", |b| {
        b.iter(|| {
            tb.probe_stones(black_box(muehle::Bitboard(m0)), muehle::Bitboard(o0))
                .expect("probe")
        })
    });
    let mut k = 0;
    c.bench_function("probe cold (random positions)", |b| {
        b.iter(|| {
            k = (k + 1) % probes.len();
            let (m, o) = probes[k];
            tb.probe_stones(muehle::Bitboard(m), muehle::Bitboard(o))
                .expect("probe")
        })
    });
}

criterion_group!(all, benches);
criterion_main!(all);
