"""Joker's 36 cards as bits, for cheap move generation.

A card is a bit number: ``suit * 9 + rank - 6`` for the ordinary cards (suits
in :data:`games.cards.SUITS` order ♠ ♣ ♦ ♥, so within a suit a higher bit is
a higher card; the sixes of spades and clubs are not in the deck) and 36, 37
for the two jokers.  A set of cards is an ``int`` mask of those bits.
"""

from __future__ import annotations

from games.cards import SUITS, Card, Rank, Suit, joker_deck

__all__ = [
    "BIT",
    "CARD",
    "DECK",
    "DECK_MASK",
    "FACE_BIT",
    "JOKERS",
    "JOKER_BITS",
    "SUIT_INDEX",
    "SUIT_MASK",
    "bits_of",
    "card_bit",
    "rank_of",
    "suit_of",
]

JOKER_BITS = (36, 37)
FACE_BIT = {36: 0, 37: 9}
"""By joker bit: the bit of the six it replaces and stands for at face value
(the first joker 6♠, the second 6♣; seed 002's table plays them in that order)."""
JOKERS = (1 << 36) | (1 << 37)
SUIT_MASK = tuple(0x1FF << (9 * i) for i in range(4))
SUIT_INDEX = {suit: i for i, suit in enumerate(SUITS)}


def card_bit(card: Card) -> int:
    if card.suit is None:
        return 35 + int(card.code[1])
    return SUIT_INDEX[card.suit] * 9 + card.rank - 6


DECK: tuple[Card, ...] = tuple(joker_deck())
"""The pack in a fixed order (shuffles start from it)."""
BIT: dict[Card, int] = {c: card_bit(c) for c in DECK}
CARD: dict[int, Card] = {b: c for c, b in BIT.items()}
DECK_MASK = sum(1 << b for b in CARD)


def suit_of(bit: int) -> int:
    """The suit index of an ordinary card's bit."""
    return bit // 9


def rank_of(bit: int) -> int:
    return bit % 9 + 6


def bits_of(mask: int) -> list[int]:
    """The bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def suit_card(suit: Suit, rank: Rank) -> int:
    return SUIT_INDEX[suit] * 9 + rank - 6
