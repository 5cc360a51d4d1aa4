"""Daytona: every movement case of RULINGS and seed 000 with a fixed stock,
the track's restrictions over thousands of deals, a race's end and a match's
end (a tie at the top included), the draw limit (scripted, and over hundreds
of seeded races for the presets), saving and refusing."""

from __future__ import annotations

import random
import statistics
from collections import Counter
from typing import Any

import pytest

from bot.catalog import CATALOG
from games.cards import Card, parse_cards, shoe
from games.core import IllegalAction, StateFormatError
from games.daytona import (
    AS_JOKER,
    AS_TWO,
    DRAW,
    FINISHED,
    NEXT,
    PRESETS,
    SPEC,
    TRACK_CARDS,
    Daytona,
    DaytonaRules,
    DrawLimit,
    Phase,
    lay_out,
    moved,
    value,
)
from games.daytona.views import DeuceAs

RULES = DaytonaRules()
# A track whose values run 5 9 3 7 11 4 8 12 1 6 10 13 3 9 (hearts, clubs ...).
TRACK = parse_cards("5h9c3d7cJs4h8dQcAs6hTdKs3c9h")
START = Card.parse("Kh")  # 13


def race(
    stock: str,
    positions: list[int],
    *,
    pits: list[int] | None = None,
    rules: DaytonaRules = RULES,
    pit: str = "Jh",
    start: Card = START,
    scores: list[int] | None = None,
    finished: list[int] | None = None,
    round: int = 1,
) -> Daytona:
    return Daytona.position(
        rules,
        TRACK,
        start,
        Card.parse(pit),
        parse_cards(stock),
        positions=positions,
        pits=pits,
        scores=scores,
        finished=finished,
        round=round,
    )


def draw(game: Daytona, seat: int = 0) -> list[str]:
    return [e.kind for e in game.apply(seat, DRAW)]


def where(game: Daytona) -> list[int]:
    return list(game.public_view().positions)


# ----------------------------------------------------------------- moving


def test_the_first_step_is_onto_the_start_card_within_two() -> None:
    game = race("Qd8s", [0, 0])  # the start/finish card is a king (13)
    assert draw(game) == ["draw", "forward"]
    assert where(game) == [1, 0]
    assert draw(game, 1) == ["draw", "stay"]  # 8 is five from the king
    assert where(game) == [1, 0]


def test_within_two_of_the_card_ahead_goes_forward_suits_never_matter() -> None:
    # Seed 000: the first track card is the 5 of hearts; a 7 of spades takes
    # the car onto it, a 9 of clubs leaves it where it is.
    game = race("7s9c", [1, 1])
    assert draw(game) == ["draw", "forward"]
    assert where(game)[0] == 2
    assert draw(game, 1) == ["draw", "stay"]
    assert where(game)[1] == 1


def test_within_two_of_the_card_it_stands_on_goes_one_back() -> None:
    # Seed 000's example: on the 7 of clubs, the 5 of clubs takes it back.
    game = race("5c", [5, 0])  # position 5 stands on track[3] = 7♣
    assert game.under(5) == Card.parse("7c")
    assert draw(game) == ["draw", "back"]
    assert where(game)[0] == 4


def test_when_forward_and_back_both_fit_back_wins() -> None:
    # On the 3♦ (position 4), the 7♣ ahead: a 5 is within two of both.
    game = race("5s", [4, 0])
    assert draw(game) == ["draw", "back"]
    assert where(game)[0] == 3


def test_with_back_wins_off_forward_wins() -> None:
    game = race("5s", [4, 0], rules=RULES.replace(back_wins=False))
    assert draw(game) == ["draw", "forward"]
    assert where(game)[0] == 5


def test_a_car_never_goes_back_before_the_start_card() -> None:
    game = race("Qs", [1, 0])  # on the king (13), the 5♥ ahead: a queen is 1 from the king
    assert draw(game) == ["draw", "stay"]
    assert where(game)[0] == 1


def test_a_joker_takes_the_car_one_card_forward() -> None:
    game = race("X1", [6, 0])
    assert draw(game) == ["draw", "forward"]
    assert where(game)[0] == 7


def test_a_joker_cannot_take_the_car_over_the_finish() -> None:
    game = race("X2", [15, 0])
    assert draw(game) == ["draw", "stay"]
    assert where(game)[0] == 15


