//! Ratings: Glicko-2 (the crate `skillratings`) for each rating pool, a
//! game and its rule preset (docs/API.md, "Ratings"). Only rated games
//! between two accounts count; each game is its own rating period.

use games::{Family, Variant};
use serde::Serialize;
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};

/// A new player's rating.
pub const START_RATING: f64 = 1500.0;
/// A new player's rating deviation.
pub const START_DEVIATION: f64 = 350.0;
/// A new player's volatility.
pub const START_VOLATILITY: f64 = 0.06;
/// The system constant τ (how much the volatility may change).
pub const TAU: f64 = 0.5;
/// A rating whose deviation is above this is provisional.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// The rating pool of a game of `game` by the rules `rules` (the rule
/// set's text form): `muehle` for standard Mühle, `muehle:PRESET` for
/// Mühle by another preset, the variant's name for Dame (`dame`,
/// `dame-100`, `dame-fr`, `international`) by its own preset. `None`: the
/// rules are no preset (options changed), such games are not rated.
pub fn pool_of(game: Variant, rules: &str) -> Option<String> {
    match game.family() {
        Family::Muehle if rules == game.default_rules() => Some(game.name().to_string()),
        Family::Muehle => muehle::PRESETS
            .contains(&rules)
            .then(|| format!("{}:{rules}", game.name())),
        Family::Dame => (rules == game.default_rules()).then(|| game.name().to_string()),
    }
}

/// Every rating pool.
pub fn pools() -> Vec<String> {
    let mut out = Vec::new();
    for game in Variant::ALL {
        match game.family() {
            Family::Muehle => out.extend(muehle::PRESETS.iter().filter_map(|p| pool_of(game, p))),
            Family::Dame => out.extend(pool_of(game, game.default_rules())),
        }
    }
    out
}

/// A player's rating in one pool.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The rating.
    pub rating: f64,
    /// The rating deviation.
    pub deviation: f64,
    /// The volatility.
    pub volatility: f64,
}

impl Default for Rating {
    fn default() -> Rating {
        Rating {
            rating: START_RATING,
            deviation: START_DEVIATION,
            volatility: START_VOLATILITY,
        }
    }
}

impl Rating {
    /// Whether the rating is still provisional (its deviation is high).
    pub fn provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    fn glicko(self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    fn of_glicko(g: Glicko2Rating) -> Rating {
        Rating {
            rating: g.rating,
            deviation: g.deviation,
            volatility: g.volatility,
        }
    }
}

/// brett's Glicko-2 settings.
pub fn config() -> Glicko2Config {
    Glicko2Config {
        tau: TAU,
        ..Glicko2Config::new()
    }
}

/// White's and Black's ratings after a game with the result `result`
/// (`1-0`, `0-1`, `1/2-1/2`; `None` for anything else: not rated), the
/// game being its own rating period.
pub fn rate(white: Rating, black: Rating, result: &str) -> Option<[Rating; 2]> {
    let outcome = match result {
        "1-0" => Outcomes::WIN,
        "0-1" => Outcomes::LOSS,
        "1/2-1/2" => Outcomes::DRAW,
        _ => return None,
    };
    let (w, b) = glicko2(&white.glicko(), &black.glicko(), &outcome, &config());
    Some([Rating::of_glicko(w), Rating::of_glicko(b)])
}

/// One seat's rating change in a rated game that ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SeatRating {
    /// The rating before the game (rounded).
    pub before: i64,
    /// The rating after the game (rounded).
    pub after: i64,
    /// Whether the rating after the game is provisional.
    pub provisional: bool,
}

impl SeatRating {
    /// The change from `before` to `after`.
    pub fn new(before: f64, after: Rating) -> SeatRating {
        SeatRating {
            before: before.round() as i64,
            after: after.rating.round() as i64,
            provisional: after.provisional(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillratings::glicko2::glicko2_rating_period;

    #[test]
    fn pools_of_games_and_presets() {
        assert_eq!(
            pool_of(Variant::Muehle, "standard").as_deref(),
            Some("muehle")
        );
        assert_eq!(
            pool_of(Variant::Muehle, "lasker-morris").as_deref(),
            Some("muehle:lasker-morris")
        );
        assert_eq!(pool_of(Variant::Muehle, "ravensburger,no-mill=40"), None);
        assert_eq!(pool_of(Variant::Dame, "dame").as_deref(), Some("dame"));
        assert_eq!(
            pool_of(Variant::International, "international").as_deref(),
            Some("international")
        );
        assert_eq!(pool_of(Variant::Dame, "dame-100"), None);
        let all = pools();
        for p in ["muehle", "muehle:twelve-mens-morris", "dame-100", "dame-fr"] {
            assert!(all.iter().any(|x| x == p), "{p} in {all:?}");
        }
    }

    /// Glickman's worked example ("Example of the Glicko-2 system",
    /// glicko2.pdf): one rating period of three games.
    #[test]
    fn glickmans_example() {
        let player = Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let opp = |rating, deviation| {
            Rating {
                rating,
                deviation,
                volatility: 0.06,
            }
            .glicko()
        };
        let results = [
            (opp(1400.0, 30.0), Outcomes::WIN),
            (opp(1550.0, 100.0), Outcomes::LOSS),
            (opp(1700.0, 300.0), Outcomes::LOSS),
        ];
        let after = glicko2_rating_period(&player.glicko(), &results, &config());
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    }

    /// brett's own call: one game, one period; the first game of the
    /// paper's example as a period of its own gives what the crate's
    /// period function gives for that one game, and win and loss move in
    /// opposite directions.
    #[test]
    fn one_game_is_one_period() {
        let player = Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let opponent = Rating {
            rating: 1400.0,
            deviation: 30.0,
            volatility: 0.06,
        };
        let [p, o] = rate(player, opponent, "1-0").unwrap();
        let period = glicko2_rating_period(
            &player.glicko(),
            &[(opponent.glicko(), Outcomes::WIN)],
            &config(),
        );
        assert!((p.rating - period.rating).abs() < 1e-9);
        assert!(p.rating > 1500.0 && o.rating < 1400.0);
        assert!(p.deviation < 200.0);
        let [w, b] = rate(Rating::default(), Rating::default(), "1/2-1/2").unwrap();
        assert!((w.rating - 1500.0).abs() < 1e-9 && (b.rating - 1500.0).abs() < 1e-9);
        assert!(w.provisional());
        assert_eq!(rate(player, opponent, "*"), None);
    }
}
