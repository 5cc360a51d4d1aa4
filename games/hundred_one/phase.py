"""The phases of a 101 match (see :mod:`games.hundred_one.engine`)."""

from __future__ import annotations

import enum

__all__ = ["Phase"]


class Phase(enum.Enum):
    """What the match waits for."""

    PLAY = "play"
    """The seat on move lays a card, draws or passes."""
    ORDER = "order"
    """The seat on move has laid a master card (or, in English durak, a card
    of an ace's suit on the ace) and orders a suit."""
    ROUND_OVER = "round_over"
    """The round is scored; any remaining player deals the next one."""
    OVER = "over"
    """The match is decided."""
