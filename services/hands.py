"""Bookkeeping of the DM hand messages (which message, what it shows)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from storage import Database

__all__ = ["HandRecord", "Hands"]


@dataclass(frozen=True, slots=True)
class HandRecord:
    seat: int
    message_id: int | None
    digest: str | None
    keyboard: int | None
    acting: bool


class Hands:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def record(self, table_id: int, records: Sequence[HandRecord]) -> None:
        """Remember what each listed seat's DM now shows, in one transaction."""
        if not records:
            return
        async with self._db.transaction() as tx:
            for r in records:
                await tx.set_hand(
                    table_id,
                    r.seat,
                    message_id=r.message_id,
                    digest=r.digest,
                    keyboard=r.keyboard,
                    acting=r.acting,
                )
