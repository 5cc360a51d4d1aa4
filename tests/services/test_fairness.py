"""Provably fair deals: every game of the catalog is committed to when dealt and
verified from its seed once over; any change to the seed, the deal, the move
log or the final state is caught, and checking a game still on is refused."""

from __future__ import annotations

import json

import pytest

from bot.catalog import CATALOG
from services import ServiceError
from services.fairness import commitment
from tests.postgres import execute
from tests.services.world import GROUP, PEOPLE, SHORT_GAMES, World


def _sql(world: World, statement: str, *params: object) -> None:
    execute(world.database, statement, params)


@pytest.mark.parametrize("game", sorted(CATALOG.specs))
async def test_every_game_is_committed_when_dealt_and_proven_from_its_seed(
    world: World, game: str
) -> None:
    spec = CATALOG.specs[game]
    people = spec.seat_range(spec.preset()).start
    snapshot = await world.table(game, people=people, options=SHORT_GAMES.get(game))
    table = snapshot.table
    assert table.seed is not None
    assert table.commitment is not None
    async with world.services.db.read() as tx:
        dealt = await tx.tables.deal(table.id)
    assert dealt is not None
    assert dealt == snapshot.table.state
    assert commitment(game, table.seed, dealt) == table.commitment
    with pytest.raises(ServiceError) as early:
        await world.services.fairness.verify(GROUP, table.id)
    assert early.value.key == "fair.in_play"

    over = await world.play_out(snapshot.table.id, 3)
    verdict = await world.services.fairness.verify(GROUP, None)
    assert verdict.ok, verdict
    assert (verdict.table_id, verdict.seed, verdict.commitment) == (
        table.id,
        table.seed,
        table.commitment,
    )
    assert verdict.moves == over.table.moves > 0


async def test_any_change_to_what_was_dealt_or_played_is_caught(world: World) -> None:
    snapshot = await world.play_out((await world.table("durak", people=3)).table.id, 3)
    table = snapshot.table
    assert table.seed is not None
    assert table.state is not None
    fairness = world.services.fairness

    _sql(world, "UPDATE tables SET seed = seed + 1 WHERE id = ?", table.id)
    assert (await fairness.verify(GROUP, table.id)).problem == "commitment"
    _sql(world, "UPDATE tables SET seed = seed - 1 WHERE id = ?", table.id)
    assert (await fairness.verify(GROUP, table.id)).ok

    # A deal the seed does not give, committed to honestly: still caught.
    other = (await world.play_out((await world.table("durak", people=3)).table.id, 7)).table
    async with world.services.db.read() as tx:
        foreign = await tx.tables.deal(other.id)
    assert foreign is not None
    forged = commitment("durak", table.seed, foreign)
    _sql(
        world,
        "UPDATE tables SET deal = ?, commitment = ? WHERE id = ?",
        json.dumps(foreign),
        forged,
        table.id,
    )
    assert (await fairness.verify(GROUP, table.id)).problem == "deal"

    # A move that did not happen the way the log says.
    snapshot = await world.play_out((await world.table("durak", people=2)).table.id, 9)
    table = snapshot.table
    ((events,),) = execute(
        world.database, "SELECT events FROM moves WHERE table_id = ? AND n = 1", (table.id,)
    )
    changed = json.loads(events)
    changed.append({"kind": "take", "seat": 0})
    _sql(
        world,
        "UPDATE moves SET events = ? WHERE table_id = ? AND n = 1",
        json.dumps(changed),
        table.id,
    )
    verdict = await fairness.verify(GROUP, table.id)
    assert (verdict.problem, verdict.move, verdict.moves) == ("move", 1, 0)

    # A final state the moves do not lead to.
    snapshot = await world.play_out((await world.table("durak", people=2)).table.id, 11)
    state = dict(snapshot.table.state or {})
    state["discard"] = list(reversed(state["discard"]))
    state["over"] = not state["over"]
    _sql(world, "UPDATE tables SET state = ? WHERE id = ?", json.dumps(state), snapshot.table.id)
    verdict = await fairness.verify(GROUP, snapshot.table.id)
    assert verdict.problem == "state"
    assert verdict.moves == snapshot.table.moves


async def test_what_cannot_be_checked_is_refused_with_a_reason(world: World) -> None:
    fairness = world.services.fairness
    with pytest.raises(ServiceError) as nothing:
        await fairness.verify(GROUP, None)
    assert nothing.value.key == "fair.none_here"

    lobby = await world.table("durak", start=False)
    await world.services.moderation.cancel(lobby.table.id, PEOPLE[0], is_admin=False)
    with pytest.raises(ServiceError) as undealt:
        await fairness.verify(GROUP, lobby.table.id)
    assert undealt.value.key == "fair.not_dealt"
    with pytest.raises(ServiceError) as still_none:
        await fairness.verify(GROUP, None)  # a lobby never dealt is not "the last game"
    assert still_none.value.key == "fair.none_here"

    over = await world.play_out((await world.table("durak")).table.id, 3)
    for chat, table_id in ((GROUP, 10_000), (GROUP - 1, over.table.id)):
        with pytest.raises(ServiceError) as unknown:
            await fairness.verify(chat, table_id)
        assert unknown.value.key == "fair.unknown"
    assert (await fairness.verify(None, over.table.id)).ok  # offline: any table

    _sql(world, "UPDATE tables SET commitment = NULL, deal = NULL WHERE id = ?", over.table.id)
    with pytest.raises(ServiceError) as old:
        await fairness.verify(GROUP, over.table.id)
    assert old.value.key == "fair.before_commitments"


async def test_a_rematch_led_by_the_last_winner_is_proven_too(world: World) -> None:
    first = await world.play_out((await world.table("101", people=3)).table.id, 3)
    rematch = await world.services.lobby.rematch(first.table.id, PEOPLE[0])
    assert len(rematch.table.seats) == 3  # everybody sits down again
    await world.services.lobby.start(rematch.table.id, PEOPLE[0], is_admin=False)
    snapshot = await world.snapshot(rematch.table.id)
    assert snapshot.table.previous_id == first.table.id
    await world.play_out(snapshot.table.id, 5)
    verdict = await world.services.fairness.verify(GROUP, None)
    assert verdict.ok
    assert verdict.table_id == rematch.table.id
