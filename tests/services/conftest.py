"""The services tier: real databases (an SQLite file, and a PostgreSQL
database: ``database`` in tests/conftest.py), the fake clock, no Telegram."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.clock import FakeClock
from tests.services.world import World


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def world(database: str, clock: FakeClock) -> AsyncIterator[World]:
    async with World.open(database, clock) as w:
        yield w
