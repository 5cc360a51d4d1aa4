"""What the pictures share: the fonts that ship with the screens (DejaVu Sans
Condensed, subset to the scripts of our languages - Latin, Cyrillic with the
Ukrainian letters, Georgian - so that a machine without fonts draws the same
pictures), names made fit to draw, text cut to a width, and the encoding sent."""

from __future__ import annotations

import functools
import html
import io
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

__all__ = ["FONTS", "GLYPHS", "JPEG_QUALITY", "drawable", "encoded", "fit", "plain", "typeface"]

FONTS = Path(__file__).with_name("fonts")

GLYPHS = (
    (0x20, 0x7E),
    (0xA0, 0x17F),
    (0x400, 0x45F),
    (0x490, 0x491),
    (0x10D0, 0x10FC),
    (0x2010, 0x2027),
    (0x2030, 0x203A),
    (0x2190, 0x2193),
    (0x2211, 0x2212),
    (0xD7, 0xD7),
    (0x2605, 0x2605),
    (0x2660, 0x2667),
    (0x2713, 0x2713),
    (0x2716, 0x2716),
    (0x25B6, 0x25B6),
)
"""The characters the shipped fonts hold (what they were subset to)."""


def drawable(text: str) -> str:
    """``text`` without the characters the fonts cannot draw (emoji, other
    scripts), so that no empty box shows; ``?`` if nothing is left."""
    kept = "".join(c for c in text if any(lo <= ord(c) <= hi for lo, hi in GLYPHS))
    return " ".join(kept.split()) or "?"


@functools.cache
def typeface(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSansCondensed-Bold.ttf" if bold else "DejaVuSansCondensed.ttf"
    return ImageFont.truetype(str(FONTS / name), size)


def fit(draw: ImageDraw.ImageDraw, text: str, font: ImageFont.FreeTypeFont, width: float) -> str:
    """``text`` cut (with an ellipsis) to fit ``width`` pixels."""
    if draw.textlength(text, font=font) <= width:
        return text
    while text and draw.textlength(text + "…", font=font) > width:
        text = text[:-1]
    return text + "…"


def plain(name: str) -> str:
    """A display name as drawn: the names screens get are HTML-escaped."""
    return html.unescape(name)


JPEG_QUALITY = 90
"""Telegram keeps every photo as a JPEG it encodes itself, whatever was
uploaded: a good JPEG looks the same on a phone as the PNG it would be made
from, and takes about a seventh of the PNG's time to encode (the track: 3.5
against 24.5 ms; ``bench.pictures`` has the whole pictures)."""


def encoded(image: Image.Image) -> bytes:
    """The bytes of ``image`` as sent: a JPEG."""
    out = io.BytesIO()
    image.save(out, "JPEG", quality=JPEG_QUALITY)
    return out.getvalue()
