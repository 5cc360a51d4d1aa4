"""Search players: determinized Monte Carlo over the worlds a seat cannot tell
apart from the real one.

A search player is handed a :class:`Situation`: its seat and one *world*, a
complete game dealt by ``determinize`` from what the seat knows (its hand,
the table, the discard pile everybody watched fill, cards seen picked up,
suits a player has shown he lacks).  Engines deal such a world from the seat's
knowledge alone, so two real games that differ only in hidden cards give the
same situation: the player cannot read hidden state, by construction.

To choose, it deals more worlds from that one and, in each, plays every
legal move and then the rest of the game (or of the round, or the deal: the
game's :class:`Horizon`) with the heuristic players in every seat.  All moves
are tried in the same world with the same random choices afterwards, so their
difference is the move's own.  It plays the move with the best mean value.
Moves that trail the best by far after a few worlds are dropped, so the
budget goes to the close calls.

The budget is counted in simulated moves, not seconds, so a seed gives the
same choice on any machine; :mod:`players.levels` sizes it from each game's
measured speed, with a hard time limit on top for a machine under load.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from games.core import JSON, Action, Event, Game, Outcome
from players.arena import next_seat
from players.base import Player
from players.imports import address, resolve

__all__ = [
    "Budget",
    "Horizon",
    "SearchPlayer",
    "Searched",
    "Searcher",
    "Situation",
    "Valued",
    "place_value",
]

CANONICAL_SEED = 0
"""The rng a situation's world is dealt with: a fixed one, so that the world is
a function of what the seat knows."""
WORLDS_BEFORE_PRUNING = 6
"""Worlds every move is tried in before moves that trail far behind are dropped."""
PRUNE_MARGIN = 3.0
"""A move is dropped when its mean trails the best by this many standard errors."""
MAX_ROLLOUT = 600
"""A rollout still short of its horizon after this many moves counts as even:
players that pass the same Durak cards round can go on for ever."""
MAX_DEPTH = 120
"""The exact search counts a line longer than this as not won (positions
can repeat)."""
SOLVER_SHARE = 0.5
"""The share of the budget the exact search may use; what it spends without
finding a forced win is taken from the rollouts' budget, so they keep at
least the rest."""
NODES_PER_MOVE = 5
"""Positions the exact search visits in the time a rollout simulates a move,
as measured on Durak (docs/computer-players.md)."""


@dataclass(frozen=True, slots=True)
class Situation:
    """What one seat knows, as a world dealt from that knowledge alone."""

    seat: int
    world: Game[Any, Any, Any, Any]

    @classmethod
    def of(cls, game: Game[Any, Any, Any, Any], seat: int) -> Situation:
        return cls(seat, game.determinize(seat, random.Random(CANONICAL_SEED)))

    def to_json(self) -> dict[str, JSON]:
        """For handing to another process: the engine is named by import path
        (``"games.joker.engine:Joker"``), so the other side needs no registry."""
        engine = type(self.world)
        return {
            "seat": self.seat,
            "engine": address(engine.__module__, engine.__qualname__),
            "world": self.world.dump(),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> Situation:
        engine = resolve(str(data["engine"]), type)
        if not issubclass(engine, Game):
            raise TypeError(f"{data['engine']} is not a game engine")
        return cls(int(data["seat"]), engine.load(data["world"]))


@dataclass(frozen=True, slots=True)
class Budget:
    """How long a search may go on."""

    moves: int
    """Simulated moves (the unit that keeps a seeded search deterministic)."""
    seconds: float | None = None
    """A hard limit on top, for a machine slower or busier than the one the
    move budget was sized on."""


def _totals(game: Game[Any, Any, Any, Any]) -> tuple[int, ...]:
    totals = game.progress().totals
    if totals is None:
        raise TypeError(f"{game.key} keeps no running totals for a horizon to value")
    return totals


@dataclass(frozen=True, slots=True)
class Horizon:
    """Where a rollout stops and what it was worth to a seat (0 worst, 1 best).

    By default a rollout plays to the end of the game and the outcome is valued
    by place.  Games whose end is far (a 101 match, a Joker game) stop after a
    move with an event of :attr:`stop_at` (the end of the round or deal) and
    value the points made since the search began (the running totals of
    :meth:`~games.core.Game.progress`) against the other seats' mean."""

    stop_at: frozenset[str] = frozenset()
    lower_is_better: bool = False
    scale: float = 1.0
    """Points ahead of the others' mean worth 0.88 (0.5 + tanh(1) / 2)."""
    pending: Callable[[Game[Any, Any, Any, Any]], Sequence[float]] | None = None
    """Per seat, the points a game stopped here still stands to add that its
    running totals do not show yet (Joker: the premium of the pulka under
    way, earned only at the pulka's end), counted with the totals where a
    rollout starts and where it stops."""

    def start(self, game: Game[Any, Any, Any, Any]) -> Any:
        """What :meth:`value` compares against at the stop."""
        if not self.stop_at:
            return None
        return self._points(game)

    def _points(self, game: Game[Any, Any, Any, Any]) -> Sequence[float]:
        totals = _totals(game)
        if self.pending is None:
            return totals
        return [t + p for t, p in zip(totals, self.pending(game), strict=True)]

    @property
    def in_points(self) -> bool:
        """A rollout is valued by points made (it stops short of the end)."""
        return bool(self.stop_at)

    def value(self, game: Game[Any, Any, Any, Any], start: Any, seat: int) -> float:
        outcome = game.outcome()
        if outcome is not None:
            return place_value(outcome, seat)
        return self.points_value(game, start, seat)

    def points_value(self, game: Game[Any, Any, Any, Any], start: Any, seat: int) -> float:
        """The points ``seat`` made since ``start`` (:meth:`lead`) on a place's
        scale (0 to 1), even where the game is over."""
        return 0.5 + 0.5 * math.tanh(self.lead(game, start, seat) / self.scale)

    def lead(self, game: Game[Any, Any, Any, Any], start: Any, seat: int) -> float:
        """The points ``seat`` made since ``start`` ahead of the others' mean
        (fewer points made counting as ahead where lower is better)."""
        now = self._points(game)
        gains = [float(b - a) for a, b in zip(start, now, strict=True)]
        if self.lower_is_better:
            gains = [-g for g in gains]
        others = [g for s, g in enumerate(gains) if s != seat]
        return gains[seat] - sum(others) / len(others)


