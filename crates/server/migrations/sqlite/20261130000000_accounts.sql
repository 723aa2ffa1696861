-- Accounts: a name and a password. The name is unique whatever its case
-- (name_key: the name in lower case, made by the server); the password is
-- kept only as its argon2id hash, a PHC string ('$argon2id$v=19$m=…').
-- Timestamps as in games: RFC 3339 UTC text.
CREATE TABLE accounts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    created_at TEXT NOT NULL,
    language TEXT,                      -- the language the player chose ('de', 'en', …)
    closed INTEGER NOT NULL DEFAULT 0   -- closed by the operator: no login
);

-- The logins of an account: the SHA-256 (hex) of the random token in the
-- cookie, never the token itself. Times in milliseconds since the Unix epoch.
CREATE TABLE login_sessions (
    token_hash TEXT PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    last_used_at BIGINT NOT NULL
);

CREATE INDEX login_sessions_account ON login_sessions (account_id);
CREATE INDEX login_sessions_expiry ON login_sessions (expires_at);

-- The account that holds each seat of a game (NULL: a guest, the computer,
-- an imported game).
ALTER TABLE games ADD COLUMN white_account INTEGER REFERENCES accounts (id) ON DELETE SET NULL;
ALTER TABLE games ADD COLUMN black_account INTEGER REFERENCES accounts (id) ON DELETE SET NULL;
CREATE INDEX games_white_account ON games (white_account) WHERE white_account IS NOT NULL;
CREATE INDEX games_black_account ON games (black_account) WHERE black_account IS NOT NULL;
