"""Every Durak variant searched: at normal and hard, through the path the bot
takes (:func:`players.levels.searches`, :func:`players.levels.search_player`),
the search plays only legal moves, and in a scripted position of each variant
it finds the line that wins (the heuristic misses most of them)."""

from __future__ import annotations

import random

import pytest

from bot.catalog import CATALOG
from games.durak import PRESETS, Durak
from games.durak.actions import BlindBeat, Cover, Doubt, DurakAction
from games.durak.beating import CARD_BY_ORDER
from players.arena import next_seat
from players.levels import Level, search_player, searches
from players.search import Budget, SearchPlayer, Situation

COMPUTER = CATALOG.computers["durak"]
VARIANTS = ("perevodnoy", "refusal", "teams", "blind", "diamonds", "akulina", "believe")
LEVELS = (Level.NORMAL, Level.HARD)
SWEEP_SCALE = 0.005
"""A level's budget shrunk to a few dozen simulated moves: the sweep is about
legality."""
SCALES = {Level.NORMAL: 1.0, Level.HARD: 0.05}
"""The scripted positions' budgets, untimed: the normal level's whole (about
400 simulated moves), a twentieth of the hard level's (about 700): enough for
the scripted positions, the same choice on any machine."""
SWEEP_MOVES = 80
SEARCH_EVERY = 3


def searcher(level: Level, scale: float | None = None) -> SearchPlayer:
    assert searches(COMPUTER, level)
    return search_player(
        COMPUTER, level, scale=SCALES[level] if scale is None else scale, timed=False
    )


def play(game: Durak, seat: int, code: str) -> None:
    action = next(a for a in game.legal_actions(seat) if a.encode() == code)
    game.apply(seat, action)


def chosen(game: Durak, seat: int, level: Level) -> DurakAction:
    action = searcher(level).choose(Situation.of(game, seat), random.Random(7))
    assert action in game.legal_actions(seat)
    return action


def heuristic(game: Durak, seat: int) -> DurakAction:
    legal = game.legal_actions(seat)
    choice = COMPUTER.heuristic.choose(game.rules, game.view(seat), legal, random.Random(1))
    assert isinstance(choice, DurakAction)
    return choice


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("preset", VARIANTS)
def test_each_variant_searches_legal_moves_at_the_level(preset: str, level: Level) -> None:
    rules = PRESETS[preset]
    seats = 4 if rules.teams else 2
    rng = random.Random(f"variant:{preset}:{level}")
    game = Durak.new(rules, seats, rng)
    player = searcher(level, SWEEP_SCALE)
    searched = 0
    for move in range(SWEEP_MOVES):
        actors = sorted(game.to_move())
        if not actors:
            break
        seat = next_seat(game, actors, rng)
        legal = game.legal_actions(seat)
        if move % SEARCH_EVERY == 0 and len(legal) > 1:
            found = player.search(Situation.of(game, seat), rng)
            assert found.action in legal
            assert found.worlds or found.exact
            searched += 1
            action = found.action
        else:
            action = heuristic(game, seat)
        game.apply(seat, action)
    assert searched >= 5


@pytest.mark.parametrize("level", LEVELS)
def test_perevodnoy_variant_search_transfers_one_six_of_two(level: Level) -> None:
    # Clubs are trumps, the stock is gone. Anna leads 6s; transferring with
    # 6h alone (keeping 6d) wins by force; 6d alone, both sixes, covering
    # and taking do not.
    game = Durak.position(
        PRESETS["perevodnoy"], ["Ah 6s 7c Jd", "6h Ad 6d Qc"], attacker=0, trump="c"
    )
    play(game, 0, "a6s")
    assert heuristic(game, 1).encode() != "x6h"
    assert chosen(game, 1, level).encode() == "x6h"


@pytest.mark.parametrize("level", LEVELS)
def test_refusal_variant_search_sends_the_last_card_back(level: Level) -> None:
    # Spades are trumps. Anna plays her last card, 7c: covering it lets her go
    # out; sending it back with 7s makes her take it, and Boris wins.
    game = Durak.position(PRESETS["refusal"], ["7c", "8c 7s 8d 9s"], attacker=0, trump="s")
    play(game, 0, "a7c")
    assert heuristic(game, 1).encode() != "x7s"
    assert chosen(game, 1, level).encode() == "x7s"


@pytest.mark.parametrize("level", LEVELS)
def test_teams_variant_search_wins_for_the_team_when_two_are_left(level: Level) -> None:
    # Diamonds are trumps; Anna's partner and Boris's are out. Leading 8s
    # wins for Anna's team whatever Boris does (covering it with his trump
    # 6d lets her throw 6c in and go out); leading 6c first lets him cover it
    # with 6d and lead clubs she cannot hold.
    game = Durak.position(PRESETS["teams"], ["8s 6c", "7c 8c 6d", "", ""], attacker=0, trump="d")
    assert heuristic(game, 0).encode() != "a8s"
    assert chosen(game, 0, level).encode() == "a8s"


