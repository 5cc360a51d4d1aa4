"""Playing cards: suits, ranks, jokers, decks and a compact text form.

Every card is an interned singleton: ``Card.of(Rank.ACE, Suit.SPADES) is
Card.parse("As")``.  Equality and hashing are therefore by identity, which keeps
the engines' hot loops cheap.  Two-deck shoes simply hold the same card twice.

Text form: rank character (``2``-``9``, ``T``, ``J``, ``Q``, ``K``, ``A``)
followed by the suit character (``s``, ``c``, ``d``, ``h``), e.g. ``Th``; the
two jokers are ``X1`` (black) and ``X2`` (red).  The face shown to people is
``10♥`` / ``🃏``.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import ClassVar

__all__ = [
    "SUITS",
    "Card",
    "CardParseError",
    "Rank",
    "Suit",
    "codes_to_cards",
    "deck",
    "joker_deck",
    "parse_cards",
    "shoe",
]


class CardParseError(ValueError):
    """Raised for any text that is not a card code."""


class Suit(enum.Enum):
    SPADES = "s"
    CLUBS = "c"
    DIAMONDS = "d"
    HEARTS = "h"

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]


SUITS: tuple[Suit, ...] = (Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS)
_SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥"}


class Rank(enum.IntEnum):
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14
    JOKER = 15

    @property
    def char(self) -> str:
        return _RANK_CHARS[self]

    @property
    def label(self) -> str:
        """The rank as printed on a card face: ``10``, ``J`` ..."""
        return "10" if self is Rank.TEN else _RANK_CHARS[self]


_RANK_CHARS = dict(zip(Rank, "23456789TJQKAX", strict=True))
_CHAR_RANKS = {c: r for r, c in _RANK_CHARS.items()}


class Card:
    """One playing card or joker.  Obtain cards with :meth:`of`, :meth:`joker`
    or :meth:`parse`; never construct them directly."""

    __slots__ = ("code", "order", "rank", "suit")

    rank: Rank
    suit: Suit | None  # None for jokers
    code: str
    order: int  # total order for sorting: by rank, then suit

    _by_code: ClassVar[dict[str, Card]] = {}
    _by_rank_suit: ClassVar[dict[tuple[Rank, Suit], Card]] = {}

    def __init__(self, rank: Rank, suit: Suit | None, code: str, order: int) -> None:
        if code in Card._by_code:
            raise TypeError("cards are interned; use Card.of / Card.parse")
        self.rank = rank
        self.suit = suit
        self.code = code
        self.order = order

    @classmethod
    def of(cls, rank: Rank, suit: Suit) -> Card:
        return cls._by_rank_suit[(rank, suit)]

    @classmethod
    def joker(cls, number: int) -> Card:
        """Joker 1 (black) or 2 (red)."""
        try:
            return cls._by_code[f"X{number}"]
        except KeyError:
            raise CardParseError(f"no joker number {number!r}") from None

    @classmethod
    def parse(cls, code: str) -> Card:
        card = cls._by_code.get(code) if isinstance(code, str) else None
        if card is None:
            raise CardParseError(f"not a card code: {code!r}")
        return card

    @property
    def is_joker(self) -> bool:
        return self.rank is Rank.JOKER

    @property
    def face(self) -> str:
        """What people see: ``7♠``, ``10♥``, ``🃏``."""
        if self.suit is None:
            return "🃏"
        return self.rank.label + self.suit.symbol

    def __repr__(self) -> str:
        return f"Card({self.code})"

    def __str__(self) -> str:
        return self.code

    def __lt__(self, other: Card) -> bool:
        return self.order < other.order

    # Interning must survive copy, deepcopy and pickle.
    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Card.parse, (self.code,))


def _intern_all() -> None:
    for rank in Rank:
        if rank is Rank.JOKER:
            continue
        for i, suit in enumerate(SUITS):
            code = rank.char + suit.value
            card = Card(rank, suit, code, rank * 4 + i)
            Card._by_code[code] = card
            Card._by_rank_suit[(rank, suit)] = card
    for number in (1, 2):
        code = f"X{number}"
        Card._by_code[code] = Card(Rank.JOKER, None, code, Rank.JOKER * 4 + number)


_intern_all()

_DECK_LOW_RANK = {24: Rank.NINE, 32: Rank.SEVEN, 36: Rank.SIX, 52: Rank.TWO}


def deck(size: int = 36, *, jokers: int = 0) -> list[Card]:
    """A fresh, ordered deck of 24, 32, 36 or 52 cards plus 0..2 jokers."""
    low = _DECK_LOW_RANK.get(size)
    if low is None:
        raise ValueError(f"no {size}-card deck; sizes are {sorted(_DECK_LOW_RANK)}")
    if not 0 <= jokers <= 2:
        raise ValueError("a deck has at most two jokers")
    cards = [Card.of(r, s) for r in Rank if low <= r <= Rank.ACE for s in SUITS]
    cards.extend(Card.joker(n) for n in range(1, jokers + 1))
    return cards


def joker_deck() -> list[Card]:
    """The Joker game's deck: 36 cards with 6♠ and 6♣ replaced by the jokers."""
    black_sixes = {Card.of(Rank.SIX, Suit.SPADES), Card.of(Rank.SIX, Suit.CLUBS)}
    return [c for c in deck(36) if c not in black_sixes] + [Card.joker(1), Card.joker(2)]


def shoe(decks: int = 2, size: int = 52, *, jokers_per_deck: int = 2) -> list[Card]:
    """Several decks together (Daytona: two 52-card decks with four jokers)."""
    cards: list[Card] = []
    for _ in range(decks):
        cards.extend(deck(size, jokers=jokers_per_deck))
    return cards


def parse_cards(text: str) -> list[Card]:
    """Parse concatenated codes, e.g. ``"6s6hX1"`` -> [6♠, 6♥, joker]."""
    if len(text) % 2:
        raise CardParseError(f"odd length card list: {text!r}")
    return [Card.parse(text[i : i + 2]) for i in range(0, len(text), 2)]


def codes_to_cards(codes: Sequence[object]) -> list[Card]:
    if not isinstance(codes, list | tuple):
        raise CardParseError(f"expected a list of card codes, got {type(codes).__name__}")
    return [Card.parse(c) if isinstance(c, str) else _bad(c) for c in codes]


def _bad(value: object) -> Card:
    raise CardParseError(f"not a card code: {value!r}")
