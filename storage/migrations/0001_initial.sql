-- Users, chats, tables with their seats, the append-only move log, results and scores.

CREATE TABLE users (
    id          INTEGER PRIMARY KEY,            -- Telegram user id
    first_name  TEXT    NOT NULL,
    username    TEXT,
    language    TEXT,                           -- chosen with /language in the DM
    dm_ok       INTEGER NOT NULL DEFAULT 0,     -- the bot may message the user
    updated_at  REAL    NOT NULL
);

CREATE TABLE chats (
    id          INTEGER PRIMARY KEY,            -- Telegram chat id
    kind        TEXT    NOT NULL,               -- private, group, supergroup
    title       TEXT,
    language    TEXT,
    updated_at  REAL    NOT NULL
);

CREATE TABLE tables (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_id     INTEGER NOT NULL REFERENCES chats(id) ON UPDATE CASCADE,
    thread_id   INTEGER NOT NULL DEFAULT 0,     -- forum topic, 0 outside forums
    game        TEXT    NOT NULL,
    rules       TEXT    NOT NULL,               -- JSON of the game's Rules
    status      TEXT    NOT NULL CHECK (status IN ('lobby', 'playing', 'finished', 'cancelled')),
    creator_id  INTEGER NOT NULL REFERENCES users(id),
    seed        INTEGER,
    state       TEXT,                           -- JSON dump of the engine
    version     INTEGER NOT NULL DEFAULT 0,     -- bumped by every change; optimistic lock
    moves       INTEGER NOT NULL DEFAULT 0,     -- moves applied so far
    message_id  INTEGER,                        -- the group's lobby / table message
    previous_id INTEGER REFERENCES tables(id),  -- the game this one is a rematch of
    created_at  REAL    NOT NULL,
    updated_at  REAL    NOT NULL
);
CREATE UNIQUE INDEX tables_one_open_per_chat
    ON tables(chat_id, thread_id) WHERE status IN ('lobby', 'playing');
CREATE INDEX tables_by_status ON tables(status);

CREATE TABLE seats (
    table_id        INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    seat            INTEGER NOT NULL,
    user_id         INTEGER NOT NULL REFERENCES users(id),
    hand_message_id INTEGER,                    -- the DM message with the hand
    hand_digest     TEXT,                       -- digest of what that message shows
    keyboard        INTEGER,                    -- table version its buttons were made at
    acting          INTEGER NOT NULL DEFAULT 0, -- the seat could act when last rendered
    PRIMARY KEY (table_id, seat),
    UNIQUE (table_id, user_id)
) WITHOUT ROWID;
CREATE INDEX seats_by_user ON seats(user_id);

CREATE TABLE moves (
    table_id    INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    n           INTEGER NOT NULL,               -- 1, 2, ... per table
    seat        INTEGER NOT NULL,
    action      TEXT    NOT NULL,               -- the engine's action code
    events      TEXT    NOT NULL,               -- JSON list of public events
    at          REAL    NOT NULL,
    PRIMARY KEY (table_id, n)
) WITHOUT ROWID;

CREATE TABLE results (
    table_id    INTEGER PRIMARY KEY REFERENCES tables(id),
    chat_id     INTEGER NOT NULL REFERENCES chats(id) ON UPDATE CASCADE,
    game        TEXT    NOT NULL,
    outcome     TEXT    NOT NULL,               -- JSON of games.core.Outcome
    finished_at REAL    NOT NULL
);

CREATE TABLE scores (
    chat_id     INTEGER NOT NULL REFERENCES chats(id) ON UPDATE CASCADE,
    game        TEXT    NOT NULL,
    user_id     INTEGER NOT NULL REFERENCES users(id),
    played      INTEGER NOT NULL DEFAULT 0,
    wins        INTEGER NOT NULL DEFAULT 0,
    losses      INTEGER NOT NULL DEFAULT 0,
    draws       INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (chat_id, game, user_id)
) WITHOUT ROWID;
CREATE INDEX scores_by_user ON scores(user_id);
