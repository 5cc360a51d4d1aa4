"""What each card does in 101 and what it costs: the special cards' effects
on the next player and the penalty points of a hand, for given rules."""

from __future__ import annotations

import functools

from games.cards import Card, Rank, Suit, deck
from games.hundred_one.rules import (
    AceMode,
    HundredOneRules,
    Master,
    NineMode,
    Scoring,
    SmallDeck,
)

__all__ = ["Effect", "card_points", "effect", "effects", "master_rank", "queen_credit"]

Effect = tuple[int, bool, bool, bool]
"""``(draw, skip, again, answerable)``, see :func:`effect`."""

_NO_EFFECT = (0, False, False, False)

_CLASSIC_POINTS = {
    Rank.TWO: 2,
    Rank.THREE: 3,
    Rank.FOUR: 4,
    Rank.FIVE: 5,
    Rank.SIX: 6,
    Rank.SEVEN: 7,
    Rank.EIGHT: 8,
    Rank.NINE: 0,
    Rank.TEN: 10,
    Rank.JACK: 2,
    Rank.QUEEN: 3,
    Rank.KING: 4,
    Rank.ACE: 11,
}
_PENTAGON_POINTS = dict.fromkeys(_CLASSIC_POINTS, 0) | {
    Rank.TEN: 10,
    Rank.JACK: 2,
    Rank.QUEEN: 20,
    Rank.KING: 4,
    Rank.ACE: 11,
}


def card_points(rules: HundredOneRules, card: Card) -> int:
    """Penalty points of one card left in hand (before the queens bonus)."""
    table = _PENTAGON_POINTS if rules.scoring is Scoring.PENTAGON else _CLASSIC_POINTS
    return table[card.rank]


def queen_credit(rules: HundredOneRules, queen: Card) -> int:
    """Points a queen takes off: as the winner's last card, or (option) when
    discarded from a hand at the round's end.  Pharaoh: 30; else 20, the
    queen of spades 40."""
    if rules.scoring is Scoring.PHARAOH:
        return 30
    return 40 if queen.suit is Suit.SPADES else 20


def effect(rules: HundredOneRules, card: Card) -> Effect:
    """``(draw, skip, again, answerable)`` of ``card`` on the next player.

    ``draw``: cards the next player draws; ``skip``: he misses his turn;
    ``again``: the player who laid it moves again; ``answerable``: the next
    player misses his turn unless he answers with an ace.  The master card's
    order and the English ace are handled by the engine, not here.
    """
    return effects(rules)[card]


@functools.cache
def effects(rules: HundredOneRules) -> dict[Card, Effect]:
    table: dict[Card, Effect] = {}
    small = rules.deck == 32
    for card in deck(rules.deck):
        rank = card.rank
        fx = _NO_EFFECT
        if rank is Rank.SIX:
            fx = (1, True, False, False)
        elif rank is Rank.SEVEN:
            skip_mode = small and rules.small_deck is SmallDeck.SKIP
            fx = (1, True, False, False) if skip_mode else (2, False, False, False)
        elif rank is Rank.EIGHT and small:
            skip_mode = rules.small_deck is SmallDeck.SKIP
            fx = (0, True, False, False) if skip_mode else (1, False, False, False)
        elif rank is Rank.NINE:
            if rules.nine is NineMode.AGAIN:
                fx = (0, False, True, False)
            elif rules.nine is NineMode.DRAW:
                fx = (1, False, False, False)
        elif rank is Rank.ACE:
            if rules.ace is AceMode.ANSWER:
                fx = (0, False, False, True)
            elif rules.ace is AceMode.SKIP:
                fx = (0, True, False, False)
        elif rank is Rank.KING:
            if card.suit is Suit.SPADES:
                fx = (rules.king_spades, True, False, False)
            elif card.suit is Suit.HEARTS and rules.crocodile:
                fx = (5, True, False, False)
        if rank is master_rank(rules):
            fx = _NO_EFFECT
        table[card] = fx
    return table


def master_rank(rules: HundredOneRules) -> Rank:
    return Rank.JACK if rules.master is Master.JACK else Rank.QUEEN
