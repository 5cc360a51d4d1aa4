"""The services as the bot runs them, on a real database and a fake clock."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Collection, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.catalog import CATALOG, Catalog
from games.joker import Deals
from services import Person, Services, Setting, Snapshot, Thinking
from storage import Actor, Database, DatabaseError, Status, Tx
from tests.clock import FakeClock

SHORT_GAMES: dict[str, dict[str, object]] = {
    "joker": {"deals": Deals.SHORT},  # two pulkas: every size of deal, premiums
    "daytona": {"target": 10},  # a match of one race
}
"""Options for tests that need a whole game of random moves and its end, not
its length (ratings, fair deals, duplicates, histories): by rules field, as
``tests/e2e/harness.py: QUICK_OPTIONS`` gives the same by the lobby's buttons."""

THINKING_SCALE = 0.02
"""Searching computers think 2% of their level's time (hard: 20 ms a move)."""
GROUP = -100
PEOPLE = [Person(1, "Anna"), Person(2, "Boris"), Person(3, "Vera"), Person(4, "Gleb")]


@dataclass
class Recorder:
    """Observes the table service like the Telegram layer does."""

    snapshots: list[Snapshot] = field(default_factory=list)
    warnings: list[tuple[int, int]] = field(default_factory=list)

    def table_changed(self, snapshot: Snapshot) -> None:
        self.snapshots.append(snapshot)

    def seat_warned(self, snapshot: Snapshot, seat: int) -> None:
        self.warnings.append((snapshot.table.id, seat))


