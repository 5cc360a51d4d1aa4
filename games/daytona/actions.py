"""Daytona's moves and their compact codes.

=====  ===============  ===================================================
code   action           meaning
=====  ===============  ===================================================
``d``  :class:`Draw`    the player on move draws the stock's top card
``2``  :class:`Deuce`   the deuce he drew counts as a 2 ...
``j``  :class:`Deuce`   ... or as a joker (one card forward)
``n``  :class:`Next`    after a race: start the next one on a new track
=====  ===============  ===================================================

Daytona has no private hands: every move is made on the table message
(``Place.TABLE``), and only the seat on move may make it.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.core import Action, ActionParseError, Place

__all__ = ["AS_JOKER", "AS_TWO", "DRAW", "NEXT", "DaytonaAction", "Deuce", "Draw", "Next", "decode"]


@dataclass(frozen=True, slots=True)
class Draw(Action):
    place = Place.TABLE

    def encode(self) -> str:
        return "d"


@dataclass(frozen=True, slots=True)
class Deuce(Action):
    """How the deuce just drawn counts."""

    place = Place.TABLE
    joker: bool

    def encode(self) -> str:
        return "j" if self.joker else "2"


@dataclass(frozen=True, slots=True)
class Next(Action):
    place = Place.TABLE

    def encode(self) -> str:
        return "n"


DaytonaAction = Draw | Deuce | Next

DRAW = Draw()
AS_TWO = Deuce(joker=False)
AS_JOKER = Deuce(joker=True)
NEXT = Next()
_BY_CODE: dict[str, DaytonaAction] = {a.encode(): a for a in (DRAW, AS_TWO, AS_JOKER, NEXT)}


def decode(text: str) -> DaytonaAction:
    try:
        return _BY_CODE[text]
    except (KeyError, TypeError):
        raise ActionParseError(f"not a Daytona action: {text!r}") from None
