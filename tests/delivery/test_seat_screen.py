"""A player's screen of a table: a sub-menu closes by itself when the table
moves, and a press counts as looking for a moment, on that message only."""

from __future__ import annotations

from delivery.seat_screen import LOOKING, SeatScreen


def test_a_sub_menu_stays_open_until_the_table_moves() -> None:
    screen = SeatScreen()
    assert screen.menu(4) is None
    screen.open_menu(4, "trumps")
    assert screen.menu(4) == "trumps"
    assert screen.menu(5) is None  # the table moved: closed
    assert screen.menu(4) is None  # and stays closed
    screen.open_menu(5, "trumps")
    screen.open_menu(5, None)
    assert screen.menu(5) is None


def test_a_press_means_looking_at_that_message_for_a_moment() -> None:
    screen = SeatScreen()
    assert not screen.pressed_lately(40, 100.0)
    screen.press(40, 100.0)
    assert screen.pressed_lately(40, 100.0 + LOOKING)
    assert not screen.pressed_lately(40, 100.0 + LOOKING + 0.5)
    assert not screen.pressed_lately(41, 100.0)  # another message of his
