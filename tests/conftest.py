"""The order the suite runs in: the longest tests first.

``./scripts/test`` runs everything, the soak tier included, in one run on two
workers (pytest-xdist), which hand out the tests in this order: the long ones
start at once, one here and one there, and the many short ones fill in behind
them, so that both workers finish together instead of one running a fault
storm alone at the end (docs/testing.md has the figures).  The order is the
same in every process, as xdist requires; a run of some tests keeps it too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

LONGEST_FIRST = ("soak", "slow", "browser")
"""Markers by the time their tests take, longest first: the soak tier's storms
and kills take minutes, a slow test seconds to a minute."""
THEN = ("e2e", "engines", "players")
"""Folders of tests that take seconds (whole games through the bot, random
playouts with every invariant checked), before the rest, which take
milliseconds."""


def _rank(item: pytest.Item) -> int:
    for rank, marker in enumerate(LONGEST_FIRST):
        if item.get_closest_marker(marker) is not None:
            return rank
    folder = Path(item.path).parent.name
    return len(LONGEST_FIRST) + (THEN.index(folder) if folder in THEN else len(THEN))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=_rank)  # stable: the usual order within a rank
