"""Joker's rules, position by position: tricks with jokers in every mode and
place, following suit, the dealer's forbidden bid, the trump choice, every
line of the score sheet and the deal schedules (``docs/rules/joker.md``)."""

from __future__ import annotations

import json
import random

import pytest

from games.cards import Card, Rank, Suit
from games.core import Event, IllegalAction, StateFormatError, Wait
from games.joker import (
    SPEC,
    Bid,
    ChooseTrump,
    Deal,
    Deals,
    Joker,
    JokerRules,
    Khisht,
    LeadJoker,
    deal_points,
    premium,
    schedule,
)
from games.joker.views import JokerMode, JokerSeatView, Phase, SheetRow, TrickCard
from tests.engines.playout import playout

RULES = JokerRules()


def moves(game: Joker, *codes: str) -> list[Event]:
    """Each code played in turn by the seat on move."""
    events: list[Event] = []
    for code in codes:
        (seat,) = game.to_move()
        events += game.apply(seat, Joker.decode_action(code))
    return events


def trick_winner(events: list[Event]) -> int:
    (trick,) = [e for e in events if e.kind == "trick"]
    assert trick.seat is not None
    return trick.seat


def four(hands: str, trump: str | None = "h", rules: JokerRules = RULES, **kw: object) -> Joker:
    """A play position of four hands (one string, hands split by ``|``); the
    dealer is seat 3, so seat 0 leads."""
    return Joker.position(
        rules,
        [h.strip() for h in hands.split("|")],
        trump=trump,
        dealer=3,
        bids=[1, 1, 1, 1],
        **kw,  # type: ignore[arg-type]
    )


def codes(game: Joker, seat: int) -> set[str]:
    return {a.encode() for a in game.legal_actions(seat)}


# --- who takes the trick ---------------------------------------------------------


def test_an_ordinary_trick_goes_to_the_highest_card_of_the_led_suit() -> None:
    game = four("Ks 7c | As 8c | 7s 9c | Qs Tc", trump="h")
    assert trick_winner(moves(game, "pKs", "pAs", "p7s", "pQs")) == 1


def test_a_void_player_must_trump_and_the_highest_trump_takes() -> None:
    game = four("Ks 7c | 8h 7h 8c | 7s 9c | Qh Tc", trump="h")
    moves(game, "pKs")
    assert codes(game, 1) == {"p7h", "p8h"}  # void in spades: trumps only
    with pytest.raises(IllegalAction) as refused:
        game.apply(1, Joker.decode_action("p8c"))
    assert refused.value.reason == "illegal.must_trump"
    assert trick_winner(moves(game, "p7h", "p7s", "pQh")) == 3


def test_following_suit_is_compulsory_and_any_card_goes_without_suit_or_trump() -> None:
    game = four("Ks 7c | As 8c | 7d 9c | Qs Tc", trump="h")
    moves(game, "pKs")
    assert codes(game, 1) == {"pAs"}
    with pytest.raises(IllegalAction) as refused:
        game.apply(1, Joker.decode_action("p8c"))
    assert refused.value.reason == "illegal.must_follow"
    moves(game, "pAs")
    assert codes(game, 2) == {"p7d", "p9c"}  # no spade, no heart: anything


def test_a_joker_may_always_be_played_and_followed_high_it_takes() -> None:
    game = four("As 7c | X1 Ks | 7s 9c | Qs Tc")
    moves(game, "pAs")
    assert codes(game, 1) == {"pKs", "fX1h", "fX1l"}  # a joker despite holding spades
    assert trick_winner(moves(game, "fX1h", "p7s", "pQs")) == 1


def test_a_joker_followed_low_gives_the_trick() -> None:
    game = four("7s 7c | X1 Ks | 8s 9c | 9s Tc")
    assert trick_winner(moves(game, "p7s", "fX1l", "p8s", "p9s")) == 3


def test_a_joker_led_high_takes_and_everybody_plays_the_highest_of_the_suit() -> None:
    game = four("X1 7c | Ks 7s 8c | As 9s | Qs Tc", trump="h")
    moves(game, "lX1hs")
    assert codes(game, 1) == {"pKs"}  # the highest spade only
    with pytest.raises(IllegalAction) as refused:
        game.apply(1, Joker.decode_action("p7s"))
    assert refused.value.reason == "illegal.must_play_highest"
    assert trick_winner(moves(game, "pKs", "pAs", "pQs")) == 0


