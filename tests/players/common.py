"""Shared by the player tests: a player wrapper that checks every answer, and
the confidence bound the strength tests use."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from bench.arena import wilson as bench_wilson
from games.core import Action, Rules, View
from players.base import Player

Z99 = 2.576
"""Two-sided 99% normal quantile: a bound that holds 99 times in 100."""


def wilson(successes: int, n: int, z: float = Z99) -> tuple[float, float]:
    """Wilson score interval of a rate measured as ``successes`` out of ``n``
    (99% by default: a bound that holds 99 times in 100)."""
    return bench_wilson(successes, n, z)


class Checked:
    """Wraps a player: its answer must be one of the legal actions, and it must
    not change the list of legal actions (the view it is shown is a frozen
    dataclass of tuples: nothing can change it)."""

    def __init__(self, player: Player[Any]) -> None:
        self.player = player
        self.calls = 0

    def choose(
        self, rules: Rules, view: Any, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        assert legal, "a player is asked only when it has legal actions"
        assert isinstance(view, View), "a player is shown a typed, frozen view"
        offered = list(legal)
        action = self.player.choose(rules, view, legal, rng)
        assert action in offered, f"{action!r} is not legal"
        assert list(legal) == offered, "the player changed the legal actions"
        self.calls += 1
        return action
