"""The games Koloda hosts: one line each, the game's spec (its engine and
presets), its screens, its computer player and, for a game that brings its
own, its texts.

This is the one registration point.  Services get the engines and computers
from it, the Telegram layer the screens, the benchmarks everything, and the
tests check that every game has all three.  A game's
:class:`~players.computer.Computer` carries all its computer seats need at
every level (heuristic, search horizon and speed, exact endgame), so nothing
else lists the game.  A game whose texts are not in the house's catalog
brings them as an :class:`~i18n.Domain`, which the catalog adds to the
lookups; :meth:`Catalog.adding` lists one more game (a game that lives
outside the house: ``tests/one_registration``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import players.daytona
import players.durak
import players.hundred_one
import players.joker
from games import daytona, durak, hundred_one, joker
from games.spec import GameSpec
from i18n import Domain, add_domain
from players.computer import Computer
from players.imports import resolve
from screens.base import GameScreens
from screens.daytona import DaytonaScreens
from screens.durak import DurakScreens
from screens.hundred_one import HundredOneScreens
from screens.joker import JokerScreens

__all__ = ["CATALOG", "Catalog", "Listing"]


@dataclass(frozen=True, slots=True)
class Listing:
    spec: GameSpec
    screens: GameScreens[Any, Any]
    computer: Computer
    texts: Domain | None = None
    """The game's own texts (None: they are in the house's catalog)."""


class Catalog:
    def __init__(self, *listings: Listing) -> None:
        keys = [listing.spec.key for listing in listings]
        if len(set(keys)) != len(keys):
            raise ValueError(f"games listed twice: {keys}")
        for listing in listings:
            # A search worker finds the computer by this path: a wrong one
            # fails here, at start, not at a table's first search.
            where = listing.computer.address
            if resolve(where, Computer) is not listing.computer:
                raise ValueError(f"{listing.spec.key}: {where} is another computer")
            if listing.texts is not None:
                add_domain(listing.texts)
        self.listings = listings
        self.specs: Mapping[str, GameSpec] = MappingProxyType(
            {game.spec.key: game.spec for game in listings}
        )
        self.screens: Mapping[str, GameScreens[Any, Any]] = MappingProxyType(
            {game.spec.key: game.screens for game in listings}
        )
        self.computers: Mapping[str, Computer] = MappingProxyType(
            {game.spec.key: game.computer for game in listings}
        )

    def adding(self, *listings: Listing) -> Catalog:
        """This catalog with ``listings`` as well."""
        return Catalog(*self.listings, *listings)


CATALOG = Catalog(
    Listing(durak.SPEC, DurakScreens(), players.durak.COMPUTER),
    Listing(hundred_one.SPEC, HundredOneScreens(), players.hundred_one.COMPUTER),
    Listing(joker.SPEC, JokerScreens(), players.joker.COMPUTER),
    Listing(daytona.SPEC, DaytonaScreens(), players.daytona.COMPUTER),
)
