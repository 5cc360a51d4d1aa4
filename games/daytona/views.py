"""What the table sees of a Daytona match (the bot renders from this).

Daytona has no secrets but the stock's order, so every seat sees the public
view, :class:`DaytonaPublicView`; :class:`DaytonaSeatView` only adds its own
seat number.  Positions are described in :mod:`games.daytona.engine`.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.cards import Card
from games.core import Progress, View
from games.daytona.state import DaytonaState, DeuceAs, DrawMove, LastDraw, Phase

__all__ = [
    "DaytonaPublicView",
    "DaytonaSeatView",
    "DeuceAs",
    "DrawMove",
    "LastDraw",
    "progress",
    "public_view",
    "seat_view",
]


@dataclass(frozen=True, slots=True)
class DaytonaPublicView(View):
    """What everybody sees of the match."""

    phase: Phase
    race: int
    """The race under way (or just run), from 1."""
    target: int
    """Match points that end the match."""
    track: tuple[Card, ...]
    """The 14 cards in driving order."""
    start: Card
    """The start/finish card."""
    pit: Card
    """The pit stop."""
    positions: tuple[int, ...]
    """Per seat, see :mod:`games.daytona.engine`."""
    pits: tuple[int, ...]
    """Turns each seat still misses in the pit."""
    out: tuple[bool, ...]
    """Per seat: left the match."""
    to_move: frozenset[int]
    stock: int
    """Cards left to draw."""
    drawn: int
    """Cards drawn this race (face down but the last)."""
    round: int
    """The round of turns under way, from 1."""
    rounds: int
    """Rounds the draw limit allows (0: no limit)."""
    last: LastDraw | None
    finished: tuple[int, ...]
    """Seats in the order they finished this race."""
    scores: tuple[int, ...]
    """Match points."""
    race_points: tuple[int, ...] | None
    """The last race's points, once it is over."""


@dataclass(frozen=True, slots=True)
class DaytonaSeatView(DaytonaPublicView):
    """The public view, read by one seat."""

    seat: int


_PublicFields = tuple[
    Phase,
    int,
    int,
    tuple[Card, ...],
    Card,
    Card,
    tuple[int, ...],
    tuple[int, ...],
    tuple[bool, ...],
    frozenset[int],
    int,
    int,
    int,
    int,
    LastDraw | None,
    tuple[int, ...],
    tuple[int, ...],
    tuple[int, ...] | None,
]
"""The public view's fields in order (positional: quicker to build, and mypy
still checks each against the field it fills)."""


def _public_fields(game: DaytonaState) -> _PublicFields:
    points = game._points
    return (
        game._phase,
        game._race,
        game.rules.target,
        game._track,
        game._start,
        game._pit,
        tuple(game._positions),
        tuple(game._pits),
        tuple(game._out),
        game.to_move(),
        len(game._stock),
        len(game._drawn),
        game._round,
        game._rounds,
        game._last,
        tuple(game._finished),
        tuple(game._scores),
        None if points is None else tuple(points),
    )


def public_view(game: DaytonaState) -> DaytonaPublicView:
    return DaytonaPublicView(*_public_fields(game))


def seat_view(game: DaytonaState, seat: int) -> DaytonaSeatView:
    return DaytonaSeatView(*_public_fields(game), seat)


def progress(game: DaytonaState) -> Progress:
    return Progress(game._phase.value, game._race, tuple(game._scores))
