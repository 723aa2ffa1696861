//! The catalogue: every game variant brett plays, with its names, its rule
//! presets and what the variant is, in the four languages of the app. The
//! only place above the rules crates that lists the games: the server, the
//! command line, the protocols and the browser (through `GET
//! /api/catalogue`) take the list from here.

use serde::Serialize;
use serde_json::{Value, json};

use crate::GameError;

/// A game family: games that share rules and an engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Family {
    /// Mühle (Nine Men's Morris).
    Muehle,
    /// Dame (draughts).
    Dame,
}

/// One game as the catalogue lists it: what `--game` and the API's `game`
/// name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Variant {
    /// Mühle (Nine Men's Morris), with its rule presets.
    #[default]
    Muehle,
    /// Dame on 8×8 (the leaflet's rules).
    Dame,
    /// Dame 100 on 10×10 (the leaflet's rules).
    Dame100,
    /// Dame on 8×8, men capture backward too (the French text).
    DameFr,
    /// International draughts (FMJD) on 10×10.
    International,
}

/// The app's languages, in the order the catalogue gives its texts.
pub const LANGUAGES: [&str; 4] = ["de", "en", "fr", "it"];

/// A text in the four languages (de, en, fr, it).
type Words = [&'static str; 4];

/// One rule preset of a variant.
#[derive(Clone, Copy, Debug)]
pub struct Preset {
    /// The preset's name (`--rules`, the API's `rules`).
    pub name: &'static str,
    /// What it is, in the four languages.
    pub title: Words,
}

/// Everything the catalogue says of one variant.
struct Entry {
    variant: Variant,
    name: &'static str,
    /// Further names `--game` takes (never written).
    aliases: &'static [&'static str],
    family: Family,
    /// The rule preset of a new game.
    default_rules: &'static str,
    /// The presets a game of the variant may start from.
    presets: &'static [Preset],
    title: Words,
    subtitle: Words,
    /// Board size: 24 points (Mühle) or the squares of a side (Dame).
    board: u8,
    /// The file extension of its records.
    record_extension: &'static str,
}

const MUEHLE_PRESETS: &[Preset] = &[
    Preset {
        name: "standard",
        title: ["Standard", "Standard", "Standard", "Standard"],
    },
    Preset {
        name: "ravensburger",
        title: [
            "Ravensburger (streng)",
            "Ravensburger (strict)",
            "Ravensburger (strict)",
            "Ravensburger (rigido)",
        ],
    },
    Preset {
        name: "seed-000",
        title: [
            "Kurze Remisregel (20 Halbzüge)",
            "Short no-mill rule (20 plies)",
            "Règle courte (20 demi-coups)",
            "Regola breve (20 semimosse)",
        ],
    },
    Preset {
        name: "no-flying",
        title: ["Ohne Springen", "No flying", "Sans saut", "Senza volo"],
    },
    Preset {
        name: "twelve-mens-morris",
        title: [
            "Zwölfermühle (12 Steine, Diagonalen)",
            "Twelve Men's Morris (12 men, diagonals)",
            "Moulin à douze (12 pions, diagonales)",
            "Filetto a dodici (12 pedine, diagonali)",
        ],
    },
    Preset {
        name: "lasker-morris",
        title: [
            "Lasker-Mühle (10 Steine, Ziehen statt Setzen)",
            "Lasker Morris (10 men, move instead of placing)",
            "Moulin de Lasker (10 pions, déplacer au lieu de poser)",
            "Filetto di Lasker (10 pedine, muovere invece di piazzare)",
        ],
    },
];

