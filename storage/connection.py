"""The seam between the query classes and a database driver.

The query classes (``storage/tables.py`` and its siblings) write one SQL text
for both backends, in SQLite's spelling with ``?`` parameters.  What the two
databases spell differently is said once, here, by the :class:`Dialect`; a
backend's :class:`Connection` runs the statements (the PostgreSQL one
translates the parameters, once per statement text) and turns its driver's
integrity errors into :class:`IntegrityError`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

__all__ = [
    "POSTGRES",
    "SQLITE",
    "Connection",
    "DatabaseError",
    "Dialect",
    "IntegrityError",
]


class DatabaseError(RuntimeError):
    """The database cannot be opened, reached or used."""


class IntegrityError(DatabaseError):
    """A statement broke a constraint (a key, a reference, a check)."""

    def __init__(self, message: str, *, unique: bool) -> None:
        super().__init__(message)
        self.unique = unique
        """A unique key (or primary key) would have been duplicated."""


@dataclass(frozen=True, slots=True, eq=False)
class Dialect:
    """The SQL that SQLite and PostgreSQL spell differently."""

    name: str
    greatest: str
    """The larger of two values: SQLite's scalar ``MAX(a, b)``, ``GREATEST``."""
    postgres: bool

    def json_rows(self, items: str) -> str:
        """An aggregate: the rows' ``items`` as a JSON text ``[[...], ...]``
        (``[]`` for no rows)."""
        if self.postgres:
            return f"COALESCE(json_agg(json_build_array({items})), '[]')::text"
        return f"json_group_array(json_array({items}))"

    def json_append(self, array: str) -> str:
        """The JSON array text ``array`` with the next parameter (a string)
        appended."""
        if self.postgres:
            return f"(({array})::jsonb || jsonb_build_array(?::text))::text"
        return f"json_insert({array}, '$[#]', ?)"

    def serialize(self, key: int) -> str:
        """A statement that holds the lock named ``key`` until the commit, so
        that transactions taking it run one after the other ("" on SQLite,
        whose transactions always do)."""
        return f"SELECT pg_advisory_xact_lock({key:d})" if self.postgres else ""

    def row_lock(self, alias: str) -> str:
        """Appended to a query of a transaction that reads a row in order to
        change it: holds the row of ``alias`` until the commit, so that
        another transaction reading it for a change waits.  SQLite takes its
        one write lock at ``BEGIN IMMEDIATE`` and needs none."""
        return f" FOR UPDATE OF {alias}" if self.postgres else ""


SQLITE = Dialect("sqlite", greatest="MAX", postgres=False)
POSTGRES = Dialect("postgresql", greatest="GREATEST", postgres=True)


class Connection(Protocol):
    """One unit of work's connection, as the query classes use it."""

    @property
    def dialect(self) -> Dialect: ...

    @property
    def locks_rows(self) -> bool:
        """Inside a transaction that changes rows on a database server: rows
        read to be changed are locked (:meth:`Dialect.row_lock`)."""
        ...

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """Run one statement and return its rows (none for most writes)."""
        ...

    async def execute_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run one statement once per row of parameters."""
        ...
