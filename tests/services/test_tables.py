"""Acting by seat: whoever acts, one transaction, the stale rule, the snapshots."""

from __future__ import annotations

import asyncio
import random

import pytest

from games.core import RESIGN
from games.durak.views import DurakSeatView
from services import ServiceError
from storage import Actor, Status
from tests.services.world import PEOPLE, World


async def test_a_move_by_seat_is_logged_with_its_actor_and_observed(world: World) -> None:
    snapshot = await world.table(turn=0)
    (seat,) = snapshot.waits()
    action = snapshot.legal(seat)[0]
    after = await world.services.tables.act(
        snapshot.table.id, seat, action.encode(), actor=Actor.TIMER
    )
    assert after.table.moves == 1
    assert after.table.version > snapshot.table.version
    assert world.seen.snapshots[-1] is after
    assert await world.actors(snapshot.table.id) == [Actor.TIMER]
    assert [e.move for e in after.recent] == [1] * len(after.recent)


async def test_a_conditional_move_is_refused_once_the_table_moved_on(world: World) -> None:
    snapshot = await world.table(turn=0)
    (seat,) = snapshot.waits()
    code = snapshot.legal(seat)[0].encode()
    await world.services.tables.act(snapshot.table.id, seat, code, actor=Actor.COMPUTER)
    with pytest.raises(ServiceError) as refused:
        await world.services.tables.act(
            snapshot.table.id, seat, code, actor=Actor.COMPUTER, expected_moves=0
        )
    assert refused.value.key == "error.stale_button"


async def test_button_presses_map_a_user_to_his_seat_and_refuse_the_rest(world: World) -> None:
    snapshot = await world.table(turn=0)
    table_id = snapshot.table.id
    (seat,) = snapshot.waits()
    mover = snapshot.seat(seat).user_id
    other = next(s.user_id for s in snapshot.table.seats if s.seat != seat)
    assert mover is not None
    assert other is not None
    code = snapshot.legal(seat)[0].encode()
    tables = world.services.tables

    with pytest.raises(ServiceError) as stranger:
        await tables.press(table_id, 999, code, at_move=0)
    assert stranger.value.key == "error.not_your_table"
    with pytest.raises(ServiceError) as not_his:
        await tables.press(table_id, other, code, at_move=0)
    assert not_his.value.key.startswith("illegal.")
    with pytest.raises(ServiceError) as forged:
        await tables.press(table_id, mover, "zz", at_move=0)
    assert forged.value.key == "error.bad_button"
    with pytest.raises(ServiceError) as future:
        await tables.press(table_id, mover, code, at_move=5)
    assert future.value.key == "error.stale_button"
    assert (await world.snapshot(table_id)).table.moves == 0

    await tables.press(table_id, mover, code, at_move=0)
    with pytest.raises(ServiceError) as doubled:
        await tables.press(table_id, mover, code, at_move=0)
    assert doubled.value.key == "error.stale_button"
    assert (await world.snapshot(table_id)).table.moves == 1


async def test_snapshots_show_each_seat_only_its_own_view(world: World) -> None:
    snapshot = await world.table(people=3, turn=0)
    hands = [snapshot.view(seat).hand for seat in range(3)]
    assert all(len(h) == 6 for h in hands)
    assert not isinstance(snapshot.public, DurakSeatView)  # no hand in it
    for seat in range(3):
        if seat not in snapshot.waits():
            assert snapshot.legal(seat) == ()


async def test_a_finished_game_records_the_result_and_people_scores(world: World) -> None:
    snapshot = await world.table(people=2, computers=1, turn=0)
    table_id = snapshot.table.id
    seat = snapshot.table.seat_of(PEOPLE[1].id)
    assert seat is not None
    # Left absent at a table that removes absentees: he walked away, and lost.
    after = await world.services.tables.act(table_id, seat, RESIGN, actor=Actor.TIMER)
    assert after.table.status is Status.PLAYING  # Anna and the computer play on
    await world.play_people(table_id, random.Random(2))
    outcome = await world.services.snapshots.outcome(table_id)
    assert outcome is not None
    assert seat not in outcome.winners
    board = await world.services.scores.leaderboard(-100)
    assert board == {}  # a game with a computer ranks nobody
    stats = await world.services.scores.stats(PEOPLE[1].id)
    assert [(r.game, r.with_computers, r.played, r.losses) for r in stats] == [
        ("durak", True, 1, 1)
    ]


