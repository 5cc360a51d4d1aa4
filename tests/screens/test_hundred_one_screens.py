"""101's match sheet (``/sheet``) and its result: every round scored with
each player's points and total, and places that say why they are in order."""

from __future__ import annotations

import json
import random

import pytest

from delivery.hand_messages import compose_hand
from games.hundred_one import PRESETS, HundredOne
from games.hundred_one.engine import Phase
from i18n import t
from players import HundredOneHeuristic
from players.arena import play
from screens.base import SheetScreens
from screens.hundred_one import HundredOneScreens
from services import LoggedEvent
from storage import Actor, Status
from tests.screens.snapshots import NOW, snapshot
from tests.screens.snapshots import seat as seat_row

SCREENS = HundredOneScreens()
NAMES = ["Дима", "🤖 Тузик", "Аня"]


def finished(seed: int = 5) -> HundredOne:
    rng = random.Random(seed)
    game = HundredOne.new(PRESETS["classic"], 3, rng)
    play(game, [HundredOneHeuristic()] * 3, rng)
    return game


def test_101_keeps_a_sheet_that_slash_sheet_shows() -> None:
    assert isinstance(SCREENS, SheetScreens)
    game = HundredOne.new(PRESETS["classic"], 3, random.Random(1))
    assert SCREENS.sheet("ru", game.public_view(), NAMES) is None  # nothing scored yet


def test_the_sheet_lists_every_round_with_points_and_totals_and_who_is_out() -> None:
    game = finished()
    view = game.public_view()
    screen = SCREENS.sheet("ru", view, NAMES)
    assert screen is not None
    text = screen.text
    assert f"сыграно конов: {view.round}" in text
    assert len(view.rounds) == view.round
    running = [0, 0, 0]
    for number, record in enumerate(view.rounds, 1):
        assert record.round == number
        assert f"<b>Кон {number}</b> · победа: {NAMES[record.winner]}" in text
        for seat, penalty in enumerate(record.penalties):
            if penalty is None:
                continue
            running[seat] = 0 if seat in record.reset else running[seat] + penalty
            assert record.totals[seat] == running[seat]
    assert "<b>Итого:</b>" in text
    assert tuple(running) == view.totals
    for seat in view.eliminated:
        assert f"✗ <s>{NAMES[seat]}</s> — " in text
        assert f"вне игры после кона {view.out[seat]}" in text
    (winner,) = game.outcome().winners  # type: ignore[union-attr]
    assert f"• {NAMES[winner]} — " in text


@pytest.mark.parametrize("lang", ["ru", "en", "uk", "ka"])
def test_the_result_numbers_the_places_and_says_when_each_went_out(lang: str) -> None:
    game = finished()
    outcome = game.outcome()
    assert outcome is not None
    view = game.public_view()
    lines = SCREENS.result(lang, outcome, view, NAMES).text.splitlines()
    assert lines[1].startswith("<i>")  # why this order
    assert lines[1].endswith("</i>")
    ranked = [line for line in lines if line[:2] in ("1.", "2.", "3.")]
    assert [line.split(" — ")[0] for line in ranked] == [
        f"{place}. {NAMES[seat]}" for place, group in enumerate(outcome.places, 1) for seat in group
    ]
    assert all(str(view.out[s]) in ranked[i] for i, s in enumerate(view.eliminated[::-1], 1))
    if lang == "ru":
        out = [f"вне игры после кона {view.out[s]}" for s in view.eliminated[::-1]]
        assert [line.split(", ", 1)[1] for line in ranked[1:]] == out


@pytest.mark.parametrize("lang", ["ru", "en", "uk", "ka"])
def test_the_table_says_the_match_is_over_and_who_won(lang: str) -> None:
    """The group's table message itself says that the match is over, as
    Durak's and Joker's do, not only the result posted under it; while the
    match runs it says nothing of the kind."""
    game = finished()
    outcome = game.outcome()
    assert outcome is not None
    (winner,) = outcome.winners
    over = t(lang, "101.result", name=NAMES[winner])
    table = SCREENS.table(lang, game.public_view(), NAMES, live=False).text
    assert table.splitlines()[-1] == over
    assert lang == "ru" or over != t("ru", "101.result", name=NAMES[winner])  # translated
    rng = random.Random(5)
    running = HundredOne.new(PRESETS["classic"], 3, rng)
    for _ in range(40):
        view = running.public_view()
        assert over not in SCREENS.table(lang, view, NAMES, live=True).text
        (mover, *_) = sorted(running.to_move())
        running.apply(mover, rng.choice(running.legal_actions(mover)))


def test_a_player_who_left_the_match_reads_so_on_the_sheet() -> None:
    rng = random.Random(3)
    game = HundredOne.new(PRESETS["classic"], 3, rng)
    while game.public_view().phase is not Phase.ROUND_OVER:
        (mover,) = game.to_move()
        game.apply(mover, rng.choice(game.legal_actions(mover)))
    game.resign(2)
    screen = SCREENS.sheet("ru", game.public_view(), NAMES)
    assert screen is not None
    assert "✗ <s>Аня</s> — " in screen.text
    assert "вне игры с кона 1 (выход из матча)" in screen.text


def test_a_match_saved_before_rounds_were_kept_says_which_are_missing() -> None:
    rng = random.Random(2)
    game = HundredOne.new(PRESETS["classic"], 3, rng)
    while game.public_view().round < 3:
        (mover, *_) = sorted(game.to_move())
        game.apply(mover, rng.choice(game.legal_actions(mover)))
    older = json.loads(json.dumps(game.dump()))
    del older["rounds"]
    loaded = HundredOne.load(older)
    screen = SCREENS.sheet("ru", loaded.public_view(), NAMES)
    assert screen is not None
    assert "Коны до 3-го бот ещё не записывал" in screen.text
    assert "Кон 1" not in screen.text
    assert "<b>Итого:</b>" in screen.text


