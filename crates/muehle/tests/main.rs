//! The muehle crate's integration tests, one file a subject, built as one test binary
//! (`cargo test -p muehle --test integration`): a binary a file would build the crate's
//! code for the tests and link it again for each file. Run one file's tests by its module
//! name: `cargo test -p muehle --test integration -- naive::`.

mod common;

mod naive;
mod properties;
mod rules;
mod variants;
