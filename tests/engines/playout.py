"""Random playouts with every invariant of ``games.core`` checked at each step.

Shared by the conformance suite and by game-specific property tests.

Costly checks (determinize, resigning) run on a random sample of the
steps of a deep playout, each on a copy, so that the suite's running time stays
about that of the per-step checks.
"""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import json
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from games.cards import Card, deck
from games.core import (
    RESIGN,
    Action,
    ActionParseError,
    Event,
    Game,
    IllegalAction,
    Outcome,
    Rules,
    View,
    Zone,
    perform,
)
from games.spec import GameSpec

MAX_STEPS = 20_000
PLAY_BUDGET = 3_000
"""Random moves a playout makes before it ends the game by resigning seats,
one at a time, through the game's own contract.  Some games last longer than
anybody would watch random moves for (a 101 round ends only when someone goes
out; a Daytona race may send the cars back and forth for thousands of draws);
the engines themselves never cut a game short."""

DETERMINIZE_EVERY = 12
"""On average one step in this many checks ``determinize`` (deep playouts)."""
DETERMINIZE_SEEDS = 2
"""Worlds dealt per check (more, up to :data:`VARIATION_TRIES`, while they
all come out alike)."""
VARIATION_TRIES = 12
VARY_EVERY = 3
"""On average one step in this many only checks that determinize deals the
hidden cards otherwise (cheap: it is counted over the whole playout)."""
PLAY_ON_STEPS = 3
"""Random moves played on a determinized world at each check (one world per
playout is played to its end)."""
RESIGN_EVERY = 60
"""On average one step in this many resigns seats on a copy until it is over."""
RESIGN_PLAY_ON = 150
"""Moves played on after a resign (once per deep playout) before the others
resign too."""


_BY_CODE = {c.code: c for c in deck(52, jokers=2)}


def cards_in(value: Any) -> Counter[Card]:
    """Every card anywhere inside a view or a JSON value (a card or its code).
    A typed view is walked field by field, as cheap as its JSON would be to
    build; enums count by their values, as in the JSON form."""
    found: list[Card] = []
    by_code = _BY_CODE
    stack = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is Card:
            found.append(item)
        elif kind is str:
            card = by_code.get(item)
            if card is not None:
                found.append(card)
        elif kind is tuple or kind is list or kind is frozenset:
            stack.extend(item)
        elif kind is dict:
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, View):
            stack.extend(getattr(item, name) for name in item.field_names())
        elif isinstance(item, enum.Enum):
            stack.append(item.value)
    return Counter(found)


def view_text(view: Any) -> str:
    """A view's JSON text, keys sorted: a typed view's ``to_json()``, or the
    view itself where a game's views are plain JSON."""
    return json.dumps(view.to_json() if isinstance(view, View) else view, sort_keys=True)


Zones = Sequence[Zone]
"""A state's zones, where a caller has them at hand (``game.zones()`` builds
them anew each time: the per-step checks share one call)."""


def zone_cards(game: Game[Any, Any, Any, Any], zones: Zones | None = None) -> Counter[Card]:
    return Counter([c for z in (game.zones() if zones is None else zones) for c in z.cards])


def visible_cards(
    game: Game[Any, Any, Any, Any], seat: int | None, zones: Zones | None = None
) -> Counter[Card]:
    """Cards in zones ``seat`` may see (``None``: zones everybody sees)."""
    return Counter(
        [
            card
            for zone in (game.zones() if zones is None else zones)
            if zone.visible_to is None or (seat is not None and seat in zone.visible_to)
            for card in zone.cards
        ]
    )


def check_views(game: Game[Any, Any, Any, Any], zones: Zones | None = None) -> None:
    zones = game.zones() if zones is None else zones
    public = visible_cards(game, None, zones)
    leaked = cards_in(game.public_view()) - public
    assert not leaked, f"public view shows hidden cards {sorted(leaked)}"
    for seat in range(game.seats):
        visible = public.copy()
        for zone in zones:
            if zone.visible_to is not None and seat in zone.visible_to:
                visible.update(zone.cards)
        view = game.view(seat)
        leaked = cards_in(view) - visible
        assert not leaked, f"seat {seat}'s view shows hidden cards {sorted(leaked)}"
        hash(view)  # computers count the views they meet by hash (services.computers)


