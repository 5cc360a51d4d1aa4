"""The variants of seed 003, one scripted position per rule (docs/rules/durak.md):
Akulina, diamonds durak and its option 5.a, perevodnoy with refusal."""

from __future__ import annotations

import json
import random

import pytest

from games.cards import Card, Suit, deck
from games.core import Outcome, RulesError, Wait
from games.durak import PRESETS, SPEC, Durak, DurakAction, DurakRules, Shape, Transfers, Trump
from games.durak.state import Phase
from games.durak.views import PlaysFor
from players.durak import DurakHeuristic
from tests.engines.playout import playout, replay
from tests.engines.test_durak_scenarios import (
    cards,
    hand,
    kinds,
    legal,
    pack_for,
    play,
    position,
    refused,
)

AKULINA = PRESETS["akulina"]
DIAMONDS = PRESETS["diamonds"]
REFUSAL = PRESETS["refusal"]

# --------------------------------------------------------------- Akulina


def test_akulina_leads_one_or_several_cards_of_one_suit() -> None:
    game = position(AKULINA, ["6s 9s Qh 7c", "8d 8h Th Jh Kc Ac"], trump_card="Ad")
    leads = legal(game, 0)
    assert {"a6s", "a9s", "a6s9s", "aQh", "a7c"} <= leads
    assert not any(code.startswith("a") and len(code) > 3 and code[2] != code[4] for code in leads)
    assert "a6s9sQh" not in leads
    events = play(game, "0:a6s9s")
    assert kinds(events) == ["attack"]
    assert [c.code for c in events[0].cards] == ["6s", "9s"]


def test_a_forged_attack_of_two_suits_is_refused() -> None:
    game = position(AKULINA, ["6s 6h 7c", "8d 8h Th Jh Kc Ac"], trump_card="Ad")
    assert refused(game, 0, "a6s6h") == "illegal.mixed_suits"


def test_akulina_has_no_throw_ins_the_bout_ends_when_all_is_beaten() -> None:
    game = position(AKULINA, ["6h 7h 8c", "9h Th Jd", "6c 7c 9c"], trump_card="Ad")
    play(game, "0:a6h7h")
    # Seat 2 holds cards of the ranks on the table, but nobody throws in.
    assert game.to_move() == frozenset({1})
    assert legal(game, 2) == set()
    events = play(game, "1:b6h9h", "1:b7hTh")
    assert "bout_beaten" in kinds(events)
    assert game.public_view().attacker == 1


def test_the_queen_of_spades_cannot_be_beaten_but_beats() -> None:
    game = position(AKULINA, ["Qs 7c", "Ks As 6d 9c"], trump_card="Ad")
    play(game, "0:aQs")
    assert legal(game, 1) == {"k"}  # neither the king nor the ace of spades, nor a trump
    assert refused(game, 1, "bQsKs") == "illegal.cannot_beat"
    assert refused(game, 1, "bQs6d") == "illegal.cannot_beat"
    game = position(AKULINA, ["Js 7c", "Qs 6h 9c"], trump_card="Ad")
    play(game, "0:aJs")
    assert "bJsQs" in legal(game, 1)


def test_akulina_is_for_two_to_four_players_with_36_cards() -> None:
    assert list(SPEC.seat_range(AKULINA)) == [2, 3, 4]
    with pytest.raises(RulesError):
        AKULINA.replace(deck_size=52)
    with pytest.raises(RulesError):
        DurakRules(shape=Shape.SUIT)  # throw-ins with suit leads are no variant of the seed


# --------------------------------------------------------------- diamonds


def test_diamonds_are_trump_and_no_card_is_turned() -> None:
    game = Durak.deal(DIAMONDS, 2, pack_for(["6s 7s 8s 9s Ts Js", "6c 7c 8c 9c Tc Jc"], "Ah"))
    view = game.public_view()
    assert view.trump is Suit.DIAMONDS
    assert view.trump_card is None
    assert view.stock == 24  # every undealt card, the ace of hearts among them