def test_a_deuce_counts_as_two_or_as_a_joker_by_the_players_choice() -> None:
    game = race("2h2d", [10, 10])  # on the ace (1), the 6♥ ahead
    assert draw(game) == ["draw"]
    view = game.public_view()
    assert view.phase is Phase.DEUCE
    assert game.legal_actions(0) == [AS_TWO, AS_JOKER]
    assert game.legal_actions(1) == []
    assert game.default_action(0) is AS_JOKER  # as a 2 it would go back
    assert [e.kind for e in game.apply(0, AS_TWO)] == ["deuce", "back"]
    assert where(game)[0] == 9
    last = game.public_view().last
    assert last is not None
    assert last.counted_as is DeuceAs.TWO
    draw(game, 1)
    assert [e.kind for e in game.apply(1, AS_JOKER)] == ["deuce", "forward"]
    assert where(game)[1] == 11
    last = game.public_view().last
    assert last is not None
    assert last.counted_as is DeuceAs.JOKER


def test_finishing_needs_a_card_within_one_of_the_finish() -> None:
    # On the track's last card (9♥), the king of hearts ahead is the finish:
    # a five is far from both, a queen is one from the king.
    game = race("5dQd", [15, 15])
    assert draw(game) == ["draw", "stay"]
    assert where(game)[0] == 15
    assert draw(game, 1) == ["draw", "forward", "finish", "points", "points"]
    assert where(game)[1] == FINISHED


def test_the_pit_stop_value_misses_the_next_two_turns() -> None:
    game = race("JcAd5d8s3h", [3, 3, 3], pit="Jh")
    assert draw(game) == ["draw", "pit"]
    assert where(game)[0] == 3
    assert game.public_view().pits[0] == 2
    draw(game, 1)
    kinds = draw(game, 2)
    assert (kinds[0], kinds[-1]) == ("draw", "wait")  # seat 0 misses a turn ...
    assert game.to_move() == {1}
    draw(game, 1)
    kinds = draw(game, 2)
    assert kinds[-1] == "wait"  # ... and another
    assert game.public_view().pits[0] == 0
    assert game.to_move() == {1}


def test_drawn_cards_are_shuffled_into_a_new_stock_when_it_runs_out() -> None:
    game = race("", [1, 1])  # the stock is empty: the rest of the shoe is in the drawn pile
    assert game.public_view().stock == 0
    kinds = draw(game)
    assert kinds[:2] == ["reshuffle", "draw"]
    view = game.public_view()
    assert view.drawn == 1
    assert view.stock == 108 - TRACK_CARDS - 3


# --------------------------------------------------------- races and matches


def test_a_race_ends_when_one_car_is_left_and_places_score_ten_five_two_zero() -> None:
    game = race("Qd", [15, 3, FINISHED, 7], finished=[2])
    draw(game)
    view = game.public_view()
    assert view.phase is Phase.DRAW
    assert view.finished == (2, 0)
    game = race("Qd", [15, 3, FINISHED, FINISHED], finished=[3, 2])
    draw(game)
    view = game.public_view()
    assert view.phase is Phase.RACE_OVER
    assert view.race_points == (2, 0, 5, 10)
    assert view.scores == (2, 0, 5, 10)
    assert game.to_move() == {0, 1, 2, 3}
    events = game.apply(1, NEXT)
    assert events[0].kind == "race"
    view = game.public_view()
    assert view.race == 2
    assert view.positions == (0, 0, 0, 0)
    assert view.track != tuple(TRACK)


def test_the_match_ends_at_the_target_and_a_tie_at_the_top_races_again() -> None:
    game = race("Qd", [15, 3], scores=[25, 28])
    kinds = draw(game)
    assert kinds[-1] == "match_over"
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.winners == {0}
    assert outcome.scores == (35, 33)
    tie = race("Qd", [15, 3], scores=[25, 30])
    kinds = draw(tie)
    assert kinds[-1] == "tie"
    assert tie.public_view().phase is Phase.RACE_OVER
    assert tie.outcome() is None


def test_a_player_who_leaves_is_placed_last_and_the_last_one_left_wins() -> None:
    game = race("Qd", [5, 3, 2])
    game.resign(1)
    assert game.to_move() == {0}
    events = game.resign(0)
    assert [e.kind for e in events] == ["resign", "match_over"]
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.winners == {2}
    assert outcome.places[-1] == (0, 1)
    with pytest.raises(IllegalAction):
        game.resign(2)


# ------------------------------------------------------------- the draw limit

LIMITED = DaytonaRules(draw_limit=DrawLimit.DRAWS_120)
# Cards that leave these cars where they are: on card 4 (a 7, the 11 ahead) a
# 4; on card 8 (a 12, the ace ahead) a 6; on card 2 (a 9, the 3 ahead) a king.
STAYS = "4s6s6dKd"


def test_a_limited_race_gives_every_car_its_share_of_the_draws() -> None:
    game = race(STAYS, [5, 9, 9, 3], rules=LIMITED)
    view = game.public_view()
    assert (view.round, view.rounds) == (1, 30)  # 120 draws among four cars
    for seat in range(4):
        draw(game, seat)
    assert game.public_view().round == 2


