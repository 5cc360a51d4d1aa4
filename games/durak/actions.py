"""Durak's moves and their compact codes.

=========  ==============  ==================================================
code       action          meaning
=========  ==============  ==================================================
``a6s6h``  :class:`Attack`    lead a bout with one card or several of one rank
                              (in Akulina: of one suit, ``a6s9sQs``)
``t6s``    :class:`Throw`     throw one card in (its rank is on the table)
``b6sTs``  :class:`Beat`      cover the attack card 6♠ with 10♠
``x6d``    :class:`Transfer`  perevodnoy: add card(s) of the attack rank and
                              pass the attack to the next player
``k``      :class:`Take`      the defender gives up and will take the table
``p``      :class:`Pass`      a thrower has nothing (more) to throw in
``f6sTs``  :class:`Cover`     believe / don't believe: put 10♠ face down on
                              the attack card 6♠ (any card)
``y``      :class:`Believe`   the attacker believes the covers
``n``      :class:`Doubt`     the attacker does not believe them
``L3``     :class:`BlindLead`     blind durak: lead the card at position 3 of
                                  one's hand (positions count from 0)
``B6s3``   :class:`BlindBeat`     cover the attack card 6♠ with the card at 3
``T3``     :class:`BlindThrow`    throw in the card at position 3
``X3``     :class:`BlindTransfer` transfer with the card at position 3
``Nh``     :class:`NameTrump`     diamonds durak with a turned spade (option
                                  ``spade_named``): the dealer names hearts
=========  ==============  ==================================================

Cards inside ``a`` and ``x`` codes are distinct, of one rank (an ``a`` code:
or of one suit) and in ascending ``Card.order``.  Every action is an interned
singleton, so :func:`decode` is a dictionary look-up (suit attacks, too many to
make up front, are interned when first seen) and refuses any text that is not
exactly the code of some action.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.cards import Card, CardParseError, Suit, parse_cards
from games.core import Action, ActionParseError, IllegalAction
from games.durak.beating import ALL_CARDS, CARD_BY_ORDER, RANK_BITS
from games.durak.rules import HAND_SIZE

__all__ = [
    "ATTACKS",
    "BEATS",
    "BELIEVE",
    "BLIND_BEATS",
    "BLIND_LEADS",
    "BLIND_THROWS",
    "BLIND_TRANSFERS",
    "COVERS",
    "DOUBT",
    "NAMES",
    "PASS",
    "TAKE",
    "THROWS",
    "TRANSFERS",
    "Attack",
    "Beat",
    "Believe",
    "BlindAction",
    "BlindBeat",
    "BlindLead",
    "BlindThrow",
    "BlindTransfer",
    "Cover",
    "Doubt",
    "DurakAction",
    "NameTrump",
    "Pass",
    "Take",
    "Throw",
    "Transfer",
    "decode",
    "same_rank_mask",
    "same_suit_mask",
    "suit_attack",
]


@dataclass(frozen=True, slots=True)
class Attack(Action):
    """The first attack of a bout: one card or several of the same rank (or,
    in Akulina, of the same suit)."""

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


@dataclass(frozen=True, slots=True)
class Cover(Action):
    """Believe / don't believe: put ``card`` face down on the attack card
    ``attack`` (right or wrong: nobody sees it until the verdict)."""

    attack: Card
    card: Card

    def encode(self) -> str:
        return "f" + self.attack.code + self.card.code


@dataclass(frozen=True, slots=True)
class Believe(Action):
    """The attacker believes the face-down covers."""

    def encode(self) -> str:
        return "y"


@dataclass(frozen=True, slots=True)
class Doubt(Action):
    """The attacker does not believe the face-down covers."""

    def encode(self) -> str:
        return "n"


@dataclass(frozen=True, slots=True)
class BlindLead(Action):
    """Blind durak: lead the card at ``position`` of one's hand (unseen)."""

    position: int

    def encode(self) -> str:
        return f"L{self.position}"


@dataclass(frozen=True, slots=True)
class BlindBeat(Action):
    """Blind durak: cover ``attack`` with the card at ``position``; a card
    that does not beat it makes the defender take the bout's cards."""

    attack: Card
    position: int

    def encode(self) -> str:
        return f"B{self.attack.code}{self.position}"


@dataclass(frozen=True, slots=True)
class BlindThrow(Action):
    """Blind durak: throw in the card at ``position``; one whose rank is not on
    the table makes the thrower take the bout's cards."""

    position: int

    def encode(self) -> str:
        return f"T{self.position}"


@dataclass(frozen=True, slots=True)
class BlindTransfer(Action):
    """Blind durak: transfer with the card at ``position``; one not of the
    attack's rank makes the defender take the bout's cards."""

    position: int

    def encode(self) -> str:
        return f"X{self.position}"


BlindAction = BlindLead | BlindBeat | BlindThrow | BlindTransfer


@dataclass(frozen=True, slots=True)
class NameTrump(Action):
    """The dealer names the trump suit: diamonds durak, option 5.a with a
    turned spade and ``trump`` ``spade_named``."""

    suit: Suit

    def encode(self) -> str:
        return "N" + self.suit.value