async def test_a_game_a_kick_ends_counts_for_nobody(world: World) -> None:
    snapshot = await world.table("101", people=2, turn=0)
    table_id = snapshot.table.id
    after = await world.services.moderation.kick(table_id, PEOPLE[1].id, PEOPLE[0], is_admin=False)
    assert after.table.status is Status.FINISHED
    assert await world.services.snapshots.outcome(table_id) is not None  # the result is kept
    assert await world.services.scores.stats(PEOPLE[0].id) == []
    assert await world.services.scores.stats(PEOPLE[1].id) == []


async def test_a_kicked_durak_player_gets_no_result_and_the_others_play_it_out(
    world: World,
) -> None:
    snapshot = await world.table(people=3, turn=0)
    table_id = snapshot.table.id
    vera = snapshot.table.seat_of(PEOPLE[2].id)
    after = await world.services.moderation.kick(table_id, PEOPLE[2].id, PEOPLE[0], is_admin=False)
    assert after.table.status is Status.PLAYING
    assert after.public.left == (vera,)
    await world.play_people(table_id, random.Random(4))
    outcome = await world.services.snapshots.outcome(table_id)
    assert outcome is not None
    assert vera not in outcome.losers | outcome.winners
    assert await world.services.scores.stats(PEOPLE[2].id) == []
    played = {
        p.first_name: (r.played, r.wins + r.losses + r.draws)
        for p in PEOPLE[:2]
        for r in await world.services.scores.stats(p.id)
    }
    assert played == {"Anna": (1, 1), "Boris": (1, 1)}


async def test_the_table_lock_serializes_one_table_and_leaves_nothing_behind(
    world: World,
) -> None:
    tables = world.services.tables
    order: list[str] = []

    async def work(name: str, table: int) -> None:
        async with tables.lock(table):
            order.append(f"{name}+")
            await asyncio.sleep(0.01)
            order.append(f"{name}-")

    await asyncio.gather(work("a", 1), work("b", 1), work("c", 2))
    first_table = [x for x in order if x[0] in "ab"]
    assert first_table in (["a+", "a-", "b+", "b-"], ["b+", "b-", "a+", "a-"])
    assert order.index("c+") < order.index("a-") or order.index("c+") < order.index("b-")
    async with tables.lock(1):
        pass  # taken and released again: nothing was left held


async def test_a_player_who_left_for_a_computer_gets_no_win_from_it(world: World) -> None:
    """Boris sent «/leave» at the first move where a computer plays an absent
    player's seat; it won the game for him, and /scores gave him the win: a
    weak player could leave every game to a hard computer and top the chat.
    Away at the end, he walked away from the game, as a table that removes
    absentees has it: played and lost (his rating moves by his share of the
    moves, none here: docs/ratings.md)."""
    anna, boris = PEOPLE[0], PEOPLE[1]
    snapshot = await world.table(people=2, turn=60)
    table_id = snapshot.table.id
    seat = snapshot.table.seat_of(boris.id)
    assert seat is not None
    await world.services.lobby.leave(table_id, boris)
    await world.play_people(table_id, random.Random(1), only={anna.id})
    outcome = await world.services.snapshots.outcome(table_id)
    assert outcome is not None
    assert seat in outcome.winners  # the computer won his seat's game
    stats = await world.services.scores.stats(boris.id)
    assert [(r.played, r.wins, r.draws, r.losses) for r in stats] == [(1, 0, 0, 1)]
