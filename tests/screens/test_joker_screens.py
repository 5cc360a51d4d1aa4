"""Joker's screens: the score sheet drawn for a finished game, the bid and
trump buttons, a joker's menus, and the table as the group sees it."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bench.pictures import main as bench_pictures
from delivery.composed import Composed
from delivery.hand_messages import compose_hand
from delivery.table_messages import compose_group
from games.joker import Joker, JokerRules
from games.joker.views import Phase
from players import JokerHeuristic
from players.arena import play
from screens.base import SheetScreens
from screens.drawing import drawable
from screens.joker import JokerScreens, sheet_picture, sheet_text
from screens.joker_sheet import BID_W, LABEL_W, MARGIN, POINTS_W, ROW_H, SUB_H
from tests.e2e.harness import faces_in
from tests.screens.snapshots import NOW, seat, snapshot

SCREENS = JokerScreens()
NAMES = ["Аня", "Борис", "Вера", "Глеб"]
PEOPLE = tuple(seat(n, name) for n, name in enumerate(NAMES))


def finished(seed: int = 3, seats: int = 4) -> Joker:
    rng = random.Random(seed)
    game = Joker.new(JokerRules(), seats, rng)
    play(game, [JokerHeuristic()] * seats, rng)
    return game


def test_the_sheet_of_a_finished_game_is_a_picture_with_every_total_in_its_text() -> None:
    game = finished()
    view = game.public_view()
    picture = sheet_picture("ru", view, NAMES)
    image = Image.open(io.BytesIO(picture.draw()))
    image.load()
    assert image.format == "JPEG"
    assert image.width == 2 * MARGIN + LABEL_W + 4 * (BID_W + POINTS_W)
    # A phone's width in pixels (so 32-pixel points read at about 12 points
    # when Telegram shows it 400 points wide), every pulka ruled.
    assert 1000 <= image.width <= 1080
    assert 1500 <= image.height <= 1800
    text = sheet_text("ru", view, NAMES)
    for name, total in zip(NAMES, view.totals, strict=True):
        shown = str(total) if total >= 0 else f"−{-total}"
        assert f"{name} {shown}" in text
    assert len(text) <= 1024
    # The key names what is drawn: the same sheet, the same key; another, another.
    assert sheet_picture("ru", view, NAMES).key == picture.key
    assert sheet_picture("en", view, NAMES).key != picture.key


def test_a_sheet_of_three_players_in_progress_is_drawn_too() -> None:
    game = Joker.new(JokerRules(), 3, random.Random(1))
    rng = random.Random(2)
    while len(game.public_view().sheet) < 10:
        (mover,) = game.to_move()
        game.apply(mover, rng.choice(game.legal_actions(mover)))
    assert isinstance(SCREENS, SheetScreens)
    screen = SCREENS.sheet("en", game.public_view(), NAMES[:3])
    assert screen is not None
    assert screen.picture is not None
    image = Image.open(io.BytesIO(screen.picture.draw()))
    assert image.width == 2 * MARGIN + LABEL_W + 3 * (BID_W + POINTS_W)
    assert "Pulka 2 (on)" in screen.text
    # Only the pulkas begun are drawn: the first and the second, which has
    # nine deals of three players' schedule to rule, not the whole game.
    schedule = game.public_view().schedule
    ruled = sum(len(p) * ROW_H + 2 * SUB_H for p in schedule[:2])
    whole = sum(len(p) * ROW_H + 2 * SUB_H for p in schedule)
    assert image.height - ruled == Image.open(io.BytesIO(_whole_sheet(3))).height - whole


def _whole_sheet(seats: int) -> bytes:
    view = finished(seats=seats).public_view()
    picture = sheet_picture("en", view, NAMES[:seats])
    return picture.draw()


def keys_of(composed: object) -> list[str]:
    """The labels of the buttons that do something (not the cards shown
    disabled, which may not be played now)."""
    markup = getattr(composed, "markup", None)
    assert markup is not None
    return [b.label for row in markup for b in row if not b.disabled]


def test_the_dealers_bid_buttons_leave_out_the_forbidden_bid_and_say_why() -> None:
    game = Joker.position(
        JokerRules(), ["As 7s 8s", "Ks 7c 8c", "Qs 7d 8d", "Js 7h 8h"], trump="h", dealer=3,
        bids=[1, 0, 1, None],
    )  # fmt: skip
    composed, acting = compose_hand(snapshot(game, PEOPLE), 3, "ru", SCREENS, now=NOW)
    assert acting
    assert keys_of(composed) == ["Пас", "2", "3"]
    assert "Заказать 1 нельзя" in composed.text
    assert "Заказано 2 из 3" in composed.text


def test_a_joker_offers_high_or_takes_then_the_suit() -> None:
    game = Joker.position(
        JokerRules(), ["X1 7c", "Kh 8c", "Ah 9c", "Qh Tc"], trump="h", dealer=3, bids=[1, 0, 0, 0]
    )
    snap = snapshot(game, PEOPLE)
    first, _ = compose_hand(snap, 0, "ru", SCREENS, now=NOW)
    assert keys_of(first) == ["🃏", "7♣️"]
    mode, _ = compose_hand(snap, 0, "ru", SCREENS, now=NOW, focus="jX1")
    assert keys_of(mode) == ["🃏 Хочу…", "🃏 Забирает…", "« Назад"]
    suits, _ = compose_hand(snap, 0, "ru", SCREENS, now=NOW, focus="jX1h")
    assert keys_of(suits) == ["хочу ♠️", "хочу ♣️", "хочу ♦️", "хочу ♥️", "« Назад"]
    takes, _ = compose_hand(snap, 0, "ru", SCREENS, now=NOW, focus="jX1t")
    assert "♠️ забирает" in keys_of(takes)


def test_a_joker_on_a_lead_is_high_or_low_and_the_group_sees_the_trick() -> None:
    game = Joker.position(
        JokerRules(), ["As 7c", "X1 8c", "7s 9c", "8s Tc"], trump="h", dealer=3, bids=[1, 1, 0, 0]
    )
    game.apply(0, Joker.decode_action("pAs"))
    game.apply(1, Joker.decode_action("fX1h"))
    snap = snapshot(game, PEOPLE)
    text = compose_group(snap, "ru", SCREENS, now=NOW).text
    assert "На столе: Аня A♠️ · Борис 🃏 старший" in text
    assert faces_in(text) == {"As"}
    game.apply(2, Joker.decode_action("p7s"))
    composed, _ = compose_hand(snapshot(game, PEOPLE), 3, "ru", SCREENS, now=NOW)
    assert keys_of(composed) == ["8♠️"]
    assert composed.markup is not None
    (row,) = composed.markup
    assert [(b.label, b.disabled) for b in row] == [("8♠️", False), ("10♣️", True)]


def naming_the_trump() -> tuple[Joker, int]:
    """A game at its first nine-card deal's trump, and the seat naming it."""
    game = Joker.new(JokerRules(), 4, random.Random(4))
    rng = random.Random(1)
    while game.public_view().phase is not Phase.TRUMP:
        (mover,) = game.to_move()
        game.apply(mover, rng.choice(game.legal_actions(mover)))
    (chooser,) = game.to_move()
    return game, chooser


