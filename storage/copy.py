"""Copying an SQLite database into an empty PostgreSQL one.

``python -m bot.database copy`` runs it, with the bot stopped.  Both sides are
first brought to this version's schema (as the bot's start would), then every
table is copied in the order its references need (a referenced row first;
a table's own rows by their key, so that a rematch follows the game it is a
rematch of), page by page, from one read transaction of the source (one
state of it, even if a bot still wrote to it) into one transaction of the
target, and the target's identity counters are set past the copied ids.  The
target must hold no rows: the copy never merges.
"""

from __future__ import annotations

import graphlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from storage.connection import Connection, DatabaseError
from storage.db import Database
from storage.url import DatabaseUrl

__all__ = ["PAGE", "CopyError", "copy_database"]

PAGE = 1000
"""Rows read and written at a time."""


class CopyError(DatabaseError):
    """The copy was refused; nothing was written."""


async def copy_database(
    source: str | Path,
    target: str,
    *,
    progress: Callable[[str, int], None] = lambda table, rows: None,
) -> dict[str, int]:
    """Copy the SQLite database ``source`` into the empty PostgreSQL database
    ``target`` (both ``DATABASE_URL`` values); returns the rows copied per
    table.  ``progress`` hears of each table when it is done."""
    source_url, target_url = DatabaseUrl.parse(source), DatabaseUrl.parse(target)
    if source_url.path is None or not target_url.postgres:
        raise CopyError("the copy goes from an SQLite file (sqlite:///...) to PostgreSQL")
    if not source_url.path.is_file():
        raise CopyError(f"no database at {source_url.path}")
    src = await Database.open(source_url.url)
    try:
        dst = await Database.open(target_url.url)
        try:
            async with src.read() as reading, dst.transaction() as writing:
                # SQLite's reads open no transaction; this one holds one state.
                await reading.connection.fetch("BEGIN")
                try:
                    return await _copy(reading.connection, writing.connection, target_url, progress)
                finally:
                    await reading.connection.fetch("COMMIT")
        finally:
            await dst.close()
    finally:
        await src.close()


async def _copy(
    src: Connection,
    dst: Connection,
    target: DatabaseUrl,
    progress: Callable[[str, int], None],
) -> dict[str, int]:
    tables = await _tables_in_order(dst)
    for table in tables:
        if await dst.fetch(f"SELECT 1 FROM {table} LIMIT 1"):
            raise CopyError(
                f"{target.safe()} already holds data (in {table}): copy into an empty database"
            )
    kept = {r[0] for r in await src.fetch("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if missing := sorted(set(tables) - kept):
        raise CopyError(f"the SQLite database has no table {', '.join(missing)}")
    copied = {}
    for table in tables:
        copied[table] = await _copy_table(src, dst, table)
        progress(table, copied[table])
    await _count_on(dst)
    return copied


async def _tables_in_order(dst: Connection) -> list[str]:
    """The target's tables, each after the tables it references."""
    names = await dst.fetch(
        "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
        " AND tablename != 'schema_version' ORDER BY tablename"
    )
    references = await dst.fetch(
        "SELECT c.conrelid::regclass::text, c.confrelid::regclass::text FROM pg_constraint c"
        " WHERE c.contype = 'f' AND c.connamespace = current_schema()::regnamespace"
    )
    order: graphlib.TopologicalSorter[str] = graphlib.TopologicalSorter()
    for (name,) in names:
        order.add(name)
    for table, referenced in references:
        if table != referenced:  # a table's own references: its rows go in key order
            order.add(table, referenced)
    return list(order.static_order())


async def _copy_table(src: Connection, dst: Connection, table: str) -> int:
    columns = [
        r[0]
        for r in await dst.fetch(
            "SELECT column_name FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position",
            (table,),
        )
    ]
    info = await src.fetch(f"PRAGMA table_info({table})")
    if missing := sorted(set(columns) - {r[1] for r in info}):
        raise CopyError(f"the SQLite table {table} has no column {', '.join(missing)}")
    key = [r[1] for r in sorted((r for r in info if r[5]), key=lambda r: r[5])] or ["rowid"]
    listed = ", ".join(columns)
    read = f"SELECT {listed}, {', '.join(key)} FROM {table}"
    order = f" ORDER BY {', '.join(key)} LIMIT {PAGE}"
    after = f" WHERE ({', '.join(key)}) > ({', '.join('?' for _ in key)})"
    write = f"INSERT INTO {table} ({listed}) VALUES ({', '.join('?' for _ in columns)})"
    count = 0
    last: Sequence[Any] | None = None
    while True:
        rows = await src.fetch(read + ("" if last is None else after) + order, last or ())
        if not rows:
            return count
        try:
            await dst.execute_many(write, [row[: len(columns)] for row in rows])
        except DatabaseError as exc:
            raise CopyError(f"{table}: {exc}") from exc
        count += len(rows)
        last = rows[-1][len(columns) :]


async def _count_on(dst: Connection) -> None:
    """Set each identity column's counter past the ids copied into it."""
    identities = await dst.fetch(
        "SELECT table_name, column_name FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND is_identity = 'YES'"
    )
    for table, column in identities:
        await dst.fetch(
            f"SELECT setval(pg_get_serial_sequence(?, ?), MAX({column})) FROM {table}"
            f" HAVING MAX({column}) IS NOT NULL",
            (table, column),
        )
