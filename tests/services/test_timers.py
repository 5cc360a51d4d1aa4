"""Turn timers: warnings, default moves, whole turns, absence and return, restarts,
lobby expiry."""

from __future__ import annotations

from games.core import RESIGN, Wait
from services import Setting, Snapshot
from services.turns import LOBBY_TIMEOUT
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
    assert world.seen.warnings == [(table_id, seat)]  # once
    assert expected


async def press(world: World, table_id: int, seat: int, code: str | None = None) -> Snapshot:
    """``seat``'s player presses ``code`` (by default his first legal move)."""
    snapshot = await world.snapshot(table_id)
    user = snapshot.seat(seat).user_id
    assert user is not None
    code = code or snapshot.legal(seat)[0].encode()
    return await world.services.tables.press(table_id, user, code, at_move=snapshot.table.moves)


def deciding(snapshot: Snapshot) -> int | None:
    """The seat the game waits on to decide, if any."""
    return next((s for s, w in snapshot.waits().items() if w is Wait.DECIDE), None)


async def turn_of(world: World, table_id: int, seat: int, *, draw: bool = False) -> Snapshot:
    """The others press at once (and ``seat`` too, while his turn is not the
    one wanted) until it is ``seat``'s turn; with ``draw``, a turn of his in
    which drawing is all he may do."""
    for _ in range(500):
        snapshot = await world.snapshot(table_id)
        mover = deciding(snapshot)
        if mover is None:  # between rounds: somebody deals the next one
            assert snapshot.table.status is Status.PLAYING
            await press(world, table_id, min(snapshot.waits()))
            continue
        codes = [a.encode() for a in snapshot.legal(mover)]
        if mover == seat and (not draw or codes == ["d"]):
            return snapshot
        await press(world, table_id, mover)
    raise AssertionError("no such turn came")


async def test_a_turns_timer_covers_the_whole_turn_a_draw_does_not_renew_it(
    world: World,
) -> None:
    """101: a player who draws keeps the deadline of his turn; when it runs out
    the timer plays the rest of the turn, and a player who pressed is not away."""
    snapshot = await world.table("101", turn=30)
    table_id = snapshot.table.id
    anna = snapshot.table.seat_of(PEOPLE[0].id)
    assert anna is not None
    snapshot = await turn_of(world, table_id, anna, draw=True)
    due = snapshot.deadlines[anna].due_at
    await world.advance(25)
    drawn = await press(world, table_id, anna, "d")
    assert deciding(drawn) == anna  # the drawn card fits: he is still to play it
    assert drawn.deadlines[anna].due_at == due  # the same turn, the same deadline
    assert drawn.deadlines[anna].warn_at is None  # and he was warned already
    moves = drawn.table.moves
    await world.advance(4.9)
    assert (await world.snapshot(table_id)).table.moves == moves
    await world.advance(0.2)
    after = await world.snapshot(table_id)
    async with world.services.db.read() as tx:
        timed = (await tx.tables.last_moves(table_id, 100))[moves:]
    assert timed  # the rest of his turn (a nine makes him move again), at once
    assert all(m.actor is Actor.TIMER and m.seat == anna and m.at == due for m in timed)
    assert deciding(after) != anna
    assert after.seat(anna).timeouts == 1
    assert not after.seat(anna).absent


async def test_the_timer_sleeps_until_the_next_deadline_that_still_stands(world: World) -> None:
    """Every move outdates the deadlines before it: the timer wakes for none of
    them, only for the next warning or deadline of the table as it is."""
    snapshot = await world.table(turn=30)
    table_id = snapshot.table.id
    for _ in range(12):
        await world.advance(1)
        assert snapshot.table.status is Status.PLAYING
        snapshot = await press(world, table_id, min(snapshot.waits()))
        await world.settle()
    live = [t for d in snapshot.deadlines.values() for t in (d.warn_at, d.due_at) if t is not None]
    assert live
    assert world.clock.next_wake() == min(live)


async def test_one_timeout_plays_out_a_whole_101_turn_at_once(world: World) -> None:
    """The idle turn of the issue: the timer draws and then plays at the same
    moment, not after a fresh full timer, and it counts as one timeout."""
    snapshot = await world.table("101", turn=30)
    table_id = snapshot.table.id
    anna = snapshot.table.seat_of(PEOPLE[0].id)
    assert anna is not None
    if deciding(snapshot) == anna:
        snapshot = await press(world, table_id, anna)  # she has pressed: not away at once
    snapshot = await turn_of(world, table_id, anna, draw=True)
    assert snapshot.seat(anna).timeouts == 0
    started = world.clock.now()
    moves = snapshot.table.moves
    await world.advance(30)
    async with world.services.db.read() as tx:
        timed = (await tx.tables.last_moves(table_id, 100))[moves:]
    assert timed[0].action == "d"
    assert len(timed) > 1  # the drawn card fits: the timer plays on at once
    assert all(m.actor is Actor.TIMER and m.seat == anna and m.at == started + 30 for m in timed)
    after = await world.snapshot(table_id)
    assert deciding(after) != anna
    assert after.seat(anna).timeouts == 1  # one turn, one timeout
    assert not after.seat(anna).absent


