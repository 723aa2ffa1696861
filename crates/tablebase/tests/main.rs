//! The tablebase crate's integration tests, one file a subject, built as one test binary
//! (`cargo test -p tablebase --test integration`): a binary a file would build the
//! crate's code for the tests and link it again for each file. Run one file's tests by
//! its module name: `cargo test -p tablebase --test integration -- dame_plain::`.
//! The cache tests count what the whole process holds: each is a test binary of its own
//! (`dame_cache`, `wdl`).

mod dame_build;
mod dame_plain;
mod files;
mod plain;
mod stored;
