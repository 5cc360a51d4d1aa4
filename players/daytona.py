"""A Daytona computer: drawing is the only move, and a deuce counts as whatever
takes its car further (as a 2 when that does no worse).

It reads only its seat's view (:mod:`games.daytona.views`) and works out from
the track on the table where each reading of the deuce would put the car,
with the rules' own :func:`games.daytona.track.moved`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.core import Action, Rules
from games.daytona import AS_JOKER, AS_TWO, DaytonaRules, Deuce, value
from games.daytona.track import moved
from games.daytona.views import DaytonaSeatView
from players.base import Player
from players.computer import Arena, Computer, Trial
from players.search import Horizon

__all__ = ["COMPUTER", "AlwaysTwo", "DaytonaHeuristic"]


class DaytonaHeuristic(Player[DaytonaSeatView]):
    def choose(
        self,
        rules: Rules,
        view: DaytonaSeatView,
        legal: Sequence[Action],
        rng: random.Random,
    ) -> Action:
        if len(legal) == 1 or not all(isinstance(a, Deuce) for a in legal):
            return legal[0]
        if not isinstance(rules, DaytonaRules):
            raise TypeError("DaytonaHeuristic plays Daytona")
        track = [value(c) for c in view.track]
        start = value(view.start)
        at = view.positions[view.seat]
        as_joker = moved(track, start, at, None, back_wins=rules.back_wins)
        as_two = moved(track, start, at, 2, back_wins=rules.back_wins)
        return AS_JOKER if as_joker > as_two else AS_TWO


class AlwaysTwo(Player[DaytonaSeatView]):
    """The arena's baseline: a deuce always counts 2."""

    def choose(
        self,
        rules: Rules,
        view: DaytonaSeatView,
        legal: Sequence[Action],
        rng: random.Random,
    ) -> Action:
        if any(isinstance(a, Deuce) for a in legal):
            return AS_TWO
        return legal[0]


COMPUTER = Computer(
    __name__,
    DaytonaHeuristic(),
    moves_per_second=70_000,
    horizon=Horizon(stop_at=frozenset({"points", "match_over"}), scale=5.0),
    # The deuce is the only choice, and the heuristic works out where each
    # reading puts the car: sampled races would only add noise.
    exact=True,
    arena=Arena(
        (
            Trial("sprint", 3, "always2", baseline=AlwaysTwo()),
            Trial("sprint", 3, "heuristic"),
            Trial("sprint", 3),
        ),
        deals=100,
        quick_deals=30,
        max_moves=50_000,
    ),
)
