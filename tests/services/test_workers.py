"""Several workers on one PostgreSQL database: two or three service sets in
this test process, on one fake clock (services.leases, storage.cluster)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager

import psycopg
import pytest

from delivery.group_window import GroupWindow
from services import ChatInfo, ChatLeases, ServiceError
from services.directory import USERS_KEPT
from services.leases import RENEW, SCAN, TTL
from storage import Actor, Database, Status
from tests.clock import FakeClock
from tests.services.world import GROUP, PEOPLE, World

pytestmark = pytest.mark.parametrize("database", ["postgres"], indirect=True)


async def settle(*worlds: World) -> None:
    """Until every worker's background tasks only wait."""
    quiet = 0
    while quiet < 3:
        await asyncio.sleep(0.001)
        quiet = quiet + 1 if all(w.services.background.idle for w in worlds) else 0


async def advance(clock: FakeClock, seconds: float, *worlds: World) -> None:
    """Let ``seconds`` pass for every worker, waking each sleeper in its turn."""
    target = clock.now() + seconds
    while True:
        await settle(*worlds)
        wake = clock.next_wake()
        if wake is None or wake > target:
            break
        clock.wake_next()
    clock.set(target)
    await settle(*worlds)


@asynccontextmanager
async def workers(database: str, clock: FakeClock, *names: str) -> AsyncIterator[list[World]]:
    async with AsyncExitStack() as stack:
        yield [
            await stack.enter_async_context(World.open(database, clock, worker=name))
            for name in names
        ]


async def kill(world: World) -> None:
    """The worker dies: nothing it runs goes on, nothing is released."""
    await world.services.background.stop()


async def cut_off(world: World) -> None:
    """The worker loses its database: every statement it tries fails."""
    await world.services.db.close()


def leases(world: World) -> ChatLeases:
    assert world.services.leases is not None
    return world.services.leases


def holder(world: World) -> set[int]:
    return set(leases(world).held)


async def lease_of(world: World, chat_id: int) -> tuple[str, int]:
    async with world.services.db.read() as tx:
        lease = await tx.cluster.lease(chat_id)
    assert lease is not None
    return lease.worker, lease.epoch


async def test_postgres_a_chat_is_held_by_one_worker_at_a_time(
    database: str, clock: FakeClock
) -> None:
    async with workers(database, clock, "a", "b") as (a, b):
        assert await leases(a).take(GROUP)
        assert not await leases(b).take(GROUP)
        snapshot = await a.table(turn=30)
        await advance(clock, 3 * TTL, a, b)  # renewed all along
        assert holder(a) == {GROUP}
        assert holder(b) == set()
        assert await lease_of(a, GROUP) == ("a", 1)
        # B's table service was not used: A's timers alone ran the deadline.
        assert (await a.snapshot(snapshot.table.id)).table.moves == 1
        assert await a.actors(snapshot.table.id) == [Actor.TIMER]


async def test_postgres_a_dead_workers_chat_is_taken_over_with_its_timers_resumed(
    database: str, clock: FakeClock
) -> None:
    async with workers(database, clock, "a", "b") as (a, b):
        await leases(a).take(GROUP)
        snapshot = await a.table(turn=60)
        table_id = snapshot.table.id
        (seat,) = snapshot.waits()
        due = snapshot.deadlines[seat].due_at
        await advance(clock, 20, a, b)
        await kill(a)  # 40 s left on the clock, last renewed at most RENEW ago
        async with a.services.db.read() as tx:
            lease = await tx.cluster.lease(GROUP)
        assert lease is not None
        died = lease.renewed_at
        await advance(clock, TTL - RENEW, b)
        assert holder(b) == set()  # not yet expired: nobody may take it
        await advance(clock, RENEW + 2.5, b)
        assert holder(b) == {GROUP}
        assert await lease_of(b, GROUP) == ("b", 2)
        taken = await b.snapshot(table_id)
        given_back = taken.deadlines[seat].due_at - due
        # The time nobody held the chat: from A's last renewal to B's scan,
        # within a scan of the lease's expiry.
        assert TTL <= given_back <= TTL + SCAN
        assert died + given_back <= clock.now()
        await advance(clock, taken.deadlines[seat].due_at - clock.now() - 1, b)
        assert (await b.snapshot(table_id)).table.moves == 0
        await advance(clock, 2, b)
        assert await b.actors(table_id) == [Actor.TIMER]  # fired once, by B
        await advance(clock, 5, b)
        assert await b.actors(table_id) == [Actor.TIMER]


