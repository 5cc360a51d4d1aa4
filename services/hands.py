"""Bookkeeping of the DM hand messages (which message, what it shows)."""

from __future__ import annotations

from storage import Database

__all__ = ["Hands"]


class Hands:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def record(
        self,
        table_id: int,
        seat: int,
        *,
        message_id: int | None,
        digest: str | None,
        keyboard: int | None,
        acting: bool,
    ) -> None:
        async with self._db.transaction() as tx:
            await tx.set_hand(
                table_id,
                seat,
                message_id=message_id,
                digest=digest,
                keyboard=keyboard,
                acting=acting,
            )
