//! What a game's rules tell about a position: the moves, how they are
//! written, and how the game ends.

use std::fmt;

use crate::Color;

/// Why a game ended. Each game has its own reasons; these four are common
/// to all of them, so a [`Session`](crate::Session) can declare the ones
/// the players decide (agreement, resignation) and detect a repetition.
pub trait Reason: Copy + Eq + fmt::Debug {
    /// The player to move has no legal move.
    const BLOCKED: Self;
    /// The same position occurred too often.
    const REPETITION: Self;
    /// Both players agreed to a draw.
    const AGREEMENT: Self;
    /// The loser resigned.
    const RESIGNATION: Self;
    /// The loser ran out of time.
    const TIME: Self;
    /// The opponent left a timed game, and the winner (or both, for a
    /// draw) claimed it.
    const CLAIMED: Self;
    /// The game ended without a result before both sides had moved.
    const ABORTED: Self;

    /// A short machine-readable name, as in a record's `Termination` tag.
    fn code(self) -> &'static str;

    /// The reason with this [`code`](Reason::code).
    fn from_code(code: &str) -> Option<Self>;

    /// The outcome in English words when this reason has words of its own
    /// (the game-specific reasons); `None` for the words all games share.
    fn describe(self, winner: Option<Color>) -> Option<String>;
}

/// The end of a game: the winner (`None` for a draw) and why.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Outcome<R> {
    /// The side that won, `None` for a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub reason: R,
}

impl<R: Reason> Outcome<R> {
    /// `1-0`, `0-1`, `1/2-1/2`, or `*` for an aborted game.
    pub fn result_str(&self) -> &'static str {
        if self.reason == R::ABORTED {
            return "*";
        }
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// The outcome in English words, e.g. "Black cannot move: White wins".
    pub fn describe(&self) -> String {
        if let Some(words) = self.reason.describe(self.winner) {
            return words;
        }
        let r = self.reason;
        match self.winner {
            Some(w) if r == R::BLOCKED => {
                format!("{} cannot move: {} wins", (!w).title(), w.title())
            }
            Some(w) if r == R::RESIGNATION => {
                format!("{} resigns: {} wins", (!w).title(), w.title())
            }
            Some(w) if r == R::TIME => {
                format!("{} ran out of time: {} wins", (!w).title(), w.title())
            }
            Some(w) if r == R::CLAIMED => {
                format!(
                    "{} left the game: {} claims the win",
                    (!w).title(),
                    w.title()
                )
            }
            None if r == R::ABORTED => "The game was aborted: no result".to_string(),
            None if r == R::CLAIMED => "The opponent left the game: draw claimed".to_string(),
            Some(w) => format!("{} wins ({})", w.title(), r.code()),
            None if r == R::REPETITION => "Draw by repetition of the position".to_string(),
            None if r == R::AGREEMENT => "Draw by agreement".to_string(),
            None => format!("Draw ({})", r.code()),
        }
    }
}

/// The rules of a game, seen from one of its positions: the legal moves,
/// their notation, the position after a move, and whether the game is
/// over. A position knows its rule set, its side to move and its counters,
/// so it answers all of this alone; what depends on the moves before it
/// (repetitions, draw offers, resignation) is a [`Session`](crate::Session)'s
/// business.
pub trait Rules: Clone {
    /// A move.
    type Move: Clone + PartialEq + fmt::Display;
    /// Why a move cannot be played (or read) in a position.
    type MoveError: std::error::Error;
    /// Why a game ended.
    type Reason: Reason;

    /// The side to move.
    fn turn(&self) -> Color;

    /// The number of the move being played (from 1), as in records.
    fn move_number(&self) -> u16;

    /// Read a move in the game's notation; it must be legal here.
    fn parse_move(&self, text: &str) -> Result<Self::Move, Self::MoveError>;

    /// A move in the game's notation (what [`Rules::parse_move`] reads).
    fn format_move(&self, m: &Self::Move) -> String {
        m.to_string()
    }