def check_zones(game: Game[Any, Any, Any, Any], zones: Zones | None = None) -> None:
    zones = game.zones() if zones is None else zones
    names = [z.name for z in zones]
    assert len(names) == len(set(names)), f"duplicate zone names {names}"
    for zone in zones:
        if zone.visible_to is not None:
            assert all(0 <= s < game.seats for s in zone.visible_to)


def check_round_trip(game: Game[Any, Any, Any, Any]) -> dict[str, Any]:
    """``load(dump())`` and ``clone()`` equal the game, and so do their
    positions; returns the dump."""
    dumped = game.dump()
    text = json.dumps(dumped)
    assert dumped["format"] == type(game).FORMAT
    assert dumped["game"] == type(game).key
    loaded = type(game).load(json.loads(text))
    assert loaded.dump() == dumped
    twin = game.clone()
    assert twin.dump() == dumped
    if type(game).position_key is not Game.position_key:
        # An engine's own key (the default is the dump, equal by the above).
        assert loaded.position_key() == game.position_key() == twin.position_key()
    assert loaded.to_move() == game.to_move()
    return dumped


def check_state(
    game: Game[Any, Any, Any, Any], initial: Counter[Card], zones: Zones | None = None
) -> None:
    """The invariants cheap enough for every state of every playout."""
    assert bool(game.to_move()) == (game.outcome() is None), "over exactly when nobody can act"
    assert zone_cards(game, zones) == initial, "cards are not conserved"


def check_deep(
    game: Game[Any, Any, Any, Any],
    initial: Counter[Card],
    *,
    hooks: bool = True,
    zones: Zones | None = None,
) -> dict[str, Any]:
    """Every invariant of one state; returns its dump."""
    zones = game.zones() if zones is None else zones
    check_state(game, initial, zones)
    check_zones(game, zones)
    check_views(game, zones)
    dumped = check_round_trip(game)
    if hooks:
        check_waits(game)
        check_actions_name_visible_cards(game)
    return dumped


def check_outcome(game: Game[Any, Any, Any, Any]) -> Outcome:
    outcome = game.outcome()
    assert outcome is not None
    placed = [s for group in outcome.places for s in group]
    assert sorted(placed) == list(range(game.seats)), f"places {outcome.places} must list each seat"
    assert not (outcome.winners & outcome.losers)
    if outcome.draw:
        assert not outcome.losers
    return outcome


def check_events(
    events: list[Event], public_before: Counter[Card], public_after: Counter[Card]
) -> None:
    public: Counter[Card] | None = None
    for event in events:
        if event.cards:
            public = public_before | public_after if public is None else public
            leaked = Counter(event.cards) - public
            assert not leaked, f"event {event.kind} shows hidden cards {sorted(leaked)}"
        json.dumps(event.to_json())


# ------------------------------------------------------------ the v2 hooks


def check_waits(game: Game[Any, Any, Any, Any]) -> None:
    """``waits()`` names seats in ``to_move()``, and each one's default
    action is legal for it."""
    waits = game.waits()
    assert set(waits) <= game.to_move(), f"waits {dict(waits)} outside to_move"
    for seat in waits:
        action = game.default_action(seat)
        assert action in game.legal_actions(seat), f"default {action} of seat {seat} is illegal"


_ACTION_CARDS: dict[Action, tuple[Card, ...]] = {}


def action_cards(action: Action) -> tuple[Card, ...]:
    """The cards an action names (its fields that are cards or tuples of cards)."""
    cards = _ACTION_CARDS.get(action)
    if cards is None:
        found: list[Card] = []
        for field in dataclasses.fields(cast(Any, action)):  # actions are dataclasses
            value = getattr(action, field.name)
            if isinstance(value, Card):
                found.append(value)
            elif isinstance(value, tuple):
                found.extend(v for v in value if isinstance(v, Card))
        cards = _ACTION_CARDS[action] = tuple(found)
    return cards


