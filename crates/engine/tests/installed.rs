//! The engine's tests that change what the whole process plays with: they
//! install databases or opening books, or switch the books off. One test
//! binary (`cargo test -p engine --test installed`), apart from the others
//! (tests/main.rs), whose searches must not see what these install; here
//! they run one at a time, each from the defaults
//! (`common::one_at_a_time`).

mod common;

mod book;
mod dame_book;
mod dame_databases;
mod databases;
mod placing;
