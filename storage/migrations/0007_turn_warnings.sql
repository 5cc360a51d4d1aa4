-- The turn warning of a seat ("20 s left"), one at most: in the player's DM, or
-- in the group for a game played on the table; deleted when the turn it warns
-- of ends, after a restart too.
CREATE TABLE turn_warnings (
    table_id    INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL,
    chat_id     INTEGER NOT NULL,
    message_id  INTEGER NOT NULL,
    PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;
