//! The text form of a rule set, the same for every game: a preset,
//! optionally followed by `,key=value` options (`standard,flying=off`,
//! `dame,huffing=on`); or options alone, applied to the game's default
//! preset; the empty text is the default preset.

use std::convert::Infallible;
use std::fmt;
use std::marker::PhantomData;

/// A rule set that has presets and options by name.
pub trait RuleText: Sized + PartialEq {
    /// The presets' names, the first the default; errors list them.
    const PRESETS: &'static [&'static str];

    /// The options with the values they take, as errors list them
    /// (`flying=on|off, no-mill=N|off`).
    const OPTIONS: &'static str;

    /// The rule set of the empty text, and the one options alone apply to.
    fn default_rules() -> Self;

    /// The preset named `name`.
    fn preset(name: &str) -> Option<Self>;

    /// Set option `key` to `value`.
    fn set_option(&mut self, key: &str, value: &str) -> Result<(), ParseRulesError<Self>>;

    /// The options, with their values, on which `other` differs from this
    /// rule set, as the text form writes them.
    fn differences(&self, other: &Self) -> Vec<(&'static str, String)>;
}

/// Error for a rule-set text that cannot be understood, for the rule set
/// `R` (whose presets and options it lists).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseRulesError<R: RuleText> {
    /// The text names no preset.
    #[error("unknown rule preset '{0}' (presets: {presets})", presets = R::PRESETS.join(", "))]
    UnknownPreset(String),
    /// An option the rules do not have.
    #[error("unknown rule option '{0}' (options: {options})", options = R::OPTIONS)]
    UnknownOption(String),
    /// An option has a value it cannot take.
    #[error("bad value '{value}' for rule option '{option}': expected {expected}")]
    BadValue {
        /// The option.
        option: String,
        /// The value given.
        value: String,
        /// The values it can take.
        expected: &'static str,
    },
    /// Never made: it only ties the error to its rule set.
    #[doc(hidden)]
    #[error("")]
    _Rules(Infallible, PhantomData<fn() -> R>),
}

/// `FromStr` (by [`parse`]), `Display` (by [`write()`]) and [`RuleText`]
/// for a game's rule set `$rules` with its inherent `preset(name)`,
/// `set_option(key, value)` and `differences(other)`; `$default` is the
/// rule set options alone apply to, `$presets` the names of the presets,
/// the first the default, and `$options` the options as errors list them.
#[macro_export]
macro_rules! rule_text {
    ($rules:ty, $default:expr, $presets:expr, $options:expr) => {
        impl ::std::str::FromStr for $rules {
            type Err = $crate::rules_text::ParseRulesError<$rules>;
            fn from_str(s: &str) -> Result<$rules, Self::Err> {
                $crate::rules_text::parse(s)
            }
        }

        impl ::std::fmt::Display for $rules {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                $crate::rules_text::write(self, f)
            }
        }

        impl $crate::rules_text::RuleText for $rules {
            const PRESETS: &'static [&'static str] = &$presets;
            const OPTIONS: &'static str = $options;

            fn default_rules() -> $rules {
                $default
            }

            fn preset(name: &str) -> Option<$rules> {
                <$rules>::preset(name)
            }

            fn set_option(
                &mut self,
                key: &str,
                value: &str,
            ) -> Result<(), $crate::rules_text::ParseRulesError<$rules>> {
                <$rules>::set_option(self, key, value)
            }

            fn differences(&self, other: &$rules) -> Vec<(&'static str, String)> {
                <$rules>::differences(self, other)
            }
        }
    };
}

/// Read a rule set from its text form (see the module).
pub fn parse<R: RuleText>(text: &str) -> Result<R, ParseRulesError<R>> {
    let mut parts = text.split(',');
    let first = parts.next().unwrap_or("").trim();
    let mut rules = if first.is_empty() {
        R::default_rules()
    } else if let Some((k, v)) = first.split_once('=') {
        let mut r = R::default_rules();
        r.set_option(k, v)?;
        r
    } else {
        R::preset(first).ok_or_else(|| ParseRulesError::UnknownPreset(first.to_string()))?
    };
    for part in parts {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        let (k, v) = part
            .split_once('=')
            .ok_or_else(|| ParseRulesError::UnknownOption(part.to_string()))?;
        rules.set_option(k, v)?;
    }
    Ok(rules)
}

/// The name of the preset `rules` are exactly, if any.
pub fn preset_name<R: RuleText>(rules: &R) -> Option<&'static str> {
    R::PRESETS
        .iter()
        .copied()
        .find(|name| R::preset(name).as_ref() == Some(rules))
}

