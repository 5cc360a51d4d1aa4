"""Joker's score sheet: the points of a deal and the premium of a pulka, and
the sheet's rows.

The arithmetic is plain functions of numbers, so it can be tested line by
line (``docs/rules/joker.md`` has a worked example).  The rows
(:class:`SheetRow`, :class:`PulkaRecord`) are what the state keeps and the
views hand out as they are: they never change once written.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.cards import Suit
from games.core import View
from games.joker.rules import JokerRules, Khisht

__all__ = ["Premium", "PulkaRecord", "SheetRow", "deal_points", "is_khisht", "premium"]


@dataclass(frozen=True, slots=True)
class SheetRow(View):
    """One deal played: a row of the score sheet."""

    deal: int
    """The deal's number, from 1."""
    cards: int
    """Cards each in that deal."""
    pulka: int
    """Its pulka, from 1."""
    dealer: int
    trump: Suit | None
    """None: played without trumps."""
    bids: tuple[int, ...]
    """Per seat."""
    tricks: tuple[int, ...]
    """Per seat: the tricks taken."""
    points: tuple[int, ...]
    """Per seat: what the deal scored (before any premium)."""


@dataclass(frozen=True, slots=True)
class PulkaRecord(View):
    """A finished pulka: its premium and its sums."""

    pulka: int
    """The pulka's number, from 1."""
    first: int
    """Its first row of the sheet (an index into the sheet's rows)."""
    last: int
    """Its last row of the sheet."""
    premium: frozenset[int]
    """The seats that made every bid of the pulka."""
    bonus: tuple[int, ...]
    """Per seat: the premium (+) or what was struck off (-), or 0."""
    doubled: tuple[int | None, ...]
    """Per seat: the row (an index into the sheet) counted twice, or None."""
    struck: tuple[int | None, ...]
    """Per seat: the row struck off, or None."""
    subtotal: tuple[int, ...]
    """Per seat: the pulka's points with its bonus."""
    totals: tuple[int, ...]
    """Per seat: the running totals after the pulka."""


def is_khisht(bid: int, took: int) -> bool:
    """A bid of one or more that took no trick."""
    return bid >= 1 and took == 0


def deal_points(rules: JokerRules, cards: int, bid: int, took: int) -> int:
    """Points of one player for one deal of ``cards`` cards each.

    Classic: a pass made 50; a bid of n made 50 + 50n, a bid of all the cards
    made 100 per card; a bid missed 10 per trick taken; a bid of 1+ with no
    trick the khisht (-200, -500 or -100 per card).  Minus joker: a bid of n
    made 100n (a pass 50); each trick missing from a bid -100; more tricks
    than bid 10 per trick."""
    if bid == took:
        if bid == 0:
            return 50
        if rules.minus:
            return 100 * bid
        if bid == cards:
            return 100 * cards
        return 50 + 50 * bid
    if rules.minus:
        if took < bid:
            return -100 * (bid - took)
        return 10 * took
    if is_khisht(bid, took):
        if rules.khisht is Khisht.MINUS_500:
            return -500
        if rules.khisht is Khisht.PER_CARD:
            return -100 * cards
        return -200
    return 10 * took


@dataclass(frozen=True, slots=True)
class Premium:
    """What a finished pulka adds to each player."""

    earned: tuple[int, ...]
    """Seats that made every bid of the pulka."""
    bonus: tuple[int, ...]
    """Per seat: + his best deal again, - his best deal struck off, or 0."""
    doubled: tuple[int | None, ...]
    """Per seat: the deal (index into the pulka's rows) counted twice."""
    struck: tuple[int | None, ...]
    """Per seat: the deal (index into the pulka's rows) struck off."""


def _best(points: Sequence[int]) -> tuple[int, int]:
    """The highest score and the first deal that has it."""
    best = max(points)
    return best, points.index(best)


def premium(
    bids: Sequence[Sequence[int]], tricks: Sequence[Sequence[int]], points: Sequence[Sequence[int]]
) -> Premium:
    """The premium of a pulka from its deals' rows (one entry per seat each).

    A player who made every bid of the pulka gets his best deal of the pulka
    once more; when he is the only one, every other player loses his best
    deal of the pulka (only a positive one: a pulka of losses loses nothing
    more); when two or more earn it, they get the bonus and nobody loses."""
    seats = len(points[0])
    earned = tuple(
        s for s in range(seats) if all(b[s] == t[s] for b, t in zip(bids, tricks, strict=True))
    )
    bonus = [0] * seats
    doubled: list[int | None] = [None] * seats
    struck: list[int | None] = [None] * seats
    for s in range(seats):
        best, deal = _best([row[s] for row in points])
        if s in earned:
            bonus[s] = best
            doubled[s] = deal
        elif len(earned) == 1 and best > 0:
            bonus[s] = -best
            struck[s] = deal
    return Premium(earned, tuple(bonus), tuple(doubled), tuple(struck))
