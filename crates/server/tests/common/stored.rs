//! What the storage tests share, here and in the `brett` binary's
//! tests/postgres.rs (which includes this file): the PostgreSQL server of
//! the tests, a stored course of game, a person's seat, the holder of a
//! computer lease.
#![allow(dead_code)]

use server::storage::{GameMeta, Seat, Status};

/// The PostgreSQL server of the tests, or `None` after saying that `test`
/// is skipped (a failure when `BRETT_REQUIRE_POSTGRES=1`).
pub fn postgres_url(test: &str) -> Option<String> {
    match std::env::var("BRETT_TEST_POSTGRES") {
        Ok(url) if !url.is_empty() => Some(url),
        _ => {
            assert!(
                std::env::var("BRETT_REQUIRE_POSTGRES").as_deref() != Ok("1"),
                "{test}: BRETT_REQUIRE_POSTGRES=1 but BRETT_TEST_POSTGRES is not set"
            );
            eprintln!(
                "skipped: {test}: no PostgreSQL server (set BRETT_TEST_POSTGRES=postgres://…; \
                 ./test.sh starts one)"
            );
            None
        }
    }
}

/// A stored course of game: `status` (`ongoing`, `over`), last changed
/// `at`.
pub fn meta(status: &str, at: &str) -> GameMeta {
    GameMeta {
        status: Status::parse(status).expect("a status"),
        updated_at: at.to_string(),
        ..GameMeta::default()
    }
}

/// The seat of a person who has joined: the hash of their token, their
/// name.
pub fn person(token_hash: String, name: &str) -> Seat {
    Seat {
        token_hash: Some(token_hash),
        name: Some(name.to_string()),
        joined: true,
        level: None,
        account: None,
    }
}

/// The instance that holds the lease of game `id`'s computer move, if one
/// does.
pub async fn lease_holder(conn: &mut sqlx::PgConnection, id: i64) -> Option<String> {
    sqlx::query_scalar("SELECT instance FROM computer_leases WHERE game_id = $1")
        .bind(id)
        .fetch_optional(conn)
        .await
        .unwrap()
}
