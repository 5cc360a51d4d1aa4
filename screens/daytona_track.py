"""Daytona's track drawn as it lies on the table (Pillow).

The 14 cards in their rectangle (4 across the top and the bottom, 3 down each
side), the start/finish card outside the left side, the pit stop and the last
card drawn in the middle, every car a numbered token on the card it stands on
(cars on one card side by side; cars before the start left of the start card),
and a legend: each player's colour, name, where his car is and his points.

Cars drive counter-clockwise from the start/finish card: down the left side,
along the bottom, up the right side, back along the top, and down to the
finish.  An arrow in every gap of the loop points the way.  The start/finish
card is ringed in gold with a chequered edge; the card just drawn is ringed in
the colour of the car that drew it, with that car's token beside it, so the
two are never mistaken for each other.  When the race is over, a banner across
the middle says so (gold on black between chequered flags).

Sizes: the picture is about 900 pixels wide.  Telegram shows a photo on a
phone at about 400 points wide, so a pixel is about 0.44 point there: the
legend's 26-pixel text shows at about 11.5 points, a card's 34-pixel rank at
15, a car (34 pixels across) at 15.  A card is 94 pixels wide so that a "10"
and its suit stand apart, clear of a ring round the card, at that size; the
gaps across are narrower than those down, and the arrows in them shorter.
The fonts ship with the package, as for Joker's sheet.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from games.cards import Card
from games.daytona.track import BEFORE_START, FINISHED, ON_START, TRACK_CARDS
from screens.drawing import drawable, encoded, fit, typeface

__all__ = [
    "ARROW",
    "CARD_W",
    "CAR_COLOURS",
    "CAR_R",
    "START_RING",
    "Car",
    "TrackLabels",
    "card_corners",
    "draw_track",
]

CARD_W, CARD_H = 94, 124
GAP_X, GAP_Y = 24, 30
"""Room between cards (across, down) for the arrows of the direction of travel."""
MARGIN = 28
LEFT = 70
"""Room left of the start/finish card for the cars before the start."""
LEGEND_ROW = 46
CAR_R = 17
"""A car token's radius."""
INSET = 12
"""From a card's edge to its rank and suit: clear of a ring (6 pixels wide)."""
RANK_SIZE, SUIT_SIZE = 34, 26
"""The rank's (bold) and the suit's type sizes: a "10" (43 pixels wide) and a
suit (21) leave 6 pixels between them on a card."""
WIDTH = LEFT + MARGIN + 7 * CARD_W + 6 * GAP_X
BOARD_H = MARGIN * 2 + 5 * CARD_H + 4 * GAP_Y
"""The picture's width, and the height above its legend."""

FELT = (28, 94, 60)
LEGEND_BG = (244, 241, 232)
PAPER = (252, 250, 244)
INK = (30, 32, 40)
RED = (200, 30, 40)
START_RING = (240, 196, 60)
"""Gold: the start/finish card's ring and label (and the ring of the car on move)."""
ARROW = (170, 214, 184)
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
_LOOP = [_START, *_CELLS, _START]
"""The cells in driving order, from the start round to the finish."""


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
    drawn: str
    """Over the card just drawn."""
    stock: str
    round: str
    """The draw limit's count (``turn 7 of 30``); empty without a limit."""
    last: str
    """The last draw and what it did (empty before the first)."""
    over: str = ""
    """That the race (or the whole match) is over; empty while it runs."""


def _xy(cell: tuple[int, int]) -> tuple[int, int]:
    col, row = cell
    return LEFT + col * (CARD_W + GAP_X), MARGIN + row * (CARD_H + GAP_Y)


def card_corners() -> dict[str, tuple[float, float]]:
    """The top left corners of the start/finish card, the pit stop and the
    card drawn last."""
    inner_left = _xy((2, 1))[0]
    inner_right = _xy((5, 1))[0] + CARD_W
    middle_x = (inner_left + inner_right) / 2
    top = _centre((3, 2))[1] - CARD_H / 2
    return {
        "start": _xy(_START),
        "pit": (middle_x - CARD_W - 40, top),
        "drawn": (middle_x + 40, top),
    }


def _centre(cell: tuple[int, int]) -> tuple[float, float]:
    x, y = _xy(cell)
    return x + CARD_W / 2, y + CARD_H / 2


