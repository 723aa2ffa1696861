-- Games and their moves. Timestamps are RFC 3339 UTC text ("2026-11-22T10:15:00Z").
CREATE TABLE games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,                 -- 'muehle' (later: 'dame', …)
    kind TEXT NOT NULL,                 -- 'computer', 'local', 'online', 'imported'
    rules TEXT NOT NULL,                -- rule set text, e.g. 'standard,flying=off'
    start_position TEXT NOT NULL,       -- position string
    ply INTEGER NOT NULL DEFAULT 0,     -- number of moves stored
    status TEXT NOT NULL DEFAULT 'ongoing',  -- 'ongoing' or 'over'
    result TEXT,                        -- '1-0', '0-1', '1/2-1/2'
    reason TEXT,                        -- 'two-stones', 'blocked', …
    draw_offer TEXT,                    -- 'white' or 'black'
    white_token_hash TEXT,              -- SHA-256 of the seat's token (hex)
    black_token_hash TEXT,
    white_name TEXT,
    black_name TEXT,
    white_joined INTEGER NOT NULL DEFAULT 0,
    black_joined INTEGER NOT NULL DEFAULT 0,
    white_level INTEGER,                -- the computer's level when it holds the seat
    black_level INTEGER,
    tags TEXT,                          -- JSON [[key, value], …]: record header tags (imports)
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

CREATE INDEX games_updated ON games (updated_at);
CREATE INDEX games_ongoing ON games (status, kind);

CREATE TABLE moves (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply INTEGER NOT NULL,               -- 0-based: the number of moves before this one
    mv TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