def test_after_the_last_round_the_cars_nearest_the_finish_win_and_a_dead_heat_shares() -> None:
    game = race(STAYS, [5, 9, 9, 3], rules=LIMITED, round=30)
    for seat in range(3):
        assert draw(game, seat) == ["draw", "stay"]
    assert game.public_view().phase is Phase.DRAW  # the round is not over before the last car
    kinds = draw(game, 3)
    assert kinds == ["draw", "stay", "time_up", "points", "points", "points", "points"]
    view = game.public_view()
    assert view.phase is Phase.RACE_OVER
    # Seats 1 and 2 share the lead on card 8: both first, nobody second; seat 0 third.
    assert view.race_points == (2, 10, 10, 0)
    assert view.round == 30


def test_a_car_home_before_the_limit_keeps_its_place_ahead_of_the_rest() -> None:
    game = race("4s6sKd", [5, 9, FINISHED, 3], rules=LIMITED, round=30, finished=[2])
    draw(game, 0)
    draw(game, 1)
    kinds = draw(game, 3)
    assert "time_up" in kinds
    assert game.public_view().race_points == (2, 5, 10, 0)


def test_a_turn_missed_in_the_pit_counts_towards_the_limit() -> None:
    game = race("4s", [5, 9], rules=LIMITED, round=60, pits=[0, 1])
    assert draw(game, 0) == ["draw", "stay", "wait", "time_up", "points", "points"]
    assert game.public_view().race_points == (5, 10)


def test_without_a_limit_the_rounds_are_counted_but_never_end_the_race() -> None:
    game = race(STAYS, [5, 9, 9, 3], round=10**6)
    for seat in range(4):
        draw(game, seat)
    view = game.public_view()
    assert (view.phase, view.rounds, view.round) == (Phase.DRAW, 0, 10**6 + 1)


def _race_draws(rules: DaytonaRules, seats: int, seed: int) -> int:
    """Draws one race takes, every player drawing and choosing as the turn
    timer would for him."""
    game = Daytona.new(rules, seats, random.Random(seed))
    draws = 0
    while game.public_view().phase in (Phase.DRAW, Phase.DEUCE):
        (seat,) = game.to_move()
        draws += sum(e.kind == "draw" for e in game.apply(seat, game.default_action(seat)))
    return draws


def test_the_default_sprint_race_takes_fewer_than_150_draws_on_average() -> None:
    """The issue's measure of a race a group finishes in an evening: 200
    seeded races of two, three and four cars."""
    assert SPEC.default_preset == "sprint"
    rules = PRESETS[SPEC.default_preset]
    draws = [_race_draws(rules, 2 + seed % 3, seed) for seed in range(200)]
    assert statistics.mean(draws) < 150
    assert max(draws) <= rules.draw_limit.draws == 120


def test_a_classic_race_always_ends_within_its_limit() -> None:
    rules = PRESETS["classic"]
    assert rules.back_wins
    draws = [_race_draws(rules, 2 + seed % 3, seed) for seed in range(60)]
    assert max(draws) <= rules.draw_limit.draws == 300


def test_rules_saved_before_the_limit_load_without_one() -> None:
    rules = DaytonaRules.from_json({"target": 30, "back_wins": False})
    assert rules.draw_limit is DrawLimit.NONE
    assert SPEC.preset_name(rules) is None  # no longer the sprint preset, but the same game
    assert DaytonaRules.from_json(PRESETS["sprint"].to_json()) == PRESETS["sprint"]


# ------------------------------------------------------------------ track


@pytest.mark.parametrize("chunk", range(4))
def test_every_track_keeps_the_layout_rules(chunk: int) -> None:
    for seed in range(chunk * 750, (chunk + 1) * 750):
        cards = shoe()
        random.Random(seed).shuffle(cards)
        before = Counter(cards)
        back_wins = seed % 2 == 0
        layout = lay_out(cards, back_wins=back_wins)
        if layout is None:
            continue
        track, start, pit = layout.track, layout.start, layout.pit
        assert len(track) == TRACK_CARDS
        laid = [*track, start]
        values = [value(c) for c in laid]
        assert all(not c.is_joker and c.code[0] != "2" for c in [*laid, pit])
        assert max(Counter(values).values()) <= 2
        loop = [value(c) for c in track]
        assert all(loop[i] != loop[i - 1] for i in range(TRACK_CARDS))  # closed loop
        assert value(start) != loop[0]
        assert abs(value(start) - loop[-1]) >= 2
        assert value(pit) not in values
        passing = {
            drawn
            for drawn in range(1, 14)
            if moved(loop, value(start), TRACK_CARDS + 1, drawn, back_wins=back_wins) == FINISHED
        }
        assert passing - {value(pit)}  # a car on the last card can finish
        assert Counter([*cards, *laid, pit]) == before


