//! Drawing a Mühle position in the terminal.

use muehle::{Color, Move, Phase, Position, Square};

/// The board as text, with rank and file labels: `W` white, `B` black, `.`
/// empty, and `o` on the point the last move left or removed a stone from.
pub fn render(pos: &Position, last: Option<Move>) -> String {
    const W: usize = 25;
    let mut grid = vec![vec![' '; W]; 13];
    let col = |sq: Square| usize::from(sq.file()) * 4;
    let row = |sq: Square| (6 - usize::from(sq.rank())) * 2;
    for a in Square::ALL {
        for b in a.neighbours() {
            if a.rank() == b.rank() && a.file() < b.file() {
                grid[row(a)][col(a) + 1..col(b)].fill('-');
            }
            if a.file() == b.file() && a.rank() > b.rank() {
                for line in grid.iter_mut().take(row(b)).skip(row(a) + 1) {
                    line[col(a)] = '|';
                }
            }
        }
    }
    for sq in Square::ALL {
        grid[row(sq)][col(sq)] = match pos.stone_at(sq) {
            Some(Color::White) => 'W',
            Some(Color::Black) => 'B',
            None if last.is_some_and(|m| m.from() == Some(sq) || m.removal() == Some(sq)) => 'o',
            None => '.',
        };
    }
    let mut out = String::new();
    for (i, line) in grid.iter().enumerate() {
        let label = if i % 2 == 0 {
            format!("{} ", 7 - i / 2)
        } else {
            "  ".to_string()
        };
        let text: String = line.iter().collect();
        out.push_str(&format!("  {label} {}\n", text.trim_end()));
    }
    out.push_str("     a   b   c   d   e   f   g\n");
    out
}

fn describe_side(pos: &Position, c: Color) -> String {
    let phase = pos.phase(c);
    let detail = match phase {
        Phase::Placing => format!("{} in hand", pos.in_hand(c)),
        _ => String::new(),
    };
    format!(
        "{:5}: {} on board{}{} ({})",
        if c == Color::White { "White" } else { "Black" },
        pos.stones(c).count(),
        if detail.is_empty() { "" } else { ", " },
        detail,
        phase.name()
    )
}

/// Side to move, phases, stones, counters and the position string.
pub fn status(pos: &Position) -> String {
    let mut s = String::new();
    for c in Color::ALL {
        s.push_str(&format!("  {}\n", describe_side(pos, c)));
    }
    s.push_str(&format!(
        "  Move {}, {} to move; {} plies since the last mill\n  Position: {}\n",
        pos.move_number(),
        if pos.turn() == Color::White {
            "White"
        } else {
            "Black"
        },
        pos.plies_since_mill(),
        pos.fen()
    ));
    s
}
