"""The turn and absence rules on their own (``services/turns.py``): real games
played at random to the states in question, tables made by hand."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from games.core import Wait
from games.durak import Durak, DurakRules
from games.hundred_one import HundredOne
from games.hundred_one.rules import PRESETS
from services import turns
from storage import DeadlineRow, OnAbsence, SeatRow, Status, TableRow

NOW = 1_800_000_000.0
TURN = 60


def table(
    game: Any, *, absent: int | None = None, computer: int | None = None, on_absence: OnAbsence
) -> TableRow:
    seats = tuple(
        SeatRow(
            seat=n,
            user_id=None if n == computer else 100 + n,
            computer=1 if n == computer else None,
            first_name=None if n == computer else f"P{n}",
            dm_ok=True,
            language=None,
            timeouts=2 if n == absent else 0,
            absent=n == absent,
        )
        for n in range(game.seats)
    )
    return TableRow(
        id=5,
        chat_id=-100,
        thread_id=0,
        game=game.key,
        rules=game.rules.to_json(),
        status=Status.PLAYING,
        creator_id=100,
        seed=1,
        state=None,
        version=1,
        moves=1,
        previous_id=None,
        turn_seconds=TURN,
        on_absence=on_absence,
        end_reason=None,
        seats=seats,
    )


def running(seat: int, due: float, warn_at: float | None = None) -> dict[int, DeadlineRow]:
    return {seat: DeadlineRow(5, seat, due, warn_at, False)}


def deciding(game: Any) -> int:
    (seat,) = [s for s, w in game.waits().items() if w is Wait.DECIDE]
    return int(seat)


def test_a_seat_that_keeps_the_move_with_its_own_move_keeps_its_deadline() -> None:
    """101: he draws, the drawn card fits, he is still to play it."""
    for seed in range(200):
        game = HundredOne.new(PRESETS["classic"], 2, random.Random(seed))
        rng = random.Random(seed)
        for _ in range(100):
            seat = deciding(game)
            codes = [a.encode() for a in game.legal_actions(seat)]
            if codes != ["d"]:
                game.apply(seat, rng.choice(game.legal_actions(seat)))
                continue
            game.apply(seat, game.legal_actions(seat)[0])
            if game.waits().get(seat) is not Wait.DECIDE:
                break
            before = running(seat, NOW + 5, None)
            at = table(game, on_absence=OnAbsence.COMPUTER)
            rows = turns.deadlines(at, game, NOW, before=before, mover=seat)
            assert rows == [before[seat]]  # five seconds left, warned already
            # The same state reached by somebody else's move is a new turn.
            (fresh,) = turns.deadlines(at, game, NOW, before=before, mover=1 - seat)
            assert fresh.due_at == NOW + TURN
            assert fresh.warn_at == NOW + TURN * (1 - turns.WARN_AT)
            return
    raise AssertionError("no draw that keeps the move in 200 deals")


def test_a_throw_in_gives_the_defender_a_new_turn_with_the_full_time() -> None:
    """Durak, three players: the defender is deciding; a thrower adds a card."""
    for seed in range(200):
        game = Durak.new(DurakRules(), 3, random.Random(seed))
        rng = random.Random(seed)
        for _ in range(60):
            if game.outcome() is not None:
                break
            waits = game.waits()
            defender = next((s for s, w in waits.items() if w is Wait.DECIDE), None)
            throws = [
                (s, a)
                for s in range(3)
                if s != defender and s not in waits
                for a in game.legal_actions(s)
            ]
            if defender is not None and throws:
                thrower, action = throws[0]
                game.apply(thrower, action)
                if game.waits().get(defender) is not Wait.DECIDE:
                    break
                before = running(defender, NOW + 5, None)
                at = table(game, on_absence=OnAbsence.COMPUTER)
                (row,) = turns.deadlines(at, game, NOW, before=before, mover=thrower)
                assert row.seat == defender
                assert row.due_at == NOW + TURN
                return
            seat = min(waits)
            game.apply(seat, rng.choice(game.legal_actions(seat)))
    raise AssertionError("no throw-in while the defender decides in 200 deals")


def test_a_seat_a_computer_plays_has_no_deadline_and_one_back_gets_a_clock() -> None:
    game = HundredOne.new(PRESETS["classic"], 2, random.Random(1))
    seat = deciding(game)
    away = table(game, absent=seat, on_absence=OnAbsence.COMPUTER)
    assert turns.played_by_computer(away, seat)
    assert turns.deadlines(away, game, NOW, before=running(seat, NOW + 5), mover=None) == []
    computer = table(game, computer=seat, on_absence=OnAbsence.COMPUTER)
    assert turns.deadlines(computer, game, NOW) == []
    back = table(game, on_absence=OnAbsence.COMPUTER)
    (row,) = turns.deadlines(back, game, NOW, before={}, mover=None)
    assert row.due_at == NOW + TURN
    # Where absentees leave, nobody plays the seat: it keeps its clock.
    leaving = table(game, absent=seat, on_absence=OnAbsence.REMOVE)
    assert not turns.played_by_computer(leaving, seat)
    assert len(turns.deadlines(leaving, game, NOW)) == 1


def test_absence_comes_at_the_second_timed_out_turn_without_a_press_the_deal_counting() -> None:
    game = HundredOne.new(PRESETS["classic"], 2, random.Random(1))
    at = table(game, on_absence=OnAbsence.COMPUTER)
    dealt = replace(at.seats[0], timeouts=turns.DEALT)
    assert turns.timed_out(at, dealt) == turns.Presence(2, absent=True, leaves=False)
    pressed = at.seats[0]  # he pressed since: the count is back to zero
    assert turns.timed_out(at, pressed) == turns.Presence(1, absent=False, leaves=False)
    leaving = table(game, on_absence=OnAbsence.REMOVE)
    assert turns.timed_out(leaving, dealt).leaves


def test_a_press_brings_a_player_back_and_the_deal_starts_his_count() -> None:
    game = HundredOne.new(PRESETS["classic"], 2, random.Random(1))
    at = table(game, absent=1, computer=0, on_absence=OnAbsence.COMPUTER)
    assert turns.dealt(at.seats[0]) is None  # a computer has no standing
    assert turns.dealt(at.seats[1]) == turns.Presence(turns.DEALT, absent=False, leaves=False)
    back = turns.pressed(at.seats[1])
    assert back == turns.Presence(0, absent=False, leaves=False)
    assert turns.pressed(replace(at.seats[1], timeouts=0, absent=False)) is None
    returned = turns.with_presence(at, 1, back)
    assert (returned.seats[1].timeouts, returned.seats[1].absent) == (0, False)
    assert returned.seats[0] == at.seats[0]
    assert at.seats[1].absent  # the table given is left as it was


def test_running_deadlines_matter_only_while_the_mover_still_decides() -> None:
    """101: a draw that fits keeps the turn (the deadline may be kept); the move
    that passes it on does not; a computer's seat never has one to keep."""
    for seed in range(200):
        game = HundredOne.new(PRESETS["classic"], 2, random.Random(seed))
        rng = random.Random(seed)
        for _ in range(100):
            seat = deciding(game)
            if [a.encode() for a in game.legal_actions(seat)] != ["d"]:
                game.apply(seat, rng.choice(game.legal_actions(seat)))
                continue
            game.apply(seat, game.legal_actions(seat)[0])
            if not turns.turn_goes_on(game, seat):
                break
            people = table(game, on_absence=OnAbsence.COMPUTER)
            assert turns.may_keep_deadlines(people, game, seat)
            assert turns.may_keep_deadlines(people, game, None)
            computer = table(game, computer=seat, on_absence=OnAbsence.COMPUTER)
            assert not turns.may_keep_deadlines(computer, game, seat)
            for _ in range(20):  # his moves, until one passes the move on
                game.apply(seat, game.legal_actions(seat)[-1])
                if not turns.turn_goes_on(game, seat):
                    assert not turns.may_keep_deadlines(people, game, seat)
                    return
            break
    raise AssertionError("no draw that keeps the move, then a move that ends it, in 200 deals")
