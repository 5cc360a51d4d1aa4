"""Computer players for the games in :mod:`games`.

Pure like the engines: stdlib and ``games`` only.  A player
(:class:`~players.base.Player`) gets the rules, its seat's view JSON and its
legal actions, and returns one of them; :mod:`players.arena` plays whole games
between players for tests and benchmarks.  Each game's module exports its
``COMPUTER`` (:class:`~players.computer.Computer`): the heuristic and what the
search players of :mod:`players.levels` need for that game.
:mod:`players.compiled` puts the hottest of them, compiled at install, ahead
of their sources while the build is fresh.
:mod:`players.reference` holds published algorithms (information set MCTS,
perfect information Monte Carlo) that the arena measures the search against.
"""

from __future__ import annotations

from players import compiled

compiled.enable(__path__)

from players.base import Player
from players.computer import Computer
from players.daytona import DaytonaHeuristic
from players.durak import DurakHeuristic
from players.hundred_one import HundredOneHeuristic
from players.joker import JokerHeuristic
from players.random_player import RandomPlayer

__all__ = [
    "Computer",
    "DaytonaHeuristic",
    "DurakHeuristic",
    "HundredOneHeuristic",
    "JokerHeuristic",
    "Player",
    "RandomPlayer",
]
