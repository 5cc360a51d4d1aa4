"""Durak rules, one scripted position per rule (docs/rules/durak.md)."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Sequence

import pytest

from games.cards import Card, Suit, deck
from games.core import RESIGN, Event, IllegalAction, Outcome, Place, Wait, perform
from games.durak import PRESETS, Attack, Durak, DurakRules, FirstAttack, Transfers
from games.durak.state import Phase
from games.durak.views import TableRow

PODKIDNOY = DurakRules()
PEREVODNOY = DurakRules(transfer=Transfers.TRANSFER)


def position(
    rules: DurakRules, hands: Sequence[str], *, attacker: int = 0, **options: object
) -> Durak:
    """A bout about to start; unless given, the stock is six cards nobody
    holds, the ace of hearts is the trump card under it."""
    options.setdefault("trump_card", "Ah")
    if "stock" not in options:
        used = [*" ".join(hands).split(), str(options["trump_card"])]
        options["stock"] = [c for c in deck(36) if c.code not in used][:6]
    return Durak.position(rules, hands, attacker=attacker, **options)  # type: ignore[arg-type]


def cards(codes: str) -> tuple[Card, ...]:
    return tuple(Card.parse(code) for code in codes.split())


def play(game: Durak, *moves: str) -> list[Event]:
    """Apply moves written ``"seat:code"``; return all their events."""
    events: list[Event] = []
    for move in moves:
        seat, code = move.split(":")
        events += game.apply(int(seat), Durak.decode_action(code))
    return events


def legal(game: Durak, seat: int) -> set[str]:
    return {a.encode() for a in game.legal_actions(seat)}


def hand(game: Durak, seat: int) -> set[str]:
    return {c.code for c in game.hand(seat)}


def refused(game: Durak, seat: int, code: str) -> str:
    """Apply an illegal move: it must raise and change nothing; return the reason."""
    before = game.dump()
    with pytest.raises(IllegalAction) as caught:
        game.apply(seat, Durak.decode_action(code))
    assert game.dump() == before
    return caught.value.reason


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def pack_for(
    hands: Sequence[str], trump_card: str, first_stock: str = "", dealer: int = 0
) -> list[Card]:
    """A 36-card pack that deals exactly ``hands`` (``dealer`` dealing), turns
    up ``trump_card``, and has ``first_stock`` on top of the stock."""
    n = len(hands)
    chosen = [[Card.parse(c) for c in h.split()] for h in hands]
    pack: list[Card] = []
    for j in range(6):
        for k in range(n):
            pack.append(chosen[(dealer + 1 + k) % n][j])
    pack.append(Card.parse(trump_card))
    pack += [Card.parse(c) for c in first_stock.split()]
    pack += [c for c in deck(36) if c not in pack]
    return pack


# --------------------------------------------------------------- beating


def test_a_higher_card_of_the_suit_or_any_trump_beats_a_non_trump() -> None:
    g = position(PODKIDNOY, ["7s 9c", "6s 8s Ks 6h 9d Tc"])
    play(g, "0:a7s")
    assert legal(g, 1) == {"b7s8s", "b7sKs", "b7s6h", "k"}
    for wrong in ("b7s6s", "b7s9d", "b7sTc"):
        assert refused(g, 1, wrong) == "illegal.cannot_beat"
    events = play(g, "1:b7s6h")
    assert events[0] == Event("beat", 1, (Card.parse("7s"), Card.parse("6h")))
    assert "bout_beaten" in kinds(events)


def test_a_trump_is_beaten_only_by_a_higher_trump() -> None:
    g = position(PODKIDNOY, ["9h 7c", "Th 6h As Ac"])
    play(g, "0:a9h")
    assert legal(g, 1) == {"b9hTh", "k"}
    assert refused(g, 1, "b9hAs") == "illegal.cannot_beat"
    assert refused(g, 1, "b9h6h") == "illegal.cannot_beat"


def test_only_the_defender_beats_and_only_cards_on_the_table() -> None:
    g = position(PODKIDNOY, ["7s 8s", "9s Ts Js"])
    play(g, "0:a7s")
    assert refused(g, 0, "b7s8s") == "illegal.not_defender"
    assert refused(g, 1, "b8s9s") == "illegal.not_on_table"
    assert refused(g, 1, "b7sQs") == "illegal.not_in_hand"


# ------------------------------------------------------------------- cap


def test_the_cap_is_the_defenders_hand_at_bout_start() -> None:
    g = position(PODKIDNOY, ["7s 7c 7d 7h 8c", "8s 9s Ts"])
    assert g.public_view().cap == 3
    leads = legal(g, 0)
    assert "a7s7c7d" in leads
    assert "a7s7c7d7h" not in leads
    assert len(leads) == 4 + 6 + 4 + 1  # sevens in sets of one to three, and the 8
    assert refused(g, 0, "a7s7c7d7h") == "illegal.over_cap"


def test_the_cap_does_not_shrink_as_the_defender_beats() -> None:
    g = position(PODKIDNOY, ["7s 7c 7d 7h 8h", "8s 8c 8d Jh"])
    play(g, "0:a7s", "1:b7s8s", "0:t7c", "1:b7c8c", "0:t7d", "1:b7d8d")
    assert g.hand_size(1) == 1
    play(g, "0:t7h")  # the fourth attack card against a one-card hand: cap 4
    assert g.public_view().cap == 4
    assert legal(g, 0) == set()
    assert refused(g, 0, "t8h") == "illegal.cap_reached"
    events = play(g, "1:b7hJh")
    assert "bout_beaten" in kinds(events)


def test_first_bout_five_limits_only_the_first_bout() -> None:
    five = DurakRules(first_bout_five=True)
    hands = ["7s 7c 7d 7h 8d 8c", "8s Tc Td Th Jh Qh"]
    g = position(five, hands, attacker=0, first_bout=True)
    assert g.public_view().cap == 5
    play(g, "0:a7s7c7d7h", "1:b7s8s", "1:b7cTc", "1:b7dTd", "1:b7hTh", "0:t8d")
    assert legal(g, 0) == set()
    assert refused(g, 0, "t8c") == "illegal.cap_reached"
    play(g, "1:b8dJh")
    view = g.public_view()
    assert view.table == ()
    assert view.attacker == 1
    assert view.cap == 6

    plain = position(PODKIDNOY, hands, attacker=0, first_bout=True)
    assert plain.public_view().cap == 6


def test_a_fresh_deal_applies_the_five_card_first_bout() -> None:
    five = DurakRules(first_bout_five=True)
    assert Durak.new(five, 2, random.Random(3)).public_view().cap == 5
    assert Durak.new(PODKIDNOY, 2, random.Random(3)).public_view().cap == 6


# -------------------------------------------------------------- throw-in


def test_throw_in_on_the_rank_of_a_defence_card() -> None:
    g = position(PODKIDNOY, ["7s Tc 9d", "8s Ts 6d"])
    play(g, "0:a7s", "1:b7sTs")
    assert legal(g, 0) == {"tTc", "p"}
    assert refused(g, 0, "t9d") == "illegal.rank_not_on_table"
    play(g, "0:tTc")
    assert g.public_view().table == (
        TableRow(Card.parse("7s"), Card.parse("Ts"), covered=True),
        TableRow(Card.parse("Tc"), None, covered=False),
    )


def test_throw_in_after_take_and_the_taken_cards_become_known() -> None:
    g = position(PODKIDNOY, ["7s 7c 9d", "8d 6s Kd"])
    play(g, "0:a7s")
    assert legal(g, 1) == {"k"}
    play(g, "1:k")
    assert g.public_view().taking is True
    assert g.to_move() == {0}
    assert legal(g, 0) == {"t7c", "p"}
    events = play(g, "0:t7c")  # nothing more to throw: the bout closes at once
    taken = next(e for e in events if e.kind == "bout_taken")
    assert taken.seat == 1
    assert {c.code for c in taken.cards} == {"7s", "7c"}
    assert {"7s", "7c"} <= hand(g, 1)
    assert {c.code for c in g.known_cards(0)[1]} == {"7s", "7c"}
    assert g.known_cards(1) == {}
    view = g.public_view()
    assert view.attacker == 0
    assert view.defender == 1


def test_a_new_card_reopens_the_passes() -> None:
    g = position(PODKIDNOY, ["7s 7c Kd", "8s 9c Qd Js", "8c Jd Qs"])
    play(g, "0:a7s", "1:b7s8s")
    assert g.to_move() == {0, 2}
    assert legal(g, 0) == {"t7c", "p"}
    play(g, "0:p")
    assert g.to_move() == {2}
    assert g.public_view().passed == {0}
    assert refused(g, 0, "t7c") == "illegal.already_passed"
    play(g, "2:t8c")
    assert g.public_view().passed == set()
    play(g, "1:b8c9c")
    assert g.to_move() == {0}  # must answer again: the table changed
    events = play(g, "0:p")
    assert "bout_beaten" in kinds(events)


def test_while_the_defence_is_open_throwers_may_throw_but_not_pass() -> None:
    g = position(PODKIDNOY, ["7s 7c Kd", "8s 9c Qd"])
    play(g, "0:a7s")
    assert g.to_move() == {0, 1}
    assert legal(g, 0) == {"t7c"}
    assert refused(g, 0, "p") == "illegal.defence_in_progress"


# ---------------------------------------------------------------- refill


def test_refill_attacker_first_then_clockwise_defender_last() -> None:
    g = Durak.position(
        PODKIDNOY,
        ["7s Jd Qd Kd Ac", "8s Jc Qc Kc 9d", "Js Qs Ks As Td", "Th Jh Qh Kh Tc"],
        attacker=0,
        trump_card="Ah",
        stock="6c 6d 9c",
    )
    events = play(g, "0:a7s", "1:b7s8s")
    draws = [(e.seat, e.value) for e in events if e.kind == "draw"]
    assert draws == [(0, 2), (2, 1), (3, 1)]  # defender 1 gets nothing: stock gone
    assert {"6c", "6d"} <= hand(g, 0)
    assert "9c" in hand(g, 2)
    assert "Ah" in hand(g, 3)  # the trump card is drawn last
    assert g.hand_size(1) == 4
    view = g.public_view()
    assert view.stock == 0
    assert view.trump_card is None
    assert view.trump is Suit.HEARTS
    assert view.active == {0, 1, 2, 3}
    assert all(e.cards == () for e in events if e.kind == "draw")


def test_the_trump_card_is_drawn_last_and_known() -> None:
    hands = ["7s 9d Jd Qd Kd Ad", "8s Td Tc Jc Qc"]
    g = Durak.position(PODKIDNOY, hands, attacker=0, trump_card="Ah", stock="6c")
    assert g.public_view().stock == 2
    assert g.public_view().trump_card == Card.parse("Ah")
    events = play(g, "0:a7s", "1:b7s8s")
    assert [(e.seat, e.value) for e in events if e.kind == "draw"] == [(0, 1), (1, 1)]
    assert "6c" in hand(g, 0)
    assert "Ah" in hand(g, 1)
    assert {c.code for c in g.known_cards(0)[1]} == {"Ah"}
    assert g.public_view().known == ((), cards("Ah"))
    assert g.view(1).known == ((), ())  # a seat's own cards are listed in "hand"


def test_an_empty_hand_with_stock_left_is_refilled_not_out() -> None:
    g = position(PODKIDNOY, ["7s", "8s 9s 9d"])
    events = play(g, "0:a7s", "1:b7s8s")
    assert "out" not in kinds(events)
    assert g.hand_size(0) == 6
    assert g.public_view().active == {0, 1}


# ----------------------------------------------------------- who starts


def test_the_lowest_trump_leads_the_first_bout() -> None:
    hands = ["6s 7s 8s 9s Ts Js", "9h 6c 7c 8c 9c Tc", "7h Jc Qc Kc 6d 7d"]
    g = Durak.deal(PODKIDNOY, 3, pack_for(hands, "Ah"))
    assert [hand(g, s) for s in range(3)] == [set(h.split()) for h in hands]
    view = g.public_view()
    assert view.trump is Suit.HEARTS
    assert view.trump_card == Card.parse("Ah")
    assert view.dealer == 0
    assert (view.attacker, view.defender) == (2, 0)


def test_without_trumps_the_lowest_card_leads_ties_by_seat() -> None:
    hands = ["7s 8s 9s Ts Js Qs", "Ks 6c 7c 8c 9c Tc", "As 6d 7d 8d 9d Td"]
    g = Durak.deal(PODKIDNOY, 3, pack_for(hands, "Ah"))
    view = g.public_view()
    assert (view.attacker, view.defender) == (1, 2)


def test_later_games_start_with_the_lowest_trump_by_default_and_the_loser_deals() -> None:
    hands = ["6s 6c Qs Qc Ks 8d", "7s 8s 9s Ts Js As", "7c 8c 9c Tc Jc Ac"]
    previous = Outcome(((0,), (1,), (2,)), frozenset({0, 1}), frozenset({2}))
    g = Durak.deal(PODKIDNOY, 3, pack_for(hands, "7h", dealer=2), previous=previous)
    view = g.public_view()
    assert view.dealer == 2
    assert [hand(g, s) for s in range(3)] == [set(h.split()) for h in hands]
    assert (view.attacker, view.defender) == (0, 1)  # nobody holds a trump: the 6s


def test_under_the_loser_and_its_first_cards_cannot_be_transferred() -> None:
    rules = DurakRules(transfer=Transfers.TRANSFER, later_first_attack=FirstAttack.UNDER_LOSER)
    hands = ["6s 6c Qs Qc Ks 8d", "7s 8s 9s Ts Js As", "7c 8c 9c Tc Jc Ac"]
    previous = Outcome(((0,), (1,), (2,)), frozenset({0, 1}), frozenset({2}))
    pack = pack_for(hands, "6h", first_stock="7d", dealer=2)
    g = Durak.deal(rules, 3, pack, previous=previous)
    view = g.public_view()
    assert view.dealer == 2
    assert (view.attacker, view.defender) == (1, 2)  # the loser's right attacks him
    play(g, "1:a7s")
    assert legal(g, 2) == {"k"}
    assert refused(g, 2, "x7c") == "illegal.transfer_locked"
    play(g, "2:k")
    view = g.public_view()
    assert (view.attacker, view.defender) == (0, 1)
    assert "7d" in hand(g, 1)
    play(g, "0:a8d")
    assert "x8s" in legal(g, 1)  # later bouts may be transferred again


def test_under_the_loser_falls_back_to_the_lowest_trump_after_a_draw() -> None:
    rules = DurakRules(later_first_attack=FirstAttack.UNDER_LOSER)
    hands = ["6s 6c Qs Qc Ks 8d", "7s 8s 9s Ts Js As", "7c 8c 9c Tc Jc Ac"]
    drawn = Outcome(((0, 1, 2),), frozenset(), frozenset(), draw=True)
    g = Durak.deal(rules, 3, pack_for(hands, "7h"), previous=drawn)
    view = g.public_view()
    assert view.dealer == 0
    assert (view.attacker, view.defender) == (0, 1)


# ------------------------------------------------------------- transfer


def test_transfer_chain_passes_the_attack_round_the_table() -> None:
    g = position(PEREVODNOY, ["7s 7d 9c 9d", "7c Ts Js", "7h 8h 9h Qs"])
    play(g, "0:a7s")
    assert "x7c" in legal(g, 1)
    events = play(g, "1:x7c")
    assert events == [Event("transfer", 1, (Card.parse("7c"),), 2)]
    view = g.public_view()
    assert (view.attacker, view.defender, view.cap) == (1, 2, 4)
    play(g, "2:x7h")
    view = g.public_view()
    assert (view.attacker, view.defender, view.cap) == (2, 0, 3)
    assert [row.attack for row in view.table] == list(cards("7s 7c 7h"))
    # Seat 0 holds 7d but seat 1 has two cards: four attack cards are too many.
    assert not any(code.startswith("x") for code in legal(g, 0))
    assert refused(g, 0, "x7d") == "illegal.transfer_too_many"
    events = play(g, "0:k")
    assert "bout_taken" in kinds(events)
    view = g.public_view()
    assert (view.attacker, view.defender) == (1, 2)


def test_transfer_needs_enough_cards_in_the_next_hand() -> None:
    hands = ["7s 7c 9d", "7d 8s 8c", "Ts Js"]
    g = position(PEREVODNOY, hands)
    play(g, "0:a7s7c")
    assert not any(code.startswith("x") for code in legal(g, 1))
    assert refused(g, 1, "x7d") == "illegal.transfer_too_many"

    roomy = position(PEREVODNOY, [*hands[:2], "Ts Js Qs"])
    play(roomy, "0:a7s7c")
    assert "x7d" in legal(roomy, 1)


def test_no_transfer_once_a_card_is_beaten() -> None:
    g = position(PEREVODNOY, ["7s 7c Qd Jd As", "8s 7d 9s Kd"])
    play(g, "0:a7s7c")
    assert "x7d" in legal(g, 1)
    play(g, "1:b7s8s")
    assert not any(code.startswith("x") for code in legal(g, 1))
    assert refused(g, 1, "x7d") == "illegal.transfer_after_beat"


def test_transfer_needs_the_attack_rank_and_the_perevodnoy_rules() -> None:
    hands = ["7s 7c", "8s 7d 8d Kd"]
    g = position(PEREVODNOY, hands)
    play(g, "0:a7s")
    assert refused(g, 1, "x8d") == "illegal.wrong_rank"
    podkidnoy = position(PODKIDNOY, hands)
    play(podkidnoy, "0:a7s")
    assert refused(podkidnoy, 1, "x7d") == "illegal.no_transfer"


# ------------------------------------------------- next attacker, going out


def test_after_a_beaten_bout_the_defender_attacks() -> None:
    g = position(PODKIDNOY, ["7s 9d Jd", "8s Tc Qc", "Kd Ks Qs"])
    play(g, "0:a7s", "1:b7s8s")
    view = g.public_view()
    assert (view.attacker, view.defender) == (1, 2)


def test_after_a_take_the_player_left_of_the_defender_attacks() -> None:
    g = position(PODKIDNOY, ["7s 9d Jd", "8s Tc Qc", "Kd Ks Qs"])
    play(g, "0:a7s", "1:k")
    view = g.public_view()
    assert (view.attacker, view.defender) == (2, 0)


def test_players_leave_when_empty_after_the_stock_is_gone() -> None:
    g = Durak.position(PODKIDNOY, ["7s", "8s 9d", "Kd Qd Jd"], attacker=0, trump="h")
    play(g, "0:a7s")
    assert g.public_view().active == {1, 2}  # out at once, placed when the bout ends
    events = play(g, "1:b7s8s")
    assert [(e.kind, e.seat, e.value) for e in events if e.kind == "out"] == [("out", 0, 1)]
    view = g.public_view()
    assert view.out_order == ((0,),)
    assert (view.attacker, view.defender) == (1, 2)
    events = play(g, "1:a9d", "2:b9dJd")
    assert events[-1] == Event("game_over", 2, value="durak")
    outcome = g.outcome()
    assert outcome == Outcome(((0,), (1,), (2,)), frozenset({0, 1}), frozenset({2}))
    assert g.public_view().durak == 2
    assert g.to_move() == frozenset()


def test_an_out_player_is_skipped_as_defender() -> None:
    g = Durak.position(PODKIDNOY, ["9d Td", "Kd", "8c Jc"], attacker=1, trump="h", out_order=())
    assert (g.public_view().attacker, g.public_view().defender) == (1, 2)
    play(g, "1:aKd", "2:k")  # seat 1 went out leading his last card
    view = g.public_view()
    assert view.out_order == ((1,),)
    assert (view.attacker, view.defender) == (0, 2)


def test_the_durak_is_the_last_player_holding_cards() -> None:
    g = Durak.position(PODKIDNOY, ["7s", "6s 6d"], attacker=0, trump="h")
    play(g, "0:a7s")
    assert legal(g, 1) == {"k"}
    events = play(g, "1:k")
    assert kinds(events)[-2:] == ["out", "game_over"]
    outcome = g.outcome()
    assert outcome is not None
    assert outcome.losers == {1}
    assert outcome.winners == {0}
    assert not outcome.draw
    assert outcome.places == ((0,), (1,))


def test_a_draw_when_the_last_bout_empties_everyone() -> None:
    g = Durak.position(PODKIDNOY, ["7s", "8s"], attacker=0, trump="h")
    events = play(g, "0:a7s", "1:b7s8s")
    assert [e.seat for e in events if e.kind == "out"] == [0, 1]
    assert events[-1] == Event("game_over", value="draw")
    outcome = g.outcome()
    assert outcome == Outcome(((0, 1),), frozenset(), frozenset(), draw=True)
    view = g.public_view()
    assert view.draw is True
    assert view.durak is None
    assert view.phase is Phase.OVER


def test_after_the_end_nothing_applies() -> None:
    g = Durak.position(PODKIDNOY, ["7s", "8s"], attacker=0, trump="h")
    play(g, "0:a7s", "1:b7s8s")
    assert g.legal_actions(0) == []
    assert g.legal_actions(1) == []
    assert refused(g, 0, "p") == "illegal.game_over"


# --------------------------------------------------------- six with 36


def test_six_players_with_36_cards_the_dealers_last_card_shows_trump() -> None:
    pack = deck(36)
    random.Random(7).shuffle(pack)
    g = Durak.deal(PODKIDNOY, 6, pack)
    last = pack[35]
    assert last in g.hand(0)  # seat 0 dealt, his last card
    view = g.public_view()
    assert view.stock == 0
    assert view.trump_card is None
    assert view.trump is last.suit
    assert view.hands == (6,) * 6
    assert g.known_cards(3) == {0: [last]}
    assert view.known[0] == (last,)
    zones = {z.name: z.cards for z in g.zones()}
    assert zones["trump"] == ()
    assert zones["stock"] == ()
    trumps = [c for c in pack if c.suit is last.suit]
    lowest = min(trumps, key=lambda c: c.rank)
    assert view.attacker is not None
    assert lowest in g.hand(view.attacker)


def test_four_players_with_24_cards_also_deal_everything() -> None:
    g = Durak.new(DurakRules(deck_size=24), 4, random.Random(1))
    assert g.public_view().stock == 0
    assert sum(g.public_view().hands) == 24


# ------------------------------------------------------------ turn timers


def test_the_game_waits_on_the_leader_then_the_defender_then_throwers_consent() -> None:
    g = position(PODKIDNOY, ["7s 7c 9d", "8s Kc 6d", "7d Tc"])
    assert g.waits() == {0: Wait.DECIDE}
    play(g, "0:a7s")
    assert g.to_move() == {0, 1, 2}  # they may throw in meanwhile ...
    assert g.waits() == {1: Wait.DECIDE}  # ... but only the defender is waited on
    play(g, "1:b7s8s")
    assert g.waits() == {0: Wait.CONSENT, 2: Wait.CONSENT}
    play(g, "0:p")
    assert g.waits() == {2: Wait.CONSENT}
    taken = position(PODKIDNOY, ["7s 7c 9d", "8s Kc 6d", "7d Tc"])
    play(taken, "0:a7s", "1:k")
    assert taken.waits() == {0: Wait.CONSENT, 2: Wait.CONSENT}
    over = Durak.position(PODKIDNOY, ["7s", "6s 6d"], attacker=0, trump="h")
    play(over, "0:a7s", "1:k")
    assert over.waits() == {}


def test_the_timer_leads_the_lowest_non_trump_else_the_lowest_trump() -> None:
    g = position(PODKIDNOY, ["6h As 7c 9d 7s", "8s Kc 6d"])  # hearts are trumps
    lead = g.default_action(0)
    assert lead == Attack((Card.parse("7s"),))  # rank first, then suit order: 7s before 7c
    assert lead in g.legal_actions(0)
    trumps = position(PODKIDNOY, ["Th 6h", "8s Kc 6d"])
    assert trumps.default_action(0).encode() == "a6h"
    play(trumps, "0:a6h")
    assert trumps.default_action(1).encode() == "k"


def test_the_timer_takes_for_the_defender_and_passes_for_a_thrower() -> None:
    g = position(PODKIDNOY, ["7s 7c 9d", "8s Kc 6d", "7d Tc"])
    play(g, "0:a7s")
    assert g.default_action(1).encode() == "k"
    with pytest.raises(IllegalAction) as caught:  # a thrower is not waited on yet
        g.default_action(2)
    assert caught.value.reason == "illegal.not_your_turn"
    play(g, "1:k")
    assert g.default_action(0).encode() == g.default_action(2).encode() == "p"
    with pytest.raises(IllegalAction):
        g.default_action(1)
    play(g, "0:p", "2:p")
    assert hand(g, 1) == {"7s", "8s", "Kc", "6d"}
    view = g.public_view()
    assert (view.attacker, view.defender) == (2, 0)


def test_no_default_move_once_the_game_is_over() -> None:
    g = Durak.position(PODKIDNOY, ["7s", "6s 6d"], attacker=0, trump="h")
    play(g, "0:a7s", "1:k")
    with pytest.raises(IllegalAction) as caught:
        g.default_action(1)
    assert caught.value.reason == "illegal.game_over"


def test_every_durak_move_is_made_in_the_hand() -> None:
    g = position(PODKIDNOY, ["7s 7c 9d", "8s Kc 6d", "7d Tc"])
    play(g, "0:a7s")
    assert {a.place for s in range(3) for a in g.legal_actions(s)} == {Place.HAND}


# ---------------------------------------------------------------- resigning


def cards_everywhere(game: Durak) -> Counter[Card]:
    return Counter(c for z in game.zones() for c in z.cards)


def test_a_player_who_resigns_is_the_durak_and_the_game_ends_at_once() -> None:
    g = position(PODKIDNOY, ["7s 9c", "8s Kc 6d"])
    play(g, "0:a7s")
    cards = cards_everywhere(g)
    events = g.resign(1)
    assert events == [Event("resign", 1), Event("game_over", 1, value="durak")]
    assert g.outcome() == Outcome(((0,), (1,)), frozenset({0}), frozenset({1}))
    assert g.to_move() == frozenset()
    assert g.waits() == {}
    view = g.public_view()
    assert view.phase is Phase.OVER
    assert view.durak == 1
    assert view.draw is False
    assert view.active == {0, 1}
    assert view.table == (TableRow(Card.parse("7s"), None, covered=False),)  # cards stay put
    assert cards_everywhere(g) == cards
    assert hand(g, 1) == {"8s", "Kc", "6d"}
    assert refused(g, 0, "p") == "illegal.game_over"
    before = g.dump()
    with pytest.raises(IllegalAction) as caught:
        g.resign(0)
    assert caught.value.reason == "illegal.game_over"
    assert g.dump() == before
    assert Durak.load(json.loads(json.dumps(before))).outcome() == g.outcome()


def test_the_attacker_may_resign_too() -> None:
    g = position(PODKIDNOY, ["7s 9c", "8s Kc 6d"])
    g.resign(0)
    assert g.outcome() == Outcome(((1,), (0,)), frozenset({1}), frozenset({0}))


def test_of_the_last_two_the_one_who_leaves_is_the_durak_and_the_others_share_a_place() -> None:
    g = Durak.position(
        PODKIDNOY, ["", "7s 9c", "8s Kc 6d", "Tc Jd"], attacker=1, trump="h", out_order=[[0]]
    )
    g.resign(3)  # three in play: the game goes on
    play(g, "1:a7s", "2:b7s8s")
    g.resign(1)  # one of the last two: the durak
    outcome = g.outcome()
    assert outcome == Outcome(((0,), (2,), (1,), (3,)), frozenset({0, 2}), frozenset({1}))
    assert g.public_view().durak == 1


def test_seats_already_out_keep_their_places_and_cannot_resign() -> None:
    g = Durak.position(
        PODKIDNOY, ["", "7s 9c", "8s Kc", "Tc Jd"], attacker=1, trump="h", out_order=[[0]]
    )
    before = g.dump()
    with pytest.raises(IllegalAction) as caught:
        g.resign(0)
    assert caught.value.reason == "illegal.not_in_game"
    assert g.dump() == before
    with pytest.raises(IllegalAction) as caught:
        g.resign(4)
    assert caught.value.reason == "illegal.not_in_game"
    g.resign(2)  # three still in play: the game goes on without him
    assert g.outcome() is None
    g.resign(3)
    outcome = g.outcome()
    assert outcome == Outcome(((0,), (1,), (3,), (2,)), frozenset({0, 1}), frozenset({3}))


def test_a_player_out_in_this_bout_is_placed_when_another_resigns() -> None:
    g = Durak.position(PODKIDNOY, ["7s", "8s 9d", "Kd Qd Jd"], attacker=0, trump="h")
    play(g, "0:a7s")  # out at once, placed when the bout ends
    events = g.resign(2)
    assert events == [
        Event("out", 0, value=1),
        Event("resign", 2),
        Event("game_over", 2, value="durak"),
    ]
    assert g.public_view().out_order == ((0,),)
    assert g.outcome() == Outcome(((0,), (1,), (2,)), frozenset({0, 1}), frozenset({2}))


def test_a_player_with_an_empty_hand_and_cards_left_to_draw_is_still_in_play() -> None:
    g = position(PODKIDNOY, ["7s", "8s Kc 6d"])
    play(g, "0:a7s")
    assert g.public_view().active == {0, 1}
    g.resign(0)
    assert g.outcome() == Outcome(((1,), (0,)), frozenset({1}), frozenset({0}))


def test_a_resign_in_the_move_log_replays_through_perform() -> None:
    g = Durak.new(PODKIDNOY, 3, random.Random(5))
    log: list[tuple[int, str]] = []
    for _ in range(4):
        seat = min(g.waits())
        code = g.default_action(seat).encode()
        perform(g, seat, code)
        log.append((seat, code))
    perform(g, 2, RESIGN)
    log.append((2, RESIGN))
    again = Durak.new(PODKIDNOY, 3, random.Random(5))
    for seat, code in log:
        perform(again, seat, code)
    assert again.dump() == g.dump()
    assert again.public_view().left == (2,)
    assert not again.is_over


# ---------------------------------------------- leaving a game that goes on
# A player removed from a game (by an admin, or absent at a table that removes
# absentees) with two or more others still in play, each for himself: the game
# goes on without him (docs/rules/durak.md, "A player who leaves").


def three_with_stock() -> Durak:
    """Seat 0 leads against seat 1, seat 2 may throw in; six cards to draw, A♥
    the trump card under them."""
    return position(PODKIDNOY, ["7s 7c 9d", "8s Kc 6d", "Tc Jd 7h"])


def test_a_thrower_who_leaves_takes_no_part_and_his_cards_are_set_aside() -> None:
    g = three_with_stock()
    cards = cards_everywhere(g)
    play(g, "0:a7s")
    events = g.resign(2)
    assert events == [Event("resign", 2)]
    view = g.public_view()
    assert view.active == {0, 1}
    assert view.left == (2,)
    assert view.hands[2] == 0
    assert view.aside == 3
    assert cards_everywhere(g) == cards
    assert not any(z.cards for z in g.zones() if z.name in ("hand2", "known2"))
    assert g.legal_actions(2) == []
    play(g, "1:b7s8s")  # beaten; seat 0 passes or throws 7♣ alone now
    assert g.to_move() == frozenset({0})
    events = play(g, "0:p")
    assert "bout_beaten" in kinds(events)
    assert [e.seat for e in events if e.kind == "draw"] == [0, 1]  # he draws nothing
    assert g.public_view().attacker == 1  # the defender beat it off: he leads
    assert g.public_view().defender == 0  # against the next one in play


def test_a_card_he_threw_in_stays_in_the_bout() -> None:
    g = position(PODKIDNOY, ["7s 9d", "8s Kc 6d 9h", "7c Jd"])
    play(g, "0:a7s", "2:t7c")
    g.resign(2)
    assert [row.attack for row in g.public_view().table] == list(cards("7s 7c"))
    events = play(g, "1:k")  # nobody else may throw: taken at once
    assert "bout_taken" in kinds(events)
    assert {"7s", "7c"} <= hand(g, 1)


def test_a_defender_who_leaves_ends_the_bout_its_cards_go_to_the_discard() -> None:
    g = three_with_stock()
    play(g, "0:a7s")
    before = g.public_view().discard
    events = g.resign(1)
    assert kinds(events)[:2] == ["resign", "bout_beaten"]
    view = g.public_view()
    assert view.table == ()
    assert view.beaten == ()  # straight to the face-down discard
    assert view.discard == before + 1
    assert [e.seat for e in events if e.kind == "draw"] == [0, 2]
    assert (view.attacker, view.defender) == (2, 0)  # the player after him leads


def test_the_leader_who_leaves_passes_the_lead_on() -> None:
    g = three_with_stock()
    g.resign(0)
    view = g.public_view()
    assert (view.attacker, view.defender, view.phase) == (1, 2, Phase.ATTACK)
    assert g.to_move() == frozenset({1})


def test_the_player_under_the_leader_who_leaves_is_skipped() -> None:
    g = three_with_stock()
    g.resign(1)
    view = g.public_view()
    assert (view.attacker, view.defender) == (0, 2)
    assert view.cap == 3  # as many cards as the new defender holds


def test_believe_with_the_attacker_gone_the_covers_are_set_aside_unseen() -> None:
    believe = PRESETS["believe"]
    hands = ["7s 7c Ah", "9s 8c 6d Kh", "Tc Jd Qs"]
    g = position(believe, hands, attacker=0, trump="h", trump_card=None, stock=[])
    play(g, "0:a7s7c", "1:f7s9s", "1:f7c6d")
    events = g.resign(0)
    shown = {c.code for e in events for c in e.cards}
    assert shown == {"7s", "7c"}  # the face-down covers stay unseen
    public = json.dumps(g.public_view().to_json())
    assert "9s" not in public
    assert "6d" not in public
    assert g.public_view().aside == 1 + 2  # his A♥, and the two covers
    assert g.public_view().attacker == 1  # the defender leads next


def test_the_game_goes_on_to_its_durak_and_the_one_who_left_is_placed_last() -> None:
    g = Durak.position(PODKIDNOY, ["7s 9c", "8s Kc", "Tc Jd"], attacker=0, trump="h")
    g.resign(2)
    play(g, "0:a7s", "1:b7s8s")  # beaten off: seat 0 has nothing to throw, none to draw
    play(g, "1:aKc")
    play(g, "0:k")
    outcome = g.outcome()
    assert outcome == Outcome(((1,), (0,), (2,)), frozenset({1}), frozenset({0}))
    assert g.public_view().durak == 0
    assert g.public_view().left == (2,)


def test_a_game_with_a_seat_left_round_trips_and_loads_from_format_2() -> None:
    g = three_with_stock()
    play(g, "0:a7s")
    g.resign(2)
    dumped = g.dump()
    assert dumped["left"] == [2]
    assert sorted(dumped["aside"]) == ["7h", "Jd", "Tc"]
    assert Durak.load(json.loads(json.dumps(dumped))).dump() == dumped
    fresh = three_with_stock().dump()
    old = {k: v for k, v in fresh.items() if k not in ("left", "aside")}
    assert Durak.load({**old, "format": 2}).dump() == fresh


def test_determinize_deals_the_cards_set_aside_like_a_hidden_hand() -> None:
    g = three_with_stock()
    g.resign(2)
    aside = {z.name: z.cards for z in g.zones()}["aside"]
    dealt = set()
    for seed in range(30):
        world = g.determinize(0, random.Random(seed))
        zones = {z.name: z.cards for z in world.zones()}
        assert len(zones["aside"]) == len(aside)
        assert cards_everywhere(world) == cards_everywhere(g)
        dealt.add(frozenset(zones["aside"]))
    assert len(dealt) > 5  # the observer cannot tell which cards left with him


# ------------------------------------------------------------- determinize


def test_determinize_keeps_what_the_observer_knows() -> None:
    hands = ["7s 7c 9d", "8s Kc 6d", "Tc Jd As"]
    stock = [c for c in deck(36) if c.code not in " ".join(hands) and c.code != "Ah"][:15]
    g = position(PODKIDNOY, hands, stock=stock)
    play(g, "0:a7s", "1:k", "0:t7c")  # seat 1 picks up 7s 7c; all draw from the stock
    assert g.public_view().known[1] == cards("7s 7c")
    view = g.view(0)
    dealt = set()
    for seed in range(30):
        world = g.determinize(0, random.Random(seed))
        assert world.view(0) == view
        assert {"7s", "7c"} <= hand(world, 1)
        assert [world.hand_size(s) for s in range(3)] == [g.hand_size(s) for s in range(3)]
        zones = {z.name: z.cards for z in world.zones()}
        assert zones["trump"] == (Card.parse("Ah"),)
        assert cards_everywhere(world) == cards_everywhere(g)
        dealt.add((frozenset(hand(world, 1)), frozenset(hand(world, 2)), zones["stock"]))
        assert Durak.load(world.dump()).dump() == world.dump()
    assert len(dealt) > 10


def test_determinize_keeps_who_may_throw_in() -> None:
    # Seat 2 holds a seven (he is asked to throw in), seat 0 holds no card of
    # the ranks on the table: every world dealt for the defender says the same.
    g = position(PODKIDNOY, ["9c 9d Jd", "8s Kc 6d", "7d 7c Qs"], attacker=2)
    play(g, "2:a7d", "0:b7d9d")
    assert g.to_move() == {2}
    worlds = [g.determinize(0, random.Random(seed)) for seed in range(40)]
    ranks = {"7", "9"}
    for world in worlds:
        assert world.to_move() == {2}
        assert any(c[0] in ranks for c in hand(world, 2))
        assert not any(c[0] in ranks for c in hand(world, 1))
    assert len({frozenset(hand(w, 1)) for w in worlds}) > 1
