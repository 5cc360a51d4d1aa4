-- A chat may turn pictures off (a score sheet then comes as text).
ALTER TABLE chats ADD COLUMN pictures INTEGER NOT NULL DEFAULT 1;
