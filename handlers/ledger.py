"""The Telegram layer's own records: which message shows a table or a hand.

Kept in the bot's database (``storage.messages``) but owned by this layer: the
game tables know nothing of message ids.  Nothing else writes these records,
so each is read from the database once and then kept in memory, written
through on every change, until the table is forgotten.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from storage import Database, HandMessageRow, TableMessageRow

__all__ = ["HandMessageRow", "Ledger", "TableMessageRow"]


class Ledger:
    def __init__(self, db: Database) -> None:
        self._db = db
        self._tables: dict[int, TableMessageRow] = {}
        self._hands: dict[int, dict[int, HandMessageRow]] = {}

    async def table_message(self, table_id: int) -> TableMessageRow:
        row = self._tables.get(table_id)
        if row is None:
            async with self._db.read() as tx:
                row = self._tables[table_id] = await tx.messages.table_message(table_id)
        return row

    async def set_table_message(
        self, table_id: int, message_id: int | None, kind: str, digest: str | None
    ) -> None:
        async with self._db.transaction() as tx:
            await tx.messages.set_table_message(table_id, message_id, kind, digest)
        if (row := self._tables.get(table_id)) is not None:
            self._tables[table_id] = replace(row, message_id=message_id, kind=kind, digest=digest)

    async def set_pinned(self, table_id: int, pinned: bool) -> None:
        async with self._db.transaction() as tx:
            await tx.messages.set_pinned(table_id, pinned)
        if (row := self._tables.get(table_id)) is not None:
            self._tables[table_id] = replace(row, pinned=pinned)

    async def set_announced(self, table_id: int, moves: int) -> None:
        async with self._db.transaction() as tx:
            await tx.messages.set_announced(table_id, moves)
        if (row := self._tables.get(table_id)) is not None:
            self._tables[table_id] = replace(row, announced=max(row.announced, moves))

    async def hands(self, table_id: int) -> dict[int, HandMessageRow]:
        rows = self._hands.get(table_id)
        if rows is None:
            async with self._db.read() as tx:
                rows = self._hands[table_id] = await tx.messages.hands(table_id)
        return dict(rows)

    async def save_hands(self, rows: Iterable[HandMessageRow]) -> None:
        rows = list(rows)
        if not rows:
            return
        async with self._db.transaction() as tx:
            for row in rows:
                await tx.messages.set_hand(row)
        for row in rows:
            if (kept := self._hands.get(row.table_id)) is not None:
                kept[row.seat] = row

    def forget(self, table_id: int) -> None:
        """Drop what is kept of a table (it is read again if asked for)."""
        self._tables.pop(table_id, None)
        self._hands.pop(table_id, None)

    async def to_resume(self, since: float) -> list[int]:
        """Tables whose messages may be behind: open ones, those owing
        announcements, and those changed since ``since``."""
        async with self._db.read() as tx:
            return await tx.messages.tables_to_resume(since)
