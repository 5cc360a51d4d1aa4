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

__all__ = ["ATTRIBUTE", "Aim", "Arena", "Computer", "Trial", "level_trials"]

ATTRIBUTE = "COMPUTER"
"""The name a game's player module exports its computer under."""


@dataclass(frozen=True, slots=True)
class Aim:
    """What a trial's line is to show, printed beside its rates.

    ``rate`` names the line's rate (``"won"``, ``"first out"``, ``"bids
    made"``); it must reach ``at_least`` or stay under ``under`` (shares of
    one).  ``each_deal_size`` asks the same of Joker's bids in every deal
    size; ``beats_each`` asks the tested player to go out first more often
    than each of the others."""

    rate: str = "won"
    at_least: float | None = None
    under: float | None = None
    each_deal_size: float | None = None
    beats_each: bool = False

    def met(self, rate: float, *, by_size: tuple[float, ...] = (), theirs: float = 0.0) -> bool:
        """Whether a line's ``rate`` (and its bids ``by_size``, the others'
        first-out rate ``theirs``) meets the aim."""
        return (
            (self.at_least is None or rate >= self.at_least)
            and (self.under is None or rate < self.under)
            and (self.each_deal_size is None or all(r >= self.each_deal_size for r in by_size))
            and (not self.beats_each or rate > theirs)
        )

    def __str__(self) -> str:
        parts = []
        if self.at_least is not None:
            parts.append(f"{self.rate} >= {100 * self.at_least:.0f}%")
        if self.under is not None:
            parts.append(f"{self.rate} < {100 * self.under:.0f}%")
        if self.each_deal_size is not None:
            parts.append(f"every deal size >= {100 * self.each_deal_size:.0f}%")
        if self.beats_each:
            parts.append(f"{self.rate} above each of them")
        return ", ".join(parts)


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
    """``"heuristic"``, ``"random"``, ``"normal"`` (the search at the normal
    level, whatever level is measured), or a reference player of
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
    aim: Aim | None = None
    """What the line is to show at the hard level (the arena prints whether it
    does)."""


def level_trials(preset: str, *, deals: int, quick_deals: int) -> tuple[Trial, Trial]:
    """The two lines that say what the levels mean, two players on duplicate
    deals: the level measured (hard) against the normal one wins at least 60%
    of its games, and the easy level (the heuristic) loses to the normal one."""
    return (
        Trial(
            preset, 2, against="normal", deals=deals, quick_deals=quick_deals, aim=Aim(at_least=0.6)
        ),
        Trial(
            preset,
            2,
            tested="heuristic",
            against="normal",
            deals=deals,
            quick_deals=quick_deals,
            aim=Aim(under=0.5),
        ),
    )


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
    draw: a guard, since computers going round move at random
    (:mod:`players.going_round`) as they do in the bot."""


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
    normal_seconds: float = 0.3
    """The normal level's time per move (the hard level's is a second): where
    the game's search, between the heuristic and the hard level, is about as
    far from either (``python -m bench.arena --against normal``)."""
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
