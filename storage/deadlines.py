"""Turn deadlines (and a lobby's expiry) in absolute time, and the bot's heartbeat."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from storage.sql import Queries

__all__ = ["LOBBY_SEAT", "DeadlineRow", "Deadlines"]

LOBBY_SEAT = -1
"""The seat number of a lobby's expiry deadline."""


@dataclass(frozen=True, slots=True)
class DeadlineRow:
    table_id: int
    seat: int
    due_at: float
    warn_at: float | None
    """When to warn the player that time runs out; None once warned (or never)."""
    consent: bool
    """The seat's silence is consent (a thrower's pass), not a timeout."""


_SELECT = "SELECT table_id, seat, due_at, warn_at, consent FROM deadlines"


def _row(r: tuple[int, int, float, float | None, int]) -> DeadlineRow:
    return DeadlineRow(r[0], r[1], r[2], r[3], bool(r[4]))


class Deadlines(Queries):
    async def of_table(self, table_id: int) -> list[DeadlineRow]:
        rows = await self._all(f"{_SELECT} WHERE table_id = ? ORDER BY seat", (table_id,))
        return [_row(r) for r in rows]

    async def of_chat(self, chat_id: int) -> list[DeadlineRow]:
        """The deadlines of the chat's tables."""
        rows = await self._all(
            "SELECT d.table_id, d.seat, d.due_at, d.warn_at, d.consent FROM deadlines d"
            " JOIN tables t ON t.id = d.table_id WHERE t.chat_id = ? ORDER BY d.due_at",
            (chat_id,),
        )
        return [_row(r) for r in rows]

    async def all(self) -> list[DeadlineRow]:
        return [_row(r) for r in await self._all(f"{_SELECT} ORDER BY due_at")]

    async def replace(self, table_id: int, rows: Iterable[DeadlineRow]) -> None:
        """The table's deadlines are now exactly ``rows``."""
        await self._run("DELETE FROM deadlines WHERE table_id = ?", (table_id,))
        await self._many(
            "INSERT INTO deadlines (table_id, seat, due_at, warn_at, consent)"
            " VALUES (?, ?, ?, ?, ?)",
            [(table_id, r.seat, r.due_at, r.warn_at, int(r.consent)) for r in rows],
        )

    async def mark_warned(self, table_id: int, seat: int) -> None:
        await self._run(
            "UPDATE deadlines SET warn_at = NULL WHERE table_id = ? AND seat = ?",
            (table_id, seat),
        )

    async def postpone(self, seconds: float, table_ids: Iterable[int] | None = None) -> None:
        """Move running deadlines later: the time the bot was down or held back."""
        if table_ids is None:
            await self._run(
                "UPDATE deadlines SET due_at = due_at + ?, warn_at = warn_at + ?",
                (seconds, seconds),
            )
            return
        await self._many(
            "UPDATE deadlines SET due_at = due_at + ?, warn_at = warn_at + ? WHERE table_id = ?",
            [(seconds, seconds, t) for t in table_ids],
        )

    # --- heartbeat -------------------------------------------------------------

    async def alive_at(self) -> float | None:
        """When the bot was last known to be running."""
        row = await self._one("SELECT value FROM meta WHERE key = 'alive_at'")
        return None if row is None else float(row[0])

    async def set_alive_at(self, when: float) -> None:
        await self._run(
            "INSERT INTO meta (key, value) VALUES ('alive_at', ?)"
            " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (repr(when),),
        )
