//! Rule sets: any text either fails to parse or gives a rule set whose text
//! form parses back to the same rule set.
#![no_main]

use libfuzzer_sys::fuzz_target;
use muehle::RuleSet;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(rules) = text.parse::<RuleSet>() {
        let shown = rules.to_string();
        assert_eq!(shown.parse::<RuleSet>(), Ok(rules), "{text:?} -> {shown}");
        if let Some(name) = rules.preset_name() {
            assert_eq!(shown, name);
        }
    }
});
