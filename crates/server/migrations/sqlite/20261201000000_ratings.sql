-- Ratings (Glicko-2, crate::rating). A game created rated counts for the
-- ratings of the two accounts that hold its seats once it ends with a
-- result (not when aborted).
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;

-- Each account's rating in each pool (`muehle`, `muehle:lasker-morris`,
-- `dame`, …: a game and its rule preset); `games`: the rated games that
-- changed it.
CREATE TABLE ratings (
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    pool TEXT NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    games BIGINT NOT NULL,
    updated_at TEXT NOT NULL,           -- RFC 3339 UTC
    PRIMARY KEY (account_id, pool)
);

CREATE INDEX ratings_pool ON ratings (pool, rating);

-- Every rating change: one row per rated game and seat (0 White, 1 Black;
-- the primary key makes a game count once), before and after the game.
CREATE TABLE rating_history (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    pool TEXT NOT NULL,
    rating_before REAL NOT NULL, deviation_before REAL NOT NULL,
    rating_after REAL NOT NULL, deviation_after REAL NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);

CREATE INDEX rating_history_account ON rating_history (account_id, at);
