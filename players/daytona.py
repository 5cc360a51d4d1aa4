"""A Daytona computer: drawing is the only move, and a deuce counts as whatever
takes its car further (as a 2 when that does no worse).

It reads only its seat's view (:mod:`games.daytona.views`) and works out from
the track on the table where each reading of the deuce would put the car,
with the rules' own :func:`games.daytona.track.moved`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.cards import Card
from games.core import Action, Rules
from games.daytona import AS_JOKER, AS_TWO, DaytonaRules, Deuce, value
from games.daytona.track import moved

__all__ = ["DaytonaHeuristic"]


class DaytonaHeuristic:
    def choose(
        self,
        rules: Rules,
        view: Mapping[str, Any],
        legal: Sequence[Action],
        rng: random.Random,
    ) -> Action:
        if len(legal) == 1 or not all(isinstance(a, Deuce) for a in legal):
            return legal[0]
        if not isinstance(rules, DaytonaRules):
            raise TypeError("DaytonaHeuristic plays Daytona")
        track = [value(Card.parse(c)) for c in view["track"]]
        start = value(Card.parse(view["start"]))
        at = view["positions"][view["seat"]]
        as_joker = moved(track, start, at, None, back_wins=rules.back_wins)
        as_two = moved(track, start, at, 2, back_wins=rules.back_wins)
        return AS_JOKER if as_joker > as_two else AS_TWO
