//! Account passwords: argon2id hashes as PHC strings, made and checked on
//! tokio's blocking threads (never on the async workers), a few at a time.
//!
//! The parameters are OWASP's recommendation for argon2id: 19 MiB of
//! memory, 2 passes, 1 lane ([`PARAMS`]). A hash names the parameters it
//! was made with, so they can change later: a login whose stored hash was
//! made with others stores the password hashed anew.
//!
//! A login for a name that has no account checks the password against a
//! fixed hash of the same parameters ([`Hasher::verify_none`]), so it takes
//! the time a real check takes.

use std::sync::{Arc, OnceLock};

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use tokio::sync::Semaphore;

/// argon2id's memory in KiB (19 MiB).
pub const MEMORY_KIB: u32 = 19 * 1024;
/// argon2id's passes over the memory.
pub const PASSES: u32 = 2;
/// argon2id's lanes.
pub const LANES: u32 = 1;

/// The shortest password, in characters.
pub const MIN_PASSWORD_CHARS: usize = 8;
/// The longest password, in bytes (UTF-8).
pub const MAX_PASSWORD_BYTES: usize = 256;

/// A failure of hashing (never a wrong password: that is `Ok(false)`).
#[derive(Debug, thiserror::Error)]
pub enum PasswordError {
    /// argon2 refused (a stored hash it cannot read, parameters out of
    /// range).
    #[error("password hashing: {0}")]
    Hash(String),
    /// The blocking task failed or the random salt could not be made.
    #[error("password hashing could not run: {0}")]
    Run(String),
}

fn argon2() -> Argon2<'static> {
    let params = Params::new(MEMORY_KIB, PASSES, LANES, None).expect("valid argon2 parameters");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// Whether the stored hash `phc` was made with other parameters than
/// today's (or another algorithm): the password is to be hashed anew.
pub fn needs_rehash(phc: &str) -> bool {
    let Ok(parsed) = PasswordHash::new(phc) else {
        return true;
    };
    let number = |name: &str| {
        parsed
            .params
            .get_decimal(name)
            .map(u64::from)
            .unwrap_or(u64::MAX)
    };
    parsed.algorithm.as_str() != "argon2id"
        || parsed.version != Some(0x13)
        || number("m") != u64::from(MEMORY_KIB)
        || number("t") != u64::from(PASSES)
        || number("p") != u64::from(LANES)
}

/// Hash `password` (blocking: run it off the async workers).
pub fn hash_blocking(password: &str) -> Result<String, PasswordError> {
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).map_err(|e| PasswordError::Run(e.to_string()))?;
    let salt = SaltString::encode_b64(&salt).map_err(|e| PasswordError::Hash(e.to_string()))?;
    argon2()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| PasswordError::Hash(e.to_string()))
}

/// Whether `password` is the one of the stored hash `phc` (blocking).
pub fn verify_blocking(password: &str, phc: &str) -> Result<bool, PasswordError> {
    let parsed = PasswordHash::new(phc).map_err(|e| PasswordError::Hash(e.to_string()))?;
    // The parameters are the stored hash's own.
    match Argon2::default().verify_password(password.as_bytes(), &parsed) {
        Ok(()) => Ok(true),
        Err(argon2::password_hash::Error::Password) => Ok(false),
        Err(e) => Err(PasswordError::Hash(e.to_string())),
    }
}

/// The hash a login for an unknown name is checked against: made once, of
/// a random password nobody knows, with today's parameters.
fn dummy_hash() -> Result<&'static str, PasswordError> {
    static DUMMY: OnceLock<String> = OnceLock::new();
    if let Some(h) = DUMMY.get() {
        return Ok(h);
    }
    let password = crate::util::new_token().map_err(|e| PasswordError::Run(e.to_string()))?;
    let hash = hash_blocking(&password)?;
    Ok(DUMMY.get_or_init(|| hash))
}

/// Runs the hashing on blocking threads, at most `parallel` at once (each
/// takes [`MEMORY_KIB`] of memory while it runs).
#[derive(Clone)]
pub struct Hasher {
    slots: Arc<Semaphore>,
    /// Checks against the dummy hash so far (for tests: an unknown name is
    /// checked as a real one).
    dummy_checks: Arc<std::sync::atomic::AtomicU64>,
}

impl Hasher {
    /// At most `parallel` hashes at once (at least 1).
    pub fn new(parallel: usize) -> Hasher {
        Hasher {
            slots: Arc::new(Semaphore::new(parallel.max(1))),
            dummy_checks: Arc::default(),
        }
    }

    async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> Result<T, PasswordError> + Send + 'static,
    ) -> Result<T, PasswordError> {
        let _slot = self
            .slots
            .acquire()
            .await
            .map_err(|e| PasswordError::Run(e.to_string()))?;
        tokio::task::spawn_blocking(work)
            .await
            .map_err(|e| PasswordError::Run(e.to_string()))?
    }

    /// The hash of `password` (a PHC string).
    pub async fn hash(&self, password: String) -> Result<String, PasswordError> {
        self.run(move || hash_blocking(&password)).await
    }

    /// Whether `password` is the one of `phc`.
    pub async fn verify(&self, password: String, phc: String) -> Result<bool, PasswordError> {
        self.run(move || verify_blocking(&password, &phc)).await
    }

    /// Check `password` against the dummy hash, as [`Hasher::verify`] would
    /// check a real one; always `false`.
    pub async fn verify_none(&self, password: String) -> Result<bool, PasswordError> {
        self.dummy_checks
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.run(move || {
            let dummy = dummy_hash()?;
            verify_blocking(&password, dummy).map(|_| false)
        })
        .await
    }

    /// The checks against the dummy hash so far.
    pub fn dummy_checks(&self) -> u64 {
        self.dummy_checks.load(std::sync::atomic::Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_are_argon2id_phc_strings_that_verify() {
        let h = hash_blocking("correct horse").unwrap();
        assert!(
            h.starts_with(&format!(
                "$argon2id$v=19$m={MEMORY_KIB},t={PASSES},p={LANES}$"
            )),
            "{h}"
        );
        assert!(!h.contains("correct horse"));
        assert!(verify_blocking("correct horse", &h).unwrap());
        assert!(!verify_blocking("correct horsE", &h).unwrap());
        assert!(!needs_rehash(&h));
        // Other parameters: hashed anew at the next login.
        let weaker = Argon2::new(
            Algorithm::Argon2id,
            Version::V0x13,
            Params::new(8 * 1024, 1, 1, None).unwrap(),
        );
        let salt = SaltString::encode_b64(&[7u8; 16]).unwrap();
        let old = weaker
            .hash_password(b"correct horse", &salt)
            .unwrap()
            .to_string();
        assert!(needs_rehash(&old));
        assert!(verify_blocking("correct horse", &old).unwrap());
        assert!(needs_rehash("not a hash"));
        assert!(verify_blocking("x", "not a hash").is_err());
    }
}
