"""The games the bot hosts.  Adding a game = one package exporting ``SPEC`` and
one line in ``_ALL`` below."""

from __future__ import annotations

from games.durak import SPEC as DURAK
from games.hundred_one import SPEC as HUNDRED_ONE
from games.spec import GameSpec

__all__ = ["GAMES", "UnknownGame", "get"]


class UnknownGame(KeyError):
    pass


_ALL: tuple[GameSpec, ...] = (DURAK, HUNDRED_ONE)

GAMES: dict[str, GameSpec] = {spec.key: spec for spec in _ALL}


def get(key: str) -> GameSpec:
    try:
        return GAMES[key]
    except KeyError:
        raise UnknownGame(key) from None
