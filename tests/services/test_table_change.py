"""The unit of work of the lobby and moderation (``Tables.change``): one
transaction under the table's lock, the deadlines written for the table as it is
left, the observers told once after the commit; nothing at all if it fails."""

from __future__ import annotations

import pytest

from games.core import RESIGN
from services import EndReason, ServiceError, Status
from services.turns import LOBBY_TIMEOUT
from storage import LOBBY_SEAT, Actor
from tests.services.world import GROUP, PEOPLE, World


async def _deadlines(world: World, table_id: int) -> dict[int, float]:
    return {seat: d.due_at for seat, d in (await world.snapshot(table_id)).deadlines.items()}


async def test_a_failing_change_writes_nothing_and_tells_nobody(world: World) -> None:
    lobby = await world.table(start=False)
    table_id = lobby.table.id
    deadlines = await _deadlines(world, table_id)
    told = len(world.seen.snapshots)
    await world.advance(60)

    with pytest.raises(ServiceError) as failed:
        async with world.services.tables.change(table_id) as change:
            await change.seat_computer(1)
            await change.update(turn_seconds=30)
            raise ServiceError("error.bad_button")
    assert failed.value.key == "error.bad_button"

    after = await world.snapshot(table_id)
    assert after.table == lobby.table  # seats, settings and version as they were
    assert await _deadlines(world, table_id) == deadlines  # the lobby's expiry not renewed
    assert len(world.seen.snapshots) == told
    with pytest.raises(RuntimeError):
        change.snapshot  # noqa: B018 (never committed: there is no snapshot to hand out)


async def test_a_change_commits_once_renews_the_lobby_and_tells_its_snapshot(
    world: World,
) -> None:
    lobby = await world.table(start=False)
    table_id = lobby.table.id
    await world.advance(60)
    told = len(world.seen.snapshots)

    async with world.services.tables.change(table_id) as change:
        assert change.table == lobby.table
        await change.seat_computer(1)
        await change.update(turn_seconds=30)

    assert world.seen.snapshots[told:] == [change.snapshot]
    assert change.snapshot.table.version == lobby.table.version + 1
    assert change.snapshot.table.turn_seconds == 30
    assert [s.computer for s in change.snapshot.table.seats] == [None, None, 1]
    expiry = world.clock.now() + LOBBY_TIMEOUT
    assert {s: d.due_at for s, d in change.snapshot.deadlines.items()} == {LOBBY_SEAT: expiry}
    assert await world.snapshot(table_id) is not change.snapshot
    assert (await world.snapshot(table_id)).table == change.snapshot.table


async def test_a_closed_table_has_no_deadline(world: World) -> None:
    snapshot = await world.table(turn=60)
    table_id = snapshot.table.id
    assert snapshot.deadlines  # somebody's turn is running
    async with world.services.tables.change(table_id) as change:
        await change.close(EndReason.CANCELLED)
    assert change.snapshot.table.status is Status.CANCELLED
    assert change.snapshot.deadlines == {}
    assert await _deadlines(world, table_id) == {}
    await world.advance(120)  # nobody's time runs out at a closed table
    assert await world.actors(table_id) == []


async def test_a_move_inside_a_change_is_its_only_write(world: World) -> None:
    snapshot = await world.table(people=3, turn=60)
    table_id = snapshot.table.id
    boris = snapshot.table.seat_of(PEOPLE[1].id)
    assert boris is not None

    with pytest.raises(RuntimeError):
        async with world.services.tables.change(table_id) as change:
            await change.update()
            await change.move(boris, RESIGN, Actor.ADMIN)
    assert (await world.snapshot(table_id)).table == snapshot.table

    async with world.services.tables.change(table_id) as change:
        await change.move(boris, RESIGN, Actor.ADMIN)
        with pytest.raises(RuntimeError):
            await change.update()
    assert change.snapshot.table.moves == snapshot.table.moves + 1
    assert world.seen.snapshots[-1] is change.snapshot
    assert await world.actors(table_id) == [Actor.ADMIN]


async def test_a_second_table_in_a_chat_is_refused_and_leaves_the_first_alone(
    world: World,
) -> None:
    first = await world.table(start=False)
    told = len(world.seen.snapshots)
    with pytest.raises(ServiceError) as refused:
        await world.services.lobby.create(GROUP, 0, PEOPLE[1], "durak")
    assert refused.value.key == "error.table_exists"
    assert len(world.seen.snapshots) == told
    assert await world.services.snapshots.tables_in_chat(GROUP) == [first.table]
    # In another forum topic of the same group a table opens.
    other = await world.services.lobby.create(GROUP, 7, PEOPLE[1], "durak")
    assert world.seen.snapshots[told:] == [other]
    assert [s.user_id for s in other.table.seats] == [PEOPLE[1].id]
    assert list(other.deadlines) == [LOBBY_SEAT]
