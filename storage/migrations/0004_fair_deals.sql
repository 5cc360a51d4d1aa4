-- Provably fair deals: the game as it was dealt (its state before the first
-- move) and the SHA-256 commitment to it and its seed, shown while it runs.
ALTER TABLE tables ADD COLUMN deal TEXT;
ALTER TABLE tables ADD COLUMN commitment TEXT;