def test_spades_are_beaten_only_by_spades() -> None:
    game = position(DIAMONDS, ["7s 8h", "6d Ad 9s 9h"], trump="d", trump_card=None)
    play(game, "0:a7s")
    assert legal(game, 1) == {"b7s9s", "k"}  # no diamond beats a spade
    assert refused(game, 1, "b7sAd") == "illegal.cannot_beat"
    play(game, "1:b7s9s")
    game = position(DIAMONDS, ["8h 7c", "6d 9h 6s As"], trump="d", trump_card=None)
    play(game, "0:a8h")
    assert legal(game, 1) == {"b8h6d", "b8h9h", "k"}  # a diamond beats a heart; a spade does not


def test_option_5a_turns_the_trump_but_a_spade_goes_into_the_stock() -> None:
    rules = DIAMONDS.replace(trump=Trump.TURNED_NO_SPADES)
    hands = ["6h 7h 8h 9h Th Jh", "6c 7c 8c 9c Tc Jc"]
    pack = pack_for(hands, "As", first_stock="Ks 8d")
    game = Durak.deal(rules, 2, pack)
    view = game.public_view()
    assert view.trump_card == Card.parse("8d")
    assert view.trump is Suit.DIAMONDS
    stock = [c.code for c in game.zones()[0].cards]
    assert stock.index("As") > 0
    assert stock.index("Ks") > 0
    assert len(stock) + 1 == 24
    # A turned heart makes hearts trump; spades still fall only to spades.
    game = Durak.deal(rules, 2, pack_for(hands, "Qd"))
    assert game.public_view().trump is Suit.DIAMONDS
    plain = Durak.deal(rules, 2, pack_for(["6s 7s 8s 9s Ts Js", "6c 7c 8c 9c Tc Jc"], "Ah"))
    assert plain.public_view().trump is Suit.HEARTS


def test_option_5a_a_short_stock_topped_with_spades_turns_its_first_other_card() -> None:
    """Five players leave a stock of six.  Its top three are spades, each
    turned and put into the middle: each goes in below the heart, so no
    spade comes back to be turned again (as it did, for ever, when the
    middle of the short stock was above the heart)."""
    rules = DIAMONDS.replace(trump=Trump.TURNED_NO_SPADES)
    hands = [
        "6c 7c 8c 9c Tc Jc",
        "Qc Kc Ac 6h 7h 9h",
        "Th Jh Qh Kh Ah 9d",
        "8d Td Jd Qd Kd Ad",
        "6s 7s 8s 9s Ts Js",
    ]
    game = Durak.deal(rules, 5, pack_for(hands, "As", first_stock="Ks Qs 8h 7d 6d"))
    view = game.public_view()
    assert view.trump_card == Card.parse("8h")
    assert sorted(game.dump()["seen_in_stock"]) == ["As", "Ks", "Qs"]
    stock = [c.code for c in {z.name: z.cards for z in game.zones()}["stock"]]
    assert sorted(stock) == ["6d", "7d", "As", "Ks", "Qs"]
    while actors := game.to_move():  # and the deal plays
        seat = min(actors)
        game.apply(seat, game.legal_actions(seat)[0])
    assert game.outcome() is not None


def test_option_5a_everybody_knows_where_the_turned_spades_lie_and_who_draws_them() -> None:
    rules = DIAMONDS.replace(trump=Trump.TURNED_NO_SPADES)
    hands = ["6h 7h 8h 9h Th Jh", "6c 7c 8c 9c Tc Jc"]
    game = Durak.deal(rules, 2, pack_for(hands, "As", first_stock="Ks 8d"))
    assert game.dump()["seen_in_stock"] == ["Ks", "As"]
    assert Durak.load(game.dump()).dump() == game.dump()
    stock = {z.name: z.cards for z in game.zones()}["stock"]
    spades = [stock.index(Card.parse(c)) for c in ("As", "Ks")]
    dealt = set()
    for seed in range(20):
        world = game.determinize(0, random.Random(seed))
        dealt_stock = {z.name: z.cards for z in world.zones()}["stock"]
        assert [dealt_stock.index(Card.parse(c)) for c in ("As", "Ks")] == spades
        dealt.add(dealt_stock)
    assert len(dealt) > 10
    rng = random.Random(1)
    heuristic = DurakHeuristic()
    while Card.parse("As") in {z.name: z.cards for z in game.zones()}["stock"]:
        seat = min(game.to_move())
        legal_moves = game.legal_actions(seat)
        action = heuristic.choose(game.rules, game.view(seat), legal_moves, rng)
        assert isinstance(action, DurakAction)
        game.apply(seat, action)
    drawer = next(s for s in range(2) if Card.parse("As") in game.hand(s))
    assert Card.parse("As") in game.public_view().known[drawer]


