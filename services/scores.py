"""Leaderboards and personal figures."""

from __future__ import annotations

from storage import Database, ScoreRow

__all__ = ["Scores"]


class Scores:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def leaderboard(self, chat_id: int) -> dict[str, list[ScoreRow]]:
        """Per game key, the chat's players best first, by games among people."""
        async with self._db.read() as tx:
            rows = await tx.scores.leaderboard(chat_id)
        board: dict[str, list[ScoreRow]] = {}
        for row in rows:
            board.setdefault(row.game, []).append(row)
        return board

    async def stats(self, user_id: int, chat_id: int | None = None) -> list[ScoreRow]:
        """Per game, games among people and games with computers apart."""
        async with self._db.read() as tx:
            return await tx.scores.user_stats(user_id, chat_id)
