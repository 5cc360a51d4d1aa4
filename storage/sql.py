"""The base of every query class: one connection, rows as tuples, the clock for timestamps."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from storage.connection import Connection

__all__ = ["Queries"]


class Queries:
    """Queries of one area, run on the connection of the transaction that made them.

    Each helper is one call to the backend: a statement and its rows come back
    together, never as an open cursor that costs more round trips (on SQLite,
    to aiosqlite's thread; on PostgreSQL, to the server).  Every statement of a
    move's transaction is such a round trip, and the transaction holds its
    connection for all of them.  The SQL is SQLite's, with ``?`` parameters;
    what PostgreSQL spells differently comes from ``self._dialect``."""

    def __init__(self, conn: Connection, now: Callable[[], float]) -> None:
        self._conn = conn
        self._dialect = conn.dialect
        self._now = now

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> Any | None:
        """The row of a query that finds at most one."""
        rows = await self._conn.fetch(sql, params)
        return rows[0] if rows else None

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return await self._conn.fetch(sql, params)

    async def _run(self, sql: str, params: Sequence[Any] = ()) -> None:
        await self._conn.fetch(sql, params)

    async def _changed(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Rows that an INSERT, UPDATE or DELETE changed (by ``RETURNING``)."""
        return len(await self._conn.fetch(f"{sql} RETURNING 1", params))

    async def _many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self._conn.execute_many(sql, rows)