@pytest.mark.parametrize("level", LEVELS)
def test_diamonds_variant_search_keeps_the_spades(level: Level) -> None:
    # Diamonds are trumps and spades are beaten only by higher spades. Leading
    # 7c first wins by force; either spade first lets Boris answer spade with
    # spade, and the game ends in a draw.
    game = Durak.position(PRESETS["diamonds"], ["As 8s 7c", "Qc Ts 7s"], attacker=0, trump="d")
    assert heuristic(game, 0).encode() != "a7c"
    assert chosen(game, 0, level).encode() == "a7c"


@pytest.mark.parametrize("level", LEVELS)
def test_akulina_variant_search_leads_two_clubs_at_once(level: Level) -> None:
    # Diamonds are trumps; an attack is cards of one suit. Both clubs at once
    # win by force; one club (Boris covers it with Ac and leads hearts) or
    # the hearts lose.
    game = Durak.position(PRESETS["akulina"], ["Th 6h 8c 9c", "Kh Ac 9h"], attacker=0, trump="d")
    assert heuristic(game, 0).encode() != "a8c9c"
    assert chosen(game, 0, level).encode() == "a8c9c"


@pytest.mark.parametrize("level", LEVELS)
def test_believe_variant_search_doubts_a_cover_that_cannot_beat(level: Level) -> None:
    # Spades are trumps; Anna led her last card, Ad. Boris holds 6h and 7c,
    # neither of which beats it, so his face-down cover is a bluff in every
    # world Anna can imagine: doubting makes him take, and she is out.
    game = Durak.position(PRESETS["believe"], ["Ad", "6h 7c"], attacker=0, trump="s")
    play(game, 0, "aAd")
    game.apply(1, next(a for a in game.legal_actions(1) if isinstance(a, Cover)))
    assert isinstance(chosen(game, 0, level), Doubt)


@pytest.mark.parametrize("level", LEVELS)
def test_believe_variant_search_doubts_a_cover_it_saw_him_take(level: Level) -> None:
    # Spades are trumps, no stock. Boris took 7h in sight of Anna; she leads
    # her last card, 6c, and he lays 7h face down on it. Three of his four
    # cards would beat 6c, but the one he laid down is the 7h she saw him
    # take: doubting makes him take, and she is out.
    game = Durak.position(PRESETS["believe"], ["7h 6c", "7c 8c 9c"], attacker=0, trump="s")
    play(game, 0, "a7h")
    play(game, 1, "k")
    play(game, 0, "a6c")
    play(game, 1, "f6c7h")
    assert isinstance(chosen(game, 0, level), Doubt)


@pytest.mark.parametrize("level", LEVELS)
def test_believe_variant_search_bluffs_with_its_last_card(level: Level) -> None:
    # Spades are trumps. Anna leads 7c and keeps As. Taking loses by force
    # (the ace follows); covering face down with 6h, a bluff, wins unless
    # Anna doubts it.
    game = Durak.position(PRESETS["believe"], ["7c As", "6h"], attacker=0, trump="s")
    play(game, 0, "a7c")
    action = chosen(game, 1, level)
    assert isinstance(action, Cover)
    assert action.card.code == "6h"


@pytest.mark.parametrize("level", LEVELS)
def test_blind_variant_search_covers_from_the_position_it_knows(level: Level) -> None:
    # Spades are trumps. Boris took Anna's Ks, so everybody (Boris too) knows
    # it lies at his fourth position; his other three cards, whatever their
    # order, cannot beat 9c. Covering from the fourth position is the one
    # cover that holds; any other is shown wrong and he takes.
    game = Durak.position(PRESETS["blind"], ["Ks 9c Td", "6h 6d 7c"], attacker=0, trump="s")
    play(game, 0, "L0")  # Ks
    play(game, 1, "k")
    play(game, 0, "p")
    play(game, 0, "L0")  # 9c
    assert CARD_BY_ORDER[game.in_order(1)[3]].code == "Ks"
    action = chosen(game, 1, level)
    assert isinstance(action, BlindBeat)
    assert action.position == 3


class Ticks:
    """A clock that moves one second each time it is read."""

    def __init__(self) -> None:
        self.now = -1.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def test_akulina_variant_search_drops_a_world_the_time_limit_cuts_short() -> None:
    # Akulina's leads are every set of cards of one suit: a world rolls out
    # a dozen moves here, and more than the level's time on a long deal. The
    # clock reads one second later at each rollout: 1.5 s allow one.
    game = Durak.position(
        PRESETS["akulina"], ["6c 8c 9c Jc Th 6h", "Kh Ac 9h 7d"], attacker=0, trump="d"
    )
    legal = game.legal_actions(0)
    assert len(legal) > 10
    budget = Budget(moves=10**6, seconds=1.5)
    cut = SearchPlayer(COMPUTER.heuristic, budget, clock=Ticks())
    found = cut.search(Situation.of(game, 0), random.Random(3))
    assert found.worlds == 0  # no whole world: the heuristic's choice
    assert found.action == COMPUTER.heuristic.choose(
        game.rules, game.view(0), legal, random.Random(3)
    )
    # With time for one world and a bit, every move kept has the same worlds.
    budget = Budget(moves=10**6, seconds=len(legal) + 3.5)
    valued = SearchPlayer(COMPUTER.heuristic, budget, clock=Ticks()).values(
        Situation.of(game, 0), random.Random(3), legal[0]
    )
    assert {v.worlds for v in valued} == {1}
    assert len(valued) == len(legal)
