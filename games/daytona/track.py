"""Laying out a Daytona track (seed 000, ``docs/rules/daytona.md`` §2), the
values cards have on it, and where a drawn value takes a car (§3) — pure, so
that the engine and a computer player work it out the same way."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from games.cards import Card, Rank

__all__ = [
    "BEFORE_START",
    "FINISHED",
    "LAST_CARD",
    "ON_START",
    "TRACK_CARDS",
    "Layout",
    "lay_out",
    "moved",
    "value",
]

TRACK_CARDS = 14
"""Cards of the rectangle (4 top, 3 on the right, 4 bottom, 3 on the left)."""
BEFORE_START = 0
ON_START = 1
LAST_CARD = TRACK_CARDS + 1
"""On the track's last card: the finish is ahead."""
FINISHED = TRACK_CARDS + 2


def value(card: Card) -> int:
    """A card's value in the race: ace 1, 2..10, jack 11, queen 12, king 13."""
    return 1 if card.rank is Rank.ACE else int(card.rank)


_VALUES = frozenset((1, *range(3, 14)))
"""The values a track card may have: no deuces."""


def moved(track: Sequence[int], start: int, at: int, drawn: int | None, *, back_wins: bool) -> int:
    """Where a car at position ``at`` goes with the value ``drawn`` (None: a
    joker), on a track of these values with this start/finish value (positions
    as in :mod:`games.daytona.engine`)."""
    if at >= FINISHED:
        return at
    if drawn is None:  # one card forward, but never across the finish
        return at if at == LAST_CARD else at + 1
    ahead = start if at in (BEFORE_START, LAST_CARD) else track[at - 1]
    under = start if at == ON_START else track[at - 2] if at > ON_START else None
    back = at > ON_START and under is not None and abs(drawn - under) <= 2
    forward = abs(drawn - ahead) <= (1 if at == LAST_CARD else 2)
    if back and (back_wins or not forward):
        return at - 1
    return at + 1 if forward else at


def _usable(card: Card) -> bool:
    return not card.is_joker and card.rank is not Rank.TWO


def _passing(track: Sequence[int], start: int, *, back_wins: bool) -> frozenset[int]:
    """The drawn values that take a car on the last card of a track of these
    values over a start/finish card of value ``start``: within one of it
    (never a joker) and, where back wins, not within two of the last card.

    Where back wins, a start/finish card two from the last card leaves one
    such value at most, the one beyond it: none for an ace after a 3 or a
    king after a jack, and none in the race when it is the pit stop's."""
    return frozenset(
        drawn
        for drawn in range(1, 14)
        if moved(track, start, LAST_CARD, drawn, back_wins=back_wins) == FINISHED
    )


class Layout:
    """The track, the start/finish card and the pit stop, taken from a stock."""

    __slots__ = ("pit", "start", "track", "under")

    def __init__(self, track: list[Card], start: Card, pit: Card, under: int) -> None:
        self.track = track
        self.start = start
        self.pit = pit
        self.under = under
        """Cards turned down and put under the stock while laying it out."""


def lay_out(stock: list[Card], *, back_wins: bool) -> Layout | None:
    """Lay the track from ``stock`` (its last card is its top), as the seed
    says: the 14 cards in order round the rectangle, then the start/finish
    card, then the pit stop.  A card that breaks a rule goes under the stock
    (to the front of the list) and the next one is turned.  ``stock`` keeps
    what is left.

    Two decisions the texts leave open (``docs/rules/daytona.md``): some card
    that is not the pit stop's must take a car on the track's last card over
    the finish, so the start/finish card is at least two apart from the last
    card (for every game, as first decided, so that no deal changes) and no
    other card that leaves none (:func:`_passing`) is laid; and when no value
    is left for the pit stop: None, and the cards are shuffled and laid
    again."""
    track: list[Card] = []
    counts: Counter[int] = Counter()
    under = 0

    def turn() -> Card:
        return stock.pop()

    def reject(card: Card) -> None:
        nonlocal under
        stock.insert(0, card)
        under += 1

    while len(track) < TRACK_CARDS:
        card = turn()
        v = value(card) if _usable(card) else 0
        closing = len(track) == TRACK_CARDS - 1
        if (
            not v
            or counts[v] >= 2
            or (track and value(track[-1]) == v)
            or (closing and value(track[0]) == v)
        ):
            reject(card)
            continue
        track.append(card)
        counts[v] += 1
    values = [value(c) for c in track]
    while True:
        card = turn()
        v = value(card) if _usable(card) else 0
        if (
            not v
            or counts[v] >= 2
            or v == values[0]
            or abs(v - values[-1]) < 2
            or not _passing(values, v, back_wins=back_wins)
        ):
            reject(card)
            continue
        start = card
        counts[v] += 1
        break
    passing = _passing(values, value(start), back_wins=back_wins)
    pits = _VALUES - counts.keys() - (passing if len(passing) == 1 else set())
    if not pits:
        return None
    while True:
        card = turn()
        if not _usable(card) or value(card) not in pits:
            reject(card)
            continue
        return Layout(track, start, card, under)
