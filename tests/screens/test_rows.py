"""Keys laid out in rows from their labels' measured widths."""

from __future__ import annotations

from collections.abc import Sequence

from screens.base import Key
from screens.rows import fit_rows, fits


def labels(rows: Sequence[Sequence[Key]]) -> list[list[str]]:
    return [[key.label for key in row] for row in rows]


def keys(*names: str) -> list[Key]:
    return [Key(name, action=str(n)) for n, name in enumerate(names)]


def test_cards_go_up_to_four_to_a_row_marked_trumps_three_in_even_rows() -> None:
    plain = keys("6♠️", "7♠️", "8♥️", "10♦️")
    assert labels(fit_rows(plain)) == [["6♠️", "7♠️", "8♥️", "10♦️"]]
    assert labels(fit_rows([*plain, *keys("J♠️")])) == [["6♠️", "7♠️", "8♥️"], ["10♦️", "J♠️"]]
    hand = keys("6♠️", "7♠️", "8♥️", "9♦️", "10♠️", "6♣️★", "10♣️★", "A♣️★")
    assert labels(fit_rows(hand)) == [
        ["6♠️", "7♠️", "8♥️"],
        ["9♦️", "10♠️", "6♣️★"],
        ["10♣️★", "A♣️★"],
    ]
    trumps = keys("Q♥️★", "9♥️★", "K♠️", "8♠️", "7♣️", "A♦️", "K♦️")  # a ★ caps its row at three
    assert labels(fit_rows(trumps)) == [["Q♥️★", "9♥️★", "K♠️"], ["8♠️", "7♣️", "A♦️", "K♦️"]]


def test_beats_go_two_to_a_row_and_a_long_set_alone_in_the_given_order() -> None:
    menu = keys("J♥️→10♥️", "10♦️★→10♥️", "10♠️ 10♣️★ 10♦️ 10♥️", "6♦️★→7♥️", "+7♠️")
    assert labels(fit_rows(menu)) == [
        ["J♥️→10♥️", "10♦️★→10♥️"],
        ["10♠️ 10♣️★ 10♦️ 10♥️"],
        ["6♦️★→7♥️", "+7♠️"],
    ]


def test_a_row_never_holds_more_than_asked_nor_a_label_it_would_cut() -> None:
    bids = keys("Pass", *map(str, range(1, 10)))
    rows = fit_rows(bids, 5)
    assert labels(rows) == [["Pass", "1", "2", "3", "4"], ["5", "6", "7", "8", "9"]]
    assert labels(fit_rows(keys("a" * 40, "b"))) == [["a" * 40], ["b"]]  # too wide even alone
    assert not fits("10♦️★ → 10♥️", 2)  # why a beat is written without spaces
    assert fits("10♦️★→10♥️", 2)
