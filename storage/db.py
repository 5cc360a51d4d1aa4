"""The database: opening either backend, migrations and units of work.

``Database.open`` takes a ``DATABASE_URL`` (see :mod:`storage.url`): an SQLite
file (:mod:`storage.sqlite`, the embedded default) or a PostgreSQL database
(:mod:`storage.postgres`).  Both give the same units of work, :meth:`read` and
:meth:`transaction`, each a :class:`Tx` of the query classes on one
connection, and both apply the same numbered migrations (``migrations/*.sql``,
SQLite's SQL; PostgreSQL gets them translated, :mod:`storage.translate`).
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from importlib import resources
from pathlib import Path

from storage.analyses import AnalysesOwed
from storage.cluster import Cluster
from storage.connection import Connection, DatabaseError, Dialect
from storage.deadlines import Deadlines
from storage.messages import Messages
from storage.people import People
from storage.ratings import Ratings
from storage.scores import Scores
from storage.tables import Tables
from storage.url import DatabaseUrl

__all__ = ["Database", "DatabaseTooNewError", "Tx", "migrations", "statements"]


class DatabaseTooNewError(DatabaseError):
    """The database was written by a newer Koloda; refusing to touch it."""


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


def statements(sql: str) -> list[str]:
    """Split a migration into statements (our migrations hold no triggers)."""
    lines = [line.split("--", 1)[0] for line in sql.splitlines()]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]


def check_version(current: int) -> None:
    if current > len(migrations()):
        raise DatabaseTooNewError(
            f"database schema version {current} is newer than this code's {len(migrations())}"
        )


class Tx:
    """The queries of one unit of work, by area; they share its connection."""

    def __init__(self, conn: Connection, now: Callable[[], float]) -> None:
        self.connection = conn
        """For storage's own tools (the copy between databases)."""
        self.people = People(conn, now)
        self.tables = Tables(conn, now)
        self.deadlines = Deadlines(conn, now)
        self.scores = Scores(conn, now)
        self.messages = Messages(conn, now)
        self.ratings = Ratings(conn, now)
        self.cluster = Cluster(conn, now)
        self.analyses = AnalysesOwed(conn, now)


class Database(ABC):
    """One storage API on either backend."""

    url: DatabaseUrl
    dialect: Dialect

    @classmethod
    async def open(cls, target: str | Path, *, now: Callable[[], float] = time.time) -> Database:
        """Open the database of ``target`` (a ``DATABASE_URL``, or the path of
        an SQLite file) and migrate it to the latest schema, creating an SQLite
        file and its folder if needed.  ``now`` gives the time stamped on rows
        (the bot's clock).  Raises ValueError for a URL that names no database."""
        url = DatabaseUrl.parse(target)
        if url.postgres:
            # Imported when used: an SQLite installation never loads the driver.
            from storage.postgres import PostgresDatabase

            return await PostgresDatabase.connect(url, now)
        from storage.sqlite import SqliteDatabase

        return await SqliteDatabase.connect(url, now)

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def schema_version(self) -> int: ...

    @abstractmethod
    def read(self) -> AbstractAsyncContextManager[Tx]:
        """Queries that change nothing; they see committed states only."""

    async def listen(self, channel: str, wake: Callable[[str], None]) -> None:
        """Until cancelled, call ``wake`` with the payload of every
        notification on ``channel`` (:meth:`storage.cluster.Cluster.notify`).
        Only a database server has them: several workers share nothing else."""
        raise NotImplementedError(f"{self.url.safe()} cannot notify other processes")

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Tx]:
        """One atomic unit of work; rolled back if the block raises.  A table
        read in it (``tx.tables.get``) stays locked to other transactions
        until the commit."""
