-- The sub-menu a hand shows (a joker's "how to play it", a card's targets):
-- kept in memory only, a restart closed it under the player's finger.  NULL:
-- none, or a hand recorded before this column.
ALTER TABLE hand_messages ADD COLUMN focus TEXT;
