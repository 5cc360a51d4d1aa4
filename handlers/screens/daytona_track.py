"""Daytona's track drawn as it lies on the table (Pillow).

The 14 cards in their rectangle (4 across the top and the bottom, 3 down each
side), the start/finish card outside the left side, the pit stop and the last
card drawn in the middle, every car a coloured token on the card it stands on
(cars on one card side by side; cars before the start left of the start card),
and a legend: each player's colour, name, where his car is and his points.

Cars drive counter-clockwise from the start/finish card: down the left side,
along the bottom, up the right side, back along the top, and down to the
finish.  The fonts ship with the package, as for Joker's sheet.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from games.cards import Card
from games.daytona.track import BEFORE_START, FINISHED, ON_START
from handlers.screens.drawing import drawable, typeface

__all__ = ["CAR_COLOURS", "Car", "TrackLabels", "draw_track"]

CARD_W, CARD_H = 58, 82
GAP = 10
MARGIN = 18
LEFT = 44
"""Room left of the start/finish card for the cars before the start."""
LEGEND_ROW = 26

FELT = (28, 94, 60)
FELT_EDGE = (20, 70, 44)
PAPER = (252, 250, 244)
INK = (30, 32, 40)
RED = (200, 30, 40)
GOLD = (240, 196, 60)
CAR_COLOURS = ((230, 57, 70), (58, 134, 255), (255, 190, 11), (155, 93, 229))
"""Red, blue, yellow, violet: one per seat."""

# Grid cells (column, row) of the 14 track cards in driving order; column 0
# is the start/finish card's, the rectangle spans columns 1..6 and rows 0..4.
_CELLS = (
    [(1, 2), (1, 3)]
    + [(c, 4) for c in range(2, 6)]
    + [(6, r) for r in (3, 2, 1)]
    + [(c, 0) for c in range(5, 1, -1)]
    + [(1, 1)]
)
_START = (0, 2)


@dataclass(frozen=True, slots=True)
class Car:
    name: str
    position: int
    """As in :mod:`games.daytona.engine`: 0 before the start, 1 the start
    card, 2..15 the track, 16 finished."""
    status: str
    """What the legend says of it (in the chat's language)."""
    points: int
    moving: bool
    """Its player is on move."""


@dataclass(frozen=True, slots=True)
class TrackLabels:
    pit: str
    start: str
    stock: str
    last: str
    """The last draw and what it did (empty before the first)."""


def _xy(cell: tuple[int, int]) -> tuple[int, int]:
    col, row = cell
    return LEFT + col * (CARD_W + GAP), MARGIN + row * (CARD_H + GAP)


def _card(
    draw: ImageDraw.ImageDraw, x: int, y: int, card: Card, ring: tuple[int, int, int] | None
) -> None:
    draw.rounded_rectangle(
        (x, y, x + CARD_W, y + CARD_H), 7, fill=PAPER, outline=ring or INK, width=3 if ring else 1
    )
    colour = RED if card.suit is not None and card.suit.value in "hd" else INK
    label = "★" if card.is_joker else card.rank.label
    draw.text((x + 6, y + 3), label, font=typeface(20, True), fill=colour)
    if card.suit is not None:
        draw.text(
            (x + CARD_W / 2, y + CARD_H / 2 + 8),
            card.suit.symbol,
            font=typeface(30),
            fill=colour,
            anchor="mm",
        )


def _token(draw: ImageDraw.ImageDraw, cx: float, cy: float, seat: int, moving: bool) -> None:
    r = 10
    if moving:
        draw.ellipse((cx - r - 3, cy - r - 3, cx + r + 3, cy + r + 3), outline=GOLD, width=3)
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=CAR_COLOURS[seat], outline=INK, width=1)
    draw.text((cx, cy), str(seat + 1), font=typeface(13, True), fill=PAPER, anchor="mm")


def draw_track(
    track: Sequence[Card],
    start: Card,
    pit: Card,
    last: Card | None,
    cars: Sequence[Car],
    labels: TrackLabels,
) -> bytes:
    """The PNG of the track with the cars on it."""
    width = LEFT + MARGIN + 7 * CARD_W + 6 * GAP
    board_h = MARGIN * 2 + 5 * CARD_H + 4 * GAP
    height = board_h + LEGEND_ROW * (len(cars) + 1) + MARGIN
    image = Image.new("RGB", (width, height), FELT)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, board_h - MARGIN // 2, width, height), fill=(244, 241, 232))
    for index, card in enumerate(track):
        _card(draw, *_xy(_CELLS[index]), card, None)
    sx, sy = _xy(_START)
    _card(draw, sx, sy, start, GOLD)
    above = (sx + CARD_W / 2, sy - 5)
    draw.text(above, labels.start, font=typeface(10, True), fill=GOLD, anchor="md")
    px, py = _xy((3, 2))
    px += (CARD_W + GAP) // 2
    _card(draw, px, py, pit, None)
    draw.text(
        (px + CARD_W / 2, py - 4), labels.pit, font=typeface(12, True), fill=PAPER, anchor="md"
    )
    if last is not None:
        lx = px + CARD_W + GAP
        _card(draw, lx, py, last, GOLD)
    middle_x = LEFT + 3.5 * (CARD_W + GAP)
    draw.text(
        (middle_x, py + CARD_H + 14), labels.stock, font=typeface(13), fill=PAPER, anchor="mm"
    )
    if labels.last:
        draw.text(
            (middle_x, py - 26), labels.last, font=typeface(14, True), fill=PAPER, anchor="mm"
        )

    by_place: dict[int, list[int]] = {}
    for seat, car in enumerate(cars):
        by_place.setdefault(car.position, []).append(seat)
    for position, seats in by_place.items():
        if position >= FINISHED:
            continue
        if position == BEFORE_START:
            x, y = sx - LEFT / 2, sy + CARD_H / 2
            for i, seat in enumerate(seats):
                _token(draw, x, y - 30 + i * 22, seat, cars[seat].moving)
            continue
        x, y = _xy(_START if position == ON_START else _CELLS[position - ON_START - 1])
        step = CARD_W / (len(seats) + 1)
        for i, seat in enumerate(seats):
            _token(draw, x + step * (i + 1), y + CARD_H - 14, seat, cars[seat].moving)

    y = board_h + 4
    for seat, car in enumerate(cars):
        _token(draw, MARGIN + 10, y + 11, seat, car.moving)
        text = f"{drawable(car.name)} — {drawable(car.status)}"
        draw.text((MARGIN + 30, y + 2), text, font=typeface(15, car.moving), fill=INK)
        draw.text(
            (width - MARGIN, y + 2), str(car.points), font=typeface(15, True), fill=INK, anchor="ra"
        )
        y += LEGEND_ROW
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False, compress_level=3)
    return out.getvalue()