async def test_postgres_a_released_chat_is_taken_at_once_with_no_time_given_back(
    database: str, clock: FakeClock
) -> None:
    async with workers(database, clock, "a", "b") as (a, b):
        await leases(a).take(GROUP)
        snapshot = await a.table(turn=60)
        (seat,) = snapshot.waits()
        due = snapshot.deadlines[seat].due_at
        await advance(clock, 1, a, b)
        await leases(a).stop()  # a rolling restart's SIGTERM
        assert holder(a) == set()
        assert await leases(b).take(GROUP)
        assert await lease_of(b, GROUP) == ("b", 2)
        assert (await b.snapshot(snapshot.table.id)).deadlines[seat].due_at == due
        await advance(clock, 60, b)
        assert await b.actors(snapshot.table.id) == [Actor.TIMER]


async def test_postgres_a_worker_cut_off_from_the_database_stops_before_its_lease_expires(
    database: str, clock: FakeClock
) -> None:
    async with workers(database, clock, "a", "b") as (a, b):
        await leases(a).take(GROUP)
        snapshot = await a.table(turn=60)
        await advance(clock, 1, a, b)
        async with b.services.db.read() as tx:
            lease = await tx.cluster.lease(GROUP)
        assert lease is not None
        await cut_off(a)
        await advance(clock, TTL / 2 + RENEW, a, b)
        assert clock.now() < lease.expires_at  # B may not take it yet...
        assert holder(a) == set()  # ...and A has stopped acting on it already
        assert not await leases(a).take(GROUP)
        await advance(clock, TTL, b)
        assert holder(b) == {GROUP}
        await advance(clock, 80, b)
        assert await b.actors(snapshot.table.id) == [Actor.TIMER]


async def test_postgres_a_deadline_fired_by_two_workers_at_once_is_played_once(
    database: str, clock: FakeClock
) -> None:
    async with workers(database, clock, "a", "b") as (a, b):
        snapshot = await a.table(turn=30)
        table_id = snapshot.table.id
        (seat,) = snapshot.waits()
        clock.set(snapshot.deadlines[seat].due_at + 1)
        fired = await asyncio.gather(
            a.services.tables.timeout(table_id, seat), b.services.tables.timeout(table_id, seat)
        )
        assert sorted(f is None for f in fired) == [False, True]
        assert await a.actors(table_id) == [Actor.TIMER]
        # And a warning, claimed the same way, is told once.
        again = await a.snapshot(table_id)
        (nxt,) = again.waits()
        warn_at = again.deadlines[nxt].warn_at
        assert warn_at is not None
        clock.set(warn_at + 0.5)
        await asyncio.gather(
            a.services.tables.warn(table_id, nxt), b.services.tables.warn(table_id, nxt)
        )
        assert len(a.seen.warnings) + len(b.seen.warnings) == 1


async def test_postgres_a_computer_move_made_by_two_workers_at_once_is_applied_once(
    database: str, clock: FakeClock
) -> None:
    async with workers(database, clock, "a", "b") as (a, b):
        snapshot = await a.table(people=2, turn=0)
        table_id = snapshot.table.id
        (seat,) = snapshot.waits()
        code = snapshot.legal(seat)[0].encode()
        moves = snapshot.table.moves

        async def computer(world: World) -> bool:
            try:
                await world.services.tables.act(
                    table_id, seat, code, actor=Actor.COMPUTER, expected_moves=moves
                )
            except ServiceError:
                return False
            return True

        made = await asyncio.gather(computer(a), computer(b))
        assert sorted(made) == [False, True]
        assert (await a.snapshot(table_id)).table.moves == moves + 1


async def test_postgres_a_dead_workers_chats_spread_over_the_live_workers(
    database: str, clock: FakeClock
) -> None:
    chats = [GROUP - n for n in range(6)]
    async with workers(database, clock, "a", "b", "c") as (a, b, c):
        for chat_id in chats:
            async with a.services.db.transaction() as tx:
                await tx.people.upsert_chat(chat_id, "supergroup", f"Chat {chat_id}")
        for chat_id in chats:
            await leases(a).take(chat_id)
            await a.services.lobby.create(chat_id, 0, PEOPLE[0], "durak", None)
        await advance(clock, 1, a, b, c)
        await kill(a)
        await advance(clock, TTL + 2 * RENEW, b, c)
        assert holder(b) | holder(c) == set(chats)
        assert len(holder(b)) == len(holder(c)) == 3  # a fair share each
        assert not holder(b) & holder(c)