def test_spade_turned_podkidnoy_a_turned_spade_makes_the_game_ordinary_podkidnoy() -> None:
    # Seed 003, 5.a: "В некоторых компаниях в этом случае производится обычный
    # розыгрыш «дурака подкидного»".
    rules = DIAMONDS.replace(trump=Trump.SPADE_PODKIDNOY)
    hands = ["6h 7h 8h 9h Th Jh", "6c 7c 8c 9c Tc Jc"]
    game = Durak.deal(rules, 2, pack_for(hands, "As", first_stock="Ks 8d"))
    view = game.public_view()
    assert view.trump_card == Card.parse("As")
    assert view.trump is Suit.SPADES
    assert [c.code for c in game.zones()[0].cards][:2] == ["Ks", "8d"]
    # Spades are trump: any spade beats a heart, a diamond beats nothing of it.
    game = position(rules, ["8h 7c", "6s 9d Qh"], trump="s", trump_card=None)
    play(game, "0:a8h")
    assert legal(game, 1) == {"b8h6s", "b8hQh", "k"}
    # A turned heart keeps diamonds durak's spade rule.
    game = Durak.deal(rules, 2, pack_for(hands, "Qh"))
    assert game.public_view().trump is Suit.HEARTS
    game = position(rules, ["8s 7c", "6h 9s 9d"], trump="h", trump_card=None)
    play(game, "0:a8s")
    assert legal(game, 1) == {"b8s9s", "k"}


def test_spade_turned_podkidnoy_without_stock_the_dealers_spade_is_trump() -> None:
    rules = DIAMONDS.replace(trump=Trump.SPADE_PODKIDNOY, deck_size=24)
    spade = Card.parse("9s")
    pack = [c for c in deck(24) if c != spade] + [spade]  # the dealer's last card
    game = Durak.deal(rules, 4, pack)
    assert game.public_view().trump is Suit.SPADES


SPADE_NAMED = DIAMONDS.replace(trump=Trump.SPADE_NAMED)
SPADE_AT_FOUR = 7
"""Deals the four-player game a spade to turn (found offline)."""


def test_spade_turned_named_the_dealer_names_the_trump_before_the_first_bout() -> None:
    # Seed 003, 5.a: "козыри открываются ... или назначаются перед игрой".
    hands = ["6h 7h 8c 9c Tc Jc", "6c 7c 8h 9h Th Jh"]
    game = Durak.deal(SPADE_NAMED, 2, pack_for(hands, "As", first_stock="Ks 8d"))
    assert game.phase is Phase.NAME
    assert game.to_move() == {0}  # the dealer (seat 0 in a first game)
    assert legal(game, 0) == {"Nc", "Nd", "Nh"}  # never spades
    assert legal(game, 1) == set()
    assert refused(game, 1, "a6c") == "illegal.trump_not_named"
    assert refused(game, 1, "Nh") == "illegal.not_your_turn"
    events = play(game, "0:Nh")
    assert [(e.kind, e.value) for e in events] == [("trump_named", "h")]
    view = game.public_view()
    assert view.trump is Suit.HEARTS
    assert view.trump_card == Card.parse("As")  # the spade stays under the stock
    assert view.phase is Phase.ATTACK
    assert view.attacker == 0  # the lowest heart, 6♥
    assert refused(game, 0, "Nd") == "illegal.trump_named"


def test_spade_turned_named_the_spade_rule_holds_with_the_named_trump() -> None:
    game = position(SPADE_NAMED, ["8s 7c", "6h 9s 9d"], trump="h", trump_card=None)
    play(game, "0:a8s")
    assert legal(game, 1) == {"b8s9s", "k"}


