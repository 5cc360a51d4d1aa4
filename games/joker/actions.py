"""Joker's moves and their compact codes.

=========  ====================  ============================================
code       action                meaning
=========  ====================  ============================================
``d``      :class:`Deal`         the dealer deals the next deal
``th``     :class:`ChooseTrump`  nine-card deals: the player left of the dealer
                                 names the trump (``ts tc td th``) or no trump
                                 (``tn``) after seeing three cards
``b2``     :class:`Bid`          bid that many tricks (``b0`` is a pass)
``pAs``    :class:`Play`         play an ordinary card
``lX1hs``  :class:`LeadJoker`    lead a joker: ``h`` high ("everybody plays his
                                 highest ♠", it wins) or ``t`` takes ("♠ takes":
                                 it is the lowest ♠), then the suit
``fX2h``   :class:`FollowJoker`  a joker on somebody's lead: ``h`` high (takes
                                 the trick) or ``l`` low (gives it)
``vX1``    :class:`FaceValue`    option ``face_value``: a joker played "по
                                 номиналу", as the six it replaces (``X1``
                                 6♠, ``X2`` 6♣), an ordinary card
=========  ====================  ============================================

Every action is an interned singleton, so :func:`decode` is a dictionary
look-up and refuses any text that is not exactly the code of some action.
Every move is made in the player's own screen (``Place.HAND``).
"""

from __future__ import annotations

from dataclasses import dataclass

from games.cards import SUITS, Card, Rank, Suit
from games.core import Action, ActionParseError
from games.joker.cards import CARD, FACE_BIT, JOKER_BITS

__all__ = [
    "BIDS",
    "DEAL",
    "FACES",
    "FOLLOWS",
    "LEADS",
    "PLAYS",
    "TRUMPS",
    "Bid",
    "ChooseTrump",
    "Deal",
    "FaceValue",
    "FollowJoker",
    "JokerAction",
    "LeadJoker",
    "Play",
    "decode",
]


@dataclass(frozen=True, slots=True)
class Deal(Action):
    def encode(self) -> str:
        return "d"


@dataclass(frozen=True, slots=True)
class ChooseTrump(Action):
    suit: Suit | None
    """None: no trump."""

    def encode(self) -> str:
        return "t" + ("n" if self.suit is None else self.suit.value)


@dataclass(frozen=True, slots=True)
class Bid(Action):
    tricks: int

    def encode(self) -> str:
        return f"b{self.tricks}"


@dataclass(frozen=True, slots=True)
class Play(Action):
    card: Card

    def encode(self) -> str:
        return "p" + self.card.code


@dataclass(frozen=True, slots=True)
class LeadJoker(Action):
    card: Card
    high: bool
    """High: everybody plays his highest card of ``suit`` and the joker wins
    (unless a void player trumps a plain suit).  Otherwise "``suit`` takes":
    the joker is the lowest card of ``suit``."""
    suit: Suit

    def encode(self) -> str:
        return f"l{self.card.code}{'h' if self.high else 't'}{self.suit.value}"


@dataclass(frozen=True, slots=True)
class FollowJoker(Action):
    card: Card
    high: bool
    """High takes the trick (unless a later joker is played high); low gives it."""

    def encode(self) -> str:
        return f"f{self.card.code}{'h' if self.high else 'l'}"


@dataclass(frozen=True, slots=True)
class FaceValue(Action):
    """A joker played "по номиналу" (option ``face_value``): as the six of
    spades (the first joker) or of clubs (the second) that it replaces in the
    deck, an ordinary card that follows suit and wins or loses as that six."""

    card: Card

    def encode(self) -> str:
        return "v" + self.card.code

    @property
    def counts_as(self) -> Card:
        """The six it is played as."""
        return _SIXES[self.card]


JokerAction = Deal | ChooseTrump | Bid | Play | LeadJoker | FollowJoker | FaceValue

DEAL = Deal()
TRUMPS: dict[int, ChooseTrump] = {i: ChooseTrump(s) for i, s in enumerate(SUITS)} | {
    -1: ChooseTrump(None)
}
"""By suit index; -1 is no trump."""
BIDS: tuple[Bid, ...] = tuple(Bid(n) for n in range(10))
PLAYS: dict[int, Play] = {b: Play(c) for b, c in CARD.items() if b not in JOKER_BITS}
"""By card bit."""
LEADS: dict[tuple[int, bool, int], LeadJoker] = {
    (j, high, i): LeadJoker(CARD[j], high, s)
    for j in JOKER_BITS
    for high in (True, False)
    for i, s in enumerate(SUITS)
}
"""By (joker bit, high, suit index)."""
FOLLOWS: dict[tuple[int, bool], FollowJoker] = {
    (j, high): FollowJoker(CARD[j], high) for j in JOKER_BITS for high in (True, False)
}

_ALL: list[JokerAction] = [DEAL, *TRUMPS.values(), *BIDS, *PLAYS.values()]
_SIXES: dict[Card, Card] = {CARD[j]: Card.of(Rank.SIX, SUITS[FACE_BIT[j] // 9]) for j in JOKER_BITS}
FACES: dict[int, FaceValue] = {j: FaceValue(CARD[j]) for j in JOKER_BITS}
"""By joker bit."""

_ALL += [*LEADS.values(), *FOLLOWS.values(), *FACES.values()]
_BY_CODE: dict[str, JokerAction] = {a.encode(): a for a in _ALL}


def decode(text: str) -> JokerAction:
    """The action whose code is exactly ``text``."""
    action = _BY_CODE.get(text) if isinstance(text, str) else None
    if action is None:
        raise ActionParseError(f"not a joker action: {text!r}")
    return action
