//! Which rules a database is for: only the options that change values.

use std::fmt;

use muehle::{Board, RemovalRule, RuleSet};

/// The rule options that decide the values of moving-phase positions: the
/// removal rule and flying. The no-mill and repetition counters are not part
/// of the values (as in Gasser's and Malom's databases); the engine applies
/// them in play. So `seed-000` shares the `standard` files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    /// Which stones a mill may remove.
    pub removal: RemovalRule,
    /// Whether a player with three stones flies.
    pub flying: bool,
}

impl Variant {
    /// The `standard` rules (also `seed-000`).
    pub const STANDARD: Variant = Variant::of(&RuleSet::STANDARD);
    /// The `ravensburger` rules (strict removal).
    pub const RAVENSBURGER: Variant = Variant::of(&RuleSet::RAVENSBURGER);
    /// The `no-flying` rules.
    pub const NO_FLYING: Variant = Variant::of(&RuleSet::NO_FLYING);

    /// The variant a rule set plays.
    pub const fn of(rules: &RuleSet) -> Variant {
        Variant {
            removal: rules.removal,
            flying: rules.flying,
        }
    }

    /// The variant whose databases hold the positions of `rules`: `None`
    /// for a board other than the standard one (Twelve Men's Morris, Lasker
    /// Morris): no databases are available for those.
    pub fn for_rules(rules: &RuleSet) -> Option<Variant> {
        (*rules.board == Board::NINE && !rules.move_in_placing).then(|| Variant::of(rules))
    }

    /// The folder name of its files: `standard`, `ravensburger`,
    /// `no-flying`, `ravensburger-no-flying`.
    pub const fn name(self) -> &'static str {
        match (self.removal, self.flying) {
            (RemovalRule::UnlessAllInMills, true) => "standard",
            (RemovalRule::Never, true) => "ravensburger",
            (RemovalRule::UnlessAllInMills, false) => "no-flying",
            (RemovalRule::Never, false) => "ravensburger-no-flying",
        }
    }

    /// A number written into every file of the variant.
    pub const fn fingerprint(self) -> u32 {
        let removal = match self.removal {
            RemovalRule::UnlessAllInMills => 1,
            RemovalRule::Never => 2,
        };
        0x4D00_0000 | removal << 8 | self.flying as u32
    }

    /// The rule set named by the folder, for messages and positions.
    pub fn rules(self) -> RuleSet {
        RuleSet {
            removal: self.removal,
            flying: self.flying,
            ..RuleSet::STANDARD
        }
    }

    /// Whether a player with `stones` stones (none in hand) flies.
    #[inline]
    pub const fn flies(self, stones: u32) -> bool {
        self.flying && stones == 3
    }

    /// Which of `victim`'s stones (`count` of them) a mill may remove.
    #[inline]
    pub fn removable(self, victim: u32, count: u32) -> u32 {
        let free = victim & !muehle::Bitboard(victim).in_mills().0;
        match self.removal {
            RemovalRule::UnlessAllInMills => {
                if free != 0 {
                    free
                } else {
                    victim
                }
            }
            RemovalRule::Never => {
                if self.flies(count) {
                    victim
                } else {
                    free
                }
            }
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
