"""Turn timers: warnings, default moves, absence and return, restarts, lobby expiry."""

from __future__ import annotations

from pathlib import Path

from games.core import RESIGN, Wait
from services import Setting
from services.tables import LOBBY_TIMEOUT
from storage import Actor, EndReason, OnAbsence, Status
from tests.clock import FakeClock
from tests.services.world import PEOPLE, World


async def test_the_timer_warns_at_a_third_then_plays_the_default_move(world: World) -> None:
    snapshot = await world.table(turn=30)
    table_id = snapshot.table.id
    (seat,) = snapshot.waits()
    deadline = snapshot.deadlines[seat]
    assert deadline.due_at == world.clock.now() + 30
    assert deadline.warn_at == world.clock.now() + 20

    await world.advance(19.9)
    assert world.seen.warnings == []
    await world.advance(0.2)
    assert world.seen.warnings == [(table_id, seat)]
    assert (await world.snapshot(table_id)).table.moves == 0

    expected = snapshot.legal(seat)  # the default is one of these
    await world.advance(10)
    after = await world.snapshot(table_id)
    assert after.table.moves == 1
    assert await world.actors(table_id) == [Actor.TIMER]
    assert after.seat(seat).timeouts == 1
    assert not after.seat(seat).absent
    assert world.seen.warnings == [(table_id, seat)]  # once
    assert expected


async def test_three_timeouts_in_a_row_mark_absent_then_a_computer_plays_until_a_press(
    world: World,
) -> None:
    snapshot = await world.table("101", turn=30)
    table_id = snapshot.table.id
    sleeper = snapshot.table.seat_of(PEOPLE[0].id)
    assert sleeper is not None
    tables = world.services.tables
    timeouts = 0
    while timeouts < 3:
        snapshot = await world.snapshot(table_id)
        waits = snapshot.waits()
        if sleeper in waits and waits[sleeper] is Wait.DECIDE:
            await world.advance(31)
            timeouts += 1
            continue
        (seat,) = waits  # the other player moves at once
        user = snapshot.seat(seat).user_id
        assert user is not None
        action = snapshot.legal(seat)[0]
        await tables.press(table_id, user, action.encode(), at_move=snapshot.table.moves)
    snapshot = await world.snapshot(table_id)
    assert snapshot.seat(sleeper).absent
    assert snapshot.acts_for(sleeper)

    # From now on a computer moves for him, without waiting for the timer.
    for _ in range(60):
        snapshot = await world.snapshot(table_id)
        if sleeper in snapshot.waits():
            break
        (seat,) = snapshot.waits()
        user = snapshot.seat(seat).user_id
        assert user is not None
        action = snapshot.legal(seat)[0]
        await tables.press(table_id, user, action.encode(), at_move=snapshot.table.moves)
    moves = snapshot.table.moves
    await world.advance(2)
    stood_in = (await world.actors(table_id))[moves:]
    assert stood_in
    assert set(stood_in) == {Actor.COMPUTER}

    # Any press of his brings him back, even a stale one.
    await tables.touch(table_id, PEOPLE[0].id)
    back = await world.snapshot(table_id)
    assert not back.seat(sleeper).absent
    assert back.seat(sleeper).timeouts == 0
    assert not back.acts_for(sleeper)


async def test_where_absentees_are_removed_the_third_timeout_removes_him(world: World) -> None:
    snapshot = await world.table(turn=30, remove_absent=True)
    table_id = snapshot.table.id
    assert snapshot.table.on_absence is OnAbsence.REMOVE
    tables = world.services.tables
    while True:
        snapshot = await world.snapshot(table_id)
        if snapshot.table.status is not Status.PLAYING:
            break
        boris = snapshot.table.seat_of(PEOPLE[1].id)
        anna = [s for s in snapshot.waits() if s != boris]
        if not anna:
            await world.advance(30)  # Boris never moves
            continue
        seat = anna[0]
        await tables.press(
            table_id, PEOPLE[0].id, snapshot.legal(seat)[-1].encode(), at_move=snapshot.table.moves
        )
    outcome = await tables.outcome(table_id)
    assert outcome is not None
    assert outcome.losers == frozenset({boris})
    async with world.services.db.read() as tx:
        moves = await tx.tables.last_moves(table_id, 1000)
    timeouts = [m.action for m in moves if m.actor is Actor.TIMER and m.action != "p"]
    assert len(timeouts) == 3  # two default moves, then the removal
    assert timeouts[-1] == RESIGN
    assert all(m.actor is Actor.PLAYER for m in moves if m.seat != boris)


