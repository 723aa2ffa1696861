//! Small helpers: secret tokens, timestamps, player names.

use std::time::{SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use sha2::{Digest, Sha256};

/// A new secret seat token: 24 random bytes from the operating system,
/// base64url without padding (32 characters).
pub fn new_token() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; 24];
    getrandom::fill(&mut bytes)?;
    Ok(base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes))
}

/// The token a guest's seat gets in the rematch of game `game`, made
/// from the token of its seat there: each call of the guest finds the same
/// one, and only who holds the old token can make it.
pub fn rematch_token(token: &str, game: i64) -> String {
    let digest = Sha256::digest(format!("brett rematch {game} {token}").as_bytes());
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&digest[..24])
}

/// The stored form of a token: SHA-256, hex. The database never holds the
/// tokens themselves.
pub fn token_hash(token: &str) -> String {
    let digest = Sha256::digest(token.as_bytes());
    let mut out = String::with_capacity(64);
    for b in digest {
        out.push_str(&format!("{b:02x}"));
    }
    out
}

/// Compare two strings in time independent of where they differ.
pub fn constant_time_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Now as RFC 3339 UTC with seconds: `2026-11-22T10:15:00Z`.
pub fn now_rfc3339() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    rfc3339(secs as i64)
}

/// Seconds since 1970 as RFC 3339 UTC.
pub fn rfc3339(secs: i64) -> String {
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

/// Days since 1970-01-01 to (year, month, day) in the proleptic Gregorian
/// calendar (H. Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// (year, month, day) to days since 1970-01-01 (H. Hinnant's algorithm,
/// the inverse of [`civil_from_days`]).
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = i64::from((m + 9) % 12);
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The start of day `text` (`YYYY-MM-DD`, UTC) as RFC 3339, or of the day
/// after it when `next`; `None` for text that is no such day.
pub fn day_start(text: &str, next: bool) -> Option<String> {
    let mut parts = text.split('-');
    let (y, m, d) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() || y.len() != 4 || m.len() != 2 || d.len() != 2 {
        return None;
    }
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if !(digits(y) && digits(m) && digits(d)) {
        return None;
    }
    let (y, m, d): (i64, u32, u32) = (y.parse().ok()?, m.parse().ok()?, d.parse().ok()?);
    let days = days_from_civil(y, m, d);
    // A day that does not exist (2026-02-30) comes back as another.
    if civil_from_days(days) != (y, m, d) {
        return None;
    }
    Some(rfc3339((days + i64::from(next)) * 86_400))
}

/// The longest player name, in characters.
pub const MAX_NAME_CHARS: usize = 40;

/// Whether a character changes the direction of the text around it: the
/// embeddings and overrides U+202A–U+202E, the isolates U+2066–U+2069 and
/// the marks U+200E, U+200F and U+061C. In a name they could make the text
/// after it (a move list, another name) read backwards.
pub fn is_bidi_control(c: char) -> bool {
    matches!(
        c,
        '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}'
    )
}

/// Check a player name: trimmed, at most 40 characters, no control
/// characters and no bidirectional controls. An empty name is no name.
pub fn clean_name(name: Option<&str>) -> Result<Option<String>, String> {
    let Some(name) = name else { return Ok(None) };
    let name = name.trim();
    if name.is_empty() {
        return Ok(None);
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(format!(
            "the name is longer than {MAX_NAME_CHARS} characters"
        ));
    }
    if name.chars().any(char::is_control) {
        return Err("the name contains control characters".to_string());
    }
    if name.chars().any(is_bidi_control) {
        return Err(
            "the name contains bidirectional control characters (U+202A–U+202E, \
             U+2066–U+2069, U+200E, U+200F, U+061C)"
                .to_string(),
        );
    }
    Ok(Some(name.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_are_read_exactly() {
        assert_eq!(
            day_start("2026-11-28", false).as_deref(),
            Some("2026-11-28T00:00:00Z")
        );
        assert_eq!(
            day_start("2026-12-31", true).as_deref(),
            Some("2027-01-01T00:00:00Z")
        );
        assert_eq!(
            day_start("2024-02-29", false).as_deref(),
            Some("2024-02-29T00:00:00Z")
        );
        for bad in [
            "2026-02-30",
            "2026-13-01",
            "26-11-28",
            "2026-1-28",
            "2026-11-28x",
            "+026-11-28",
            "",
        ] {
            assert_eq!(day_start(bad, false), None, "{bad}");
        }
    }

    #[test]
    fn dates() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(rfc3339(1_795_342_509), "2026-11-22T10:15:09Z");
    }

    #[test]
    fn tokens_are_random_and_hashed() {
        let a = new_token().unwrap();
        let b = new_token().unwrap();
        assert_ne!(a, b);
        assert_eq!(a.len(), 32);
        assert_eq!(token_hash(&a).len(), 64);
        assert!(constant_time_eq(&token_hash(&a), &token_hash(&a)));
        assert!(!constant_time_eq(&token_hash(&a), &token_hash(&b)));
    }

    #[test]
    fn names() {
        assert_eq!(clean_name(Some("  Anna ")), Ok(Some("Anna".into())));
        assert_eq!(clean_name(Some("   ")), Ok(None));
        assert!(clean_name(Some("a\u{7}b")).is_err());
        assert!(clean_name(Some(&"x".repeat(41))).is_err());
        for c in ['\u{202E}', '\u{202A}', '\u{2066}', '\u{2069}', '\u{200F}'] {
            let err = clean_name(Some(&format!("Anna{c}gnu"))).unwrap_err();
            assert!(err.contains("bidirectional"), "{err}");
        }
        assert_eq!(clean_name(Some("Ævar ʻOlu")), Ok(Some("Ævar ʻOlu".into())));
        assert_eq!(
            clean_name(Some("<script>alert(1)</script>")),
            Ok(Some("<script>alert(1)</script>".into()))
        );
    }
}