def place_value(outcome: Outcome, seat: int) -> float:
    """1 for the best place, 0 for the worst, evenly between; a draw is 0.5,
    and a loser (the durak) is worth nothing whatever his place."""
    if outcome.draw:
        return 0.5
    if seat in outcome.losers:
        return 0.0
    last = len(outcome.places) - 1
    if last <= 0:
        return 0.5
    place = next(i for i, seats in enumerate(outcome.places) if seat in seats)
    return 1.0 - place / last


@dataclass(frozen=True, slots=True)
class Searched:
    action: Action
    moves: int
    """Moves simulated."""
    worlds: int
    """Worlds dealt (0: there was nothing to search, or no time)."""
    exact: bool = False
    """Chosen by the exact search: it forces a win."""


class Searcher(Protocol):
    """Anything that chooses for a :class:`Situation` within a budget: a
    :class:`SearchPlayer`, or a reference player of :mod:`players.reference`."""

    def search(self, situation: Situation, rng: random.Random) -> Searched: ...


@dataclass(frozen=True, slots=True)
class Valued:
    """A move valued by :meth:`SearchPlayer.values`."""

    action: Action
    mean: float
    error: float
    """The standard error of the mean (inf after fewer than two worlds)."""
    worlds: int
    live: bool
    """Still in the running when the budget ran out (not dropped as far behind)."""


@dataclass(slots=True)
class _Tally:
    action: Action
    total: float = 0.0
    squares: float = 0.0
    count: int = 0

    def add(self, value: float) -> None:
        self.total += value
        self.squares += value * value
        self.count += 1

    @property
    def mean(self) -> float:
        return self.total / self.count

    @property
    def error(self) -> float:
        """Standard error of the mean."""
        if self.count < 2:
            return math.inf
        variance = max(0.0, self.squares / self.count - self.mean**2)
        return math.sqrt(variance / (self.count - 1))