def test_a_void_players_trump_beats_a_joker_led_high_in_a_plain_suit() -> None:
    game = four("X1 7c | Ks 8c | 7h 9c | Qs Tc", trump="h")
    moves(game, "lX1hs", "pKs")
    assert codes(game, 2) == {"p7h"}  # void in spades: must trump
    assert trick_winner(moves(game, "p7h", "pQs")) == 2


def test_a_joker_led_high_in_trumps_cannot_be_beaten() -> None:
    game = four("X1 7c | Ah 8c | 7h 9c | Qh Tc", trump="h")
    assert trick_winner(moves(game, "lX1hh", "pAh", "p7h", "pQh")) == 0


def test_a_joker_led_as_takes_is_the_lowest_card_of_its_suit() -> None:
    game = four("X1 7c | 7s 8c | As 9c | Qs Tc", trump="h")
    moves(game, "lX1ts")
    assert codes(game, 1) == {"p7s"}  # follow spades (any spade)
    assert trick_winner(moves(game, "p7s", "pAs", "pQs")) == 2


def test_a_joker_led_as_takes_wins_when_nobody_has_its_suit_or_a_trump() -> None:
    game = four("X1 7c | 7d 8c | 8d 9c | 9d Tc", trump="h")
    assert trick_winner(moves(game, "lX1ts", "p7d", "p8d", "p9d")) == 0


def test_a_joker_led_as_takes_loses_to_a_void_players_trump() -> None:
    game = four("X1 7c | 7h 8c | 8d 9c | 9d Tc", trump="h")
    assert trick_winner(moves(game, "lX1ts", "p7h", "p8d", "p9d")) == 1


def test_two_jokers_one_after_the_other_the_later_played_high_takes() -> None:
    """Seed 002's table: N leads a joker, E K♥, S a joker, W A♥: S takes."""
    game = four("X1 7c | Kh 8c | X2 9c | Ah Tc", trump="s")
    assert trick_winner(moves(game, "lX1hh", "pKh", "fX2h", "pAh")) == 2


def test_two_jokers_the_later_high_takes_even_two_seats_apart() -> None:
    game = four("7h 7c | X1 8c | 8h 9c | X2 Tc", trump="s")
    assert trick_winner(moves(game, "p7h", "fX1h", "p8h", "fX2h")) == 3


def test_two_jokers_the_later_one_played_low_leaves_the_trick_to_the_first() -> None:
    game = four("7h 7c | X1 8c | 8h 9c | X2 Tc", trump="s")
    assert trick_winner(moves(game, "p7h", "fX1h", "p8h", "fX2l")) == 1


def test_two_jokers_a_takes_lead_and_a_high_follow_the_follower_takes() -> None:
    game = four("X1 7c | Kh 8c | X2 9c | Ah Tc", trump="s")
    assert trick_winner(moves(game, "lX1th", "pKh", "fX2h", "pAh")) == 2


@pytest.mark.parametrize(
    ("plays", "winner"),
    [
        (("lX1hh", "pKh", "fX2h", "pAh"), 0),  # led high, then followed high
        (("p7h", "fX1h", "p8h", "fX2h"), 1),  # both followed high
        (("lX1th", "pKh", "fX2h", "pAh"), 2),  # a takes lead is not played to win
    ],
)
def test_with_the_option_the_earlier_of_two_high_jokers_takes(
    plays: tuple[str, ...], winner: int
) -> None:
    rules = JokerRules(first_joker_wins=True)
    if plays[0] == "p7h":
        game = four("7h 7c | X1 8c | 8h 9c | X2 Tc", trump="s", rules=rules)
    else:
        game = four("X1 7c | Kh 8c | X2 9c | Ah Tc", trump="s", rules=rules)
    assert trick_winner(moves(game, *plays)) == winner


def test_without_trumps_a_void_player_plays_anything_and_the_led_suit_takes() -> None:
    game = four("Ks 7c | 8h 8c | As 9c | 9h Tc", trump=None)
    moves(game, "pKs")
    assert codes(game, 1) == {"p8h", "p8c"}
    assert trick_winner(moves(game, "p8h", "pAs", "p9h")) == 2


