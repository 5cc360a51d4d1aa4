"""A game listed only in the catalog gets its computer at every level: the
listing's :class:`~players.computer.Computer` is all the levels and the search
workers use, and the workers find it by its import path."""

from __future__ import annotations

import multiprocessing
import random
from dataclasses import replace

import pytest

import players.durak
from bot.catalog import CATALOG, Catalog, Listing
from games import durak
from screens.durak import DurakScreens
from storage import Actor, Status
from tests.clock import FakeClock
from tests.services import failing_search
from tests.services.world import World

KEY = "ersatz"
"""A key no game has: nothing but the listing below knows it."""
COMPUTER = replace(players.durak.COMPUTER, module=__name__)
"""Durak's computer, found by a worker here (``tests.services.test_registration:COMPUTER``)."""
LISTED = Catalog(*CATALOG.listings, Listing(replace(durak.SPEC, key=KEY), DurakScreens(), COMPUTER))


def test_the_listing_names_this_module_for_the_workers() -> None:
    assert COMPUTER.address == f"{__name__}:COMPUTER"
    assert LISTED.computers[KEY] is COMPUTER


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
async def test_a_game_listed_only_in_the_catalog_plays_at_every_level(
    database: str, level: str, caplog: pytest.LogCaptureFixture
) -> None:
    async with World.open(database, FakeClock(), LISTED) as world:
        snapshot = await world.table(KEY, people=1, computers=1, turn=0, level=level)
        assert snapshot.table.game == KEY
        table_id = snapshot.table.id
        await world.play_people(table_id, random.Random(3))
        assert (await world.snapshot(table_id)).table.status is Status.FINISHED
        assert Actor.COMPUTER in await world.actors(table_id)
        workers = [p for p in multiprocessing.active_children() if p.name.startswith("Spawn")]
        assert bool(workers) is (level != "easy"), "the search ran in a worker process"
    assert "failed" not in caplog.text
    assert "broke" not in caplog.text


async def test_a_search_that_fails_leaves_its_moves_to_the_heuristic(
    database: str, caplog: pytest.LogCaptureFixture
) -> None:
    listing = Listing(replace(durak.SPEC, key=KEY), DurakScreens(), failing_search.COMPUTER)
    async with World.open(database, FakeClock(), Catalog(listing)) as world:
        snapshot = await world.table(KEY, people=1, computers=1, turn=0, level="hard")
        await world.play_people(snapshot.table.id, random.Random(3))
        assert (await world.snapshot(snapshot.table.id)).table.status is Status.FINISHED
        assert Actor.COMPUTER in await world.actors(snapshot.table.id)
    assert "a search at table" in caplog.text
    assert "keeps no running totals" in caplog.text


def test_a_listing_whose_computer_a_worker_would_not_find_is_refused() -> None:
    spec = replace(durak.SPEC, key=KEY)
    with pytest.raises(ModuleNotFoundError):
        Catalog(Listing(spec, DurakScreens(), replace(COMPUTER, module="tests.services.nowhere")))
    with pytest.raises(ValueError, match=r"players\.joker:COMPUTER is another computer"):
        Catalog(Listing(spec, DurakScreens(), replace(COMPUTER, module="players.joker")))
