-- The chat of each game (crate::chat): one room for its two players and
-- one for its spectators. `seat`: the author's seat (0 White, 1 Black) in
-- the players' room, NULL in the spectators'; `account_id`: the author's
-- account (NULL: a guest); `name`: the name shown (NULL: a guest without
-- one, shown by its seat). The text is kept as written; clients show it
-- as text. `at`: milliseconds since the Unix epoch.
CREATE TABLE chat_messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    room TEXT NOT NULL,                 -- 'players' or 'spectators'
    seat INTEGER,
    account_id INTEGER REFERENCES accounts (id) ON DELETE SET NULL,
    name TEXT,
    text TEXT NOT NULL,
    at BIGINT NOT NULL
);

CREATE INDEX chat_messages_game ON chat_messages (game_id, room, id);

-- Who blocked whom: the blocker sees no chat of the blocked account, and
-- the blocked account cannot challenge the blocker.
CREATE TABLE blocks (
    blocker INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    blocked INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,           -- RFC 3339 UTC
    PRIMARY KEY (blocker, blocked)
) WITHOUT ROWID;

-- Chat messages reported to the operator (`brett admin reports`), one
-- report per reporter and message (the storage checks it: the table is
-- small); `closed_at`/`closed_by` once resolved.
CREATE TABLE chat_reports (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    message_id INTEGER NOT NULL REFERENCES chat_messages (id) ON DELETE CASCADE,
    reporter INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    reason TEXT NOT NULL,
    created_at TEXT NOT NULL,           -- RFC 3339 UTC
    closed_at TEXT,
    closed_by TEXT
);
