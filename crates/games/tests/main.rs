//! The games crate's integration tests, one file a subject, built as one test binary
//! (`cargo test -p games --test integration`): a binary a file would build the crate's
//! code for the tests and link it again for each file. Run one file's tests by its module
//! name: `cargo test -p games --test integration -- computer_answers::`.

mod computer_answers;
mod mill_variants;
