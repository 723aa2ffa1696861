//! The server's integration tests, one file a subject, built as one test
//! binary (`cargo test -p server --test integration`): each binary of its
//! own would link the server and the client helpers again. Run one file's
//! tests by its module name: `cargo test -p server --test integration -- api::`.
//! They run without Mühle's databases; the tests with them are in the
//! `databases` test binary (tests/databases.rs).

mod common;

mod abuse;
mod accounts;
mod api;
mod chat;
mod clocks;
mod dame;
mod fairness;
mod game_analysis;
mod hardening;
mod lobby;
mod mill_variants;
mod old_databases;
mod players;
mod postgres;
mod ratings;
mod sqlite_integrity;
mod storage;
mod storage_faults;
