-- The lobby; as the SQLite migration of the same name, in PostgreSQL's
-- types.
CREATE TABLE invitations (
    id BIGSERIAL PRIMARY KEY,
    account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    to_account BIGINT REFERENCES accounts (id) ON DELETE CASCADE,
    game TEXT NOT NULL,
    rules TEXT NOT NULL,
    time_control TEXT NOT NULL,
    rated BOOLEAN NOT NULL,
    color TEXT NOT NULL,
    rating_min BIGINT,
    rating_max BIGINT,
    pool TEXT,
    live BOOLEAN NOT NULL,
    status TEXT NOT NULL,
    game_id BIGINT REFERENCES games (id) ON DELETE SET NULL,
    created_at BIGINT NOT NULL,
    renewed_at BIGINT NOT NULL
);

CREATE INDEX invitations_status ON invitations (status, renewed_at);
CREATE INDEX invitations_account ON invitations (account_id);
CREATE INDEX invitations_to ON invitations (to_account);

CREATE TABLE rematches (
    game_id BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    offered_by BIGINT NOT NULL,
    next_token_hash TEXT,
    accepted BOOLEAN NOT NULL DEFAULT FALSE,
    new_game BIGINT REFERENCES games (id) ON DELETE SET NULL
);
