"""The analysis finds the known mistake in scripted positions of Durak, 101 and
Joker (and calls the best move no mistake), never reads a card the player
could not see, and measures the luck of a deal by self-play.

The searches are seeded and sized in simulated moves with no time limit that
could strike first, so each answer is the same on any machine."""

from __future__ import annotations

import random
from typing import Any

from bot.catalog import CATALOG
from games.core import Game
from games.durak import PRESETS as DURAK
from games.durak import Durak
from games.hundred_one import PRESETS as HUNDRED_ONE
from games.hundred_one import HundredOne
from games.joker import Joker, JokerRules
from players.analysis import Assessment, assess, assess_request, assessed, luck, luck_request

UNHURRIED = 600.0
"""The time limit the tests give a search: far beyond its move budget, so that
the budget alone decides (a loaded machine gives the same answer)."""


def analysis_of(
    game: Game[Any, Any, Any, Any], seat: int, played: str, key: str, seconds: float
) -> Assessment:
    request = assess_request(game, seat, played, CATALOG.computers[key], seconds, seed=1)
    request["seconds"] = UNHURRIED
    return assessed(assess(request))


def test_analysis_finds_the_durak_lead_that_throws_away_a_forced_win() -> None:
    # Spades are trumps and the stock is gone.  Leading the ace of trumps makes
    # Boris take it, and 6h then gets Anna out; leading 6h lets him cover with
    # 7h and lead 8c onto the ace: a draw.
    game = Durak.position(DURAK["podkidnoy"], ["6h As", "7h 8c"], attacker=0, trump="s")
    mistake = analysis_of(game, 0, "a6h", "durak", 0.3)
    assert mistake.significant
    assert mistake.best == "aAs"
    assert (mistake.played_value, mistake.best_value) == (0.5, 1.0)
    assert not analysis_of(game, 0, "aAs", "durak", 0.3).significant


def test_analysis_out_of_time_before_one_world_calls_the_move_no_mistake() -> None:
    """A busy machine: the search's time runs out before any move was valued in
    a whole world.  The decision is not assessed (no guess, and no
    StopIteration, which a worker's future cannot carry back)."""
    game = Durak.position(DURAK["podkidnoy"], ["6h As", "7h 8c"], attacker=0, trump="s")
    request = assess_request(game, 0, "a6h", CATALOG.computers["durak"], 0.3, seed=1)
    request["seconds"] = 0.0
    found = assessed(assess(request))
    assert not found.significant
    assert (found.played, found.best) == ("a6h", "a6h")


def test_analysis_finds_the_101_ten_played_instead_of_the_six_that_hits() -> None:
    # Boris holds one card: Anna's 6c makes him draw, her 10c lets him go out.
    game = HundredOne.position(HUNDRED_ONE["classic"], ["6cTc8h", "7d"], discard="9c")
    mistake = analysis_of(game, 0, "pTc", "101", 1.0)
    assert mistake.significant
    assert mistake.best == "p6c"
    assert mistake.in_points
    assert mistake.cost >= 3  # points of the round, ahead of Boris
    assert not analysis_of(game, 0, "p6c", "101", 1.0).significant


def test_analysis_finds_the_joker_bid_that_undersells_four_sure_tricks() -> None:
    # The joker, the two top trumps and the ace of spades: every trick is hers.
    game = Joker.position(
        JokerRules(),
        ["X1 Ah Kh As", "7s 8s 9s 7c", "Ts Js Qs 8c", "9c Tc Jc Qc"],
        trump="h",
        dealer=3,
    )
    mistake = analysis_of(game, 0, "b1", "joker", 0.5)
    assert mistake.significant
    assert mistake.best == "b4"
    assert mistake.cost > 100
    assert not analysis_of(game, 0, "b4", "joker", 0.5).significant


def test_analysis_never_reads_a_card_the_player_could_not_see() -> None:
    """Two games that differ only in cards hidden from Anna get the same
    analysis: it works from her knowledge alone."""
    real = Durak.new(DURAK["podkidnoy"], 2, random.Random(3))
    (mover,) = real.to_move()
    other = real.determinize(mover, random.Random(11))
    assert other.dump() != real.dump()
    played = real.legal_actions(mover)[-1].encode()
    assert analysis_of(real, mover, played, "durak", 0.1) == analysis_of(
        other, mover, played, "durak", 0.1
    )


def test_analysis_luck_sets_the_players_deal_against_the_tables() -> None:
    # Anna holds every trump of a two-player deal from the top: her seat wins
    # whatever the heuristic does with Boris's.
    game = Durak.position(
        DURAK["podkidnoy"], ["As Ks Qs Js Ts 9s", "6h 7h 8c 9d Td 6c"], attacker=1, trump="s"
    )
    computer = CATALOG.computers["durak"]
    values = luck(luck_request(game, computer, playouts=4, seed=1))
    assert values == [1.0, 0.0]
    # The same hands the other way round: the value follows the cards to
    # Boris's seat, so the lucky seat reads a high figure, never the low one.
    swapped = Durak.position(
        DURAK["podkidnoy"], ["6h 7h 8c 9d Td 6c", "As Ks Qs Js Ts 9s"], attacker=0, trump="s"
    )
    assert luck(luck_request(swapped, computer, playouts=4, seed=1)) == [0.0, 1.0]


def test_a_self_play_that_never_ends_counts_as_even_in_the_luck() -> None:
    """Akulina's heuristic can pass the same cards round for ever (a stock of
    three that no refill reaches, every attack taken); a self-play of the
    luck still going at its cap was valued by points Durak does not keep,
    the analysis raised in its worker, and the player promised it was sent
    nothing.  As in the search, such a self-play counts as even."""
    dealt = Durak.new(DURAK["akulina"], 3, random.Random(2))
    values = luck(luck_request(dealt, CATALOG.computers["durak"], playouts=1, seed=2))
    assert values == [0.5, 0.5, 0.5]
