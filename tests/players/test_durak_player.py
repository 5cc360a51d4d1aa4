"""The Durak heuristic: legal in every variant, deterministic, and sensible in
a few hand-made positions."""

from __future__ import annotations

import itertools
import random

import pytest

from games.cards import deck
from games.core import Action, Outcome
from games.durak import PRESETS, SPEC, Durak, DurakRules, FirstAttack, Transfers, Trump
from games.durak.actions import PASS, TAKE
from players import DurakHeuristic, RandomPlayer
from players.arena import next_seat, play, random_seat
from tests.players.common import Checked

ALL_RULES = [
    DurakRules(deck_size=d, transfer=t, first_bout_five=f, later_first_attack=a)
    for d, t, f, a in itertools.product(
        (24, 36, 52), (Transfers.NONE, Transfers.TRANSFER), (False, True), FirstAttack
    )
]
ALL_RULES += [
    PRESETS["refusal"],
    PRESETS["refusal"].replace(deck_size=24, later_first_attack=FirstAttack.UNDER_LOSER),
    PRESETS["diamonds"],
    PRESETS["diamonds"].replace(deck_size=52, trump=Trump.TURNED_NO_SPADES, first_bout_five=True),
    PRESETS["akulina"],
    PRESETS["akulina"].replace(later_first_attack=FirstAttack.UNDER_LOSER, first_bout_five=True),
    PRESETS["teams"],
    PRESETS["teams"].replace(deck_size=52, transfer=Transfers.TRANSFER),
    PRESETS["blind"],
    PRESETS["blind"].replace(transfer=Transfers.TRANSFER, deck_size=24),
    PRESETS["believe"],
    PRESETS["believe"].replace(deck_size=24, later_first_attack=FirstAttack.UNDER_LOSER),
]
H = DurakHeuristic()
RNG = random.Random(0)


_DEFAULT_OPTIONS = {
    "deck_size": 36,
    "transfer": Transfers.NONE,
    "first_bout_five": False,
    "later_first_attack": FirstAttack.LOWEST_TRUMP,
}


def rule_id(rules: DurakRules) -> str:
    variant = SPEC.preset_name(rules.replace(**_DEFAULT_OPTIONS)) or "custom"
    return (
        f"{variant}-{rules.deck_size}-{rules.transfer.value}"
        f"{'-five' if rules.first_bout_five else ''}-{rules.later_first_attack.value}"
    )


@pytest.mark.parametrize("rules", ALL_RULES, ids=rule_id)
def test_only_legal_moves_in_every_variant_and_seat_count(rules: DurakRules) -> None:
    """Heuristic and random seats mixed, and all-heuristic tables; two games
    in a row so that "under the loser" starts the second; seats asked in the
    referee's order and at random (so the heuristic is also asked to throw in
    while the defender is still covering)."""
    for seats in SPEC.seat_range(rules):
        for mix, chooser in itertools.product(("alternate", "all"), (next_seat, random_seat)):
            heuristic = Checked(H)
            randoms = Checked(RandomPlayer())
            players = [heuristic if mix == "all" or s % 2 == 0 else randoms for s in range(seats)]
            rng = random.Random(seats * 1000 + len(mix))
            previous: Outcome | None = None
            for _ in range(2):
                game = Durak.new(rules, seats, rng, previous=previous)
                previous = play(game, players, rng, choose_seat=chooser)
                assert game.is_over
            assert heuristic.calls > 0


NO, YES = Transfers.NONE, Transfers.TRANSFER
LOOPED = [(24, YES, 3, 0), (36, NO, 5, 42), (36, NO, 6, 37), (36, YES, 6, 25)]
LOOPED += [(52, NO, 3, 26), (52, NO, 3, 37), (52, NO, 5, 45), (52, YES, 3, 37)]


@pytest.mark.parametrize(("deck_size", "transfer", "seats", "seed"), LOOPED)
def test_heuristics_alone_do_not_pass_cards_round_for_ever(
    deck_size: int, transfer: Transfers, seats: int, seed: int
) -> None:
    """Deals on which heuristic-only tables, always leading their best lead,
    passed the same cards round the table for ever (each defender taking
    what he could not or would not cover, then leading it on): now and then
    the second best lead breaks such a cycle."""
    moves = 0

    def count(seat: int, action: Action) -> None:
        nonlocal moves
        moves += 1

    rng = random.Random(seed)
    game = Durak.new(DurakRules(deck_size=deck_size, transfer=transfer), seats, rng)
    play(game, [H] * seats, rng, on_move=count)
    assert moves < 1000


