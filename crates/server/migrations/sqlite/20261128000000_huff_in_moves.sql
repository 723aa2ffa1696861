-- Dame with huffing: a piece huffed this turn, before the move not yet
-- made, is kept in the move list instead of a column of its own: the entry
-- after the game's moves (ply = games.ply), 'H' and the square ('He5'),
-- the form a huff has in front of the move it goes with ('He5 f6xd4').
INSERT OR IGNORE INTO moves (game_id, ply, mv, created_at)
SELECT id, ply, 'H' || pending_huff, updated_at FROM games
WHERE pending_huff IS NOT NULL AND pending_huff <> '';

ALTER TABLE games DROP COLUMN pending_huff;