@dataclass
class World:
    database: str
    """The ``DATABASE_URL`` of its database."""
    clock: FakeClock
    services: Services
    seen: Recorder

    @classmethod
    @asynccontextmanager
    async def open(
        cls,
        database: str | Path,
        clock: FakeClock,
        catalog: Catalog = CATALOG,
        *,
        seed: int = 1,
        fixed_deals: bool = True,
        worker: str | None = None,
    ) -> AsyncIterator[World]:
        """The services on ``database`` (a URL, or an SQLite file) hosting the games of
        ``catalog``; deals are seeded by ``seed`` (dealt the first scheme's
        way), or with ``fixed_deals`` False nobody's choice, as the bot deals
        them (services.fairness: the bot's committed seed and the players'
        contributions); ``worker``: one of several workers on the database,
        by this name (services.leases)."""
        db = await Database.open(database, now=clock.now)
        deals = random.Random(seed)
        services = Services.create(
            db,
            games=catalog.specs,
            computers=catalog.computers,
            clock=clock,
            default_language="ru",
            heartbeat=3600.0,
            thinking=Thinking(workers=1, scale=THINKING_SCALE),
            seeds=(lambda: deals.getrandbits(63)) if fixed_deals else None,
            worker=worker,
        )
        seen = Recorder()
        services.tables.observe(seen)
        async with db.transaction() as tx:
            await tx.people.upsert_chat(GROUP, "supergroup", "Friends")
            for p in PEOPLE:
                await tx.people.upsert_user(p.id, p.first_name, None)
                await tx.people.set_dm_ok(p.id, True)
        await services.start()
        world = cls(db.url.url, clock, services, seen)
        try:
            yield world
        finally:
            await services.stop()
            await db.close()

    # --- time ----------------------------------------------------------------------

    async def settle(self) -> None:
        """Until every background task only waits (for the clock or new work)."""
        quiet = 0
        while quiet < 3:
            await asyncio.sleep(0.001)
            quiet = quiet + 1 if self.services.background.idle else 0

    async def advance(self, seconds: float) -> None:
        """Let ``seconds`` pass, waking every sleeper in its turn."""
        target = self.clock.now() + seconds
        while True:
            await self.settle()
            wake = self.clock.next_wake()
            if wake is None or wake > target:
                break
            self.clock.wake_next()
        self.clock.set(target)
        await self.settle()

    # --- tables --------------------------------------------------------------------

    async def table(
        self,
        game: str = "durak",
        preset: str | None = None,
        *,
        people: int = 2,
        computers: int = 0,
        turn: int | None = None,
        remove_absent: bool = False,
        level: str | None = None,
        start: bool = True,
        options: Mapping[str, object] | None = None,
    ) -> Snapshot:
        """A table in the group: ``people`` seated (Anna first, the creator), then
        ``computers``; the turn time set to ``turn`` seconds, the computers'
        level to ``level`` (None: the defaults) and the game's ``options``
        (a rules field's name: its value) as the creator's presses set them."""
        lobby = self.services.lobby
        snapshot = await lobby.create(GROUP, 0, PEOPLE[0], game, preset)
        table_id = snapshot.table.id
        for name, value in (options or {}).items():
            for _ in range(8):
                if getattr(self.services.snapshots.rules_of(snapshot.table), name) == value:
                    break
                snapshot = await lobby.cycle_option(table_id, PEOPLE[0], name)
            else:
                raise AssertionError(f"no {name} {value!r} in the lobby")
        for person in PEOPLE[1:people]:
            await lobby.join(table_id, person)
        for _ in range(computers):
            await lobby.add_computer(table_id, PEOPLE[0])
        if turn is not None:
            while (await self.services.snapshots.snapshot(table_id)).table.turn_seconds != turn:
                await lobby.cycle_setting(table_id, PEOPLE[0], Setting.TURN)
            if remove_absent:
                await lobby.cycle_setting(table_id, PEOPLE[0], Setting.ABSENCE)
        if level is not None:
            while (await self.services.snapshots.snapshot(table_id)).table.computer_level != level:
                await lobby.cycle_setting(table_id, PEOPLE[0], Setting.LEVEL)
        if start:
            await lobby.start(table_id, PEOPLE[0], is_admin=False)
        return await self.services.snapshots.snapshot(table_id)

    async def snapshot(self, table_id: int) -> Snapshot:
        return await self.services.snapshots.snapshot(table_id)

    async def play_out(self, table_id: int, seed: int) -> Snapshot:
        """Random legal moves by whoever may move (each logged as its player's),
        until the game is over."""
        rng = random.Random(seed)
        for _ in range(50_000):
            snapshot = await self.snapshot(table_id)
            if snapshot.table.status is not Status.PLAYING:
                return snapshot
            seat = rng.choice(sorted(s for s in snapshot.waits() if snapshot.legal(s)))
            code = rng.choice(snapshot.legal(seat)).encode()
            await self.services.tables.act(table_id, seat, code, actor=Actor.PLAYER)
        raise AssertionError("the game did not end")

    async def play_people(
        self,
        table_id: int,
        rng: random.Random,
        limit: int = 5000,
        *,
        only: Collection[int] | None = None,
    ) -> int:
        """People press random legal moves (computers move on their own) until the
        game ends; returns the number of presses.  ``only``: the users who
        press (the others are away, their seats played by computers)."""
        presses = 0
        for _ in range(limit):
            await self.advance(2.0)
            snapshot = await self.snapshot(table_id)
            if snapshot.table.status is not Status.PLAYING:
                return presses
            movers = [
                s.seat
                for s in snapshot.table.seats
                if s.user_id is not None
                and (only is None or s.user_id in only)
                and snapshot.legal(s.seat)
            ]
            if not movers:
                continue
            seat = rng.choice(movers)
            action = rng.choice(snapshot.legal(seat))
            user_id = snapshot.seat(seat).user_id
            assert user_id is not None
            await self.services.tables.press(
                table_id, user_id, action.encode(), at_move=snapshot.table.moves
            )
            presses += 1
        raise AssertionError("the game did not end")

    async def actors(self, table_id: int) -> list[Actor]:
        async with self.services.db.read() as tx:
            return [m.actor for m in await tx.tables.last_moves(table_id, 100_000)]


def fail_commits(db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on every transaction of ``db`` fails as it commits (and is
    rolled back)."""
    commit = db.transaction

    @asynccontextmanager
    async def failing() -> AsyncIterator[Tx]:
        async with commit() as tx:
            yield tx
            raise DatabaseError("the commit failed")

    monkeypatch.setattr(db, "transaction", failing)
