"""The rules of High card: how many cards a hand holds, and the seat range."""

from __future__ import annotations

from dataclasses import dataclass

from games.core import Rules, option

__all__ = ["PRESETS", "HighCardRules", "seat_range"]


@dataclass(frozen=True)
class HighCardRules(Rules):
    """Options of a High card game (36 cards, two to four players)."""

    hand: int = option(5, 3, 5)
    """Cards each player holds; after each trick everybody draws back up to it
    while the stock has a card for every player."""


def seat_range(rules: HighCardRules) -> range:
    return range(2, 5)


PRESETS: dict[str, HighCardRules] = {
    "quick": HighCardRules(hand=3),
    "classic": HighCardRules(hand=5),
}
"""``quick`` is the default (the first)."""
