-- Whether the bot's status in the group is known: from a my_chat_member update,
-- or asked of Telegram (getChatMember).  A group whose administrator the bot
-- became before 0011 recorded it, or that never sent the update, read
-- "member" for ever, and its players never got their hands in the group when
-- their turn came; such a group is now asked once.  An administrator's flag
-- can only have come from an update.
ALTER TABLE chats ADD COLUMN bot_admin_known INTEGER NOT NULL DEFAULT 0;
UPDATE chats SET bot_admin_known = 1 WHERE bot_admin = 1;
