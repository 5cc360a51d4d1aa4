"""Durak's moves and their compact codes.

=========  ==============  ==================================================
code       action          meaning
=========  ==============  ==================================================
``a6s6h``  :class:`Attack`    lead a bout with one card or several of one rank
``t6s``    :class:`Throw`     throw one card in (its rank is on the table)
``b6sTs``  :class:`Beat`      cover the attack card 6♠ with 10♠
``x6d``    :class:`Transfer`  perevodnoy: add card(s) of the attack rank and
                              pass the attack to the next player
``k``      :class:`Take`      the defender gives up and will take the table
``p``      :class:`Pass`      a thrower has nothing (more) to throw in
=========  ==============  ==================================================

Cards inside ``a`` and ``x`` codes are distinct, of one rank and in
ascending ``Card.order`` (by suit: ♠ ♣ ♦ ♥).  Every action is an interned
singleton, so :func:`decode` is a dictionary look-up and refuses any text that
is not exactly the code of some action.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.cards import Card
from games.core import Action, ActionParseError
from games.durak.beating import ALL_CARDS

__all__ = [
    "ATTACKS",
    "BEATS",
    "PASS",
    "TAKE",
    "THROWS",
    "TRANSFERS",
    "Attack",
    "Beat",
    "DurakAction",
    "Pass",
    "Take",
    "Throw",
    "Transfer",
    "decode",
]


@dataclass(frozen=True, slots=True)
class Attack(Action):
    """The first attack of a bout: one card or several of the same rank."""

    cards: tuple[Card, ...]

    def encode(self) -> str:
        return "a" + "".join(c.code for c in self.cards)


@dataclass(frozen=True, slots=True)
class Throw(Action):
    """Throw one card in; its rank must already be on the table."""

    card: Card

    def encode(self) -> str:
        return "t" + self.card.code


@dataclass(frozen=True, slots=True)
class Beat(Action):
    """Cover the unbeaten attack card ``attack`` with ``cover`` from the hand."""

    attack: Card
    cover: Card

    def encode(self) -> str:
        return "b" + self.attack.code + self.cover.code


@dataclass(frozen=True, slots=True)
class Transfer(Action):
    """Perevodnoy: add cards of the attack rank and pass the attack on."""

    cards: tuple[Card, ...]

    def encode(self) -> str:
        return "x" + "".join(c.code for c in self.cards)


@dataclass(frozen=True, slots=True)
class Take(Action):
    """The defender will pick up the table (throwers may still add cards)."""

    def encode(self) -> str:
        return "k"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """A thrower declines to throw in (until a new card reaches the table)."""

    def encode(self) -> str:
        return "p"


DurakAction = Attack | Throw | Beat | Transfer | Take | Pass

TAKE = Take()
PASS = Pass()

THROWS: dict[int, Throw] = {c.order: Throw(c) for c in ALL_CARDS}
"""``THROWS[card.order]``."""
BEATS: dict[int, Beat] = {
    (a.order << 6) | c.order: Beat(a, c) for a in ALL_CARDS for c in ALL_CARDS if a is not c
}
"""``BEATS[(attack.order << 6) | cover.order]``."""


def _same_rank_sets() -> tuple[dict[int, Attack], dict[int, Transfer]]:
    attacks: dict[int, Attack] = {}
    transfers: dict[int, Transfer] = {}
    for rank in {c.rank for c in ALL_CARDS}:
        of_rank = sorted((c for c in ALL_CARDS if c.rank == rank), key=lambda c: c.order)
        for suits in range(1, 16):
            cards = tuple(c for c in of_rank if suits >> (c.order & 3) & 1)
            attacks[(rank << 4) | suits] = Attack(cards)
            transfers[(rank << 4) | suits] = Transfer(cards)
    return attacks, transfers


ATTACKS, TRANSFERS = _same_rank_sets()
"""``ATTACKS[(rank << 4) | suit_bits]``, bit ``i`` of ``suit_bits`` standing for
``SUITS[i]``; ``TRANSFERS`` likewise."""

_ALL_ACTIONS: list[DurakAction] = [TAKE, PASS]
_ALL_ACTIONS.extend(THROWS.values())
_ALL_ACTIONS.extend(BEATS.values())
_ALL_ACTIONS.extend(ATTACKS.values())
_ALL_ACTIONS.extend(TRANSFERS.values())
_BY_CODE: dict[str, DurakAction] = {a.encode(): a for a in _ALL_ACTIONS}


def decode(text: str) -> DurakAction:
    """The action whose code is exactly ``text``."""
    action = _BY_CODE.get(text) if isinstance(text, str) else None
    if action is None:
        raise ActionParseError(f"not a durak action: {text!r}")
    return action
