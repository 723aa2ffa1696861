-- Ratings (Glicko-2, crate::rating); as the SQLite migration of the same
-- name, in PostgreSQL's types.
ALTER TABLE games ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE;

-- Each account's rating in each pool; `games`: the rated games that
-- changed it.
CREATE TABLE ratings (
    account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    pool TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL, deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (account_id, pool)
);

-- Every rating change, one row per rated game and seat.
CREATE TABLE rating_history (
    game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat BIGINT NOT NULL,
    account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    pool TEXT NOT NULL,
    rating_before DOUBLE PRECISION NOT NULL,
    deviation_before DOUBLE PRECISION NOT NULL,
    rating_after DOUBLE PRECISION NOT NULL,
    deviation_after DOUBLE PRECISION NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);

CREATE INDEX rating_history_account ON rating_history (account_id, at);
CREATE INDEX ratings_pool ON ratings (pool, rating);
