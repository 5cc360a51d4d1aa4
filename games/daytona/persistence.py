"""A Daytona match's complete state as JSON (``dump``) and back (``load``).

Layout, format 2 (cards as codes; the stock lists the card drawn *last*
first, the drawn pile runs bottom to top)::

    {"game": "daytona", "format": 2, "rules": {"target": 30, ...}, "seats": 3,
     "seed": 123, "shuffles": 2, "race": 1, "round": 4, "rounds": 40,
     "phase": "draw",
     "track": [14 cards], "start": "7c", "pit": "Qd",
     "stock": [...], "drawn": [...],
     "positions": [0, 3, 16], "pits": [0, 2, 0], "finished": [2],
     "out": [false, false, false], "turn": 1, "first": 0,
     "scores": [10, 5, 0], "points": null | [...], "last": null | {...}}

Format 1 came before the draw limit: its rules have no limit, so its races
have no rounds to count (loaded as round 1 of no limit).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TypeVar

from games.cards import shoe
from games.core import JSON, StateFormatError
from games.daytona.rules import DaytonaRules, seat_range
from games.daytona.state import DaytonaState, DeuceAs, DrawMove, LastDraw, Phase
from games.daytona.track import BEFORE_START, FINISHED, TRACK_CARDS
from games.reader import array, boolean, card, cards, choice, integer, integers, read_state

__all__ = ["dump", "load"]

D = TypeVar("D", bound=DaytonaState)

_SHOE = Counter(shoe())
_LAST_KEYS = {"seat", "card", "as", "move", "from", "to"}


def dump(game: DaytonaState) -> dict[str, JSON]:
    return {
        "game": game.key,
        "format": game.FORMAT,
        "rules": game.rules.to_json(),
        "seats": game._n,
        "seed": game._seed,
        "shuffles": game._shuffles,
        "race": game._race,
        "round": game._round,
        "rounds": game._rounds,
        "phase": game._phase.value,
        "track": [c.code for c in game._track],
        "start": game._start.code,
        "pit": game._pit.code,
        "stock": [c.code for c in game._stock],
        "drawn": [c.code for c in game._drawn],
        "positions": list(game._positions),
        "pits": list(game._pits),
        "finished": list(game._finished),
        "out": list(game._out),
        "turn": game._turn,
        "first": game._first,
        "scores": list(game._scores),
        "points": None if game._points is None else list(game._points),
        "last": None if game._last is None else _last_json(game._last),
    }


def load(cls: type[D], data: Mapping[str, JSON]) -> D:
    if isinstance(data, Mapping) and data.get("format") == 1 and data.get("game") == cls.key:
        data = dict(data) | {"format": 2, "round": 1, "rounds": 0}
    return read_state(cls, data, lambda: _load(cls, data))


def _load(cls: type[D], data: Mapping[str, JSON]) -> D:
    rules = DaytonaRules.from_json(data["rules"])
    n = integer(data["seats"], "seats", 2, 4)
    if n not in seat_range(rules):
        raise StateFormatError(f"{n} seats")
    game = cls.__new__(cls)
    game._init(rules, n, integer(data["seed"], "seed", 0, 2**64 - 1))
    game._shuffles = integer(data["shuffles"], "shuffles", 0, 2**62)
    game._race = integer(data["race"], "race", 1, 10**6)
    game._rounds = integer(data["rounds"], "rounds", 0, 10**6)
    limit = rules.draw_limit.draws
    if game._rounds not in ({limit // cars for cars in range(2, n + 1)} if limit else {0}):
        raise StateFormatError(f"rounds: {game._rounds} is no share of the draw limit")
    game._round = integer(data["round"], "round", 1, game._rounds or 10**9)
    game._phase = choice(data["phase"], "phase", Phase)
    game._track = tuple(cards(data["track"], "track"))
    if len(game._track) != TRACK_CARDS:
        raise StateFormatError(f"track: expected {TRACK_CARDS} cards")
    game._start = card(data["start"], "start")
    game._pit = card(data["pit"], "pit")
    game._stock = cards(data["stock"], "stock")
    game._drawn = cards(data["drawn"], "drawn")
    every = Counter([*game._track, game._start, game._pit, *game._stock, *game._drawn])
    if every != _SHOE:
        raise StateFormatError("the cards are not exactly two decks with four jokers")
    game._positions = integers(data["positions"], "positions", 0, FINISHED, n)
    game._pits = integers(data["pits"], "pits", 0, 2, n)
    game._finished = integers(data["finished"], "finished", 0, n - 1)
    if len(set(game._finished)) != len(game._finished) or any(
        game._positions[s] != FINISHED for s in game._finished
    ):
        raise StateFormatError("finished: seats whose cars have finished, once each")
    game._out = [boolean(v, "out") for v in array(data["out"], "out", n)]
    game._turn = integer(data["turn"], "turn", 0, n - 1)
    game._first = integer(data["first"], "first", 0, n - 1)
    game._scores = integers(data["scores"], "scores", 0, 10**6, n)
    points = data["points"]
    game._points = None if points is None else integers(points, "points", 0, 10, n)
    game._last = _last_draw(data["last"], n)
    return game


def _last_json(last: LastDraw) -> dict[str, JSON]:
    """The last draw as it has always been saved ("to" only once the car has
    moved, or stayed in the pit)."""
    out: dict[str, JSON] = {
        "seat": last.seat,
        "card": last.card.code,
        "as": None if last.counted_as is None else last.counted_as.value,
        "move": last.move.value,
        "from": last.before,
    }
    if last.after is not None:
        out["to"] = last.after
    return out


def _last_draw(data: JSON, seats: int) -> LastDraw | None:
    if data is None:
        return None
    if not isinstance(data, dict) or set(data) - _LAST_KEYS:
        raise StateFormatError("last: expected the last draw")
    counted = data["as"]
    after = data.get("to")
    return LastDraw(
        seat=integer(data["seat"], "last", 0, seats - 1),
        card=card(data["card"], "last"),
        counted_as=None if counted is None else choice(counted, "last", DeuceAs),
        move=choice(data["move"], "last", DrawMove),
        before=integer(data["from"], "last", BEFORE_START, FINISHED),
        after=None if after is None else integer(after, "last", BEFORE_START, FINISHED),
    )
