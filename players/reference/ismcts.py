"""Single-observer information set Monte Carlo tree search (SO-ISMCTS).

From P. I. Cowling, E. J. Powley and D. Whitehouse, "Information Set Monte
Carlo Tree Search", IEEE Transactions on Computational Intelligence and AI in
Games 4(2), 2012, pp. 120-143 (Algorithm 3), as a reference player for the
arena: an algorithm we did not design, to measure ours against.

One tree is grown over the searching seat's information sets.  Each
iteration:

1. deals a world consistent with what the seat knows (``determinize``, the
   same sampling our search players use), uniformly at random;
2. descends from the root along the moves legal in that world: at a node
   where every legal move already has a child, the child maximising UCB1
   adapted to availability (the paper's subset-armed bandit),
   ``r(c) / n(c) + k * sqrt(ln n'(c) / n(c))``, where ``n'(c)`` counts the
   visits of the parent in which ``c`` was legal, with ``k = 0.7`` (the
   paper's, and its authors' published code's, constant);
3. at the first node with a move legal here but never tried, adds one child
   for one of them, chosen uniformly;
4. plays the world on with uniformly random moves (the paper's simulation);
5. adds, at each node of the path, the reward of the seat whose move led to
   it: a reward vector for every seat, so that the search is the paper's
   for any number of players.

It plays the root's most visited move.

Implemented as published, with these choices where the paper leaves the
game's interface open or the bot needs it:

* The budget is the hard level's: a count of simulated moves (tree moves and
  playout moves alike, as our search counts its rollouts' moves), so a seed
  gives the same move on any machine; the hard level's time limit sits on top.
* A node's children are keyed by the seat moving and its move.  SO-ISMCTS
  treats opponents' moves as seen, and in these games they are, but for the
  face-down cover of believe Durak (which names the card nobody else sees:
  the tree branches on it as on any move); the paper's partially-observable
  variants (SO-ISMCTS+POM, MO-ISMCTS) are not built.
* When several seats may act (Durak's throwers), the seat asked is the one the
  bot's driver would ask (:func:`players.arena.next_seat`).
* Where a game's horizon stops short of its end (101's round, Joker's deal),
  the playout stops there and rewards are the horizon's value of the points
  made, as for our search; Durak plays to the end and rewards by place (1 the
  first out, 0 the durak).  A playout still short of the horizon after
  :data:`~players.search.MAX_ROLLOUT` moves rewards every seat 0.5.
* Ties (most visits) go to the move listed first by the game, so a seed and
  a situation always give the same move.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any

from games.core import Action, Game
from players.arena import next_seat
from players.reference.playout import Playout, random_playout, stops
from players.search import Budget, Horizon, Searched, Situation

__all__ = ["EXPLORATION", "InformationSetMCTS"]

EXPLORATION = 0.7
"""The UCB1 exploration constant ``k`` of the paper's experiments."""


class _Node:
    """A node of the tree: the information set reached by one more move."""

    __slots__ = ("action", "available", "children", "mover", "reward", "visits")

    def __init__(self, mover: int, action: Action | None) -> None:
        self.mover = mover
        """The seat whose move led here (the searching seat at the root)."""
        self.action = action
        self.children: dict[tuple[int, Action], _Node] = {}
        self.visits = 0
        self.reward = 0.0
        """The sum of the mover's rewards over the visits."""
        self.available = 0
        """Visits of the parent in which this node's move was legal."""

    def score(self, exploration: float) -> float:
        """UCB1 for a subset-armed bandit (availability instead of the
        parent's visits)."""
        return self.reward / self.visits + exploration * math.sqrt(
            math.log(self.available) / self.visits
        )


class InformationSetMCTS:
    """SO-ISMCTS with random playouts (see the module docstring)."""

    def __init__(
        self,
        budget: Budget,
        horizon: Horizon | None = None,
        *,
        exploration: float = EXPLORATION,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.budget = budget
        self._horizon = horizon or Horizon()
        self._exploration = exploration
        self._clock = clock

    def choose(self, situation: Situation, rng: random.Random) -> Action:
        return self.search(situation, rng).action

    def search(self, situation: Situation, rng: random.Random) -> Searched:
        """The choice, with the moves simulated and the iterations run (one
        world dealt each)."""
        seat, world = situation.seat, situation.world
        legal = world.legal_actions(seat)
        if not legal:
            raise ValueError(f"seat {seat} has no move")
        if len(legal) == 1:
            return Searched(legal[0], 0, 0)
        deadline = None if self.budget.seconds is None else self._clock() + self.budget.seconds
        root = _Node(seat, None)
        spent = iterations = 0
        while spent < self.budget.moves:
            if deadline is not None and self._clock() >= deadline:
                break
            spent += self._iterate(root, world.determinize(seat, rng), seat, rng)
            iterations += 1
        tried = [root.children[seat, a] for a in legal if (seat, a) in root.children]
        if not tried:  # no time for a single iteration
            return Searched(legal[rng.randrange(len(legal))], 0, 0)
        best = max(tried, key=lambda node: node.visits)
        assert best.action is not None
        return Searched(best.action, spent, iterations)

    def _iterate(
        self, root: _Node, game: Game[Any, Any, Any, Any], seat: int, rng: random.Random
    ) -> int:
        """One iteration in the world ``game`` (played on in place); the moves
        it simulated."""
        horizon = self._horizon
        start = horizon.start(game)
        path = [root]
        node, actor, moves = root, seat, 0
        stopped = False
        while True:
            legal: list[Action] = game.legal_actions(actor)
            untried = [a for a in legal if (actor, a) not in node.children]
            if untried:
                action = untried[rng.randrange(len(untried))]
                node.children[actor, action] = _Node(actor, action)
            children = node.children
            compatible = [children[actor, a] for a in legal if (actor, a) in children]
            for child in compatible:
                child.available += 1
            if untried:
                node = node.children[actor, action]
            else:
                node = max(compatible, key=lambda c: c.score(self._exploration))
                assert node.action is not None
                action = node.action
            path.append(node)
            stopped = stops(horizon, game.apply(actor, action))
            moves += 1
            actors = game.to_move()
            if untried or stopped or not actors:
                break
            actor = next_seat(game, sorted(actors), rng)
        playout = Playout(0, True) if stopped else random_playout(game, horizon, rng)
        rewards = playout.values(game, horizon, start)
        for visited in path:
            visited.visits += 1
            visited.reward += rewards[visited.mover]
        return moves + playout.moves
