"""The SQLite database: connection settings, migrations and transactions.

One aiosqlite connection serves the whole bot; an asyncio lock hands it to one
transaction at a time (SQLite has a single writer anyway), and every
transaction starts with ``BEGIN IMMEDIATE`` so that it holds the write lock
from its first read and a version check inside it cannot be overtaken.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path

import aiosqlite

from storage.deadlines import Deadlines
from storage.messages import Messages
from storage.people import People
from storage.ratings import Ratings
from storage.scores import Scores
from storage.tables import Tables

__all__ = ["Database", "DatabaseTooNewError", "Tx", "migrations"]

log = logging.getLogger(__name__)


class DatabaseTooNewError(RuntimeError):
    """The file was written by a newer Koloda; refusing to touch it."""


def migrations() -> list[tuple[int, str]]:
    """``(number, sql)`` of every migration, in order.  Files are named
    ``NNNN_what.sql``, numbered from 1 without gaps, and never edited once
    released: a change is a new file."""
    folder = resources.files("storage") / "migrations"
    found = sorted(
        (int(entry.name.split("_", 1)[0]), entry.read_text(encoding="utf-8"))
        for entry in folder.iterdir()
        if entry.name.endswith(".sql")
    )
    numbers = [n for n, _ in found]
    if numbers != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migrations must be numbered 1..N without gaps, got {numbers}")
    return found


class Tx:
    """The queries of one unit of work, by area; they share its connection."""

    def __init__(self, conn: aiosqlite.Connection, now: Callable[[], float]) -> None:
        self.people = People(conn, now)
        self.tables = Tables(conn, now)
        self.deadlines = Deadlines(conn, now)
        self.scores = Scores(conn, now)
        self.messages = Messages(conn, now)
        self.ratings = Ratings(conn, now)


class Database:
    def __init__(self, conn: aiosqlite.Connection, now: Callable[[], float]) -> None:
        self._conn = conn
        self._now = now
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path, *, now: Callable[[], float] = time.time) -> Database:
        """Open (creating file and folder if needed) and migrate to the latest schema.
        ``now`` gives the time stamped on rows (the bot's clock)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(path, isolation_level=None)
        try:
            await conn.execute("PRAGMA journal_mode = WAL")
            await conn.execute("PRAGMA synchronous = NORMAL")
            await conn.execute("PRAGMA foreign_keys = ON")
            await conn.execute("PRAGMA busy_timeout = 5000")
            db = cls(conn, now)
            await db._migrate()
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
        known = migrations()
        current = await self.schema_version()
        if current > len(known):
            raise DatabaseTooNewError(
                f"database schema version {current} is newer than this code's {len(known)}"
            )
        for number, sql in known[current:]:
            log.info("applying database migration %04d", number)
            # executescript would COMMIT on its own; run statement by statement
            # inside one explicit transaction together with the version bump.
            await self._conn.execute("BEGIN IMMEDIATE")
            try:
                for statement in _statements(sql):
                    await self._conn.execute(statement)
                await self._conn.execute(f"PRAGMA user_version = {number:d}")
                await self._conn.execute("COMMIT")
            except BaseException:
                await self._conn.execute("ROLLBACK")
                raise

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Tx]:
        """Queries that change nothing.  No transaction is opened: holding the
        connection's lock already keeps this process's writers out, and other
        processes only ever see committed states."""
        async with self._lock:
            yield Tx(self._conn, self._now)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        """One atomic unit of work; rolled back if the block raises."""
        async with self._lock:
            await self._begin()
            try:
                yield Tx(self._conn, self._now)
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


def _statements(sql: str) -> list[str]:
    """Split a migration into statements (our migrations hold no triggers)."""
    lines = [line.split("--", 1)[0] for line in sql.splitlines()]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]
