"""The declarative clone of :class:`games.core.GamePackage`."""

from __future__ import annotations

from games.core import GamePackage


class _Slotted(GamePackage[None, None]):
    __slots__ = ("hands", "log", "name", "scores", "table")
    _COPIED = ("scores", "log")
    _COPIED_TWICE = ("hands",)
    hands: list[list[int]]
    log: list[str] | None
    name: str
    scores: list[int]
    table: tuple[int, ...]


class _Plain(GamePackage[None, None]):
    _COPIED = ("scores",)
    scores: list[int]
    shared: list[int]


def test_a_slotted_clone_copies_what_is_listed_and_shares_the_rest() -> None:
    game = _Slotted()
    game.hands = [[1, 2], [3]]
    game.log = None
    game.name = "x"
    game.scores = [0, 5]
    game.table = (1, 2)
    copy = game.clone()
    copy.hands[0].append(9)
    copy.scores[1] = 7
    assert (game.hands, game.scores) == ([[1, 2], [3]], [0, 5])
    assert (copy.hands, copy.scores) == ([[1, 2, 9], [3]], [0, 7])
    assert copy.log is None
    assert copy.name is game.name
    assert copy.table is game.table
    assert type(copy) is _Slotted


def test_a_plain_clone_copies_its_dict_and_the_listed_fields() -> None:
    game = _Plain()
    game.scores = [1]
    game.shared = [2]
    copy = game.clone()
    copy.scores.append(3)
    assert game.scores == [1]
    assert copy.shared is game.shared