def test_the_winner_of_a_trick_leads_the_next_and_the_trick_stays_on_the_table() -> None:
    game = four("Ks 7c | As 8c | 7s 9c | Qs Tc")
    moves(game, "pKs", "pAs", "p7s", "pQs")
    view = game.public_view()
    assert view.trick_done
    assert view.trick_winner == 1
    assert len(view.trick) == 4
    assert game.to_move() == {1}
    moves(game, "p8c")
    assert [e.card.code for e in game.public_view().trick] == ["8c"]


def test_a_seat_sees_the_table_and_its_hand_jokers_then_trumps_then_the_suits_high_to_low() -> None:
    game = four("7s X1 Ah 8c X2 Kh 9d Jc | 8h | 9h | Th", trump="h")
    moves(game, "lX1hd")
    public, own = game.public_view(), game.view(0)
    assert isinstance(own, JokerSeatView)
    assert not isinstance(public, JokerSeatView)
    assert own.seat == 0
    assert [c.code for c in own.hand] == ["X2", "Ah", "Kh", "7s", "Jc", "8c", "9d"]
    assert {f: v for f, v in own.to_json().items() if f not in ("seat", "hand")} == (
        public.to_json()
    )
    assert public.trick == (TrickCard(0, Card.joker(1), JokerMode.HIGH, Suit.DIAMONDS),)
    # The plain form: cards as codes, suits as letters, a joker's declaration by name.
    assert own.to_json()["hand"] == ["X2", "Ah", "Kh", "7s", "Jc", "8c", "9d"]
    assert public.to_json()["trick"] == [{"seat": 0, "card": "X1", "joker": "high", "suit": "d"}]
    assert public.to_json()["trump"] == "h"


def test_players_shown_void_are_dealt_no_card_of_that_suit_in_a_determinized_world() -> None:
    game = four("Ks 7c 8d | 8h 8c 9d | As 9c Td | 9s Tc Jd", trump="h")
    moves(game, "pKs", "p8h")  # seat 1 shows no spade
    assert game.public_view().void[1] == {Suit.SPADES}
    for seed in range(30):
        world = game.determinize(0, random.Random(seed))
        hand = world.view(1).hand
        assert not [c for c in hand if c.suit is Suit.SPADES]


# --- leading a joker ------------------------------------------------------------


def test_a_joker_lead_offers_high_and_takes_in_every_suit() -> None:
    game = four("X1 7c | Kh 8c | X2 9c | Ah Tc")
    leads = [a for a in game.legal_actions(0) if isinstance(a, LeadJoker)]
    assert len(leads) == 8
    assert {a.high for a in leads} == {True, False}


def test_with_the_option_a_joker_may_be_led_only_when_nothing_else_is_left() -> None:
    rules = JokerRules(joker_lead_last=True)
    game = four("X1 7c | Kh 8c | X2 9c | Ah Tc", rules=rules)
    assert codes(game, 0) == {"p7c"}
    with pytest.raises(IllegalAction) as refused:
        game.apply(0, Joker.decode_action("lX1hs"))
    assert refused.value.reason == "illegal.joker_lead_last"
    alone = four("X1 | Kh | 9c | Ah", rules=rules)
    assert "lX1hs" in codes(alone, 0)
    # Following with a joker is as usual.
    follow = four("7h 7c | X1 8c | 8h 9c | X2 Tc", trump="s", rules=rules)
    moves(follow, "p7h")
    assert "fX1h" in codes(follow, 1)


# --- bidding ----------------------------------------------------------------------


def bidding(cards: str, bids: list[int | None], trump: str = "h") -> Joker:
    """A bid position: four hands of the given cards, dealer seat 3."""
    hands = cards.split("|")
    return Joker.position(RULES, hands, trump=trump, dealer=3, bids=bids)


def test_the_dealer_may_not_make_the_bids_add_up_to_the_cards() -> None:
    game = bidding("As 7s 8s 9s | Ks 7c 8c 9c | Qs 7d 8d 9d | Js 7h 8h 9h", [1, 1, 1, None])
    bids = {a.tricks for a in game.legal_actions(3) if isinstance(a, Bid)}
    assert bids == {0, 2, 3, 4}
    assert game.public_view().forbidden == 1
    with pytest.raises(IllegalAction) as refused:
        game.apply(3, Bid(1))
    assert refused.value.reason == "illegal.forbidden_bid"


def test_in_a_one_card_deal_the_dealer_must_pass_when_nobody_bid() -> None:
    game = bidding("As | Ks | Qs | Js", [0, 0, 0, None])
    assert game.legal_actions(3) == [Bid(0)]
    assert game.default_action(3) == Bid(0)


