"""What a computer player is."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from games.core import Action, Rules

__all__ = ["Player"]


class Player(Protocol):
    def choose(
        self,
        rules: Rules,
        view: Mapping[str, Any],
        legal: Sequence[Action],
        rng: random.Random,
    ) -> Action:
        """One of ``legal`` (never empty), seeing only the seat's own ``view``."""
