"""The 101 heuristic: legal with every preset and option, deterministic, and
sensible in a few hand-made positions."""

from __future__ import annotations

import contextlib
import itertools
import random

import pytest

from games.cards import Suit
from games.core import Action
from games.hundred_one import PRESETS, HundredOne, HundredOneRules, seat_range
from games.hundred_one.actions import ORDERS
from players import HundredOneHeuristic, RandomPlayer
from players.arena import next_seat, play, random_seat
from tests.players.common import Checked

H = HundredOneHeuristic()
RNG = random.Random(0)


MIXED_STEPS = 5_000
"""Moves a match with random options is played for at most (a match that
never ends repeats itself long before)."""


def some_rules(count: int) -> list[HundredOneRules]:
    """``count`` random combinations of every lobby option (seeded)."""
    rng = random.Random(101)
    out: list[HundredOneRules] = []
    while len(out) < count:
        values = {name: rng.choice(choices) for name, choices in HundredOneRules.options()}
        rules = HundredOneRules(**values)
        if rules.max_seats >= 2:
            out.append(rules)
    return out


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_only_legal_moves_with_every_preset_and_seat_count(preset: str) -> None:
    rules = PRESETS[preset]
    for seats in seat_range(rules):
        for mix, chooser in itertools.product(("alternate", "all"), (next_seat, random_seat)):
            heuristic = Checked(H)
            randoms = Checked(RandomPlayer())
            players = [heuristic if mix == "all" or s % 2 == 0 else randoms for s in range(seats)]
            rng = random.Random(seats * 1000 + len(mix))
            game = HundredOne.new(rules, seats, rng)
            play(game, players, rng, choose_seat=chooser)
            assert game.is_over
            assert heuristic.calls > 0


@pytest.mark.parametrize("rules", some_rules(12), ids=lambda r: f"{r.deck}x{r.hand}")
def test_only_legal_moves_with_mixed_options(rules: HundredOneRules) -> None:
    # A round ends only when someone goes out, and some odd mixes (suit only,
    # every special card on) keep two big hands trading cards for as long as
    # anyone cares to watch: the harness stops those, the moves are checked.
    for seats in (2, seat_range(rules)[-1]):
        heuristic = Checked(H)
        players = [heuristic if s % 2 == 0 else Checked(RandomPlayer()) for s in range(seats)]
        rng = random.Random(seats)
        game = HundredOne.new(rules, seats, rng)
        with contextlib.suppress(RuntimeError):
            play(game, players, rng, max_steps=MIXED_STEPS)
        assert heuristic.calls > 0


def test_same_view_and_seed_same_choice() -> None:
    rules = PRESETS["english"]
    logs: list[list[tuple[int, str]]] = []
    for _ in range(2):
        log: list[tuple[int, str]] = []
        game = HundredOne.new(rules, 3, random.Random(5))

        def record(seat: int, action: Action, log: list[tuple[int, str]] = log) -> None:
            log.append((seat, action.encode()))

        play(game, [H, H, H], random.Random(6), on_move=record)
        logs.append(log)
    assert logs[0] == logs[1]

    game = HundredOne.new(rules, 3, random.Random(5))
    for seat, code in logs[0]:
        view = game.view(seat)
        legal = game.legal_actions(seat)
        assert H.choose(rules, view, legal, random.Random(1)) == H.choose(
            rules, view, legal, random.Random(1)
        )
        game.apply(seat, HundredOne.decode_action(code))


# ------------------------------------------------------------ positions

CLASSIC = PRESETS["classic"]


def ask(game: HundredOne, seat: int) -> str:
    return H.choose(game.rules, game.view(seat), game.legal_actions(seat), RNG).encode()


def act(game: HundredOne, seat: int, code: str) -> None:
    game.apply(seat, HundredOne.decode_action(code))


def test_keeps_the_queen_to_finish_with() -> None:
    game = HundredOne.position(CLASSIC, ["TsQh", "7c8c9d"], discard="9s")
    assert ask(game, 0) == "pTs"


def test_spends_the_queen_only_when_nothing_else_fits() -> None:
    game = HundredOne.position(CLASSIC, ["Qh8s6d7c", "7h8c9d"], discard="9s")
    assert ask(game, 0) == "p8s"


def test_orders_the_suit_it_holds_most_of() -> None:
    game = HundredOne.position(CLASSIC, ["Qh7d8dTd6s", "7h8c9d"], discard="9c")
    act(game, 0, "pQh")
    assert ask(game, 0) == ORDERS[Suit.DIAMONDS].encode()


def test_answers_an_ace_with_an_ace() -> None:
    game = HundredOne.position(CLASSIC, ["As7s8s", "Ah7c8c"], discard="9s")
    act(game, 0, "pAs")
    assert ask(game, 1) == "pAh"


def test_hits_a_player_about_to_go_out_with_a_six() -> None:
    game = HundredOne.position(CLASSIC, ["6cTc8h", "7d"], discard="9c")
    assert ask(game, 0) == "p6c"


def test_jack_preset_sheds_jacks_once_somebody_is_close() -> None:
    jack = PRESETS["jack"]
    game = HundredOne.position(jack, ["Jc8h7dKh", "7s8s"], discard="9h")
    assert ask(game, 0) == "pJc"
    game = HundredOne.position(jack, ["Jc8h7dKh", "7s8s6c6d9d"], discard="9h")
    assert ask(game, 0) != "pJc"
