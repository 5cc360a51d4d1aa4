"""Durak properties over random games, for every combination of options."""

from __future__ import annotations

import contextlib
import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.engines import main as bench_main
from games.cards import Card, CardParseError, deck
from games.core import ActionParseError, IllegalAction, Outcome, RulesError, StateFormatError
from games.durak import (
    PRESETS,
    SPEC,
    Durak,
    DurakAction,
    DurakRules,
    FirstAttack,
    Shape,
    Transfers,
)
from games.durak.actions import (
    ATTACKS,
    BEATS,
    PASS,
    TAKE,
    THROWS,
    TRANSFERS,
    Attack,
    Beat,
    Throw,
    Transfer,
)
from games.durak.state import Phase
from tests.engines.playout import playout, replay


@st.composite
def _rules(draw: st.DrawFn) -> DurakRules:
    """A variant (a preset) with its lobby options drawn at random."""
    rules = draw(st.sampled_from(list(PRESETS.values())))
    for name, choices in DurakRules.options():
        if rules.applies(name):
            with contextlib.suppress(RulesError):
                rules = rules.replace(**{name: draw(st.sampled_from(choices))})
    return rules


RULES = _rules()


def seats_for(rules: DurakRules, data: st.DataObject) -> int:
    return data.draw(st.sampled_from(list(SPEC.seat_range(rules))), label="seats")


def random_game(
    rules: DurakRules,
    seats: int,
    seed: int,
    *,
    previous: Outcome | None = None,
    check: Any = None,
) -> Durak:
    game = Durak.new(rules, seats, random.Random(seed), previous=previous)
    chooser = random.Random(seed ^ 0x5EED)
    while actors := game.to_move():
        if check is not None:
            check(game)
        seat = chooser.choice(sorted(actors))
        game.apply(seat, chooser.choice(game.legal_actions(seat)))
    return game


def check_table(game: Durak) -> None:
    """What must hold in every state of every game."""
    view = game.public_view()
    table = view.table
    assert len(table) <= view.cap <= 6
    if game.rules.first_bout_five and view.cap == 6:
        assert not game._first_bout
    ranks = {table[0].attack.rank} if table else set()
    suits = {table[0].attack.suit} if table else set()
    for row in table:
        attack = row.attack
        if game.rules.shape is Shape.SUIT:
            assert attack.suit in suits, "a lead of several suits"
        else:
            assert attack.rank in ranks, "thrown in a rank that was not on the table"
        if row.defense is not None:
            assert row.covered
            assert game.beating.beats(attack, row.defense)
            ranks.add(row.defense.rank)
    unbeaten = sum(not row.covered for row in table)
    if table and not view.taking:
        assert view.defender is not None
        assert unbeaten <= view.hands[view.defender], "more to beat than cards"
    on_table = 2 * len(table) - unbeaten
    total = view.stock + view.discard + sum(view.hands) + on_table
    assert total == game.rules.deck_size
    for seat in range(game.seats):
        if seat not in view.active:
            assert view.hands[seat] == 0
    if not table and view.phase is not Phase.NAME:  # the attacker follows the trump named
        assert view.attacker is not None
        assert view.hands[view.attacker] > 0
        assert view.attacker in view.active
        assert view.defender in view.active
    if view.stock:
        assert view.active == set(range(game.seats))


def check_end(game: Durak) -> None:
    outcome = game.outcome()
    assert outcome is not None
    view = game.public_view()
    holding = [s for s in range(game.seats) if view.hands[s]]
    if view.teams:
        if outcome.draw:
            assert holding == []
            return
        assert view.losing_team is not None
        losers = view.teams[view.losing_team]
        assert outcome.losers == set(losers)
        assert outcome.winners == set(view.teams[1 - view.losing_team])
        assert holding  # the losing team still holds cards
        assert set(holding) <= set(losers)  # the winners hold none
        return
    if outcome.draw:
        assert holding == []
        assert view.durak is None
    else:
        assert holding == [view.durak]
        assert outcome.losers == {view.durak}
        assert outcome.winners == set(range(game.seats)) - outcome.losers
        assert outcome.places[-1] == (view.durak,)
    assert outcome.places[: len(view.out_order)] == view.out_order


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=RULES, data=st.data(), seed=st.integers(0, 2**32))
def test_every_state_keeps_the_table_rules(
    rules: DurakRules, data: st.DataObject, seed: int
) -> None:
    seats = seats_for(rules, data)
    game = random_game(rules, seats, seed, check=check_table)
    check_end(game)
    following = random_game(rules, seats, seed + 1, previous=game.outcome(), check=check_table)
    check_end(following)


