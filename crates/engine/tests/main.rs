//! The engine crate's integration tests, one file a subject, built as one test binary
//! (`cargo test -p engine --test integration`): a binary a file would build the crate's
//! code for the tests and link it again for each file. Run one file's tests by its module
//! name: `cargo test -p engine --test integration -- blockade::`.
//! The tests that install databases or books for the whole process are the test binary
//! `installed` (tests/installed.rs).

mod common;

mod blockade;
mod dame_puzzles;
mod dame_shots;
mod dame_tactics;
mod determinism;
mod lost_games;
mod tactics;