def _card(
    draw: ImageDraw.ImageDraw,
    x: float,
    y: float,
    card: Card,
    ring: tuple[int, int, int] | None = None,
) -> None:
    """A card face up: its rank and suit along the top, so that the cars
    standing on its lower half leave them readable, each clear of the other
    and of the ring (a "10" too)."""
    draw.rounded_rectangle(
        (x, y, x + CARD_W, y + CARD_H), 9, fill=PAPER, outline=ring or INK, width=6 if ring else 1
    )
    colour = RED if card.suit is not None and card.suit.value in "hd" else INK
    label = "★" if card.is_joker else card.rank.label
    draw.text((x + INSET, y + 7), label, font=typeface(RANK_SIZE, True), fill=colour)
    if card.suit is not None:
        draw.text(
            (x + CARD_W - INSET, y + 12),
            card.suit.symbol,
            font=typeface(SUIT_SIZE),
            fill=colour,
            anchor="ra",
        )


def _chequers(draw: ImageDraw.ImageDraw, x: float, y: float) -> None:
    """The finish line: a chequered band across the start/finish card, between
    its rank and the cars on it."""
    size = 9
    columns = (CARD_W - 12) // size
    left = x + (CARD_W - columns * size) / 2
    for row in range(2):
        for col in range(columns):
            if (row + col) % 2:
                cx, cy = left + col * size, y + 50 + row * size
                draw.rectangle((cx, cy, cx + size - 1, cy + size - 1), fill=INK)


def _arrow(draw: ImageDraw.ImageDraw, a: tuple[int, int], b: tuple[int, int]) -> None:
    """An arrowhead half-way between two cells' centres, pointing from a to b."""
    (ax, ay), (bx, by) = _centre(a), _centre(b)
    mx, my = (ax + bx) / 2, (ay + by) / 2
    angle = math.atan2(by - ay, bx - ax)
    length, half = 20, 11

    def at(forward: float, side: float) -> tuple[float, float]:
        return (
            mx + forward * math.cos(angle) - side * math.sin(angle),
            my + forward * math.sin(angle) + side * math.cos(angle),
        )

    draw.polygon(
        [at(length / 2, 0), at(-length / 2, half), at(-length / 4, 0), at(-length / 2, -half)],
        fill=ARROW,
    )


BANNER_SIZES = (30, 26, 22)
"""The type sizes a banner's text may take, the largest that fits first."""


def _banner(draw: ImageDraw.ImageDraw, text: str, left: float, right: float) -> None:
    """A race's end, said across the middle above the pit stop: gold on
    black between two chequered flags, as wide as the inner field."""
    top = _xy((2, 1))[1] + CARD_H / 2 - 32
    bottom = top + 64
    draw.rounded_rectangle((left, top, right, bottom), 12, fill=INK, outline=START_RING, width=3)
    size = 8
    for side in (left + 14, right - 14 - 3 * size):
        for row in range(6):
            for col in range(3):
                if (row + col) % 2 == 0:
                    cx, cy = side + col * size, top + 8 + row * size
                    draw.rectangle((cx, cy, cx + size - 1, cy + size - 1), fill=PAPER)
    room = right - left - 2 * (14 + 3 * size + 12)
    shown = drawable(text)
    font = typeface(BANNER_SIZES[-1], True)
    for points in BANNER_SIZES:
        font = typeface(points, True)
        if draw.textlength(shown, font=font) <= room:
            break
    shown = fit(draw, shown, font, room)
    draw.text(
        ((left + right) / 2, (top + bottom) / 2), shown, font=font, fill=START_RING, anchor="mm"
    )


def _token(draw: ImageDraw.ImageDraw, cx: float, cy: float, seat: int, moving: bool) -> None:
    r = CAR_R
    if moving:
        draw.ellipse((cx - r - 6, cy - r - 6, cx + r + 6, cy + r + 6), outline=START_RING, width=5)
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=CAR_COLOURS[seat], outline=INK, width=2)
    draw.text((cx, cy), str(seat + 1), font=typeface(22, True), fill=PAPER, anchor="mm")


def _spots(x: float, y: float, cars: int) -> list[tuple[float, float]]:
    """Where the tokens of so many cars stand on the card at (x, y): on its
    lower half, one or two in a row, three or four in two rows."""
    left, right = x + CARD_W / 4, x + CARD_W * 3 / 4
    if cars == 1:
        return [(x + CARD_W / 2, y + CARD_H - 34)]
    if cars == 2:
        return [(left, y + CARD_H - 34), (right, y + CARD_H - 34)]
    upper, lower = y + CARD_H - 54, y + CARD_H - 20
    return [(left, upper), (right, upper), (left, lower), (right, lower)][:cars]