def test_spade_turned_named_by_default_the_suit_he_holds_most_of() -> None:
    hands = ["6h 7c 8c 9c Tc Jd", "6c 7h 8h 9h Th Jh"]
    game = Durak.deal(SPADE_NAMED, 2, pack_for(hands, "9s"))
    assert game.default_action(0).encode() == "Nc"
    assert game.waits() == {0: Wait.DECIDE}


def test_spade_turned_named_only_when_a_spade_is_turned() -> None:
    hands = ["6h 7h 8c 9c Tc Jc", "6c 7c 8h 9h Th Jh"]
    game = Durak.deal(SPADE_NAMED, 2, pack_for(hands, "Ad"))
    assert game.phase is Phase.ATTACK
    assert game.public_view().trump is Suit.DIAMONDS


def test_spade_turned_named_is_saved_while_the_trump_is_to_be_named() -> None:
    hands = ["6h 7h 8c 9c Tc Jc", "6c 7c 8h 9h Th Jh"]
    game = Durak.deal(SPADE_NAMED, 2, pack_for(hands, "As"))
    loaded = Durak.load(json.loads(json.dumps(game.dump())))
    assert loaded.dump() == game.dump()
    assert loaded.phase is Phase.NAME
    play(loaded, "0:Nd")
    again = Durak.load(json.loads(json.dumps(loaded.dump())))
    assert again.public_view().trump is Suit.DIAMONDS
    assert again.dump() == loaded.dump()


def test_spade_turned_named_a_player_leaving_first_has_the_trump_named_as_the_timer_would() -> None:
    hands = ["6h 7h 8h 9c Tc Jc", "6c 7c 8c 9h Th Jh", "6d 7d 8d 9d Td Jd"]
    game = Durak.deal(SPADE_NAMED, 3, pack_for(hands, "As"))
    events = game.resign(2)
    assert [e.kind for e in events][:2] == ["trump_named", "resign"]
    assert game.public_view().trump is Suit.CLUBS  # three of each: J♣ tops 8♥
    assert game.phase is Phase.ATTACK


def test_spade_turned_named_the_computer_names_its_strongest_suit() -> None:
    hands = ["6h 7c 8c 9c Ad Kd", "6c 7h 8h 9h Th Jh"]
    game = Durak.deal(SPADE_NAMED, 2, pack_for(hands, "As"))
    choice = DurakHeuristic().choose(
        SPADE_NAMED, game.view(0), game.legal_actions(0), random.Random(1)
    )
    assert choice.encode() == "Nd"  # two high diamonds beat three low clubs


@pytest.mark.parametrize(("seats", "seed"), [(2, 3), (4, SPADE_AT_FOUR)])
def test_spade_turned_named_random_playouts_from_a_naming_keep_every_invariant(
    seats: int, seed: int
) -> None:
    assert Durak.new(SPADE_NAMED, seats, random.Random(seed)).phase is Phase.NAME
    game, log = playout(SPEC, SPADE_NAMED, seats, seed)
    assert log[0][1].startswith("N")
    assert replay(SPEC, SPADE_NAMED, seats, seed, log).dump() == game.dump()


def test_old_diamonds_rules_without_the_new_value_load_as_they_were() -> None:
    stored = json.loads(json.dumps(DIAMONDS.to_json()))
    assert DurakRules.from_json(stored) == DIAMONDS
    stored["trump"] = "turned_no_spades"
    assert DurakRules.from_json(stored).trump is Trump.TURNED_NO_SPADES
    assert DurakRules.from_json(DIAMONDS.replace(trump=Trump.SPADE_PODKIDNOY).to_json()).trump is (
        Trump.SPADE_PODKIDNOY
    )


def test_the_spade_rule_belongs_to_diamonds_durak_only() -> None:
    with pytest.raises(RulesError):
        DurakRules(spades_by_spades=True)  # the turned trump without 5.a
    with pytest.raises(RulesError):
        DurakRules(trump=Trump.DIAMONDS)
    assert DIAMONDS.applies("trump")
    assert not PRESETS["podkidnoy"].applies("trump")


# --------------------------------------------------------------- refusal


def endgame(rules: DurakRules) -> Durak:
    """Two players, the stock empty: seat 0 leads his last card, a seven."""
    return position(rules, ["7s", "7h 9d Ac"], trump="c", trump_card=None, stock=[])


