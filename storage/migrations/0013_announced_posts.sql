-- How many posts of the move after `announced` the group was shown.  A move may
-- call for several (a round's score sheet, the result, the comparison of a
-- duplicate deal); whoever delivers the chat next (another worker, or this one
-- after a restart) goes on after the last one made instead of posting it again.
ALTER TABLE table_messages ADD COLUMN announced_posts INTEGER NOT NULL DEFAULT 0;
