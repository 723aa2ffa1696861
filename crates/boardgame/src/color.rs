use std::fmt;
use std::ops::Not;

/// The two sides. White moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(rename_all = "lowercase")
)]
pub enum Color {
    /// White, who moves first.
    White = 0,
    /// Black.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// 0 for White, 1 for Black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other side.
    #[inline]
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// `'w'` or `'b'`, as in Mühle's position string (Dame's FEN writes `W`/`B`).
    pub const fn char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// `"White"` or `"Black"`, as in sentences about the game.
    pub const fn title(self) -> &'static str {
        match self {
            Color::White => "White",
            Color::Black => "Black",
        }
    }

    /// `"white"` or `"black"`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }

    /// Parse `w`, `b`, `white`, `black` (any case).
    pub fn from_name(s: &str) -> Option<Color> {
        match s.to_ascii_lowercase().as_str() {
            "w" | "white" | "weiss" | "weiß" => Some(Color::White),
            "b" | "black" | "schwarz" => Some(Color::Black),
            _ => None,
        }
    }
}

impl Not for Color {
    type Output = Color;
    fn not(self) -> Color {
        self.other()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