def test_with_refusal_the_last_cards_go_back_to_the_attacker() -> None:
    game = endgame(REFUSAL)
    play(game, "0:a7s")
    assert "x7h" in legal(game, 1)
    events = play(game, "1:x7h")
    assert kinds(events)[:2] == ["refuse", "bout_taken"]
    assert {c.code for c in game.hand(0)} == {"7s", "7h"}
    view = game.public_view()
    assert view.active == {0, 1}
    assert view.attacker == 1
    assert view.defender == 0
    assert game.outcome() is None


def test_a_refusal_that_empties_the_hand_ends_the_game() -> None:
    game = position(REFUSAL, ["7s", "7h"], trump="c", trump_card=None, stock=[])
    play(game, "0:a7s")
    events = play(game, "1:x7h")
    assert events[-1].kind == "game_over"
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.losers == frozenset({0})


def test_without_refusal_the_attackers_last_cards_stand() -> None:
    game = endgame(PRESETS["perevodnoy"])
    play(game, "0:a7s")
    assert legal(game, 1) == {"b7sAc", "k"}  # no transfer to an empty hand
    assert refused(game, 1, "x7h") == "illegal.transfer_too_many"


def test_refusal_is_only_against_the_last_opponent() -> None:
    game = position(REFUSAL, ["7s", "7h 9d Ac", "6c 8c"], trump="c", trump_card=None, stock=[])
    play(game, "0:a7s")
    assert "x7h" in legal(game, 1)  # an ordinary transfer to seat 2 (two cards)
    play(game, "1:x7h")
    view = game.public_view()
    assert view.defender == 2
    assert view.active == {1, 2}


def test_old_tables_with_a_boolean_transfer_still_load() -> None:
    rules = DurakRules.from_json({"deck_size": 36, "transfer": True})
    assert rules.transfer is Transfers.TRANSFER
    assert DurakRules.from_json({"transfer": False}).transfer is Transfers.NONE


# --------------------------------------------------------------- teams

TEAMS = PRESETS["teams"]


def test_teams_of_two_or_three_sit_alternately() -> None:
    assert list(SPEC.seat_range(TEAMS)) == [4, 6]
    assert list(SPEC.seat_range(TEAMS.replace(deck_size=24))) == [4]
    game = position(TEAMS, ["6s 7c", "6h 9d", "6d Ts", "6c Js"], attacker=0)
    assert game.public_view().teams == ((0, 2), (1, 3))


def test_only_the_defenders_opponents_throw_in() -> None:
    game = position(TEAMS, ["6s 7c", "8h 9d", "6d Ts", "6c Js"], attacker=0)
    play(game, "0:a6s")
    assert game.to_move() == frozenset({1, 2})  # the defender, and seat 2 (a six)
    assert legal(game, 3) == set()  # the defender's partner holds a six but may not
    assert refused(game, 3, "t6c") == "illegal.not_your_turn"
    assert "t6d" in legal(game, 2)


def test_a_partner_plays_the_place_of_a_player_out_of_cards() -> None:
    """Seed 003: Z, S, V, Yu round the table, Z and V partners, S and Yu; Yu
    is out: S attacks Z in Yu's place, and when Z beats it off, Z attacks S."""
    z, s, v, yu = 0, 1, 2, 3
    game = position(
        TEAMS, ["9s Th", "7s 8h 8c", "Jd Qd", ""], attacker=yu, trump="c", trump_card=None, stock=[]
    )
    view = game.public_view()
    assert (view.attacker, view.defender) == (s, z)
    assert view.plays_for == (PlaysFor(partner=s, seat=yu),)
    assert game.to_move() == frozenset({s})
    play(game, f"{s}:a7s")
    assert legal(game, v) == set()  # Z's partner never throws in under Z
    play(game, f"{z}:b7s9s")  # nobody holds a seven or a nine: beaten off
    view = game.public_view()
    assert (view.attacker, view.defender) == (z, s)


