"""A Durak game can go round for ever (no rule ends it): past their computer's
``endless_after`` moves, computer seats move at random, and the game ends."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

import players.durak
from bot.catalog import CATALOG, Catalog
from games.core import RESIGN, Action, Rules
from games.durak.actions import Attack, Pass, Take
from games.durak.views import DurakSeatView
from storage import Actor, Status
from tests.clock import FakeClock
from tests.services.world import World


class Taker:
    """Leads its lowest card and takes whatever it is led: three of them, the
    stock gone, hand the same cards round for ever (each attacker gives one
    card, each defender takes one)."""

    def choose(
        self,
        rules: Rules,
        view: DurakSeatView,
        legal: Sequence[Action],
        rng: random.Random,
    ) -> Action:
        take = [a for a in legal if isinstance(a, Take)]
        if take:
            return take[0]
        singles = [a for a in legal if isinstance(a, Attack) and len(a.cards) == 1]
        if singles:
            return min(singles, key=lambda a: a.cards[0].order)
        return next((a for a in legal if isinstance(a, Pass)), legal[0])


COMPUTER = replace(players.durak.COMPUTER, module=__name__, heuristic=Taker(), endless_after=300)
"""Durak's computer with the taker as its heuristic, and less patience."""


async def test_computers_going_round_move_at_random_past_the_limit(database: str) -> None:
    catalog = Catalog(replace(CATALOG.listings[0], computer=COMPUTER))
    async with World.open(database, FakeClock(), catalog) as world:
        snapshot = await world.table(people=1, computers=3, turn=0, level="easy")
        table_id = snapshot.table.id
        (person,) = [s.seat for s in snapshot.table.seats if s.user_id is not None]
        await world.services.tables.act(table_id, person, RESIGN, actor=Actor.PLAYER)
        while (snapshot := await world.snapshot(table_id)).table.status is Status.PLAYING:
            assert snapshot.table.moves < 3_000, "the computers went round for ever"
            await world.advance(60.0)
        assert snapshot.table.moves > 300, "they went round until the limit"
