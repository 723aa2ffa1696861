-- Every change of a game bumps its version, and names the version it was
-- made on: of two changes made on the same version exactly one is stored,
-- also when neither changes the moves (a resignation, a draw offer, a join).
ALTER TABLE games ADD COLUMN version BIGINT NOT NULL DEFAULT 0;
