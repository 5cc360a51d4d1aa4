"""A High card game's complete state as JSON and back::

{"game": "highcard", "format": 1, "rules": {"hand": 5}, "phase": "play",
 "hands": [["6s", ...], ...], "stock": [...], "trick": [[0, "Ah"], ...],
 "taken": null,
 "pile": [...], "resigned": [...], "out": [false, ...], "scores": [2, 1],
 "leader": 0, "turn": 1}
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TypeVar

from games.cards import deck
from games.core import JSON, StateFormatError
from games.reader import array, boolean, card, cards, choice, integer, integers, read_state
from tests.one_registration.rules import HighCardRules, seat_range
from tests.one_registration.state import DECK, HighCardState, Phase

__all__ = ["dump", "load"]

G = TypeVar("G", bound=HighCardState)
_DECK = Counter(deck(DECK))


def dump(game: HighCardState) -> dict[str, JSON]:
    return {
        "game": game.key,
        "format": game.FORMAT,
        "rules": game.rules.to_json(),
        "phase": game._phase.value,
        "hands": [[c.code for c in hand] for hand in game._hands],
        "stock": [c.code for c in game._stock],
        "trick": [[s, c.code] for s, c in game._trick],
        "taken": game._taken,
        "pile": [c.code for c in game._pile],
        "resigned": [c.code for c in game._resigned],
        "out": list(game._out),
        "scores": list(game._scores),
        "leader": game._leader,
        "turn": game._turn,
    }


def load(cls: type[G], data: Mapping[str, JSON]) -> G:
    return read_state(cls, data, lambda: _load(cls, data))


def _load(cls: type[G], data: Mapping[str, JSON]) -> G:
    rules = HighCardRules.from_json(data["rules"])
    hands = array(data["hands"], "hands")
    n = len(hands)
    if n not in seat_range(rules):
        raise StateFormatError(f"{n} seats")
    game = cls.__new__(cls)
    game._init(rules, n)
    game._phase = choice(data["phase"], "phase", Phase)
    game._hands = [cards(hand, "hands") for hand in hands]
    game._stock = cards(data["stock"], "stock")
    game._trick = [
        (integer(s, "trick", 0, n - 1), card(c, "trick"))
        for s, c in (array(p, "trick", 2) for p in array(data["trick"], "trick"))
    ]
    taken = data["taken"]
    game._taken = None if taken is None else integer(taken, "taken", 0, n - 1)
    game._pile = cards(data["pile"], "pile")
    game._resigned = cards(data["resigned"], "resigned")
    every = Counter(
        [
            *(c for hand in game._hands for c in hand),
            *game._stock,
            *(c for _, c in game._trick),
            *game._pile,
            *game._resigned,
        ]
    )
    if every != _DECK:
        raise StateFormatError("the cards are not one 36-card deck")
    game._out = [boolean(v, "out") for v in array(data["out"], "out", n)]
    game._scores = integers(data["scores"], "scores", 0, DECK, n)
    game._leader = integer(data["leader"], "leader", 0, n - 1)
    game._turn = integer(data["turn"], "turn", 0, n - 1)
    return game
