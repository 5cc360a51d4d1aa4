"""Everything the computer seats of one game need, in one value.

Each game's player module exports one :class:`Computer` as ``COMPUTER``
(``players/<game>.py``), and the game's listing in ``bot/catalog.py`` carries
it: the levels (:mod:`players.levels`), the bot's computer seats and the
arena take the game's heuristic, horizon, speed and endgame from there, and
from nowhere else.

A search runs in a worker process that is handed plain data, so the worker
finds the computer again by its import path (:attr:`Computer.address`,
``"players.joker:COMPUTER"``) with :func:`players.imports.resolve`: it needs
no registry.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from games.core import Game
from players.base import Player
from players.imports import address
from players.search import Horizon

__all__ = ["ATTRIBUTE", "Arena", "Computer", "Trial"]

ATTRIBUTE = "COMPUTER"
"""The name a game's player module exports its computer under."""


@dataclass(frozen=True, slots=True)
class Trial:
    """One line of ``python -m bench.arena``: the player under test takes every
    seat of a table in turn, the others play ``against``."""

    preset: str
    seats: int
    tested: str = "search"
    """``"search"`` (at the level measured), ``"heuristic"``, or the name of
    :attr:`baseline`."""
    against: str = "heuristic"
    """``"heuristic"``, ``"random"``, or a reference player of
    :data:`players.reference.REFERENCES` (``"ismcts"``, ``"pimc"``) searching
    with the budget of the level measured."""
    baseline: Player[Any] | None = None
    """The player under test when ``tested`` names neither search nor heuristic."""
    deals: int | None = None
    """Deals of this trial, when not the game's :attr:`Arena.deals` (a table
    of searchers takes several times as long as one searcher's)."""
    quick_deals: int | None = None
    """Deals with ``--quick``, when not the game's :attr:`Arena.quick_deals`
    (0: the line is left out of ``--quick`` unless ``--deals`` is given)."""
    partners: bool = False
    """Teams: the tested player's partners play as it does, one side against
    the other, and each deal is played once from each side."""


@dataclass(frozen=True, slots=True)
class Arena:
    """How ``python -m bench.arena`` measures the game's computer."""

    trials: tuple[Trial, ...]
    deals: int
    """Deals per trial (each played once per seat) at the hard level."""
    quick_deals: int
    """Deals per trial with ``--quick``."""
    max_moves: int
    """A game still on after this many moves is called endless and counted as a
    draw (players can pass the same Durak cards round for ever)."""


@dataclass(frozen=True, slots=True)
class Computer:
    """A game's computer player at every level."""

    module: str
    """The module that exports this value as ``COMPUTER`` (its ``__name__``),
    where a search worker imports it from."""
    heuristic: Player[Any]
    """The easy level, and the player in every seat of the search's rollouts."""
    moves_per_second: int
    """Rollout moves one core of the reference machine simulates per second,
    over whole arena games (``python -m bench.arena --calibrate`` samples two
    games and reads low): sizes the search's budget."""
    horizon: Horizon = field(default_factory=Horizon)
    """Where a rollout stops and how it is scored."""
    duel: Callable[[Game[Any, Any, Any, Any]], bool] | None = None
    """Whether a game has come down to two sides, where the search turns exact
    once nothing is hidden (None: the game never does)."""
    exact: bool = False
    """The heuristic already computes its choice exactly, so every level plays
    it: sampled worlds would only add noise."""
    arena: Arena | None = None
    """The game's lines in ``python -m bench.arena`` (None: it has none)."""

    @property
    def address(self) -> str:
        """Where a worker process imports this computer from."""
        return address(self.module, ATTRIBUTE)
