"""An analysis asked for: claimed and recorded as promised, or neither."""

from __future__ import annotations

import pytest

from services import ServiceError
from storage import DatabaseError
from tests.services.world import PEOPLE, World, fail_commits

ANNA = PEOPLE[0]


async def test_a_promise_not_recorded_leaves_the_analysis_free_to_ask_again(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failed write of the promise left the analysis claimed for good: every
    later request was told it was under way, until a restart."""
    table_id = (await world.play_out((await world.table()).table.id, seed=1)).table.id
    analyses = world.services.analyses
    analyses.reserve(table_id, ANNA.id)
    fail_commits(world.services.db, monkeypatch)
    with pytest.raises(DatabaseError):
        await analyses.owe(table_id, ANNA.id, "ru")
    monkeypatch.undo()
    assert await analyses.owed(0.0) == []

    analyses.reserve(table_id, ANNA.id)  # asked again: claimed anew
    await analyses.owe(table_id, ANNA.id, "ru")
    assert [(o.table_id, o.user_id) for o in await analyses.owed(0.0)] == [(table_id, ANNA.id)]
    with pytest.raises(ServiceError, match=r"analysis\.running"):
        analyses.reserve(table_id, ANNA.id)  # asked twice at once: promised once