const ENTRIES: [Entry; 5] = [
    Entry {
        variant: Variant::Muehle,
        name: "muehle",
        aliases: &["mühle", "muhle", "mill", "morris"],
        family: Family::Muehle,
        default_rules: "standard",
        presets: MUEHLE_PRESETS,
        title: ["Mühle", "Mühle", "Mühle (moulin)", "Mühle (filetto)"],
        subtitle: [
            "Neun Steine je Seite",
            "Nine men a side",
            "Neuf pions chacun",
            "Nove pedine a testa",
        ],
        board: 24,
        record_extension: "txt",
    },
    Entry {
        variant: Variant::Dame,
        name: "dame",
        aliases: &[],
        family: Family::Dame,
        default_rules: "dame",
        presets: &[],
        title: ["Dame 8×8", "Dame 8×8", "Dames 8×8", "Dama 8×8"],
        subtitle: [
            "Brett 8×8, Steine schlagen vorwärts",
            "8×8 board, men capture forward",
            "Damier 8×8, les pions prennent en avançant",
            "Damiera 8×8, le pedine prendono in avanti",
        ],
        board: 8,
        record_extension: "pdn",
    },
    Entry {
        variant: Variant::Dame100,
        name: "dame-100",
        aliases: &["dame100"],
        family: Family::Dame,
        default_rules: "dame-100",
        presets: &[],
        title: [
            "Dame 100 (10×10)",
            "Dame 100 (10×10)",
            "Dames 100 (10×10)",
            "Dama 100 (10×10)",
        ],
        subtitle: [
            "Brett 10×10, 20 Steine je Seite",
            "10×10 board, 20 men a side",
            "Damier 10×10, 20 pions chacun",
            "Damiera 10×10, 20 pedine a testa",
        ],
        board: 10,
        record_extension: "pdn",
    },
    Entry {
        variant: Variant::DameFr,
        name: "dame-fr",
        aliases: &[],
        family: Family::Dame,
        default_rules: "dame-fr",
        presets: &[],
        title: [
            "Dame, französische Regeln",
            "Dame, French rules",
            "Dames, règles françaises",
            "Dama, regole francesi",
        ],
        subtitle: [
            "Brett 8×8, Steine schlagen auch rückwärts",
            "8×8 board, men capture backward too",
            "Damier 8×8, les pions prennent aussi en reculant",
            "Damiera 8×8, le pedine prendono anche all’indietro",
        ],
        board: 8,
        record_extension: "pdn",
    },
    Entry {
        variant: Variant::International,
        name: "international",
        aliases: &[],
        family: Family::Dame,
        default_rules: "international",
        presets: &[],
        title: [
            "Internationale Dame",
            "International draughts",
            "Jeu de dames international",
            "Dama internazionale",
        ],
        subtitle: [
            "FMJD 10×10, Mehrheitsschlagen",
            "FMJD 10×10, majority capture",
            "FMJD 10×10, prise majoritaire",
            "FMJD 10×10, presa maggioritaria",
        ],
        board: 10,
        record_extension: "pdn",
    },
];

impl Variant {
    /// Every variant, in the order the app lists them.
    pub const ALL: [Variant; 5] = [
        Variant::Muehle,
        Variant::Dame,
        Variant::Dame100,
        Variant::DameFr,
        Variant::International,
    ];

    fn entry(self) -> &'static Entry {
        let e = &ENTRIES[self as usize];
        debug_assert_eq!(e.variant, self);
        e
    }

    /// The name in the API, on the command line and in the protocols
    /// (`muehle`, `dame`, `dame-100`, `dame-fr`, `international`).
    pub fn name(self) -> &'static str {
        self.entry().name
    }

    /// The names, comma-separated (for messages and help texts).
    pub fn names() -> String {
        Variant::ALL.map(Variant::name).join(", ")
    }

    /// The variant of an API name (exactly as [`Variant::name`] writes it).
    pub fn parse(s: &str) -> Result<Variant, GameError> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name() == s)
            .ok_or_else(|| GameError::UnknownGame(s.chars().take(40).collect()))
    }

    /// The variant of a name a person typed: the API names and a few
    /// others (`mühle`, `mill`, `dame100`), in any case.
    pub fn from_name(s: &str) -> Option<Variant> {
        let s = s.trim().to_lowercase();
        Variant::ALL
            .into_iter()
            .find(|v| v.name() == s || v.entry().aliases.contains(&s.as_str()))
    }

    /// The game family.
    pub fn family(self) -> Family {
        self.entry().family
    }

    /// The rule preset a game of this variant has when no rules are given.
    pub fn default_rules(self) -> &'static str {
        self.entry().default_rules
    }

    /// The Dame variant whose preset `preset` is (a name of
    /// `dame::PRESETS`).
    pub fn of_dame_preset(preset: &str) -> Option<Variant> {
        Variant::ALL
            .into_iter()
            .find(|v| v.family() == Family::Dame && v.default_rules() == preset)
    }

    /// The file extension of the variant's game records (`txt`: Mühle's
    /// record format, `pdn`: Portable Draughts Notation).
    pub fn record_extension(self) -> &'static str {
        self.entry().record_extension
    }

    /// The variant's name for people, in `lang` (`de`, `en`, `fr`, `it`;
    /// another: English).
    pub fn title(self, lang: &str) -> &'static str {
        self.entry().title[language_index(lang)]
    }

    /// The catalogue's entry as JSON, in every language.
    fn json(self) -> Value {
        let e = self.entry();
        let words = |w: &Words| {
            LANGUAGES
                .iter()
                .zip(w)
                .map(|(l, t)| ((*l).to_string(), json!(t)))
                .collect::<serde_json::Map<_, _>>()
        };
        let mut entry = json!({
            "name": e.name,
            "family": e.family,
            "default_rules": e.default_rules,
            "board": e.board,
            "record_extension": e.record_extension,
            "title": words(&e.title),
            "subtitle": words(&e.subtitle),
            "presets": e.presets.iter().map(|p| {
                let mut preset = json!({
                    "name": p.name,
                    "title": words(&p.title),
                });
                if let Some(board) = crate::muehle::preset_board(p.name).filter(|_| e.family == Family::Muehle) {
                    preset["board"] = json!(board);
                }
                preset
            }).collect::<Vec<_>>(),
        });
        if e.family == Family::Muehle {
            entry["boards"] = crate::muehle::boards_json();
        }
        entry
    }
}

