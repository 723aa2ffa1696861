//! Drawing positions of both games in the terminal: the boards and their status lines.

use muehle::{Color, Move, Phase, Position, Square};

/// The board as text, drawn from the board's lines (with the diagonals of
/// Twelve Men's Morris), with rank and file labels: `W` white, `B` black,
/// `.` empty, and `o` on the point the last move left or removed a stone from.
pub fn render(pos: &Position, last: Option<Move>) -> String {
    const W: usize = 25;
    let mut grid = vec![vec![' '; W]; 13];
    let col = |sq: Square| usize::from(sq.file()) * 4;
    let row = |sq: Square| (6 - usize::from(sq.rank())) * 2;
    for a in Square::ALL {
        for b in pos.board().neighbours_of(a) {
            if a.rank() != b.rank() && a.file() != b.file() && a.rank() > b.rank() {
                let mark = if a.file() < b.file() { '\\' } else { '/' };
                grid[(row(a) + row(b)) / 2][(col(a) + col(b)) / 2] = mark;
            }
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
        c.title(),
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
        pos.turn().title(),
        pos.plies_since_mill(),
        pos.fen()
    ));
    s
}

/// A Dame position as text: `w`/`b` men, `W`/`B` kings, `.` empty dark
/// squares; files and ranks on 8×8, square numbers on 10×10.
pub fn render_dame(pos: &dame::Position) -> String {
    use dame::{BoardSize, Color as DColor, PieceKind, Square as DSquare};
    let size = pos.size();
    let n: u8 = match size {
        BoardSize::Eight => 8,
        BoardSize::Ten => 10,
    };
    let mut out = String::new();
    for rank in (0..n).rev() {
        let mut line = String::new();
        let mut numbers = Vec::new();
        for file in 0..n {
            match DSquare::from_coords(size, file, rank) {
                Some(sq) => {
                    numbers.push(sq.number());
                    line.push(match pos.piece_at(sq) {
                        Some(p) => match (p.color, p.kind) {
                            (DColor::White, PieceKind::Man) => 'w',
                            (DColor::White, PieceKind::King) => 'W',
                            (DColor::Black, PieceKind::Man) => 'b',
                            (DColor::Black, PieceKind::King) => 'B',
                        },
                        None => '.',
                    });
                }
                None => line.push(' '),
            }
            line.push(' ');
        }
        match size {
            BoardSize::Eight => out.push_str(&format!("  {} {}\n", rank + 1, line.trim_end())),
            BoardSize::Ten => {
                let first = numbers.iter().min().copied().unwrap_or(0);
                let last = numbers.iter().max().copied().unwrap_or(0);
                out.push_str(&format!(
                    "   {:<20} {first:>2}-{last:<2}\n",
                    line.trim_end()
                ));
            }
        }
    }
    if size == BoardSize::Eight {
        out.push_str("    a b c d e f g h\n");
    }
    out
}

/// Side to move, pieces, counters and the FEN of a Dame position.
pub fn dame_status(pos: &dame::Position) -> String {
    use dame::Color as DColor;
    let count = |c: DColor| (pos.men(c).count(), pos.kings(c).count());
    let (wm, wk) = count(DColor::White);
    let (bm, bk) = count(DColor::Black);
    format!(
        "  White: {wm} men, {wk} kings; Black: {bm} men, {bk} kings\n  Move {}, {} to move; {} plies of king moves without capture\n  FEN: {}\n",
        pos.move_number(),
        pos.turn().title(),
        pos.king_moves(),
        pos.fen()
    )
}

/// The terminal's pictures of the boards, each with its status lines.
pub struct Terminal;

impl games::BoardArt for Terminal {
    fn muehle(&self, pos: &Position, last: Option<Move>) -> String {
        let mut text = render(pos, last);
        text.push_str(&status(pos));
        text
    }

    fn dame(&self, pos: &dame::Position) -> String {
        let mut text = render_dame(pos);
        text.push_str(&dame_status(pos));
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_is_drawn_from_its_lines() {
        let nine = render(&Position::new(muehle::RuleSet::STANDARD), None);
        assert!(!nine.contains('\\') && !nine.contains('/'), "{nine}");
        let twelve = render(&Position::new(muehle::RuleSet::TWELVE_MENS_MORRIS), None);
        // Each of the four diagonals is drawn twice (outer to middle, middle to inner).
        assert_eq!(twelve.matches('\\').count(), 4, "{twelve}");
        assert_eq!(twelve.matches('/').count(), 4, "{twelve}");
        let lines: Vec<&str> = twelve.lines().collect();
        assert_eq!(
            lines[1].trim_end(),
            "     | \\         |         / |",
            "{twelve}"
        );
    }
}
