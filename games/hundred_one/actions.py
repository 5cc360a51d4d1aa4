"""The moves of 101 and their compact text form.

========  ======  ===========================================================
action    code    meaning
========  ======  ===========================================================
Play      ``pQs``  lay the card (``p`` + card code)
Order     ``oh``   order a suit after the master card (``o`` + suit char)
Draw      ``d``    draw from the stock (until playable, or one card)
Pass      ``x``    accept an ace's skip, or pass when nothing can be drawn
NextRound ``n``    deal the next round (any remaining player, between rounds;
                   made on the table message: ``place`` is ``Place.TABLE``)
========  ======  ===========================================================
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from games.cards import SUITS, Card, Rank, Suit
from games.core import Action, ActionParseError, Place

__all__ = ["Draw", "HundredOneAction", "NextRound", "Order", "Pass", "Play", "decode", "play_of"]


@dataclass(frozen=True, slots=True)
class Play(Action):
    card: Card

    def encode(self) -> str:
        return "p" + self.card.code


@dataclass(frozen=True, slots=True)
class Order(Action):
    suit: Suit

    def encode(self) -> str:
        return "o" + self.suit.value


@dataclass(frozen=True, slots=True)
class Draw(Action):
    def encode(self) -> str:
        return "d"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    def encode(self) -> str:
        return "x"


@dataclass(frozen=True, slots=True)
class NextRound(Action):
    """Pressed on the table message: any remaining player may deal on."""

    place: ClassVar[Place] = Place.TABLE

    def encode(self) -> str:
        return "n"


HundredOneAction = Play | Order | Draw | Pass | NextRound

DRAW = Draw()
PASS = Pass()
NEXT_ROUND = NextRound()
ORDERS = {suit: Order(suit) for suit in SUITS}
_PLAYS = {
    Card.of(rank, suit): Play(Card.of(rank, suit))
    for rank in Rank
    if rank is not Rank.JOKER
    for suit in SUITS
}
_ALL_ACTIONS: list[HundredOneAction] = [DRAW, PASS, NEXT_ROUND, *ORDERS.values(), *_PLAYS.values()]
_BY_CODE: dict[str, HundredOneAction] = {a.encode(): a for a in _ALL_ACTIONS}


def play_of(card: Card) -> Play:
    """The (shared) Play action of ``card``."""
    return _PLAYS[card]


def decode(text: str) -> HundredOneAction:
    """Parse an action code strictly; raise :class:`ActionParseError`."""
    action = _BY_CODE.get(text) if isinstance(text, str) else None
    if action is None:
        raise ActionParseError(f"not a 101 action: {text!r}")
    return action
