"""The analysis of a player's game: what his moves were worth, and his luck.

Each of his decisions is valued as the hard level's search values a move
(:meth:`~players.search.SearchPlayer.values`): from the *situation* of his seat
at the time (a world dealt from what he knew, :meth:`Situation.of`), more
worlds are dealt from that knowledge alone, and in each every legal move is
played and the rest of the game (or of the round, or the deal: the game's
horizon) rolled out by the heuristic in every seat.  So the analysis never
uses a card he could not see.  A move's *cost* is what the best move was worth
more than the one he played, in the game's own measure: his chance of a good
place (a win, not being the durak) where rollouts play to the end, the points
he makes ahead of the others' mean where they stop at the end of a round or a
deal (101, Joker, Daytona).

*Luck* is how good his dealt cards were: the heuristic plays every seat from
the deal as it was (the game is over, nothing is hidden any more) a number of
times, and his seat's mean value is set against the table's mean.

The functions :func:`assess` and :func:`luck` take and return plain data,
finding the engine and the computer by import path: they are what the
analysis worker process runs (:mod:`services.thinking`).
"""

from __future__ import annotations

import contextlib
import math
import os
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.core import JSON, Game
from players.arena import next_seat
from players.computer import Computer
from players.imports import resolve
from players.levels import BUDGET_SHARE
from players.search import Budget, Horizon, SearchPlayer, Situation, Valued
from players.workers import search_worker_started

__all__ = [
    "Assessment",
    "assess",
    "assess_request",
    "assessment",
    "low_priority",
    "luck",
    "luck_request",
]

NICENESS = 19
"""How much lower than the bot's the analysis worker's CPU priority is: the
lowest there is, so that on a busy core it gets about 1.5% of the time a
search worker gets (Linux's CFS weights 15 against 1024)."""
SIGNIFICANCE = 2.0
"""A move costs something only when the better move leads it by this many
standard errors (an even pair of moves is not a mistake)."""
LEAST_WORLDS = 4
"""Worlds both moves must have been tried in before one is called better."""
LEAST_COST = {False: 0.02, True: 1.0}
"""The smallest cost worth showing: 2 points of chance, or one point of score."""


@dataclass(frozen=True, slots=True)
class Assessment:
    """One decision, valued."""

    played: str
    best: str
    played_value: float
    best_value: float
    in_points: bool
    """Values are points ahead of the others (else a chance, 0..1)."""
    significant: bool
    """The best move is clearly better than the one played."""

    @property
    def cost(self) -> float:
        return self.best_value - self.played_value if self.significant else 0.0


def assessment(valued: Sequence[Valued], played: str, in_points: bool) -> Assessment:
    """What the search's values say of the move ``played``: nothing significant
    when the search's time ran out before it valued that move in one whole
    world (a busy machine), rather than a guess."""
    mine = next((v for v in valued if v.action.encode() == played), None)
    live = [v for v in valued if v.live]
    if mine is None or not live:
        return Assessment(played, played, 0.0, 0.0, in_points, significant=False)
    best = max(live, key=lambda v: v.mean)
    lead = best.mean - mine.mean
    noise = math.hypot(best.error, mine.error)
    significant = (
        best.action.encode() != played
        and min(best.worlds, mine.worlds) >= LEAST_WORLDS
        and lead > SIGNIFICANCE * noise
        and lead >= LEAST_COST[in_points]
    )
    return Assessment(played, best.action.encode(), mine.mean, best.mean, in_points, significant)


def assess_request(
    game: Game[Any, Any, Any, Any],
    seat: int,
    played: str,
    computer: Computer,
    seconds: float,
    seed: int,
) -> dict[str, JSON]:
    """What :func:`assess` takes for ``seat``'s decision in ``game`` (the real
    position: only the seat's knowledge of it is sent)."""
    return {
        "situation": Situation.of(game, seat).to_json(),
        "played": played,
        "computer": computer.address,
        "moves": max(1, int(computer.moves_per_second * seconds * BUDGET_SHARE)),
        "seconds": seconds,
        "seed": seed,
    }


