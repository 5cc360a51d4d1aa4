"""Duplicates: the same deal again with the people turned round the seats.

For every game the duplicate deals each person the hand his left neighbour
had, and the same moves by the same places replay the whole match to the same
end (101's later rounds, Joker's later deals and Daytona's races come from the
same seed); the set's comparison follows its last game; presses that are not
in order are refused; five seats are not offered one."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.catalog import CATALOG, Catalog
from games.core import Game
from services import Actor, Duplicates, ServiceError, Status
from services.duplicates import matchpoints
from services.fairness import commitment
from tests.postgres import execute
from tests.services.world import PEOPLE, SHORT_GAMES, World


async def _dealt(world: World, table_id: int) -> Game[Any, Any, Any, Any]:
    history = await world.services.histories.of(table_id)
    return history.start()


async def check_duplicate_of_every_game(world: World, catalog: Catalog, game: str) -> None:
    """A game of ``catalog`` played out, then its duplicate: the turned seats'
    hands, the whole match replayed by place, and the deal's proof."""
    spec = catalog.specs[game]
    people = spec.seat_range(spec.preset()).start
    first = (await world.table(game, people=people, options=SHORT_GAMES.get(game))).table
    over = await world.play_out(first.id, 5)
    n = len(first.seats)

    dup = (await world.services.duplicates.deal_next(first.id, PEOPLE[1])).table
    assert (dup.duplicate_of, dup.rotation, dup.status) == (first.id, 1, Status.PLAYING)
    assert (dup.seed, dup.commitment, dup.rules) == (first.seed, first.commitment, first.rules)
    for place in range(n):  # seat j takes the person who sat at j - 1
        assert dup.seats[place].user_id == first.seats[(place - 1) % n].user_id
    before, again = await _dealt(world, first.id), await _dealt(world, dup.id)
    assert again.dump() == before.dump()
    for row in first.seats:
        assert row.user_id is not None
        neighbour = (row.seat + 1) % n
        assert dup.seat_of(row.user_id) == neighbour  # his left neighbour's place
        assert again.view(neighbour) == before.view(neighbour)  # and hand

    # The same moves by the same places play the same match to the same end.
    history = await world.services.histories.of(first.id)
    for move in history.moves:
        await world.services.tables.act(dup.id, move.seat, move.action, actor=Actor.PLAYER)
    replayed = await world.snapshot(dup.id)
    assert replayed.table.status is Status.FINISHED
    assert replayed.table.state == over.table.state

    verdict = await world.services.fairness.verify(None, dup.id)
    assert verdict.ok, verdict
    assert (verdict.duplicate_of, verdict.rotation) == (first.id, 1)


@pytest.mark.parametrize("game", sorted(CATALOG.specs))
async def test_duplicate_deals_each_person_his_neighbours_hand_in_every_game(
    world: World, game: str
) -> None:
    await check_duplicate_of_every_game(world, CATALOG, game)


async def test_duplicate_set_of_two_ends_in_its_comparison(world: World) -> None:
    first = (await world.table("durak", people=2)).table
    await world.play_out(first.id, 1)
    assert Duplicates.offered(await world.services.snapshots.table(first.id))
    dup = (await world.services.duplicates.deal_next(first.id, PEOPLE[0])).table
    await world.play_out(dup.id, 2)
    last = await world.services.snapshots.table(dup.id)
    assert Duplicates.completes(last)
    assert not Duplicates.offered(last)
    comparison = await world.services.duplicates.comparison(dup.id)
    assert comparison is not None
    assert comparison.first.id == first.id
    outcomes = [await world.services.snapshots.outcome(t) for t in (first.id, dup.id)]
    for hand in range(2):
        for person in range(2):
            # Anna (seat 0 at first) held hand h in game h; Boris in game 1 - h.
            outcome = outcomes[(hand - person) % 2]
            assert outcome is not None
            assert comparison.results[hand][person].points == matchpoints(outcome, hand, 2)
    assert sum(comparison.totals) == 2 * 2  # two games, 2 points each
    with pytest.raises(ServiceError, match=r"duplicate\.not_offered"):
        await world.services.duplicates.deal_next(dup.id, PEOPLE[0])


