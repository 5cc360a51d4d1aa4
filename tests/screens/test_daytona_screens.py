"""Daytona's screens: the track picture for a known race (a JPEG of its
size, showing every car's colour at its size, the arrows of the direction of
travel, the drawn card ringed in its drawer's colour and the start/finish card
in gold), a caption that fits Telegram's limit in both languages and counts
the draw limit's turns, and a race the limit ended."""

from __future__ import annotations

import io
import itertools
import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest
from PIL import Image

from games.cards import Card
from games.daytona import AS_TWO, DRAW, PRESETS, Daytona, DaytonaRules, DrawLimit
from games.daytona.engine import Phase
from games.daytona.views import DaytonaPublicView
from screens.daytona import DaytonaScreens, track_picture
from screens.daytona_track import (
    ARROW,
    CAR_COLOURS,
    CAR_R,
    CARD_W,
    START_RING,
    Car,
    TrackLabels,
    card_corners,
    draw_track,
)
from screens.drawing import drawable, plain
from screens.faces import face

TRACK_CODES = "5h 9c 3d 7c Js 4h 8d Qc As 6h Td Ks 3c 9h"
"""A track with a ten on it, for the positions drawn by hand."""
TRACK = tuple(Card.parse(code) for code in TRACK_CODES.split())
NAMES = ["Анна", "Борис &amp; Ко", "🤖 Тузик", "Глеб-с-очень-длинным-именем-для-подписи"]
CLOSE = 32
"""How far (in any channel) a JPEG's colour may stray from the colour drawn
(a small token's colours are kept at half resolution, as Telegram keeps them)."""


def _near(image: Image.Image, colour: tuple[int, ...]) -> int:
    """The pixels of ``image`` within :data:`CLOSE` of ``colour``."""
    near = 0
    for n, pixel in image.getcolors(1 << 22) or []:
        assert isinstance(pixel, tuple)
        if max(abs(a - b) for a, b in zip(pixel, colour, strict=True)) <= CLOSE:
            near += n
    return near


def _nearest(pixel: tuple[int, ...], colours: Sequence[tuple[int, ...]]) -> tuple[int, ...]:
    return min(colours, key=lambda c: sum((a - b) ** 2 for a, b in zip(pixel, c, strict=True)))


def _race(turns: int, rules: DaytonaRules = PRESETS["sprint"]) -> Daytona:
    game = Daytona.new(rules, 4, random.Random(3))
    for _ in range(turns):
        seat = min(game.to_move())
        game.apply(seat, game.default_action(seat))
    return game


def test_the_track_picture_shows_every_car_in_its_colour() -> None:
    game = _race(25)
    view = game.public_view()
    picture = track_picture("ru", view, NAMES)
    decoded = Image.open(io.BytesIO(picture.draw()))
    assert decoded.format == "JPEG"
    assert decoded.size == (900, 1008)
    image = decoded.convert("RGB")
    # Every car is a token of radius CAR_R on the track and again in the
    # legend: more than one such disc (the digit and the blurred rims take the rest).
    disc = 3.14 * CAR_R**2
    assert all(_near(image, colour) >= disc for colour in CAR_COLOURS)
    # Sixteen arrows show the way round (the loop's 15 gaps and the finish).
    assert _near(image, ARROW) >= 16 * 100
    # The key names what is shown: the same view draws the same picture ...
    assert track_picture("ru", view, NAMES).key == picture.key
    # ... and a draw changes it.
    seat = min(game.to_move())
    game.apply(seat, game.default_action(seat))
    assert track_picture("ru", game.public_view(), NAMES).key != picture.key


def test_the_drawn_card_is_ringed_in_its_drawers_colour_and_the_start_in_gold() -> None:
    game = _race(25)
    view = game.public_view()
    assert view.last is not None
    drawer = view.last.seat
    image = Image.open(io.BytesIO(track_picture("en", view, NAMES).draw())).convert("RGB")
    corners = card_corners()

    def left_edge(card: str) -> tuple[int, ...]:
        x, y = corners[card]
        pixel = image.getpixel((int(x) + 2, int(y) + 60))
        assert isinstance(pixel, tuple)
        return pixel[:3]

    rings = [*CAR_COLOURS, START_RING]
    assert _nearest(left_edge("drawn"), rings) == CAR_COLOURS[drawer]
    assert _nearest(left_edge("start"), rings) == START_RING
    # Another drawer, another ring.
    other = replace(view, last=replace(view.last, seat=(drawer + 1) % 4))
    image = Image.open(io.BytesIO(track_picture("en", other, NAMES).draw())).convert("RGB")
    assert _nearest(left_edge("drawn"), rings) == CAR_COLOURS[(drawer + 1) % 4]


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_caption_fits_and_names_the_deuce_choice(lang: str) -> None:
    screens = DaytonaScreens()
    game = _race(0)
    for _ in range(5000):
        seat = min(game.to_move())
        if game.public_view().phase is Phase.DEUCE:
            break
        game.apply(seat, game.default_action(seat))
    view = game.public_view()
    assert view.phase is Phase.DEUCE
    screen = screens.table(lang, view, NAMES, live=True)
    assert screen.picture is not None
    assert len(screen.text) <= 1024
    assert "▶️" in screen.text
    label = screens.table_key(lang, AS_TWO, view)
    assert label.startswith("2️⃣")


