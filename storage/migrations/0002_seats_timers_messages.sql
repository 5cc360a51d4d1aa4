-- Seats that are human or computer, absent players, turn deadlines, table settings and why a
-- table ended; who made each move; scores apart for games with computers.  The Telegram
-- layer's bookkeeping (the group message, the DM hand messages) moves out of the game tables
-- into tables of its own.

-- The language Telegram reports for a user (his DMs use it until he picks one).
ALTER TABLE users ADD COLUMN locale TEXT;

-- Table settings, frozen when the game starts.  Tables started before timers existed keep
-- playing without one (0 seconds: no timer).
ALTER TABLE tables ADD COLUMN turn_seconds INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tables ADD COLUMN on_absence TEXT NOT NULL DEFAULT 'computer'
    CHECK (on_absence IN ('computer', 'remove'));
-- Why a table ended without a result: cancelled, expired (a lobby nobody started), or the
-- bot was removed from the chat.  NULL while open, and for games played to their end.
ALTER TABLE tables ADD COLUMN end_reason TEXT
    CHECK (end_reason IN ('cancelled', 'expired', 'bot_removed'));
UPDATE tables SET end_reason = 'cancelled' WHERE status = 'cancelled';

-- The group's lobby/table message, and how far the group has been told of the moves.
CREATE TABLE table_messages (
    table_id    INTEGER PRIMARY KEY REFERENCES tables(id) ON DELETE CASCADE,
    message_id  INTEGER,                        -- NULL: not posted (yet, or any more)
    kind        TEXT    NOT NULL DEFAULT 'text' CHECK (kind IN ('text', 'photo')),
    digest      TEXT,                           -- digest of what it shows
    announced   INTEGER NOT NULL DEFAULT 0,     -- moves whose announcements were posted
    pinned      INTEGER NOT NULL DEFAULT 0      -- the bot pinned it (while the game runs)
) WITHOUT ROWID;
INSERT INTO table_messages (table_id, message_id, announced)
    SELECT id, message_id, moves FROM tables;
ALTER TABLE tables DROP COLUMN message_id;

-- Each seat's DM hand message while a game is played.
CREATE TABLE hand_messages (
    table_id    INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL,
    chat_id     INTEGER NOT NULL,               -- the DM (the player's user id)
    message_id  INTEGER NOT NULL,
    digest      TEXT,                           -- digest of what it shows
    at_move     INTEGER,                        -- the move count its buttons were drawn at;
                                                -- NULL: it has no buttons
    acting      INTEGER NOT NULL DEFAULT 0,     -- drawn while the seat could act
    PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;
INSERT INTO hand_messages (table_id, seat, chat_id, message_id, digest, at_move, acting)
    SELECT table_id, seat, user_id, hand_message_id, hand_digest, keyboard, acting
    FROM seats WHERE hand_message_id IS NOT NULL;

-- Seats: a human (user_id) or a computer (its name number); absence.
CREATE TABLE seats_v2 (
    table_id    INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL,
    user_id     INTEGER REFERENCES users(id),   -- a human player
    computer    INTEGER,                        -- a computer player's name number
    timeouts    INTEGER NOT NULL DEFAULT 0,     -- turns in a row his timer ran out
    absent      INTEGER NOT NULL DEFAULT 0,     -- marked absent, has not pressed since
    PRIMARY KEY (table_id, seat),
    CHECK ((user_id IS NULL) != (computer IS NULL))
) WITHOUT ROWID;
INSERT INTO seats_v2 (table_id, seat, user_id) SELECT table_id, seat, user_id FROM seats;
DROP TABLE seats;
ALTER TABLE seats_v2 RENAME TO seats;
CREATE UNIQUE INDEX seats_one_per_user ON seats(table_id, user_id) WHERE user_id IS NOT NULL;
CREATE INDEX seats_by_user ON seats(user_id) WHERE user_id IS NOT NULL;

-- Who made a move: the seat's player, a computer, the turn timer, or an admin (removal).
ALTER TABLE moves ADD COLUMN actor TEXT NOT NULL DEFAULT 'player'
    CHECK (actor IN ('player', 'computer', 'timer', 'admin'));

-- A seat's turn deadline (seat -1: a lobby's expiry), in absolute time.
CREATE TABLE deadlines (
    table_id    INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL,
    due_at      REAL    NOT NULL,               -- seconds since the epoch
    warn_at     REAL,                           -- when to warn the player; NULL: warned
    consent     INTEGER NOT NULL DEFAULT 0,     -- silence is consent, not a timeout
    PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;
CREATE INDEX deadlines_by_due ON deadlines(due_at);

-- Small facts about the bot itself, e.g. when it was last seen running.
CREATE TABLE meta (
    key         TEXT PRIMARY KEY,
    value       TEXT NOT NULL
) WITHOUT ROWID;

-- Scores: games played with computers at the table are counted apart.
CREATE TABLE scores_v2 (
    chat_id         INTEGER NOT NULL REFERENCES chats(id) ON UPDATE CASCADE,
    game            TEXT    NOT NULL,
    user_id         INTEGER NOT NULL REFERENCES users(id),
    with_computers  INTEGER NOT NULL DEFAULT 0,
    played          INTEGER NOT NULL DEFAULT 0,
    wins            INTEGER NOT NULL DEFAULT 0,
    losses          INTEGER NOT NULL DEFAULT 0,
    draws           INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (chat_id, game, user_id, with_computers)
) WITHOUT ROWID;
INSERT INTO scores_v2 (chat_id, game, user_id, played, wins, losses, draws)
    SELECT chat_id, game, user_id, played, wins, losses, draws FROM scores;
DROP TABLE scores;
ALTER TABLE scores_v2 RENAME TO scores;
CREATE INDEX scores_by_user ON scores(user_id);
