"""A Daytona computer: drawing is the only move, and a deuce counts as whatever
takes its car further (as a 2 when that does no worse).

It reads only its seat's view (:mod:`games.daytona.views`) and works out from
the track on the table where each reading of the deuce would put the car,
exactly as the rules move it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.cards import Card
from games.core import Action, Rules
from games.daytona import AS_JOKER, AS_TWO, FINISHED, DaytonaRules, Deuce, value

__all__ = ["DaytonaHeuristic", "moved"]

_LAST_CARD = FINISHED - 1


def moved(rules: DaytonaRules, view: Mapping[str, Any], at: int, drawn: int | None) -> int:
    """Where a car at ``at`` goes with the value ``drawn`` (None: a joker)."""
    if at >= FINISHED:
        return at
    track = [value(Card.parse(c)) for c in view["track"]]
    start = value(Card.parse(view["start"]))
    ahead = start if at in (0, _LAST_CARD) else track[at - 1]
    if drawn is None:
        return at if at == _LAST_CARD else at + 1
    under = start if at == 1 else track[at - 2] if at > 1 else None
    back = at > 1 and under is not None and abs(drawn - under) <= 2
    forward = abs(drawn - ahead) <= (1 if at == _LAST_CARD else 2)
    if back and (rules.back_wins or not forward):
        return at - 1
    return at + 1 if forward else at


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
        at = view["positions"][view["seat"]]
        as_joker, as_two = moved(rules, view, at, None), moved(rules, view, at, 2)
        return AS_JOKER if as_joker > as_two else AS_TWO
