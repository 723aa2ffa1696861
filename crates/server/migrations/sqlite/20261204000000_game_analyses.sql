-- The analysis of a whole game by the engine (crate::game_analysis): one
-- row per game. `status`: 'running' while an instance works on it (it
-- renews `updated_at`, milliseconds since the Unix epoch, after every
-- position; a running row not renewed for a while was interrupted and may
-- be taken over), 'done' once every position is analysed. `time_ms`: the
-- engine's time per position; `positions`: the analysed positions so far,
-- as a JSON array (docs/API.md, `/api/games/{id}/analysis`).
CREATE TABLE game_analyses (
    game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    status TEXT NOT NULL,
    time_ms BIGINT NOT NULL,
    positions TEXT NOT NULL,
    updated_at BIGINT NOT NULL
);
