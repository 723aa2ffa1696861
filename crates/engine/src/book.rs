//! What both games' opening books share: the switch that turns them on and
//! off in play (engine option `Book`, `brett --no-book`). The books
//! themselves are [`crate::muehle::book`] and [`crate::dame::book`].

use std::sync::atomic::{AtomicBool, Ordering};

static ENABLED: AtomicBool = AtomicBool::new(true);

/// Use the opening books in play (level 10) or not.
pub fn set_enabled(on: bool) {
    ENABLED.store(on, Ordering::Relaxed);
}

/// Whether the opening books are used in play.
pub fn enabled() -> bool {
    ENABLED.load(Ordering::Relaxed)
}
