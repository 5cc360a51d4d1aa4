"""A referee that plays whole games between computer players.

For tests, benchmarks and as an example of how a driver talks to players:
the referee holds the game; each player only gets its seat's view and legal
actions.

**Who is asked when several seats may act.**  In Durak, while an attack card
is still uncovered, the throwers may throw in but may not pass (they are
"not asked anything", see ``docs/rules/durak.md``); a player that is asked
then can only answer with a throw.  So :func:`next_seat` asks the defender
first and the throwers only once the table is settled (or when the defender
is not on move), which lets a player "wait" the way a person does.  A driver
in the bot should do the same: ask a computer thrower only when the view's
``phase`` is not ``"defend"``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.core import Game, Outcome
from players.base import Player

__all__ = ["MAX_STEPS", "SeatChooser", "next_seat", "play", "random_seat"]

MAX_STEPS = 50_000
"""By default :func:`play` gives up after this many moves."""

SeatChooser = Callable[[Game[Any, Any, Any, Any], Sequence[int], random.Random], int]
"""Picks the seat to ask among those that may act (ascending, non-empty)."""


def next_seat(game: Game[Any, Any, Any, Any], actors: Sequence[int], rng: random.Random) -> int:
    """The seat to ask next among ``actors`` (ascending, non-empty): the
    Durak defender while he is defending, else the first seat clockwise from
    the attacker (the main attacker throws in first), else the lowest seat."""
    if len(actors) == 1:
        return actors[0]
    view = game.public_view()
    if not isinstance(view, Mapping):  # a typed view: not Durak's, no roles to follow
        return actors[0]
    defender = view.get("defender")
    if view.get("phase") == "defend" and isinstance(defender, int) and defender in actors:
        return defender
    attacker = view.get("attacker")
    if isinstance(attacker, int):
        n = game.seats
        return min(actors, key=lambda s: (s - attacker) % n)
    return actors[0]


def random_seat(game: Game[Any, Any, Any, Any], actors: Sequence[int], rng: random.Random) -> int:
    """Any seat that may act, at random (as the engines' random playouts do)."""
    return actors[rng.randrange(len(actors))]


def play(
    game: Game[Any, Any, Any, Any],
    players: Sequence[Player[Any]] | Mapping[int, Player[Any]],
    rng: random.Random,
    *,
    choose_seat: SeatChooser = next_seat,
    on_move: Callable[[int, Any], None] | None = None,
    max_steps: int = MAX_STEPS,
) -> Outcome:
    """Play ``game`` to its end, ``players[seat]`` choosing for each seat.

    A player's answer must be one of its legal actions (``ValueError``
    otherwise).  ``on_move(seat, action)`` is called before each move.
    ``RuntimeError`` after ``max_steps`` moves: a game of players that all
    choose deterministically may never end (Durak has no rule against the
    same cards going round for ever)."""
    for _ in range(max_steps):
        actors = sorted(game.to_move())
        if not actors:
            outcome = game.outcome()
            assert outcome is not None
            return outcome
        seat = choose_seat(game, actors, rng)
        legal = game.legal_actions(seat)
        action = players[seat].choose(game.rules, game.view(seat), legal, rng)
        if action not in legal:
            raise ValueError(f"seat {seat} chose {action!r}, not a legal action")
        if on_move is not None:
            on_move(seat, action)
        game.apply(seat, action)
    raise RuntimeError(f"no end after {max_steps} moves")
