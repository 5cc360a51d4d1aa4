"""101: the presets, each one's distinctive rules, and the seat ranges."""

from __future__ import annotations

import random

import pytest

from games.cards import Suit, deck
from games.core import RulesError
from games.hundred_one import (
    PRESETS,
    SPEC,
    AceMode,
    DrawMode,
    HundredOne,
    HundredOneRules,
    Master,
    Scoring,
    SmallDeck,
    card_points,
)
from games.hundred_one.engine import Phase
from games.hundred_one.views import Pending
from tests.engines.hundred_one_helpers import act, codes, pos, refused, scores, summary

CLASSIC = PRESETS["classic"]
CROCODILE = PRESETS["crocodile"]
SMALL = PRESETS["smalldeck"]
JACK = PRESETS["jack"]
ENGLISH = PRESETS["english"]
PHARAOH = PRESETS["pharaoh"]
PENTAGON = PRESETS["pentagon"]


# ------------------------------------------------------------ the presets


def test_preset_names_order_and_values() -> None:
    assert list(SPEC.presets) == [
        "classic",
        "crocodile",
        "smalldeck",
        "jack",
        "english",
        "pharaoh",
        "pentagon",
    ]
    assert SPEC.default_preset == "classic"
    assert HundredOneRules() == CLASSIC
    assert HundredOneRules(draw=DrawMode.ONE, crocodile=True) == CROCODILE
    assert HundredOneRules(deck=32) == SMALL
    assert HundredOneRules(master=Master.JACK) == JACK
    assert HundredOneRules(ace=AceMode.ENGLISH) == ENGLISH
    assert HundredOneRules(hand=4, scoring=Scoring.PHARAOH) == PHARAOH
    assert HundredOneRules(suit_only=True, order_skip=True, scoring=Scoring.PENTAGON) == PENTAGON
    assert len(set(SPEC.presets.values())) == len(SPEC.presets)
    for name, rules in SPEC.presets.items():
        assert SPEC.preset_name(rules) == name


def test_classic_defaults() -> None:
    assert CLASSIC.deck == 36
    assert CLASSIC.hand == 5
    assert CLASSIC.ceiling == 101
    assert CLASSIC.exact_reset
    assert CLASSIC.king_spades == 4
    assert not CLASSIC.dealer_upcard


@pytest.mark.parametrize(
    ("rules", "seats"),
    [
        (CLASSIC, range(2, 7)),
        (SMALL, range(2, 7)),
        (PHARAOH, range(2, 7)),
        (CLASSIC.replace(deck=52), range(2, 9)),
        (CLASSIC.replace(hand=6), range(2, 6)),
        (CLASSIC.replace(deck=32, hand=6), range(2, 6)),
        (CLASSIC.replace(deck=52, hand=6), range(2, 9)),
    ],
)
def test_seat_ranges_leave_a_stock(rules: HundredOneRules, seats: range) -> None:
    assert SPEC.seat_range(rules) == seats
    assert rules.hand * seats[-1] < rules.deck
    game = HundredOne.new(rules, seats[-1], random.Random(1))
    assert game.public_view().stock > 0
    with pytest.raises(RulesError):
        HundredOne.new(rules, seats[-1] + 1, random.Random(1))
    with pytest.raises(RulesError):
        HundredOne.new(rules, 1, random.Random(1))


def test_rules_refuse_values_outside_their_choices() -> None:
    with pytest.raises(RulesError):
        CLASSIC.replace(deck=40)
    with pytest.raises(RulesError):
        CLASSIC.replace(ceiling=100)
    with pytest.raises(RulesError):
        HundredOneRules.from_json({"hand": 7})
    with pytest.raises(RulesError):
        HundredOneRules.from_json({"draw": "twice"})
    names = [name for name, _ in HundredOneRules.options()]
    assert names[:3] == ["deck", "hand", "draw"]
    assert "master" in names
    assert "scoring" in names


# -------------------------------------------------------------- crocodile


def test_crocodile_draws_one_card_and_the_king_of_hearts_draws_five() -> None:
    game = pos(["6s7c", "8s"], CROCODILE, discard="Kh", stock="8c9dJh")
    assert summary(act(game, 0, "d")) == [("draw", 0, 1), ("pass", 0, None)]
    game = pos(["KhTs", "7c", "8c"], CROCODILE, discard="Th")
    assert summary(act(game, 0, "pKh")) == [
        ("play", 0, None),
        ("penalty_draw", 1, 5),
        ("skip", 1, None),
    ]
    assert game.to_move() == {2}


# -------------------------------------------------------------- small deck


def test_small_deck_has_thirty_two_cards_and_no_sixes() -> None:
    game = HundredOne.new(SMALL, 6, random.Random(2))
    assert sum(len(z.cards) for z in game.zones()) == 32
    assert game.public_view().stock == 2
    with pytest.raises(ValueError, match="deck"):
        pos(["6h", "7c"], SMALL)


