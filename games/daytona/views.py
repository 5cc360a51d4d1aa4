"""What the table sees of a Daytona match, as JSON (the bot renders from this).

Daytona has no secrets but the stock's order, so every seat sees the public
view (plus its own seat number)::

    {
      "game": "daytona",
      "phase": "draw" | "deuce" | "race_over" | "over",
      "race": 2,                     # race number, from 1
      "target": 30,                  # match points that end the match
      "track": ["5h", ...],          # the 14 cards in driving order
      "start": "7c",                 # the start/finish card
      "pit": "Qd",                   # the pit stop
      "positions": [0, 3, 16],       # per seat, see games.daytona.engine
      "pits": [0, 2, 0],             # turns each seat still misses in the pit
      "out": [false, false, false],  # left the match
      "to_move": [1],
      "stock": 80,                   # cards left to draw
      "drawn": 12,                   # cards drawn this race (face down but the last)
      "round": 7,                    # the round of turns under way, from 1
      "rounds": 30,                  # rounds the draw limit allows (0: no limit)
      "last": null | {               # the last draw
          "seat": 1, "card": "7s",   #   who drew what (the drawn pile's top)
          "as": null | "two" | "joker",  # a deuce: how it counted
          "move": "choose" | "forward" | "back" | "stay" | "pit" | "finish",
          "from": 2, "to": 3         #   the car's position before and after
      },
      "finished": [2],               # seats in the order they finished this race
      "scores": [10, 5, 0],          # match points
      "race_points": null | [0, 5, 10]  # the last race's points, once it is over
    }
"""

from __future__ import annotations

from games.core import JSON, Progress
from games.daytona.state import DaytonaState

__all__ = ["progress", "public_view", "seat_view"]


def public_view(game: DaytonaState) -> dict[str, JSON]:
    return {
        "game": game.key,
        "phase": game._phase.value,
        "race": game._race,
        "target": game.rules.target,
        "track": [c.code for c in game._track],
        "start": game._start.code,
        "pit": game._pit.code,
        "positions": list(game._positions),
        "pits": list(game._pits),
        "out": list(game._out),
        "to_move": sorted(game.to_move()),
        "stock": len(game._stock),
        "drawn": len(game._drawn),
        "round": game._round,
        "rounds": game._rounds,
        "last": None if game._last is None else dict(game._last),
        "finished": list(game._finished),
        "scores": list(game._scores),
        "race_points": None if game._points is None else list(game._points),
    }


def seat_view(game: DaytonaState, seat: int) -> dict[str, JSON]:
    out = public_view(game)
    out["seat"] = seat
    return out


def progress(game: DaytonaState) -> Progress:
    return Progress(game._phase.value, game._race, tuple(game._scores))