def test_in_a_one_card_deal_the_dealer_must_bid_when_one_trick_is_bid() -> None:
    game = bidding("As | Ks | Qs | Js", [0, 1, 0, None])
    assert game.legal_actions(3) == [Bid(1)]


def test_over_bid_leaves_the_dealer_free() -> None:
    game = bidding("As | Ks | Qs | Js", [1, 1, 0, None])
    assert game.legal_actions(3) == [Bid(0), Bid(1)]
    assert game.public_view().forbidden is None


def test_others_bid_freely_and_the_lowest_bid_is_the_default() -> None:
    game = bidding("As 7s | Ks 7c | Qs 7d | Js 7h", [None, None, None, None])
    assert game.to_move() == {0}
    assert [a.encode() for a in game.legal_actions(0)] == ["b0", "b1", "b2"]
    assert game.default_action(0) == Bid(0)
    assert game.waits() == {0: Wait.DECIDE}
    with pytest.raises(IllegalAction) as refused:
        game.apply(0, Bid(3))
    assert refused.value.reason == "illegal.bid_too_high"
    moves(game, "b2", "b0", "b0")
    assert game.default_action(3) == Bid(1)  # 0 would make 2 of 2


def test_bidding_goes_from_the_dealers_left_and_the_first_bidder_leads() -> None:
    game = Joker.position(RULES, ["As 7s", "Ks 7c", "Qs 7d", "Js 7h"], trump="h", dealer=1)
    assert game.to_move() == {2}
    moves(game, "b0", "b0", "b0", "b0")
    assert game.public_view().phase is Phase.PLAY
    assert game.to_move() == {2}


# --- dealing, the trump, the first dealer ------------------------------------------


def test_the_first_dealer_is_whoever_gets_the_first_ace_face_up() -> None:
    for seed in range(20):
        game = Joker.new(RULES, 4, random.Random(seed))
        view = game.public_view()
        draw = view.draw
        assert draw[0].seat is None  # the top card goes to the middle
        dealt = draw[1:]
        assert [e.seat for e in dealt] == [i % 4 for i in range(len(dealt))]
        assert dealt[-1].card.rank is Rank.ACE
        assert not any(e.card.rank is Rank.ACE for e in dealt[:-1])
        assert view.dealer == dealt[-1].seat
        assert game.to_move() == {view.dealer}
        assert game.legal_actions(view.dealer) == [Deal()]


def test_a_deal_turns_the_trump_and_a_turned_joker_means_no_trump() -> None:
    seen_joker = seen_suit = False
    for seed in range(200):
        game = Joker.new(RULES, 4, random.Random(seed))
        events = moves(game, "d")
        view = game.public_view()
        assert view.phase is Phase.BID
        assert view.cards == 1
        (trump,) = [e for e in events if e.kind == "trump"]
        card = view.trump_card
        assert card is not None
        assert trump.cards[0] is card
        assert view.trump_known
        if card.is_joker:
            assert view.trump is None
            seen_joker = True
        else:
            assert view.trump is card.suit
            seen_suit = True
        dealer = view.dealer
        assert game.to_move() == {(dealer + 1) % 4}
        if seen_joker and seen_suit:
            break
    assert seen_joker
    assert seen_suit


def play_deals(game: Joker, deals: int, rng: random.Random) -> None:
    """Random moves until ``deals`` more deals are played."""
    target = len(game.public_view().sheet) + deals
    while len(game.public_view().sheet) < target and not game.is_over:
        (seat,) = game.to_move()
        game.apply(seat, rng.choice(game.legal_actions(seat)))


def test_in_nine_card_deals_the_player_left_of_the_dealer_names_the_trump_after_three_cards() -> (
    None
):
    game = Joker.new(RULES, 4, random.Random(4))
    play_deals(game, 8, random.Random(1))
    moves(game, "d")
    view = game.public_view()
    assert view.phase is Phase.TRUMP
    assert view.cards == 9
    chooser = (view.dealer + 1) % 4
    assert view.chooser == chooser
    assert game.to_move() == {chooser}
    assert view.hands == (3, 3, 3, 3)
    assert not view.trump_known
    assert view.trump is None
    assert view.trump_card is None
    assert {a.encode() for a in game.legal_actions(chooser)} == {"ts", "tc", "td", "th", "tn"}
    events = moves(game, "tn")
    assert events == [Event("trump_chosen", chooser, value="none")]
    view = game.public_view()
    assert view.hands == (9, 9, 9, 9)
    assert view.trump_known
    assert view.trump is None
    assert view.phase is Phase.BID
    assert game.to_move() == {chooser}