async def test_duplicate_presses_out_of_order_are_refused(world: World) -> None:
    first = (await world.table("durak", people=2)).table
    with pytest.raises(ServiceError, match=r"error\.not_finished"):
        await world.services.duplicates.deal_next(first.id, PEOPLE[0])
    await world.play_out(first.id, 5)
    with pytest.raises(ServiceError, match=r"error\.not_seated"):
        await world.services.duplicates.deal_next(first.id, PEOPLE[2])
    with pytest.raises(ServiceError, match=r"error\.no_table"):
        await world.services.duplicates.deal_next(first.id + 100, PEOPLE[0])
    dup = (await world.services.duplicates.deal_next(first.id, PEOPLE[0])).table
    with pytest.raises(ServiceError, match=r"duplicate\.already"):  # the second press
        await world.services.duplicates.deal_next(first.id, PEOPLE[1])
    await world.services.moderation.cancel(dup.id, PEOPLE[0], is_admin=False)
    again = (await world.services.duplicates.deal_next(first.id, PEOPLE[1])).table
    assert (again.duplicate_of, again.rotation) == (first.id, 1)  # a cancelled one is dealt anew


async def test_duplicate_is_not_offered_for_five_players(world: World) -> None:
    first = (await world.table("durak", people=4, computers=1)).table
    assert len(first.seats) == 5
    await world.play_out(first.id, 5)
    finished = await world.services.snapshots.table(first.id)
    assert finished.status is Status.FINISHED
    assert not Duplicates.offered(finished)
    with pytest.raises(ServiceError, match=r"duplicate\.not_offered"):
        await world.services.duplicates.deal_next(first.id, PEOPLE[0])


async def test_a_duplicate_whose_deal_is_not_its_first_tables_is_refused(world: World) -> None:
    """The duplicate's stored deal and commitment rewritten together (a bot that
    dealt other cards under the first table's seed): /verify deals the first
    table's game again and finds it is not these cards."""
    first = (await world.table("durak", people=2)).table
    await world.play_out(first.id, 5)
    dup = (await world.services.duplicates.deal_next(first.id, PEOPLE[0])).table
    assert dup.seed is not None
    await world.play_out(dup.id, 5)
    dealt = (await _dealt(world, dup.id)).dump()
    hands = dealt["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    execute(
        world.database,
        "UPDATE tables SET deal = ?, commitment = ? WHERE id = ?",
        (json.dumps(dealt), commitment("durak", dup.seed, dealt), dup.id),
    )
    verdict = await world.services.fairness.verify(None, dup.id)
    assert verdict.problem == "deal"


async def test_duplicate_comparison_places_a_durak_last_not_beyond_the_table(
    world: World,
) -> None:
    """Three people: the durak of each game is third, never "4th" at a table
    of three, and everybody else's place is his place at that table."""
    tables = [(await world.table("durak", people=3)).table.id]
    for rotation in range(3):
        await world.play_out(tables[-1], rotation + 7)
        if rotation < 2:
            tables.append(
                (await world.services.duplicates.deal_next(tables[-1], PEOPLE[0])).table.id
            )
    comparison = await world.services.duplicates.comparison(tables[-1])
    assert comparison is not None
    for hand, of_hand in enumerate(comparison.results):
        for person, result in enumerate(of_hand):
            outcome = await world.services.snapshots.outcome(tables[(hand - person) % 3])
            assert outcome is not None
            place = next(i for i, group in enumerate(outcome.places, 1) if hand in group)
            assert result.place == place
            assert result.place == 3 if hand in outcome.losers else result.place < 3