def candidates(game: Durak, seat: int) -> list[DurakAction]:
    """Every action that mentions only cards of the seat's hand and the table."""
    mine = [c.order for c in game.hand(seat)]
    table = [row.attack.order for row in game.public_view().table]
    out: list[DurakAction] = [TAKE, PASS]
    out += [THROWS[o] for o in mine]
    out += [BEATS[(a << 6) | o] for a in table for o in mine if a != o]
    for key, action in ATTACKS.items():
        if all(c.order in mine for c in action.cards):
            out.append(action)
            out.append(TRANSFERS[key])
    return out


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=RULES, data=st.data(), seed=st.integers(0, 2**32))
def test_apply_accepts_exactly_the_legal_actions(
    rules: DurakRules, data: st.DataObject, seed: int
) -> None:
    seats = seats_for(rules, data)
    checked = Counter[str]()

    def check(game: Durak) -> None:
        for seat in range(game.seats):
            legal = set(game.legal_actions(seat))
            for action in candidates(game, seat):
                trial = game.clone()
                try:
                    trial.apply(seat, action)
                except IllegalAction as exc:
                    assert exc.reason.startswith("illegal.")
                    assert action not in legal, f"{action.encode()} is legal but refused"
                    checked["refused"] += 1
                else:
                    assert action in legal, f"{action.encode()} applied but is not legal"
                    checked["applied"] += 1

    random_game(rules, seats, seed, check=check)
    assert checked["applied"]
    assert checked["refused"]


def test_every_action_code_round_trips_and_is_short() -> None:
    actions: list[DurakAction] = [TAKE, PASS]
    actions += [*THROWS.values(), *BEATS.values(), *ATTACKS.values(), *TRANSFERS.values()]
    codes = [a.encode() for a in actions]
    assert len(set(codes)) == len(codes)
    for action, code in zip(actions, codes, strict=True):
        assert code.isascii()
        assert 0 < len(code) <= 24
        assert Durak.decode_action(code) is action


@pytest.mark.parametrize(
    "text",
    ["", "a", "a6s6s", "a7s6s", "a6c6s", "x", "b6s", "b6s6s", "t", "t6", "tX1", "aX1", "kk", "P"],
)
def test_malformed_codes_are_refused(text: str) -> None:
    with pytest.raises(ActionParseError):
        Durak.decode_action(text)


@given(st.text(max_size=30))
def test_decoding_any_text_gives_an_action_or_a_parse_error(text: str) -> None:
    with contextlib.suppress(ActionParseError):
        action = Durak.decode_action(text)
        assert action.encode() == text


def test_hand_built_actions_equal_the_decoded_ones() -> None:
    six, seven = Card.parse("6s"), Card.parse("7s")
    assert Beat(six, seven) == Durak.decode_action("b6s7s")
    assert Throw(six) == Durak.decode_action("t6s")
    assert Attack((six, Card.parse("6h"))) == Durak.decode_action("a6s6h")
    assert Transfer((six,)) == Durak.decode_action("x6s")


def test_a_forged_mixed_attack_is_refused() -> None:
    game = Durak.position(DurakRules(), ["6s 7s", "8s 9s"], attacker=0, trump="h")
    before = game.dump()
    with pytest.raises(IllegalAction) as caught:
        game.apply(0, Attack((Card.parse("6s"), Card.parse("7s"))))
    assert caught.value.reason == "illegal.mixed_ranks"
    assert game.dump() == before
    with pytest.raises(IllegalAction):
        game.apply(7, Durak.decode_action("a6s"))


# ------------------------------------------------------------------ state


def mid_game(seed: int, rules: DurakRules | None = None, seats: int = 3, steps: int = 25) -> Durak:
    game = Durak.new(rules or DurakRules(transfer=Transfers.TRANSFER), seats, random.Random(seed))
    chooser = random.Random(seed)
    for _ in range(steps):
        actors = game.to_move()
        if not actors:
            break
        seat = chooser.choice(sorted(actors))
        game.apply(seat, chooser.choice(game.legal_actions(seat)))
    return game


def test_load_refuses_another_game_or_format() -> None:
    dumped = mid_game(1).dump()
    with pytest.raises(StateFormatError):
        Durak.load({**dumped, "game": "101"})
    with pytest.raises(StateFormatError):
        Durak.load({**dumped, "format": 4})
    with pytest.raises(StateFormatError):
        Durak.load([])  # type: ignore[arg-type]


