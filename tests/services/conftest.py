"""The services tier: real SQLite files, the fake clock, no Telegram."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.clock import FakeClock
from tests.services.world import World


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def world(tmp_path: Path, clock: FakeClock) -> AsyncIterator[World]:
    async with World.open(tmp_path / "koloda.sqlite3", clock) as w:
        yield w
