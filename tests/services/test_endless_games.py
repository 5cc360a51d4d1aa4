"""A Durak game can go round for ever (no rule ends it): a computer seat that
meets the same view of its seat a third time moves at random, and the game
ends."""

from __future__ import annotations

import pytest

from games.core import RESIGN
from players import going_round
from storage import Actor, Status
from tests.clock import FakeClock
from tests.services.world import World

LOOPING = 41
"""The seed of a diamonds deal whose three computers (the heuristic, once the
person at the fourth seat has resigned) pass the same cards round for ever."""
ENOUGH = 1_000
"""Moves no game of three ever needs: every heuristic game that ended did
within 515 (3,440 games: every preset, deck and seat count)."""


async def _play_out(database: str) -> int:
    """The moves of the game, its person resigned at once (at most about
    :data:`ENOUGH`)."""
    async with World.open(database, FakeClock(), seed=LOOPING) as world:
        snapshot = await world.table(
            "durak", "diamonds", people=1, computers=3, turn=0, level="easy"
        )
        table_id = snapshot.table.id
        (person,) = [s.seat for s in snapshot.table.seats if s.user_id is not None]
        await world.services.tables.act(table_id, person, RESIGN, actor=Actor.PLAYER)
        while (snapshot := await world.snapshot(table_id)).table.status is Status.PLAYING:
            if snapshot.table.moves >= ENOUGH:
                break
            await world.advance(60.0)
        return snapshot.table.moves


async def test_computers_going_round_move_at_random_and_end_the_game(database: str) -> None:
    assert await _play_out(database) < ENOUGH, "the computers went round for ever"


async def test_without_the_random_moves_the_deal_goes_round_for_ever(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(going_round, "REPEATS", 10**9)
    assert await _play_out(database) >= ENOUGH
