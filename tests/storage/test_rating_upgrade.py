"""A database of the first schema (see ``test_upgrade.py``) upgrades to the
ratings' schema and its finished game is rated at the bot's start, as the
hand-written update says: three newcomers, places 1, 2, 3."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.clock import FakeClock
from tests.services.rating_reference import MU, SIGMA, plackett_luce
from tests.services.world import World
from tests.storage.test_upgrade import copy

GROUP = -1001


async def test_rating_the_past_games_of_a_database_from_the_first_version(
    tmp_path: Path,
) -> None:
    path = copy(tmp_path)
    async with World.open(path, FakeClock()) as world:
        async with world.services.db.read() as tx:
            table = await tx.tables.get(1)
            read = await tx.ratings.rated_game(1)
            events = await tx.ratings.events(table_id=1)
        assert table is not None
        assert read is not None
        assert (read.family, read.skipped, read.across) == ("durak/podkidnoy", None, True)
        want = plackett_luce([[(MU, SIGMA)]] * 3, [0, 1, 2])
        for scope in (GROUP, 0):
            got = {e.who: e for e in events if e.scope == scope}
            for seat in table.seats:
                event = got[f"u{seat.user_id}"]
                assert (event.mu_after, event.sigma_after) == pytest.approx(
                    want[seat.seat][0], abs=1e-9
                )
        boards = await world.services.ratings.top("durak")
        assert [line.place for line in boards[0].top] == [1, 2, 3]
