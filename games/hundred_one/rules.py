"""The rules of 101: lobby options, presets and the seat range.

Every field of :class:`HundredOneRules` is a lobby option (declared with
:func:`games.core.option`); each named variant of the seed is a preset, i.e. a
set of values of these options.  ``docs/rules/101.md`` explains each one.
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass

from games.core import Rules, RulesError, option

__all__ = [
    "MAX_SEATS",
    "PRESETS",
    "AceMode",
    "DrawMode",
    "HundredOneRules",
    "Master",
    "NineMode",
    "Scoring",
    "SmallDeck",
    "seat_range",
]


class DrawMode(enum.Enum):
    """What a player who cannot follow does."""

    UNTIL = "until"
    """Draw until a playable card comes or nothing is left to draw."""
    ONE = "one"
    """Draw one card; if it does not fit, the turn passes."""


class NineMode(enum.Enum):
    AGAIN = "again"
    """The player who laid the nine moves again."""
    OFF = "off"
    """The nine is an ordinary card."""
    DRAW = "draw"
    """The next player draws one card and keeps his turn."""


class AceMode(enum.Enum):
    ANSWER = "answer"
    """The next player misses his turn unless he answers with an ace."""
    SKIP = "skip"
    """The next player simply misses his turn."""
    ENGLISH = "english"
    """English durak: the ace's player lays another card of the ace's suit and
    orders a suit (see the docs)."""


class Master(enum.Enum):
    """The card that goes on anything and orders a suit."""

    QUEEN = "queen"
    JACK = "jack"


class SmallDeck(enum.Enum):
    """Meaning of the seven and the eight with the 32-card deck (no sixes)."""

    DRAW = "draw"
    """Seven: the next draws two.  Eight: the next draws one (and then moves
    as usual)."""
    SKIP = "skip"
    """Seven: the next draws one and misses his turn.  Eight: the next misses
    his turn."""


class Scoring(enum.Enum):
    CLASSIC = "classic"
    """J 2, Q 3, K 4, A 11, 9 0, others face value; queen finish -20 (spades
    -40); only queens left: 20 per queen."""
    PHARAOH = "pharaoh"
    """Card values as classic; queen finish -30; only queens left: 30 per queen."""
    PENTAGON = "pentagon"
    """A 11, K 4, Q 20, J 2, 10 10, others 0; bonuses as classic."""


MAX_SEATS = {32: 6, 36: 6, 52: 8}


@dataclass(frozen=True)
class HundredOneRules(Rules):
    """Options of a 101 match.  See ``docs/rules/101.md``.

    (``noqa: RUF009`` below: :func:`option` builds a ``dataclasses.field`` and
    the enum defaults it carries are immutable.)
    """

    deck: int = option(36, 32, 36, 52)
    """Deck size: 32 (7..A), 36 (6..A) or 52 (2..A)."""
    hand: int = option(5, 3, 4, 5, 6)
    """Cards dealt to each player."""
    draw: DrawMode = option(DrawMode.UNTIL)  # noqa: RUF009
    dealer_upcard: bool = option(False)
    """The leader's last dealt card is turned up as his first play."""
    nine: NineMode = option(NineMode.AGAIN)  # noqa: RUF009
    ace: AceMode = option(AceMode.ANSWER)  # noqa: RUF009
    king_spades: int = option(4, 4, 6)
    """Cards the next player draws after the king of spades (he also misses
    his turn)."""
    crocodile: bool = option(False)
    """King of hearts: the next player draws five and misses his turn."""
    small_deck: SmallDeck = option(SmallDeck.DRAW)  # noqa: RUF009
    """Only matters with the 32-card deck."""
    master: Master = option(Master.QUEEN)  # noqa: RUF009
    suit_only: bool = option(False)
    """Pentagon: follow by suit only; a card of the same rank only onto a six."""
    order_skip: bool = option(False)
    """Pentagon: after the master card's order the next player misses his turn."""
    scoring: Scoring = option(Scoring.CLASSIC)  # noqa: RUF009
    queen_discard: bool = option(False)
    """Queens left in a hand at a round's end are discarded together, each
    taking off the points of a queen finish (only with the queen as master)."""
    finish_draw: bool = option(True)
    """A finishing card still makes the next player draw (those cards count)."""
    ceiling: int = option(101, 101, 201, 501)
    exact_reset: bool = option(True)
    """A total of exactly the ceiling resets to 0 (off: reaching it eliminates)."""
    minus_reset: bool = option(False)
    """A total of exactly minus the ceiling resets to 0."""

    def validate(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            choices = f.metadata.get("choices")
            if choices and value not in choices:
                raise RulesError(f"{f.name}: {value!r} is not one of the allowed values")
            if isinstance(f.default, enum.Enum) and not isinstance(value, type(f.default)):
                raise RulesError(f"{f.name}: {value!r} is not a {type(f.default).__name__}")
            if isinstance(f.default, bool) and not isinstance(value, bool):
                raise RulesError(f"{f.name}: expected a boolean")

    def applies(self, name: str) -> bool:
        if name == "small_deck":
            return self.deck == 32
        if name == "queen_discard":
            return self.master is Master.QUEEN
        return True

    @property
    def max_seats(self) -> int:
        """Most players such that the deal leaves at least one card in the stock."""
        return min(MAX_SEATS[self.deck], (self.deck - 1) // self.hand)


def seat_range(rules: HundredOneRules) -> range:
    return range(2, rules.max_seats + 1)


PRESETS: dict[str, HundredOneRules] = {
    "classic": HundredOneRules(),
    "crocodile": HundredOneRules(draw=DrawMode.ONE, crocodile=True),
    "smalldeck": HundredOneRules(deck=32),
    "jack": HundredOneRules(master=Master.JACK),
    "english": HundredOneRules(ace=AceMode.ENGLISH),
    "pharaoh": HundredOneRules(hand=4, scoring=Scoring.PHARAOH),
    "pentagon": HundredOneRules(suit_only=True, order_skip=True, scoring=Scoring.PENTAGON),
}
