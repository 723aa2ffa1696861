fn main() {
    let p = muehle::Position::default();
    let d: u32 = std::env::args()
        .nth(1)
        .map(|s| s.parse().unwrap())
        .unwrap_or(5);
    for depth in 1..=d {
        let t = std::time::Instant::now();
        let n = muehle::perft::perft(&p, depth);
        println!(
            "depth {depth} nodes {n} time {:.3}",
            t.elapsed().as_secs_f64()
        );
    }
}