async def test_postgres_a_doubled_update_is_filed_once_and_updates_go_in_telegrams_order(
    database: str, clock: FakeClock
) -> None:
    db = await Database.open(database, now=clock.now)
    try:
        async with db.transaction() as tx:
            assert await tx.cluster.receive(GROUP, 500, '{"update_id": 500}')
            assert not await tx.cluster.receive(GROUP, 500, '{"update_id": 500}')
            assert await tx.cluster.receive(GROUP, 501, '{"update_id": 501}')
        async with db.read() as tx:
            assert [p.update_id for p in await tx.cluster.pending(GROUP)] == [500, 501]
            first = (await tx.cluster.pending(GROUP))[0]
        async with db.transaction() as tx:
            await tx.cluster.handled(first.id)
            # Redelivered after it was handled: still dropped.
            assert not await tx.cluster.receive(GROUP, 500, '{"update_id": 500}')
            # Two posts filed by two workers the other way round: Telegram's order.
            assert await tx.cluster.receive(GROUP, 503, '{"update_id": 503}')
            assert await tx.cluster.receive(GROUP, 502, '{"update_id": 502}')
        async with db.read() as tx:
            assert [p.update_id for p in await tx.cluster.pending(GROUP)] == [501, 502, 503]
            assert await tx.cluster.waiting_chats() == [GROUP]
    finally:
        await db.close()


async def test_postgres_a_groups_budget_holds_across_a_takeover(
    database: str, clock: FakeClock
) -> None:
    async with workers(database, clock, "a", "b") as (a, b):
        window_a = GroupWindow(clock, a.services.background, 20, sends=leases(a))
        window_b = GroupWindow(clock, b.services.background, 20, sends=leases(b))
        start = clock.now()
        for _ in range(20):  # A spends the minute's budget
            async with window_a.slot(GROUP):
                clock.set(clock.now() + 0.25)  # each call returns a quarter second on
            clock.set(clock.now() + 1.0)  # the next a second after it returned
        await kill(a)
        await window_b.load(GROUP)  # B takes the group over
        # The minute runs from when A's first call returned.
        assert window_b.delay(GROUP) == pytest.approx(start + 60.25 - clock.now())

        async def send() -> None:
            async with window_b.slot(GROUP):
                pass

        turn = asyncio.ensure_future(send())
        await advance(clock, start + 60.25 - clock.now() - 0.5, b)
        assert not turn.done()
        await advance(clock, 1, b)
        assert turn.done()
        with contextlib.suppress(asyncio.CancelledError):
            await turn


async def test_postgres_a_worker_releases_its_chats_when_it_stops(
    database: str, clock: FakeClock
) -> None:
    async with workers(database, clock, "a") as (a,):
        await leases(a).take(GROUP)
        table = await a.table(start=False)
        assert table.table.status is Status.LOBBY
    async with workers(database, clock, "b") as (b,):
        # The lobby's chat has work and its lease was released: taken at b's start.
        await advance(clock, 0.1, b)
        assert holder(b) == {GROUP}
        assert await lease_of(b, GROUP) == ("b", 2)
        async with b.services.db.read() as tx:
            assert await tx.cluster.live_workers(clock.now() - TTL) == 1


async def test_postgres_a_single_processs_games_go_on_under_workers_with_its_downtime_given_back(
    database: str, clock: FakeClock
) -> None:
    async with World.open(database, clock) as single:  # one process, as before
        snapshot = await single.table(turn=60)
        table_id = snapshot.table.id
        (seat,) = snapshot.waits()
        due = snapshot.deadlines[seat].due_at
        await single.advance(40)  # it stops here, its heartbeat says so
    clock.set(clock.now() + 600)  # ten minutes down
    async with workers(database, clock, "a") as (a,):
        await advance(clock, 0.1, a)
        assert holder(a) == {GROUP}
        assert (await a.snapshot(table_id)).deadlines[seat].due_at == due + 600
        await advance(clock, 19, a)
        assert (await a.snapshot(table_id)).table.moves == 0
        await advance(clock, 2, a)
        assert await a.actors(table_id) == [Actor.TIMER]


async def test_postgres_a_dead_workers_computer_moves_on_the_worker_that_takes_its_chat(
    database: str, clock: FakeClock
) -> None:
    async with workers(database, clock, "a", "b") as (a, b):
        await leases(a).take(GROUP)
        snapshot = await a.table(people=1, computers=1, turn=0)
        table_id = snapshot.table.id
        human = next(s.seat for s in snapshot.table.seats if s.user_id is not None)
        for _ in range(50):  # Anna moves until the computer is to move
            snapshot = await a.snapshot(table_id)
            if human not in snapshot.waits():
                break
            code = snapshot.legal(human)[0].encode()
            await a.services.tables.act(table_id, human, code, actor=Actor.PLAYER)
        assert snapshot.waits()
        assert human not in snapshot.waits()
        moves = snapshot.table.moves
        await kill(a)  # during the computer's pause: it never moves on A
        await advance(clock, TTL + SCAN + RENEW, b)
        assert holder(b) == {GROUP}
        after = await b.snapshot(table_id)
        assert after.table.moves > moves
        async with b.services.db.read() as tx:
            made = await tx.tables.moves_after(table_id, moves, 100)
        assert made[0].actor is Actor.COMPUTER
        assert human in after.waits() or after.table.status is Status.FINISHED


