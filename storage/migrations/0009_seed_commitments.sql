-- Deals nobody can choose (services/fairness.py, scheme koloda-deal-v2): the
-- bot's secret seed of a table, drawn when the table opens; the SHA-256
-- commitment to it, shown in the lobby before anybody else has a say; the
-- players' contributions (a JSON array of strings) mixed into it at the start;
-- and the scheme a game was dealt by (NULL: dealt before schemes were named,
-- the way of koloda-deal-v1).
ALTER TABLE tables ADD COLUMN scheme TEXT;
ALTER TABLE tables ADD COLUMN server_seed TEXT;
ALTER TABLE tables ADD COLUMN seed_commitment TEXT;
ALTER TABLE tables ADD COLUMN contributions TEXT;
