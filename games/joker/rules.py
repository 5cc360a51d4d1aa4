"""Joker's lobby options, the deal schedule they give, and the seat counts.

The options are the ones ``docs/rules/joker.md`` describes; presets live in
``games.joker`` (``SPEC``).
"""

from __future__ import annotations

import dataclasses
import enum
import functools
from dataclasses import dataclass

from games.core import Rules, RulesError, option

__all__ = ["PRESETS", "Deals", "JokerRules", "Khisht", "schedule", "seat_range"]


class Deals(enum.Enum):
    """Which deals a game has."""

    CLASSIC = "classic"
    """24 deals in four pulkas: 1..8 cards, four of 9, 8..1, four of 9."""
    NINES = "nines"
    """16 deals in four pulkas of four nine-card deals."""
    SHORT = "short"
    """The first two pulkas of the classic game: 1..8 cards, four of 9."""


class Khisht(enum.Enum):
    """What a bid of one or more that takes no trick costs ("хишт")."""

    MINUS_200 = "200"
    MINUS_500 = "500"
    PER_CARD = "cards"
    """100 for every card of the deal (-500 in a five-card deal)."""


@dataclass(frozen=True)
class JokerRules(Rules):
    """Options of a Joker game.  See ``docs/rules/joker.md``.

    (``noqa: RUF009`` below: :func:`option` builds a ``dataclasses.field`` and
    the enum defaults it carries are immutable.)
    """

    deals: Deals = option(Deals.CLASSIC)  # noqa: RUF009
    khisht: Khisht = option(Khisht.MINUS_200)  # noqa: RUF009
    minus: bool = option(False)
    """"Minus joker" scoring: a bid of n made scores 100n, each missing trick -100."""
    joker_lead_last: bool = option(False)
    """A joker may be led only when the leader holds nothing but jokers."""
    first_joker_wins: bool = option(False)
    """Of two jokers played to win one trick, the earlier wins (not the later)."""
    face_value: bool = option(False)
    """A joker may also be played "по номиналу" (seed 002), as the six it
    replaces (the first joker 6♠, the second 6♣): an ordinary card."""
    two_players: bool = option(False)
    """Two may play (seed 002: "может быть уменьшено до трёх-двух"); the deals
    keep their card counts and the dealer's forbidden bid."""

    def validate(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(f.default, enum.Enum) and not isinstance(value, type(f.default)):
                raise RulesError(f"{f.name}: {value!r} is not a {type(f.default).__name__}")
            if isinstance(f.default, bool) and not isinstance(value, bool):
                raise RulesError(f"{f.name}: expected a boolean")

    def __post_init__(self) -> None:
        self.validate()

    def applies(self, name: str) -> bool:
        """The khisht matters only in the classic scoring (in minus joker a
        bid that takes nothing loses 100 per missing trick like any other)."""
        return name != "khisht" or not self.minus


@functools.cache
def schedule(deals: Deals) -> tuple[tuple[int, ...], ...]:
    """The card counts of every deal, pulka by pulka."""
    up = tuple(range(1, 9))
    nines = (9, 9, 9, 9)
    if deals is Deals.NINES:
        return (nines, nines, nines, nines)
    if deals is Deals.SHORT:
        return (up, nines)
    return (up, nines, tuple(reversed(up)), nines)


def seat_range(rules: JokerRules) -> range:
    """Four players, or three, or with ``two_players`` two (the deals keep
    their card counts)."""
    return range(2 if rules.two_players else 3, 5)


PRESETS: dict[str, JokerRules] = {
    "classic": JokerRules(),
    "minus": JokerRules(minus=True),
}
