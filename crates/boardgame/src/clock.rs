//! Time controls and the game clock, the same for every game.
//!
//! A [`TimeControl`] is untimed, live (Fischer: minutes for the game plus
//! seconds added after each move) or correspondence (days per move). Its
//! text form, used by the API, the command line and the records:
//!
//! | form       | meaning                                        |
//! |------------|------------------------------------------------|
//! | `-`        | untimed                                        |
//! | `5+3`      | live: 5 minutes, 3 seconds added per move      |
//! | `0.5+0`    | live: 30 seconds (quarter minutes: `0.25` …)   |
//! | `3d`       | correspondence: 3 days per move                |
//!
//! The `TimeControl` tag of a record has the PGN form ([`TimeControl::tag`]):
//! `300+3` (seconds), `1/259200` (one move in three days), `-`.
//!
//! [`Clock`] is the arithmetic of the two remaining times: charge a move's
//! thinking time to the side that moved (less a bounded credit for network
//! lag), add the increment, or find that the side's flag fell. Times are
//! milliseconds; instants are milliseconds of any one time line (the
//! server uses the Unix epoch).

use std::fmt;
use std::str::FromStr;

use crate::Color;

/// One minute in milliseconds.
const MINUTE: u64 = 60_000;
/// One day in milliseconds.
pub const DAY_MS: u64 = 24 * 60 * MINUTE;

/// The live presets every game offers, `(minutes, seconds per move)`.
pub const LIVE_PRESETS: [(u32, u32); 6] = [(1, 0), (3, 2), (5, 3), (10, 5), (15, 10), (30, 0)];

/// The days per move a correspondence game may have.
pub const CORRESPONDENCE_DAYS: [u8; 6] = [1, 2, 3, 5, 7, 14];

/// The most minutes a live game may start with.
pub const MAX_MINUTES: u64 = 180;
/// The most seconds a live game may add per move.
pub const MAX_INCREMENT_SECONDS: u64 = 180;

/// How much time the players have.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TimeControl {
    /// No clock.
    #[default]
    Untimed,
    /// Fischer: `initial_ms` for the game, `increment_ms` added after each
    /// move.
    Live {
        /// The time each side starts with.
        initial_ms: u64,
        /// The time added after each move.
        increment_ms: u64,
    },
    /// `days` for each move; a move's time does not carry over.
    Correspondence {
        /// Days per move.
        days: u8,
    },
}

/// A time control that cannot be read or is out of bounds.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlError {
    /// Not of the form `M+S`, `Nd` or `-`.
    #[error(
        "'{0}' is no time control (write minutes+seconds like 5+3, days per move like 3d, or - \
         for none)"
    )]
    Syntax(String),
    /// Minutes not a whole number or a quarter, or out of bounds.
    #[error("the minutes must be 0, 0.25, 0.5, 0.75 or a whole number up to {MAX_MINUTES}")]
    Minutes,
    /// Seconds per move out of bounds.
    #[error("the seconds per move must be a whole number from 0 to {MAX_INCREMENT_SECONDS}")]
    Increment,
    /// No minutes.
    #[error("a live game needs some time to start with: at least a quarter minute (0.25)")]
    NoTime,
    /// Days not among [`CORRESPONDENCE_DAYS`].
    #[error("the days per move must be 1, 2, 3, 5, 7 or 14")]
    Days,
}

impl TimeControl {
    /// A live control of `minutes` and `seconds` per move.
    pub fn live(minutes: u32, seconds: u32) -> TimeControl {
        TimeControl::Live {
            initial_ms: u64::from(minutes) * MINUTE,
            increment_ms: u64::from(seconds) * 1000,
        }
    }

    /// Whether a clock runs.
    pub fn is_timed(self) -> bool {
        self != TimeControl::Untimed
    }

    /// Whether it is a live control (not untimed, not correspondence).
    pub fn is_live(self) -> bool {
        matches!(self, TimeControl::Live { .. })
    }

    /// The time each side has at the start (`None`: untimed).
    pub fn initial_ms(self) -> Option<u64> {
        match self {
            TimeControl::Untimed => None,
            TimeControl::Live { initial_ms, .. } => Some(initial_ms),
            TimeControl::Correspondence { days } => Some(u64::from(days) * DAY_MS),
        }
    }

    /// The time added after each move (live).
    pub fn increment_ms(self) -> u64 {
        match self {
            TimeControl::Live { increment_ms, .. } => increment_ms,
            _ => 0,
        }
    }

