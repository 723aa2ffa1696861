-- The lobby (docs/API.md, "Lobby and challenges"): seeks (an open
-- invitation anyone may accept) and challenges (to one account), posted
-- by accounts. Times in milliseconds since the Unix epoch.
CREATE TABLE invitations (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    -- A challenge's player; NULL: a seek.
    to_account INTEGER REFERENCES accounts (id) ON DELETE CASCADE,
    game TEXT NOT NULL,                 -- the catalogue's name ('muehle', 'dame-100', …)
    rules TEXT NOT NULL,                -- the rule set's text form
    time_control TEXT NOT NULL,         -- '5+3', '3d', '-'
    rated INTEGER NOT NULL,
    color TEXT NOT NULL,                -- the poster's: 'white', 'black', 'random'
    rating_min INTEGER,
    rating_max INTEGER,
    pool TEXT,                          -- the rating pool of the game and rules
    live INTEGER NOT NULL,              -- lapses unless renewed (a live seek)
    status TEXT NOT NULL,               -- 'open', 'accepted', 'declined', 'cancelled', 'lapsed'
    game_id INTEGER REFERENCES games (id) ON DELETE SET NULL,
    created_at BIGINT NOT NULL,
    renewed_at BIGINT NOT NULL
);

-- Few rows at a time (open invitations and those settled within the
-- hour): no indexes beyond the key.

-- Rematch offers of finished games: the side that offered, the hash of
-- the token its seat gets in the new game, and the new game once
-- accepted.
CREATE TABLE rematches (
    game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    offered_by INTEGER NOT NULL,        -- 0 white, 1 black
    next_token_hash TEXT,
    accepted INTEGER NOT NULL DEFAULT 0,
    new_game INTEGER REFERENCES games (id) ON DELETE SET NULL
);