def check_actions_name_visible_cards(
    game: Game[Any, Any, Any, Any], seat: int | None = None, actions: list[Any] | None = None
) -> None:
    """No legal action of a seat (of ``seat``: ``actions``) names a card that
    seat cannot see."""
    if seat is None:
        for s in game.to_move():
            check_actions_name_visible_cards(game, s, game.legal_actions(s))
        return
    named = {c for action in actions or () for c in action_cards(action)}
    if not named:
        return
    visible = {
        c for z in game.zones() if z.visible_to is None or seat in z.visible_to for c in z.cards
    }
    hidden = named - visible
    assert not hidden, f"seat {seat} may make moves naming hidden cards {sorted(hidden)}"


@dataclass
class Variation:
    """How often determinize could deal the hidden cards otherwise, and how
    often every world it dealt still came out alike (only a position that
    pins the hidden cards, rare, may do that)."""

    eligible: int = 0
    stuck: int = 0

    def check(self) -> None:
        assert self.stuck <= 1 + self.eligible // 4, (
            f"determinize dealt the same world every time in {self.stuck} of "
            f"{self.eligible} positions that allow another"
        )


def split_zones(
    game: Game[Any, Any, Any, Any], observer: int
) -> tuple[tuple[tuple[str, tuple[Card, ...]], ...], tuple[tuple[str, tuple[Card, ...]], ...]]:
    """``(seen, hidden)``: the zones determinize must keep for ``observer``
    (the ones he sees, and the remembered ones) and the others, which it deals
    anew; each as ``(name, cards)`` pairs."""
    seen = []
    hidden = []
    for z in game.zones():
        if z.visible_to is None or observer in z.visible_to or z.remembered:
            seen.append((z.name, z.cards))
        else:
            hidden.append((z.name, z.cards))
    return tuple(seen), tuple(hidden)


def _can_vary(hidden: tuple[tuple[str, tuple[Card, ...]], ...]) -> bool:
    """At least two hidden cards in different places (or in the stock, whose
    order is the order of drawing)."""
    filled = [name for name, cards in hidden if cards]
    return len(filled) >= 2 or any(name == "stock" and len(cards) >= 2 for name, cards in hidden)


def check_variation(
    game: Game[Any, Any, Any, Any], observer: int, chooser: random.Random
) -> bool | None:
    """None if the cards hidden from ``observer`` can lie only one way, else
    whether worlds determinized for him differ."""
    if not _can_vary(split_zones(game, observer)[1]):
        return None
    deals = set()
    for _ in range(VARIATION_TRIES):
        world = game.determinize(observer, random.Random(chooser.getrandbits(32)))
        deals.add(split_zones(world, observer)[1])
        if len(deals) > 1:
            return True
    return False


def _view_text(game: Game[Any, Any, Any, Any], seat: int) -> str:
    return view_text(game.view(seat))


