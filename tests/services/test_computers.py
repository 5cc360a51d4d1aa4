"""Computer seats play whole games through the same path as everybody."""

from __future__ import annotations

import asyncio
import multiprocessing
import random
from collections.abc import Sequence
from dataclasses import replace

import pytest

import players.durak
from bot.catalog import CATALOG, Catalog
from games.core import Action, Rules
from games.durak.views import DurakSeatView
from services import Snapshot
from storage import Actor, Status
from tests.backends import sweep
from tests.clock import FakeClock
from tests.services.world import PEOPLE, World


@sweep(("game", "computers"), [("durak", 3), ("101", 3), ("durak", 1)])
async def test_one_person_and_computers_play_to_the_result(
    world: World, game: str, computers: int
) -> None:
    snapshot = await world.table(game, people=1, computers=computers, turn=0)
    table_id = snapshot.table.id
    presses = await world.play_people(table_id, random.Random(5))
    finished = await world.snapshot(table_id)
    assert finished.table.status is Status.FINISHED
    actors = await world.actors(table_id)
    assert actors.count(Actor.PLAYER) == presses
    assert actors.count(Actor.COMPUTER) > 0
    assert set(actors) <= {Actor.PLAYER, Actor.COMPUTER}
    stats = await world.services.scores.stats(PEOPLE[0].id)
    assert [(r.game, r.with_computers, r.played) for r in stats] == [(game, True, 1)]


async def test_a_computer_waits_a_human_pause_then_moves(world: World) -> None:
    snapshot = await world.table(people=1, computers=1, turn=0, level="easy")
    table_id = snapshot.table.id
    for _ in range(3):
        snapshot = await world.snapshot(table_id)
        (seat,) = snapshot.waits()
        if snapshot.seat(seat).computer is not None:
            break
        user = snapshot.seat(seat).user_id
        assert user is not None
        await world.services.tables.press(
            table_id, user, snapshot.legal(seat)[0].encode(), at_move=snapshot.table.moves
        )
        await world.settle()
    moves = snapshot.table.moves
    await world.advance(0.69)
    assert (await world.snapshot(table_id)).table.moves == moves
    await world.advance(0.82)
    assert (await world.snapshot(table_id)).table.moves > moves


async def test_a_computer_waits_longer_before_a_games_first_move(world: World) -> None:
    """The group reads the new table first: Joker's first-dealer draw, say,
    which a computer dealer would otherwise replace within a second."""
    snapshot = await world.table("joker", people=1, computers=3, turn=0, level="easy")
    (dealer,) = snapshot.waits()
    assert snapshot.seat(dealer).computer is not None
    table_id = snapshot.table.id
    assert snapshot.table.moves == 0
    await world.advance(3 * 0.7 - 0.01)
    assert (await world.snapshot(table_id)).table.moves == 0
    await world.advance(3 * 0.8)
    first = (await world.snapshot(table_id)).table.moves
    assert first >= 1
    # Later moves wait the usual pause.
    await world.advance(1.51)
    assert (await world.snapshot(table_id)).table.moves > first


class Spy:
    """A player that records what it was shown."""

    def __init__(self) -> None:
        self.shown: list[DurakSeatView] = []

    def choose(
        self,
        rules: Rules,
        view: DurakSeatView,
        legal: Sequence[Action],
        rng: random.Random,
    ) -> Action:
        self.shown.append(view)
        return legal[0]


SPY = Spy()
COMPUTER = replace(players.durak.COMPUTER, module=__name__, heuristic=SPY)
"""Durak's computer with the spy as its heuristic (the catalog checks that a
worker would find it here)."""


async def test_a_computer_is_shown_only_its_own_seats_view(database: str) -> None:
    SPY.shown.clear()
    catalog = Catalog(replace(CATALOG.listings[0], computer=COMPUTER))
    async with World.open(database, FakeClock(), catalog) as world:
        snapshot = await world.table(people=1, computers=1, turn=0, level="easy")
        await world.play_people(snapshot.table.id, random.Random(1))
        computer = next(s.seat for s in snapshot.table.seats if s.computer is not None)
        assert SPY.shown
        assert all(view.seat == computer for view in SPY.shown)