def test_a_team_wins_when_all_its_players_are_out() -> None:
    game = position(
        TEAMS, ["7s", "8h 9h", "", "6c 6d"], attacker=0, trump="c", trump_card=None, stock=[]
    )
    play(game, "0:a7s")  # seat 0, the last of his team with cards, leads his last card
    events = play(game, "1:k")
    assert events[-1].kind == "game_over"
    assert events[-1].value == "team1"
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.winners == frozenset({0, 2})
    assert outcome.losers == frozenset({1, 3})
    assert game.public_view().losing_team == 1


def test_both_teams_out_in_one_bout_is_a_draw() -> None:
    game = position(TEAMS, ["7s", "8s", "", ""], attacker=0, trump="c", trump_card=None, stock=[])
    events = play(game, "0:a7s", "1:b7s8s")
    assert events[-1].kind == "game_over"
    assert events[-1].value == "draw"
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.draw
    assert game.public_view().draw


def test_a_team_game_resigned_is_lost_by_the_team() -> None:
    game = position(TEAMS, ["6s 7c", "6h 9d", "6d Ts", "6c Js"], attacker=0)
    game.resign(3)
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.losers == frozenset({1, 3})


def test_the_next_team_game_is_dealt_by_a_loser() -> None:
    previous = Outcome(((0, 2), (1, 3)), frozenset({0, 2}), frozenset({1, 3}))
    game = Durak.new(TEAMS, 4, random.Random(3), previous=previous)
    assert game.public_view().dealer == 1


def test_refusal_is_not_a_team_rule() -> None:
    with pytest.raises(RulesError):
        TEAMS.replace(transfer=Transfers.REFUSAL)
    assert TEAMS.replace(transfer=Transfers.TRANSFER).teams


# --------------------------------------------------------------- believe / don't believe

BELIEVE = PRESETS["believe"]


def covered(right: bool) -> Durak:
    """Seat 0 leads the sevens of spades and clubs; seat 1 covers them face
    down, rightly (with 9♠ and 8♣) or not (with 9♠ and 6♦)."""
    hands = ["7s 7c Ah", "9s 8c 6d Kh"]
    game = position(BELIEVE, hands, attacker=0, trump="h", trump_card=None, stock=[])
    play(game, "0:a7s7c", "1:f7s9s", "1:f7c" + ("8c" if right else "6d"))
    return game


def test_covers_go_face_down_any_card_on_any_attack_card() -> None:
    hands = ["7s 7c Ah", "9s 8c 6d Kh"]
    game = position(BELIEVE, hands, attacker=0, trump="h", trump_card=None, stock=[])
    play(game, "0:a7s7c")
    assert "f7s6d" in legal(game, 1)  # a wrong card is allowed, face down
    assert not any(code.startswith("b") for code in legal(game, 1))
    assert refused(game, 1, "b7s9s") == "illegal.cover_face_down"
    events = play(game, "1:f7s6d")
    assert [c.code for c in events[0].cards] == ["7s"]  # the event names the attack card only
    assert game.to_move() == frozenset({1})  # one attack card left uncovered
    assert legal(game, 0) == set()  # nobody throws in


def test_face_down_covers_reach_only_the_defender_before_the_verdict() -> None:
    game = covered(right=False)
    assert game.public_view().phase is Phase.VERDICT
    for seat, view in ((None, game.public_view()), (0, game.view(0)), (1, game.view(1))):
        text = json.dumps(view.to_json())
        shown = "6d" in text and "9s" in text
        assert shown == (seat == 1), seat
    assert game.view(1).my_covers == cards("9s 6d")
    assert [row.covered for row in game.public_view().table] == [True, True]
    assert legal(game, 0) == {"y", "n"}
    assert game.default_action(0).encode() == "y"


def test_a_card_seen_taken_and_laid_face_down_stays_among_the_covers() -> None:
    # Boris takes 7s in sight of everybody, then lays it face down on 9c (and
    # 6d on 9d): Anna knows 7s is one of the two covers, not which.
    game = position(BELIEVE, ["7s Ac 9c 9d", "6d Kh 8c"], trump_card="Ah")
    play(game, "0:a7s", "1:k", "0:a9c9d", "1:f9c7s", "1:f9d6d")
    assert "7s" not in {c.code for c in game.public_view().known[1]}
    assert game.dump()["seen_covers"] == ["7s"]
    assert Durak.load(game.dump()).dump() == game.dump()
    rows = set()
    for seed in range(30):
        world = game.determinize(0, random.Random(seed))
        covers = {z.name: z.cards for z in world.zones()}["covers"]
        assert Card.parse("7s") in covers
        rows.add(covers)
    assert len({c for row in rows for c in row}) > 3  # the other cover is anybody's guess
    assert len({row.index(Card.parse("7s")) for row in rows}) == 2
    play(game, "0:n")  # the covers turned up: nothing is face down any more
    assert "seen_covers" not in game.dump()


