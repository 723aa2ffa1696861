//! The text form of a rule set, the same for every game: a preset,
//! optionally followed by `,key=value` options (`standard,flying=off`,
//! `dame,huffing=on`); or options alone, applied to the game's default
//! preset; the empty text is the default preset.

/// A rule set that has presets and options by name.
pub trait RuleText: Sized {
    /// Why a text is not a rule set.
    type Error;

    /// The rule set of the empty text, and the one options alone apply to.
    fn default_rules() -> Self;

    /// The preset named `name`.
    fn preset(name: &str) -> Option<Self>;

    /// Set option `key` to `value`.
    fn set_option(&mut self, key: &str, value: &str) -> Result<(), Self::Error>;

    /// The error for a first part that names no preset.
    fn unknown_preset(name: &str) -> Self::Error;

    /// The error for a part that is not `key=value`.
    fn not_an_option(part: &str) -> Self::Error;
}

/// `FromStr` (by [`parse`]) and [`RuleText`] for a game's rule set
/// `$rules` whose inherent `preset(name)` and `set_option(key, value)` fail
/// with `$error`, which has the variants `UnknownPreset(String)` and
/// `UnknownOption(String)`; `$default` is the rule set options alone apply
/// to.
#[macro_export]
macro_rules! rule_text {
    ($rules:ty, $error:ident, $default:expr) => {
        impl ::std::str::FromStr for $rules {
            type Err = $error;
            fn from_str(s: &str) -> Result<$rules, $error> {
                $crate::rules_text::parse(s)
            }
        }

        impl $crate::rules_text::RuleText for $rules {
            type Error = $error;

            fn default_rules() -> $rules {
                $default
            }

            fn preset(name: &str) -> Option<$rules> {
                <$rules>::preset(name)
            }

            fn set_option(&mut self, key: &str, value: &str) -> Result<(), $error> {
                <$rules>::set_option(self, key, value)
            }

            fn unknown_preset(name: &str) -> $error {
                $error::UnknownPreset(name.to_string())
            }

            fn not_an_option(part: &str) -> $error {
                $error::UnknownOption(part.to_string())
            }
        }
    };
}

/// Read a rule set from its text form (see the module).
pub fn parse<R: RuleText>(text: &str) -> Result<R, R::Error> {
    let mut parts = text.split(',');
    let first = parts.next().unwrap_or("").trim();
    let mut rules = if first.is_empty() {
        R::default_rules()
    } else if let Some((k, v)) = first.split_once('=') {
        let mut r = R::default_rules();
        r.set_option(k, v)?;
        r
    } else {
        R::preset(first).ok_or_else(|| R::unknown_preset(first))?
    };
    for part in parts {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        let (k, v) = part.split_once('=').ok_or_else(|| R::not_an_option(part))?;
        rules.set_option(k, v)?;
    }
    Ok(rules)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rule set of two options, for the parser alone.
    #[derive(Debug, PartialEq)]
    struct Toy {
        a: u8,
        b: bool,
    }

    impl RuleText for Toy {
        type Error = String;
        fn default_rules() -> Toy {
            Toy { a: 1, b: false }
        }
        fn preset(name: &str) -> Option<Toy> {
            (name == "big").then_some(Toy { a: 9, b: false })
        }
        fn set_option(&mut self, key: &str, value: &str) -> Result<(), String> {
            match (key.trim(), value.trim()) {
                ("a", v) => self.a = v.parse().map_err(|_| format!("bad a {v}"))?,
                ("b", "on") => self.b = true,
                ("b", "off") => self.b = false,
                (k, _) => return Err(format!("unknown option {k}")),
            }
            Ok(())
        }
        fn unknown_preset(name: &str) -> String {
            format!("unknown preset {name}")
        }
        fn not_an_option(part: &str) -> String {
            format!("unknown option {part}")
        }
    }

    #[test]
    fn presets_options_and_errors() {
        assert_eq!(parse::<Toy>(""), Ok(Toy { a: 1, b: false }));
        assert_eq!(parse::<Toy>("big, b=on"), Ok(Toy { a: 9, b: true }));
        assert_eq!(parse::<Toy>("a=3,b=on"), Ok(Toy { a: 3, b: true }));
        assert_eq!(parse::<Toy>("big,,a=2,"), Ok(Toy { a: 2, b: false }));
        assert_eq!(parse::<Toy>("small"), Err("unknown preset small".into()));
        assert_eq!(parse::<Toy>("big,b"), Err("unknown option b".into()));
        assert_eq!(parse::<Toy>("big,c=1"), Err("unknown option c".into()));
    }
}
