"""Telegram out: the table message, the hands in the DMs, and the plumbing
under them (pacing, retries, the ledger of messages sent, orphans)."""
