"""Computer players: pure, they see only their seat's view (stdlib and ``games`` only)."""
