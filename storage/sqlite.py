"""The SQLite backend: one embedded file, the default.

One aiosqlite connection serves the whole bot; an asyncio lock hands it to one
unit of work at a time (SQLite has a single writer anyway), and every
transaction starts with ``BEGIN IMMEDIATE`` so that it holds the write lock
from its first read and a version check inside it cannot be overtaken.  The
schema's version is ``PRAGMA user_version``.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any

import aiosqlite

from storage.connection import SQLITE, DatabaseError, Dialect, IntegrityError
from storage.db import Database, Tx, check_version, migrations, statements
from storage.url import DatabaseUrl

__all__ = ["SqliteConnection", "SqliteDatabase"]

log = logging.getLogger(__name__)

_ROWS_PER_FETCH = 64  # aiosqlite.connect's own default


class SqliteConnection:
    """The one connection, as the query classes see it."""

    dialect: Dialect = SQLITE
    locks_rows = False

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        # One call into aiosqlite's thread: the statement and its rows together.
        try:
            return list(await self._conn.execute_fetchall(sql, params))
        except sqlite3.IntegrityError as exc:
            raise IntegrityError(str(exc), unique="UNIQUE" in str(exc)) from exc

    async def execute_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        try:
            await self._conn.executemany(sql, rows)
        except sqlite3.IntegrityError as exc:
            raise IntegrityError(str(exc), unique="UNIQUE" in str(exc)) from exc


class SqliteDatabase(Database):
    dialect = SQLITE

    def __init__(self, url: DatabaseUrl, conn: aiosqlite.Connection, now: Callable[[], float]):
        self.url = url
        self._conn = conn
        self._connection = SqliteConnection(conn)
        self._now = now
        self._lock = asyncio.Lock()

    @classmethod
    async def connect(cls, url: DatabaseUrl, now: Callable[[], float]) -> SqliteDatabase:
        path = url.path
        assert path is not None
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            raw = await asyncio.to_thread(
                sqlite3.connect, path, isolation_level=None, check_same_thread=False
            )
        except sqlite3.Error as exc:
            raise DatabaseError(str(exc)) from exc
        # The file is open before aiosqlite's worker thread starts: a failed
        # open inside that thread is reported to the loop after the await has
        # already raised, and at start-up the loop may be closed by then.
        conn = await aiosqlite.Connection(lambda: raw, _ROWS_PER_FETCH)
        try:
            await conn.execute("PRAGMA journal_mode = WAL")
            await conn.execute("PRAGMA synchronous = NORMAL")
            await conn.execute("PRAGMA foreign_keys = ON")
            await conn.execute("PRAGMA busy_timeout = 5000")
            db = cls(url, conn, now)
            await db._migrate()
        except sqlite3.Error as exc:
            await conn.close()
            raise DatabaseError(str(exc)) from exc
        except BaseException:
            await conn.close()
            raise
        return db

    async def close(self) -> None:
        async with self._lock:
            await self._conn.close()

    async def schema_version(self) -> int:
        async with self._conn.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        assert row is not None
        return int(row[0])

    async def _migrate(self) -> None:
        current = await self.schema_version()
        check_version(current)
        for number, sql in migrations()[current:]:
            log.info("applying database migration %04d", number)
            # executescript would COMMIT on its own; run statement by statement
            # inside one explicit transaction together with the version bump.
            await self._conn.execute("BEGIN IMMEDIATE")
            try:
                for statement in statements(sql):
                    await self._conn.execute(statement)
                await self._conn.execute(f"PRAGMA user_version = {number:d}")
                await self._conn.execute("COMMIT")
            except BaseException:
                await self._conn.execute("ROLLBACK")
                raise

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Tx]:
        """No transaction is opened: holding the connection's lock already
        keeps this process's writers out, and other processes only ever see
        committed states."""
        async with self._lock:
            yield Tx(self._connection, self._now)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        async with self._lock:
            await self._begin()
            try:
                yield Tx(self._connection, self._now)
            except BaseException:
                await self._conn.execute("ROLLBACK")
                raise
            await self._conn.execute("COMMIT")

    async def _begin(self) -> None:
        """BEGIN, even for a caller cancelled meanwhile (a stop ending its
        tasks): aiosqlite's thread runs a statement once handed it, so a BEGIN
        given up on would leave the connection inside a transaction for
        whoever comes next.  Such a BEGIN is waited for and rolled back."""
        begun = asyncio.ensure_future(self._conn.execute("BEGIN IMMEDIATE"))
        try:
            await asyncio.shield(begun)
        except asyncio.CancelledError:
            await asyncio.wait([begun])
            if not begun.cancelled() and begun.exception() is None:
                await self._conn.execute("ROLLBACK")
            raise