def check_determinize(
    game: Game[Any, Any, Any, Any],
    observer: int,
    chooser: random.Random,
    initial: Counter[Card],
    variation: Variation,
    *,
    to_the_end: bool = False,
) -> None:
    """Worlds dealt for ``observer`` look the same to him, hold the same cards
    (those he knows where they were), differ from each other when they can,
    and are complete games that play on."""
    before = game.dump()
    view = _view_text(game, observer)
    seen, hidden = split_zones(game, observer)
    seen_cards = {name: Counter(cards) for name, cards in seen}
    hidden_cards = Counter(c for _, cards in hidden for c in cards)
    eligible = _can_vary(hidden)
    worlds: list[Game[Any, Any, Any, Any]] = []
    deals: set[tuple[tuple[str, tuple[Card, ...]], ...]] = set()
    while len(worlds) < DETERMINIZE_SEEDS or (
        eligible and len(deals) < 2 and len(worlds) < VARIATION_TRIES
    ):
        world = game.determinize(observer, random.Random(chooser.getrandbits(32)))
        assert _view_text(world, observer) == view, "determinize changed the observer's view"
        assert bool(world.to_move()) == (world.outcome() is None)
        world_seen, world_hidden = split_zones(world, observer)
        assert {name: Counter(cards) for name, cards in world_seen} == seen_cards, (
            "determinize moved cards the observer knows where they are"
        )
        assert Counter(c for _, cards in world_hidden for c in cards) == hidden_cards, (
            "determinize changed the cards"
        )
        deals.add(world_hidden)
        worlds.append(world)
    assert game.dump() == before, "determinize changed the original"
    # A world depends on what the observer knows and the rng only: dealt from
    # another world he cannot tell from this one, it comes out the same (so a
    # search player handed a world cannot learn where the cards really are).
    seed = chooser.getrandbits(32)
    other = chooser.choice(worlds)
    assert (
        game.determinize(observer, random.Random(seed)).dump()
        == other.determinize(observer, random.Random(seed)).dump()
    ), "determinize let where the hidden cards lie show through"
    if eligible:
        variation.eligible += 1
        variation.stuck += len(deals) < 2
    world = chooser.choice(worlds)
    check_round_trip(world)
    check_waits(world)
    for step in range(MAX_STEPS if to_the_end else PLAY_ON_STEPS):
        actors = world.to_move()
        if not actors:
            break
        if step >= PLAY_BUDGET:
            resign_any(world, chooser)
            continue
        seat = chooser.choice(sorted(actors))
        world.apply(seat, chooser.choice(world.legal_actions(seat)))
    else:
        assert not to_the_end, f"a determinized world did not end in {MAX_STEPS} moves"
    check_state(world, initial)
    if to_the_end:
        check_outcome(world)


def resign_one(
    game: Game[Any, Any, Any, Any], chooser: random.Random, initial: Counter[Card]
) -> tuple[int, list[Event]]:
    """Resign a random seat still in play; seats no longer in play are refused
    harmlessly on the way.  Checks the state after it."""
    before = game.dump()
    seats = list(range(game.seats))
    chooser.shuffle(seats)
    for seat in seats:
        public_before = visible_cards(game, None)
        try:
            events = game.resign(seat)
        except IllegalAction as exc:
            assert exc.reason == "illegal.not_in_game", exc.reason
            assert game.dump() == before, f"a refused resign of seat {seat} changed the state"
            continue
        check_events(events, public_before, visible_cards(game, None))
        check_deep(game, initial)
        return seat, events
    raise AssertionError("the game is not over but no seat may resign")


def check_resign_all(
    game: Game[Any, Any, Any, Any], chooser: random.Random, initial: Counter[Card]
) -> None:
    """Seats resigning one by one (on a copy) keep every invariant, and the
    game is over once all but one have resigned; the original is left alone."""
    before = game.dump()
    copy = game.clone()
    resigned = 0
    while not copy.is_over:
        assert resigned < copy.seats - 1, f"not over after {resigned} of {copy.seats} resigned"
        resign_one(copy, chooser, initial)
        resigned += 1
    check_outcome(copy)
    check_no_resign_when_over(copy)
    assert game.dump() == before, "resigning on a clone changed the original"


def check_no_resign_when_over(game: Game[Any, Any, Any, Any]) -> None:
    before = game.dump()
    for seat in range(game.seats):
        try:
            game.resign(seat)
        except IllegalAction as exc:
            assert exc.reason == "illegal.game_over", exc.reason
        else:
            raise AssertionError(f"seat {seat} resigned from a game that is over")
        assert game.dump() == before


