"""What a computer player is.

A player sees exactly what a person in its seat sees: the game's (public)
rules, its seat's view (``game.view(seat)``) and that seat's legal
actions.  It never receives the game object, so it cannot peek at hidden
cards: the guarantee holds by construction, not by promise.

Players are stateless (one object may serve any number of seats and games)
and deterministic given the ``random.Random`` they are handed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol, TypeVar

from games.core import Action, Rules

__all__ = ["Player"]


V = TypeVar("V", contravariant=True)
"""The seat view of the game the player plays."""


class Player(Protocol[V]):
    """Chooses one move for one seat."""

    def choose(
        self,
        rules: Rules,
        view: V,
        legal: Sequence[Action],
        rng: random.Random,
    ) -> Action:
        """Return one element of ``legal`` (never empty).

        ``view`` is ``game.view(seat)`` for the seat on move and ``legal`` is
        ``game.legal_actions(seat)``.  The same arguments and an rng in the
        same state give the same action.
        """
        ...
