"""High card's computer: take the trick with the lowest card that takes it
when nobody after it can answer (it plays last), otherwise throw the lowest
card; lead the highest.  A search (normal and hard) plays it out in sampled
worlds."""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.core import Action, Rules
from players.computer import Computer
from tests.one_registration.actions import Play
from tests.one_registration.views import HighCardSeat

__all__ = ["COMPUTER", "HighCardHeuristic"]


class HighCardHeuristic:
    def choose(
        self, rules: Rules, view: HighCardSeat, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        plays = sorted((a for a in legal if isinstance(a, Play)), key=lambda a: a.card)
        if not view.trick or view.taken is not None:
            return plays[-1]
        best = max(p.card.rank for p in view.trick)
        played = {p.seat for p in view.trick} | {view.seat}
        waiting = sum(not out and s not in played for s, out in enumerate(view.out))
        taking = [a for a in plays if a.card.rank > best]
        if taking and waiting == 0:
            return taking[0]
        return plays[0]


COMPUTER = Computer(__name__, HighCardHeuristic(), moves_per_second=40_000)