def test_the_trump_chooser_by_default_names_the_suit_he_holds_most_of() -> None:
    game = Joker.new(RULES, 4, random.Random(4))
    play_deals(game, 8, random.Random(1))
    moves(game, "d")
    (chooser,) = game.to_move()
    hand = game.view(chooser).hand
    default = game.default_action(chooser)
    assert isinstance(default, ChooseTrump)
    assert default.suit is not None
    held = [c.suit for c in hand if not c.is_joker]
    assert held.count(default.suit) == max(held.count(s) for s in Suit)


def test_with_three_players_the_trump_is_turned_in_nine_card_deals_too() -> None:
    game = Joker.new(RULES, 3, random.Random(4))
    play_deals(game, 8, random.Random(1))
    moves(game, "d")
    view = game.public_view()
    assert view.cards == 9
    assert view.phase is Phase.BID
    assert view.hands == (9, 9, 9)
    assert view.trump_card is not None


@pytest.mark.parametrize(
    ("deals", "counts"),
    [
        (Deals.CLASSIC, [[1, 2, 3, 4, 5, 6, 7, 8], [9] * 4, [8, 7, 6, 5, 4, 3, 2, 1], [9] * 4]),
        (Deals.NINES, [[9] * 4] * 4),
        (Deals.SHORT, [[1, 2, 3, 4, 5, 6, 7, 8], [9] * 4]),
    ],
)
@pytest.mark.parametrize("seats", [3, 4])
def test_every_game_type_deals_its_schedule(
    deals: Deals, counts: list[list[int]], seats: int
) -> None:
    assert [list(p) for p in schedule(deals)] == counts
    rules = JokerRules(deals=deals)
    game, _ = playout(SPEC, rules, seats, 7, deep=False)
    view = game.public_view()
    assert [r.cards for r in view.sheet] == [c for p in counts for c in p]
    assert [r.pulka for r in view.sheet] == [i + 1 for i, p in enumerate(counts) for _ in p]
    assert [p.pulka for p in view.pulkas] == list(range(1, len(counts) + 1))
    assert [r.dealer for r in view.sheet] == [
        (view.sheet[0].dealer + i) % seats for i in range(len(view.sheet))
    ]
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.scores == view.totals


# --- scoring ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "bid", "took", "points"),
    [
        (5, 0, 0, 50),  # a pass made
        (5, 1, 1, 100),
        (5, 2, 2, 150),
        (5, 4, 4, 250),
        (8, 7, 7, 400),
        (9, 8, 8, 450),
        (2, 2, 2, 200),  # all the cards: 100 per card
        (5, 5, 5, 500),
        (9, 9, 9, 900),
        (1, 1, 1, 100),
        (5, 2, 3, 30),  # missed: 10 per trick
        (5, 3, 1, 10),
        (5, 0, 2, 20),  # a pass broken
        (5, 1, 0, -200),  # khisht
        (9, 4, 0, -200),
    ],
)
def test_every_line_of_the_classic_score(cards: int, bid: int, took: int, points: int) -> None:
    assert deal_points(RULES, cards, bid, took) == points


@pytest.mark.parametrize(
    ("khisht", "cards", "points"),
    [
        (Khisht.MINUS_200, 5, -200),
        (Khisht.MINUS_200, 9, -200),
        (Khisht.MINUS_500, 3, -500),
        (Khisht.PER_CARD, 5, -500),
        (Khisht.PER_CARD, 7, -700),
        (Khisht.PER_CARD, 1, -100),
    ],
)
def test_the_khisht_in_every_option(khisht: Khisht, cards: int, points: int) -> None:
    assert deal_points(JokerRules(khisht=khisht), cards, 1, 0) == points
    assert deal_points(JokerRules(khisht=khisht), cards, 0, 0) == 50  # a pass is no khisht


@pytest.mark.parametrize(
    ("cards", "bid", "took", "points"),
    [
        (5, 0, 0, 50),
        (5, 1, 1, 100),
        (5, 3, 3, 300),
        (9, 9, 9, 900),
        (5, 4, 2, -200),  # two tricks short
        (5, 2, 0, -200),  # no trick: just as short, no khisht
        (5, 1, 3, 30),  # over: 10 per trick
        (5, 0, 1, 10),
    ],
)
def test_minus_joker_scores(cards: int, bid: int, took: int, points: int) -> None:
    assert deal_points(JokerRules(minus=True), cards, bid, took) == points


