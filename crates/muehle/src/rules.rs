//! Rule options and named presets (RULES.md Part 1, "Rule options").

use crate::Board;

/// Which opponent stones a player who closed a mill may remove.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum RemovalRule {
    /// Tournament rule (000 special case 1, 002, 003): stones in closed mills
    /// are protected unless every opponent stone on the board stands in a
    /// mill; then any may be removed.
    UnlessAllInMills,
    /// Strict rule of the Ravensburger leaflet (004): stones in closed mills
    /// are never removed (if all stand in mills, nothing is removed) — except
    /// a flying player's stones, which are never protected.
    Never,
}

/// Every option of the Mühle rules. `RuleSet::default()` is the `standard` preset.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct RuleSet {
    /// Which stones in mills may be removed.
    pub removal: RemovalRule,
    /// Whether a player with exactly three stones (none in hand) flies.
    pub flying: bool,
    /// Draw after this many plies of the moving phase without a mill
    /// (`None`: never). Standard 100, `seed-000` 20.
    pub no_mill_draw: Option<u16>,
    /// Draw when a position occurs for this many times (`None`: never).
    /// Standard 3.
    pub repetition_draw: Option<u8>,
    /// The board: its lines, the stones per side, when a side flies.
    pub board: &'static Board,
    /// Whether a player with stones in hand may move a stone on the board
    /// instead of placing one (Lasker Morris).
    pub move_in_placing: bool,
}

/// A named preset, as accepted by [`RuleSet::preset`].
pub const PRESETS: [&str; 6] = [
    "standard",
    "ravensburger",
    "seed-000",
    "no-flying",
    "twelve-mens-morris",
    "lasker-morris",
];

/// Error for a rule-set string that cannot be understood.
pub type ParseRulesError = boardgame::rules_text::ParseRulesError<RuleSet>;

/// The options with their values, as errors list them.
const OPTIONS: &str = "removal=tournament|strict, flying=on|off, no-mill=N|off, repetition=N|off, board=nine|twelve|lasker, move-in-placing=on|off";

impl Default for RuleSet {
    fn default() -> RuleSet {
        RuleSet::STANDARD
    }
}

impl RuleSet {
    /// The defaults of RULES.md.
    pub const STANDARD: RuleSet = RuleSet {
        removal: RemovalRule::UnlessAllInMills,
        flying: true,
        no_mill_draw: Some(100),
        repetition_draw: Some(3),
        board: &Board::NINE,
        move_in_placing: false,
    };
    /// Strict removal rule of the Ravensburger leaflet (004).
    pub const RAVENSBURGER: RuleSet = RuleSet {
        removal: RemovalRule::Never,
        ..RuleSet::STANDARD
    };
    /// The 20-ply no-mill rule of seed 000.
    pub const SEED_000: RuleSet = RuleSet {
        no_mill_draw: Some(20),
        ..RuleSet::STANDARD
    };
    /// No flying phase (002 calls it optional).
    pub const NO_FLYING: RuleSet = RuleSet {
        flying: false,
        ..RuleSet::STANDARD
    };

    /// Twelve Men's Morris: twelve stones each, the diagonals are lines.
    pub const TWELVE_MENS_MORRIS: RuleSet = RuleSet {
        board: &Board::TWELVE,
        ..RuleSet::STANDARD
    };
    /// Lasker Morris: ten stones each, and a player with stones in hand may
    /// move a stone on the board instead of placing one.
    pub const LASKER_MORRIS: RuleSet = RuleSet {
        board: &Board::LASKER,
        move_in_placing: true,
        ..RuleSet::STANDARD
    };

    /// The preset with the given name.
    pub fn preset(name: &str) -> Option<RuleSet> {
        match name.trim().to_ascii_lowercase().as_str() {
            "standard" => Some(RuleSet::STANDARD),
            "ravensburger" => Some(RuleSet::RAVENSBURGER),
            "seed-000" => Some(RuleSet::SEED_000),
            "no-flying" => Some(RuleSet::NO_FLYING),
            "twelve-mens-morris" => Some(RuleSet::TWELVE_MENS_MORRIS),
            "lasker-morris" => Some(RuleSet::LASKER_MORRIS),
            _ => None,
        }
    }

