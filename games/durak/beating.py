"""The one place that decides whether a card beats another.

Standard durak: a higher card of the same suit, or any trump against a
non-trump.  Diamonds durak: spades are beaten only by higher spades (a trump
does not beat them).  Akulina: nothing beats the queen of spades.  A
:class:`Beating` holds the trump suit and those two rules; the engine only ever
uses the tables built from it here, and the computer players ask it too.

Cards are addressed by ``Card.order`` (``rank * 4 + suit index``, below 64),
so a set of cards is an ``int`` bit mask with bit ``card.order`` set.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, cached_property

from games.cards import Card, Rank, Suit, deck

__all__ = [
    "ALL_CARDS",
    "CARD_BY_ORDER",
    "QUEEN_OF_SPADES",
    "RANK_BITS",
    "SUIT_BITS",
    "Beating",
    "cards_of",
    "mask_of",
]

ALL_CARDS: tuple[Card, ...] = tuple(deck(52))
CARD_BY_ORDER: dict[int, Card] = {c.order: c for c in ALL_CARDS}

RANK_BITS: tuple[int, ...] = tuple(0b1111 << (4 * r) for r in range(16))
"""``RANK_BITS[rank]``: the mask of the four cards of that rank."""
SUIT_BITS: dict[Suit, int] = {
    suit: sum(1 << c.order for c in ALL_CARDS if c.suit is suit) for suit in Suit
}
"""``SUIT_BITS[suit]``: the mask of the thirteen cards of that suit."""
QUEEN_OF_SPADES = Card.of(Rank.QUEEN, Suit.SPADES)


@dataclass(frozen=True)
class Beating:
    """What beats what at one table."""

    trump: Suit
    spades_by_spades: bool = False
    unbeatable_queen: bool = False

    def beats(self, attack: Card, cover: Card) -> bool:
        """Does ``cover`` beat ``attack``?"""
        if self.unbeatable_queen and attack == QUEEN_OF_SPADES:
            return False
        if cover.suit is attack.suit:
            return cover.rank > attack.rank
        if self.spades_by_spades and attack.suit is Suit.SPADES:
            return False
        return cover.suit is self.trump

    @cached_property
    def table(self) -> tuple[int, ...]:
        """``table[attack.order]``: the mask of the cards that beat ``attack``."""
        return _table(self)


@cache
def _table(beating: Beating) -> tuple[int, ...]:
    table = [0] * 64
    for attack in ALL_CARDS:
        mask = 0
        for cover in ALL_CARDS:
            if cover is not attack and beating.beats(attack, cover):
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