def test_the_nine_card_trump_is_named_from_five_buttons() -> None:
    game, chooser = naming_the_trump()
    snap = snapshot(game, PEOPLE)
    composed, _ = compose_hand(snap, chooser, "ru", SCREENS, now=NOW)
    assert keys_of(composed) == ["♠️ пики", "♣️ трефы", "♦️ бубны", "♥️ червы", "без козыря"]
    assert len(faces_in(composed.text)) + composed.text.count("🃏") == 3
    group = compose_group(snap, "ru", SCREENS, now=NOW).text
    assert f"Козырь называет: {NAMES[chooser]}" in group


def test_while_the_trump_is_named_each_hand_says_who_names_it_once() -> None:
    """The hands of a nine-card deal's trump phase name the chooser in their
    turn line only: not also in the trump's place, twice over, nor to the
    chooser himself in the third person above his own prompt."""
    game, chooser = naming_the_trump()
    snap = snapshot(game, PEOPLE)
    for seat_no in range(4):
        text = compose_hand(snap, seat_no, "ru", SCREENS, now=NOW)[0].text
        said = text.count(f"Козырь называет: {NAMES[chooser]}")
        assert said == (0 if seat_no == chooser else 1), text


def test_the_first_dealer_draw_is_shown_to_the_group() -> None:
    game = Joker.new(JokerRules(), 4, random.Random(6))
    text = compose_group(snapshot(game, PEOPLE), "ru", SCREENS, now=NOW).text
    draw = game.public_view().draw
    assert faces_in(text) == {e.card.code for e in draw if not e.card.is_joker}
    assert f"Первым сдаёт: {NAMES[game.public_view().dealer]}" in text


def test_the_deal_before_on_the_table_and_after_a_pulka_the_sheet_as_a_picture() -> None:
    """A deal's line is on the table message while the next deal is played
    (no group message per deal); a pulka's end posts the sheet."""
    game = Joker.new(JokerRules(), 4, random.Random(8))
    rng = random.Random(8)
    pictures = 0
    while len(game.public_view().pulkas) < 2:
        (mover,) = game.to_move()
        events = game.apply(mover, rng.choice(game.legal_actions(mover)))
        view = game.public_view()
        for screen in SCREENS.announcements("ru", events, view, NAMES):
            assert screen.picture is not None
            assert "📋" in screen.text
            pictures += 1
        if view.phase is Phase.PLAY and view.sheet:
            table = SCREENS.table("ru", view, NAMES, live=True).text
            before = view.sheet[-1]
            assert f"Сдача {before.deal} (" in table
            assert "заказ/взято: " in table
            seat = 0
            bid, took = before.bids[seat], before.tricks[seat]
            assert f"{NAMES[seat]} {bid}/{took} " in table
    assert pictures == 2