def test_believed_and_right_the_cards_are_beaten_off() -> None:
    game = covered(right=True)
    events = play(game, "0:y")
    assert kinds(events)[:3] == ["believe", "reveal", "bout_beaten"]
    assert events[1].value == "right"
    assert {c.code for c in events[1].cards} == {"7s", "9s", "7c", "8c"}
    view = game.public_view()
    assert (view.attacker, view.defender) == (1, 0)


def test_believed_and_wrong_the_believer_takes() -> None:
    game = covered(right=False)
    events = play(game, "0:y")
    assert kinds(events)[:3] == ["believe", "reveal", "bout_taken"]
    assert events[2].seat == 0
    assert hand(game, 0) == {"7s", "7c", "9s", "6d", "Ah"}
    assert game.public_view().attacker == 1  # the taker loses his turn


def test_doubted_and_wrong_the_defender_takes() -> None:
    game = covered(right=False)
    events = play(game, "0:n")
    assert kinds(events)[:3] == ["doubt", "reveal", "bout_taken"]
    assert events[2].seat == 1
    assert hand(game, 1) == {"7s", "7c", "9s", "6d", "8c", "Kh"}
    assert game.public_view().attacker == 0


def test_doubted_and_right_the_doubter_takes() -> None:
    game = covered(right=True)
    events = play(game, "0:n")
    assert kinds(events)[:3] == ["doubt", "reveal", "bout_taken"]
    assert events[2].seat == 0
    assert game.public_view().attacker == 1


def test_covers_on_the_wrong_attack_card_are_wrong() -> None:
    """Seed 003's example: the right cards, but on the wrong attack cards."""
    hands = ["Jc Js Th 6d", "Ah As Kc 7d"]
    game = position(BELIEVE, hands, attacker=0, trump="d", trump_card=None, stock=[])
    play(game, "0:aJsJc", "1:fJcAs", "1:fJsKc")
    events = play(game, "0:y")
    assert events[1].value == "wrong"


def test_a_defender_may_still_take_instead_of_covering() -> None:
    hands = ["7s 7c Ah", "9s 8c 6d Kh"]
    game = position(BELIEVE, hands, attacker=0, trump="h", trump_card=None, stock=[])
    play(game, "0:a7s7c", "1:f7s9s")
    events = play(game, "1:k")
    assert "bout_taken" in kinds(events)
    assert hand(game, 1) == {"7s", "7c", "9s", "8c", "6d", "Kh"}


def test_an_attacker_who_led_his_last_cards_and_must_take_is_back() -> None:
    game = position(BELIEVE, ["7s", "9s Kh"], attacker=0, trump="h", trump_card=None, stock=[])
    play(game, "0:a7s", "1:f7s9s")
    events = play(game, "0:n")  # doubted, but it was right
    assert "game_over" not in kinds(events)
    assert game.public_view().active == {0, 1}
    assert hand(game, 0) == {"7s", "9s"}


# --------------------------------------------------------------- blind

BLIND = PRESETS["blind"]


def blind(hands: list[str], rules: DurakRules = BLIND, **options: object) -> Durak:
    options.setdefault("trump", "h")
    options.setdefault("trump_card", None)
    options.setdefault("stock", [])
    return position(rules, hands, attacker=0, **options)


def test_a_blind_player_sees_every_hand_but_his_own() -> None:
    game = blind(["9s 6s 7d", "8c Kh Js"])
    view = game.view(0)
    assert view.hand == ()
    assert view.seen == ((), cards("8c Kh Js"))  # in the order of their positions
    text = json.dumps(view.to_json())
    assert not any(code in text for code in ("9s", "6s", "7d"))
    public = json.dumps(game.public_view().to_json())
    assert not any(code in public for code in ("9s", "6s", "7d", "8c", "Kh", "Js"))


