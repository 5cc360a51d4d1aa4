"""The one place that decides whether a card beats another.

Standard durak: a higher card of the same suit, or any trump against a
non-trump.  Variants that change beating (diamonds durak, Akulina's queen of
spades) change :func:`can_beat`; the engine only ever uses the tables built
from it here.

Cards are addressed by ``Card.order`` (``rank * 4 + suit index``, below 64),
so a set of cards is an ``int`` bit mask with bit ``card.order`` set.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from games.cards import Card, Suit, deck

__all__ = [
    "ALL_CARDS",
    "CARD_BY_ORDER",
    "RANK_BITS",
    "beaters",
    "can_beat",
    "cards_of",
    "mask_of",
]

ALL_CARDS: tuple[Card, ...] = tuple(deck(52))
CARD_BY_ORDER: dict[int, Card] = {c.order: c for c in ALL_CARDS}

RANK_BITS: tuple[int, ...] = tuple(0b1111 << (4 * r) for r in range(16))
"""``RANK_BITS[rank]``: the mask of the four cards of that rank."""


def can_beat(attack: Card, cover: Card, trump: Suit) -> bool:
    """Does ``cover`` beat ``attack`` when ``trump`` is the trump suit?"""
    if cover.suit is attack.suit:
        return cover.rank > attack.rank
    return cover.suit is trump


@cache
def beaters(trump: Suit) -> tuple[int, ...]:
    """``beaters(trump)[attack.order]``: mask of the cards that beat ``attack``."""
    table = [0] * 64
    for attack in ALL_CARDS:
        mask = 0
        for cover in ALL_CARDS:
            if cover is not attack and can_beat(attack, cover, trump):
                mask |= 1 << cover.order
        table[attack.order] = mask
    return tuple(table)


def mask_of(cards: Iterable[Card]) -> int:
    """The bit mask of some cards."""
    mask = 0
    for card in cards:
        mask |= 1 << card.order
    return mask


def cards_of(mask: int) -> list[Card]:
    """The cards of a bit mask, lowest order first."""
    out: list[Card] = []
    while mask:
        low = mask & -mask
        out.append(CARD_BY_ORDER[low.bit_length() - 1])
        mask ^= low
    return out
