"""101: scripted positions for following, the queen's order, drawing and every
special card with each of its options; what a turn timer waits on and plays."""

from __future__ import annotations

import pytest

from games.cards import Card, Suit, deck, parse_cards
from games.core import IllegalAction, Place, Wait
from games.hundred_one import (
    AceMode,
    DrawMode,
    HundredOne,
    NineMode,
)
from games.hundred_one.engine import Phase
from games.hundred_one.views import Pending
from tests.engines.hundred_one_helpers import CLASSIC, act, codes, pos, refused, summary


def hand(game: HundredOne, seat: int) -> list[str]:
    return [card.code for card in game.view(seat).hand]


# --------------------------------------------------------------- following


def test_a_card_follows_by_suit_or_rank_and_the_queen_goes_on_anything() -> None:
    game = pos(["8h7s9cQd", "6s6c"], discard="7h")
    assert codes(game, 0) == {"p8h", "p7s", "pQd"}
    refused(game, 0, "p9c", "illegal.card_does_not_fit")
    refused(game, 0, "pAs", "illegal.no_such_card")
    refused(game, 1, "p6s", "illegal.not_your_turn")
    refused(game, 0, "d", "illegal.must_play")
    refused(game, 0, "x", "illegal.cannot_pass")
    refused(game, 0, "oh", "illegal.wrong_phase")
    refused(game, 0, "n", "illegal.wrong_phase")


def test_the_first_card_of_a_round_may_be_anything() -> None:
    game = pos(["8h7s9c", "6s6c"])
    assert codes(game, 0) == {"p8h", "p7s", "p9c"}


def test_a_plain_card_passes_the_turn_to_the_next_seat_clockwise() -> None:
    game = pos(["8h7s", "6s6c", "Th"], discard="7h")
    assert summary(act(game, 0, "p8h")) == [("play", 0, None)]
    assert game.to_move() == {1}
    assert game.public_view().top == Card.parse("8h")


# ------------------------------------------------------------------ queen


def test_the_queen_orders_a_suit_that_the_next_player_must_follow() -> None:
    game = pos(["Qd8s", "KdTcQh", "7c9h"], discard="7h")
    events = act(game, 0, "pQd")
    assert summary(events) == [("play", 0, None)]
    assert events[0].cards == (Card.parse("Qd"),)
    view = game.public_view()
    assert view.phase is Phase.ORDER
    assert game.to_move() == {0}
    assert codes(game, 0) == {"os", "oc", "od", "oh"}
    assert game.legal_actions(1) == []
    refused(game, 0, "p8s", "illegal.wrong_phase")
    assert summary(act(game, 0, "oc")) == [("order", 0, "c")]
    assert game.public_view().ordered is Suit.CLUBS
    assert game.to_move() == {1}
    # the king of diamonds follows the queen's suit, but clubs were ordered
    refused(game, 1, "pKd", "illegal.card_does_not_fit")
    assert codes(game, 1) == {"pTc", "pQh"}
    act(game, 1, "pTc")
    assert game.public_view().ordered is None
    assert codes(game, 2) == {"p7c"}


def test_a_queen_may_order_its_own_suit_and_may_go_on_an_ordered_queen() -> None:
    game = pos(["Qd8s", "QhTc", "7c9h"], discard="7h")
    act(game, 0, "pQd")
    act(game, 0, "od")
    assert codes(game, 1) == {"pQh"}
    act(game, 1, "pQh")
    act(game, 1, "os")
    assert game.public_view().ordered is Suit.SPADES


def test_the_order_holds_while_players_draw_and_pass() -> None:
    rules = CLASSIC.replace(draw=DrawMode.ONE)
    game = pos(["Qd8s", "Kd9h", "7c9c"], rules, discard="7h", stock="8d")
    act(game, 0, "pQd")
    act(game, 0, "oc")
    assert summary(act(game, 1, "d")) == [("draw", 1, 1), ("pass", 1, None)]
    assert game.public_view().ordered is Suit.CLUBS
    assert codes(game, 2) == {"p7c", "p9c"}


# --------------------------------------------------------------- drawing


