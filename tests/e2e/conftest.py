from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from playground.botapi import FakeTelegram


@pytest.fixture
async def server() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as fake:
        yield fake


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "koloda.sqlite3"
