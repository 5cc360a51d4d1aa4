-- Who ended a table without a result: the person whose /cancel (or Cancel
-- button) closed it, so that its message can say by whom.  NULL for a table
-- that ended by itself (expired, everybody left, the bot removed) and for
-- tables cancelled before this column.
ALTER TABLE tables ADD COLUMN ended_by INTEGER;
