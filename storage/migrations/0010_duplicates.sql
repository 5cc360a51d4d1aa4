-- Duplicates ("same deal, seats turned"): a table that deals the game of an
-- earlier table of the chat again, with each person moved on by ``rotation``
-- seats.  ``duplicate_of`` names the set's first table, whose deal (and seed
-- and commitment) every table of the set plays; NULL for an ordinary table.
ALTER TABLE tables ADD COLUMN duplicate_of INTEGER REFERENCES tables(id);
ALTER TABLE tables ADD COLUMN rotation INTEGER NOT NULL DEFAULT 0;
CREATE INDEX tables_duplicate_of ON tables(duplicate_of) WHERE duplicate_of IS NOT NULL;
