"""The rules of Daytona: the lobby's one option (the target score) and the seat
range.  ``docs/rules/daytona.md`` explains the game."""

from __future__ import annotations

from dataclasses import dataclass

from games.core import Rules, option

__all__ = ["PRESETS", "DaytonaRules", "seat_range"]


@dataclass(frozen=True)
class DaytonaRules(Rules):
    """Options of a Daytona match."""

    target: int = option(30, 30, 50, 100)
    """Match points that end the match (places score 10, 5, 2, 0 a race)."""
    back_wins: bool = option(True)
    """A card that could take the car forward and back takes it back, as the
    seed says.  Off: forward wins, and races are about four times shorter."""


def seat_range(rules: DaytonaRules) -> range:
    return range(2, 5)


PRESETS: dict[str, DaytonaRules] = {
    "classic": DaytonaRules(),
    "sprint": DaytonaRules(back_wins=False),
}