def test_small_deck_seven_draws_two_and_eight_draws_one_and_keeps_his_turn() -> None:
    # Seed 001: with the small deck «семёрка требует подъёма двух карт,
    # восьмёрка — одной карты»: the eight makes the next player draw one card,
    # nothing more; he then moves as usual.
    game = pos(["7h8s", "9c", "Tc"], SMALL, discard="Th", stock="KcJd")
    assert summary(act(game, 0, "p7h")) == [("play", 0, None), ("penalty_draw", 1, 2)]
    assert game.to_move() == {1}
    game = pos(["8h9s", "9c", "Tc"], SMALL, discard="Th", stock="Kc")
    assert summary(act(game, 0, "p8h")) == [("play", 0, None), ("penalty_draw", 1, 1)]
    assert game.to_move() == {1}
    assert game.public_view().hands == (1, 2, 1)


def test_small_deck_skip_mode() -> None:
    rules = SMALL.replace(small_deck=SmallDeck.SKIP)
    game = pos(["7h8s", "9c", "Tc"], rules, discard="Th", stock="KcJd")
    assert summary(act(game, 0, "p7h")) == [
        ("play", 0, None),
        ("penalty_draw", 1, 1),
        ("skip", 1, None),
    ]
    game = pos(["8h9s", "9c", "Tc"], rules, discard="Th")
    assert summary(act(game, 0, "p8h")) == [("play", 0, None), ("skip", 1, None)]
    assert game.to_move() == {2}


def test_the_eight_is_plain_with_the_full_deck() -> None:
    game = pos(["8h9s", "9c", "Tc"], CLASSIC, discard="Th")
    assert summary(act(game, 0, "p8h")) == [("play", 0, None)]


# ------------------------------------------------------------------- jack


def test_jack_goes_on_anything_and_orders_a_suit() -> None:
    game = pos(["Js8d", "7c9h", "9c"], JACK, discard="Th")
    assert codes(game, 0) == {"pJs"}
    act(game, 0, "pJs")
    assert game.public_view().phase is Phase.ORDER
    act(game, 0, "oc")
    assert codes(game, 1) == {"p7c"}


def test_with_the_jack_as_master_the_queen_is_plain() -> None:
    game = pos(["Qs8h", "7c"], JACK, discard="7h")
    assert codes(game, 0) == {"p8h"}
    game = pos(["Qh8s", "7c"], JACK, discard="7h")
    act(game, 0, "pQh")
    assert game.public_view().phase is Phase.PLAY
    assert game.to_move() == {1}


def test_on_a_queen_only_the_king_of_its_suit_or_a_jack() -> None:
    game = pos(["KhThQsJd8hKs", "7c"], JACK, discard="Qh")
    assert codes(game, 0) == {"pKh", "pJd"}
    refused(game, 0, "pTh", "illegal.card_does_not_fit")
    refused(game, 0, "pQs", "illegal.card_does_not_fit")


def test_a_player_left_holding_a_jack_is_out_at_once() -> None:
    game = pos(["8h", "Jc", "7s"], JACK, discard="8d")
    events = act(game, 0, "p8h")
    assert ("eliminated", 1, 2) in summary(events)
    view = game.public_view()
    assert view.eliminated == (1,)
    assert view.totals == (0, 2, 7)
    assert game.to_move() == {0, 2}


def test_finishing_on_a_jack_doubles_the_points() -> None:
    game = pos(["Jh", "As", "7s8s"], JACK, discard="7h")
    events = act(game, 0, "pJh")
    assert scores(events) == {0: 0, 1: 22, 2: 30}
    last = game.public_view().last_round
    assert last is not None
    assert last.doubled is True


def test_with_the_jack_as_master_queens_bring_no_bonus() -> None:
    game = pos(["Qh", "QsQd"], JACK, discard="7h")
    assert scores(act(game, 0, "pQh")) == {0: 0, 1: 6}


# ---------------------------------------------------------------- english


def test_english_ace_is_followed_by_its_suit_and_an_order_of_another_suit() -> None:
    game = pos(["AhKh7s", "9h8c", "Jc"], ENGLISH, discard="Th")
    assert summary(act(game, 0, "pAh")) == [("play", 0, None)]
    view = game.public_view()
    assert view.follow is Suit.HEARTS
    assert game.to_move() == {0}
    assert codes(game, 0) == {"pKh"}
    refused(game, 0, "p7s", "illegal.card_does_not_fit")
    refused(game, 0, "x", "illegal.cannot_pass")
    refused(game, 0, "d", "illegal.must_play")
    act(game, 0, "pKh")
    assert game.public_view().phase is Phase.ORDER
    assert codes(game, 0) == {"os", "oc", "od"}
    refused(game, 0, "oh", "illegal.suit_not_allowed")
    act(game, 0, "oc")
    # the ace skips nobody: the next player follows the order
    assert game.to_move() == {1}
    assert codes(game, 1) == {"p8c"}


