"""Joker's achievements, read from a finished game.

- ``last_khisht`` (хишт на посошок): a khisht — a bid of one or more and no
  trick taken — in the game's very last deal (the 24th of the classic game),
  when nothing is left to make up for it.  Not in minus joker, which has no
  khisht.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from games.joker.scoring import is_khisht
from games.joker.state import JokerState

__all__ = ["achievements"]


def achievements(
    game: JokerState, moves: Sequence[tuple[int, str]]
) -> Mapping[int, tuple[str, ...]]:
    if game.outcome() is None or game.rules.minus or not game._rows:
        return {}
    last = game._rows[-1]
    return {
        seat: ("last_khisht",)
        for seat in range(game.seats)
        if is_khisht(last.bids[seat], last.tricks[seat])
    }