def test_draw_until_a_playable_card_comes_then_play_it() -> None:
    game = pos(["6s7c", "8s"], discard="Kh", stock="8c9dTsJh")
    assert codes(game, 0) == {"d"}
    assert summary(act(game, 0, "d")) == [("draw", 0, 4)]
    assert game.to_move() == {0}
    assert codes(game, 0) == {"pJh"}
    refused(game, 0, "d", "illegal.must_play")
    refused(game, 0, "x", "illegal.cannot_pass")
    assert sorted(hand(game, 0)) == sorted(["6s", "7c", "8c", "9d", "Ts", "Jh"])
    assert game.public_view().stock == 36 - 2 - 1 - 1 - 4


def test_draw_until_the_stock_is_exhausted_then_the_turn_passes() -> None:
    rest = [c.code for c in deck(36) if c.code not in {"Kh", "6s", "7c", "8c", "9d"}]
    game = pos(["6s7c", "".join(rest)], discard="Kh", stock="8c9d")
    assert summary(act(game, 0, "d")) == [("draw", 0, 2), ("pass", 0, None)]
    assert game.to_move() == {1}
    assert game.public_view().stock == 0


def test_pass_when_nothing_fits_and_nothing_can_be_drawn() -> None:
    rest = [c.code for c in deck(36) if c.code not in {"Kh", "6s", "7c"}]
    game = pos(["6s7c", "".join(rest)], discard="Kh")
    assert codes(game, 0) == {"x"}
    refused(game, 0, "d", "illegal.nothing_to_draw")
    assert summary(act(game, 0, "x")) == [("pass", 0, None)]
    assert game.to_move() == {1}


def test_draw_one_then_pass_when_it_does_not_fit() -> None:
    rules = CLASSIC.replace(draw=DrawMode.ONE)
    game = pos(["6s7c", "8s", "9s"], rules, discard="Kh", stock="8c9dJh")
    assert summary(act(game, 0, "d")) == [("draw", 0, 1), ("pass", 0, None)]
    assert game.to_move() == {1}
    assert len(hand(game, 0)) == 3


def test_draw_one_must_play_the_card_when_it_fits() -> None:
    rules = CLASSIC.replace(draw=DrawMode.ONE)
    game = pos(["6s7c", "8s"], rules, discard="Kh", stock="Jh8c")
    assert summary(act(game, 0, "d")) == [("draw", 0, 1)]
    assert codes(game, 0) == {"pJh"}


def test_the_six_still_makes_draw_one_in_draw_one_mode() -> None:
    rules = CLASSIC.replace(draw=DrawMode.ONE)
    game = pos(["6h8s", "7c", "9c"], rules, discard="Th", stock="KcJd")
    assert summary(act(game, 0, "p6h")) == [
        ("play", 0, None),
        ("penalty_draw", 1, 1),
        ("skip", 1, None),
    ]


def test_an_empty_stock_is_renewed_from_the_discard_pile_but_its_top_card() -> None:
    game = pos(["6s7c", "8s"], discard="Kh", stock="", rest="discard")
    pile = game.public_view().discard
    assert game.public_view().stock == 0
    events = act(game, 0, "d")
    assert events[0].kind == "reshuffle"
    assert events[0].value == pile - 1
    assert events[-1].kind == "draw"
    view = game.public_view()
    assert view.top == Card.parse("Kh")
    assert view.discard == 1
    drawn = events[-1].value
    assert isinstance(drawn, int)
    assert view.stock == pile - 1 - drawn
    assert len(hand(game, 0)) == 2 + drawn
    # the last drawn card is the one that fits, and only it
    assert len(codes(game, 0)) == 1


def test_the_reshuffle_is_seeded_and_replays_identically() -> None:
    def stock_after(seed: int) -> list[str]:
        game = pos(["6s7c", "8s"], discard="Kh", rest="discard", seed=seed)
        act(game, 0, "d")
        return [str(code) for code in game.dump()["stock"]]

    assert stock_after(1) == stock_after(1)
    assert len({tuple(stock_after(s)) for s in range(5)}) > 1


