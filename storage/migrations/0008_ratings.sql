-- Skill ratings (services/ratings), derived from the stored results: every row
-- here can be dropped and rebuilt by `python -m bot.ratings recompute`.

-- Every finished game the ratings have read, rated or not (and why not), so
-- that each is rated once, in order, after a restart too.
CREATE TABLE rated_games (
    table_id    INTEGER PRIMARY KEY REFERENCES tables(id) ON DELETE CASCADE,
    chat_id     INTEGER NOT NULL,
    family      TEXT NOT NULL,          -- 'durak/perevodnoy', 'joker'
    skipped     TEXT,                   -- NULL: rated; else why not ('trivial', ...)
    company     TEXT NOT NULL DEFAULT '', -- who played, for the farming cap
    day         TEXT NOT NULL DEFAULT '', -- UTC date of the finish
    across      INTEGER NOT NULL DEFAULT 0, -- 1: it counted across chats
    finished_at REAL NOT NULL
);
CREATE INDEX rated_games_company ON rated_games (company, day);

-- The rating log: one row per rated player per game and scope. A rating is
-- its latest row; standings, peaks and histories are read from here.
CREATE TABLE rating_events (
    id           INTEGER PRIMARY KEY,
    table_id     INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    scope        INTEGER NOT NULL,      -- the chat; 0 across chats
    season       TEXT NOT NULL,         -- 'YYYY-MM' in a chat, '' across chats
    family       TEXT NOT NULL,
    who          TEXT NOT NULL,         -- 'u<user id>' or 'c<level>'
    share        REAL NOT NULL,         -- the part of the seat's moves its player made
    mu_before    REAL NOT NULL,
    sigma_before REAL NOT NULL,
    mu_after     REAL NOT NULL,
    sigma_after  REAL NOT NULL,
    at           REAL NOT NULL
);
CREATE INDEX rating_events_rating ON rating_events (scope, season, family, who, id);
CREATE INDEX rating_events_table ON rating_events (table_id);
CREATE INDEX rating_events_player ON rating_events (who, scope, id);

-- Achievements: each person gets each one once (the first game that earned it).
CREATE TABLE achievements (
    user_id  INTEGER NOT NULL,
    code     TEXT NOT NULL,
    table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    chat_id  INTEGER NOT NULL,
    at       REAL NOT NULL,
    PRIMARY KEY (user_id, code)
) WITHOUT ROWID;

-- Season ends told to their chat (once, across restarts).
CREATE TABLE season_ends (
    chat_id   INTEGER NOT NULL,
    season    TEXT NOT NULL,
    posted_at REAL NOT NULL,
    PRIMARY KEY (chat_id, season)
) WITHOUT ROWID;
