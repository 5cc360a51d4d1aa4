"""The Telegram layer's own records: which message shows a table or a hand.

Kept in the bot's database (``storage.messages``) but owned by this layer: the
game tables know nothing of message ids.
"""

from __future__ import annotations

from collections.abc import Iterable

from storage import Database, HandMessageRow, TableMessageRow

__all__ = ["HandMessageRow", "Ledger", "TableMessageRow"]


class Ledger:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def table_message(self, table_id: int) -> TableMessageRow:
        async with self._db.read() as tx:
            return await tx.messages.table_message(table_id)

    async def set_table_message(
        self, table_id: int, message_id: int | None, kind: str, digest: str | None
    ) -> None:
        async with self._db.transaction() as tx:
            await tx.messages.set_table_message(table_id, message_id, kind, digest)

    async def set_pinned(self, table_id: int, pinned: bool) -> None:
        async with self._db.transaction() as tx:
            await tx.messages.set_pinned(table_id, pinned)

    async def set_announced(self, table_id: int, moves: int) -> None:
        async with self._db.transaction() as tx:
            await tx.messages.set_announced(table_id, moves)

    async def hands(self, table_id: int) -> dict[int, HandMessageRow]:
        async with self._db.read() as tx:
            return await tx.messages.hands(table_id)

    async def save_hands(self, rows: Iterable[HandMessageRow]) -> None:
        rows = list(rows)
        if not rows:
            return
        async with self._db.transaction() as tx:
            for row in rows:
                await tx.messages.set_hand(row)

    async def to_resume(self, since: float) -> list[int]:
        """Tables whose messages may be behind: open ones, those owing
        announcements, and those changed since ``since``."""
        async with self._db.read() as tx:
            return await tx.messages.tables_to_resume(since)
