"""Shorthands shared by the 101 scenario tests."""

from __future__ import annotations

from typing import Any

import pytest

from games.core import Event, IllegalAction
from games.hundred_one import HundredOne, HundredOneRules

CLASSIC = HundredOneRules()


def pos(hands: list[str], rules: HundredOneRules = CLASSIC, **kw: Any) -> HundredOne:
    """A position with the given hands (see ``HundredOne.position``)."""
    return HundredOne.position(rules, hands, **kw)


def act(game: HundredOne, seat: int, code: str) -> list[Event]:
    return game.apply(seat, HundredOne.decode_action(code))


def codes(game: HundredOne, seat: int) -> set[str]:
    return {a.encode() for a in game.legal_actions(seat)}


def summary(events: list[Event]) -> list[tuple[str, int | None, int | str | None]]:
    return [(e.kind, e.seat, e.value) for e in events]


def scores(events: list[Event]) -> dict[int, int | str | None]:
    return {e.seat: e.value for e in events if e.kind == "round_over" and e.seat is not None}


def refused(game: HundredOne, seat: int, code: str, reason: str) -> None:
    """The move is refused for ``reason`` and the state is untouched."""
    before = game.dump()
    with pytest.raises(IllegalAction) as info:
        act(game, seat, code)
    assert info.value.reason == reason
    assert game.dump() == before