def test_the_khisht_option_is_hidden_under_minus_joker() -> None:
    assert RULES.applies("khisht")
    assert not JokerRules(minus=True).applies("khisht")
    assert JokerRules(minus=True).applies("deals")


def test_one_player_makes_every_bid_his_best_deal_again_and_the_others_lose_theirs() -> None:
    bids = [[1, 0, 1, 0], [2, 1, 0, 1], [1, 1, 1, 1]]
    tricks = [[1, 1, 0, 0], [2, 0, 1, 0], [1, 1, 0, 1]]
    points = [[100, 10, -200, 50], [150, -200, 10, 10], [100, 100, -200, 100]]
    result = premium(bids, tricks, points)
    assert result.earned == (0,)
    assert result.bonus == (150, -100, -10, -100)
    assert result.doubled == (1, None, None, None)
    assert result.struck == (None, 2, 1, 2)


def test_a_pulka_of_losses_loses_nothing_more() -> None:
    result = premium([[1, 1], [1, 1]], [[1, 0], [1, 0]], [[100, -200], [100, -200]])
    assert result.earned == (0,)
    assert result.bonus == (100, 0)
    assert result.struck == (None, None)


def test_two_players_earn_the_premium_and_nobody_loses() -> None:
    bids = [[1, 1, 2], [0, 2, 1]]
    tricks = [[1, 1, 1], [0, 2, 0]]
    points = [[100, 100, 10], [50, 150, -200]]
    result = premium(bids, tricks, points)
    assert result.earned == (0, 1)
    assert result.bonus == (100, 150, 0)
    assert result.struck == (None, None, None)


def test_a_deal_is_scored_and_a_pulka_closed_with_its_premium_in_the_game() -> None:
    """The last deal of the first pulka, played out: seat 0 made every bid."""
    game = Joker.position(RULES, ["As", "Ks", "Qs", "Js"], trump="h", dealer=3, deal=7)
    # Seven deals already on the sheet: seat 0 made them all.
    game._rows = tuple(
        SheetRow(
            deal=i + 1,
            cards=i + 1,
            pulka=1,
            dealer=i % 4,
            trump=Suit.HEARTS,
            bids=(1, 1, 0, 0),
            tricks=(1, 0, 1, 0),
            points=(100 + 10 * i, -200, 10, 50),
        )
        for i in range(7)
    )
    game._totals = [sum(r.points[s] for r in game._rows) for s in range(4)]
    before = list(game._totals)
    events = moves(game, "b1", "b0", "b0", "b1", "pAs", "pKs", "pQs", "pJs")
    assert [e.kind for e in events][-2:] == ["struck", "pulka_over"]
    view = game.public_view()
    record = view.pulkas[0]
    assert record.premium == {0}
    # Seat 0's best: 160 (deal 7); seat 3 (bid 1, no trick) took a khisht.
    assert view.sheet[-1].points == (100, 50, 50, -200)
    assert record.bonus[0] == 160
    assert record.doubled[0] == 6
    assert record.bonus[1] == -50
    assert record.struck[1] == 7
    assert record.bonus[2] == -50
    assert record.struck[2] == 7
    assert record.bonus[3] == -50
    assert record.struck[3] == 0
    points = view.sheet[-1].points
    assert view.totals == tuple(before[s] + points[s] + record.bonus[s] for s in range(4))
    assert any(e.kind == "premium" and e.seat == 0 and e.value == 160 for e in events)
    assert view.phase is Phase.DEAL
    assert view.deal == 9