def test_the_pile_is_turned_for_a_player_whose_own_card_is_on_top() -> None:
    # RULINGS: when the stock runs out the pile but its top card becomes the
    # new stock, whoever draws.  Here seat 0 draws back the nine of clubs under
    # his own nine of hearts, lays it (it fits, he moves again), draws back the
    # nine of hearts ... with no choice at any step: the round is blocked once
    # the position comes back (see the blocked-round tests).
    mine = "9h6s7s8sTsJsKsAs6d7d8dTdJdKdAd"
    used = {mine[i : i + 2] for i in range(0, len(mine), 2)} | {"9c"}
    rest = "".join(c.code for c in deck(36) if c.code not in used)
    game = pos([mine, rest], discard="9c")
    assert summary(act(game, 0, "p9h")) == [("play", 0, None), ("again", 0, None)]
    assert game.public_view().discard == 2
    assert codes(game, 0) == {"d"}
    assert summary(act(game, 0, "d")) == [("reshuffle", None, 1), ("draw", 0, 1)]
    assert codes(game, 0) == {"p9c"}
    act(game, 0, "p9c")
    act(game, 0, "d")
    act(game, 0, "p9h")
    events = act(game, 0, "d")  # the same position, met when the pile is turned again
    assert [e.kind for e in events][:3] == ["reshuffle", "draw", "blocked"]
    assert game.public_view().phase is Phase.OVER  # seat 1's cards put him over 101


def test_penalty_draws_renew_the_stock_too() -> None:
    game = pos(["7h8s", "9c", "Tc"], discard="Th", stock="Kc", rest="discard")
    events = act(game, 0, "p7h")
    assert [e.kind for e in events] == ["play", "reshuffle", "penalty_draw"]
    assert events[-1].value == 2
    assert len(hand(game, 1)) == 3


def test_a_penalty_draw_stops_when_nothing_is_left() -> None:
    rest = [c.code for c in deck(36) if c.code not in {"Ts", "Ks", "8s", "9c"}]
    game = pos(["Ks8s", "9c", "".join(rest)], discard="Ts")
    # only the ten of spades, under the king, can be turned into a new stock
    assert summary(act(game, 0, "pKs")) == [
        ("play", 0, None),
        ("reshuffle", None, 1),
        ("penalty_draw", 1, 1),
        ("skip", 1, None),
    ]
    assert sorted(hand(game, 1)) == ["9c", "Ts"]


# ---------------------------------------------------------- special cards


def test_six_next_draws_one_and_misses_his_turn() -> None:
    game = pos(["6h8s", "7c", "8hKs"], discard="Th", stock="Kc")
    assert summary(act(game, 0, "p6h")) == [
        ("play", 0, None),
        ("penalty_draw", 1, 1),
        ("skip", 1, None),
    ]
    assert sorted(hand(game, 1)) == ["7c", "Kc"]
    assert game.to_move() == {2}
    # the effect applies once: the next player just follows the six
    assert summary(act(game, 2, "p8h")) == [("play", 2, None)]
    assert game.to_move() == {0}
    assert len(hand(game, 1)) == 2


def test_six_with_two_players_keeps_the_turn() -> None:
    game = pos(["6h8s", "7c9d"], discard="Th", stock="Kc")
    act(game, 0, "p6h")
    assert game.to_move() == {0}
    assert len(hand(game, 1)) == 3


def test_seven_next_draws_two_and_keeps_his_turn() -> None:
    game = pos(["7h8s", "9c", "Tc"], discard="Th", stock="KcJd")
    assert summary(act(game, 0, "p7h")) == [("play", 0, None), ("penalty_draw", 1, 2)]
    assert game.to_move() == {1}
    assert sorted(hand(game, 1)) == ["9c", "Jd", "Kc"]


@pytest.mark.parametrize(
    ("mode", "events", "to_move", "drawn"),
    [
        (NineMode.AGAIN, [("play", 0, None), ("again", 0, None)], 0, 0),
        (NineMode.OFF, [("play", 0, None)], 1, 0),
        (NineMode.DRAW, [("play", 0, None), ("penalty_draw", 1, 1)], 1, 1),
    ],
)
def test_nine_modes(
    mode: NineMode, events: list[tuple[str, int, int | None]], to_move: int, drawn: int
) -> None:
    game = pos(["9hKs8c", "7c", "Tc"], CLASSIC.replace(nine=mode), discard="Th", stock="Jd")
    assert summary(act(game, 0, "p9h")) == events
    assert game.to_move() == {to_move}
    assert len(hand(game, 1)) == 1 + drawn