def check_resign_and_replay(
    spec: GameSpec,
    rules: Rules,
    seed: int,
    previous: Outcome | None,
    game: Game[Any, Any, Any, Any],
    log: list[tuple[int, str]],
    chooser: random.Random,
    initial: Counter[Card],
) -> None:
    """Play a copy on after a seat resigns, for a while (with more resigns on
    the way), then resign seats until it is over; its log, RESIGN entries and
    all, replays to the same state."""
    copy = game.clone()
    fork = list(log)
    seat, _ = resign_one(copy, chooser, initial)
    fork.append((seat, RESIGN))
    for _ in range(RESIGN_PLAY_ON):
        actors = copy.to_move()
        if not actors:
            break
        if chooser.random() < 0.02:
            seat, _ = resign_one(copy, chooser, initial)
            fork.append((seat, RESIGN))
            continue
        seat = chooser.choice(sorted(actors))
        action = chooser.choice(copy.legal_actions(seat))
        copy.apply(seat, action)
        check_state(copy, initial)
        check_waits(copy)
        fork.append((seat, action.encode()))
    for _ in range(copy.seats):
        if copy.is_over:
            break
        seat, _ = resign_one(copy, chooser, initial)
        fork.append((seat, RESIGN))
    assert copy.is_over, "not over though every seat resigned"
    check_outcome(copy)
    assert replay(spec, rules, copy.seats, seed, fork, previous).dump() == copy.dump()


# ----------------------------------------------------------------- playouts


def try_illegal(
    game: Game[Any, Any, Any, Any],
    seat: int,
    pool: list[str],
    chooser: random.Random,
    tries: int = 3,
    before: dict[str, Any] | None = None,
) -> None:
    """Actions seen earlier that are not legal now must be refused harmlessly.
    ``before``: the game's dump, if at hand."""
    legal = {a.encode() for a in game.legal_actions(seat)}
    candidates = [code for code in pool if code not in legal]
    if not candidates:
        return
    if before is None:
        before = game.dump()
    codes = chooser.sample(candidates, min(tries, len(candidates)))
    for code in codes:
        action = type(game).decode_action(code)
        try:
            game.apply(seat, action)
        except IllegalAction as exc:
            assert exc.reason.startswith("illegal."), exc.reason
        else:
            raise AssertionError(f"illegal action {code!r} by seat {seat} was applied")
    assert game.dump() == before, f"one of the refused actions {codes} changed the state"


def playout(
    spec: GameSpec,
    rules: Rules,
    seats: int,
    seed: int,
    *,
    deep: bool = True,
    previous: Outcome | None = None,
) -> tuple[Game[Any, Any, Any, Any], list[tuple[int, str]]]:
    """Play one random game to its end; return it and its action log.

    A deep playout checks every invariant at every step, and on a sample of
    steps determinizes for a random observer and resigns seats on copies."""
    game = spec.game.new(rules, seats, random.Random(seed), previous=previous)
    chooser = random.Random(seed * 7919 + 13)
    sampler = random.Random(seed * 7919 + 17)  # the checks' own: the game is the same without
    initial = zone_cards(game)
    assert initial, "a game must hold cards"
    log: list[tuple[int, str]] = []
    pool: set[str] = set()
    variation = Variation()
    to_the_end = resign_step = -1
    if deep:  # one determinized world played to its end, one resign played on
        to_the_end = sampler.randrange(40)
        resign_step = sampler.randrange(60)
    zones = game.zones()
    public = visible_cards(game, None, zones)
    for step in range(MAX_STEPS):
        actors = game.to_move()
        if deep:
            # The hooks on the actions below.
            state = check_deep(game, initial, hooks=False, zones=zones)
            waits = game.waits()
            assert set(waits) <= actors, f"waits {dict(waits)} outside to_move"
        else:
            check_state(game, initial, zones)
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
            if deep and actions:
                check_actions_name_visible_cards(game, seat, actions)
                if seat in waits:
                    default = game.default_action(seat)
                    assert default in actions, f"default {default} of seat {seat} is illegal"
        if step >= PLAY_BUDGET:
            log.append(resign_any(game, chooser))
            zones = game.zones()
            public = visible_cards(game, None, zones)
            continue
        seat = chooser.choice(sorted(actors))
        if deep:
            try_illegal(game, seat, sorted(pool), chooser, before=state)
            outsider = chooser.randrange(seats)
            if outsider not in actors:
                try_illegal(game, outsider, sorted(pool), chooser, before=state)
            if step == to_the_end or sampler.randrange(DETERMINIZE_EVERY) == 0:
                observer = sampler.randrange(seats)
                check_determinize(
                    game, observer, sampler, initial, variation, to_the_end=step == to_the_end
                )
            elif sampler.randrange(VARY_EVERY) == 0:
                varied = check_variation(game, sampler.randrange(seats), sampler)
                if varied is not None:
                    variation.eligible += 1
                    variation.stuck += not varied
            if sampler.randrange(RESIGN_EVERY) == 0:
                check_resign_all(game, sampler, initial)
            if step == resign_step:
                check_resign_and_replay(spec, rules, seed, previous, game, log, sampler, initial)
        action = chooser.choice(game.legal_actions(seat))
        if deep:  # a clone is independent: playing on it leaves the original alone
            twin = game.clone()
            twin.apply(seat, action)
            assert game.dump() == state, "applying on a clone changed the original"
            if type(game).position_key is not Game.position_key:
                assert (twin.position_key() == game.position_key()) == (twin.dump() == state)
        events = game.apply(seat, action)
        zones = game.zones()
        public_after = visible_cards(game, None, zones)
        check_events(events, public, public_after)
        public = public_after
        log.append((seat, action.encode()))
    else:
        raise AssertionError(f"no end after {MAX_STEPS} steps")
    check_outcome(game)
    variation.check()
    if deep:
        check_no_resign_when_over(game)
    return game, log


