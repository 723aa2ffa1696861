//! The `brett` binary's integration tests, one file a subject, built as one test binary
//! (`cargo test -p brett --test integration`): a binary a file would link the
//! dev-dependencies again for each file. Run one file's tests by its module name:
//! `cargo test -p brett --test integration -- cli::`.

mod cli;
mod dxp;
mod engine_protocol;
mod postgres;
