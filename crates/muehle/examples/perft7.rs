use muehle::{Position, RuleSet, perft::perft};
fn main() {
    let t = std::time::Instant::now();
    let n = perft(&Position::new(RuleSet::STANDARD), 7);
    println!("{n} {:.3}", t.elapsed().as_secs_f64());
}
