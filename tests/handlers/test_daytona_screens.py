"""Daytona's screens: the track picture for a known race (it decodes, has its
size, shows every car's colour) and a caption that fits Telegram's limit in
both languages."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from games.daytona import AS_TWO, Daytona, DaytonaRules
from handlers.screens.daytona import DaytonaScreens, track_picture
from handlers.screens.daytona_track import CAR_COLOURS
from handlers.screens.drawing import drawable, plain

NAMES = ["Анна", "Борис &amp; Ко", "🤖 Тузик", "Глеб-с-очень-длинным-именем-для-подписи"]


def _race(turns: int) -> Daytona:
    game = Daytona.new(DaytonaRules(), 4, random.Random(3))
    for _ in range(turns):
        seat = min(game.to_move())
        game.apply(seat, game.default_action(seat))
    return game


def test_the_track_picture_shows_every_car_in_its_colour() -> None:
    game = _race(25)
    view = game.public_view()
    picture = track_picture("ru", view, NAMES)
    image = Image.open(io.BytesIO(picture.draw()))
    assert image.format == "PNG"
    assert image.size == (528, 634)
    colours = {colour for _, colour in image.convert("RGB").getcolors(1 << 20) or []}
    assert all(colour in colours for colour in CAR_COLOURS)
    # The key names what is shown: the same view draws the same picture ...
    assert track_picture("ru", view, NAMES).key == picture.key
    # ... and a draw changes it.
    seat = min(game.to_move())
    game.apply(seat, game.default_action(seat))
    assert track_picture("ru", game.public_view(), NAMES).key != picture.key


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_caption_fits_and_names_the_deuce_choice(lang: str) -> None:
    screens = DaytonaScreens()
    game = _race(0)
    for _ in range(5000):
        seat = min(game.to_move())
        if game.public_view()["phase"] == "deuce":
            break
        game.apply(seat, game.default_action(seat))
    view = game.public_view()
    assert view["phase"] == "deuce"
    screen = screens.table(lang, view, NAMES, live=True)
    assert screen.picture is not None
    assert len(screen.text) <= 1024
    assert "▶️" in screen.text
    label = screens.table_key(lang, AS_TWO, view)
    assert label.startswith("2️⃣")


def test_names_are_drawn_as_plain_text_without_what_the_fonts_lack() -> None:
    assert plain("Борис &amp; Ко &lt;3") == "Борис & Ко <3"
    assert drawable(plain("🤖 Тузик")) == "Тузик"
