"""The reference players (information set MCTS, perfect information Monte
Carlo): legal in every game, preset and seat count, the same move for the same
situation and seed, blind to where hidden cards really lie, and finding the
forced line of a scripted position.

Budgets are counted in simulated moves with no time limit, so each answer is
the same on any machine."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.catalog import CATALOG
from games.core import Game
from games.durak import PRESETS as DURAK_PRESETS
from games.durak import Durak
from games.hundred_one import PRESETS as HUNDRED_ONE_PRESETS
from games.hundred_one import HundredOne
from games.spec import GameSpec
from players.arena import next_seat
from players.levels import Level, budget, search_player
from players.reference import REFERENCES
from players.search import Budget, Searcher, Situation
from tests.players.test_search import SPECS, cases, midgame

SWEEP = Budget(moves=40)
"""A small search: the sweep is about the legality of what it chooses."""
SMALL = Budget(moves=2_000)
"""Enough for a few worlds (every move played out in each) or many iterations."""
SWEEP_MOVES = 60
"""Moves played per game in the legality sweep."""


def reference(name: str, key: str, size: Budget) -> Searcher:
    return REFERENCES[name](size, CATALOG.computers[key].horizon)


def fewest_and_most() -> list[tuple[GameSpec, str, int]]:
    """Every preset at its fewest and its most seats: the references act
    through the game contract alone, whose every seat count the search's
    sweep and the conformance suite play already."""
    return [
        (spec, preset, seats)
        for spec, preset, seats in cases()
        if seats
        in (spec.seat_range(spec.presets[preset])[0], spec.seat_range(spec.presets[preset])[-1])
    ]


@pytest.mark.parametrize("name", sorted(REFERENCES))
@pytest.mark.parametrize(
    ("spec", "preset", "seats"), fewest_and_most(), ids=lambda v: getattr(v, "key", str(v))
)
def test_only_legal_moves_with_every_preset_at_its_fewest_and_most_seats(
    name: str, spec: GameSpec, preset: str, seats: int
) -> None:
    rng = random.Random(f"{name}:{spec.key}:{preset}:{seats}")
    game: Game[Any, Any, Any, Any] = spec.game.new(spec.presets[preset], seats, rng)
    player = reference(name, spec.key, SWEEP)
    heuristic = CATALOG.computers[spec.key].heuristic
    searched = 0
    for _ in range(SWEEP_MOVES):
        actors = sorted(game.to_move())
        if not actors:
            break
        seat = next_seat(game, actors, rng)
        legal = game.legal_actions(seat)
        if seat == searched % seats:  # the searching seat moves round the table
            found = player.search(Situation.of(game, seat), rng)
            assert found.action in legal
            action = found.action
            searched += 1
        else:
            action = heuristic.choose(game.rules, game.view(seat), legal, rng)
        game.apply(seat, action)
    assert searched > 0


@pytest.mark.parametrize("name", sorted(REFERENCES))
@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.key)
def test_the_same_situation_and_seed_give_the_same_move(name: str, spec: GameSpec) -> None:
    game, seat = midgame(spec, 3 if spec.key in ("joker", "daytona") else 2, 11)
    situation = Situation.of(game, seat)
    player = reference(name, spec.key, SMALL)
    found = [player.search(situation, random.Random(5)) for _ in range(3)]
    assert found[0].worlds > 1
    assert len({(f.action.encode(), f.moves, f.worlds) for f in found}) == 1


@pytest.mark.parametrize("name", sorted(REFERENCES))
@pytest.mark.parametrize(
    ("spec", "seats"),
    [(s, 2 if s.key in ("durak", "101") else 3) for s in SPECS],
    ids=lambda v: getattr(v, "key", str(v)),
)
def test_two_worlds_that_differ_only_in_hidden_cards_get_the_same_move(
    name: str, spec: GameSpec, seats: int
) -> None:
    """A reference player is handed only the seat's situation, dealt from what
    the seat knows: where the hidden cards really lie cannot change its move."""
    game, seat = midgame(spec, seats, 9)
    other = game.determinize(seat, random.Random(99))
    if spec.key != "daytona":  # Daytona hides only the stock's order
        assert other.dump() != game.dump(), "the other world deals the hidden cards otherwise"
    one, two = Situation.of(game, seat), Situation.of(other, seat)
    assert one.to_json() == two.to_json()
    player = reference(name, spec.key, SMALL)
    assert player.search(one, random.Random(3)) == player.search(two, random.Random(3))


@pytest.mark.parametrize("name", sorted(REFERENCES))
def test_the_durak_lead_of_the_ace_of_trumps_that_forces_a_win(name: str) -> None:
    # Spades are trumps and the stock is gone.  Leading the ace of trumps makes
    # Boris take it, and 6h then gets Anna out; after 6h he may cover with 7h
    # and lead 8c onto the ace: a draw.  The heuristic leads 6h.
    game = Durak.position(DURAK_PRESETS["podkidnoy"], ["6h As", "7h 8c"], attacker=0, trump="s")
    heuristic = CATALOG.computers["durak"].heuristic
    assert (
        heuristic.choose(game.rules, game.view(0), game.legal_actions(0), random.Random(1)).encode()
        != "aAs"
    )
    for seed in range(3):
        found = reference(name, "durak", Budget(moves=1_000)).search(
            Situation.of(game, 0), random.Random(seed)
        )
        assert found.action.encode() == "aAs"


@pytest.mark.parametrize("name", sorted(REFERENCES))
def test_the_101_six_that_makes_a_player_about_to_go_out_draw(name: str) -> None:
    # Boris holds one card: Anna's 6c makes him draw, her 10c lets him go out.
    # The horizon is the round: the move is valued by the points it makes.
    game = HundredOne.position(HUNDRED_ONE_PRESETS["classic"], ["6cTc8h", "7d"], discard="9c")
    for seed in range(3):
        found = reference(name, "101", Budget(moves=3_000)).search(
            Situation.of(game, 0), random.Random(seed)
        )
        assert found.action.encode() == "p6c"


def test_the_arena_gives_a_reference_the_move_budget_of_the_level() -> None:
    computer = CATALOG.computers["durak"]
    hard = budget(computer, Level.HARD)
    assert hard == search_player(computer, Level.HARD).budget