@pytest.mark.parametrize(("last", "start"), [("3c", "As"), ("Jc", "Ks")])
def test_where_back_wins_no_finish_card_is_laid_that_no_card_can_pass(
    last: str, start: str
) -> None:
    """An ace after a 3 is passed only by an ace or a deuce (within one of
    the ace), and back wins for both (within two of the 3); a king after a
    jack likewise.  Where back wins, such a card goes under the stock."""
    track = parse_cards(f"5h9c3d7cJs4h8dQcAs5dTdKs9h{last}")  # no sixes: the pit stop's
    turned = [*track, Card.parse(start), Card.parse("7h"), Card.parse("6s")]
    for back_wins, laid in ((True, "7h"), (False, start)):
        stock = [Card.parse("8h"), *reversed(turned)]  # the last card is the top
        layout = lay_out(stock, back_wins=back_wins)
        assert layout is not None
        assert layout.track == track
        assert layout.start == Card.parse(laid)


def test_where_back_wins_the_one_card_that_passes_the_finish_is_not_the_pit_stop() -> None:
    """A 9 after a 7 is passed only by a 10 where back wins (an 8 or a 9 is
    within two of the 7), so the 10 cannot be the pit stop, which a car
    drawing it waits at."""
    track = parse_cards("5h9c3d7cJs4h8dQcAs5d3hKs4c7d")  # neither a 6 nor a 10
    turned = [*track, Card.parse("9d"), Card.parse("Th"), Card.parse("6s")]
    for back_wins, pit in ((True, "6s"), (False, "Th")):
        layout = lay_out([Card.parse("8h"), *reversed(turned)], back_wins=back_wins)
        assert layout is not None
        assert layout.start == Card.parse("9d")
        assert layout.pit == Card.parse(pit)


def test_races_where_back_wins_end_without_a_draw_limit() -> None:
    rules = DaytonaRules(back_wins=True, draw_limit=DrawLimit.NONE, target=10)
    player = CATALOG.computers["daytona"].heuristic
    draws = []
    for seed in range(120):
        game = Daytona.new(rules, 2, random.Random(seed))
        rng = random.Random(seed)
        moves = 0
        while (seats := game.to_move()) and moves < 100_000:
            seat = min(seats)
            action = player.choose(rules, game.view(seat), game.legal_actions(seat), rng)
            game.apply(seat, Daytona.decode_action(action.encode()))
            moves += 1
        assert game.is_over, seed
        draws.append(moves)
    assert statistics.median(draws) < 2_000


def test_a_match_always_lays_a_track_with_a_pit_stop() -> None:
    for seed in range(300):
        view = Daytona.new(RULES, 2, random.Random(seed)).public_view()
        assert value(view.pit) not in {value(c) for c in [*view.track, view.start]}


# ------------------------------------------------------------ the contract


def test_only_the_seat_on_move_draws_and_refusals_change_nothing() -> None:
    game = race("5s7d", [1, 1])
    before = game.dump()
    for seat, action, reason in (
        (1, DRAW, "illegal.not_your_turn"),
        (0, AS_TWO, "illegal.wrong_phase"),
        (0, NEXT, "illegal.wrong_phase"),
        (7, DRAW, "illegal.not_your_turn"),
    ):
        with pytest.raises(IllegalAction) as info:
            game.apply(seat, action)
        assert info.value.reason == reason
        assert game.dump() == before


def test_dump_load_round_trip_and_bad_states_are_refused() -> None:
    game = Daytona.new(RULES, 3, random.Random(4))
    for _ in range(40):
        (seat,) = sorted(game.to_move())[:1]
        game.apply(seat, game.default_action(seat))
    data = game.dump()
    assert Daytona.load(data).dump() == data
    # A game saved before the draw limit (format 1) loads with no limit.
    old = {k: v for k, v in data.items() if k not in ("round", "rounds")} | {"format": 1}
    assert Daytona.load(old).dump() == data | {"round": 1, "rounds": 0}
    limited = Daytona.new(PRESETS["sprint"], 3, random.Random(4)).dump()
    bad: list[dict[str, Any]] = [
        {"format": 3},
        {"seats": 5},
        {"positions": [0, 0, 17]},
        {"stock": data["stock"][:-1]},
        {"phase": "pit"},
        {"rules": {"target": 40}},
        {"rules": {"draw_limit": "100"}},
        {"round": 0},
    ]
    for change in bad:
        with pytest.raises(StateFormatError):
            Daytona.load(data | change)
    for change in ({"rounds": 41}, {"round": 41}):
        with pytest.raises(StateFormatError):
            Daytona.load(limited | change)
    assert Daytona.load(limited).dump() == limited


def test_the_game_is_registered_without_private_hands() -> None:
    assert CATALOG.specs["daytona"] is SPEC
    assert SPEC.private_hands is False
    assert all(a.place.value == "table" for a in (DRAW, AS_TWO, AS_JOKER, NEXT))