class SearchPlayer:
    """Chooses by determinized Monte Carlo (see the module docstring)."""

    def __init__(
        self,
        rollout: Player[Any],
        budget: Budget,
        horizon: Horizon | None = None,
        *,
        duel: Callable[[Game[Any, Any, Any, Any]], bool] | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        """``duel`` says whether only two sides are left in a game; there,
        once nothing is hidden from the seat any more, the search is exact."""
        self._rollout = rollout
        self.budget = budget
        self._horizon = horizon or Horizon()
        self._duel = duel
        self._clock = clock

    def choose(self, situation: Situation, rng: random.Random) -> Action:
        return self.search(situation, rng).action

    def search(self, situation: Situation, rng: random.Random) -> Searched:
        """The choice, with what it cost (for the arena and calibration)."""
        seat = situation.seat
        root = situation.world
        legal = root.legal_actions(seat)
        if not legal:
            raise ValueError(f"seat {seat} has no move")
        if len(legal) == 1:
            return Searched(legal[0], 0, 0)
        deadline = None if self.budget.seconds is None else self._clock() + self.budget.seconds
        spent = 0
        if self._duel is not None and self._duel(root) and _nothing_hidden(root, seat):
            nodes = int(self.budget.moves * SOLVER_SHARE * NODES_PER_MOVE)
            solver = _Solver(seat, nodes, deadline, self._clock)
            solved = solver.best(root, legal)
            if solved is not None:
                return Searched(solved, 0, 0, exact=True)
            spent = solver.visited // NODES_PER_MOVE
        tallies = [_Tally(a) for a in legal]
        live, spent, worlds = self._roll(root, seat, tallies, rng, spent, deadline)
        if not worlds:  # out of time before one whole world: the rollout player's choice
            return Searched(self._rollout.choose(root.rules, root.view(seat), legal, rng), 0, 0)
        return Searched(max(live, key=lambda t: t.mean).action, spent, worlds)

    def values(
        self,
        situation: Situation,
        rng: random.Random,
        keep: Action,
        measure: Callable[[Game[Any, Any, Any, Any], Any, int], float] | None = None,
    ) -> list[Valued]:
        """Every legal move valued as :meth:`search` values them (the same
        worlds, rollouts and pruning), ``keep`` never dropped, each by
        ``measure(game, start, seat)`` at the rollout's end (by default the
        horizon's value): what an analysis compares a move played with.
        The moves still in the running come first, best first."""
        seat = situation.seat
        root = situation.world
        deadline = None if self.budget.seconds is None else self._clock() + self.budget.seconds
        tallies = [_Tally(a) for a in root.legal_actions(seat)]
        live, _, _ = self._roll(root, seat, tallies, rng, 0, deadline, keep, measure)
        return [
            Valued(t.action, t.mean, t.error, t.count, t in live)
            for t in sorted(tallies, key=lambda t: (t not in live, -t.mean if t.count else 0.0))
            if t.count
        ]

    def _roll(
        self,
        root: Game[Any, Any, Any, Any],
        seat: int,
        tallies: list[_Tally],
        rng: random.Random,
        spent: int,
        deadline: float | None,
        keep: Action | None = None,
        measure: Callable[[Game[Any, Any, Any, Any], Any, int], float] | None = None,
    ) -> tuple[list[_Tally], int, int]:
        """Deal worlds and roll every live move out in each until the budget
        is spent; the moves left in the running, the moves simulated and the
        worlds dealt."""
        live = tallies
        horizon = self._horizon
        value = measure or horizon.value
        worlds = 0
        clock = self._clock
        while spent < self.budget.moves and len(live) > 1:
            world = root.determinize(seat, rng)
            start = horizon.start(world)
            seed = rng.getrandbits(64)
            values: list[float] = []
            for tally in live:
                if deadline is not None and clock() >= deadline:
                    # Out of time in mid-world (a world of many moves, such
                    # as Akulina's leads, can take longer than the level's
                    # time): the world is dropped, so that every move kept
                    # was tried in the same worlds.
                    return live, spent, worlds
                game = world.clone()
                events = game.apply(seat, tally.action)
                moves = 0
                if not _stops(horizon, events):
                    moves = self._play_out(game, random.Random(seed))
                ended = moves < MAX_ROLLOUT or not game.to_move()
                values.append(value(game, start, seat) if ended else 0.5)
                spent += moves + 1
            for tally, got in zip(live, values, strict=True):
                tally.add(got)
            worlds += 1
            if worlds >= WORLDS_BEFORE_PRUNING:
                live = _pruned(live, keep)
        return live, spent, worlds

    def _play_out(self, game: Game[Any, Any, Any, Any], rng: random.Random) -> int:
        """Play on with the rollout player in every seat up to the horizon (or
        :data:`MAX_ROLLOUT` moves); the number of moves made."""
        horizon = self._horizon
        rollout = self._rollout
        rules = game.rules
        moves = 0
        while moves < MAX_ROLLOUT and (actors := game.to_move()):
            actor = next_seat(game, sorted(actors), rng)
            legal = game.legal_actions(actor)
            # A forced move is played without building a view for the
            # rollout player (a view costs more than most choices).
            action = (
                legal[0] if len(legal) == 1 else rollout.choose(rules, game.view(actor), legal, rng)
            )
            events = game.apply(actor, action)
            moves += 1
            if _stops(horizon, events):
                break
        return moves


def _nothing_hidden(world: Game[Any, Any, Any, Any], seat: int) -> bool:
    """Every world the seat could be in is this one."""
    return (
        world.determinize(seat, random.Random(1)).dump()
        == world.determinize(seat, random.Random(2)).dump()
    )


class _OutOfNodes(Exception):
    pass


def _won(outcome: Outcome, seat: int) -> bool:
    """The seat won its duel: the other one is the loser (a draw is not a win)."""
    return not outcome.draw and seat not in outcome.losers


class _Solver:
    """Exact search of a two-sided game with nothing hidden for a move that
    forces a win (:func:`_won`), whatever the other side does.

    A boolean search cuts as soon as one reply refutes a move, and positions
    already decided are looked up by :meth:`~games.core.Game.position_key`.
    A line longer than :data:`MAX_DEPTH` (cards passed round and round)
    counts as not won, so the search may miss a win but never claims one that
    is not forced.  (Trying the rollout player's choice first at every
    position finds fewer wins in the time: reading a view costs more than the
    nodes it saves.)"""

    def __init__(
        self,
        seat: int,
        nodes: int,
        deadline: float | None,
        clock: Callable[[], float],
    ) -> None:
        self._seat = seat
        self._nodes = nodes
        self._deadline = deadline
        self._clock = clock
        self.visited = 0
        self._known: dict[Hashable, bool] = {}
        self._rng = random.Random(0)

    def best(self, root: Game[Any, Any, Any, Any], legal: Sequence[Action]) -> Action | None:
        """A move that forces a win, or None when there is none (the rollouts
        then choose the move a fallible opponent is likeliest to go wrong
        after) or the node budget ran out."""
        try:
            for action in legal:
                game = root.clone()
                game.apply(self._seat, action)
                if self._wins(game, 1):
                    return action
        except _OutOfNodes:
            return None
        return None

    def _wins(self, game: Game[Any, Any, Any, Any], depth: int) -> bool:
        outcome = game.outcome()
        if outcome is not None:
            return _won(outcome, self._seat)
        if depth > MAX_DEPTH:
            return False
        key = game.position_key()
        known = self._known.get(key)
        if known is not None:
            return known
        self.visited += 1
        if self.visited > self._nodes:
            raise _OutOfNodes
        if (
            self._deadline is not None
            and self.visited % 256 == 0
            and self._clock() >= self._deadline
        ):
            raise _OutOfNodes
        actor = next_seat(game, sorted(game.to_move()), self._rng)
        ours = actor == self._seat
        result = not ours
        for action in game.legal_actions(actor):
            child = game.clone()
            child.apply(actor, action)
            if self._wins(child, depth + 1) == ours:
                result = ours
                break
        self._known[key] = result
        return result


def _stops(horizon: Horizon, events: Sequence[Event]) -> bool:
    stop_at = horizon.stop_at
    return bool(stop_at) and any(e.kind in stop_at for e in events)


def _pruned(live: Sequence[_Tally], keep: Action | None = None) -> list[_Tally]:
    """The moves still worth trying: within :data:`PRUNE_MARGIN` standard
    errors of the best (and ``keep``, whatever it is worth)."""
    best = max(live, key=lambda t: t.mean)
    return [
        t
        for t in live
        if t is best
        or t.action == keep
        or t.mean + PRUNE_MARGIN * math.hypot(t.error, best.error) >= best.mean
    ]