    /// The `TimeControl` tag of a record (PGN form): `-`, `300+3` (seconds
    /// and seconds per move), `1/259200` (one move in so many seconds).
    pub fn tag(self) -> String {
        match self {
            TimeControl::Untimed => "-".to_string(),
            TimeControl::Live {
                initial_ms,
                increment_ms,
            } => format!("{}+{}", initial_ms / 1000, increment_ms / 1000),
            TimeControl::Correspondence { days } => {
                format!("1/{}", u64::from(days) * DAY_MS / 1000)
            }
        }
    }

    /// Read a `TimeControl` tag ([`TimeControl::tag`]): seconds, not the
    /// minutes of the text form.
    pub fn from_tag(tag: &str) -> Result<TimeControl, TimeControlError> {
        let t = tag.trim();
        let bad = || TimeControlError::Syntax(t.to_string());
        if let Some((moves, secs)) = t.split_once('/') {
            if moves != "1" {
                return Err(bad());
            }
            let secs: u64 = secs.parse().map_err(|_| bad())?;
            if !secs.is_multiple_of(DAY_MS / 1000) {
                return Err(TimeControlError::Days);
            }
            return days_control(secs / (DAY_MS / 1000));
        }
        if t == "-" {
            return Ok(TimeControl::Untimed);
        }
        let (a, b) = t.split_once('+').ok_or_else(bad)?;
        let secs: u64 = a.parse().map_err(|_| bad())?;
        let inc: u64 = b.parse().map_err(|_| TimeControlError::Increment)?;
        if !secs.is_multiple_of(15) || (secs > 60 && !secs.is_multiple_of(60)) {
            return Err(TimeControlError::Minutes);
        }
        live_control(secs.saturating_mul(1000), inc)
    }

    /// Live controls in minutes (as people say them): `5+3`, `0.5+0`.
    fn minutes_text(initial_ms: u64) -> String {
        if initial_ms.is_multiple_of(MINUTE) {
            (initial_ms / MINUTE).to_string()
        } else {
            let q = initial_ms as f64 / MINUTE as f64;
            format!("{q}")
        }
    }
}

fn days_control(days: u64) -> Result<TimeControl, TimeControlError> {
    match u8::try_from(days) {
        Ok(d) if CORRESPONDENCE_DAYS.contains(&d) => Ok(TimeControl::Correspondence { days: d }),
        _ => Err(TimeControlError::Days),
    }
}

fn live_control(initial_ms: u64, increment_s: u64) -> Result<TimeControl, TimeControlError> {
    if initial_ms > MAX_MINUTES * MINUTE {
        return Err(TimeControlError::Minutes);
    }
    if increment_s > MAX_INCREMENT_SECONDS {
        return Err(TimeControlError::Increment);
    }
    if initial_ms == 0 {
        return Err(TimeControlError::NoTime);
    }
    Ok(TimeControl::Live {
        initial_ms,
        increment_ms: increment_s * 1000,
    })
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeControl::Untimed => f.write_str("-"),
            TimeControl::Live {
                initial_ms,
                increment_ms,
            } => write!(
                f,
                "{}+{}",
                TimeControl::minutes_text(initial_ms),
                increment_ms / 1000
            ),
            TimeControl::Correspondence { days } => write!(f, "{days}d"),
        }
    }
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    fn from_str(s: &str) -> Result<TimeControl, TimeControlError> {
        let t = s.trim();
        let bad = || TimeControlError::Syntax(t.to_string());
        if t == "-" || t.eq_ignore_ascii_case("untimed") || t.eq_ignore_ascii_case("none") {
            return Ok(TimeControl::Untimed);
        }
        if let Some(days) = t.strip_suffix('d') {
            let days: u64 = days.trim().parse().map_err(|_| bad())?;
            return days_control(days);
        }
        let (m, s) = t.split_once('+').ok_or_else(bad)?;
        let (m, s) = (m.trim(), s.trim());
        let quarters = match m.split_once('.') {
            None => m
                .parse::<u64>()
                .map_err(|_| bad())?
                .checked_mul(4)
                .ok_or(TimeControlError::Minutes)?,
            Some((whole, frac)) => {
                let whole: u64 = if whole.is_empty() {
                    0
                } else {
                    whole.parse().map_err(|_| bad())?
                };
                let q = match frac {
                    "0" | "00" => 0,
                    "25" => 1,
                    "5" | "50" => 2,
                    "75" => 3,
                    _ => return Err(TimeControlError::Minutes),
                };
                if whole > 0 && q > 0 {
                    return Err(TimeControlError::Minutes);
                }
                whole.saturating_mul(4) + q
            }
        };
        let inc: u64 = s.parse().map_err(|_| TimeControlError::Increment)?;
        live_control(quarters.saturating_mul(MINUTE / 4), inc)
    }
}