async def test_postgres_a_chats_settings_changed_on_another_worker_are_read_again_on_taking_it(
    database: str, clock: FakeClock
) -> None:
    async with workers(database, clock, "a", "b") as (a, b):
        assert await leases(b).take(GROUP)
        assert await b.services.directory.chat_language(GROUP) == "ru"  # B caches it
        await leases(b).stop()
        assert await leases(a).take(GROUP)
        group = ChatInfo(GROUP, "supergroup", "Friends")
        await a.services.directory.set_language(group, PEOPLE[0].id, "en")  # /language on A
        await a.services.directory.set_chat_pictures(GROUP, False)
        await leases(a).stop()
        await leases(b).start()
        assert await leases(b).take(GROUP)
        assert await b.services.directory.chat_language(GROUP) == "en"
        assert not await b.services.directory.chat_pictures(GROUP)


async def test_postgres_a_worker_whose_renewal_hangs_stops_acting_at_half_its_lease(
    database: str, clock: FakeClock
) -> None:
    async with workers(database, clock, "a") as (a,):
        await leases(a).take(GROUP)
        snapshot = await a.table(turn=60)
        await advance(clock, 1, a)
        taken_at = clock.now()
        # Another session holds the leases' table: every renewal waits on it.
        blocker = await psycopg.AsyncConnection.connect(database, autocommit=True)
        try:
            await blocker.execute("BEGIN")
            await blocker.execute("LOCK TABLE chat_leases IN ACCESS EXCLUSIVE MODE")
            target = taken_at + TTL / 2 + 0.5
            while (wake := clock.next_wake()) is not None and wake <= target:
                clock.wake_next()
                await asyncio.sleep(0.01)  # the renewal hangs; the watchdog does not
            clock.set(target)
            await asyncio.sleep(0.05)
            assert holder(a) == set()
            assert not leases(a).holds(GROUP)
            await blocker.execute("ROLLBACK")
        finally:
            await blocker.close()
        await advance(clock, RENEW, a)  # the renewal goes through, and releases the chat
        async with a.services.db.read() as tx:
            lease = await tx.cluster.lease(GROUP)
        assert lease is not None
        assert lease.expires_at <= clock.now()
        await advance(clock, SCAN, a)  # a chat with work that nobody holds: taken again
        assert holder(a) == {GROUP}
        await advance(clock, 60, a)
        assert await a.actors(snapshot.table.id) == [Actor.TIMER]


async def test_postgres_a_chat_answered_as_not_held_for_a_late_renewal_is_dropped_at_once(
    database: str, clock: FakeClock
) -> None:
    """A renewal late past half the TTL (the process starved, say): whoever
    asks then is told the chat is not held and lets go of it (a computer its
    turn, the timers a deadline), so the chat is dropped at once, before the
    late renewal can make the leases fresh again with nobody resuming what
    was let go of; its next taker resumes it all."""
    async with workers(database, clock, "a") as (a,):
        await leases(a).take(GROUP)
        snapshot = await a.table(people=1, computers=1, turn=60)
        clock.set(clock.now() + TTL / 2 + 0.5)  # nobody woken: the watchdog sleeps on
        assert not leases(a).holds(GROUP)
        await asyncio.sleep(0)
        assert holder(a) == set()
        await advance(clock, RENEW + SCAN, a)  # released by the renewal, taken again
        assert holder(a) == {GROUP}
        assert (await a.snapshot(snapshot.table.id)).deadlines


async def test_postgres_a_language_chosen_in_a_dm_reaches_the_other_workers_within_a_minute(
    database: str, clock: FakeClock
) -> None:
    anna = PEOPLE[0].id
    async with workers(database, clock, "a", "b") as (a, b):
        assert await b.services.directory.user_language(anna) == "ru"  # B caches it
        dm = ChatInfo(anna, "private")
        await a.services.directory.set_language(dm, anna, "en")  # /language in her DM, on A
        assert await a.services.directory.user_language(anna) == "en"
        clock.set(clock.now() + USERS_KEPT / 2)
        assert await b.services.directory.user_language(anna) == "ru"  # kept a while...
        clock.set(clock.now() + USERS_KEPT)
        assert await b.services.directory.user_language(anna) == "en"  # ...then read again
