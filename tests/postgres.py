"""A throwaway PostgreSQL cluster for the tests, and raw SQL on either backend.

The test session (each xdist worker) starts its own cluster with Debian's
``initdb`` and ``pg_ctl`` in a temporary folder, listening on a unix socket in
that folder only (no TCP port to clash with), with nothing made durable
(``fsync``, ``synchronous_commit`` and ``full_page_writes`` off: a crash loses
nothing a test needs).  The schema is migrated once, into a template database;
a test gets a database copied from it (``CREATE DATABASE ... TEMPLATE``: about
half a second of the server's CPU, the system catalogs copied too), or one an
earlier test of the session had and gave back.  A database given back whose
schema is still the template's is emptied as the template is (every table
truncated, its sequences restarted, the migrations' own rows put back) and
kept for the next test; one whose schema a test changed is dropped.  Run as
root, the server runs as the ``postgres`` user that Debian's package makes.  A
session killed before it could stop its cluster leaves it running; the next
session stops such orphans (their owner process gone) before starting its own.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import pwd
import re
import shutil
import sqlite3
import subprocess
import tempfile
from collections.abc import Sequence
from contextlib import closing
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import psycopg
from psycopg import sql

from storage import Database
from storage.translate import postgres_query
from storage.url import DatabaseUrl

PREFIX = "koloda-pg-"
TEMPLATE = "koloda_template"
SERVER_OPTIONS = (
    "-c listen_addresses='' -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    " -c max_connections=200 -c shared_buffers=32MB"
)


class ClusterUnavailable(RuntimeError):
    """PostgreSQL is not installed, or its cluster would not start."""


def _binaries() -> Path:
    """The newest ``/usr/lib/postgresql/N/bin`` with initdb and pg_ctl."""
    found = [
        folder
        for folder in Path("/usr/lib/postgresql").glob("*/bin")
        if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file()
    ]
    if not found:
        raise ClusterUnavailable(
            "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb):"
            " apt-get install postgresql, or run ./scripts/test, which installs it"
        )
    return max(found, key=lambda f: [int(n) for n in re.findall(r"\d+", f.parent.name)])


class Cluster:
    def __init__(self, folder: Path, binaries: Path, user: str | None) -> None:
        self.folder = folder
        self._binaries = binaries
        self._user = user
        self._numbers = itertools.count(1)
        self._copies: set[str] = set()
        """The databases copied from the template, in use or spare."""
        self._spare: list[str] = []
        self._shape = ""
        """The template's schema (:data:`SHAPE`)."""
        self._seeds: list[tuple[str, list[str], list[tuple[Any, ...]]]] = []
        """The rows the migrations put in the template: (table, columns, rows)."""

    @classmethod
    def start(cls) -> Cluster:
        binaries = _binaries()
        user = "postgres" if os.geteuid() == 0 else None
        _stop_orphans(binaries, user)
        folder = Path(tempfile.mkdtemp(prefix=PREFIX))
        (folder / "owner").write_text(str(os.getpid()))
        cluster = cls(folder, binaries, user)
        if user is not None:
            try:
                pwd.getpwnam(user)
            except KeyError:
                raise ClusterUnavailable("run as root, but there is no postgres user") from None
            shutil.chown(folder, user)
        try:
            cluster._run(
                "initdb", "-D", str(folder / "data"), "-U", "postgres", "--auth=trust",
                "--no-locale", "-E", "UTF8", "--no-sync", "--no-instructions",
            )  # fmt: skip
            cluster._run(
                "pg_ctl", "-D", str(folder / "data"), "-l", str(folder / "log"), "-w", "-s",
                "-o", f"{SERVER_OPTIONS} -c unix_socket_directories='{folder}'", "start",
            )  # fmt: skip
        except ClusterUnavailable:
            shutil.rmtree(folder, ignore_errors=True)
            raise
        try:
            asyncio.run(_migrate(cluster.url(TEMPLATE), cluster))
            cluster._learn_template()
        except BaseException:
            cluster.stop()
            raise
        return cluster

    def _learn_template(self) -> None:
        with psycopg.connect(self.url(TEMPLATE), autocommit=True) as conn:
            self._shape = _shape_of(conn)
            for table in _tables_of(conn):
                cursor = conn.execute(sql.SQL("SELECT * FROM {}").format(sql.Identifier(table)))
                rows = cursor.fetchall()
                if rows:
                    assert cursor.description is not None
                    columns = [column.name for column in cursor.description]
                    self._seeds.append((table, columns, rows))

    def _run(self, program: str, *args: str) -> None:
        command = [str(self._binaries / program), *args]
        if self._user is not None:
            command = ["runuser", "-u", self._user, "--", *command]
        done = subprocess.run(  # noqa: S603 - PostgreSQL's own programs, our own arguments
            command, capture_output=True, text=True, check=False, timeout=120
        )
        if done.returncode != 0:
            log = self.folder / "log"
            tail = log.read_text(errors="replace")[-2000:] if log.is_file() else ""
            raise ClusterUnavailable(
                f"{program} failed ({done.returncode}): {done.stderr.strip()} {tail}".strip()
            )

    def url(self, database: str) -> str:
        return f"postgresql://postgres@/{database}?host={self.folder}"

    def admin(self, sql: str) -> None:
        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            conn.execute(sql.encode())

    def create(self, *, empty: bool = False) -> str:
        """A database with the migrated schema and no rows of a test (copied
        from the template, or a spare one), or a new ``empty`` one; returns
        its URL."""
        if not empty and self._spare:
            return self.url(self._spare.pop())
        name = f"test_{next(self._numbers)}"
        template = "template0" if empty else TEMPLATE
        self.admin(f"CREATE DATABASE {name} TEMPLATE {template}")
        if not empty:
            self._copies.add(name)
        return self.url(name)

    def drop(self, url: str) -> None:
        """Give back a database :meth:`create` made: kept as a spare if a test
        left its schema as the template's, else dropped."""
        name = urlsplit(url).path.lstrip("/")
        if name in self._copies and self._emptied(name):
            self._spare.append(name)
            return
        self._copies.discard(name)
        self.admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def _emptied(self, name: str) -> bool:
        """Empty ``name`` as the template is, unless its schema differs from
        the template's; whether it did."""
        with psycopg.connect(self.url("postgres"), autocommit=True) as admin:
            # Whatever the test left connected (a bot process it killed) goes.
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = %s AND pid <> pg_backend_pid()",
                (name,),
            )
        with psycopg.connect(self.url(name), autocommit=True) as conn:
            if _shape_of(conn) != self._shape:
                return False
            tables = sql.SQL(", ").join(sql.Identifier(t) for t in _tables_of(conn))
            with conn.transaction():
                conn.execute(sql.SQL("TRUNCATE {} RESTART IDENTITY CASCADE").format(tables))
                for table, columns, rows in self._seeds:
                    insert = sql.SQL("INSERT INTO {} ({}) VALUES ({})").format(
                        sql.Identifier(table),
                        sql.SQL(", ").join(map(sql.Identifier, columns)),
                        sql.SQL(", ").join(sql.Placeholder() * len(columns)),
                    )
                    conn.cursor().executemany(insert, rows)
        return True

    def stop(self) -> None:
        try:
            if (self.folder / "data" / "postmaster.pid").is_file():
                self._run(
                    "pg_ctl", "-D", str(self.folder / "data"), "-m", "immediate", "-s", "stop"
                )
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)