def test_the_pictures_benchmark_runs(capsys: pytest.CaptureFixture[str]) -> None:
    lines = bench_pictures(["--images", "1"])
    assert [line.images for line in lines] == [1, 1, 1, 1]
    assert all(line.mean_ms > 0 and line.jpeg_bytes > 1000 for line in lines)
    assert "joker sheet" in capsys.readouterr().out


def test_names_lose_what_the_sheets_font_cannot_draw() -> None:
    assert drawable("🤖 Валет") == "Валет"
    assert drawable("Anna 🌸 K.") == "Anna K."
    assert drawable("李") == "?"


@pytest.mark.parametrize(
    ("lang", "passed", "bid"), [("ru", "пас", "заказ 1"), ("en", "pass", "bid 1")]
)
def test_while_bidding_the_table_tells_no_tricks_taken(lang: str, passed: str, bid: str) -> None:
    """Before any card of the deal is played a seat's line has only his bid:
    "took 0" would claim a trick count of a play not begun."""
    bidding = Joker.position(
        JokerRules(), ["As 7s 8s", "Ks 7c 8c", "Qs 7d 8d", "Js 7h 8h"], trump="h", dealer=3,
        bids=[1, 0, None, None],
    )  # fmt: skip
    text = compose_group(snapshot(bidding, PEOPLE), lang, SCREENS, now=NOW).text
    assert f"Аня — {bid} · 0" in text
    assert f"Борис — {passed} · 0" in text
    playing = Joker.position(
        JokerRules(), ["As 7s 8s", "Ks 7c 8c", "Qs 7d 8d", "Js 7h 8h"], trump="h", dealer=3,
        bids=[1, 0, 1, 0],
    )  # fmt: skip
    text = compose_group(snapshot(playing, PEOPLE), lang, SCREENS, now=NOW).text
    took = "взято" if lang == "ru" else "took"
    assert f"Борис — {passed}, {took} 0 · 0" in text


def test_the_result_leads_the_final_sheet_with_the_last_deals_line() -> None:
    """The last pulka's sheet is the result's, so the result says the last
    deal as every other pulka's sheet says its own."""
    game = finished()
    view = game.public_view()
    last = view.sheet[-1]
    outcome = game.outcome()
    assert outcome is not None
    text = SCREENS.result("ru", outcome, view, NAMES).text
    assert f"Сдача {last.deal} (" in text
    for n, name in enumerate(NAMES):
        assert f"{name} {last.bids[n]}/{last.tricks[n]} " in text
    assert len(text) <= 1024


def test_minus_joker_calls_no_bid_without_a_trick_a_khisht() -> None:
    """Minus joker has no khisht (a bid missed loses 100 a trick, whatever
    was taken): neither the table's line on the deal before nor the score
    sheet calls one so; the classic game does."""
    for rules, khisht in ((JokerRules(minus=True), False), (JokerRules(), True)):
        rng = random.Random(5)
        game = Joker.new(rules, 4, rng)
        while not any(b >= 1 and t == 0 for r in game.public_view().sheet[-1:] for b, t in
                      zip(r.bids, r.tricks, strict=True)):  # fmt: skip
            (mover,) = game.to_move()
            game.apply(mover, rng.choice(game.legal_actions(mover)))
        while game.public_view().phase is Phase.DEAL:
            (mover,) = game.to_move()
            game.apply(mover, game.legal_actions(mover)[0])
        view = game.public_view()
        table = SCREENS.table("ru", view, NAMES, live=True).text
        assert ("хишт" in table) is khisht
        assert ("Хишты" in sheet_text("ru", view, NAMES)) is khisht
        assert sheet_picture("ru", view, NAMES).draw()  # drawn with its mark or without


def test_after_a_joker_led_high_the_follower_is_told_to_play_his_highest_card_of_the_suit() -> None:
    """«Хочу ♠»: Boris may play only Q♠ of his Q♠ 8♠; the prompt said «в
    масть, нет масти — козырь», and his 8♠ was shown disabled without a word
    why."""

    def led(joker: str) -> Composed:
        """Boris's hand once Anna led the joker so."""
        game = Joker.position(
            JokerRules(), ["X1 7c 8c", "Qs 8s 9h", "7d 8d 9d", "7h 8h Th"], trump="h", dealer=3,
            bids=[1, 1, 0, 0], leader=0,
        )  # fmt: skip
        game.apply(0, Joker.decode_action(joker))
        composed, _ = compose_hand(snapshot(game, PEOPLE), 1, "ru", SCREENS, now=NOW)
        return composed

    wants = led("lX1hs")
    assert keys_of(wants) == ["Q♠️"]
    assert "«Хочу ♠️»: кладите старшую ♠️, нет ♠️ — козырь." in wants.text
    takes = led("lX1ts")
    assert "Ваш ход: в масть, нет масти — козырь." in takes.text  # any spade will do