def test_names_are_drawn_as_plain_text_without_what_the_fonts_lack() -> None:
    assert plain("Борис &amp; Ко &lt;3") == "Борис & Ко <3"
    assert drawable(plain("🤖 Тузик")) == "Тузик"


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_caption_counts_the_turns_and_says_when_the_limit_ended_the_race(lang: str) -> None:
    screens = DaytonaScreens()
    game = _race(0)
    view = game.public_view()
    text = screens.table(lang, view, NAMES, live=True).text
    assert "⏱" in text
    assert " 1 " in text
    assert " 30" in text  # turn 1 of 30: 120 draws among 4 cars
    events = []
    while game.public_view().phase in (Phase.DRAW, Phase.DEUCE):
        (seat,) = game.to_move()
        events = game.apply(seat, game.default_action(seat))
    view = game.public_view()
    assert any(e.kind == "time_up" for e in events)  # four cars rarely finish in 30 turns
    (screen,) = screens.announcements(lang, events, view, NAMES)
    assert screen.text.splitlines()[1].startswith("⏱")
    # No limit, no count.
    unlimited = Daytona.new(DaytonaRules(draw_limit=DrawLimit.NONE), 2, random.Random(1))
    assert "⏱" not in screens.table(lang, unlimited.public_view(), NAMES[:2], live=True).text


def test_a_dead_heat_at_the_limit_shows_one_place_for_both() -> None:
    track = list(TRACK)
    game = Daytona.position(
        DaytonaRules(draw_limit=DrawLimit.DRAWS_120),
        track,
        Card.parse("Kh"),
        Card.parse("Jh"),
        [Card.parse(c) for c in ("4s", "6s", "6d", "Kd")],
        positions=[5, 9, 9, 3],
        round=30,
    )
    events = []
    for seat in range(4):
        events = game.apply(seat, DRAW)
    (screen,) = DaytonaScreens().announcements("en", events, game.public_view(), NAMES)
    lines = screen.text.splitlines()
    assert lines[2:6] == [
        f"1. {NAMES[1]} +10",
        f"1. {NAMES[2]} +10",
        f"3. {NAMES[0]} +2",
        f"4. {NAMES[3]} +0",
    ]
    standings = lines[lines.index("Match score:") + 1 :]
    assert standings[:2] == [f"1. {NAMES[1]} — 10 points", f"1. {NAMES[2]} — 10 points"]


@pytest.mark.parametrize(
    ("lang", "over", "race"),
    [
        ("ru", "Гонки окончены: 1 заезд.", "Заезд 1 окончен"),
        ("en", "The races are over: 1 race.", "Race 1 is over"),
    ],
)
def test_the_result_shows_the_last_race_which_has_no_post_of_its_own(
    lang: str, over: str, race: str
) -> None:
    game = Daytona.new(DaytonaRules(target=10), 2, random.Random(5))
    events = []
    while game.to_move():
        seat = min(game.to_move())
        events = game.apply(seat, game.default_action(seat))
    screens = DaytonaScreens()
    view = game.public_view()
    assert screens.announcements(lang, events, view, NAMES[:2]) == []
    outcome = game.outcome()
    assert outcome is not None
    text = screens.result(lang, outcome, view, NAMES[:2]).text
    assert over in text
    assert race in text
    assert "+10" in text


def test_the_table_leaves_the_last_draw_to_the_log_of_recent_moves() -> None:
    """The table message's log says each draw and what it did; the race's own
    text said it again («🤖 Тузик: 4♣️ — на месте» above «Тузик тянет 4♣️»)."""
    screens = DaytonaScreens()
    game = _race(3)
    view = game.public_view()
    assert view.last is not None
    last = f"{NAMES[view.last.seat]}: {face(view.last.card.code)}"
    own = screens.hand("ru", game.view(0), [], NAMES, None, live=True).text
    assert last in own  # a player's own screen has no log
    assert last not in screens.table("ru", view, NAMES, live=True).text


