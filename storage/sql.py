"""The base of every query class: one connection, rows as tuples, the clock for timestamps."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from typing import Any

import aiosqlite

__all__ = ["Queries"]


class Queries:
    """Queries of one area, run on the connection of the transaction that made them."""

    def __init__(self, conn: aiosqlite.Connection, now: Callable[[], float]) -> None:
        self._conn = conn
        self._now = now

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None:
        async with self._conn.execute(sql, params) as cur:
            row: Any = await cur.fetchone()
        return row  # type: ignore[no-any-return]

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        async with self._conn.execute(sql, params) as cur:
            return list(await cur.fetchall())

    async def _run(self, sql: str, params: Sequence[Any] = ()) -> int:
        async with self._conn.execute(sql, params) as cur:
            return cur.rowcount

    async def _many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self._conn.executemany(sql, rows)