def resign_any(game: Game[Any, Any, Any, Any], chooser: random.Random) -> tuple[int, str]:
    """One seat still in play leaves the game; its move-log entry."""
    for seat in chooser.sample(range(game.seats), game.seats):
        with contextlib.suppress(IllegalAction):
            game.resign(seat)
            return seat, RESIGN
    raise AssertionError("no seat could resign from a game that is not over")


def replay(
    spec: GameSpec,
    rules: Rules,
    seats: int,
    seed: int,
    log: Iterable[tuple[int, str]],
    previous: Outcome | None = None,
) -> Game[Any, Any, Any, Any]:
    """Rebuild a game from its seed and move log (action codes and RESIGN)."""
    game = spec.game.new(rules, seats, random.Random(seed), previous=previous)
    for seat, code in log:
        perform(game, seat, code)
    return game


GARBAGE = [
    "",
    "?",
    "zz",
    "a",
    "a1",
    "aXX",
    "b6s",
    "x" * 30,
    "t6s",
    "0",
    "💥",
    "p p",
    "a6s6s6s6s6s",
    RESIGN,
    "--",
    "k ",
    " k",
    "K",
    "P",
    "n\n",
    "t10s",
    "tTS",
    "t6S",
    "a6h6s",
    "a6s6s",
    "x6s6s",
    "b6s6s",
    "b6sX1",
    "tX1",
    "pX1",
    "p6s6s",
    "pqs",
    "oS",
    "o",
    "ohh",
    "dd",
    "N",
    "ｋ",
    "t６s",
    "\x00",
]
"""Codes that are garbled or near misses of real ones; :func:`check_garbage`
also tries every real code of the game seen in a few playouts, and their
mutations."""


def _mutations(code: str) -> list[str]:
    out = [code.upper(), code.lower(), code.swapcase(), code + " ", " " + code, code + code]
    out += [code[:-1], code[1:], code[::-1]]
    out += [code[:i] + code[i + 1 :] for i in range(len(code))]
    return out


def check_garbage(
    game_cls: type[Game[Any, Any, Any, Any]],
    codes: Iterable[str] = (),
    extra: Iterable[object] = (),
) -> None:
    """Any text decodes either to an action whose code is exactly that text, or
    raises :class:`ActionParseError`, never another exception (so a forged or
    garbled callback is refused before the engine sees it).  ``codes`` are
    real codes of the game, tried with their mutations; ``extra`` values that
    are not even strings."""
    texts = list(GARBAGE)
    for code in codes:
        texts.append(code)
        texts.extend(_mutations(code))
    for text in texts:
        try:
            action = game_cls.decode_action(text)
        except ActionParseError:
            continue
        assert action.encode() == text, f"{text!r} decodes to {action}, whose code differs"
    for value in extra:
        with contextlib.suppress(ActionParseError):
            game_cls.decode_action(cast(str, value))
            raise AssertionError(f"{value!r} decoded to an action")
