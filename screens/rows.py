"""Laying keys out in rows that a narrow phone shows whole.

Telegram cuts a label that outgrows its button with an ellipsis, so a beat
"10♦️★ → 10♥️" four to a row shows as "10♦…".  A keyboard's rows are therefore
chosen from its labels' measured widths: as many keys to a row as fit, never
more than a screen wants, in the order given.

How wide a phone's row is, in *units* (the mean advance of a lowercase Latin
letter, ~7.5 dp in Telegram's 14 sp button font):

- A keyboard under a message on a 360 dp phone is about 290 dp wide; less 16 dp
  of padding, a button alone shows ~36 units of text.  We allow **32**, to keep
  room for narrower phones and larger font settings.
- Each further button in the row costs its padding and the gap, ~22 dp or **3
  units**, and the rest is shared: a label in a row of ``n`` may be
  ``(32 - 3 (n - 1)) / n`` wide - 14.5 for two, 8.7 for three, 5.75 for four,
  4 for five.
- A character's width is its advance in our DejaVu Sans Condensed relative to
  the mean lowercase Latin letter (so "Ш" or a Georgian letter counts for more
  than "i"); an emoji counts **2.5** (Telegram draws them ~1.3 em); variation
  selectors and joiners count nothing.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Sequence

from screens.base import Key
from screens.drawing import GLYPHS, typeface

__all__ = ["CARDS_PER_ROW", "fit_rows", "fits", "label_width", "row_budget"]

CARDS_PER_ROW = 4
"""The most card keys to a row, however narrow their labels."""

ROW = 32.0
PER_BUTTON = 3.0
EMOJI = 2.5
TOLERANCE = 0.1
"""What the measure can tell apart (a tenth of a letter)."""

_SIZE = 100
"""The font size the advances are measured at (any size gives the same ratios)."""


@functools.cache
def _unit() -> float:
    font = typeface(_SIZE)
    return sum(font.getlength(c) for c in "abcdefghijklmnopqrstuvwxyz") / 26


@functools.cache
def _char_width(char: str) -> float:
    category = unicodedata.category(char)
    if category in ("Mn", "Me", "Cf"):
        return 0.0
    if category == "So" or ord(char) >= 0x1F000:
        return EMOJI
    if any(lo <= ord(char) <= hi for lo, hi in GLYPHS):
        return typeface(_SIZE).getlength(char) / _unit()
    return 1.5  # a script the font lacks: as wide as a wide letter


@functools.lru_cache(maxsize=4096)  # card labels recur on every move
def label_width(label: str) -> float:
    """How wide ``label`` is on a button, in units."""
    return sum(_char_width(char) for char in label)


def row_budget(buttons: int) -> float:
    """How wide a label may be in a row of ``buttons``, in units."""
    return (ROW - PER_BUTTON * (buttons - 1)) / buttons


def fits(label: str, buttons: int) -> bool:
    """Whether ``label`` shows whole in a row of ``buttons``."""
    return label_width(label) <= row_budget(buttons) + TOLERANCE


def fit_rows(keys: Sequence[Key], most: int = CARDS_PER_ROW) -> tuple[tuple[Key, ...], ...]:
    """``keys`` in order, in as few rows of at most ``most`` as show every
    label whole (a key too wide even alone gets a row of its own); of those
    layouts the most even (five cards go three and two, not four and one),
    fuller rows first."""
    # best[i]: the best layout of keys[i:], as (rows, sum of squared row
    # lengths, the lengths negated so that fuller rows first compare lower).
    best: list[tuple[int, int, tuple[int, ...]]] = [(0, 0, ())] * (len(keys) + 1)
    for start in range(len(keys) - 1, -1, -1):
        options = []
        for size in range(1, min(most, len(keys) - start) + 1):
            row = keys[start : start + size]
            if size > 1 and not all(fits(key.label, size) for key in row):
                break  # a longer row has less room for each of these
            rows, squares, sizes = best[start + size]
            options.append((rows + 1, squares + size * size, (-size, *sizes)))
        best[start] = min(options)
    laid_out = []
    start = 0
    for size in best[0][2]:
        laid_out.append(tuple(keys[start : start - size]))
        start -= size
    return tuple(laid_out)
