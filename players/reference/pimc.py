"""Perfect information Monte Carlo (PIMC): determinized flat Monte Carlo.

The method as J. R. Long, N. R. Sturtevant, M. Buro and T. Furtak describe it
in "Understanding the Success of Perfect Information Monte Carlo Sampling in
Game Tree Search" (AAAI 2010), after M. L. Ginsberg's bridge program GIB
("GIB: Imperfect Information in a Computationally Challenging Game", JAIR 14,
2001), as a reference player for the arena: an algorithm we did not design,
to measure ours against.

Deal a world consistent with what the seat knows (``determinize``, the same
sampling our search players use); in it, value every legal move as if the
game were one of perfect information; repeat, and play the move with the
best mean value over the worlds.

The variant implemented, and where it departs from the paper:

* A move's value in a world is one uniformly random playout from it to the
  game's horizon (flat Monte Carlo), not a minimax solution of the world as
  in GIB's double-dummy solver: solving a Durak world from the deal does not
  fit in a second.  Each move gets its own playout.
* Every move is tried in every world dealt (no pruning, no tree), and a world
  is finished once started, so all moves have been tried equally often.
* The budget is the hard level's: a count of simulated moves (each move
  tried and every playout move), with the hard level's time limit on top.
* Where a game's horizon stops short of its end (101's round, Joker's deal),
  the playout stops there and the move is valued by the horizon's value of
  the points made; Durak is played to the end and valued by place.  When
  several seats may act, the seat asked is the one the bot's driver would ask
  (:func:`players.arena.next_seat`).
* Ties go to the move listed first by the game.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from games.core import Action
from players.reference.playout import Playout, random_playout, stops
from players.search import Budget, Horizon, Searched, Situation

__all__ = ["PerfectInformationMonteCarlo"]


class PerfectInformationMonteCarlo:
    """PIMC with one random playout per move and world (see the module docstring)."""

    def __init__(
        self,
        budget: Budget,
        horizon: Horizon | None = None,
        *,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.budget = budget
        self._horizon = horizon or Horizon()
        self._clock = clock

    def choose(self, situation: Situation, rng: random.Random) -> Action:
        return self.search(situation, rng).action

    def search(self, situation: Situation, rng: random.Random) -> Searched:
        """The choice, with the moves simulated and the worlds dealt."""
        seat, root = situation.seat, situation.world
        legal = root.legal_actions(seat)
        if not legal:
            raise ValueError(f"seat {seat} has no move")
        if len(legal) == 1:
            return Searched(legal[0], 0, 0)
        horizon = self._horizon
        deadline = None if self.budget.seconds is None else self._clock() + self.budget.seconds
        totals = [0.0] * len(legal)
        spent = worlds = 0
        while spent < self.budget.moves:
            if deadline is not None and self._clock() >= deadline:
                break
            world = root.determinize(seat, rng)
            start = horizon.start(world)
            for index, action in enumerate(legal):
                game = world.clone()
                if stops(horizon, game.apply(seat, action)):
                    playout = Playout(0, True)
                else:
                    playout = random_playout(game, horizon, rng)
                totals[index] += playout.values(game, horizon, start)[seat]
                spent += 1 + playout.moves
            worlds += 1
        if not worlds:  # no time for a single world
            return Searched(legal[rng.randrange(len(legal))], 0, 0)
        best = max(range(len(legal)), key=lambda index: totals[index])
        return Searched(legal[best], spent, worlds)
