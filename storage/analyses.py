"""The analyses promised to people and not sent yet (:mod:`services.analysis`)."""

from __future__ import annotations

from dataclasses import dataclass

from storage.sql import Queries

__all__ = ["AnalysesOwed", "OwedAnalysis"]


@dataclass(frozen=True, slots=True)
class OwedAnalysis:
    table_id: int
    user_id: int
    lang: str
    """The language he asked in, which the analysis is written in."""


class AnalysesOwed(Queries):
    async def owe(self, table_id: int, user_id: int, lang: str) -> None:
        """Record the promise (asked again: the first one stands)."""
        await self._run(
            "INSERT INTO analyses_owed (table_id, user_id, lang, asked_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (table_id, user_id) DO NOTHING",
            (table_id, user_id, lang, self._now()),
        )

    async def give_up(self, before: float) -> None:
        """Forget those asked for before ``before``."""
        await self._run("DELETE FROM analyses_owed WHERE asked_at < ?", (before,))

    async def owed(self) -> list[OwedAnalysis]:
        """Those not sent yet, the oldest first."""
        rows = await self._all(
            "SELECT table_id, user_id, lang FROM analyses_owed ORDER BY asked_at, table_id, user_id"
        )
        return [OwedAnalysis(int(r[0]), int(r[1]), str(r[2])) for r in rows]

    async def sent(self, table_id: int, user_id: int) -> None:
        await self._run(
            "DELETE FROM analyses_owed WHERE table_id = ? AND user_id = ?", (table_id, user_id)
        )
