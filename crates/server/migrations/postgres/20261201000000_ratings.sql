-- Ratings (Glicko-2, crate::rating). A game created rated counts for the
-- ratings of the two accounts that hold its seats once it ends with a
-- result (not when aborted).
ALTER TABLE games ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE;

-- Each account's rating in each pool (`muehle`, `muehle:lasker-morris`,
-- `dame`, …: a game and its rule preset).
CREATE TABLE ratings (
    account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    pool TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    updated_at TEXT NOT NULL,           -- RFC 3339 UTC
    PRIMARY KEY (account_id, pool)
);

CREATE INDEX ratings_pool ON ratings (pool, rating);

-- Every rating change: one row per rated game and seat (the primary key
-- makes a game count once).
CREATE TABLE rating_history (
    game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    seat BIGINT NOT NULL,               -- 0 White, 1 Black
    pool TEXT NOT NULL,
    rating_before DOUBLE PRECISION NOT NULL,
    deviation_before DOUBLE PRECISION NOT NULL,
    rating_after DOUBLE PRECISION NOT NULL,
    deviation_after DOUBLE PRECISION NOT NULL,
    at TEXT NOT NULL,                   -- RFC 3339 UTC
    PRIMARY KEY (game_id, seat)
);

CREATE INDEX rating_history_account ON rating_history (account_id, at);
