"""Durak's speed tables, generated from the rules' axes.

Move generation is a few look-ups in these tables: the leads a hand allows
(by rank groups or by suit), the transfers, who may throw in under each
defender, and the order hands are refilled in.  Everything here is pure data,
built once per distinct key and shared by every game.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from games.cards import Card, deck
from games.durak.actions import ATTACKS, TRANSFERS, DurakAction, suit_attack
from games.durak.beating import SUIT_BITS
from games.durak.rules import Shape, ThrowIn

__all__ = [
    "DECKS",
    "SEAT_SETS",
    "Leads",
    "leads_for",
    "refill_orders",
    "throwers_by_defender",
    "transfer_list",
]

DECKS: dict[int, tuple[Card, ...]] = {size: tuple(deck(size)) for size in (24, 36, 52)}

SEAT_SETS: tuple[frozenset[int], ...] = tuple(
    frozenset(s for s in range(6) if mask >> s & 1) for mask in range(64)
)
"""``SEAT_SETS[mask]``: the seats whose bits are set."""


def _same_rank_lists(table: Mapping[int, DurakAction]) -> list[tuple[DurakAction, ...]]:
    """``lists[((rank << 4 | suits) << 3) | most]``: the actions of ``table`` for
    every non-empty subset of ``suits`` with at most ``most`` (0..4) cards."""
    lists: list[tuple[DurakAction, ...]] = [()] * (15 << 7)
    for rank in range(2, 15):
        for suits in range(16):
            for most in range(5):
                subs = [x for x in range(1, 16) if x & suits == x and x.bit_count() <= most]
                key = (((rank << 4) | suits) << 3) | most
                lists[key] = tuple(table[(rank << 4) | x] for x in subs)
    return lists


_ATTACK_LISTS = _same_rank_lists(ATTACKS)
_TRANSFER_LISTS = _same_rank_lists(TRANSFERS)


def transfer_list(hand: int, rank: int, room: int) -> tuple[DurakAction, ...]:
    """The transfers of cards of ``rank`` from ``hand``, at most ``room``."""
    key = (rank << 4) | ((hand >> (rank * 4)) & 15)
    return _TRANSFER_LISTS[(key << 3) | min(room, 4)]


class Leads:
    """The leads a hand allows, at most ``most`` cards, by look-ups cached per
    part of the hand (a group of three ranks, or a suit)."""

    __slots__ = ("_cache", "_parts", "_shape")

    def __init__(self, shape: Shape, deck_size: int) -> None:
        self._shape = shape
        self._parts = _RANK_GROUPS[deck_size] if shape is Shape.RANK else _SUIT_PARTS
        self._cache: dict[int, tuple[DurakAction, ...]] = {}

    def __call__(self, hand: int, most: int) -> list[DurakAction]:
        out: list[DurakAction] = []
        cache = self._cache
        for shift, width in self._parts:
            bits = (hand >> shift) & width
            if bits:
                key = (bits << 12) | (shift << 3) | most
                leads = cache.get(key)
                if leads is None:
                    leads = cache[key] = self._make(bits, shift, most)
                out.extend(leads)
        return out

    def _make(self, bits: int, shift: int, most: int) -> tuple[DurakAction, ...]:
        if self._shape is Shape.RANK:
            out: list[DurakAction] = []
            base = shift >> 2
            for i in range(3):
                rank = base + i
                if rank <= 14:
                    suits = (bits >> (i * 4)) & 15
                    out.extend(_ATTACK_LISTS[(((rank << 4) | suits) << 3) | min(most, 4)])
            return tuple(out)
        mask = bits << shift
        subsets = []
        sub = mask
        while sub:
            if sub.bit_count() <= most:
                subsets.append(sub)
            sub = (sub - 1) & mask
        return tuple(suit_attack(s) for s in sorted(subsets))


_RANK_GROUPS: dict[int, tuple[tuple[int, int], ...]] = {
    size: tuple((base << 2, 0xFFF) for base in bases)
    for size, bases in {24: (9, 12), 36: (6, 9, 12), 52: (2, 5, 8, 11, 14)}.items()
}
"""Per deck: the groups of three ranks a hand is cut into, as (shift, mask)."""
_SUIT_PARTS: tuple[tuple[int, int], ...] = tuple(
    (index, SUIT_BITS[suit] >> index) for index, suit in enumerate(SUIT_BITS)
)
"""The four suits, as (shift, mask) of a hand (suit ``i`` is every fourth bit
from bit ``i``)."""


@cache
def leads_for(shape: Shape, deck_size: int) -> Leads:
    return Leads(shape, deck_size)


@cache
def throwers_by_defender(seats: int, throw_in: ThrowIn) -> tuple[tuple[int, ...], ...]:
    """``table[d]``: the seats that may throw in under defender ``d``,
    clockwise from his left."""

    def may(thrower: int, defender: int) -> bool:
        if throw_in is ThrowIn.OPPONENTS:  # teams sit alternately
            return (thrower - defender) % 2 == 1
        return throw_in is ThrowIn.EVERYONE

    return tuple(
        tuple(s for k in range(1, seats) for s in ((d + k) % seats,) if may(s, d))
        for d in range(seats)
    )


@cache
def refill_orders(seats: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """``orders[a][d]``: ``a`` first, then clockwise, ``d`` last."""
    return tuple(
        tuple(
            (*((a + k) % seats for k in range(seats) if (a + k) % seats != d), d)
            for d in range(seats)
        )
        for a in range(seats)
    )