def test_nine_again_must_follow_the_nine_or_draw() -> None:
    game = pos(["9h8c", "7c"], discard="Th", stock="Js")
    act(game, 0, "p9h")
    assert codes(game, 0) == {"d"}


def test_ace_skips_unless_answered_with_an_ace() -> None:
    game = pos(["AhKs", "AsKh", "7c8c"], discard="Th")
    act(game, 0, "pAh")
    assert game.to_move() == {1}
    assert game.public_view().pending == Pending(
        seat=1, draw=0, skip=True, again=False, answer=True
    )
    assert codes(game, 1) == {"pAs", "x"}
    refused(game, 1, "pKh", "illegal.card_does_not_fit")
    refused(game, 1, "d", "illegal.must_play")
    skipped = game.clone()
    assert summary(act(skipped, 1, "x")) == [("skip", 1, None)]
    assert skipped.to_move() == {2}
    assert skipped.public_view().pending is None
    # answered: the new ace hits the next player, who has no ace
    act(game, 1, "pAs")
    assert game.to_move() == {2}
    assert codes(game, 2) == {"x"}
    act(game, 2, "x")
    assert game.to_move() == {0}
    assert codes(game, 0) == {"pKs"}


def test_a_player_may_decline_to_answer_though_he_holds_an_ace() -> None:
    game = pos(["AhKs", "AsKh", "7c8c"], discard="Th")
    act(game, 0, "pAh")
    act(game, 1, "x")
    assert sorted(hand(game, 1)) == ["As", "Kh"]


def test_ace_simply_skips_in_skip_mode() -> None:
    game = pos(["AhKs", "AsKh", "7h8c"], CLASSIC.replace(ace=AceMode.SKIP), discard="Th")
    assert summary(act(game, 0, "pAh")) == [("play", 0, None), ("skip", 1, None)]
    assert game.to_move() == {2}


@pytest.mark.parametrize("count", [4, 6])
def test_king_of_spades_next_draws_four_or_six_and_misses_his_turn(count: int) -> None:
    game = pos(["KsTh", "7c", "8c"], CLASSIC.replace(king_spades=count), discard="Ts")
    assert summary(act(game, 0, "pKs")) == [
        ("play", 0, None),
        ("penalty_draw", 1, count),
        ("skip", 1, None),
    ]
    assert len(hand(game, 1)) == 1 + count
    assert game.to_move() == {2}


def test_king_of_hearts_is_plain_without_the_crocodile() -> None:
    game = pos(["KhTs", "7c", "8c"], discard="Th")
    assert summary(act(game, 0, "pKh")) == [("play", 0, None)]
    assert game.to_move() == {1}


def test_king_of_hearts_draws_five_and_skips_with_the_crocodile() -> None:
    game = pos(["KhTs", "7c", "8c"], CLASSIC.replace(crocodile=True), discard="Th")
    assert summary(act(game, 0, "pKh")) == [
        ("play", 0, None),
        ("penalty_draw", 1, 5),
        ("skip", 1, None),
    ]
    assert game.to_move() == {2}


def test_special_card_effects_skip_eliminated_seats() -> None:
    game = pos(["6h8s", "", "7c", "9d"], discard="Th", eliminated={1: 1})
    act(game, 0, "p6h")
    assert len(hand(game, 1)) == 0
    assert len(hand(game, 2)) == 2
    assert game.to_move() == {3}


def test_the_position_builder_refuses_bad_card_sets() -> None:
    with pytest.raises(ValueError, match="twice"):
        pos(["6h6h", "7c"])
    with pytest.raises(ValueError, match="deck"):
        pos(["2h", "7c"])
    with pytest.raises(ValueError, match="eliminated"):
        pos(["6h", "7c"], eliminated={1: 1})
    game = pos(["6h", "7c"], stock="8c")
    cards = [c for z in game.zones() for c in z.cards]
    assert sorted(cards) == sorted(deck(36))
    assert parse_cards("8c")[0] is game.zones()[0].cards[-1]


