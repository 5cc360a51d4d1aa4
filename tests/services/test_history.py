"""A game's history replays its move log from the stored deal: every position
is the engine's own, the last one is the stored final state, and a log that
was tampered with is refused at the move that no longer replays."""

from __future__ import annotations

import random

import pytest

from bot.catalog import CATALOG
from services import Actor, HistoryError, ServiceError, Snapshot, Status
from tests.postgres import execute
from tests.services.world import SHORT_GAMES, World


async def _play_out(world: World, snapshot: Snapshot, seed: int = 5) -> Snapshot:
    rng = random.Random(seed)
    table_id = snapshot.table.id
    for _ in range(20_000):
        snapshot = await world.snapshot(table_id)
        if snapshot.table.status is not Status.PLAYING:
            return snapshot
        seat = rng.choice(sorted(s for s in snapshot.waits() if snapshot.legal(s)))
        code = rng.choice(snapshot.legal(seat)).encode()
        actor = Actor.COMPUTER if seat == 0 and rng.random() < 0.3 else Actor.PLAYER
        await world.services.tables.act(table_id, seat, code, actor=actor)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("game", sorted(CATALOG.specs))
async def test_a_history_replays_every_game_to_its_final_state(world: World, game: str) -> None:
    spec = CATALOG.specs[game]
    people = spec.seat_range(spec.preset()).start
    snapshot = await world.table(game, people=people, options=SHORT_GAMES.get(game))
    over = await _play_out(world, snapshot)
    history = await world.services.histories.of(over.table.id)
    assert history.over
    assert history.start().dump() == (await _dealt(world, over.table.id))
    steps = list(history.steps())
    assert [s.move.n for s in steps] == list(range(1, over.table.moves + 1))
    assert steps[-1].game.dump() == over.table.state
    assert steps[-1].game.is_over
    middle = len(steps) // 2
    assert history.position(middle + 1).dump() == steps[middle].game.dump()
    assert history.position(0).dump() == history.start().dump()
    shares = history.moves_by_seat()
    assert sum(sum(by.values()) for by in shares.values()) == len(steps)
    assert set(shares[0]) <= {"player", "computer"}


async def _dealt(world: World, table_id: int) -> object:
    async with world.services.db.read() as tx:
        return await tx.tables.deal(table_id)


async def test_a_tampered_log_stops_the_history_at_the_move(world: World) -> None:
    over = await _play_out(world, await world.table("durak", people=2))
    execute(
        world.database,
        "UPDATE moves SET events = '[]' WHERE table_id = ? AND n = 3",
        (over.table.id,),
    )
    history = await world.services.histories.of(over.table.id)
    with pytest.raises(HistoryError) as stopped:
        list(history.steps())
    assert stopped.value.move == 3


async def test_a_table_never_dealt_has_no_history(world: World) -> None:
    with pytest.raises(ServiceError) as unknown:
        await world.services.histories.of(999)
    assert unknown.value.key == "fair.unknown"