def test_an_eliminated_players_hand_settles_until_the_match_ends() -> None:
    """A player out of the match has nothing left to play: his hand says so
    and then stays exactly as it is while the others play on (nothing of
    whose turn it is or what they did), so that his message is never edited
    again until the match ends, which tells him his place."""
    rng = random.Random(11)
    game = HundredOne.new(PRESETS["classic"], 3, rng)
    people = tuple(seat_row(n, NAMES[n]) for n in range(3))
    log: list[LoggedEvent] = []
    out: int | None = None
    eliminated_at = 0
    shown: set[tuple[str, str]] = set()
    moves = 0
    while game.outcome() is None:
        (mover, *_) = sorted(game.to_move())
        events = game.apply(mover, rng.choice(game.legal_actions(mover)))
        moves += 1
        log += [LoggedEvent(moves, mover, Actor.PLAYER, e) for e in events]
        view = game.public_view()
        if out is None and view.eliminated:
            (out,) = view.eliminated
            eliminated_at = moves
        if out is None or game.outcome() is not None:
            continue
        recent = tuple(e for e in log if e.move > moves - 6)  # as a snapshot's
        snap = snapshot(game, people, recent=recent, moves=moves)
        hand, acting = compose_hand(snap, out, "ru", SCREENS, now=NOW)
        assert not acting
        assert not snap.legal(out)
        shown.add((hand.text, hand.digest))
    assert out is not None
    assert moves - eliminated_at > 50  # the others played on for a while
    assert len(shown) == 1, sorted(shown)  # one text, never edited
    ((text, _),) = shown
    assert "Вы выбыли — ждите конца матча." in text
    assert "Ход:" not in text
    assert f"Ваш счёт: {view.totals[out]} очк" in text
    final = snapshot(game, people, recent=(), moves=moves, status=Status.FINISHED)
    hand, _ = compose_hand(final, out, "ru", SCREENS, now=NOW)
    assert "Матч окончен" in hand.text


@pytest.mark.parametrize("lang", ["ru", "en", "uk", "ka"])
def test_a_player_out_for_holding_a_jack_reads_why(lang: str) -> None:
    """With the jack as master card, a player left holding a jack is out of
    the match whatever his total: Boris went out with 6 points, and the sheet
    said only «+6 → 6 (J♠️ K♣️) · вне игры» and his DM «Вы выбыли», which
    reads as the bot's mistake. Both say it was the jack."""
    game = HundredOne.position(PRESETS["jack"], ["Th", "JsKc", "8d9d"], discard="7h", turn=0)
    events = game.apply(0, game.legal_actions(0)[0])
    view = game.public_view()
    assert view.eliminated == (1,)
    (sheet,) = SCREENS.announcements(lang, events, view, NAMES)
    (boris,) = [line for line in sheet.text.splitlines() if line.startswith(NAMES[1])]
    assert boris.endswith(t(lang, "101.sheet_jack_out"))
    out = SCREENS.out(lang, game.view(1), NAMES)
    assert out is not None
    assert t(lang, "101.you_are_out_jack") in out.text
    # Out over the ceiling, nobody reads of a jack.
    game = HundredOne.position(
        PRESETS["classic"], ["Th", "JsKc", "8d9d"], discard="7h", turn=0, totals=[0, 98, 0]
    )
    events = game.apply(0, game.legal_actions(0)[0])
    (sheet,) = SCREENS.announcements(lang, events, game.public_view(), NAMES)
    assert t(lang, "101.sheet_jack_out") not in sheet.text
    assert t(lang, "101.sheet_eliminated") in sheet.text
    out = SCREENS.out(lang, game.view(1), NAMES)
    assert out is not None
    assert t(lang, "101.you_are_out") in out.text


@pytest.mark.parametrize("lang", ["ru", "en", "uk", "ka"])
def test_a_player_who_left_the_match_is_not_told_to_wait_for_its_end(lang: str) -> None:
    """Boris, removed by /kick or gone by /leave where absentees leave the
    game, read «Вы выбыли — ждите конца матча.» in his DM, beside the bot's
    word that the game does not count for him: he has nothing to wait for.
    His DM says he no longer plays in the match."""
    game = HundredOne.new(PRESETS["classic"], 3, random.Random(1))
    game.resign(1)
    out = SCREENS.out(lang, game.view(1), NAMES)
    assert out is not None
    assert t(lang, "101.you_left") in out.text
    assert t(lang, "101.you_are_out") not in out.text


@pytest.mark.parametrize("lang", ["ru", "en", "uk", "ka"])
def test_a_round_won_on_a_queen_says_so_beside_the_winners_minus(lang: str) -> None:
    """Anna won the round on Q♠️ and the sheet read «Дима: −40 → −40» with
    nothing to say why the winner's points went below zero: the queen that
    finished it is named."""
    game = HundredOne.position(PRESETS["classic"], ["Qs", "8d9d", "8s"], discard="7c", turn=0)
    events = game.apply(0, game.legal_actions(0)[0])
    (sheet,) = SCREENS.announcements(lang, events, game.public_view(), NAMES)
    (winner,) = [line for line in sheet.text.splitlines() if line.startswith(f"{NAMES[0]}:")]
    assert winner.endswith(t(lang, "101.sheet_queen_finish", card="Q♠️"))
    assert "−40" in winner