    /// Every legal move (none when the position ends the game).
    fn legal_moves(&self) -> Vec<Self::Move>;

    /// The position after a move, checked against the rules.
    fn play(&self, m: &Self::Move) -> Result<Self, Self::MoveError>;

    /// How the game ends in this position by the position alone (no
    /// pieces, blocked, the counters of the draw rules), if it does.
    fn outcome(&self) -> Option<Outcome<Self::Reason>>;

    /// The position as text (the game's FEN).
    fn position_string(&self) -> String;

    /// A hash of the position for finding repetitions: equal positions have
    /// equal hashes.
    fn hash(&self) -> u64;

    /// Whether `other` counts as the same position for repetitions.
    fn same_position(&self, other: &Self) -> bool;

    /// The occurrence of a position that draws by repetition (3: the third
    /// time), `None` when the rules have no such draw.
    fn repetition_draw(&self) -> Option<u8>;
}

/// [`Rules`] for a game's position type `$pos` by its inherent methods of
/// the same names (`turn`, `move_number`, `parse_move`, `legal_moves` as
/// any list of moves, `play`, `outcome`, `hash`, `same_position`), `fen`
/// for the position string and `rules().repetition_draw`. `play` takes the
/// move by value (`by_value`, for a `Copy` move) or by reference
/// (`by_ref`).
#[macro_export]
macro_rules! rules_by_inherent_methods {
    ($pos:ty, $mv:ty, $err:ty, $reason:ty, play: by_value) => {
        $crate::rules_by_inherent_methods!(@impl $pos, $mv, $err, $reason, |p: &$pos, m: &$mv| {
            <$pos>::play(p, *m)
        });
    };
    ($pos:ty, $mv:ty, $err:ty, $reason:ty, play: by_ref) => {
        $crate::rules_by_inherent_methods!(@impl $pos, $mv, $err, $reason, |p: &$pos, m: &$mv| {
            <$pos>::play(p, m)
        });
    };
    (@impl $pos:ty, $mv:ty, $err:ty, $reason:ty, $play:expr) => {
        impl $crate::Rules for $pos {
            type Move = $mv;
            type MoveError = $err;
            type Reason = $reason;

            fn turn(&self) -> $crate::Color {
                <$pos>::turn(self)
            }

            fn move_number(&self) -> u16 {
                <$pos>::move_number(self)
            }

            fn parse_move(&self, text: &str) -> Result<$mv, $err> {
                <$pos>::parse_move(self, text)
            }

            fn legal_moves(&self) -> Vec<$mv> {
                <$pos>::legal_moves(self).into_iter().collect()
            }

            fn play(&self, m: &$mv) -> Result<$pos, $err> {
                ($play)(self, m)
            }

            fn outcome(&self) -> Option<$crate::Outcome<$reason>> {
                <$pos>::outcome(self)
            }

            fn position_string(&self) -> String {
                self.fen()
            }

            fn hash(&self) -> u64 {
                <$pos>::hash(self)
            }

            fn same_position(&self, other: &$pos) -> bool {
                <$pos>::same_position(self, other)
            }

            fn repetition_draw(&self) -> Option<u8> {
                self.rules().repetition_draw
            }
        }
    };
}

