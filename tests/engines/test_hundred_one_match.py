"""101: scoring, the ceiling, elimination, rounds, the outcome, views, actions
and persistence; leaving the match and determinize; plus property tests over
whole random matches."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.catalog import CATALOG
from games.cards import Card, deck, parse_cards
from games.core import (
    RESIGN,
    ActionParseError,
    Event,
    IllegalAction,
    Outcome,
    StateFormatError,
    perform,
)
from games.hundred_one import (
    PRESETS,
    SPEC,
    AceMode,
    HundredOne,
    HundredOneRules,
    Master,
    Play,
    Scoring,
)
from games.hundred_one.engine import Phase
from games.hundred_one.state import ROUND_MOVES
from games.hundred_one.views import LastRound, Pending
from screens.hundred_one import HundredOneScreens
from tests.engines.hundred_one_helpers import CLASSIC, act, codes, pos, refused, scores, summary
from tests.engines.playout import cards_in

# ---------------------------------------------------------------- scoring


def test_a_round_ends_when_a_hand_is_empty_and_cards_left_are_counted() -> None:
    game = pos(["8h", "AsKd9cJdTh", "7s6d"], discard="8d")
    events = act(game, 0, "p8h")
    assert [e.kind for e in events] == ["play", "round_over", "round_over", "round_over"]
    assert scores(events) == {0: 0, 1: 11 + 4 + 0 + 2 + 10, 2: 7 + 6}
    shown = {e.seat: e.cards for e in events if e.kind == "round_over"}
    assert shown[1] == tuple(Card.parse(c) for c in ("As", "Kd", "9c", "Jd", "Th"))
    assert all(e.target == 0 for e in events[1:])
    view = game.public_view()
    assert view.phase is Phase.ROUND_OVER
    assert view.totals == (0, 27, 13)
    assert view.last_round == LastRound(
        winner=0,
        penalties=(0, 27, 13),
        doubled=False,
        blocked=False,
        reset=(),
        eliminated=(),
        round=1,
        totals=(0, 27, 13),
    )
    assert view.rounds == (view.last_round,)
    assert view.revealed == ((), tuple(parse_cards("AsKd9cJdTh")), tuple(parse_cards("7s6d")))
    assert game.view(1).revealed == ((), (), tuple(parse_cards("7s6d")))
    assert game.to_move() == {0, 1, 2}
    assert all(z.visible_to is None for z in game.zones() if z.name.startswith("hand"))
    assert set(game.known_cards(0)) == {1, 2}
    assert game.outcome() is None


@pytest.mark.parametrize(("card", "bonus"), [("Qh", -20), ("Qs", -40)])
def test_finishing_on_a_queen_takes_points_off(card: str, bonus: int) -> None:
    game = pos([card, "7c"], discard="7s" if card == "Qh" else "7h", totals=[30, 0])
    events = act(game, 0, "p" + card)
    assert scores(events) == {0: bonus, 1: 7}
    assert game.public_view().totals == (30 + bonus, 7)


def test_a_hand_of_only_queens_scores_twenty_per_queen() -> None:
    game = pos(["8h", "QsQd", "QhAs", "Qc"], discard="8d")
    assert scores(act(game, 0, "p8h")) == {0: 0, 1: 40, 2: 3 + 11, 3: 20}


def test_queen_discard_takes_each_queen_left_in_hand_off_the_points() -> None:
    # Seed 001: «оставшиеся на руках дамы сбрасываются одновременно, при этом
    # за каждую даму списываются очки» — as much as a queen finish: 20, the
    # queen of spades 40.  The rest of the hand counts as usual.
    rules = CLASSIC.replace(queen_discard=True)
    game = pos(["8h", "QsQd", "QhAs", "Qc"], rules, discard="8d", totals=[0, 50, 0, 0])
    assert scores(act(game, 0, "p8h")) == {0: 0, 1: -60, 2: -20 + 11, 3: -20}
    assert game.public_view().totals == (0, -10, -9, -20)


def test_queen_discard_counts_thirty_a_queen_in_pharaoh() -> None:
    rules = PRESETS["pharaoh"].replace(queen_discard=True)
    game = pos(["8h", "QsQd7c"], rules, discard="8d")
    assert scores(act(game, 0, "p8h")) == {0: 0, 1: -60 + 7}


def test_queen_discard_is_an_option_of_the_queen_as_master_only() -> None:
    assert CLASSIC.applies("queen_discard")
    assert not PRESETS["jack"].applies("queen_discard")
    game = pos(["8h", "QsQd"], PRESETS["jack"].replace(queen_discard=True), discard="8d")
    assert scores(act(game, 0, "p8h")) == {0: 0, 1: 6}


def test_a_finishing_card_still_makes_the_next_player_draw() -> None:
    game = pos(["7h", "As"], discard="Th", stock="Kc6d")
    events = act(game, 0, "p7h")
    assert [(e.kind, e.seat, e.value) for e in events[:2]] == [
        ("play", 0, None),
        ("penalty_draw", 1, 2),
    ]
    assert scores(events) == {0: 0, 1: 11 + 4 + 6}


def test_a_finishing_six_draws_but_its_skip_lapses() -> None:
    game = pos(["6h", "As", "7s"], discard="Th", stock="Kc")
    events = act(game, 0, "p6h")
    assert [e.kind for e in events] == ["play", "penalty_draw", *["round_over"] * 3]
    assert scores(events) == {0: 0, 1: 15, 2: 7}


def test_without_finish_draw_the_finishing_card_has_no_effect() -> None:
    game = pos(["7h", "As"], CLASSIC.replace(finish_draw=False), discard="Th", stock="Kc6d")
    events = act(game, 0, "p7h")
    assert [e.kind for e in events] == ["play", "round_over", "round_over"]
    assert scores(events) == {0: 0, 1: 11}


def test_exactly_the_ceiling_resets_the_total_to_zero() -> None:
    game = pos(["8h", "As"], discard="8d", totals=[0, 90])
    events = act(game, 0, "p8h")
    assert ("reset", 1, 0) in [(e.kind, e.seat, e.value) for e in events]
    view = game.public_view()
    assert view.totals == (0, 0)
    assert view.phase is Phase.ROUND_OVER
    assert view.last_round is not None
    assert view.last_round.reset == (1,)


def test_without_the_reset_reaching_the_ceiling_eliminates() -> None:
    rules = CLASSIC.replace(exact_reset=False)
    game = pos(["8h", "As"], rules, discard="8d", totals=[0, 90])
    events = act(game, 0, "p8h")
    assert [e.kind for e in events][-2:] == ["eliminated", "match_over"]
    assert game.public_view().totals == (0, 101)
    assert game.is_over


@pytest.mark.parametrize(("minus_reset", "total"), [(True, 0), (False, -101)])
def test_minus_the_ceiling_resets_only_with_the_option(minus_reset: bool, total: int) -> None:
    rules = CLASSIC.replace(minus_reset=minus_reset)
    game = pos(["Qs", "7c"], rules, discard="7s", totals=[-61, 0])
    act(game, 0, "pQs")
    assert game.public_view().totals == (total, 7)


def test_other_ceilings() -> None:
    game = pos(["8h", "As"], CLASSIC.replace(ceiling=201), discard="8d", totals=[0, 195])
    act(game, 0, "p8h")
    assert game.is_over
    game = pos(["8h", "As"], CLASSIC.replace(ceiling=201), discard="8d", totals=[0, 150])
    act(game, 0, "p8h")
    assert not game.is_over


# ------------------------------------------------------- rounds and match


def test_over_the_ceiling_eliminates_and_the_last_player_left_wins() -> None:
    game = pos(["8h", "As"], discard="8d", totals=[0, 95])
    events = act(game, 0, "p8h")
    assert [(e.kind, e.seat, e.value) for e in events][-2:] == [
        ("eliminated", 1, 106),
        ("match_over", 0, None),
    ]
    assert game.outcome() == Outcome(
        places=((0,), (1,)),
        winners=frozenset({0}),
        losers=frozenset({1}),
        scores=(0, 106),
    )
    assert game.to_move() == frozenset()
    assert game.legal_actions(0) == game.legal_actions(1) == []
    refused(game, 0, "n", "illegal.game_over")
    assert game.public_view().phase is Phase.OVER


def test_play_goes_on_without_the_eliminated_and_the_winner_leads_next() -> None:
    game = pos(["7s", "As", "8h"], discard="8d", totals=[0, 95, 50], turn=2)
    act(game, 2, "p8h")
    view = game.public_view()
    assert view.eliminated == (1,)
    assert view.totals == (7, 106, 50)
    assert game.to_move() == {0, 2}
    assert game.legal_actions(1) == []
    refused(game, 1, "n", "illegal.not_your_turn")
    refused(game, 0, "p7s", "illegal.wrong_phase")
    events = act(game, 0, "n")
    assert [(e.kind, e.seat, e.value) for e in events] == [("deal", 2, 2)]
    view = game.public_view()
    assert view.round == 2
    assert view.leader == 2
    assert game.to_move() == {2}
    assert view.hands == (5, 0, 5)
    assert view.stock == 26
    assert view.discard == 0
    assert view.totals == (7, 106, 50)
    assert view.last_round is not None
    assert view.last_round.winner == 2


def test_places_follow_elimination_order_and_lower_totals_in_one_round() -> None:
    game = pos(
        ["8h", "", "AsAc", "Ah", "Ad"],
        discard="8d",
        totals=[0, 130, 95, 95, 60],
        eliminated={1: 2},
        round_number=4,
    )
    act(game, 0, "p8h")
    assert game.outcome() is None
    assert game.public_view().eliminated == (1, 2, 3)
    assert game.to_move() == {0, 4}
    game = pos(
        ["8h", "", "AsAc", "Ah", "Ad"],
        discard="8d",
        totals=[0, 130, 95, 95, 95],
        eliminated={1: 2},
        round_number=4,
    )
    act(game, 0, "p8h")
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.places == ((0,), (3, 4), (2,), (1,))
    assert outcome.winners == frozenset({0})
    assert outcome.losers == frozenset({1})
    assert outcome.scores == (0, 130, 117, 106, 106)


def test_the_first_leader_is_drawn_from_the_rng_and_later_the_previous_winner() -> None:
    leaders = {
        SPEC.game.new(CLASSIC, 3, random.Random(seed)).public_view().leader for seed in range(40)
    }
    assert leaders == {0, 1, 2}
    previous = Outcome(places=((2,), (0,), (1,)), winners=frozenset({2}), losers=frozenset({1}))
    for seed in range(5):
        game = HundredOne.new(CLASSIC, 3, random.Random(seed), previous=previous)
        assert game.to_move() == {2}


def test_the_deal_gives_each_player_his_cards_and_leaves_a_stock() -> None:
    game = HundredOne.new(CLASSIC, 4, random.Random(3))
    view = game.public_view()
    assert view.hands == (5, 5, 5, 5)
    assert view.stock == 16
    assert view.top is None
    assert view.round == 1


def test_the_dealer_may_turn_up_his_last_card_as_his_play() -> None:
    rules = CLASSIC.replace(dealer_upcard=True)
    for seed in range(10):
        game = HundredOne.new(rules, 3, random.Random(seed))
        view = game.public_view()
        leader = view.leader
        assert view.discard == 1
        assert view.hands[leader] == 4
        assert view.top not in game.view(leader).hand
    game = pos(["8h", "As", "7c"], rules, discard="8d")
    act(game, 0, "p8h")
    events = act(game, 1, "n")
    assert [e.kind for e in events][:2] == ["deal", "play"]
    assert events[1].seat == 0
    assert events[1].cards == (game.public_view().top,)


def _ace_loop(ace: AceMode) -> HundredOne:
    """Two players, the stock empty: seat 0 has just laid the ace of spades
    (the other player misses his turn) and holds the ace of hearts and the
    seven of diamonds; seat 1 holds every other card, the two other aces
    among them.  Seat 0 lays his ace, draws back the one under it (the pile
    turned into a one-card stock), lays it, and so on."""
    mine = {"Ah", "7d", "As"}
    rest = "".join(c.code for c in deck(36) if c.code not in mine)
    return pos(["Ah7d", rest], CLASSIC.replace(ace=ace), discard="As", turn=0)


def _positions(game: HundredOne) -> tuple[str, ...]:
    state = game.dump()
    return (json.dumps(state["hands"]), json.dumps(state["discard"]), str(state["turn"]))


def test_a_round_someone_could_still_change_goes_on_however_often_it_repeats() -> None:
    # The ace makes seat 1 miss his turn unless he answers with an ace.  He
    # holds two and chooses to let the skips pass, again and again: the same
    # positions come back at every renewal of the stock, yet the round is his
    # to change, so it goes on (no "blocked round" decided by repeating).
    game = _ace_loop(AceMode.ANSWER)
    seen: dict[tuple[str, ...], int] = {}
    for _ in range(300):
        (seat,) = game.to_move()
        actions = game.legal_actions(seat)
        if seat == 1:
            assert {a.encode() for a in actions} == {"pAd", "pAc", "x"}
            events = act(game, 1, "x")
        else:
            assert len(actions) == 1  # seat 0 never has a choice here
            events = game.apply(0, actions[0])
        assert "blocked" not in [e.kind for e in events]
        seen[_positions(game)] = seen.get(_positions(game), 0) + 1
    assert game.public_view().phase is Phase.PLAY
    assert max(seen.values()) >= 50
    # Answering with an ace breaks the loop: the choice was real.
    while game.to_move() != {1} or "pAd" not in codes(game, 1):
        (seat,) = game.to_move()
        game.apply(seat, game.legal_actions(seat)[0])
    act(game, 1, "pAd")
    assert game.public_view().top == Card.parse("Ad")


def test_a_round_still_going_round_after_its_moves_is_blocked() -> None:
    # The loop above, seat 1 letting the skips pass for ever: the round is
    # blocked at its ROUND_MOVES-th move, the lowest hand winning it, and the
    # count survives a save and starts again with the next round.
    mine = {"Ah", "7d", "As"}
    rest = "".join(c.code for c in deck(36) if c.code not in mine)
    rules = CLASSIC.replace(ace=AceMode.ANSWER, ceiling=501)
    game = pos(["Ah7d", rest], rules, discard="As", turn=0)
    for moves in range(1, ROUND_MOVES + 1):
        if moves == ROUND_MOVES // 2:
            game = HundredOne.load(json.loads(json.dumps(game.dump())))
        (seat,) = game.to_move()
        events = act(game, 1, "x") if seat == 1 else game.apply(0, game.legal_actions(0)[0])
        if moves < ROUND_MOVES:
            assert game.public_view().phase is Phase.PLAY
    assert [(e.kind, e.value) for e in events if e.kind == "blocked"] == [("blocked", "too_long")]
    view = game.public_view()
    assert view.phase is Phase.ROUND_OVER
    assert view.last_round is not None
    assert (view.last_round.blocked, view.last_round.too_long) == (True, True)
    assert view.last_round.winner == 0  # 7 points against 33 cards
    (sheet,) = HundredOneScreens().announcements("ru", events, view, ["Anna", "Boris"])
    assert f"Кон не кончился за {ROUND_MOVES} ходов" in sheet.text
    act(game, 0, "n")
    assert game.dump()["round_moves"] == 0


def test_a_round_nobody_can_change_is_blocked_and_the_lowest_hand_wins_it() -> None:
    # With "the ace simply skips" seat 1 has nothing to decide, seat 0 always
    # exactly one move, and the one-card stock is the same card each time:
    # the same position comes back with nobody able to change anything.
    game = _ace_loop(AceMode.SKIP)
    start = game.dump()
    events: list[Event] = []
    kinds: list[str] = []
    for _ in range(10):
        (seat,) = game.to_move()
        assert seat == 0
        assert len(game.legal_actions(0)) == 1
        events = game.apply(0, game.legal_actions(0)[0])
        kinds += [e.kind for e in events]
        if game.public_view().phase is not Phase.PLAY:
            break
    assert kinds.count("play") == 3  # Ah, As drawn back, Ah: drawing As again closes the loop
    assert "blocked" in kinds
    ended = {e.seat: e.value for e in events if e.kind == "round_over"}
    assert ended[0] == 0  # 7 points against 33 cards: the lowest hand wins
    assert isinstance(ended[1], int)
    assert ended[1] > 100
    assert all(e.target == 0 for e in events if e.kind == "round_over")
    last = game.public_view().last_round
    assert last is not None
    assert last.blocked is True
    assert start != game.dump()


def test_a_forced_loop_through_a_real_shuffle_is_not_blocked() -> None:
    # The same loop, but with two cards under the top one: each renewal
    # shuffles them, so what comes next is not settled and the round goes on
    # until the shuffle breaks the loop or seat 0 runs out of luck.
    mine = {"Ah", "7d", "As", "Ad"}
    rest = "".join(c.code for c in deck(36) if c.code not in mine)
    game = pos(["Ah7d", rest], CLASSIC.replace(ace=AceMode.SKIP), discard="AdAs", turn=0)
    for _ in range(60):
        if game.public_view().phase is not Phase.PLAY:
            break
        (seat,) = game.to_move()
        events = game.apply(seat, game.legal_actions(seat)[0])
        assert "blocked" not in [e.kind for e in events]


# ------------------------------------------------------------------ views


def test_views_show_only_what_the_seat_may_see() -> None:
    game = pos(["8h7s9cQd", "6s6c", "AhAd"], discard="Th7h")
    public = game.public_view()
    assert set(cards_in(public)) == {Card.parse("7h")}
    assert public.phase is Phase.PLAY
    assert public.to_move == {0}
    assert public.hands == (4, 2, 2)
    assert public.discard == 2
    assert public.stock == 36 - 8 - 2
    assert public.pending is None
    view = game.view(0)
    assert view.seat == 0
    assert view.hand == tuple(parse_cards("7s8h9cQd"))
    assert {view.hand[i] for i in view.playable} == set(parse_cards("7s8hQd"))
    assert game.view(1).playable == ()
    assert set(cards_in(game.view(1))) == {Card.parse(c) for c in ("7h", "6s", "6c")}
    json.dumps(game.view(2).to_json())


def test_the_order_phase_shows_the_pending_effect() -> None:
    rules = CLASSIC.replace(order_skip=True)
    game = pos(["Qd8s", "7c", "9c"], rules, discard="7h")
    act(game, 0, "pQd")
    assert game.public_view().pending == Pending(
        seat=1, draw=0, skip=True, again=False, answer=False
    )


# ---------------------------------------------------------------- actions


def test_action_codes_round_trip() -> None:
    for code in ["pQs", "pTh", "p6c", "p2d", "os", "oc", "od", "oh", "d", "x", "n"]:
        action = HundredOne.decode_action(code)
        assert action.encode() == code
        assert HundredOne.decode_action(action.encode()) == action


@pytest.mark.parametrize(
    "code",
    ["", "p", "pQ", "pQsx", "pX1", "p1s", "o", "oz", "ohh", "D", " d", "n ", "xx", "pqs", "ps"],
)
def test_garbled_action_codes_are_refused(code: str) -> None:
    with pytest.raises(ActionParseError):
        HundredOne.decode_action(code)


def test_an_action_for_a_card_outside_the_deck_is_illegal() -> None:
    game = pos(["8h7s", "6s6c"], discard="7h")
    refused(game, 0, "p2h", "illegal.no_such_card")


# ---------------------------------------------------------- leaving a match


def not_in_game(game: HundredOne, seat: int, reason: str = "illegal.not_in_game") -> None:
    before = game.dump()
    with pytest.raises(IllegalAction) as caught:
        game.resign(seat)
    assert caught.value.reason == reason
    assert game.dump() == before


def test_a_player_who_resigns_on_move_is_out_and_the_turn_passes() -> None:
    game = pos(["8h7s", "6s6c", "Th9d"], discard="7h", totals=[30, 0, 0])
    stock = game.public_view().stock
    events = game.resign(0)
    # One event tells it: the view says he is out.
    assert summary(events) == [("resign", 0, None)]
    assert 0 in game.public_view().eliminated
    assert game.to_move() == {1}
    view = game.public_view()
    assert view.eliminated == (0,)
    assert view.resigned == (0,)
    assert view.hands == (0, 2, 2)
    assert view.stock == stock + 2
    assert view.totals == (30, 0, 0)
    zones = {z.name: z.cards for z in game.zones()}
    assert {c.code for c in zones["stock"][:2]} == {"8h", "7s"}  # face down, under the stock
    assert game.outcome() is None
    not_in_game(game, 0)
    not_in_game(game, 3)
    refused(game, 0, "p8h", "illegal.not_your_turn")
    act(game, 1, "d")  # play goes on without him
    assert 0 not in game.to_move()


def test_a_player_who_resigns_off_move_leaves_the_turn_alone() -> None:
    game = pos(["8h7s", "6s6c", "Th9d"], discard="7h")
    game.resign(2)
    assert game.to_move() == {0}
    act(game, 0, "p8h")
    assert game.to_move() == {1}
    act(game, 1, "d")
    assert game.to_move() <= {0, 1}


def test_an_order_waiting_for_the_resigner_lapses_with_its_skip() -> None:
    rules = CLASSIC.replace(order_skip=True)
    game = pos(["Qd8s", "KdTc", "7c9h", "6h6d"], rules, discard="7h")
    act(game, 0, "pQd")
    pending = game.public_view().pending
    assert pending is not None
    assert pending.seat == 1
    game.resign(1)
    assert game.public_view().pending == Pending(
        seat=2, draw=0, skip=False, again=False, answer=False
    )
    assert summary(act(game, 0, "oc")) == [("order", 0, "c")]
    assert game.to_move() == {2}  # not skipped: the skip was meant for the one who left
    assert codes(game, 2) == {"p7c"}


def test_a_draw_waiting_for_the_resigner_lapses() -> None:
    english = CLASSIC.replace(ace=AceMode.ENGLISH)
    game = pos(["Ah7h8s", "KdTc", "9c9d"], english, discard="Th")
    act(game, 0, "pAh")
    act(game, 0, "p7h")  # the seven of the ace's suit: the next draws two after the order
    pending = game.public_view().pending
    assert pending is not None
    assert pending.draw == 2
    game.resign(1)
    events = act(game, 0, "oc")
    assert [e.kind for e in events] == ["order"]
    assert game.public_view().hands == (1, 0, 2)
    assert game.to_move() == {2}


def test_an_ace_to_answer_lapses_when_its_target_resigns() -> None:
    game = pos(["AhKs", "AsKh", "7c8c"], discard="Th")
    act(game, 0, "pAh")
    game.resign(1)
    view = game.public_view()
    assert view.pending is None
    assert game.to_move() == {2}
    assert codes(game, 2) == {"d"}  # an ordinary turn on the ace: follow it or draw


def test_the_orderer_who_resigns_orders_nothing_and_the_next_plays_on() -> None:
    game = pos(["Qd8s", "KdTcQh", "7c9h"], discard="7h")
    act(game, 0, "pQd")
    assert game.public_view().phase is Phase.ORDER
    game.resign(0)
    view = game.public_view()
    assert view.phase is Phase.PLAY
    assert view.ordered is None
    assert view.pending is None
    assert game.to_move() == {1}
    assert codes(game, 1) == {"pKd", "pQh"}  # on the queen of diamonds, nothing ordered


def test_a_standing_order_is_dropped_when_the_player_on_move_resigns() -> None:
    game = pos(["Qd8s", "TcKh", "7c9h"], discard="7h")
    act(game, 0, "pQd")
    act(game, 0, "os")
    assert game.to_move() == {1}
    game.resign(1)
    assert game.public_view().ordered is None
    assert game.to_move() == {2}


def test_the_last_player_left_wins_the_match() -> None:
    game = pos(["8h7s", "6s6c"], discard="7h", totals=[50, 20])
    events = game.resign(0)
    assert summary(events) == [("resign", 0, None), ("match_over", 1, None)]
    assert game.outcome() == Outcome(
        places=((1,), (0,)),
        winners=frozenset({1}),
        losers=frozenset({0}),
        scores=(50, 20),
    )
    assert game.to_move() == frozenset()
    assert game.public_view().phase is Phase.OVER
    not_in_game(game, 1, "illegal.game_over")


def test_resigning_between_rounds_only_eliminates() -> None:
    game = pos(["8h", "6s6c", "Th9d"], discard="7h")
    act(game, 0, "p8h")
    assert game.public_view().phase is Phase.ROUND_OVER
    revealed = game.public_view().revealed
    events = game.resign(2)
    assert summary(events) == [("resign", 2, None)]
    view = game.public_view()
    assert view.phase is Phase.ROUND_OVER
    assert view.revealed == revealed  # the hands shown for counting stay shown
    assert game.to_move() == {0, 1}
    assert game.waits().keys() == {0, 1}
    act(game, 1, "n")
    assert game.public_view().hands == (5, 5, 0)
    assert game.to_move() == {0}


def test_when_the_rounds_winner_resigns_the_next_player_leads() -> None:
    game = pos(["8h", "6s6c", "Th9d"], discard="7h")
    act(game, 0, "p8h")
    game.resign(0)
    events = act(game, 2, "n")
    assert summary(events)[0] == ("deal", 1, 2)
    assert game.to_move() == {1}
    assert game.public_view().hands == (0, 5, 5)


def test_the_resigner_is_placed_where_an_elimination_then_would_be() -> None:
    game = pos(["8h", "As", "Ad", "7c"], discard="8d", totals=[0, 0, 95, 0])
    game.resign(3)  # during round 1: out before anybody its scoring eliminates
    act(game, 0, "p8h")
    assert game.public_view().eliminated == (3, 2)
    assert game.outcome() is None
    game.resign(1)  # after round 1's scoring: out after those it eliminated
    assert game.public_view().eliminated == (3, 2, 1)
    assert game.public_view().resigned == (3, 1)
    assert game.outcome() == Outcome(
        places=((0,), (1,), (2,), (3,)),
        winners=frozenset({0}),
        losers=frozenset({3}),
        scores=(0, 11, 106, 0),
    )


def test_resigned_players_are_kept_across_dump_and_load() -> None:
    game = pos(["8h7s", "6s6c", "Th9d"], discard="7h")
    game.resign(2)
    dumped = json.loads(json.dumps(game.dump()))
    assert dumped["resigned"] == [[2, False]]
    assert HundredOne.load(dumped).dump() == dumped
    older = dict(dumped)
    del older["resigned"]  # a state stored before players could resign
    assert HundredOne.load(older).public_view().resigned == ()
    for bad in ([[0, False]], [[2, "no"]], [[2, False], [2, True]], [[7, False]], "2"):
        with pytest.raises(StateFormatError):
            HundredOne.load(dumped | {"resigned": bad})


def test_a_resign_in_the_move_log_replays_through_perform() -> None:
    game = HundredOne.new(CLASSIC, 3, random.Random(4))
    log: list[tuple[int, str]] = []
    for _ in range(6):
        seat = min(game.waits())
        code = game.default_action(seat).encode()
        perform(game, seat, code)
        log.append((seat, code))
    seat = max(game.to_move())
    perform(game, seat, RESIGN)
    log.append((seat, RESIGN))
    again = HundredOne.new(CLASSIC, 3, random.Random(4))
    for seat, code in log:
        perform(again, seat, code)
    assert again.dump() == game.dump()


# ------------------------------------------------------------- determinize


def test_determinize_deals_the_other_hands_and_the_stock_anew() -> None:
    game = HundredOne.new(CLASSIC, 3, random.Random(9))
    for _ in range(5):
        seat = min(game.waits())
        perform(game, seat, game.default_action(seat).encode())
    seat = min(game.to_move())
    view = game.view(seat)
    hands = {s: sorted(c.code for c in z.cards) for s, z in enumerate(game.zones()[3:])}
    others = set()
    for k in range(20):
        world = game.determinize(seat, random.Random(100 + k))
        assert world.view(seat) == view
        world_hands = {s: sorted(c.code for c in z.cards) for s, z in enumerate(world.zones()[3:])}
        assert world_hands[seat] == hands[seat]
        assert [len(h) for h in world_hands.values()] == [len(h) for h in hands.values()]
        others.add(tuple(tuple(h) for s, h in world_hands.items() if s != seat))
        assert world.dump()["seed"] != game.dump()["seed"]
        assert HundredOne.load(world.dump()).dump() == world.dump()
    assert len(others) > 10


def test_between_rounds_determinize_deals_only_the_stock_anew() -> None:
    game = pos(["8h", "6s6c", "Th9d"], discard="7h")
    act(game, 0, "p8h")
    zones = {z.name: z.cards for z in game.zones()}
    stocks = set()
    for k in range(10):
        world = game.determinize(1, random.Random(k))
        world_zones = {z.name: z.cards for z in world.zones()}
        assert {n: c for n, c in world_zones.items() if n != "stock"} == {
            n: c for n, c in zones.items() if n != "stock"
        }
        assert sorted(world_zones["stock"]) == sorted(zones["stock"])
        stocks.add(world_zones["stock"])
    assert len(stocks) > 1


# ------------------------------------------------------------ persistence


def test_dump_load_and_clone_round_trip_and_are_independent() -> None:
    game = HundredOne.new(CLASSIC, 3, random.Random(8))
    chooser = random.Random(1)
    for _ in range(25):
        seat = min(game.to_move())
        game.apply(seat, chooser.choice(game.legal_actions(seat)))
    dumped = game.dump()
    assert dumped["game"] == "101"
    assert dumped["format"] == 2
    loaded = HundredOne.load(json.loads(json.dumps(dumped)))
    assert loaded.dump() == dumped
    copy = game.clone()
    seat = min(copy.to_move())
    copy.apply(seat, copy.legal_actions(seat)[0])
    assert game.dump() == dumped
    assert copy.dump() != dumped


@pytest.mark.parametrize(
    "change",
    [
        {"game": "durak"},
        {"format": 3},
        {"phase": "bidding"},
        {"seats": 9},
        {"hands": [["Qs", "Qs"], [], []]},
        {"stock": ["Zz"]},
        {"rules": {"deck": 40}},
        {"totals": [0]},
        {"turn": 7},
        {"answer": "yes"},
        {"seed": "x"},
    ],
)
def test_load_refuses_bad_states(change: dict[str, Any]) -> None:
    data = HundredOne.new(CLASSIC, 3, random.Random(8)).dump() | change
    with pytest.raises(StateFormatError):
        HundredOne.load(data)


def test_a_state_saved_in_format_1_loads_and_plays_on() -> None:
    # Format 1 kept the positions met at renewals of the stock and who laid
    # the top card, and its rules had no queen discard: a table saved by that
    # version goes on as if its last move had been a free choice.
    game = HundredOne.new(CLASSIC, 3, random.Random(8))
    old = game.dump()
    del old["forced"]
    assert isinstance(old["rules"], dict)
    del old["rules"]["queen_discard"]
    old |= {"format": 1, "seen": [123456789], "top_by": 0}
    loaded = HundredOne.load(old)
    assert loaded.dump() == game.dump()
    seat = min(loaded.to_move())
    loaded.apply(seat, loaded.legal_actions(seat)[0])


def test_load_refuses_a_missing_field() -> None:
    data = HundredOne.new(CLASSIC, 3, random.Random(8)).dump()
    del data["stock"]
    with pytest.raises(StateFormatError):
        HundredOne.load(data)


def test_the_game_is_registered() -> None:
    assert CATALOG.specs["101"] is SPEC
    assert SPEC.name_key == "game.101"
    assert list(SPEC.presets) == list(PRESETS)


# ------------------------------------------------- properties of a match

_VALUES = dict(zip("23456789TJQKA", (2, 3, 4, 5, 6, 7, 8, 0, 10, 2, 3, 4, 11), strict=True))
_PENTAGON = dict.fromkeys("23456789", 0) | {"T": 10, "J": 2, "Q": 20, "K": 4, "A": 11}


def expected_points(rules: HundredOneRules, hand: tuple[Card, ...], finish: Card | None) -> int:
    """The penalty of a hand left, written independently of the engine."""
    table = _PENTAGON if rules.scoring is Scoring.PENTAGON else _VALUES
    ranks = [c.code[0] for c in hand]
    if rules.master is Master.QUEEN and all(r == "Q" for r in ranks):
        return len(ranks) * (30 if rules.scoring is Scoring.PHARAOH else 20)
    points = sum(table[r] for r in ranks)
    if rules.master is Master.JACK and finish is not None and finish.code[0] == "J":
        points *= 2
    return points


def expected_bonus(rules: HundredOneRules, finish: Card) -> int:
    if rules.master is not Master.QUEEN or finish.code[0] != "Q":
        return 0
    if rules.scoring is Scoring.PHARAOH:
        return -30
    return -40 if finish.code == "Qs" else -20


def check_match(rules: HundredOneRules, seats: int, seed: int) -> list[int]:
    """Play a random match, checking every round's score; return the winners
    of the rounds that were blocked."""
    blocked_rounds: list[int] = []
    game = HundredOne.new(rules, seats, random.Random(seed))
    chooser = random.Random(seed + 1)
    last_play: Card | None = None
    round_winner: int | None = None
    out: set[int] = set()
    for _ in range(50_000):
        movers = game.to_move()
        if not movers:
            break
        assert not movers & out
        view = game.view(min(movers))
        if view.phase is not Phase.ROUND_OVER:  # eliminated hands are shown until the deal
            assert all(game.hand_size(seat) == 0 for seat in out)
        if view.phase is Phase.PLAY:
            plays = {a.card for a in game.legal_actions(min(movers)) if isinstance(a, Play)}
            playable = {view.hand[i] for i in view.playable}
            assert playable == plays
        totals_before = list(game.public_view().totals)
        seat = chooser.choice(sorted(movers))
        events = game.apply(seat, chooser.choice(game.legal_actions(seat)))
        for event in events:
            if event.kind == "play":
                last_play = event.cards[0]
            if event.kind == "deal":
                assert event.seat == round_winner
        ended = [e for e in events if e.kind == "round_over"]
        if not ended:
            continue
        assert last_play is not None
        winner = ended[0].target
        assert winner is not None
        blocked = any(e.kind == "blocked" for e in events)
        players = {e.seat for e in ended}
        if blocked:
            blocked_rounds.append(winner)
            points = {e.seat: expected_points(rules, e.cards, None) for e in ended}
            low = min(points.values())
            winners = {s for s, p in points.items() if p == low}
            assert winner in winners
            expected = {s: 0 if s in winners else p for s, p in points.items()}
        else:
            assert winner == seat
            assert game.hand_size(winner) == 0
            winners = {winner}
            expected = {
                s: expected_bonus(rules, last_play)
                if s == winner
                else expected_points(rules, e.cards, last_play)
                for e in ended
                for s in (e.seat,)
            }
        assert {e.seat: e.value for e in ended} == expected
        assert players == set(range(seats)) - out
        round_winner = winner
        resets = {e.seat for e in events if e.kind == "reset"}
        gone = {e.seat for e in events if e.kind == "eliminated"}
        totals = game.public_view().totals
        for event in ended:
            s = event.seat
            assert s is not None
            raw = totals_before[s] + int(str(event.value))
            assert totals[s] == (0 if s in resets else raw)
            jack = rules.master is Master.JACK and any(c.code[0] == "J" for c in event.cards)
            over = totals[s] > rules.ceiling or (
                totals[s] == rules.ceiling and not rules.exact_reset
            )
            assert (s in gone) == ((over or jack) and s not in winners)
        out |= {s for s in gone if s is not None}
    else:
        raise AssertionError("the match did not end")
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.winners == {round_winner}
    assert len(out) == seats - 1
    return blocked_rounds


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(sorted(PRESETS)),
    seats=st.integers(min_value=2, max_value=6),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_random_matches_score_every_round_by_the_rules(preset: str, seats: int, seed: int) -> None:
    check_match(PRESETS[preset], seats, seed)


@settings(max_examples=15, deadline=None)
@given(
    deck_size=st.sampled_from([32, 36, 52]),
    hand=st.integers(min_value=3, max_value=6),
    upcard=st.booleans(),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_random_matches_with_other_decks_and_hands(
    deck_size: int, hand: int, upcard: bool, seed: int
) -> None:
    rules = CLASSIC.replace(deck=deck_size, hand=hand, dealer_upcard=upcard)
    seats = SPEC.max_seats(rules)
    check_match(rules, seats, seed)


def test_every_scored_round_is_kept_across_dump_and_load() -> None:
    rng = random.Random(4)
    game = HundredOne.new(HundredOneRules(), 3, rng)
    while game.public_view().round < 3:
        (mover, *_) = sorted(game.to_move())
        game.apply(mover, rng.choice(game.legal_actions(mover)))
    rounds = game.public_view().rounds
    assert [r.round for r in rounds] == [1, 2]
    assert rounds[-1] == game.public_view().last_round
    assert rounds[-1].totals == game.public_view().totals
    dumped = json.loads(json.dumps(game.dump()))
    assert HundredOne.load(dumped).public_view().rounds == rounds
    assert HundredOne.load(dumped).dump() == dumped
    with pytest.raises(StateFormatError):
        HundredOne.load(dumped | {"rounds": [None]})