    /// The preset's name if this rule set is exactly one of the presets.
    pub fn preset_name(&self) -> Option<&'static str> {
        boardgame::rules_text::preset_name(self)
    }

    /// Set one option from its textual form (`removal=strict`, `flying=off`,
    /// `no-mill=20`, `repetition=off`, …).
    pub fn set_option(&mut self, key: &str, value: &str) -> Result<(), ParseRulesError> {
        let bad = |expected| ParseRulesError::BadValue {
            option: key.to_string(),
            value: value.to_string(),
            expected,
        };
        let value_lc = value.trim().to_ascii_lowercase();
        match key.trim().to_ascii_lowercase().as_str() {
            "removal" => {
                self.removal = match value_lc.as_str() {
                    "tournament" | "unless-all-in-mills" | "standard" => {
                        RemovalRule::UnlessAllInMills
                    }
                    "strict" | "never" | "ravensburger" => RemovalRule::Never,
                    _ => return Err(bad("tournament or strict")),
                }
            }
            "flying" => self.flying = on_off(&value_lc).ok_or_else(|| bad("on or off"))?,
            "move-in-placing" | "move_in_placing" => {
                self.move_in_placing = on_off(&value_lc).ok_or_else(|| bad("on or off"))?
            }
            "board" => {
                self.board = Board::named(&value_lc).ok_or_else(|| bad("nine, twelve or lasker"))?
            }
            "no-mill" | "no_mill" | "nomill" => {
                self.no_mill_draw = match value_lc.as_str() {
                    "off" | "none" | "no" => None,
                    n => match n.parse::<u16>() {
                        Ok(n) if n >= 1 => Some(n),
                        _ => return Err(bad("a number of plies from 1 to 65535, or off")),
                    },
                }
            }
            "repetition" => {
                self.repetition_draw = match value_lc.as_str() {
                    "off" | "none" | "no" => None,
                    n => match n.parse::<u8>() {
                        Ok(n) if n >= 2 => Some(n),
                        _ => return Err(bad("a count from 2 to 255, or off")),
                    },
                }
            }
            _ => return Err(ParseRulesError::UnknownOption(key.to_string())),
        }
        Ok(())
    }
}

fn on_off(value: &str) -> Option<bool> {
    match value {
        "on" | "yes" | "true" | "1" => Some(true),
        "off" | "no" | "false" | "0" => Some(false),
        _ => None,
    }
}

impl RuleSet {
    /// Stones each side starts with (the board's).
    #[inline]
    pub const fn stones(&self) -> u8 {
        self.board.stones()
    }
}

impl RuleSet {
    fn differences(&self, other: &RuleSet) -> Vec<(&'static str, String)> {
        let mut out = Vec::new();
        if self.removal != other.removal {
            let v = match other.removal {
                RemovalRule::UnlessAllInMills => "tournament",
                RemovalRule::Never => "strict",
            };
            out.push(("removal", v.to_string()));
        }
        if self.flying != other.flying {
            out.push((
                "flying",
                if other.flying { "on" } else { "off" }.to_string(),
            ));
        }
        if self.no_mill_draw != other.no_mill_draw {
            out.push((
                "no-mill",
                other
                    .no_mill_draw
                    .map_or("off".to_string(), |n| n.to_string()),
            ));
        }
        if self.board != other.board {
            out.push(("board", other.board.name().to_string()));
        }
        if self.move_in_placing != other.move_in_placing {
            let v = if other.move_in_placing { "on" } else { "off" };
            out.push(("move-in-placing", v.to_string()));
        }
        if self.repetition_draw != other.repetition_draw {
            out.push((
                "repetition",
                other
                    .repetition_draw
                    .map_or("off".to_string(), |n| n.to_string()),
            ));
        }
        out
    }
}

// `standard`, `ravensburger`, or a preset followed by the options that
// differ: `standard,flying=off,no-mill=40`. Read: a preset, optionally
// followed by `,key=value` options; or options alone (applied to
// `standard`). The empty string is `standard`.
boardgame::rule_text!(RuleSet, RuleSet::STANDARD, PRESETS, OPTIONS);