impl std::fmt::Display for Variant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Variant {
    type Err = GameError;

    fn from_str(s: &str) -> Result<Variant, GameError> {
        Variant::from_name(s).ok_or_else(|| GameError::UnknownGame(s.chars().take(40).collect()))
    }
}

#[cfg(feature = "clap")]
impl clap::ValueEnum for Variant {
    fn value_variants<'a>() -> &'a [Self] {
        &Variant::ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        let e = self.entry();
        Some(
            clap::builder::PossibleValue::new(e.name)
                .help(e.title[1])
                .aliases(e.aliases.iter().copied()),
        )
    }
}

fn language_index(lang: &str) -> usize {
    LANGUAGES.iter().position(|l| *l == lang).unwrap_or(1)
}

/// The whole catalogue as JSON (`GET /api/catalogue`, docs/API.md): the
/// languages and every variant with its names, family, default rules,
/// board, record extension, titles and presets.
pub fn catalogue_json() -> Value {
    json!({
        "languages": LANGUAGES,
        "games": Variant::ALL.map(Variant::json),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_has_its_entry_and_a_unique_name() {
        for (i, v) in Variant::ALL.into_iter().enumerate() {
            assert_eq!(ENTRIES[i].variant, v);
            assert_eq!(Variant::parse(v.name()).unwrap(), v);
            assert_eq!(v.name().parse::<Variant>().unwrap(), v);
            for l in LANGUAGES {
                assert!(!v.title(l).is_empty());
            }
        }
        let mut names: Vec<_> = Variant::ALL.iter().map(|v| v.name()).collect();
        names.dedup();
        assert_eq!(names.len(), Variant::ALL.len());
    }

    #[test]
    fn the_dame_variants_are_the_dame_presets() {
        let dame: Vec<_> = Variant::ALL
            .into_iter()
            .filter(|v| v.family() == Family::Dame)
            .map(Variant::default_rules)
            .collect();
        assert_eq!(dame, ::dame::PRESETS);
        for p in ::dame::PRESETS {
            assert_eq!(Variant::of_dame_preset(p).unwrap().default_rules(), p);
        }
        let muehle: Vec<_> = MUEHLE_PRESETS.iter().map(|p| p.name).collect();
        assert_eq!(muehle, ::muehle::PRESETS);
    }

    #[test]
    fn names_people_type() {
        assert_eq!(Variant::from_name("Mühle"), Some(Variant::Muehle));
        assert_eq!(Variant::from_name(" DAME100 "), Some(Variant::Dame100));
        assert_eq!(Variant::from_name("chess"), None);
        assert!(
            Variant::parse("Mühle").is_err(),
            "the API takes exact names"
        );
        assert_eq!(
            Variant::parse("chess").unwrap_err().to_string(),
            "unknown game 'chess' (games: muehle, dame, dame-100, dame-fr, international)"
        );
    }

    #[test]
    fn the_json_lists_every_game_in_every_language() {
        let c = catalogue_json();
        let games = c["games"].as_array().unwrap();
        assert_eq!(games.len(), 5);
        assert_eq!(games[2]["name"], "dame-100");
        assert_eq!(games[2]["board"], 10);
        assert_eq!(games[0]["family"], "muehle");
        assert_eq!(
            games[0]["presets"][1]["title"]["fr"],
            "Ravensburger (strict)"
        );
        assert_eq!(games[4]["title"]["it"], "Dama internazionale");
    }

    #[test]
    fn the_mill_boards_come_from_their_description() {
        let json = catalogue_json();
        let muehle = &json["games"][0];
        assert_eq!(muehle["name"], "muehle");
        let presets = muehle["presets"].as_array().expect("presets");
        let board_of = |name: &str| {
            presets
                .iter()
                .find(|p| p["name"] == name)
                .map(|p| p["board"].clone())
        };
        assert_eq!(board_of("standard"), Some(json!("nine")));
        assert_eq!(board_of("twelve-mens-morris"), Some(json!("twelve")));
        assert_eq!(board_of("lasker-morris"), Some(json!("lasker")));
        let boards = &muehle["boards"];
        assert_eq!(boards["nine"]["lines"].as_array().map(Vec::len), Some(16));
        assert_eq!(boards["twelve"]["lines"].as_array().map(Vec::len), Some(20));
        assert_eq!(boards["twelve"]["stones"], 12);
        assert_eq!(boards["lasker"]["stones"], 10);
        assert_eq!(
            boards["nine"]["points"][0],
            json!({"name": "a7", "x": 0, "y": 0})
        );
        assert_eq!(boards["nine"]["points"].as_array().map(Vec::len), Some(24));
        assert!(json["games"][1].get("boards").is_none());
    }
}
