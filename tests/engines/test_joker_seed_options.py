"""Seed 002's last two options, sentence by sentence (``docs/rules/joker.md``):
Joker for two (``two_players``) and a joker played at face value
(``face_value``)."""

from __future__ import annotations

import json
import random

import pytest

from games.cards import Card, Suit
from games.core import IllegalAction, RulesError
from games.joker import SPEC, Bid, Joker, JokerRules, premium
from games.joker.actions import FaceValue
from games.joker.views import JokerMode, Phase, TrickCard
from players.joker import JokerHeuristic
from tests.engines.test_joker_rules import codes, four, moves, play_deals, trick_winner

TWO = JokerRules(two_players=True)
FACE = JokerRules(face_value=True)

# --- Joker for two: "при взаимном согласии это число может быть уменьшено до трёх-двух"


def test_two_player_joker_is_an_option_and_off_by_default() -> None:
    assert list(SPEC.seat_range(JokerRules())) == [3, 4]
    assert list(SPEC.seat_range(TWO)) == [2, 3, 4]
    with pytest.raises(RulesError):
        Joker.new(JokerRules(), 2, random.Random(1))


def test_two_player_joker_keeps_the_schedule_and_turns_a_trump_in_nine_card_deals() -> None:
    game = Joker.new(TWO, 2, random.Random(4))
    assert game.public_view().schedule[1] == (9, 9, 9, 9)
    play_deals(game, 8, random.Random(1))
    moves(game, "d")
    view = game.public_view()
    assert view.cards == 9
    assert view.hands == (9, 9)
    assert view.phase is Phase.BID  # 18 cards dealt: the 19th is turned, nobody names
    assert view.trump_card is not None


def test_two_player_joker_the_dealer_may_not_make_the_bids_add_up_to_the_cards() -> None:
    # "сдающий ... не может делать заявку, при которой возникнет равенство между
    # суммой всех взяток и суммой заявок всех игроков" — with two, the second bid.
    game = Joker.position(TWO, ["As 7s 8s", "Ks 7c 8c"], trump="h", dealer=1, bids=[1])
    assert {a.tricks for a in game.legal_actions(1) if isinstance(a, Bid)} == {0, 1, 3}
    assert game.public_view().forbidden == 2
    with pytest.raises(IllegalAction) as refused:
        game.apply(1, Bid(2))
    assert refused.value.reason == "illegal.forbidden_bid"


def test_two_player_joker_premium_strikes_the_other_players_best_deal() -> None:
    # "у 3-х других игроков списываются": with two, the one other player.
    result = premium([(1, 0), (2, 1)], [(1, 1), (2, 0)], [(100, 10), (150, 20)])
    assert result.earned == (0,)
    assert result.bonus == (150, -20)


def test_two_player_joker_a_whole_game_by_the_computer_is_saved_and_loaded() -> None:
    rng = random.Random(7)
    game = Joker.new(TWO, 2, rng)
    heuristic = JokerHeuristic()
    while not game.is_over:
        (seat,) = game.to_move()
        action = heuristic.choose(TWO, game.view(seat), game.legal_actions(seat), rng)
        game.apply(seat, Joker.decode_action(action.encode()))
        if len(game.public_view().sheet) == 12 and game.public_view().phase is Phase.DEAL:
            assert Joker.load(json.loads(json.dumps(game.dump()))).dump() == game.dump()
    view = game.public_view()
    assert len(view.sheet) == 24
    assert len(view.pulkas) == 4
    assert all(len(row.points) == 2 for row in view.sheet)


def test_old_joker_rules_without_the_new_keys_load_as_they_were() -> None:
    stored = JokerRules(minus=True).to_json()
    for key in ("face_value", "two_players"):
        del stored[key]
    assert JokerRules.from_json(stored) == JokerRules(minus=True)


# --- a joker "по номиналу": "за исключением ситуаций, когда игрок играет
# джокером «по номиналу», то есть объявляет его 6♠ или 6♣"


def test_face_value_is_offered_only_under_the_option() -> None:
    plain = four("As 7c | X1 Kh | 7s 9c | Qs Tc")
    moves(plain, "pAs")
    assert "vX1" not in codes(plain, 1)
    with pytest.raises(IllegalAction) as refused:
        plain.apply(1, Joker.decode_action("vX1"))
    assert refused.value.reason == "illegal.no_face_value"


