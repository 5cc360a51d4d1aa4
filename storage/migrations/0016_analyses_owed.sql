-- The analyses the bot promised ("I will send it to your DM") and has not sent
-- yet.  An analysis runs in memory for up to half a minute: a restart while it
-- runs (a deployment, a crash) starts it again from this record, which goes
-- once the analysis is sent.
CREATE TABLE analyses_owed (
    table_id INTEGER NOT NULL REFERENCES tables(id),
    user_id INTEGER NOT NULL,
    lang TEXT NOT NULL,
    asked_at REAL NOT NULL,
    PRIMARY KEY (table_id, user_id)
);
