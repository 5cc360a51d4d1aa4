"""The PostgreSQL backend, on psycopg 3 and its connection pool.

Every unit of work takes a connection of the pool for its duration.  A
:meth:`~PostgresDatabase.transaction` is ``BEGIN`` ... ``COMMIT`` at READ
COMMITTED, and a table read in it is locked (``SELECT ... FOR UPDATE OF t``,
:meth:`storage.connection.Dialect.row_lock`) until the commit: the moves of
one table are serialized by the database, whichever process or connection
makes them, and the version check of ``tables.update`` still refuses a writer
that read an older state.  A :meth:`~PostgresDatabase.read` is a REPEATABLE
READ, READ ONLY transaction, so that its queries see one state.

The schema's version is the one row of ``schema_version``; migrations run under
an advisory lock, so that processes starting together apply each once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager, suppress
from typing import Any

import psycopg
from psycopg import errors
from psycopg.pq import TransactionStatus
from psycopg_pool import AsyncConnectionPool

from storage.connection import POSTGRES, DatabaseError, Dialect, IntegrityError
from storage.db import Database, Tx, check_version, migrations, statements
from storage.translate import postgres_ddl, postgres_query
from storage.url import DatabaseUrl

__all__ = ["POOL_SIZE", "PostgresConnection", "PostgresDatabase"]

log = logging.getLogger(__name__)

POOL_SIZE = 10
"""Connections a process keeps at most: units of work of different tables
run side by side, one connection each."""
MIGRATION_LOCK = 0x6B6F6C6F6461
"""The advisory lock key held while migrating ("koloda")."""

Conn = psycopg.AsyncConnection[tuple[Any, ...]]


class PostgresConnection:
    """A pooled connection, as the query classes see it."""

    dialect: Dialect = POSTGRES

    def __init__(self, conn: Conn, *, locks_rows: bool) -> None:
        self._conn = conn
        self.locks_rows = locks_rows

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        try:
            cursor = await self._conn.execute(postgres_query(sql), params)
        except errors.IntegrityError as exc:
            raise IntegrityError(str(exc), unique=isinstance(exc, errors.UniqueViolation)) from exc
        return await cursor.fetchall() if cursor.description is not None else []

    async def execute_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if not rows:
            return
        try:
            async with self._conn.cursor() as cursor:
                await cursor.executemany(postgres_query(sql), rows)
        except errors.IntegrityError as exc:
            raise IntegrityError(str(exc), unique=isinstance(exc, errors.UniqueViolation)) from exc


class PostgresDatabase(Database):
    dialect = POSTGRES

    def __init__(
        self, url: DatabaseUrl, pool: AsyncConnectionPool[Conn], now: Callable[[], float]
    ) -> None:
        self.url = url
        self._pool = pool
        self._now = now

    @classmethod
    async def connect(cls, url: DatabaseUrl, now: Callable[[], float]) -> PostgresDatabase:
        # One connection first: its failure says why (refused, no such
        # database, bad password) where a pool would only time out.
        try:
            first = await psycopg.AsyncConnection.connect(url.url, autocommit=True)
        except psycopg.Error as exc:
            raise DatabaseError(" ".join(str(exc).split())) from exc
        try:
            await _migrate(first)
        except psycopg.Error as exc:
            raise DatabaseError(" ".join(str(exc).split())) from exc
        finally:
            await first.close()
        pool: AsyncConnectionPool[Conn] = AsyncConnectionPool(
            url.url,
            connection_class=psycopg.AsyncConnection[tuple[Any, ...]],
            kwargs={"autocommit": True},
            min_size=1,
            max_size=POOL_SIZE,
            open=False,
            name="koloda",
        )
        try:
            await pool.open(wait=True, timeout=30)
        except BaseException:
            await pool.close()
            raise
        return cls(url, pool, now)

    async def close(self) -> None:
        await self._pool.close()

    async def schema_version(self) -> int:
        async with self._pool.connection() as conn:
            return await _version(conn)

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Tx]:
        async with self._pool.connection() as conn:
            await conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            try:
                yield Tx(PostgresConnection(conn, locks_rows=False), self._now)
            finally:
                await _end(conn, "COMMIT")

    async def listen(self, channel: str, wake: Callable[[str], None]) -> None:
        """On a connection of its own (a pooled one would be handed to a unit
        of work), reconnecting after a failure: what was notified while it was
        away is lost, so a listener also looks for work now and then."""
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(self.url.url, autocommit=True)
                try:
                    await conn.execute(f'LISTEN "{channel}"')
                    wake("")  # listening again: whatever was missed, look
                    async for notice in conn.notifies():
                        wake(notice.payload)
                finally:
                    await conn.close()
            except psycopg.Error as exc:
                log.warning("listening on %s failed (%s): again in a second", channel, exc)
                await asyncio.sleep(1.0)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        async with self._pool.connection() as conn:
            await conn.execute("BEGIN")
            try:
                yield Tx(PostgresConnection(conn, locks_rows=True), self._now)
            except BaseException:
                await _end(conn, "ROLLBACK")
                raise
            await conn.execute("COMMIT")


async def _end(conn: Conn, how: str) -> None:
    """End the transaction if the connection is idle in one.  A connection
    left busy (its caller cancelled in the middle of a statement) or broken is
    the pool's: it discards such a connection instead of handing it out."""
    if conn.info.transaction_status in (TransactionStatus.INTRANS, TransactionStatus.INERROR):
        with suppress(psycopg.OperationalError):
            await conn.execute(how)


async def _version(conn: Conn) -> int:
    cursor = await conn.execute("SELECT version FROM schema_version")
    row = await cursor.fetchone()
    return 0 if row is None else int(row[0])


async def _migrate(conn: Conn) -> None:
    """Apply the migrations this database lacks, each in a transaction of its
    own with its version bump; an advisory lock keeps processes starting
    together from applying one twice."""
    await conn.execute("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK,))
    try:
        await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)")
        await conn.execute(
            "INSERT INTO schema_version (version)"
            " SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM schema_version)"
        )
        current = await _version(conn)
        check_version(current)
        for number, sql in migrations()[current:]:
            log.info("applying database migration %04d", number)
            async with conn.transaction():
                for statement in statements(sql):
                    await conn.execute(postgres_ddl(statement))
                await conn.execute("UPDATE schema_version SET version = %s", (number,))
    finally:
        await conn.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK,))
