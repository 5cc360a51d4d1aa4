-- DM messages the bot must delete: hands replaced by a newer one, and copies
-- found to be no seat's hand.  Recorded with the new hand, in its transaction,
-- so that a bot killed before the delete still makes it after the restart,
-- instead of leaving old buttons live.
CREATE TABLE retiring_messages (
    chat_id     INTEGER NOT NULL,
    message_id  INTEGER NOT NULL,
    table_id    INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    text        TEXT,               -- what it shows, without buttons, if too old to
                                    -- delete; NULL: it only loses its buttons
    PRIMARY KEY (chat_id, message_id)
) WITHOUT ROWID;
CREATE INDEX retiring_messages_by_table ON retiring_messages (table_id);
