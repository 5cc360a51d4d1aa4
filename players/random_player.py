"""The baseline: a uniformly random legal move."""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.core import Action, Rules

__all__ = ["RandomPlayer"]


class RandomPlayer:
    """Picks uniformly among the legal actions (the benchmark to beat); it
    reads no view, so it plays every game (a ``Player[object]``)."""

    def choose(
        self,
        rules: Rules,
        view: object,
        legal: Sequence[Action],
        rng: random.Random,
    ) -> Action:
        return legal[rng.randrange(len(legal))]
