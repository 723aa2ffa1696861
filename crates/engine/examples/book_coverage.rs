//! How much of brett's placing a Mühle book holds: `book_coverage BOOK
//! GAMES…` replays the records of match files (`brett match --out`) and
//! counts, for brett's side (the player whose name contains "brett") past
//! `PLY` (default 6) stones placed, the positions the book holds, by ply,
//! and how many games met the book there at least once. `book_coverage
//! BOOK` alone counts the book's own positions by ply, and how many of them
//! are proven not to lose.
use muehle::{Color, Game};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 2 {
        eprintln!(
            "usage: book_coverage BOOK [GAMES…] (PLY=6 in the environment to change the ply)"
        );
        std::process::exit(2);
    }
    let after: usize = std::env::var("PLY")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(6);
    let book = engine::muehle::book::Book::read(std::path::Path::new(&args[1]))
        .unwrap_or_else(|e| panic!("{}: {e}", args[1]));
    if args.len() == 2 {
        // The book's positions by ply (the stones in hand are in the key).
        let mut by_ply = [[0u32; 2]; 18];
        for (key, entry) in book.entries() {
            let in_hand = ((key >> 48) & 15) + ((key >> 52) & 15);
            let ply = 18 - in_hand as usize;
            by_ply[ply][0] += 1;
            by_ply[ply][1] += u32::from(entry.flags & engine::muehle::book::PROVEN != 0);
        }
        println!("{} positions", book.len());
        for (ply, [n, proven]) in by_ply.iter().enumerate() {
            if *n > 0 {
                println!("  ply {ply}: {n} ({proven} proven)");
            }
        }
        return;
    }
    let mut by_ply = [[0u32; 2]; 18];
    let (mut games, mut met) = (0, 0);
    for file in &args[2..] {
        let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{file}: {e}"));
        let mut blocks: Vec<String> = Vec::new();
        for line in text.lines() {
            if line.starts_with("[Event ") {
                blocks.push(String::new());
            }
            if let Some(b) = blocks.last_mut() {
                b.push_str(line);
                b.push('\n');
            }
        }
        for (i, block) in blocks.iter().enumerate() {
            let side = |tag: &str| {
                block
                    .lines()
                    .any(|l| l.starts_with(&format!("[{tag} \"")) && l.contains("brett"))
            };
            let brett = match (side("White"), side("Black")) {
                (true, false) => Color::White,
                (false, true) => Color::Black,
                _ => continue,
            };
            let game = Game::from_record(block)
                .unwrap_or_else(|e| panic!("{file}: record {}: {e}", i + 1));
            games += 1;
            let mut pos = *game.start();
            let mut hit = false;
            for &m in game.moves() {
                let in_hand = usize::from(pos.in_hand(Color::White) + pos.in_hand(Color::Black));
                if in_hand == 0 {
                    break;
                }
                let ply = 18 - in_hand;
                if pos.turn() == brett && ply > after {
                    by_ply[ply][0] += 1;
                    if book.contains(&pos) {
                        by_ply[ply][1] += 1;
                        hit = true;
                    }
                }
                pos.play_unchecked(m);
            }
            met += u32::from(hit);
        }
    }
    let (all, held) = by_ply.iter().fold((0, 0), |(a, h), [n, k]| (a + n, h + k));
    println!(
        "brett's placing positions past ply {after}: {held} of {all} held; games that met the book there: {met} of {games}"
    );
    for (ply, [n, k]) in by_ply.iter().enumerate() {
        if *n > 0 {
            println!("  ply {ply}: {k} of {n}");
        }
    }
}