/// A game's reasons for the end of a game ([`Reason`]) from one list of
/// variants with their codes: the enum, `ALL`, `code`, `from_code`,
/// `all_codes`, the [`Reason`] impl and the game's `Outcome` type. The game
/// writes its words for the reasons only it has in an inherent
/// `describe_end(self, winner)`; its list must have `Blocked` and
/// `Repetition`, and the macro adds the ends every game has last:
/// `Agreement`, `Resignation`, `Time`, `Claimed` and `Aborted`.
#[macro_export]
macro_rules! end_reasons {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident => $code:literal, )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )+
            /// Both players agreed to a draw.
            Agreement,
            /// The loser resigned.
            Resignation,
            /// The loser ran out of time.
            Time,
            /// The opponent left a timed game; the win or a draw was
            /// claimed.
            Claimed,
            /// Ended without a result before both sides had moved.
            Aborted,
        }

        /// The end of a game: the winner (`None` for a draw) and why.
        pub type Outcome = $crate::Outcome<$name>;

        impl $name {
            /// All reasons.
            pub const ALL: [$name; [$(stringify!($variant)),+].len() + 5] = [
                $($name::$variant,)+
                $name::Agreement,
                $name::Resignation,
                $name::Time,
                $name::Claimed,
                $name::Aborted,
            ];

            /// A short machine-readable name (the record's `Termination`,
            /// the API's `reason`).
            pub const fn code(self) -> &'static str {
                match self {
                    $( $name::$variant => $code, )+
                    $name::Agreement => "agreement",
                    $name::Resignation => "resignation",
                    $name::Time => "time",
                    $name::Claimed => "claimed",
                    $name::Aborted => "aborted",
                }
            }

            /// Parse [`Self::code`].
            pub fn from_code(s: &str) -> Option<$name> {
                $name::ALL.into_iter().find(|r| r.code() == s)
            }

            /// Every code, separated by commas (for error messages).
            pub fn all_codes() -> String {
                $name::ALL.map($name::code).join(", ")
            }
        }

        impl $crate::Reason for $name {
            const BLOCKED: $name = $name::Blocked;
            const REPETITION: $name = $name::Repetition;
            const AGREEMENT: $name = $name::Agreement;
            const RESIGNATION: $name = $name::Resignation;
            const TIME: $name = $name::Time;
            const CLAIMED: $name = $name::Claimed;
            const ABORTED: $name = $name::Aborted;

            fn code(self) -> &'static str {
                $name::code(self)
            }

            fn from_code(code: &str) -> Option<$name> {
                $name::from_code(code)
            }

            fn describe(self, winner: Option<$crate::Color>) -> Option<String> {
                $name::describe_end(self, winner)
            }
        }
    };
}

/// The accessors every game's position has for its fields `move_number`
/// and `hash`, written once (in the position's inherent impl).
#[macro_export]
macro_rules! position_counters {
    () => {
        /// Full-move number.
        #[inline]
        pub fn move_number(&self) -> u16 {
            self.move_number
        }

        /// Zobrist hash of what makes positions "the same" for the
        /// repetition rule (the board, for Mühle the stones in hand, and
        /// the side to move).
        #[inline]
        pub fn hash(&self) -> u64 {
            self.hash
        }
    };
}

/// A game's move error: the variants every game has (`Parse` from the
/// game's move-text error, `GameOver`, `Illegal { mv, why, reason }`) written once,
/// then the game's own. Derives `thiserror::Error` (the game depends on
/// thiserror) and the usual traits.
#[macro_export]
macro_rules! move_errors {
    (
        $(#[$meta:meta])*
        pub enum $name:ident from $parse:ty {
            $($own:tt)*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
        pub enum $name {
            /// The move text cannot be read.
            #[error(transparent)]
            Parse(#[from] $parse),
            /// The position ends the game (the outcome in words).
            #[error("the game is over: {0}")]
            GameOver(String),
            /// The move breaks the rules here.
            #[error("{mv} is not legal here: {why}")]
            Illegal {
                /// The move.
                mv: String,
                /// Which rule it breaks.
                why: String,
                /// The same as a detail (`illegal.occupied` with its
                /// square, …) for words in other languages.
                reason: Option<Box<$crate::ErrorDetail>>,
            },
            $($own)*
        }
    };
}

/// `Display` of a game's position through its setup (the position string).
#[macro_export]
macro_rules! display_via_setup {
    ($pos:ty) => {
        impl ::std::fmt::Display for $pos {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                ::std::fmt::Display::fmt(&self.to_setup(), f)
            }
        }
    };
}
