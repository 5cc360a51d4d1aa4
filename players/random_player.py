"""The baseline: a uniformly random legal move."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.core import Action, Rules

__all__ = ["RandomPlayer"]


class RandomPlayer:
    """Picks uniformly among the legal actions (the benchmark to beat)."""

    def choose(
        self,
        rules: Rules,
        view: Mapping[str, Any],
        legal: Sequence[Action],
        rng: random.Random,
    ) -> Action:
        return legal[rng.randrange(len(legal))]
