"""The search players: legal in every preset and seat count, deterministic per
seed, blind to where hidden cards really lie, and exact when nothing is hidden."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bot.catalog import CATALOG
from games.core import Game, Rules
from games.durak import PRESETS as DURAK_PRESETS
from games.durak import Durak, Trump
from games.durak.actions import NameTrump
from games.spec import GameSpec
from players.arena import next_seat
from players.levels import Level, budget, request_for, search_player, seconds, think
from players.search import Budget, SearchPlayer, Situation
from tests.engines.test_conformance import OPTION_SETS

SMALL = Budget(moves=150)
"""Enough for a few worlds; no time limit, so choices repeat exactly."""
SPECS = list(CATALOG.specs.values())
MAX_MOVES = 150
"""Moves played per game in the legality sweep (whole games are the arena's)."""
SWEEP = Budget(moves=20)
"""A small search: the sweep is about the legality of what it chooses."""
SEARCH_EVERY = 3
"""The sweep searches one move in three (its seat moving round the table) and
lets the heuristic play the rest: every phase of the game is still reached."""


def small_player(game: str) -> SearchPlayer:
    computer = CATALOG.computers[game]
    return SearchPlayer(computer.heuristic, SMALL, computer.horizon)


def cases() -> list[tuple[GameSpec, str, int]]:
    """Every preset at its fewest and its most seats (a seat count between
    them reaches no rule the two ends do not)."""
    return [
        (spec, preset, seats)
        for spec in SPECS
        for preset, rules in spec.presets.items()
        for seats in sorted({spec.seat_range(rules)[0], spec.seat_range(rules)[-1]})
    ]


@pytest.mark.parametrize(
    ("spec", "preset", "seats"), cases(), ids=lambda v: getattr(v, "key", str(v))
)
def test_only_legal_moves_with_every_preset_at_its_fewest_and_most_seats(
    spec: GameSpec, preset: str, seats: int
) -> None:
    rng = random.Random(f"{spec.key}:{preset}:{seats}")
    game: Game[Any, Any, Any, Any] = spec.game.new(spec.presets[preset], seats, rng)
    computer = CATALOG.computers[spec.key]
    searcher = SearchPlayer(computer.heuristic, SWEEP, computer.horizon)
    heuristic = computer.heuristic
    searched = 0
    next_search = 0
    for move in range(MAX_MOVES):
        actors = sorted(game.to_move())
        if not actors:
            break
        seat = next_seat(game, actors, rng)
        legal = game.legal_actions(seat)
        if move >= next_search and seat == searched % seats:
            action = searcher.choose(Situation.of(game, seat), rng)
            assert action in legal
            searched += 1
            next_search = move + SEARCH_EVERY
        else:
            action = heuristic.choose(game.rules, game.view(seat), legal, rng)
        game.apply(seat, action)
    assert searched > 0


@pytest.mark.parametrize(
    ("key", "rules", "seats"),
    [(key, rules, seats) for key, _, rules, counts in OPTION_SETS for seats in counts[:1]],
    ids=[name for _, name, _, _ in OPTION_SETS],
)
def test_only_legal_moves_with_the_seed_options(key: str, rules: Rules, seats: int) -> None:
    """Two-player Joker with jokers at face value, diamonds durak's turned
    spade as podkidnoy or named (the seed options no preset has)."""
    spec = CATALOG.specs[key]
    computer = CATALOG.computers[key]
    searcher = SearchPlayer(computer.heuristic, SWEEP, computer.horizon)
    for seed in range(2):
        rng = random.Random(f"{key}:{seed}")
        game: Game[Any, Any, Any, Any] = spec.game.new(rules, seats, rng)
        for _ in range(MAX_MOVES // 2):
            actors = sorted(game.to_move())
            if not actors:
                break
            seat = next_seat(game, actors, rng)
            action = searcher.choose(Situation.of(game, seat), rng)
            assert action in game.legal_actions(seat)
            game.apply(seat, action)


def test_the_search_names_a_trump_over_a_turned_spade() -> None:
    rules = DURAK_PRESETS["diamonds"].replace(trump=Trump.SPADE_NAMED)
    game = Durak.new(rules, 2, random.Random(3))  # a spade is turned
    assert game.to_move() == {0}
    action = small_player("durak").choose(Situation.of(game, 0), random.Random(1))
    assert isinstance(action, NameTrump)


def midgame(spec: GameSpec, seats: int, moves: int) -> tuple[Game[Any, Any, Any, Any], int]:
    """A game of heuristics at least ``moves`` moves in, where a seat on move
    has a choice to make, and that seat."""
    rng = random.Random(7)
    game: Game[Any, Any, Any, Any] = spec.game.new(next(iter(spec.presets.values())), seats, rng)
    for step in range(5_000):
        actors = sorted(game.to_move())
        assert actors, "the game ended before anybody had a choice"
        choosing = [s for s in actors if len(game.legal_actions(s)) > 1]
        if step >= moves and choosing:
            return game, choosing[0]
        seat = next_seat(game, actors, rng)
        legal = game.legal_actions(seat)
        game.apply(
            seat,
            CATALOG.computers[spec.key].heuristic.choose(game.rules, game.view(seat), legal, rng),
        )
    raise AssertionError("nobody had a choice")


@pytest.mark.parametrize(
    ("spec", "seats", "moves"),
    [(s, 2 if s.key in ("durak", "101") else 3, 9) for s in SPECS],
    ids=lambda v: getattr(v, "key", str(v)),
)
def test_two_worlds_that_differ_only_in_hidden_cards_get_the_same_move(
    spec: GameSpec, seats: int, moves: int
) -> None:
    game, seat = midgame(spec, seats, moves)
    other = game.determinize(seat, random.Random(99))
    if spec.key != "daytona":  # Daytona hides only the stock's order
        assert other.dump() != game.dump(), "the other world deals the hidden cards otherwise"
    assert other.view(seat) == game.view(seat)
    one, two = Situation.of(game, seat), Situation.of(other, seat)
    assert one.to_json() == two.to_json()
    searcher = small_player(spec.key)
    assert searcher.choose(one, random.Random(3)) == searcher.choose(two, random.Random(3))


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.key)
def test_the_same_situation_and_seed_give_the_same_move(spec: GameSpec) -> None:
    game, seat = midgame(spec, 3 if spec.key in ("joker", "daytona") else 2, 11)
    situation = Situation.of(game, seat)
    searcher = small_player(spec.key)
    choices = {searcher.choose(situation, random.Random(5)).encode() for _ in range(3)}
    assert len(choices) == 1


def test_a_worker_gets_plain_data_and_answers_with_a_legal_code() -> None:
    game, seat = midgame(next(s for s in SPECS if s.key == "durak"), 2, 5)
    sent = request_for(Situation.of(game, seat), CATALOG.computers["durak"], Level.NORMAL, 1, 0.01)
    assert sent["computer"] == "players.durak:COMPUTER"
    assert json.loads(json.dumps(sent)) == sent
    code = think(sent)
    assert code in {a.encode() for a in game.legal_actions(seat)}
    situation = Situation.from_json(sent["situation"])
    assert situation.world.dump() == Situation.of(game, seat).world.dump()


def test_a_worker_refuses_an_import_path_that_is_not_what_it_claims() -> None:
    game, seat = midgame(next(s for s in SPECS if s.key == "durak"), 2, 5)
    sent = request_for(Situation.of(game, seat), CATALOG.computers["durak"], Level.NORMAL, 1, 0.01)
    with pytest.raises(TypeError, match="not a Computer"):
        think({**sent, "computer": "players.durak:DurakHeuristic"})
    situation = dict(sent["situation"])
    with pytest.raises(TypeError, match="not a game engine"):
        Situation.from_json({**situation, "engine": "players.computer:Computer"})


def test_the_easy_level_is_the_heuristic_not_a_search() -> None:
    with pytest.raises(ValueError, match="heuristic"):
        search_player(CATALOG.computers["durak"], Level.EASY)


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.key)
def test_the_normal_level_thinks_less_than_the_hard_one_in_every_game(spec: GameSpec) -> None:
    computer = CATALOG.computers[spec.key]
    assert seconds(computer, Level.EASY) == 0.0
    assert 0.0 < seconds(computer, Level.NORMAL) < seconds(computer, Level.HARD) == 1.0
    normal, hard = budget(computer, Level.NORMAL), budget(computer, Level.HARD)
    assert 0 < normal.moves < hard.moves
    assert normal.seconds == pytest.approx(0.9 * seconds(computer, Level.NORMAL))


def test_with_nothing_hidden_it_finds_the_forced_win_the_heuristic_misses() -> None:
    # Spades are trumps; the stock is gone, so each knows the other's hand.
    # Leading 6h lets Boris cover with 7h and lead 8c onto the ace: a draw.
    # Leading the ace first makes him take it, and 6h then gets Anna out.
    game = Durak.position(DURAK_PRESETS["podkidnoy"], ["6h As", "7h 8c"], attacker=0, trump="s")
    heuristic = CATALOG.computers["durak"].heuristic.choose(
        game.rules, game.view(0), game.legal_actions(0), random.Random(1)
    )
    assert heuristic.encode() != "aAs"
    searched = small_player_with_duel().search(Situation.of(game, 0), random.Random(1))
    assert searched.exact
    assert searched.action.encode() == "aAs"


def small_player_with_duel() -> SearchPlayer:
    computer = CATALOG.computers["durak"]
    return SearchPlayer(computer.heuristic, SMALL, computer.horizon, duel=computer.duel)
