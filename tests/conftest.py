"""The order the suite runs in: the longest tests first, dealt to the workers.

``./scripts/test`` runs everything, the soak tier included, in one run of
five workers (pytest-xdist, ``--dist worksteal``).  xdist hands each worker
a contiguous fifth of the collection, and a worker done with its own takes
the later half of what another has not started.  So the tests, ranked
longest first, are dealt like cards: each worker's fifth begins with its
share of the long ones (the kill storm on one, the three-worker kill test on
another, the long storm on a third...), the many short ones come behind them,
and what is stolen is short.  Ranked but not dealt, one worker kept every
long test at the head of its part and ran them one after another while
the others had run out of work (docs/testing.md has the figures).  The order
is the same in every process, as xdist requires.
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


@pytest.hookimpl(trylast=True)  # after -m has left out what it leaves out
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    _leave_out_stand_ins(config, items)
    items.sort(key=_rank)  # stable: the usual order within a rank
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    if workers > 1:
        items[:] = dealt(items, workers)


def _leave_out_stand_ins(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A run with the soak tier leaves out the shorter copies of its tests
    (marked ``stand_in``): the soak test does all they do, at more length."""
    if not any(item.get_closest_marker("soak") for item in items):
        return
    left_out = [item for item in items if item.get_closest_marker("stand_in")]
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = [item for item in items if item.get_closest_marker("stand_in") is None]


def dealt(ranked: list[pytest.Item], workers: int) -> list[pytest.Item]:
    """``ranked`` dealt round the ``workers`` as xdist's first hand splits
    it (contiguous parts, the smaller ones first), each part in rank order."""
    sizes = []
    left = len(ranked)
    for part in range(workers):
        sizes.append(left // (workers - part))
        left -= sizes[-1]
    parts: list[list[pytest.Item]] = [[] for _ in sizes]
    turn = 0
    for item in ranked:
        while len(parts[turn]) == sizes[turn]:
            turn = (turn + 1) % workers
        parts[turn].append(item)
        turn = (turn + 1) % workers
    return [item for part in parts for item in part]


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
