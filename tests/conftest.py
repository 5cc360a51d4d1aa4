"""The order the suite runs in: the longest tests first.

``./scripts/test`` runs everything, the soak tier included, in one run of
three workers (pytest-xdist, ``--dist worksteal``).  Each worker is handed a
third of the tests in this order and, once done with its own, takes over half
of what another has not started: the long tests start at once, the many short
ones fill in behind them, and the workers finish together instead of one
running a fault storm alone at the end (docs/testing.md has the figures).  The
order is the same in every process, as xdist requires.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from storage.url import sqlite_url
from tests.backends import BACKENDS
from tests.postgres import Cluster, ClusterUnavailable

LONGEST = "test_kills.py"
"""The kill storm, the longest test by far (minutes of real time), starts first."""
LONGEST_FIRST = ("soak", "slow", "browser")
"""Markers by the time their tests take, longest first: the soak tier's storms
and kills take minutes, a slow test seconds to a minute."""
THEN = ("e2e", "engines", "players")
"""Folders of tests that take seconds (whole games through the bot, random
playouts with every invariant checked), before the rest, which take
milliseconds."""


def _rank(item: pytest.Item) -> tuple[int, bool]:
    path = Path(item.path)
    for rank, marker in enumerate(LONGEST_FIRST):
        if item.get_closest_marker(marker) is not None:
            return rank, path.name != LONGEST
    folder = path.parent.name
    return len(LONGEST_FIRST) + (THEN.index(folder) if folder in THEN else len(THEN)), True


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=_rank)  # stable: the usual order within a rank


# --- the database backends -----------------------------------------------------------


@pytest.fixture(scope="session")
def postgres() -> Iterator[Cluster]:
    """This session's throwaway PostgreSQL cluster (``tests/postgres.py``).
    Under ``CI=true`` a cluster that cannot start fails the tests that need
    it; elsewhere they are skipped, saying why."""
    try:
        cluster = Cluster.start()
    except ClusterUnavailable as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(f"PostgreSQL is needed under CI: {exc}")
        pytest.skip(f"no PostgreSQL for the [postgres] tests: {exc}")
    yield cluster
    cluster.stop()


@pytest.fixture(params=BACKENDS)
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The ``DATABASE_URL`` of a new database on each backend: an SQLite file
    not created yet, or a PostgreSQL database holding the migrated schema."""
    if request.param == "sqlite":
        yield sqlite_url(tmp_path / "koloda.sqlite3")
        return
    cluster: Cluster = request.getfixturevalue("postgres")
    url = cluster.create()
    yield url
    cluster.drop(url)
