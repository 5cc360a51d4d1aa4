from __future__ import annotations

import copy
import pickle
import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.cards import (
    SUITS,
    Card,
    CardParseError,
    Rank,
    Suit,
    codes_to_cards,
    deck,
    joker_deck,
    parse_cards,
    shoe,
)


@pytest.mark.parametrize(
    ("size", "low"), [(24, Rank.NINE), (32, Rank.SEVEN), (36, Rank.SIX), (52, Rank.TWO)]
)
def test_decks_hold_each_card_once_from_their_lowest_rank(size: int, low: Rank) -> None:
    cards = deck(size)
    assert len(cards) == len(set(cards)) == size
    assert min(c.rank for c in cards) == low
    assert {c.suit for c in cards} == set(SUITS)


def test_deck_sizes_and_joker_counts_are_checked() -> None:
    with pytest.raises(ValueError, match="no 40-card deck"):
        deck(40)
    with pytest.raises(ValueError, match="at most two jokers"):
        deck(36, jokers=3)
    assert sum(c.is_joker for c in deck(52, jokers=2)) == 2


def test_joker_deck_replaces_the_black_sixes() -> None:
    cards = joker_deck()
    assert len(cards) == 36
    assert Card.parse("6s") not in cards
    assert Card.parse("6c") not in cards
    assert Card.parse("6h") in cards
    assert Card.parse("6d") in cards
    assert [c.code for c in cards if c.is_joker] == ["X1", "X2"]


def test_two_deck_shoe_for_daytona() -> None:
    cards = shoe(2, 52, jokers_per_deck=2)
    counts = Counter(cards)
    assert len(cards) == 108
    assert counts[Card.joker(1)] + counts[Card.joker(2)] == 4
    assert all(n == 2 for n in counts.values())


def test_every_card_round_trips_through_its_code_and_is_interned() -> None:
    for card in deck(52, jokers=2):
        assert Card.parse(card.code) is card
        assert copy.deepcopy(card) is card
        assert pickle.loads(pickle.dumps(card)) is card  # noqa: S301 - our own bytes
    assert Card.of(Rank.TEN, Suit.HEARTS).code == "Th"


def test_faces_are_what_people_read() -> None:
    assert Card.parse("7s").face == "7♠"
    assert Card.parse("Th").face == "10♥"
    assert Card.parse("Ad").face == "A♦"
    assert Card.parse("X2").face == "🃏"


def test_cards_cannot_be_constructed_twice() -> None:
    with pytest.raises(TypeError):
        Card(Rank.ACE, Suit.SPADES, "As", 0)


@given(st.text(max_size=4))
def test_parser_rejects_anything_that_is_not_a_code(text: str) -> None:
    valid = {c.code for c in deck(52, jokers=2)}
    if text in valid:
        assert Card.parse(text).code == text
    else:
        with pytest.raises(CardParseError):
            Card.parse(text)


def test_card_lists_parse_and_reject() -> None:
    assert parse_cards("6s6hX1") == [Card.parse("6s"), Card.parse("6h"), Card.joker(1)]
    for bad in ("6s6", "6s1h", "zz"):
        with pytest.raises(CardParseError):
            parse_cards(bad)
    with pytest.raises(CardParseError):
        codes_to_cards(["6s", 7])
    with pytest.raises(CardParseError):
        codes_to_cards("6s")
    with pytest.raises(CardParseError):
        Card.joker(3)


def test_sorting_is_by_rank_then_suit() -> None:
    cards = random.Random(1).sample(deck(36), 36)
    ordered = sorted(cards)
    assert [c.rank for c in ordered] == sorted(c.rank for c in cards)
