"""What the table and each seat see of a High card game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from games.cards import Card
from games.core import Progress, View
from tests.one_registration.state import HighCardState, Phase

__all__ = ["HighCardSeat", "HighCardTable", "Played", "progress", "public_view", "seat_view"]


@dataclass(frozen=True, slots=True)
class Played(View):
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class HighCardTable(View):
    phase: Phase
    hand_sizes: tuple[int, ...]
    stock: int
    trick: tuple[Played, ...]
    """The trick under way, or the one just taken, in the order played."""
    taken: int | None
    """Who took the trick shown (None: it is under way)."""
    to_move: tuple[int, ...]
    scores: tuple[int, ...]
    out: tuple[bool, ...]


@dataclass(frozen=True, slots=True)
class HighCardSeat(HighCardTable):
    seat: int
    hand: tuple[Card, ...]


def public_view(game: HighCardState) -> HighCardTable:
    return HighCardTable(**_public(game))


def seat_view(game: HighCardState, seat: int) -> HighCardSeat:
    return HighCardSeat(**_public(game), seat=seat, hand=tuple(game._hands[seat]))


class _Public(TypedDict):
    phase: Phase
    hand_sizes: tuple[int, ...]
    stock: int
    trick: tuple[Played, ...]
    taken: int | None
    to_move: tuple[int, ...]
    scores: tuple[int, ...]
    out: tuple[bool, ...]


def _public(game: HighCardState) -> _Public:
    """The public fields, which a seat's view has too."""
    return _Public(
        phase=game._phase,
        hand_sizes=tuple(len(hand) for hand in game._hands),
        stock=len(game._stock),
        trick=tuple(Played(seat, card) for seat, card in game._trick),
        taken=game._taken,
        to_move=tuple(sorted(game.to_move())),
        scores=tuple(game._scores),
        out=tuple(game._out),
    )


def progress(game: HighCardState) -> Progress:
    return Progress(game._phase.value, 1, tuple(game._scores))