@functools.lru_cache(maxsize=32)
def _board(
    track: tuple[Card, ...], start: Card, pit: Card, start_label: str, pit_label: str, cars: int
) -> Image.Image:
    """What a race's pictures share: the felt, the legend's ground, the
    arrows, the track's cards, the start/finish card and the pit stop.  Drawn
    once per race and language, and copied for each picture (about half the
    drawing; the pixels are those of drawing it all every time).  Never drawn
    on: callers draw on a copy."""
    width, board_h = WIDTH, BOARD_H
    height = board_h + LEGEND_ROW * cars + MARGIN
    image = Image.new("RGB", (width, height), FELT)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, board_h - MARGIN // 2, width, height), fill=LEGEND_BG)
    for a, b in itertools.pairwise(_LOOP):
        _arrow(draw, a, b)
    for index, card in enumerate(track):
        _card(draw, *_xy(_CELLS[index]), card)
    where = card_corners()
    sx, sy = where["start"]
    _card(draw, sx, sy, start, START_RING)
    _chequers(draw, sx, sy)
    draw.text(
        (sx + CARD_W / 2, sy + CARD_H + 10),
        start_label,
        font=typeface(17, True),
        fill=START_RING,
        anchor="ma",
    )
    px, top = where["pit"]
    _card(draw, px, top, pit)
    draw.text(
        (px + CARD_W / 2, top - 10), pit_label, font=typeface(20, True), fill=PAPER, anchor="md"
    )
    return image


def draw_track(
    track: Sequence[Card],
    start: Card,
    pit: Card,
    last: tuple[Card, int] | None,
    cars: Sequence[Car],
    labels: TrackLabels,
) -> bytes:
    """The picture of the track with the cars on it; ``last`` is the card drawn
    last and the seat that drew it."""
    width, board_h = WIDTH, BOARD_H
    image = _board(tuple(track[:TRACK_CARDS]), start, pit, labels.start, labels.pit, len(cars))
    image = image.copy()
    draw = ImageDraw.Draw(image)
    where = card_corners()
    sx, sy = where["start"]

    # The middle: the card drawn last, what it did, the stock.
    inner_left = _xy((2, 1))[0]
    inner_right = _xy((5, 1))[0] + CARD_W
    middle_x = (inner_left + inner_right) / 2
    top = where["pit"][1]
    if last is not None:
        card, seat = last
        lx = where["drawn"][0]
        _card(draw, lx, top, card, CAR_COLOURS[seat])
        draw.text(
            (lx + CARD_W / 2, top - 10),
            labels.drawn,
            font=typeface(20, True),
            fill=CAR_COLOURS[seat],
            anchor="md",
        )
        _token(draw, lx + CARD_W / 2, top + CARD_H - 34, seat, False)
    if labels.over:
        _banner(draw, labels.over, inner_left, inner_right)
    below = top + CARD_H + 34
    if labels.last:
        font = typeface(24, True)
        text = fit(draw, drawable(labels.last), font, inner_right - inner_left)
        draw.text((middle_x, below), text, font=font, fill=PAPER, anchor="mm")
    below += 36
    counts = "  ·  ".join(x for x in (labels.round, labels.stock) if x)
    draw.text((middle_x, below), counts, font=typeface(22), fill=PAPER, anchor="mm")

    by_place: dict[int, list[int]] = {}
    for seat, car in enumerate(cars):
        by_place.setdefault(car.position, []).append(seat)
    for position, seats in by_place.items():
        if position >= FINISHED:
            continue
        if position == BEFORE_START:
            x = sx - LEFT / 2
            y = sy + CARD_H / 2 - (len(seats) - 1) * (CAR_R + 2)
            for i, seat in enumerate(seats):
                _token(draw, x, y + i * (2 * CAR_R + 4), seat, cars[seat].moving)
            continue
        x, y = _xy(_START if position == ON_START else _CELLS[position - ON_START - 1])
        for seat, (tx, ty) in zip(seats, _spots(x, y, len(seats)), strict=True):
            _token(draw, tx, ty, seat, cars[seat].moving)

    y = board_h + 4
    font, bold = typeface(26), typeface(26, True)
    for seat, car in enumerate(cars):
        _token(draw, MARGIN + CAR_R + 4, y + LEGEND_ROW / 2, seat, car.moving)
        points = str(car.points)
        room = width - 2 * MARGIN - 2 * CAR_R - 24 - draw.textlength(points, font=bold) - 16
        shown = bold if car.moving else font
        text = fit(draw, f"{drawable(car.name)} — {drawable(car.status)}", shown, room)
        draw.text(
            (MARGIN + 2 * CAR_R + 24, y + LEGEND_ROW / 2), text, font=shown, fill=INK, anchor="lm"
        )
        draw.text((width - MARGIN, y + LEGEND_ROW / 2), points, font=bold, fill=INK, anchor="rm")
        y += LEGEND_ROW
    return encoded(image)