/// The text form of `rules`: a preset's name, or the preset that needs the
/// fewest options (ties: the first) followed by `,key=value` for each
/// option that differs from it.
pub fn write<R: RuleText>(rules: &R, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    if let Some(name) = preset_name(rules) {
        return f.write_str(name);
    }
    let differences = |name: &str| R::preset(name).map(|p| p.differences(rules));
    let (base, options) = R::PRESETS
        .iter()
        .filter_map(|&name| Some((name, differences(name)?)))
        .min_by_key(|(_, options)| options.len())
        .unwrap_or(("", Vec::new()));
    f.write_str(base)?;
    for (key, value) in options {
        write!(f, ",{key}={value}")?;
    }
    Ok(())
}

/// An option's value `on` or `off` (also `yes`/`no`, `true`/`false`,
/// `1`/`0`), in lower case.
pub fn on_off(value: &str) -> Option<bool> {
    match value {
        "on" | "yes" | "true" | "1" => Some(true),
        "off" | "no" | "false" | "0" => Some(false),
        _ => None,
    }
}

/// An option's value that is a number from `min` or `off` (also `none`,
/// `no`: `Some(None)`), in lower case; `None` if it is neither.
pub fn number_or_off<N: std::str::FromStr + PartialOrd>(value: &str, min: N) -> Option<Option<N>> {
    if matches!(value, "off" | "none" | "no") {
        return Some(None);
    }
    value.parse().ok().filter(|n| *n >= min).map(Some)
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
        const PRESETS: &'static [&'static str] = &["small", "big"];
        const OPTIONS: &'static str = "a=N, b=on|off";
        fn default_rules() -> Toy {
            Toy { a: 1, b: false }
        }
        fn preset(name: &str) -> Option<Toy> {
            match name {
                "small" => Some(Toy::default_rules()),
                "big" => Some(Toy { a: 9, b: false }),
                _ => None,
            }
        }
        fn set_option(&mut self, key: &str, value: &str) -> Result<(), ParseRulesError<Toy>> {
            let bad = |expected| ParseRulesError::BadValue {
                option: key.to_string(),
                value: value.to_string(),
                expected,
            };
            match key.trim() {
                "a" => {
                    self.a = number_or_off(value.trim(), 1)
                        .ok_or_else(|| bad("1 to 255, or off"))?
                        .unwrap_or(0)
                }
                "b" => self.b = on_off(value.trim()).ok_or_else(|| bad("on or off"))?,
                k => return Err(ParseRulesError::UnknownOption(k.to_string())),
            }
            Ok(())
        }
        fn differences(&self, other: &Toy) -> Vec<(&'static str, String)> {
            let mut out = Vec::new();
            if self.a != other.a {
                out.push(("a", other.a.to_string()));
            }
            if self.b != other.b {
                out.push(("b", if other.b { "on" } else { "off" }.to_string()));
            }
            out
        }
    }

    impl fmt::Display for Toy {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write(self, f)
        }
    }

    #[test]
    fn presets_options_and_errors() {
        assert_eq!(parse::<Toy>(""), Ok(Toy { a: 1, b: false }));
        assert_eq!(parse::<Toy>("big, b=on"), Ok(Toy { a: 9, b: true }));
        assert_eq!(parse::<Toy>("a=3,b=yes"), Ok(Toy { a: 3, b: true }));
        assert_eq!(parse::<Toy>("big,,a=off,"), Ok(Toy { a: 0, b: false }));
        let err = |text: &str| parse::<Toy>(text).unwrap_err().to_string();
        assert_eq!(
            err("huge"),
            "unknown rule preset 'huge' (presets: small, big)"
        );
        assert_eq!(
            err("big,b"),
            "unknown rule option 'b' (options: a=N, b=on|off)"
        );
        assert_eq!(
            parse::<Toy>("big,c=1"),
            Err(ParseRulesError::UnknownOption("c".into()))
        );
        assert_eq!(
            err("a=0"),
            "bad value '0' for rule option 'a': expected 1 to 255, or off"
        );
    }

    #[test]
    fn the_text_form_names_the_nearest_preset() {
        assert_eq!(Toy { a: 9, b: false }.to_string(), "big");
        assert_eq!(preset_name(&Toy { a: 1, b: false }), Some("small"));
        assert_eq!(Toy { a: 9, b: true }.to_string(), "big,b=on");
        assert_eq!(Toy { a: 2, b: true }.to_string(), "small,a=2,b=on");
        assert_eq!(preset_name(&Toy { a: 2, b: true }), None);
    }
}
