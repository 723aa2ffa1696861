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

-- Several instances: the sockets each instance holds for each seat of a
-- game (a player is connected if any instance has one), and when that
-- count last changed (a seat with none is away since then).
CREATE TABLE seat_presence (
    game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat SMALLINT NOT NULL,             -- 0 white, 1 black
    instance TEXT NOT NULL,
    sockets BIGINT NOT NULL,
    changed_at BIGINT NOT NULL,         -- milliseconds since the Unix epoch
    PRIMARY KEY (game_id, seat, instance)
);
