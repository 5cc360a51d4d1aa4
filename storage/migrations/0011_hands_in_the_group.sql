-- Where a person's hands go: 'dm' (the private chat with the bot), 'group' (an
-- ephemeral message in the table's group, seen by him alone), or NULL: the DM
-- when it works, else the group.
ALTER TABLE users ADD COLUMN hand_in TEXT CHECK (hand_in IN ('dm', 'group'));

-- Whether the bot is an administrator of the group (from its my_chat_member
-- updates): an administrator may send ephemeral messages at any time, any other
-- bot only in answer to a press or an ephemeral command a few seconds old.
ALTER TABLE chats ADD COLUMN bot_admin INTEGER NOT NULL DEFAULT 0;
