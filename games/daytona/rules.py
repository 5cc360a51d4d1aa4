"""The rules of Daytona: the lobby's options (the target score, whether back
wins, the draw limit) and the seat range.  ``docs/rules/daytona.md`` explains
the game."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from games.core import Rules, option

__all__ = ["PRESETS", "DaytonaRules", "DrawLimit", "seat_range"]


class DrawLimit(enum.Enum):
    """Draws a race may take at most (``docs/rules/daytona.md`` §4).  Every
    limit divides by two, three and four, so that it is a whole number of
    turns for each car of a full field."""

    NONE = "none"
    DRAWS_120 = "120"
    DRAWS_300 = "300"
    DRAWS_600 = "600"

    @property
    def draws(self) -> int:
        """The limit in draws; 0 when there is none."""
        return 0 if self is DrawLimit.NONE else int(self.value)


@dataclass(frozen=True)
class DaytonaRules(Rules):
    """Options of a Daytona match.  The defaults are the seed's game as it
    stands, with no limit: rules saved before the limit existed (they lack
    the key) load as what they were played with."""

    target: int = option(30, 30, 50, 100, 10)
    """Match points that end the match (places score 10, 5, 2, 0 a race).  The
    seed leaves the figure to the players; 10 is a match of one race."""
    back_wins: bool = option(True)
    """A card that could take the car forward and back takes it back, as the
    seed says.  Off: forward wins, and races are about four times shorter."""
    draw_limit: DrawLimit = option(DrawLimit.NONE)  # noqa: RUF009 - option() is a dataclasses.field
    """After so many draws the race ends and the cars still racing are placed
    by how near the finish they are."""


def seat_range(rules: DaytonaRules) -> range:
    return range(2, 5)


PRESETS: dict[str, DaytonaRules] = {
    "sprint": DaytonaRules(back_wins=False, draw_limit=DrawLimit.DRAWS_120),
    "classic": DaytonaRules(draw_limit=DrawLimit.DRAWS_300),
}
"""``sprint`` is the default (the first): a race in at most 120 draws, about
six minutes at a group's pace.  ``classic`` is the seed's game, back wins,
with a limit that cuts its long races at 300 draws."""