# ------------------------------------------------------------- turn timers


def test_the_seat_on_move_decides_and_between_rounds_everybody_consents() -> None:
    game = pos(["8h7s", "6s6c", "Th"], discard="7h")
    assert game.waits() == {0: Wait.DECIDE}
    act(game, 0, "p8h")
    assert game.waits() == {1: Wait.DECIDE}
    ordering = pos(["Qd8s", "KdTcQh", "7c9h"], discard="7h")
    act(ordering, 0, "pQd")
    assert ordering.waits() == {0: Wait.DECIDE}
    ended = pos(["8h", "6s6c", "Th"], discard="7h")
    act(ended, 0, "p8h")
    assert ended.public_view().phase is Phase.ROUND_OVER
    assert ended.waits() == dict.fromkeys((0, 1, 2), Wait.CONSENT)
    assert all(ended.default_action(s).encode() == "n" for s in range(3))


def test_the_timer_lays_the_lowest_card_that_fits() -> None:
    game = pos(["8h7s9cQd7c", "6s6c", "Th"], discard="7h")
    assert codes(game, 0) == {"p8h", "p7s", "p7c", "pQd"}
    assert game.default_action(0).encode() == "p7s"  # rank first, then suit order


def test_the_timer_draws_when_nothing_fits_and_passes_when_nothing_can_be_drawn() -> None:
    drawing = pos(["8s9c", "6s6c", "Th"], discard="7h")
    assert drawing.default_action(0).encode() == "d"
    rest = [c.code for c in deck(36) if c.code not in {"Kh", "6s", "7c"}]
    stuck = pos(["6s7c", "".join(rest)], discard="Kh")
    assert stuck.default_action(0).encode() == "x"


def test_the_timer_answers_an_ace_with_an_ace_or_lets_it_skip() -> None:
    game = pos(["AhKs", "AsKh", "7c8c"], discard="Th")
    act(game, 0, "pAh")
    assert game.default_action(1).encode() == "pAs"
    game = pos(["AhKs", "KhJh", "7c8c"], discard="Th")
    act(game, 0, "pAh")
    assert game.default_action(1).encode() == "x"


def test_the_timer_orders_the_suit_held_most_ties_in_suit_order() -> None:
    game = pos(["Qd8h9hJs", "KdTcQc", "7c9d"], discard="7h")
    act(game, 0, "pQd")
    assert game.default_action(0).encode() == "oh"
    tie = pos(["Qd8h9s", "KdTcQh", "7c9h"], discard="7h")
    act(tie, 0, "pQd")
    assert tie.default_action(0).encode() == "os"


def test_the_timer_never_orders_a_suit_not_allowed() -> None:
    english = HundredOne.position(
        CLASSIC.replace(ace=AceMode.ENGLISH), ["AhKh9h7s", "9c8c", "Jc"], discard="Th"
    )
    act(english, 0, "pAh")
    act(english, 0, "pKh")
    assert codes(english, 0) == {"os", "oc", "od"}
    assert english.default_action(0).encode() == "os"  # hearts (most) may not be ordered


def test_no_default_move_for_a_seat_not_on_move_or_after_the_match() -> None:
    game = pos(["8h7s", "6s6c", "Th"], discard="7h")
    with pytest.raises(IllegalAction) as caught:
        game.default_action(1)
    assert caught.value.reason == "illegal.not_your_turn"
    over = pos(["8h", "As"], discard="8d", totals=[0, 95])
    act(over, 0, "p8h")
    with pytest.raises(IllegalAction) as caught:
        over.default_action(0)
    assert caught.value.reason == "illegal.game_over"


def test_next_round_is_pressed_on_the_table_and_every_other_move_in_the_hand() -> None:
    game = pos(["8h7s", "6s6c", "Th"], discard="7h")
    assert {a.place for a in game.legal_actions(0)} == {Place.HAND}
    assert HundredOne.decode_action("n").place is Place.TABLE
    for code in ("pQs", "os", "d", "x"):
        assert HundredOne.decode_action(code).place is Place.HAND
