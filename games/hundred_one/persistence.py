"""A 101 match's complete state as JSON (``dump``) and back (``load``).

Layout, format 2 (cards as codes; the stock lists the card drawn *last*
first, the discard pile runs bottom to top)::

    {"game": "101", "format": 2, "rules": {...}, "seats": 3,
     "seed": 123, "shuffles": 4, "round": 2, "phase": "play",
     "turn": 0, "leader": 0,
     "hands": [["6s", ...], ...], "stock": [...], "discard": [...],
     "ordered": "s" | null, "excluded": "h" | null, "follow": null,
     "answer": false, "after": [draw, skip, again],
     "totals": [10, 0, 45], "out": [0, 0, 0], "resigned": [[seat, scored]],
     "last": null | {...the public view's last_round...}, "last_winner": 0,
     "rounds": [{...each scored round, as "last"...}],
     "forced": [position fingerprints since the last free choice],
     "round_moves": 12}

Format 1 (before a round could end only by being played out) kept the
positions met at renewals of the stock (``seen``) and who laid the top card
(``top_by``); it loads with neither, as if the last move had been a free choice.
A dump made before the match kept its rounds (``rounds``) loads with none:
its sheet begins with the next round scored.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any, TypeVar

from games.cards import deck
from games.core import JSON, StateFormatError
from games.hundred_one.rules import HundredOneRules
from games.hundred_one.state import ROUND_MOVES, HundredOneState, LastRound, Phase
from games.reader import array, boolean, cards, choice, integer, integers, read_state, suit

__all__ = ["dump", "load"]

H = TypeVar("H", bound=HundredOneState)

_FINGERPRINT_MAX = 2**63 - 1
_ROUNDS_MAX = 10**6


def dump(game: HundredOneState) -> dict[str, JSON]:
    return {
        "game": game.key,
        "format": game.FORMAT,
        "rules": dict(_rules_json(game.rules)),
        "seats": game._n,
        "seed": game._seed,
        "shuffles": game._shuffles,
        "round": game._round,
        "phase": game._phase.value,
        "turn": game._turn,
        "leader": game._leader,
        "hands": [[c.code for c in h] for h in game._hands],
        "stock": [c.code for c in game._stock],
        "discard": [c.code for c in game._discard],
        "ordered": game._ordered.value if game._ordered else None,
        "excluded": game._excl.value if game._excl else None,
        "follow": game._follow.value if game._follow else None,
        "answer": game._answer,
        "after": list(game._after),
        "totals": list(game._totals),
        "out": list(game._out),
        "resigned": [[s, scored] for s, scored in game._resigned],
        "last": None if game._last is None else game._last.to_json(),
        "last_winner": game._last_winner,
        "rounds": [r.to_json() for r in game._rounds],
        "forced": list(game._forced),
        "round_moves": game._round_moves,
    }


def load(cls: type[H], data: Mapping[str, JSON]) -> H:
    if data.get("format") == 1 and data.get("game") == cls.key:
        data = _from_format_1(data)
    return read_state(cls, data, lambda: _load(cls, data))


def _from_format_1(data: Mapping[str, JSON]) -> dict[str, JSON]:
    upgraded = {k: v for k, v in data.items() if k not in ("seen", "top_by")}
    upgraded["format"] = 2
    upgraded["forced"] = []
    return upgraded


def _load(cls: type[H], data: Mapping[str, JSON]) -> H:
    rules = _rules_from_json(data["rules"])
    seats = integer(data["seats"], "seats", 2, 8)
    game = cls.__new__(cls)
    game._init(rules, seats, integer(data["seed"], "seed", 0, 2**64 - 1))
    game._shuffles = integer(data["shuffles"], "shuffles", 0, 2**62)
    game._round = integer(data["round"], "round", 1, _ROUNDS_MAX)
    game._phase = choice(data["phase"], "phase", Phase)
    game._turn = integer(data["turn"], "turn", 0, seats - 1)
    game._leader = integer(data["leader"], "leader", 0, seats - 1)
    game._hands = [cards(h, "hands") for h in array(data["hands"], "hands", seats)]
    game._stock = cards(data["stock"], "stock")
    game._discard = cards(data["discard"], "discard")
    every = [c for h in game._hands for c in h] + game._stock + game._discard
    if sorted(c.order for c in every) != _deck_orders(rules.deck):
        raise StateFormatError("the cards are not exactly one deck")
    game._ordered = suit(data["ordered"], "ordered")
    game._excl = suit(data["excluded"], "excluded")
    game._follow = suit(data["follow"], "follow")
    game._answer = boolean(data["answer"], "answer")
    after = array(data["after"], "after", 3)
    game._after = (
        integer(after[0], "after", 0, 6),
        boolean(after[1], "after"),
        boolean(after[2], "after"),
    )
    game._totals = integers(data["totals"], "totals", -(10**9), 10**9, seats)
    game._out = integers(data["out"], "out", 0, _ROUNDS_MAX, seats)
    # absent from dumps made before resigning existed
    for entry in array(data.get("resigned", []), "resigned"):
        pair = array(entry, "resigned", 2)
        seat = integer(pair[0], "resigned", 0, seats - 1)
        if not game._out[seat]:
            raise StateFormatError("resigned: a resigned seat must be eliminated")
        game._resigned.append((seat, boolean(pair[1], "resigned")))
    if len({s for s, _ in game._resigned}) != len(game._resigned):
        raise StateFormatError("resigned: a seat resigned twice")
    game._last = _last_round(data["last"], seats)
    # absent from dumps made before the match kept its rounds
    rounds = [_last_round(r, seats) for r in array(data.get("rounds", []), "rounds")]
    if None in rounds:
        raise StateFormatError("rounds: a round must be an object")
    game._rounds = tuple(r for r in rounds if r is not None)
    game._last_winner = integer(data["last_winner"], "last_winner", 0, seats - 1)
    game._forced = integers(data["forced"], "forced", 0, _FINGERPRINT_MAX)
    # absent from dumps made before a round's length was limited: counted from there
    game._round_moves = integer(data.get("round_moves", 0), "round_moves", 0, ROUND_MOVES)
    return game


def _last_round(data: JSON, seats: int) -> LastRound | None:
    if data is None:
        return None
    if not isinstance(data, dict):
        raise StateFormatError("last: expected an object")
    top = 10**9
    totals = data.get("totals", [])
    return LastRound(
        winner=integer(data["winner"], "last", 0, seats - 1),
        penalties=tuple(
            None if p is None else integer(p, "last", -top, top)
            for p in array(data["penalties"], "last", seats)
        ),
        doubled=boolean(data["doubled"], "last"),
        blocked=boolean(data["blocked"], "last"),
        too_long=boolean(data.get("too_long", False), "last"),
        reset=tuple(integers(data["reset"], "last", 0, seats - 1)),
        eliminated=tuple(integers(data["eliminated"], "last", 0, seats - 1)),
        # both absent from dumps made before the match kept its rounds
        round=integer(data.get("round", 0), "last", 0, _ROUNDS_MAX),
        totals=tuple(integers(totals, "last", -top, top, seats if totals else None)),
    )


@functools.cache
def _deck_orders(size: int) -> list[int]:
    return sorted(c.order for c in deck(size))


@functools.cache
def _rules_json(rules: HundredOneRules) -> dict[str, JSON]:
    return rules.to_json()


_RULES_SEEN: dict[tuple[object, ...], HundredOneRules] = {}
_PLAIN = (str, int, bool)


def _rules_from_json(data: Any) -> HundredOneRules:
    """``HundredOneRules.from_json`` with a cache (loads happen often).  The key
    holds the value types too, so ``1`` is never taken for ``True``."""
    if not isinstance(data, dict):
        return HundredOneRules.from_json(data)
    values = tuple(data.values())
    types = tuple(map(type, values))
    if not all(t in _PLAIN for t in types):
        return HundredOneRules.from_json(data)
    key = (tuple(data), values, types)
    rules = _RULES_SEEN.get(key)
    if rules is None:
        rules = HundredOneRules.from_json(data)
        if len(_RULES_SEEN) < 1024:
            _RULES_SEEN[key] = rules
    return rules