def test_same_view_and_seed_same_choice() -> None:
    """Every decision of a game asked again, with a fresh rng of the same
    seed, gives the same action; and a whole game replays identically."""
    rules = DurakRules(transfer=Transfers.TRANSFER)
    logs: list[list[tuple[int, str]]] = []
    for _ in range(2):
        log: list[tuple[int, str]] = []
        game = Durak.new(rules, 3, random.Random(5))
        rng = random.Random(6)

        def record(seat: int, action: Action, log: list[tuple[int, str]] = log) -> None:
            log.append((seat, action.encode()))

        play(game, [H, H, H], rng, on_move=record)
        logs.append(log)
    assert logs[0] == logs[1]

    game = Durak.new(rules, 3, random.Random(5))
    for seat, code in logs[0]:
        view = game.view(seat)
        legal = game.legal_actions(seat)
        first = H.choose(rules, view, legal, random.Random(seat))
        again = H.choose(rules, view, legal, random.Random(seat))
        assert first == again
        game.apply(seat, Durak.decode_action(code))


# ------------------------------------------------------------ positions


def ask(game: Durak, seat: int) -> Action:
    return H.choose(game.rules, game.view(seat), game.legal_actions(seat), RNG)


def early(hands: list[str], rules: DurakRules | None = None) -> Durak:
    """Seat 0 leads; 18 cards are left in the stock, the jack of hearts (trump)
    under them; the rest is in the discard pile."""
    used = set(" ".join(hands).split()) | {"Jh"}
    stock = [c.code for c in deck(36) if c.code not in used][:18]
    return Durak.position(rules or DurakRules(), hands, attacker=0, trump_card="Jh", stock=stock)


def late(hands: list[str]) -> Durak:
    """Seat 0 leads; no stock, hearts are trumps."""
    return Durak.position(DurakRules(), hands, attacker=0, trump="h")


def act(game: Durak, seat: int, code: str) -> None:
    game.apply(seat, Durak.decode_action(code))


def test_leads_its_lowest_plain_cards_together() -> None:
    game = early(["6s 6c Kd Ah Js Qc", "7s Ks Ad Qh Jc Kc"])
    assert ask(game, 0) == Durak.decode_action("a6s6c")


def test_covers_with_the_cheapest_card() -> None:
    game = early(["7s Js Kd Ac Jc Qc", "8s Ks Ad Qh 6c 7d"])
    act(game, 0, "a7s")
    assert ask(game, 1) == Durak.decode_action("b7s8s")


def test_takes_a_low_card_early_rather_than_spend_its_top_trump() -> None:
    game = early(["7s Js Kd Ac Jc Qc", "Ah 6s Ad Kc 6c 8d"])
    act(game, 0, "a7s")
    assert ask(game, 1) == TAKE


def test_covers_with_a_trump_once_the_stock_is_gone() -> None:
    game = late(["7s Js Kd Ac Jc Qc", "Ah 6s Ad Kc 6c 8d"])
    act(game, 0, "a7s")
    assert ask(game, 1) == Durak.decode_action("b7sAh")


def test_throws_a_low_card_to_a_taker() -> None:
    game = early(["6s 6c 7h Ac Jc Qc", "8s Ks Ad Qs Jd 8d"])
    act(game, 0, "a6s")
    act(game, 1, "k")
    assert ask(game, 0) == Durak.decode_action("t6c")


def test_keeps_a_trump_early_instead_of_throwing_it_in() -> None:
    game = early(["6s 6h 7h Ac Jc Qc", "8s Ks Ad Qs Jd 8d"])
    act(game, 0, "a6s")
    act(game, 1, "k")
    assert ask(game, 0) == PASS


def test_transfers_with_a_cheap_card() -> None:
    rules = DurakRules(transfer=Transfers.TRANSFER)
    game = early(["7s Js Kd Ac Jc Qc", "7c Ks Ad Qs 8s 8d", "9s Kh Th 6c Tc Qd"], rules)
    act(game, 0, "a7s")
    assert ask(game, 1) == Durak.decode_action("x7c")


def test_does_not_transfer_with_a_trump_early() -> None:
    rules = DurakRules(transfer=Transfers.TRANSFER)
    game = early(["7s Js Kd Ac Jc Qc", "7h Ks Ad Qs 8s 8d", "9s Kh Th 6c Tc Qd"], rules)
    act(game, 0, "a7s")
    assert ask(game, 1) == Durak.decode_action("b7s8s")


def test_endgame_throws_in_what_the_defender_cannot_beat() -> None:
    # His last card, the 8 of diamonds, cannot beat the 7 of clubs.
    game = late(["7s 7c 9s", "Ts 8d"])
    act(game, 0, "a7s")
    act(game, 1, "b7sTs")
    assert ask(game, 0) == Durak.decode_action("t7c")