async def test_a_throwers_silence_is_a_pass_not_a_timeout(world: World) -> None:
    """In Durak the game waits for throwers once everything is beaten; their
    timer passes for them and does not count against them."""
    snapshot = await world.table(people=3, turn=30)
    table_id = snapshot.table.id
    tables = world.services.tables
    for _ in range(200):
        snapshot = await world.snapshot(table_id)
        waits = snapshot.waits()
        if waits and all(w is Wait.CONSENT for w in waits.values()):
            break
        seat = min(waits)
        user = snapshot.seat(seat).user_id
        assert user is not None
        legal = snapshot.legal(seat)
        beats = [a for a in legal if a.encode().startswith("b")]
        action = beats[0] if beats else legal[0]
        await tables.press(table_id, user, action.encode(), at_move=snapshot.table.moves)
    else:
        raise AssertionError("no bout reached the throwers")
    throwers = set(snapshot.waits())
    assert all(snapshot.deadlines[s].consent for s in throwers)
    assert all(snapshot.deadlines[s].warn_at is None for s in throwers)
    await world.advance(30)
    after = await world.snapshot(table_id)
    assert after.table.moves > snapshot.table.moves
    assert all(after.seat(s).timeouts == 0 for s in throwers)


async def test_deadlines_survive_a_restart_with_the_downtime_added(
    tmp_path: Path, clock: FakeClock
) -> None:
    path = tmp_path / "koloda.sqlite3"
    async with World.open(path, clock) as world:
        snapshot = await world.table(turn=60)
        table_id = snapshot.table.id
        (seat,) = snapshot.waits()
        due = snapshot.deadlines[seat].due_at
        await world.advance(40)  # 20 s left; the bot stops here (its heartbeat says so)
    clock.set(clock.now() + 600)  # ten minutes down
    async with World.open(path, clock) as world:
        after = await world.snapshot(table_id)
        assert after.deadlines[seat].due_at == due + 600
        await world.advance(19)
        assert (await world.snapshot(table_id)).table.moves == 0
        await world.advance(2)
        assert (await world.snapshot(table_id)).table.moves == 1
        await world.advance(1)
        assert await world.actors(table_id) == [Actor.TIMER]  # fired once


async def test_a_flood_wait_gives_the_table_that_time_back(world: World) -> None:
    snapshot = await world.table(turn=30)
    table_id = snapshot.table.id
    (seat,) = snapshot.waits()
    due = snapshot.deadlines[seat].due_at
    await world.services.timers.postpone([table_id], 5)
    assert (await world.snapshot(table_id)).deadlines[seat].due_at == due + 5
    await world.advance(31)
    assert (await world.snapshot(table_id)).table.moves == 0
    await world.advance(5)
    assert (await world.snapshot(table_id)).table.moves == 1


async def test_no_timer_when_the_table_chose_none(world: World) -> None:
    snapshot = await world.table(turn=0)
    assert snapshot.deadlines == {}
    await world.advance(3600)
    assert (await world.snapshot(snapshot.table.id)).table.moves == 0


async def test_a_lobby_nobody_starts_expires_and_activity_postpones_it(world: World) -> None:
    snapshot = await world.table(start=False)
    table_id = snapshot.table.id
    await world.advance(LOBBY_TIMEOUT - 60)
    await world.services.lobby.cycle_setting(table_id, PEOPLE[0], Setting.TURN)
    await world.advance(120)
    assert (await world.snapshot(table_id)).table.status is Status.LOBBY
    await world.advance(LOBBY_TIMEOUT)
    closed = await world.snapshot(table_id)
    assert closed.table.status is Status.CANCELLED
    assert closed.table.end_reason is EndReason.EXPIRED
    assert closed.deadlines == {}
