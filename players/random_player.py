"""A player that picks any legal move: the baseline to measure others against."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.core import Action, Rules

__all__ = ["RandomPlayer"]


class RandomPlayer:
    def choose(
        self,
        rules: Rules,
        view: Mapping[str, Any],
        legal: Sequence[Action],
        rng: random.Random,
    ) -> Action:
        return rng.choice(list(legal))
