"""How strong a computer seat plays: easy (the heuristic, at once), normal and
hard (a :class:`~players.search.SearchPlayer` thinking the game's
:attr:`~players.computer.Computer.normal_seconds` and 1 s).

The search budget is counted in simulated moves so that a seed gives the same
move on any machine; each game's :attr:`~players.computer.Computer.moves_per_second`
says how many a core simulates per second, and a level's time is its hard
limit on top.  Everything about the game comes from the
:class:`~players.computer.Computer` the caller hands in.

:func:`think` is what a worker process runs: it takes and returns plain data,
and finds the computer by its import path.
"""

from __future__ import annotations

import enum
import functools
import random
from collections.abc import Mapping

from games.core import JSON
from players.computer import Computer
from players.imports import resolve
from players.search import Budget, SearchPlayer, Situation

__all__ = ["Level", "budget", "request_for", "search_player", "searches", "seconds", "think"]


class Level(enum.StrEnum):
    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"


HARD_SECONDS = 1.0
"""The hard level's time per move, in every game."""

BUDGET_SHARE = 0.8
"""The share of a level's time its move budget is sized to fill on the
reference machine, so that the time limit is a safety net, not the rule."""
TIME_LIMIT_SHARE = 0.9
"""The hard time limit, as a share of the level's time: the rollout under way
when it strikes still finishes."""


def seconds(computer: Computer, level: Level) -> float:
    """The time ``computer``'s search may take per move at ``level`` (none
    for the heuristic)."""
    if level is Level.EASY:
        return 0.0
    return computer.normal_seconds if level is Level.NORMAL else HARD_SECONDS


def searches(computer: Computer, level: Level) -> bool:
    """Whether ``computer`` searches at ``level`` (else it plays its heuristic)."""
    return level is not Level.EASY and not computer.exact


def budget(computer: Computer, level: Level, *, scale: float = 1.0, timed: bool = True) -> Budget:
    """The search budget of ``computer`` at ``level`` (not easy): simulated
    moves, and the time limit on top unless not ``timed`` (an arena run that
    gives the same results at any load); ``scale`` shrinks or stretches it
    (tests and quick arena runs).  The arena gives the reference players the
    same."""
    if level is Level.EASY:
        raise ValueError("the easy level is the heuristic, not a search")
    time = seconds(computer, level) * scale
    moves = max(1, int(computer.moves_per_second * time * BUDGET_SHARE))
    return Budget(moves, time * TIME_LIMIT_SHARE if timed else None)


@functools.cache
def search_player(
    computer: Computer, level: Level, *, scale: float = 1.0, timed: bool = True
) -> SearchPlayer:
    """The search player of ``computer`` at ``level`` (not easy), with the
    :func:`budget` of ``scale`` and ``timed``."""
    return SearchPlayer(
        computer.heuristic,
        budget(computer, level, scale=scale, timed=timed),
        computer.horizon,
        duel=computer.duel,
    )


def request_for(
    situation: Situation, computer: Computer, level: Level, seed: int, scale: float = 1.0
) -> dict[str, JSON]:
    """What :func:`think` takes: plain data, the computer named by import path."""
    return {
        "situation": situation.to_json(),
        "computer": computer.address,
        "level": level.value,
        "seed": seed,
        "scale": scale,
    }


def think(request: Mapping[str, JSON]) -> str:
    """Choose for a situation sent from the bot (see :func:`request_for`); the
    chosen action's code."""
    situation = Situation.from_json(request["situation"])
    computer = resolve(str(request["computer"]), Computer)
    level = Level(request["level"])
    player = search_player(computer, level, scale=float(request.get("scale", 1.0)))
    return player.choose(situation, random.Random(request["seed"])).encode()
