"""The games Koloda hosts: one line each — the engine, its screens, its computer player.

This is the one registration point.  Services get the engines and players
from it, the Telegram layer the screens, and the tests check that every game
has all three.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from games import daytona, durak, hundred_one, joker
from games.spec import GameSpec
from handlers.screens.base import GameScreens
from handlers.screens.daytona import DaytonaScreens
from handlers.screens.durak import DurakScreens
from handlers.screens.hundred_one import HundredOneScreens
from handlers.screens.joker import JokerScreens
from players import (
    DaytonaHeuristic,
    DurakHeuristic,
    HundredOneHeuristic,
    JokerHeuristic,
    Player,
)

__all__ = ["CATALOG", "Catalog", "Listing"]


@dataclass(frozen=True, slots=True)
class Listing:
    spec: GameSpec
    screens: GameScreens
    player: Player


class Catalog:
    def __init__(self, *listings: Listing) -> None:
        keys = [listing.spec.key for listing in listings]
        if len(set(keys)) != len(keys):
            raise ValueError(f"games listed twice: {keys}")
        self.listings = listings
        self.specs: Mapping[str, GameSpec] = MappingProxyType(
            {game.spec.key: game.spec for game in listings}
        )
        self.screens: Mapping[str, GameScreens] = MappingProxyType(
            {game.spec.key: game.screens for game in listings}
        )
        self.players: Mapping[str, Player] = MappingProxyType(
            {game.spec.key: game.player for game in listings}
        )


CATALOG = Catalog(
    Listing(durak.SPEC, DurakScreens(), DurakHeuristic()),
    Listing(hundred_one.SPEC, HundredOneScreens(), HundredOneHeuristic()),
    Listing(joker.SPEC, JokerScreens(), JokerHeuristic()),
    Listing(daytona.SPEC, DaytonaScreens(), DaytonaHeuristic()),
)
