"""What both reference players share: the uniformly random playout of the
published algorithms, and the value of where it stopped for every seat."""

from __future__ import annotations

import random
from typing import Any

from games.core import Action, Event, Game
from players.arena import next_seat
from players.search import MAX_ROLLOUT, Horizon, place_value

__all__ = ["Playout", "random_playout", "stops"]


class Playout:
    """A world played on from some move to the horizon (or given up)."""

    __slots__ = ("finished", "moves")

    def __init__(self, moves: int, finished: bool) -> None:
        self.moves = moves
        """Moves made by the playout itself."""
        self.finished = finished
        """It reached the horizon (the end, or a stop of the horizon's); a
        playout cut short after :data:`~players.search.MAX_ROLLOUT` moves is
        worth an even 0.5 to every seat, as in the search players."""

    def values(self, game: Game[Any, Any, Any, Any], horizon: Horizon, start: Any) -> list[float]:
        """What the world is worth to each seat (0 worst, 1 best)."""
        if not self.finished:
            return [0.5] * game.seats
        outcome = game.outcome()
        if outcome is not None:
            return [place_value(outcome, seat) for seat in range(game.seats)]
        return [horizon.value(game, start, seat) for seat in range(game.seats)]


def stops(horizon: Horizon, events: list[Event]) -> bool:
    """The move that made ``events`` ends the horizon (a round, a deal)."""
    stop_at = horizon.stop_at
    return bool(stop_at) and any(e.kind in stop_at for e in events)


def random_playout(game: Game[Any, Any, Any, Any], horizon: Horizon, rng: random.Random) -> Playout:
    """Play ``game`` on with a uniformly random legal move in every seat (the
    seat asked chosen as the bot's driver does, :func:`players.arena.next_seat`)
    up to the horizon or :data:`~players.search.MAX_ROLLOUT` moves."""
    moves = 0
    while actors := game.to_move():
        if moves >= MAX_ROLLOUT:
            return Playout(moves, False)
        actor = next_seat(game, sorted(actors), rng)
        legal: list[Action] = game.legal_actions(actor)
        events = game.apply(actor, legal[rng.randrange(len(legal))])
        moves += 1
        if stops(horizon, events):
            break
    return Playout(moves, True)