def _stop_orphans(binaries: Path, user: str | None) -> None:
    """Stop the clusters of test sessions that died without stopping theirs."""
    for owner in Path(tempfile.gettempdir()).glob(f"{PREFIX}*/owner"):
        try:
            os.kill(int(owner.read_text()), 0)
        except ProcessLookupError:
            Cluster(owner.parent, binaries, user).stop()
        except (ValueError, OSError):
            continue


SHAPE = """
SELECT coalesce(string_agg(item, E'\n' ORDER BY item), '') FROM (
    SELECT format('relation %s.%s %s', n.nspname, c.relname, c.relkind) AS item
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')
    UNION ALL
    SELECT format('column %s.%s.%s %s %s %s', table_schema, table_name, column_name,
                  data_type, is_nullable, column_default)
    FROM information_schema.columns
    WHERE table_schema NOT IN ('pg_catalog', 'information_schema')
    UNION ALL
    SELECT 'index ' || indexdef FROM pg_indexes
    WHERE schemaname NOT IN ('pg_catalog', 'information_schema')
    UNION ALL
    SELECT format('constraint %s %s', conname, pg_get_constraintdef(oid)) FROM pg_constraint
    WHERE connamespace NOT IN ('pg_catalog'::regnamespace, 'information_schema'::regnamespace)
    UNION ALL
    SELECT format('function %s(%s)', proname, pg_get_function_identity_arguments(oid))
    FROM pg_proc
    WHERE pronamespace NOT IN ('pg_catalog'::regnamespace, 'information_schema'::regnamespace)
    UNION ALL
    SELECT 'trigger ' || tgname FROM pg_trigger WHERE NOT tgisinternal
    UNION ALL
    SELECT 'extension ' || extname FROM pg_extension
    UNION ALL
    SELECT 'schema ' || nspname FROM pg_namespace
    UNION ALL
    SELECT 'setting ' || array_to_string(setconfig, ',') FROM pg_db_role_setting
) AS shape
"""
"""Every object of a database's schema, one line each: two databases with the
same text have the same tables, columns, indexes, constraints and functions."""


def _shape_of(conn: psycopg.Connection[Any]) -> str:
    row = conn.execute(SHAPE).fetchone()
    assert row is not None
    return str(row[0])


def _tables_of(conn: psycopg.Connection[Any]) -> list[str]:
    return [
        str(name)
        for (name,) in conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename"
        )
    ]


async def _migrate(url: str, cluster: Cluster) -> None:
    cluster.admin(f"CREATE DATABASE {TEMPLATE}")
    db = await Database.open(url)
    await db.close()


def execute(database: str, sql: str, params: Sequence[Any] = ()) -> list[Any]:
    """Run one statement (SQLite's SQL, ``?`` parameters) on the database
    behind the bot's back, as a person with a database client would, and
    return its rows."""
    url = DatabaseUrl.parse(database)
    if url.postgres:
        with psycopg.connect(url.url, autocommit=True) as conn:
            cursor = conn.execute(postgres_query(sql), params)
            return cursor.fetchall() if cursor.description is not None else []
    assert url.path is not None
    with closing(sqlite3.connect(url.path)) as sqlite, sqlite:
        return sqlite.execute(sql, params).fetchall()
