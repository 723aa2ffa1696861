-- Dame with huffing: a piece huffed this turn, before the move not yet made
-- (the square's name). Huffs followed by their move are stored with the move
-- ('He5 f6xd4').
ALTER TABLE games ADD COLUMN pending_huff TEXT;
