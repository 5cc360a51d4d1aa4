"""Standings: the ratings of one family in one scope, ranked by the value
people see (then by more games), the top :data:`SHOWN` and the asker's own
place below them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from services.ratings.model import PROVISIONAL_GAMES, shown
from storage import RatingRow

__all__ = ["SHOWN", "Board", "Line", "board", "of_game", "ranked"]

SHOWN = 10
"""Places listed per standings (and the asker's own, if lower)."""


@dataclass(frozen=True, slots=True)
class Line:
    """One place in the standings."""

    place: int
    who: str
    name: str | None
    """The person's first name; None for a computer (``who`` is ``c<level>``)."""
    rating: int
    games: int

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES

    @property
    def level(self) -> str | None:
        """A computer's level (None for a person)."""
        return self.who[1:] if self.who.startswith("c") else None


@dataclass(frozen=True, slots=True)
class Board:
    """One family's standings: the top, and the asker's own place below it."""

    family: str
    top: list[Line]
    own: Line | None = None


def ranked(rows: Sequence[RatingRow]) -> list[Line]:
    order = sorted(rows, key=lambda r: (-shown(r.mu, r.sigma), -r.games, r.name or "", r.who))
    return [Line(n, r.who, r.name, shown(r.mu, r.sigma), r.games) for n, r in enumerate(order, 1)]


def board(family: str, rows: Sequence[RatingRow], who: str | None) -> Board:
    lines = ranked(rows)
    own = next((line for line in lines[SHOWN:] if line.who == who), None)
    return Board(family, lines[:SHOWN], own)


def of_game(families: Sequence[str], game: str | None) -> list[str]:
    if game is None:
        return list(families)
    return [f for f in families if f == game or f.startswith(game + "/")]
