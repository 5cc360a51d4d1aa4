"""Random playouts with every invariant of ``games.core`` checked at each step.

Shared by the conformance suite and by game-specific property tests.
"""

from __future__ import annotations

import contextlib
import json
import random
from collections import Counter
from typing import Any

from games.cards import Card, deck
from games.core import ActionParseError, Game, IllegalAction, Outcome, Rules
from games.spec import GameSpec

MAX_STEPS = 20_000


_BY_CODE = {c.code: c for c in deck(52, jokers=2)}


def cards_in(value: Any) -> Counter[Card]:
    """Every card code anywhere inside a JSON value."""
    found: Counter[Card] = Counter()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            card = _BY_CODE.get(item)
            if card is not None:
                found[card] += 1
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return found


def zone_cards(game: Game[Any, Any]) -> Counter[Card]:
    return Counter(c for z in game.zones() for c in z.cards)


def visible_cards(game: Game[Any, Any], seat: int | None) -> Counter[Card]:
    """Cards in zones ``seat`` may see (``None``: zones everybody sees)."""
    out: Counter[Card] = Counter()
    for zone in game.zones():
        if zone.visible_to is None or (seat is not None and seat in zone.visible_to):
            out.update(zone.cards)
    return out


def check_views(game: Game[Any, Any]) -> None:
    public = game.public_view()
    json.dumps(public)
    leaked = cards_in(public) - visible_cards(game, None)
    assert not leaked, f"public view shows hidden cards {sorted(leaked)}"
    for seat in range(game.seats):
        view = game.view(seat)
        json.dumps(view)
        leaked = cards_in(view) - visible_cards(game, seat)
        assert not leaked, f"seat {seat}'s view shows hidden cards {sorted(leaked)}"


def check_zones(game: Game[Any, Any]) -> None:
    names = [z.name for z in game.zones()]
    assert len(names) == len(set(names)), f"duplicate zone names {names}"
    for zone in game.zones():
        if zone.visible_to is not None:
            assert all(0 <= s < game.seats for s in zone.visible_to)


def check_round_trip(game: Game[Any, Any]) -> None:
    dumped = game.dump()
    text = json.dumps(dumped)
    assert dumped["format"] == type(game).FORMAT
    assert dumped["game"] == type(game).key
    loaded = type(game).load(json.loads(text))
    assert loaded.dump() == dumped
    assert game.clone().dump() == dumped
    assert loaded.to_move() == game.to_move()


def try_illegal(
    game: Game[Any, Any], seat: int, pool: list[str], chooser: random.Random, tries: int = 3
) -> None:
    """Actions seen earlier that are not legal now must be refused harmlessly."""
    legal = {a.encode() for a in game.legal_actions(seat)}
    candidates = [code for code in pool if code not in legal]
    if not candidates:
        return
    before = game.dump()
    for code in chooser.sample(candidates, min(tries, len(candidates))):
        action = type(game).decode_action(code)
        try:
            game.apply(seat, action)
        except IllegalAction as exc:
            assert exc.reason.startswith("illegal."), exc.reason
        else:
            raise AssertionError(f"illegal action {code!r} by seat {seat} was applied")
        assert game.dump() == before, f"refused action {code!r} changed the state"


def playout(
    spec: GameSpec,
    rules: Rules,
    seats: int,
    seed: int,
    *,
    deep: bool = True,
    previous: Outcome | None = None,
) -> tuple[Game[Any, Any], list[tuple[int, str]]]:
    """Play one random game to its end; return it and its action log."""
    game = spec.game.new(rules, seats, random.Random(seed), previous=previous)
    chooser = random.Random(seed * 7919 + 13)
    initial = zone_cards(game)
    assert initial, "a game must hold cards"
    log: list[tuple[int, str]] = []
    pool: set[str] = set()
    for _ in range(MAX_STEPS):
        actors = game.to_move()
        assert bool(actors) == (game.outcome() is None), "over exactly when nobody can act"
        assert zone_cards(game) == initial, "cards are not conserved"
        if deep:
            check_zones(game)
            check_views(game)
            check_round_trip(game)
        if not actors:
            break
        for seat in range(seats):
            actions = game.legal_actions(seat)
            assert bool(actions) == (seat in actors), f"seat {seat} actions vs to_move"
            for action in actions:
                code = action.encode()
                assert 0 < len(code) <= 24, f"action code {code!r} too long"
                assert type(game).decode_action(code) == action
                pool.add(code)
        seat = chooser.choice(sorted(actors))
        if deep:
            try_illegal(game, seat, sorted(pool), chooser)
            outsider = chooser.randrange(seats)
            if outsider not in actors:
                try_illegal(game, outsider, sorted(pool), chooser)
        action = chooser.choice(game.legal_actions(seat))
        if deep:  # a clone is independent: playing on it leaves the original alone
            before = game.dump()
            twin = game.clone()
            twin.apply(seat, action)
            assert game.dump() == before, "applying on a clone changed the original"
        public_before = visible_cards(game, None)
        events = game.apply(seat, action)
        public_after = visible_cards(game, None)
        for event in events:
            shown = Counter(event.cards)
            leaked = shown - (public_before | public_after)
            assert not leaked, f"event {event.kind} shows hidden cards {sorted(leaked)}"
            json.dumps(event.to_json())
        log.append((seat, action.encode()))
    else:
        raise AssertionError(f"no end after {MAX_STEPS} steps")
    outcome = game.outcome()
    assert outcome is not None
    placed = [s for group in outcome.places for s in group]
    assert sorted(placed) == list(range(seats)), f"places {outcome.places} must list each seat"
    assert not (outcome.winners & outcome.losers)
    if outcome.draw:
        assert not outcome.losers
    return game, log


def replay(
    spec: GameSpec,
    rules: Rules,
    seats: int,
    seed: int,
    log: list[tuple[int, str]],
    previous: Outcome | None = None,
) -> Game[Any, Any]:
    game = spec.game.new(rules, seats, random.Random(seed), previous=previous)
    for seat, code in log:
        game.apply(seat, spec.game.decode_action(code))
    return game


GARBAGE = ["", "?", "zz", "a", "a1", "aXX", "b6s", "x" * 30, "t6s", "0", "💥", "p p", "a6s6s6s6s6s"]


def check_garbage(game_cls: type[Game[Any, Any]]) -> None:
    """Garbled codes are refused with ActionParseError (or decode to an action
    that will be validated on apply), never with another exception."""
    for text in GARBAGE:
        with contextlib.suppress(ActionParseError):
            game_cls.decode_action(text)