def assess(request: Mapping[str, JSON]) -> dict[str, JSON]:
    """Value a decision (see :func:`assess_request`); the :class:`Assessment`
    as plain data."""
    situation = Situation.from_json(request["situation"])
    computer = resolve(str(request["computer"]), Computer)
    horizon = computer.horizon
    player = SearchPlayer(
        computer.heuristic, Budget(int(request["moves"]), float(request["seconds"])), horizon
    )
    played = str(request["played"])
    kept = type(situation.world).decode_action(played)
    measure = horizon.lead if horizon.in_points else None
    valued = player.values(situation, random.Random(request["seed"]), kept, measure)
    found = assessment(valued, played, horizon.in_points)
    return {
        "played": found.played,
        "best": found.best,
        "played_value": found.played_value,
        "best_value": found.best_value,
        "in_points": found.in_points,
        "significant": found.significant,
    }


def assessed(data: Mapping[str, JSON]) -> Assessment:
    """:func:`assess`'s answer read back."""
    return Assessment(
        str(data["played"]),
        str(data["best"]),
        float(data["played_value"]),
        float(data["best_value"]),
        bool(data["in_points"]),
        bool(data["significant"]),
    )


def luck_request(
    dealt: Game[Any, Any, Any, Any], computer: Computer, playouts: int, seed: int
) -> dict[str, JSON]:
    """What :func:`luck` takes: the game as dealt, every card in place."""
    engine = type(dealt)
    return {
        "engine": f"{engine.__module__}:{engine.__qualname__}",
        "deal": dealt.dump(),
        "computer": computer.address,
        "playouts": playouts,
        "seed": seed,
    }


def luck(request: Mapping[str, JSON]) -> list[float]:
    """Each seat's mean value (0..1, the horizon's) when the heuristic plays
    every seat from the deal, ``playouts`` times with different choices."""
    engine = resolve(str(request["engine"]), type)
    if not issubclass(engine, Game):
        raise TypeError(f"{request['engine']} is not a game engine")
    computer = resolve(str(request["computer"]), Computer)
    dealt = engine.load(request["deal"])
    horizon = computer.horizon
    heuristic = computer.heuristic
    totals = [0.0] * dealt.seats
    playouts = int(request["playouts"])
    for n in range(playouts):
        rng = random.Random(int(request["seed"]) * 1_000 + n)
        game = dealt.clone()
        start = horizon.start(game)
        ended = False
        for _ in range(_MAX_PLAYOUT):
            actors = game.to_move()
            if not actors:
                ended = True
                break
            actor = next_seat(game, sorted(actors), rng)
            legal = game.legal_actions(actor)
            events = game.apply(actor, heuristic.choose(game.rules, game.view(actor), legal, rng))
            if horizon.stop_at and any(e.kind in horizon.stop_at for e in events):
                ended = True
                break
        for seat in range(dealt.seats):
            # A self-play still going counts as even, as a rollout of the search does.
            totals[seat] += _round_value(horizon, game, start, seat) if ended else 0.5
    return [total / playouts for total in totals]


def _round_value(horizon: Horizon, game: Game[Any, Any, Any, Any], start: Any, seat: int) -> float:
    """A self-play's value to ``seat``: where self-play stops at a round's
    end, the points of the round, also of the round that ends the game (not
    the match's places, which the rounds before it earned); else the
    horizon's value (the place)."""
    if horizon.stop_at:
        return horizon.points_value(game, start, seat)
    return horizon.value(game, start, seat)


_MAX_PLAYOUT = 5_000
"""A self-play still going after this many moves counts as even (players
that pass the same Durak cards round can go on for ever)."""


def low_priority(parent: int) -> None:
    """The analysis worker's start: below the bot's CPU priority, so that the
    operating system runs the computers' searches first, and otherwise as a
    search worker starts (:func:`players.workers.search_worker_started`)."""
    search_worker_started(parent)
    with contextlib.suppress(OSError):
        os.nice(NICENESS)
