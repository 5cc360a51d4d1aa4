"""Each game's screens (texts, pictures and keys) and what they share."""
