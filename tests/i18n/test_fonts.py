"""The shipped fonts draw every language's letters with real glyphs: what
``drawable`` keeps is really in both fonts (no .notdef box), every letter of
every catalog is kept, and the pictures draw Georgian and Ukrainian names and
labels whole."""

from __future__ import annotations

import io
import random
import unicodedata
from functools import cache

import pytest
from PIL import Image, ImageFont

from games.daytona import Daytona, DaytonaRules
from games.joker import Joker, JokerRules
from i18n import LANGUAGES, catalog_keys
from players import JokerHeuristic
from players.arena import play
from screens.daytona import track_picture
from screens.drawing import FONTS, GLYPHS, drawable
from screens.joker import sheet_picture

FONT_FILES = ("DejaVuSansCondensed.ttf", "DejaVuSansCondensed-Bold.ttf")
INVISIBLE = {"Zs", "Zl", "Zp", "Cc", "Cf"}
"""Spaces and format characters: nothing to see, so nothing to compare."""
GEORGIAN_NAMES = ["ნინო", "გიორგი", "თამარი", "ლევანი"]
UKRAINIAN_NAMES = ["Ґанна", "Їжак", "Євген", "Іван"]
PICTURE_KEYS = ("joker.picture_", "daytona.picture_", "daytona.where_", "daytona.move_")
"""The catalog texts the pictures draw (the score sheet's and the track's labels)."""


@cache
def font(name: str) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / name), 24)


def rendered(name: str, char: str) -> tuple[tuple[int, int], bytes]:
    mask = font(name).getmask(char)
    return mask.size, bytes(mask)


def boxed(text: str) -> list[str]:
    """The characters of ``text`` that a font draws as its .notdef box (the
    glyph a font falls back on for a character it lacks; U+E000 is one)."""
    missing = []
    for name in FONT_FILES:
        box = rendered(name, "\ue000")
        for char in set(text):
            if unicodedata.category(char) not in INVISIBLE and rendered(name, char) == box:
                missing.append(f"{name}: U+{ord(char):04X} {char}")
    return sorted(missing)


def test_the_box_is_told_apart_from_a_glyph() -> None:
    assert boxed("\ue001")
    assert not boxed("a")


def test_every_character_drawable_keeps_is_a_real_glyph_in_both_fonts() -> None:
    kept = "".join(chr(c) for lo, hi in GLYPHS for c in range(lo, hi + 1))
    assert boxed(kept) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_letter_and_digit_of_a_catalog_is_drawn(lang: str) -> None:
    texts = catalog_keys(lang).values()
    chars = {c for text in texts for s in (text if isinstance(text, tuple) else (text,)) for c in s}
    letters = "".join(sorted(c for c in chars if unicodedata.category(c)[0] in "LN"))
    assert drawable(letters) == letters
    assert boxed(letters) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_picture_labels_are_drawn_whole(lang: str) -> None:
    """Each label the pictures draw keeps everything but its emoji."""
    for key, text in catalog_keys(lang).items():
        if not key.startswith(PICTURE_KEYS):
            continue
        for form in text if isinstance(text, tuple) else (text,):
            shown = form.format(n=3, of=14, place=2)
            without_emoji = " ".join(
                "".join(c for c in shown if unicodedata.category(c) != "So").split()
            )
            assert drawable(shown) == without_emoji, key
            assert boxed(shown.replace("🔧", "").replace("🏁", "")) == [], key


@pytest.mark.parametrize("names", [GEORGIAN_NAMES, UKRAINIAN_NAMES])
def test_names_in_georgian_and_ukrainian_are_kept_to_draw(names: list[str]) -> None:
    assert [drawable(name) for name in names] == names
    assert boxed("".join(names)) == []


@pytest.mark.parametrize(("lang", "names"), [("ka", GEORGIAN_NAMES), ("uk", UKRAINIAN_NAMES)])
def test_the_joker_sheet_and_the_daytona_track_are_drawn_in_georgian_and_ukrainian(
    lang: str, names: list[str]
) -> None:
    rng = random.Random(5)
    joker = Joker.new(JokerRules(), 4, rng)
    play(joker, [JokerHeuristic()] * 4, rng)
    daytona = Daytona.new(DaytonaRules(), 4, random.Random(5))
    for picture in (
        sheet_picture(lang, joker.public_view(), names),
        track_picture(lang, daytona.public_view(), names),
    ):
        image = Image.open(io.BytesIO(picture.draw()))
        image.load()
        assert image.format == "JPEG"
        assert image.width > 300
        assert image.height > 300