async def test_computers_of_every_level_play_through_the_same_path(world: World) -> None:
    for level in ("normal", "easy"):
        snapshot = await world.table("durak", people=1, computers=2, turn=0, level=level)
        table_id = snapshot.table.id
        await world.play_people(table_id, random.Random(2))
        assert (await world.snapshot(table_id)).table.status is Status.FINISHED
        assert Actor.COMPUTER in await world.actors(table_id)


async def test_the_search_worker_is_up_before_the_computers_first_turn(world: World) -> None:
    """A worker takes half a second to start: the first search after the bot
    starts would wait for it, on top of the level's time (and the hard
    level's pause may be none).  It is started with the game."""
    snapshot = await world.table(people=1, computers=1, turn=0, level="hard")
    await world.settle()  # no time passes: nobody has moved yet
    assert snapshot.table.moves == 0
    workers = [p for p in multiprocessing.active_children() if p.name.startswith("SpawnProcess")]
    assert workers, "no search worker was started with the game"
    await world.play_people(snapshot.table.id, random.Random(6))
    assert Actor.COMPUTER in await world.actors(snapshot.table.id)


async def test_a_killed_search_worker_costs_one_heuristic_move(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    snapshot = await world.table(people=1, computers=3, turn=0, level="hard")
    table_id = snapshot.table.id
    while Actor.COMPUTER not in await world.actors(table_id):
        await world.advance(2.0)
    workers = [p for p in multiprocessing.active_children() if p.name.startswith("SpawnProcess")]
    assert workers, "the search ran in a worker process"
    for worker in workers:
        worker.kill()
        worker.join()
    await world.play_people(table_id, random.Random(4))
    assert (await world.snapshot(table_id)).table.status is Status.FINISHED
    assert "the search workers broke" in caplog.text


async def test_a_move_committed_while_the_computer_reads_the_table_is_not_lost_on_it(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A card thrown in while the computer, to beat, is reading the table: the
    older read must not hide the newer table from it, or its move, refused as
    made on an old table, would leave it looking at nothing new and waiting
    for ever (the three-worker kill test's stalled table)."""
    snapshot = await world.table(people=1, computers=1, turn=0, level="easy")
    table_id = snapshot.table.id
    (person,) = [s for s in snapshot.table.seats if s.user_id is not None]
    computer = 1 - person.seat
    assert person.user_id is not None
    rng = random.Random(2)
    for _ in range(300):  # until the computer is to beat and the person may throw in
        snapshot = await world.snapshot(table_id)
        assert snapshot.table.status is Status.PLAYING
        if computer in snapshot.waits() and snapshot.legal(person.seat):
            break
        if person.seat in snapshot.waits():
            code = rng.choice(snapshot.legal(person.seat)).encode()
            await world.services.tables.press(
                table_id, person.user_id, code, at_move=snapshot.table.moves
            )
            await world.settle()
        else:
            await world.advance(2)
    else:
        pytest.fail("the person never could throw in while the computer was to beat")
    snapshots = world.services.snapshots
    read, reading, let_go = snapshots.snapshot, asyncio.Event(), asyncio.Event()

    async def slow_read(table_id: int) -> Snapshot:
        found = await read(table_id)
        if not reading.is_set():  # the computer's read, when its pause is over
            reading.set()
            await let_go.wait()
        return found

    monkeypatch.setattr(snapshots, "snapshot", slow_read)
    while not reading.is_set():
        world.clock.wake_next()
        await asyncio.sleep(0.01)
    thrown = snapshot.legal(person.seat)[0].encode()
    await world.services.tables.press(
        table_id, person.user_id, thrown, at_move=snapshot.table.moves
    )
    let_go.set()
    await world.advance(5)
    async with world.services.db.read() as tx:
        made = await tx.tables.moves_after(table_id, snapshot.table.moves + 1, 10)
    assert made
    assert made[0].actor is Actor.COMPUTER
