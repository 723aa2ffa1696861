//! The server's tests with Mühle's databases installed: the status and
//! the database values in the API (`tablebase`), and the "Perfect play"
//! page's listing and builds (`perfect_play`). Installing is process-global
//! (`engine::muehle::databases::install`), so these tests have a binary of
//! their own (`cargo test -p server --test databases`), apart from
//! `integration`, whose tests run without databases; both files share one
//! folder, installed once.

mod common;

mod perfect_play;
mod tablebase;

use std::path::Path;
use std::sync::OnceLock;

use ::tablebase::Variant;

/// The database folder, installed once for the whole process: sector 3-4
/// of the standard rules and what it needs (3-3 and 4-3). Each test works
/// on rule sets or sectors of its own beside them.
pub fn databases() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        ::tablebase::build_sectors(dir.path(), Variant::STANDARD, "3-4").unwrap();
        engine::muehle::databases::install(Some(dir.path()));
        dir
    })
    .path()
}
