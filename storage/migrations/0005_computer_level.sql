-- How strong the table's computer seats play: 'easy' (the heuristic), 'normal'
-- or 'hard' (a search of about 0.3 s / 1 s a move).  Tables from before played
-- the heuristic, and keep it.
ALTER TABLE tables ADD COLUMN computer_level TEXT NOT NULL DEFAULT 'easy';