DurakAction = (
    Attack
    | Throw
    | Beat
    | Transfer
    | Take
    | Pass
    | Cover
    | Believe
    | Doubt
    | BlindAction
    | NameTrump
)

TAKE = Take()
PASS = Pass()
BELIEVE = Believe()
DOUBT = Doubt()

THROWS: dict[int, Throw] = {c.order: Throw(c) for c in ALL_CARDS}
"""``THROWS[card.order]``."""
BEATS: dict[int, Beat] = {
    (a.order << 6) | c.order: Beat(a, c) for a in ALL_CARDS for c in ALL_CARDS if a is not c
}
"""``BEATS[(attack.order << 6) | cover.order]``."""
COVERS: dict[int, Cover] = {
    (a.order << 6) | c.order: Cover(a, c) for a in ALL_CARDS for c in ALL_CARDS if a is not c
}
"""``COVERS[(attack.order << 6) | card.order]``."""


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

POSITIONS = range(len(ALL_CARDS))
"""The positions a hand may have (a blind player's card is named by one)."""
BLIND_LEADS = tuple(BlindLead(i) for i in POSITIONS)
BLIND_THROWS = tuple(BlindThrow(i) for i in POSITIONS)
BLIND_TRANSFERS = tuple(BlindTransfer(i) for i in POSITIONS)
BLIND_BEATS: dict[int, BlindBeat] = {
    (a.order << 6) | i: BlindBeat(a, i) for a in ALL_CARDS for i in POSITIONS
}
"""``BLIND_BEATS[(attack.order << 6) | position]``."""

NAMES: dict[Suit, NameTrump] = {s: NameTrump(s) for s in (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS)}
"""The suits a dealer may name: not spades (they fall only to spades)."""

_ALL_ACTIONS: list[DurakAction] = [TAKE, PASS, BELIEVE, DOUBT, *NAMES.values()]
_ALL_ACTIONS.extend(BLIND_LEADS)
_ALL_ACTIONS.extend(BLIND_THROWS)
_ALL_ACTIONS.extend(BLIND_TRANSFERS)
_ALL_ACTIONS.extend(BLIND_BEATS.values())
_ALL_ACTIONS.extend(THROWS.values())
_ALL_ACTIONS.extend(BEATS.values())
_ALL_ACTIONS.extend(COVERS.values())
_ALL_ACTIONS.extend(ATTACKS.values())
_ALL_ACTIONS.extend(TRANSFERS.values())
_BY_CODE: dict[str, DurakAction] = {a.encode(): a for a in _ALL_ACTIONS}


_SUIT_ATTACKS: dict[int, Attack] = {}


def suit_attack(mask: int) -> Attack:
    """The attack with the cards of ``mask`` (one suit; any number of them)."""
    attack = _SUIT_ATTACKS.get(mask)
    if attack is None:
        cards = []
        rest = mask
        while rest:
            low = rest & -rest
            cards.append(CARD_BY_ORDER[low.bit_length() - 1])
            rest ^= low
        attack = _SUIT_ATTACKS[mask] = Attack(tuple(cards))
    return attack


def _parse_suit_attack(text: str) -> Attack | None:
    """The suit attack whose code is exactly ``text``, if it is one."""
    if len(text) < 5 or len(text) > 1 + 2 * HAND_SIZE or not text.startswith("a"):
        return None
    try:
        cards = parse_cards(text[1:])
    except CardParseError:
        return None
    mask = 0
    for card in cards:
        if card.suit is not cards[0].suit or card.order not in CARD_BY_ORDER:
            return None
        mask |= 1 << card.order
    attack = suit_attack(mask)
    return attack if attack.encode() == text else None


def decode(text: str) -> DurakAction:
    """The action whose code is exactly ``text``."""
    if not isinstance(text, str):
        raise ActionParseError(f"not a durak action: {text!r}")
    action = _BY_CODE.get(text) or _parse_suit_attack(text)
    if action is None:
        raise ActionParseError(f"not a durak action: {text!r}")
    return action


def same_rank_mask(cards: tuple[Card, ...]) -> tuple[int, int]:
    """``(mask, rank)`` of distinct cards of one rank; raises otherwise."""
    if not cards:
        raise IllegalAction("illegal.not_in_hand")
    rank = cards[0].order >> 2
    mask = 0
    for c in cards:
        if c.order >> 2 != rank or c.suit is None:
            raise IllegalAction("illegal.mixed_ranks")
        mask |= 1 << c.order
    if mask.bit_count() != len(cards):
        raise IllegalAction("illegal.not_in_hand")
    return mask, rank


def same_suit_mask(cards: tuple[Card, ...]) -> tuple[int, int]:
    """``(mask, ranks)`` of distinct cards of one suit (``ranks``: the
    RANK_BITS of all of them); raises otherwise."""
    if not cards:
        raise IllegalAction("illegal.not_in_hand")
    suit = cards[0].suit
    mask = ranks = 0
    for c in cards:
        if c.suit is not suit or suit is None:
            raise IllegalAction("illegal.mixed_suits")
        mask |= 1 << c.order
        ranks |= RANK_BITS[c.order >> 2]
    if mask.bit_count() != len(cards):
        raise IllegalAction("illegal.not_in_hand")
    return mask, ranks