def test_face_value_the_first_joker_is_the_six_of_spades_the_second_of_clubs() -> None:
    # The seed's table: N's joker is the 6♠, S's the 6♣.
    assert Joker.decode_action("vX1") == FaceValue(Card.parse("X1"))
    assert FaceValue(Card.parse("X1")).counts_as == Card.parse("6s")
    assert FaceValue(Card.parse("X2")).counts_as == Card.parse("6c")
    assert len(FaceValue(Card.parse("X2")).encode()) <= 24


def test_face_value_a_joker_played_as_6s_follows_spades_and_is_the_lowest_spade() -> None:
    game = four("As 7c | X1 Kh | 7s 9c | Qs Tc", rules=FACE)
    moves(game, "pAs")
    assert codes(game, 1) == {"pKh", "fX1h", "fX1l", "vX1"}
    events = moves(game, "vX1")
    assert events[0].value == "face:s"
    played = TrickCard(1, Card.parse("X1"), JokerMode.FACE, Suit.SPADES)
    assert game.public_view().trick[1] == played
    assert played.counts_as == Card.parse("6s")
    assert trick_winner(moves(game, "p7s", "pQs")) == 0


def test_face_value_a_joker_as_a_trump_six_trumps_a_void_suit_and_takes() -> None:
    # As 6♠ the joker is a trump "в целях выяснения правомерности хода".
    game = four("Ac 7d | X1 Kh | 7c 9d | Qc Td", trump="s", rules=FACE)
    moves(game, "pAc")
    assert "vX1" in codes(game, 1)
    assert trick_winner(moves(game, "vX1", "p7c", "pQc")) == 1
    assert game.public_view().void[1] == {Suit.CLUBS}


def test_face_value_does_not_excuse_following_suit() -> None:
    # Holding a heart, the player may not play a spade six on hearts.
    game = four("Ah 7c | X1 8h | 7h 9c | Qh Tc", rules=FACE)
    moves(game, "pAh")
    assert codes(game, 1) == {"p8h", "fX1h", "fX1l"}
    with pytest.raises(IllegalAction) as refused:
        game.apply(1, Joker.decode_action("vX1"))
    assert refused.value.reason == "illegal.must_follow"


def test_face_value_a_six_is_no_highest_card_under_a_joker_led_high() -> None:
    game = four("X2 7c | X1 9s | 7s 9c | Qs Tc", rules=FACE)
    moves(game, "lX2hs")
    assert codes(game, 1) == {"p9s", "fX1h", "fX1l"}


def test_face_value_a_lead_at_face_value_asks_for_its_suit() -> None:
    game = four("X2 7d | Ac Kh | 7c 9d | Qh Td", trump="h", rules=FACE)
    assert "vX2" in codes(game, 0)
    moves(game, "vX2")
    assert codes(game, 1) == {"pAc"}
    assert trick_winner(moves(game, "pAc", "p7c", "pQh")) == 3


def test_face_value_a_trick_with_a_face_value_joker_is_saved_and_loaded() -> None:
    game = four("As 7c | X1 Kh | 7s 9c | Qs Tc", rules=FACE)
    moves(game, "pAs", "vX1")
    loaded = Joker.load(json.loads(json.dumps(game.dump())))
    assert loaded.dump() == game.dump()
    assert trick_winner(moves(loaded, "p7s", "pQs")) == 0


def test_face_value_the_computer_plays_its_only_joker_as_a_six_to_lose_and_high_to_win() -> None:
    heuristic = JokerHeuristic()
    for bid, wanted in ((0, "vX1"), (1, "fX1h")):
        game = Joker.position(
            FACE, ["As", "X1", "7s", "Qs"], trump="h", dealer=3, bids=[1, bid, 0, 0]
        )
        moves(game, "pAs")
        legal = game.legal_actions(1)
        assert {a.encode() for a in legal} == {"fX1h", "fX1l", "vX1"}
        choice = heuristic.choose(FACE, game.view(1), legal, random.Random(1))
        assert choice.encode() == wanted
