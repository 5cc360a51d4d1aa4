"""The base of every query class: one connection, rows as tuples, the clock for timestamps."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from typing import Any

import aiosqlite

__all__ = ["Queries"]


class Queries:
    """Queries of one area, run on the connection of the transaction that made them.

    Each helper is one call into aiosqlite's thread: a statement and its rows
    come back together (``execute_fetchall``), never as an open cursor that
    costs two more round trips (fetch, close).  Every statement of a move's
    transaction is such a round trip, and the transaction holds the one
    connection for all of them."""

    def __init__(self, conn: aiosqlite.Connection, now: Callable[[], float]) -> None:
        self._conn = conn
        self._now = now

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None:
        """The row of a query that finds at most one."""
        rows = await self._all(sql, params)
        return rows[0] if rows else None

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return list(await self._conn.execute_fetchall(sql, params))

    async def _run(self, sql: str, params: Sequence[Any] = ()) -> None:
        await self._conn.execute_fetchall(sql, params)

    async def _changed(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Rows that an INSERT, UPDATE or DELETE changed (by ``RETURNING``)."""
        return len(await self._all(f"{sql} RETURNING 1", params))

    async def _many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self._conn.executemany(sql, rows)
