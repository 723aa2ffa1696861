//! The dame crate's integration tests, one file a subject, built as one test binary
//! (`cargo test -p dame --test integration`): a binary a file would build the crate's
//! code for the tests and link it again for each file. Run one file's tests by its module
//! name: `cargo test -p dame --test integration -- eval::`.

mod common;

mod eval;
mod game;
mod naive;
mod props;
mod rules;
