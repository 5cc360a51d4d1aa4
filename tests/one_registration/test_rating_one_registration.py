"""High card is rated by its one registration alone: its outcome's places rank
its seats and the spec's defaults give it one family, with no line of the
ratings' code naming it; its standings read like any game's."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.catalog import CATALOG
from games.core import Outcome
from screens.ratings import standings_text
from tests.clock import FakeClock
from tests.one_registration import LISTING
from tests.services.rating_reference import MU, SIGMA, plackett_luce
from tests.services.test_ratings import play_out
from tests.services.world import GROUP, World

LISTED = CATALOG.adding(LISTING)


async def test_rating_a_game_that_only_registered_itself(tmp_path: Path) -> None:
    async with World.open(tmp_path / "koloda.sqlite3", FakeClock(), LISTED) as world:
        over = await play_out(world, await world.table("highcard", people=3))
        async with world.services.db.read() as tx:
            result = await tx.scores.result(over.table.id)
            events = await tx.ratings.events(table_id=over.table.id)
        assert result is not None
        outcome = Outcome.from_json(result)
        place = {seat: n for n, tied in enumerate(outcome.places) for seat in tied}
        want = plackett_luce([[(MU, SIGMA)] for _ in range(3)], [place[s] for s in range(3)])
        chat = {e.who: e for e in events if e.scope == GROUP}
        for seat in range(3):
            event = chat[f"u{seat + 1}"]
            assert event.family == "highcard"
            assert (event.mu_after, event.sigma_after) == pytest.approx(want[seat][0], abs=1e-9)
        boards = await world.services.ratings.standings(GROUP, "highcard", 1)
        text = standings_text("ru", boards, LISTED.specs, season="2027-01")
        assert "<b>Старшая карта</b>" in text
        assert "Anna" in text
