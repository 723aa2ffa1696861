//! Benchmarks: building sector 3-3 (positions per second), indexing, and
//! probing: warm (the block is kept decompressed), random positions of a
//! sector with more blocks than are kept (mostly a block to decompress),
//! and cold (a new prober: open and check the file, then decompress).

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use muehle::Bitboard;
use tablebase::{BuildOptions, NoProgress, Sector, SectorIndex, Tablebase, Variant, build};

fn benches(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    let options = BuildOptions {
        dir: dir.path().to_path_buf(),
        variant: Variant::STANDARD,
    };
    let s33 = Sector::new(3, 3).expect("sector");
    let mut g = c.benchmark_group("build");
    g.sample_size(10);
    g.throughput(Throughput::Elements(SectorIndex::new(3, 3).size()));
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

    // Sector 4-4 has 830 blocks, more than a file keeps decompressed (256).
    build(&options, &[Sector::new(4, 4).expect("sector")], &NoProgress).expect("build 4-4");
    let tb = Tablebase::new(dir.path(), Variant::STANDARD);
    let idx44 = SectorIndex::new(4, 4);
    let probes: Vec<(u32, u32)> = (0..65536)
        .map(|_| idx44.position(rng.u64(0..idx44.size())))
        .collect();
    let (m0, o0) = probes[0];
    c.bench_function("probe warm (block kept)", |b| {
        b.iter(|| {
            tb.probe_stones(black_box(Bitboard(m0)), Bitboard(o0))
                .expect("probe")
        })
    });
    let mut k = 0;
    c.bench_function("probe random positions of 4-4", |b| {
        b.iter(|| {
            k = (k + 1) % probes.len();
            let (m, o) = probes[k];
            tb.probe_stones(Bitboard(m), Bitboard(o)).expect("probe")
        })
    });
    let mut g = c.benchmark_group("probe cold");
    g.sample_size(20);
    g.bench_function("open and check 4-4, decompress a block", |b| {
        b.iter(|| {
            let fresh = Tablebase::new(dir.path(), Variant::STANDARD);
            fresh
                .probe_stones(Bitboard(m0), Bitboard(o0))
                .expect("probe")
        })
    });
    g.finish();
}

criterion_group!(all, benches);
criterion_main!(all);