def test_the_sheet_is_saved_as_before_and_a_broken_row_is_refused() -> None:
    """A saved game's sheet rows (format 1) load into the typed rows and save
    back the same; a row that is not one is refused."""
    game = Joker.new(RULES, 4, random.Random(8))
    play_deals(game, 9, random.Random(8))
    data = json.loads(json.dumps(game.dump()))
    row = data["sheet"][0]
    assert set(row) == {"deal", "cards", "pulka", "dealer", "trump", "bids", "tricks", "points"}
    assert row["cards"] == 1
    assert {r["trump"] for r in data["sheet"]} <= {"s", "c", "d", "h", "none"}
    (record,) = data["pulkas"]
    assert record["first"] == 0
    assert record["last"] == 7
    loaded = Joker.load(data)
    assert loaded.dump() == data
    assert loaded.public_view() == game.public_view()
    no_trump = data | {"sheet": [row | {"trump": "none"}, *data["sheet"][1:]]}
    assert Joker.load(no_trump).public_view().sheet[0].trump is None
    for broken in (
        row | {"trump": "x"},
        row | {"bids": [1, 0, 0]},
        row | {"extra": 1},
        {k: v for k, v in row.items() if k != "points"},
        [1, 2],
    ):
        with pytest.raises(StateFormatError):
            Joker.load(data | {"sheet": [broken, *data["sheet"][1:]]})
    with pytest.raises(StateFormatError):
        Joker.load(data | {"pulkas": [record | {"doubled": [None, None, 99, None]}]})


# --- moves of the seats that act on their own ------------------------------------


def test_the_default_card_is_the_lowest_plain_one_and_never_a_joker() -> None:
    game = four("X1 7h As 8c | Kh 8s | X2 9c | Ah Tc", trump="h")
    assert game.default_action(0) == Joker.decode_action("p8c")
    only_jokers = four("X1 X2 | Kh 8s | 7c 9c | Ah Tc", trump="h")
    default = only_jokers.default_action(0)
    assert isinstance(default, LeadJoker)
    assert not default.high
    follow = four("7s 7c | X1 | 8h 9c | 9s Tc", trump="h")
    moves(follow, "p7s")
    assert follow.default_action(1) == Joker.decode_action("fX1l")


def test_a_player_who_leaves_ends_the_game_placed_last() -> None:
    game = Joker.new(RULES, 4, random.Random(2))
    play_deals(game, 3, random.Random(3))
    totals = game.public_view().totals
    events = game.resign(2)
    assert [e.kind for e in events] == ["resign", "game_over"]
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.places[-1] == (2,)
    assert outcome.losers == {2}
    best = max(totals[s] for s in (0, 1, 3))
    assert outcome.winners == {s for s in (0, 1, 3) if totals[s] == best}
    with pytest.raises(IllegalAction):
        game.resign(0)


def test_the_winner_has_the_highest_total() -> None:
    game, _ = playout(SPEC, RULES, 4, 21, deep=False)
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.scores is not None
    top = max(outcome.scores)
    assert outcome.winners == {s for s in range(4) if outcome.scores[s] == top}


def test_the_worked_example_of_the_rules_page() -> None:
    """``docs/rules/joker.md``, section 8: pulka 2 with a khisht and a premium."""
    bids = [[2, 3, 1, 2], [1, 2, 3, 0], [4, 0, 2, 2], [0, 3, 3, 2]]
    tricks = [[2, 3, 0, 4], [1, 4, 3, 1], [4, 1, 2, 2], [0, 2, 3, 4]]
    points = [
        [deal_points(RULES, 9, b, t) for b, t in zip(row_bids, row_tricks, strict=True)]
        for row_bids, row_tricks in zip(bids, tricks, strict=True)
    ]
    assert points == [
        [150, 200, -200, 40],
        [100, 40, 200, 10],
        [250, 10, 150, 150],
        [50, 20, 200, 40],
    ]
    result = premium(bids, tricks, points)
    assert result.earned == (0,)
    assert result.bonus == (250, -200, -200, -150)
    assert result.doubled == (2, None, None, None)
    assert result.struck == (None, 0, 1, 2)
    subtotals = [sum(row[s] for row in points) + result.bonus[s] for s in range(4)]
    assert subtotals == [800, 70, 150, 90]


def test_the_trick_shown_names_its_taker_after_the_deals_last_trick_too() -> None:
    """A complete trick stays shown, with who took it, until the next lead or
    deal; after a deal's last trick the turn has passed to the next dealer,
    and the view used to name him as the taker."""
    rng = random.Random(3)
    game = Joker.new(JokerRules(), 4, rng)
    deals_ended = 0
    while game.outcome() is None and deals_ended < 6:
        (mover,) = game.to_move()
        events = game.apply(mover, rng.choice(game.legal_actions(mover)))
        taken = [e.seat for e in events if e.kind == "trick"]
        view = game.public_view()
        if taken:
            assert view.trick_done
            assert view.trick_winner == taken[0]
        deals_ended += any(e.kind == "deal_over" for e in events)
    assert deals_ended == 6
