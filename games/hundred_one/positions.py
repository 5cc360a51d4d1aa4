"""Positions set up card by card, for tests and puzzles (see :func:`build`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TypeVar

from games.cards import Card, Suit, deck, parse_cards
from games.hundred_one.rules import HundredOneRules
from games.hundred_one.state import HundredOneState

__all__ = ["build"]

H = TypeVar("H", bound=HundredOneState)


def _cards(value: str | Iterable[Card]) -> list[Card]:
    return parse_cards(value) if isinstance(value, str) else list(value)


def build(
    cls: type[H],
    rules: HundredOneRules,
    hands: Sequence[str | Iterable[Card]],
    *,
    stock: str | Iterable[Card] = (),
    discard: str | Iterable[Card] = (),
    turn: int = 0,
    rest: str = "stock",
    ordered: Suit | None = None,
    totals: Sequence[int] | None = None,
    eliminated: Mapping[int, int] | None = None,
    round_number: int = 1,
    seed: int = 0,
) -> H:
    """Build a play-phase position with explicit cards, for tests and puzzles.

    ``hands[seat]`` and the piles take card lists or concatenated codes
    (``"QsTh"``).  ``stock`` lists the cards in the order they will be drawn;
    ``discard`` runs bottom to top (its last card is the top card).  Deck
    cards mentioned nowhere go under the stock (``rest="stock"``) or under
    the discard pile (``rest="discard"``), so the deck stays complete.
    ``eliminated`` maps eliminated seats (which must hold no cards) to the
    round they went out in.  ``seed`` drives later shuffles.
    """
    seats = len(hands)
    rules.validate()
    game = cls.__new__(cls)
    game._init(rules, seats, seed)
    full = deck(rules.deck)
    hand_lists = [_cards(h) for h in hands]
    stock_list = _cards(stock)
    discard_list = _cards(discard)
    used = [c for h in hand_lists for c in h] + stock_list + discard_list
    if len(set(used)) != len(used):
        raise ValueError("a card is given twice")
    strangers = set(used) - set(full)
    if strangers:
        raise ValueError(f"not in the {rules.deck}-card deck: {sorted(strangers)}")
    remaining = [c for c in full if c not in set(used)]
    if rest == "stock":
        stock_list = stock_list + remaining
    elif rest == "discard":
        discard_list = remaining + discard_list
    else:
        raise ValueError(f"rest must be 'stock' or 'discard', not {rest!r}")
    game._hands = hand_lists
    game._stock = stock_list[::-1]
    game._discard = discard_list
    game._turn = turn
    game._leader = turn
    game._ordered = ordered
    game._round = round_number
    if totals is not None:
        game._totals = list(totals)
    for seat, out_round in (eliminated or {}).items():
        if hand_lists[seat]:
            raise ValueError(f"eliminated seat {seat} holds cards")
        game._out[seat] = out_round
    if game._out[turn]:
        raise ValueError("the seat on move is eliminated")
    return game