/// `h:mm:ss` of `ms` (rounded down to the second), the form of a record's
/// `[%clk …]` comment.
pub fn clk_text(ms: u64) -> String {
    let s = ms / 1000;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// The `[%clk h:mm:ss]` a record's comment after a move holds: the mover's
/// time left ([`clk_in_comment`] reads it back).
pub fn clk_comment(ms: u64) -> String {
    format!("[%clk {}]", clk_text(ms))
}

/// Read the `h:mm:ss` (optionally `.f` tenths) of a `[%clk …]` comment.
pub fn parse_clk(text: &str) -> Option<u64> {
    let mut parts = text.trim().split(':');
    let (h, m, s) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    let h: u64 = h.parse().ok()?;
    let m: u64 = m.parse().ok().filter(|m| *m < 60)?;
    let (s, frac) = match s.split_once('.') {
        Some((s, f)) => (s, f),
        None => (s, ""),
    };
    let s: u64 = s.parse().ok().filter(|s| *s < 60)?;
    let millis: u64 = match frac {
        "" => 0,
        f if f.len() <= 3 && f.bytes().all(|b| b.is_ascii_digit()) => {
            format!("{f:0<3}").parse().ok()?
        }
        _ => return None,
    };
    h.checked_mul(3_600_000)?
        .checked_add((m * 60 + s) * 1000 + millis)
}

/// Find the `[%clk h:mm:ss]` in a record's comment.
pub fn clk_in_comment(comment: &str) -> Option<u64> {
    let at = comment.find("[%clk")?;
    let rest = &comment[at + 5..];
    let end = rest.find(']')?;
    parse_clk(&rest[..end])
}

/// What charging a move did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Charged {
    /// The thinking time counted, after the lag credit.
    pub spent_ms: u64,
    /// The lag credited.
    pub credit_ms: u64,
}

/// The two remaining times of a timed game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// The control.
    pub control: TimeControl,
    /// White's and Black's time left, in milliseconds, as of the start of
    /// the running side's turn.
    pub remaining_ms: [u64; 2],
}

/// The side's flag fell: its time ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{side:?} ran out of time")]
pub struct Flagged {
    /// Who ran out of time.
    pub side: Color,
}

impl Clock {
    /// A fresh clock (`None`: untimed).
    pub fn new(control: TimeControl) -> Option<Clock> {
        let t = control.initial_ms()?;
        Some(Clock {
            control,
            remaining_ms: [t; 2],
        })
    }

    /// The time `side` has left after thinking `elapsed_ms` on its turn.
    pub fn left_after(&self, side: Color, elapsed_ms: u64) -> u64 {
        self.remaining_ms[side.index()].saturating_sub(elapsed_ms)
    }

    /// `side` moved after thinking `elapsed_ms`, of which up to
    /// `credit_ms` is credited as network lag: charge it, then add the
    /// increment (live) or give the next move's full time
    /// (correspondence). A side that used all its time has lost
    /// ([`Flagged`]); the clock is then unchanged.
    pub fn charge(
        &mut self,
        side: Color,
        elapsed_ms: u64,
        credit_ms: u64,
    ) -> Result<Charged, Flagged> {
        let credit_ms = credit_ms.min(elapsed_ms);
        let spent_ms = elapsed_ms - credit_ms;
        let left = &mut self.remaining_ms[side.index()];
        if spent_ms >= *left {
            return Err(Flagged { side });
        }
        *left -= spent_ms;
        match self.control {
            TimeControl::Live { increment_ms, .. } => *left += increment_ms,
            TimeControl::Correspondence { days } => *left = u64::from(days) * DAY_MS,
            TimeControl::Untimed => {}
        }
        Ok(Charged {
            spent_ms,
            credit_ms,
        })
    }

