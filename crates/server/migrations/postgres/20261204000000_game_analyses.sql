-- The analysis of a whole game; as the SQLite migration of the same name,
-- in PostgreSQL's types.
CREATE TABLE game_analyses (
    game_id BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    status TEXT NOT NULL,
    time_ms BIGINT NOT NULL,
    positions TEXT NOT NULL,
    updated_at BIGINT NOT NULL
);
