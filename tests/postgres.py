"""A throwaway PostgreSQL cluster for the tests, and raw SQL on either backend.

The test session (each xdist worker) starts its own cluster with Debian's
``initdb`` and ``pg_ctl`` in a temporary folder, listening on a unix socket in
that folder only (no TCP port to clash with), with nothing made durable
(``fsync``, ``synchronous_commit`` and ``full_page_writes`` off: a crash loses
nothing a test needs).  The schema is migrated once, into a template database;
each test gets a database copied from it (``CREATE DATABASE ... TEMPLATE``),
dropped after the test.  Run as root, the server runs as the ``postgres`` user
that Debian's package makes.  A session killed before it could stop its
cluster leaves it running; the next session stops such orphans (their owner
process gone) before starting its own.
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
        except BaseException:
            cluster.stop()
            raise
        return cluster

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
        """A new database: the migrated schema (copied from the template), or
        ``empty``; returns its URL."""
        name = f"test_{next(self._numbers)}"
        template = "template0" if empty else TEMPLATE
        self.admin(f"CREATE DATABASE {name} TEMPLATE {template}")
        return self.url(name)

    def drop(self, url: str) -> None:
        name = urlsplit(url).path.lstrip("/")
        self.admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

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
