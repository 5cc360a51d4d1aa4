-- Several bot workers on one database (PostgreSQL): each chat is acted on by
-- one worker at a time, under a lease; updates reach the chat's worker
-- through the inbox.  A single process (SQLite, or long polling) leaves these
-- tables empty.

-- One row per running worker, its heartbeat: the live workers share the
-- chats without a lease and the bot's overall Bot API budget.
CREATE TABLE workers (
    id          TEXT    PRIMARY KEY,            -- hostname:pid:random, or WORKER_ID
    started_at  REAL    NOT NULL,
    alive_at    REAL    NOT NULL
);

-- Who acts on a chat, until when.  ``epoch`` is bumped whenever another
-- worker takes the chat over (a fencing counter: a renewal names it);
-- ``renewed_at`` is when its holder last said it was alive and holding it,
-- so that a takeover gives the chat's deadlines the time nobody held it.
-- A released lease expires at once.
CREATE TABLE chat_leases (
    chat_id     INTEGER PRIMARY KEY,            -- Telegram chat id
    worker      TEXT    NOT NULL,
    expires_at  REAL    NOT NULL,
    renewed_at  REAL    NOT NULL,
    epoch       INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX chat_leases_by_worker ON chat_leases(worker);

-- Updates received by any worker, handed to the chat's holder in Telegram's
-- order (by update_id: two posts filed by two workers at once may take their
-- ids the other way round).
-- A repeated update_id (Telegram redelivers what was not answered in time)
-- is dropped; a handled update is kept an hour, so that a late redelivery
-- is dropped too.
CREATE TABLE inbox (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_id     INTEGER NOT NULL,
    update_id   INTEGER NOT NULL UNIQUE,
    payload     TEXT    NOT NULL,               -- the update's JSON
    received_at REAL    NOT NULL,
    handled_at  REAL
);
CREATE INDEX inbox_pending ON inbox(chat_id, update_id) WHERE handled_at IS NULL;
CREATE INDEX inbox_handled ON inbox(handled_at) WHERE handled_at IS NOT NULL;

-- A group's sends of the last minute, so that a worker taking the group over
-- keeps its budget (20 a minute) instead of starting a fresh one.
CREATE TABLE group_sends (
    chat_id     INTEGER NOT NULL,
    at          REAL    NOT NULL
);
CREATE INDEX group_sends_by_chat ON group_sends(chat_id, at);

-- The tables changed lately, among which a worker looks for announcements
-- owed (a dead worker's chats with work) without reading every table.
CREATE INDEX tables_by_update ON tables(updated_at);
