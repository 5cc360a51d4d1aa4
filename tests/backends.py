"""Which database backends a test runs on.

Every storage and services test runs on SQLite and on PostgreSQL (the
``database`` fixture of tests/conftest.py, ``[sqlite]`` and ``[postgres]`` in
the names).  A sweep over every game and variant plays the engines' whole
range on SQLite, and on PostgreSQL its first case of each game: the database
sees the same statements for every variant of a game (its state is one JSON
text), so the other variants would add minutes of CPU and no query."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

BACKENDS = ("sqlite", "postgres")


def sweep(argnames: Sequence[str], cases: Sequence[tuple[Any, ...]]) -> pytest.MarkDecorator:
    """Parametrize a test by ``database`` and ``argnames`` (the first of which
    names the game): every case on SQLite, each game's first on PostgreSQL."""
    first: dict[Any, tuple[Any, ...]] = {}
    for case in cases:
        first.setdefault(case[0], case)
    params = [
        pytest.param(backend, *case, id="-".join([backend, *map(str, case)]))
        for backend in BACKENDS
        for case in cases
        if backend == "sqlite" or first[case[0]] is case
    ]
    return pytest.mark.parametrize(("database", *argnames), params, indirect=["database"])
