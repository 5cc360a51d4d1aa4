"""The referee and the random baseline."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from games.core import Action, Rules
from games.durak import SPEC as DURAK
from games.durak import Durak, DurakRules
from games.durak.actions import TAKE
from games.durak.views import DurakSeatView
from games.hundred_one import SPEC as HUNDRED_ONE
from games.spec import GameSpec
from players import RandomPlayer
from players.arena import SeatChooser, next_seat, play, random_seat


@pytest.mark.parametrize("spec", [DURAK, HUNDRED_ONE], ids=lambda s: s.key)
@pytest.mark.parametrize("chooser", [next_seat, random_seat], ids=["next", "random"])
def test_random_players_finish_games(spec: GameSpec, chooser: SeatChooser) -> None:
    for seed in range(5):
        game = spec.game.new(spec.preset(), 3, random.Random(seed))
        outcome = play(game, [RandomPlayer()] * 3, random.Random(seed), choose_seat=chooser)
        assert outcome == game.outcome()


def test_next_seat_asks_the_defender_first() -> None:
    game = Durak.position(DurakRules(), ["6s 6h 7c", "8s 9d Tc", "6d 6c Ac"], attacker=0, trump="h")
    game.apply(0, Durak.decode_action("a6s"))
    actors = sorted(game.to_move())
    assert actors == [0, 1, 2]
    assert next_seat(game, actors, random.Random(0)) == 1


class Cheat:
    """Always says "take", legal or not."""

    def choose(
        self, rules: Rules, view: DurakSeatView, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        return TAKE


def test_a_wrong_answer_is_refused() -> None:
    game = DURAK.game.new(DURAK.preset(), 2, random.Random(1))
    with pytest.raises(ValueError, match="not a legal action"):
        play(game, [Cheat(), Cheat()], random.Random(1))


def test_a_game_that_does_not_end_is_given_up() -> None:
    game = DURAK.game.new(DURAK.preset(), 2, random.Random(1))
    with pytest.raises(RuntimeError, match="no end after 3 moves"):
        play(game, [RandomPlayer()] * 2, random.Random(1), max_steps=3)