def test_a_blind_players_moves_do_not_depend_on_his_cards() -> None:
    one = blind(["9s 6s 7d", "8c Kh Js"])
    other = blind(["Ah Ad Ac", "8c Kh Js"])
    assert legal(one, 0) == legal(other, 0) == {"L0", "L1", "L2"}
    assert refused(one, 0, "L7") == "illegal.no_such_position"
    play(one, "0:L0")
    play(other, "0:L0")
    assert {code[-1] for code in legal(one, 1) if code.startswith("B")} == {"0", "1", "2"}
    assert refused(one, 1, "b9s8c") == "illegal.unknown_action"  # no move names his card


def test_a_wrong_cover_takes_the_bouts_cards() -> None:
    game = blind(["9s 6s 7d", "8c Kh Js"])
    play(game, "0:L0")  # the nine of spades
    events = play(game, "1:B9s0")  # 8♣ does not beat 9♠
    assert kinds(events)[:2] == ["wrong", "bout_taken"]
    assert events[0].cards[0].code == "8c"
    assert events[1].seat == 1
    assert hand(game, 1) == {"8c", "Kh", "Js", "9s"}
    assert game.public_view().attacker == 0  # he lost his turn, as when taking


def test_a_right_cover_beats_as_usual() -> None:
    game = blind(["9s 6s 7d", "8c Kh Js"])
    play(game, "0:L0")
    events = play(game, "1:B9s1")  # K♥, a trump
    assert events[0].kind == "beat"


def test_a_wrong_throw_in_takes_the_bouts_cards_and_the_defender_leads() -> None:
    game = blind(["9s 6s 7d", "8c Kh Js", "9d 7c 6h"])
    play(game, "0:L0", "1:B9s1")  # 9♠ beaten with K♥
    assert game.to_move() == frozenset({0, 2})  # both asked, whatever they hold
    events = play(game, "2:T1")  # 7♣: neither a nine nor a king
    assert kinds(events)[:2] == ["wrong", "bout_taken"]
    assert events[1].seat == 2
    assert hand(game, 2) == {"9d", "7c", "6h", "9s", "Kh"}
    assert game.public_view().attacker == 1


def test_a_thrower_with_nothing_fitting_may_pass() -> None:
    game = blind(["9s 6s 7d", "8c Kh Js"])
    play(game, "0:L0", "1:B9s1")
    assert legal(game, 0) == {"T0", "T1", "p"}
    events = play(game, "0:p")
    assert "bout_beaten" in kinds(events)


def test_a_wrong_transfer_takes_the_bouts_cards() -> None:
    game = blind(["9s 6s", "8c 9h Js", "7c 7d"], BLIND.replace(transfer=Transfers.TRANSFER))
    play(game, "0:L0")
    assert {"X0", "X1", "X2"} <= legal(game, 1)
    events = play(game, "1:X0")  # 8♣ is not a nine
    assert kinds(events)[:2] == ["wrong", "bout_taken"]
    game = blind(["9s 6s", "8c 9h Js", "7c 7d"], BLIND.replace(transfer=Transfers.TRANSFER))
    play(game, "0:L0")
    events = play(game, "1:X1")  # 9♥ transfers to seat 2
    assert events[0].kind == "transfer"
    assert game.public_view().defender == 2


def test_drawn_cards_go_to_the_end_of_a_blind_hand() -> None:
    game = blind(["9s 6s", "Kh Js"], stock=["6c", "7c", "8c", "Tc"], trump_card="Ah")
    play(game, "0:L0", "1:B9s0", "0:p")  # beaten off; both draw
    assert game.view(1).seen[0] == cards("6s 6c 7c 8c Tc Ah")[: game.hand_size(0)]


def test_blind_durak_is_played_on_podkidnoy_or_perevodnoy() -> None:
    with pytest.raises(RulesError):
        AKULINA.replace(blind=True)
    assert BLIND.replace(transfer=Transfers.TRANSFER).blind
    assert not DIAMONDS.applies("blind")