async def test_a_new_turn_after_the_others_moved_gets_the_full_time(world: World) -> None:
    snapshot = await world.table("101", turn=30)
    table_id = snapshot.table.id
    anna = snapshot.table.seat_of(PEOPLE[0].id)
    assert anna is not None
    snapshot = await turn_of(world, table_id, anna)
    await world.advance(25)
    while deciding(snapshot) == anna:  # she ends her turn with 5 s left
        snapshot = await press(world, table_id, anna)
    while deciding(snapshot) != anna:  # the others move
        mover = deciding(snapshot)
        assert mover is not None
        snapshot = await press(world, table_id, mover)
    assert snapshot.deadlines[anna].due_at == world.clock.now() + 30
    assert snapshot.deadlines[anna].warn_at == world.clock.now() + 20


async def test_a_player_who_never_presses_is_away_after_his_first_timed_out_turn(
    world: World,
) -> None:
    """Then a computer plays his seat at once, his seat has no clock, and any
    press of his brings him back."""
    snapshot = await world.table("101", turn=30)
    table_id = snapshot.table.id
    sleeper = snapshot.table.seat_of(PEOPLE[1].id)
    assert sleeper is not None
    snapshot = await turn_of(world, table_id, sleeper)
    await world.advance(29.9)
    assert not (await world.snapshot(table_id)).seat(sleeper).absent
    await world.advance(0.2)
    snapshot = await world.snapshot(table_id)
    assert snapshot.seat(sleeper).absent
    assert snapshot.acts_for(sleeper)

    # From now on a computer moves for him, without waiting for a timer.
    snapshot = await turn_of(world, table_id, sleeper)
    assert sleeper not in snapshot.deadlines
    moves = snapshot.table.moves
    await world.advance(2)
    stood_in = (await world.actors(table_id))[moves:]
    assert stood_in
    assert set(stood_in) == {Actor.COMPUTER}

    # Any press of his brings him back, even a stale one.
    await world.services.tables.touch(table_id, PEOPLE[1].id)
    back = await world.snapshot(table_id)
    assert not back.seat(sleeper).absent
    assert back.seat(sleeper).timeouts == 0
    assert not back.acts_for(sleeper)
    back = await turn_of(world, table_id, sleeper)
    assert back.deadlines[sleeper].due_at == world.clock.now() + 30


async def test_a_player_who_leaves_mid_game_is_away_after_two_timed_out_turns(
    world: World,
) -> None:
    snapshot = await world.table("101", turn=30)
    table_id = snapshot.table.id
    sleeper = snapshot.table.seat_of(PEOPLE[1].id)
    assert sleeper is not None
    await turn_of(world, table_id, sleeper)
    await press(world, table_id, sleeper)  # he plays once, then goes away
    for timeouts in (1, 2):
        await turn_of(world, table_id, sleeper)
        await world.advance(30)
        snapshot = await world.snapshot(table_id)
        assert snapshot.seat(sleeper).timeouts == timeouts
        assert snapshot.seat(sleeper).absent == (timeouts == 2)


async def test_a_slow_player_who_presses_between_timeouts_is_never_away(world: World) -> None:
    """He lets turns run out, but presses something between two of them (a
    move, or a button that makes none: a sub-menu, "I am here")."""
    snapshot = await world.table("101", turn=30)
    table_id = snapshot.table.id
    slow = snapshot.table.seat_of(PEOPLE[1].id)
    assert slow is not None
    for turn in ("press", "timeout", "touch", "press", "timeout", "touch"):
        snapshot = await turn_of(world, table_id, slow)
        if turn == "press":
            await world.advance(29)
            while deciding(snapshot) == slow:  # slowly, but in time
                snapshot = await press(world, table_id, slow)
        else:
            if turn == "touch":  # a button that makes no move, after a timeout
                await world.services.tables.touch(table_id, PEOPLE[1].id)
            await world.advance(30)
        snapshot = await world.snapshot(table_id)
        assert not snapshot.seat(slow).absent
        assert snapshot.seat(slow).timeouts == (turn != "press")
    assert Actor.TIMER in await world.actors(table_id)


async def test_where_absentees_are_removed_a_player_who_never_presses_leaves_at_once(
    world: World,
) -> None:
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
    outcome = await world.services.snapshots.outcome(table_id)
    assert outcome is not None
    assert outcome.losers == frozenset({boris})
    async with world.services.db.read() as tx:
        moves = await tx.tables.last_moves(table_id, 1000)
    timeouts = [m.action for m in moves if m.actor is Actor.TIMER and m.action != "p"]
    assert timeouts == [RESIGN]  # his first timed-out turn removed him
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
    assert all(after.seat(s).timeouts == snapshot.seat(s).timeouts for s in throwers)


async def test_deadlines_survive_a_restart_with_the_downtime_added(
    database: str, clock: FakeClock
) -> None:
    path = database
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
