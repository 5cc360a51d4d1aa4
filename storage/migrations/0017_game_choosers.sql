-- The open game chooser (/newgame without a game) of each chat and topic: the
-- next one closes it, so that the group has one to press.  Kept in memory
-- only, a chooser open at a restart stayed open beside the next one.
CREATE TABLE game_choosers (
    chat_id INTEGER NOT NULL,
    thread_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    PRIMARY KEY (chat_id, thread_id)
);
