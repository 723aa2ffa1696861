-- Clocks. A timed game stores its time control (its text form: '5+3',
-- '3d'; NULL: untimed), both remaining times as of the start of the turn
-- being played, in milliseconds, when that turn started and when it runs
-- out (milliseconds since the Unix epoch; NULL while no clock runs): the
-- deadline of the side to move, or of an online game's first moves (the
-- game is aborted then). Every move stores both times left after it.
ALTER TABLE games ADD COLUMN time_control TEXT;
ALTER TABLE games ADD COLUMN white_ms BIGINT;
ALTER TABLE games ADD COLUMN black_ms BIGINT;
ALTER TABLE games ADD COLUMN turn_started_at BIGINT;
ALTER TABLE games ADD COLUMN deadline BIGINT;
CREATE INDEX games_deadline ON games (deadline) WHERE deadline IS NOT NULL;

ALTER TABLE moves ADD COLUMN white_ms BIGINT;
ALTER TABLE moves ADD COLUMN black_ms BIGINT;

-- When a server last said it was running: at start, the time since then
-- (all servers were down) is given back to every running clock.
CREATE TABLE server_alive (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    alive_at BIGINT NOT NULL
);