@pytest.mark.parametrize("over", [False, True])
def test_games_saved_before_teams_still_load(over: bool) -> None:
    """Format 1 had no places, controls or losing team, and ``transfer`` was a
    boolean in the rules."""
    game = mid_game(2, steps=2000 if over else 25)
    assert game.is_over == over
    dumped = game.dump()
    dropped = ("places", "controls", "losing_team", "left", "aside")
    old = {k: v for k, v in dumped.items() if k not in dropped}
    old["format"] = 1
    old["rules"] = {**dumped["rules"], "transfer": True}
    assert Durak.load(old).dump() == dumped


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d["hands"][0].append(d["hands"][1][0]),  # a card twice
        lambda d: d["hands"][0].pop(),  # a card missing
        lambda d: d.update(seats=7),
        lambda d: d.update(attacker="0"),
        lambda d: d.update(trump="x"),
        lambda d: d.update(rules={"deck_size": 40}),
        lambda d: d.update(table=[["6s"]]),
        lambda d: d.update(out=[0]),
        lambda d: d.update(known=[["As"], [], []]),
        lambda d: d.pop("cap"),
        lambda d: d.update(stock=["zz"]),
    ],
)
def test_load_refuses_damaged_states(damage: Any) -> None:
    dumped = json.loads(json.dumps(mid_game(4).dump()))
    assert Durak.load(dumped).dump() == dumped
    damage(dumped)
    with pytest.raises(StateFormatError):
        Durak.load(dumped)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 80))
def test_clone_is_independent(seed: int, steps: int) -> None:
    game = mid_game(seed, steps=steps)
    copy = game.clone()
    before = game.dump()
    chooser = random.Random(seed)
    while copy.to_move():
        seat = chooser.choice(sorted(copy.to_move()))
        copy.apply(seat, chooser.choice(copy.legal_actions(seat)))
    assert game.dump() == before
    assert Durak.load(before).dump() == before


def test_strings_in_views_are_card_codes_only_where_cards_belong() -> None:
    card_keys = {"trump_card", "attack", "defense", "hand", "known", "beaten", "seen", "my_covers"}

    def walk(value: Any, key: str | None) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                with contextlib.suppress(CardParseError):
                    Card.parse(k)
                    raise AssertionError(f"key {k!r} is a card code")
                walk(v, k)
        elif isinstance(value, list):
            for item in value:
                walk(item, key)
        elif isinstance(value, str) and key not in card_keys:
            with contextlib.suppress(CardParseError):
                Card.parse(value)
                raise AssertionError(f"{key}: {value!r} is a card code")

    for seed in range(5):
        for steps in (0, 10, 40, 400):
            game = mid_game(seed, steps=steps)
            walk(game.public_view().to_json(), None)
            for seat in range(game.seats):
                walk(game.view(seat).to_json(), None)


def test_hands_in_views_are_sorted_with_trumps_last() -> None:
    game = Durak.position(
        DurakRules(), ["6h Ac 7s Ts 6d", "8s 9s"], attacker=0, trump="s", trump_card=None
    )
    assert [c.code for c in game.view(0).hand] == ["Ac", "6d", "6h", "7s", "Ts"]


@pytest.mark.parametrize(
    "rules",
    [
        DurakRules(deck_size=24, transfer=Transfers.TRANSFER, first_bout_five=True),
        DurakRules(
            deck_size=52, later_first_attack=FirstAttack.UNDER_LOSER, transfer=Transfers.TRANSFER
        ),
    ],
    ids=["24-five-transfer", "52-under-loser"],
)
@pytest.mark.parametrize("seats", [2, 4])
def test_other_options_pass_the_deep_conformance_checks(rules: DurakRules, seats: int) -> None:
    first, _ = playout(SPEC, rules, seats, 5, deep=False)
    previous = first.outcome()
    game, log = playout(SPEC, rules, seats, 6, previous=previous)
    assert replay(SPEC, rules, seats, 6, log, previous=previous).dump() == game.dump()


def test_the_whole_deck_is_dealt_or_in_the_stock() -> None:
    for size, seats in ((24, 4), (36, 5), (52, 6)):
        game = Durak.new(DurakRules(deck_size=size), seats, random.Random(size))
        cards = Counter(c for z in game.zones() for c in z.cards)
        assert cards == Counter(deck(size))


def test_the_benchmark_runs_for_durak(capsys: pytest.CaptureFixture[str]) -> None:
    results = bench_main(["--seconds", "0.02", "--games", "durak"])
    assert [(r.preset, r.seats) for r in results] == [("podkidnoy", 2), ("podkidnoy", 6)]
    assert all(r.games_per_second > 0 and r.apply_us > 0 for r in results)
    assert "durak" in capsys.readouterr().out