def _ink_columns(image: Image.Image, box: tuple[int, int, int, int]) -> list[int]:
    """The columns of ``box`` with ink of a black rank or suit, its softened
    edges included (not the paper, nor a gold or yellow ring)."""
    left, top, right, bottom = box
    columns = []
    for x in range(left, right):
        for y in range(top, bottom):
            pixel = image.getpixel((x, y))
            assert isinstance(pixel, tuple)
            if max(pixel[:3]) < 200:
                columns.append(x)
                break
    return columns


def test_a_ten_stands_apart_from_its_suit_and_clear_of_the_cards_ring() -> None:
    """ "10" is the one rank of two characters: on the start/finish card (ringed
    in gold) and on the card drawn (ringed in the drawer's colour) it keeps
    clear of the suit beside it and of the ring, as every rank does."""
    track = list(TRACK)
    cars = [
        Car("Anna", 0, "", 0, False),
        Car("Boris", 0, "", 0, False),
        Car("Vera", 0, "", 0, True),
    ]
    labels = TrackLabels(pit="PIT", start="START", drawn="DRAWN", stock="", round="", last="")
    picture = draw_track(
        track, Card.parse("Ts"), Card.parse("Qh"), (Card.parse("Tc"), 2), cars, labels
    )
    image = Image.open(io.BytesIO(picture)).convert("RGB")
    ring = 6
    for name in ("start", "drawn"):
        x, y = (round(v) for v in card_corners()[name])
        inner = (x + ring, y + 8, x + CARD_W - ring, y + 46)  # the rank's and suit's band
        columns = _ink_columns(image, inner)
        # Clear of the ring on either side.
        assert columns[0] - inner[0] >= 6, name
        assert inner[2] - 1 - columns[-1] >= 6, name
        # The suit is the last run of ink, well apart from the "10" before it:
        # measured 11 and 12 pixels; 2 and 3 when the 10s were cramped (the
        # "1" and the "0" are 3 apart).
        gaps = [b - a - 1 for a, b in itertools.pairwise(columns) if b - a > 1]
        assert len(gaps) == 2, (name, gaps)  # 1 | 0 | suit
        assert gaps[-1] >= 8, (name, gaps)


@pytest.mark.parametrize(
    ("lang", "first_over", "match_over"),
    [("ru", "ЗАЕЗД 1 ОКОНЧЕН", "ГОНКИ ОКОНЧЕНЫ"), ("en", "RACE 1 IS OVER", "THE RACES ARE OVER")],
)
def test_the_picture_says_when_the_race_and_the_match_are_over(
    lang: str, first_over: str, match_over: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A banner across the middle says the race is over (at the match's end,
    that the races are), in the chat's language; none while a race runs."""
    said: list[tuple[Phase, int, str]] = []
    shown: list[DaytonaPublicView] = []  # the view being drawn
    pictures: dict[Phase, Image.Image] = {}

    def draw(*args: Any) -> bytes:
        """Every picture's labels; the pixels of each phase's first."""
        (view,) = shown
        said.append((view.phase, view.race, args[-1].over))
        if view.phase in pictures:
            return b""
        drawn = draw_track(*args)
        pictures[view.phase] = Image.open(io.BytesIO(drawn)).convert("RGB")
        return drawn

    monkeypatch.setattr("screens.daytona.draw_track", draw)
    game = Daytona.new(DaytonaRules(target=30), 2, random.Random(5))
    while True:
        shown[:] = [game.public_view()]
        track_picture(lang, shown[0], NAMES[:2]).draw()
        if shown[0].phase is Phase.OVER:
            break
        seat = min(game.to_move())
        game.apply(seat, game.default_action(seat))
    assert set(pictures) == set(Phase)
    for phase, race, over in said:
        if phase is Phase.RACE_OVER:
            assert over == first_over.replace("1", str(race))
        elif phase is Phase.OVER:
            assert over == match_over
        else:
            assert over == ""
    assert (Phase.RACE_OVER, 1, first_over) in said
    # Drawn across the middle above the pit stop: gold letters and rim on black.
    x, y = card_corners()["pit"]
    band = (int(x), int(y) - 110, int(x) + 200, int(y) - 30)
    assert _near(pictures[Phase.DRAW].crop(band), START_RING) == 0
    assert _near(pictures[Phase.RACE_OVER].crop(band), START_RING) > 500
    assert _near(pictures[Phase.OVER].crop(band), START_RING) > 500