    /// Give `side` `ms` more time.
    pub fn give(&mut self, side: Color, ms: u64) {
        let left = &mut self.remaining_ms[side.index()];
        *left = left.saturating_add(ms);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_forms_round_trip() {
        for (text, tc) in [
            ("-", TimeControl::Untimed),
            ("5+3", TimeControl::live(5, 3)),
            ("1+0", TimeControl::live(1, 0)),
            ("30+0", TimeControl::live(30, 0)),
            ("3d", TimeControl::Correspondence { days: 3 }),
            (
                "0.5+0",
                TimeControl::Live {
                    initial_ms: 30_000,
                    increment_ms: 0,
                },
            ),
        ] {
            assert_eq!(text.parse::<TimeControl>().unwrap(), tc, "{text}");
            assert_eq!(tc.to_string(), text);
            assert_eq!(
                TimeControl::from_tag(&tc.tag()).unwrap(),
                tc,
                "{}",
                tc.tag()
            );
        }
        assert_eq!(TimeControl::live(5, 3).tag(), "300+3");
        assert_eq!(TimeControl::Correspondence { days: 3 }.tag(), "1/259200");
        assert_eq!(
            TimeControl::from_tag("600+5").unwrap(),
            TimeControl::live(10, 5)
        );
    }

    #[test]
    fn out_of_bounds_and_nonsense_are_refused() {
        assert_eq!("0+0".parse::<TimeControl>(), Err(TimeControlError::NoTime));
        assert_eq!("0+5".parse::<TimeControl>(), Err(TimeControlError::NoTime));
        assert_eq!(
            "181+0".parse::<TimeControl>(),
            Err(TimeControlError::Minutes)
        );
        assert_eq!(
            "5+181".parse::<TimeControl>(),
            Err(TimeControlError::Increment)
        );
        assert_eq!(
            "0.3+0".parse::<TimeControl>(),
            Err(TimeControlError::Minutes)
        );
        assert_eq!("4d".parse::<TimeControl>(), Err(TimeControlError::Days));
        assert!(matches!(
            "blitz".parse::<TimeControl>(),
            Err(TimeControlError::Syntax(_))
        ));
        assert!("99999999999999999999+0".parse::<TimeControl>().is_err());
        assert!(TimeControl::from_tag("40/7200").is_err());
    }

    #[test]
    fn the_increment_is_added_after_the_move() {
        let mut c = Clock::new(TimeControl::live(3, 2)).unwrap();
        let charged = c.charge(Color::White, 10_000, 0).unwrap();
        assert_eq!(charged.spent_ms, 10_000);
        assert_eq!(c.remaining_ms, [180_000 - 10_000 + 2_000, 180_000]);
    }

    #[test]
    fn the_lag_credit_is_at_most_the_time_taken() {
        let mut c = Clock::new(TimeControl::live(1, 0)).unwrap();
        let charged = c.charge(Color::Black, 200, 500).unwrap();
        assert_eq!(
            charged,
            Charged {
                spent_ms: 0,
                credit_ms: 200
            }
        );
        assert_eq!(c.remaining_ms[1], 60_000);
    }

    #[test]
    fn a_side_out_of_time_has_lost() {
        let mut c = Clock::new(TimeControl::live(1, 5)).unwrap();
        assert_eq!(
            c.charge(Color::White, 60_000, 0),
            Err(Flagged { side: Color::White })
        );
        assert_eq!(c.remaining_ms, [60_000, 60_000]);
    }

    #[test]
    fn correspondence_gives_each_move_its_days() {
        let mut c = Clock::new(TimeControl::Correspondence { days: 2 }).unwrap();
        c.charge(Color::White, DAY_MS, 0).unwrap();
        assert_eq!(c.remaining_ms[0], 2 * DAY_MS);
        assert!(c.charge(Color::Black, 2 * DAY_MS, 0).is_err());
    }

    #[test]
    fn clk_comments() {
        assert_eq!(clk_text(3_723_900), "1:02:03");
        assert_eq!(parse_clk("1:02:03"), Some(3_723_000));
        assert_eq!(parse_clk("0:00:09.5"), Some(9_500));
        assert_eq!(parse_clk("0:61:00"), None);
        assert_eq!(clk_in_comment(" [%clk 0:04:58] good "), Some(298_000));
        assert_eq!(clk_in_comment(&clk_comment(3_723_900)), Some(3_723_000));
        assert_eq!(parse_clk("99999999999999999:00:00"), None);
        assert_eq!(clk_in_comment("none"), None);
    }
}