def test_english_ace_without_its_suit_draws_one_card() -> None:
    game = pos(["Ah7s", "9h8c", "Jc"], ENGLISH, discard="Th", stock="Kh")
    act(game, 0, "pAh")
    assert codes(game, 0) == {"d"}
    assert summary(act(game, 0, "d")) == [("draw", 0, 1)]
    assert codes(game, 0) == {"pKh"}


def test_english_ace_right_passes_to_the_next_player() -> None:
    game = pos(["Ah7s", "8h8c", "Jc"], ENGLISH, discard="Th", stock="Kc")
    act(game, 0, "pAh")
    assert summary(act(game, 0, "d")) == [("draw", 0, 1), ("pass", 0, None)]
    view = game.public_view()
    assert view.follow is None
    assert game.to_move() == {1}
    # a card of the ace's suit on the ace wins the right to order
    assert codes(game, 1) == {"p8h"}
    act(game, 1, "p8h")
    assert game.public_view().phase is Phase.ORDER
    assert codes(game, 1) == {"os", "oc", "od"}
    act(game, 1, "os")
    assert game.to_move() == {2}


def test_english_ace_on_an_ace_gives_the_new_player_the_follow() -> None:
    game = pos(["Ah7s", "As8c", "Jc"], ENGLISH, discard="Th", stock="Kc")
    act(game, 0, "pAh")
    act(game, 0, "d")
    act(game, 1, "pAs")
    assert game.public_view().follow is Suit.SPADES
    assert game.to_move() == {1}


def test_english_follow_card_keeps_its_own_effect_after_the_order() -> None:
    game = pos(["Ah7h8s", "9c", "Tc"], ENGLISH, discard="Th", stock="KcJd")
    act(game, 0, "pAh")
    act(game, 0, "p7h")
    assert game.public_view().pending == Pending(
        seat=1, draw=2, skip=False, again=False, answer=False
    )
    assert summary(act(game, 0, "oc")) == [("order", 0, "c"), ("penalty_draw", 1, 2)]
    assert game.to_move() == {1}


# ---------------------------------------------------------------- pharaoh


def test_pharaoh_deals_four_cards() -> None:
    game = HundredOne.new(PHARAOH, 3, random.Random(4))
    assert game.public_view().hands == (4, 4, 4)


def test_pharaoh_queen_finish_and_a_lone_queen_left_count_thirty() -> None:
    game = pos(["Qs", "7c", "Qh", "QdQc", "Kh7s"], PHARAOH, discard="7h")
    assert scores(act(game, 0, "pQs")) == {0: -30, 1: 7, 2: 30, 3: 60, 4: 11}


# --------------------------------------------------------------- pentagon


def test_pentagon_follows_by_suit_only_and_rank_only_onto_a_six() -> None:
    game = pos(["7s8h6s", "9c"], PENTAGON, discard="7h")
    assert codes(game, 0) == {"p8h"}
    refused(game, 0, "p7s", "illegal.card_does_not_fit")
    game = pos(["6s7c8h", "9c"], PENTAGON, discard="6h")
    assert codes(game, 0) == {"p6s", "p8h"}
    game = pos(["Qs7c", "9c"], PENTAGON, discard="7h")
    assert codes(game, 0) == {"pQs"}


def test_pentagon_order_makes_the_next_player_miss_his_turn() -> None:
    game = pos(["Qd8s", "7c", "9c"], PENTAGON, discard="7h")
    act(game, 0, "pQd")
    assert summary(act(game, 0, "oc")) == [("order", 0, "c"), ("skip", 1, None)]
    assert game.to_move() == {2}
    assert codes(game, 2) == {"p9c"}


def test_pentagon_order_with_two_players_keeps_the_turn() -> None:
    game = pos(["Qd8c", "7c"], PENTAGON, discard="7h")
    act(game, 0, "pQd")
    act(game, 0, "oc")
    assert game.to_move() == {0}
    assert codes(game, 0) == {"p8c"}


def test_pentagon_scoring() -> None:
    game = pos(["8h", "AsKsQhJsTs9s8s", "7s6d", "QsQc"], PENTAGON, discard="7h")
    events = act(game, 0, "p8h")
    assert scores(events) == {0: 0, 1: 11 + 4 + 20 + 2 + 10, 2: 0, 3: 40}


@pytest.mark.parametrize(
    ("rules", "total"),
    [(CLASSIC, 4 * 51), (PENTAGON, 4 * 47), (CLASSIC.replace(deck=52), 4 * 65)],
)
def test_card_values_over_a_whole_deck(rules: HundredOneRules, total: int) -> None:
    assert sum(card_points(rules, card) for card in deck(rules.deck)) == total
