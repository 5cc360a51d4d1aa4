"""How strong a computer seat plays: easy (the heuristic, at once), normal and
hard (a :class:`~players.search.SearchPlayer` thinking about 0.3 s and 1 s).

The search budget is counted in simulated moves so that a seed gives the same
move on any machine; :data:`MOVES_PER_SECOND` says how many a core simulates
per second in each game (measured with ``python -m bench.arena --calibrate``
on the 2-core reference machine), and a level's time is its hard limit on top.

:func:`think` is what a worker process runs: it takes and returns plain data.
"""

from __future__ import annotations

import enum
import functools
import random
from collections.abc import Callable, Mapping
from typing import Any

from games.core import JSON, Game
from games.daytona import Daytona
from games.durak import Durak
from games.hundred_one import HundredOne
from games.joker import Joker
from players.base import Player
from players.daytona import DaytonaHeuristic
from players.durak import DurakHeuristic
from players.hundred_one import HundredOneHeuristic
from players.joker import JokerHeuristic
from players.search import Budget, Horizon, SearchPlayer, Situation

__all__ = [
    "GAMES",
    "HEURISTICS",
    "MOVES_PER_SECOND",
    "Level",
    "search_player",
    "searches",
    "think",
]


class Level(enum.StrEnum):
    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"

    @property
    def seconds(self) -> float:
        """The time a search may take per move (none for the heuristic)."""
        return _SECONDS[self]


_SECONDS = {Level.EASY: 0.0, Level.NORMAL: 0.3, Level.HARD: 1.0}

BUDGET_SHARE = 0.8
"""The share of a level's time its move budget is sized to fill on the
reference machine, so that the time limit is a safety net, not the rule."""
TIME_LIMIT_SHARE = 0.9
"""The hard time limit, as a share of the level's time: the rollout under way
when it strikes still finishes."""

GAMES: Mapping[str, type[Game[Any, Any]]] = {g.key: g for g in (Durak, HundredOne, Joker, Daytona)}

HEURISTICS: Mapping[str, Player] = {
    Durak.key: DurakHeuristic(),
    HundredOne.key: HundredOneHeuristic(),
    Joker.key: JokerHeuristic(),
    Daytona.key: DaytonaHeuristic(),
}

HORIZONS: Mapping[str, Horizon] = {
    Durak.key: Horizon(),
    HundredOne.key: Horizon(
        stop_at=frozenset({"round_over", "match_over"}), lower_is_better=True, scale=30.0
    ),
    Joker.key: Horizon(stop_at=frozenset({"deal_over", "game_over"}), scale=250.0),
    Daytona.key: Horizon(
        stop_at=frozenset({"points", "match_over"}), totals_key="scores", scale=5.0
    ),
}

DUELS: Mapping[str, Callable[[Game[Any, Any]], bool]] = {
    Durak.key: lambda game: len(game.public_view()["active"]) == 2,
}
"""Games that come down to two sides, and how to tell when they have."""

EXACT_HEURISTICS = frozenset({Daytona.key})
"""Games whose heuristic already computes its choice exactly (Daytona's deuce:
where each reading puts the car), so every level plays it: sampled races only
add noise (``bench.arena``: the search wins 19% of sprints where the heuristic
wins 33%, and always counting 2 wins 4%)."""


def searches(game: str, level: Level) -> bool:
    """Whether a computer of ``game`` at ``level`` searches (else it plays the
    heuristic)."""
    return level is not Level.EASY and game not in EXACT_HEURISTICS


MOVES_PER_SECOND: Mapping[str, int] = {
    Durak.key: 17_000,
    HundredOne.key: 22_000,
    Joker.key: 30_000,
    Daytona.key: 70_000,
}
"""Rollout moves one core simulates per second, per game, over whole arena
games (``--calibrate`` samples only two games, and reads lower)."""


@functools.cache
def search_player(game: str, level: Level, *, scale: float = 1.0) -> SearchPlayer:
    """The search player of ``game`` at ``level`` (not easy); ``scale``
    shrinks or stretches its budget (tests and quick arena runs)."""
    if level is Level.EASY:
        raise ValueError("the easy level is the heuristic, not a search")
    seconds = level.seconds * scale
    moves = max(1, int(MOVES_PER_SECOND[game] * seconds * BUDGET_SHARE))
    return SearchPlayer(
        HEURISTICS[game],
        Budget(moves, seconds * TIME_LIMIT_SHARE),
        HORIZONS[game],
        duel=DUELS.get(game),
    )


def think(request: Mapping[str, JSON]) -> str:
    """Choose for a situation sent from the bot: ``{"situation": ...,
    "level": "hard", "seed": 123, "scale": 1.0}``; the chosen action's code."""
    situation = Situation.from_json(request["situation"], GAMES)
    level = Level(request["level"])
    player = search_player(situation.world.key, level, scale=float(request.get("scale", 1.0)))
    return player.choose(situation, random.Random(request["seed"])).encode()
