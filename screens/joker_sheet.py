"""Joker's score sheet drawn as players keep it on paper (Pillow).

A column pair per player in seat order — the bid, then the points — and a
row per deal labelled by its card count, for the pulkas played so far (the
pulka under way ruled in full, its deals not played yet blank).  Under each pulka: its premium
row (the bonus, or what was struck off) and its subtotal with the running
total.  A khisht is written in red with its mark, the deal a premium doubled
is ringed, a deal struck off is crossed through, and the winner's columns are
shaded at the end.

Sizes: four players' sheet is about 1,070 pixels wide, a phone's width in
pixels; Telegram shows it at about 400 points wide, so a pixel is about 0.37
point there.  The points (32 pixels) then read at about 12 points, the bids
and card counts (30) at 11, the totals (38) at 14 and the small marks (24:
"prem.", the khisht's cross) at 9 — a phone's body text is 11 to 17 points.
A sheet taller than 1,280 pixels (a whole game's) is scaled down by Telegram,
and with it its width, so the sizes in points stay the same.

The fonts ship with the package (``fonts/``: DejaVu Sans Condensed, subset),
so the sheet looks the same on a machine with no fonts installed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from games.joker.scoring import is_khisht
from games.joker.views import PulkaRecord, SheetRow
from screens.drawing import drawable, encoded, fit, typeface
from screens.numbers import number, signed

__all__ = ["SheetLabels", "draw_sheet"]

MARGIN = 28
LABEL_W = 88
BID_W = 76
POINTS_W = 156
ROW_H = 46
HEAD_H = 60
TITLE_H = 72
SUB_H = 44
TOTAL_H = 64

PAPER = (252, 250, 242)
INK = (32, 36, 48)
FAINT = (150, 150, 160)
RULE = (196, 200, 210)
PULKA_RULE = (60, 70, 100)
KHISHT = (196, 30, 30)
KHISHT_BG = (252, 224, 224)
MADE = (20, 110, 50)
PREMIUM_BG = (255, 236, 170)
PREMIUM_RING = (200, 140, 0)
STRUCK = (180, 40, 40)
WINNER_BG = (220, 242, 222)
HEADER_BG = (232, 236, 246)


@dataclass(frozen=True, slots=True)
class SheetLabels:
    """The words on the sheet, in the chat's language."""

    title: str
    pulka: str
    total: str
    khisht: str | None
    """The khisht's mark; None where the scoring has no khisht (minus joker)."""
    premium: str


def draw_sheet(
    names: Sequence[str],
    schedule: Sequence[Sequence[int]],
    rows: Sequence[SheetRow],
    pulkas: Sequence[PulkaRecord],
    winners: Sequence[int],
    labels: SheetLabels,
) -> bytes:
    """The picture of the sheet: ``rows`` are the deals played (the view's
    ``sheet``), ``pulkas`` the finished pulkas' records, ``winners`` the seats
    to highlight (empty while the game goes on).  Only the pulkas begun are
    drawn (the first one always)."""
    n = len(names)
    begun, deals = 1, 0
    for pulka, counts in enumerate(schedule, start=1):
        if deals < len(rows) or any(p.pulka == pulka for p in pulkas):
            begun = pulka
        deals += len(counts)
    schedule = schedule[:begun]
    pair = BID_W + POINTS_W
    width = MARGIN * 2 + LABEL_W + pair * n
    height = MARGIN * 2 + TITLE_H + HEAD_H + TOTAL_H
    height += sum(len(p) * ROW_H + 2 * SUB_H for p in schedule)
    image = Image.new("RGB", (width, height), PAPER)
    draw = ImageDraw.Draw(image)
    small = typeface(30)
    normal = typeface(32)
    bold = typeface(32, bold=True)
    title = typeface(44, bold=True)
    tiny = typeface(24, bold=True)
    left = MARGIN
    right = width - MARGIN

    def col(seat: int) -> int:
        return left + LABEL_W + seat * pair

    # Winner's columns, shaded under everything else.
    top = MARGIN + TITLE_H
    for seat in winners:
        draw.rectangle((col(seat), top, col(seat) + pair, height - MARGIN), fill=WINNER_BG)

    draw.text((left, MARGIN + TITLE_H / 2 - 4), labels.title, font=title, fill=INK, anchor="lm")
    y = top
    draw.rectangle((left, y, right, y + HEAD_H), fill=HEADER_BG)
    for seat, name in enumerate(names):
        font = bold if seat in winners else normal
        text = fit(draw, drawable(name), font, pair - 16)
        draw.text((col(seat) + pair / 2, y + HEAD_H / 2), text, font=font, fill=INK, anchor="mm")
    y += HEAD_H
    draw.line((left, y, right, y), fill=PULKA_RULE, width=3)

    def cell(x: int, w: int, yy: int, h: int, text: str, font: Any, fill: Any) -> None:
        draw.text((x + w / 2, yy + h / 2), text, font=font, fill=fill, anchor="mm")

    records = {p.pulka: p for p in pulkas}
    index = 0
    for pulka, counts in enumerate(schedule, start=1):
        record = records.get(pulka)
        first = index
        for count in counts:
            row = rows[index] if index < len(rows) else None
            cell(left, LABEL_W, y, ROW_H, str(count), small, FAINT if row is None else INK)
            if row is not None:
                for seat in range(n):
                    _deal_cells(
                        draw,
                        row,
                        seat,
                        col(seat),
                        y,
                        record,
                        index,
                        cell,
                        small,
                        normal,
                        tiny,
                        labels,
                    )
            y += ROW_H
            draw.line((left, y, right, y), fill=RULE, width=2)
            index += 1
        # The pulka's premium row and its subtotal with the running total.
        cell(left, LABEL_W, y, SUB_H, labels.premium, tiny, FAINT)
        if record is not None:
            for seat in range(n):
                bonus = record.bonus[seat]
                if bonus:
                    color = MADE if bonus > 0 else STRUCK
                    cell(col(seat), pair, y, SUB_H, signed(bonus), bold, color)
        y += SUB_H
        draw.line((left, y, right, y), fill=RULE, width=2)
        cell(left, LABEL_W, y, SUB_H, f"{labels.pulka}{pulka}", tiny, INK)
        played = list(rows[first:index])
        if record is not None or played:
            for seat in range(n):
                if record is not None:
                    sub, running = record.subtotal[seat], record.totals[seat]
                    cell(col(seat), BID_W + 12, y, SUB_H, number(sub), small, FAINT)
                    cell(col(seat) + BID_W, POINTS_W, y, SUB_H, number(running), bold, INK)
                else:
                    sub = sum(r.points[seat] for r in played)
                    cell(col(seat) + BID_W, POINTS_W, y, SUB_H, number(sub), small, FAINT)
        y += SUB_H
        draw.line((left, y, right, y), fill=PULKA_RULE, width=3)

    # The totals.
    cell(left, LABEL_W, y, TOTAL_H, labels.total, tiny, INK)
    totals = [0] * n
    for row in rows:
        for seat in range(n):
            totals[seat] += row.points[seat]
    for record in pulkas:
        for seat in range(n):
            totals[seat] += record.bonus[seat]
    for seat in range(n):
        font = typeface(38, bold=True)
        cell(
            col(seat),
            pair,
            y,
            TOTAL_H,
            number(totals[seat]),
            font,
            MADE if seat in winners else INK,
        )
    y += TOTAL_H
    # The column rules, over the whole sheet.
    for seat in range(n):
        x = col(seat)
        draw.line((x, top, x, y), fill=PULKA_RULE, width=3)
        draw.line((x + BID_W, top + HEAD_H, x + BID_W, y - TOTAL_H), fill=RULE, width=2)
    draw.line((right, top, right, y), fill=PULKA_RULE, width=3)
    draw.line((left, top, left, y), fill=PULKA_RULE, width=3)
    draw.line((left, y, right, y), fill=PULKA_RULE, width=3)
    return encoded(image)


def _deal_cells(
    draw: ImageDraw.ImageDraw,
    row: SheetRow,
    seat: int,
    x: int,
    y: int,
    record: PulkaRecord | None,
    index: int,
    cell: Any,
    small: Any,
    normal: Any,
    tiny: Any,
    labels: SheetLabels,
) -> None:
    bid, took, points = row.bids[seat], row.tricks[seat], row.points[seat]
    cell(x, BID_W, y, ROW_H, "—" if bid == 0 else str(bid), small, INK)
    px = x + BID_W
    made = bid == took
    khisht = labels.khisht if is_khisht(bid, took) else None
    doubled = record is not None and record.doubled[seat] == index
    struck = record is not None and record.struck[seat] == index
    if khisht is not None:
        draw.rectangle((px + 2, y + 2, px + POINTS_W - 2, y + ROW_H - 2), fill=KHISHT_BG)
        draw.text((px + 6, y + 2), khisht, font=tiny, fill=KHISHT)
        cell(px + 16, POINTS_W - 16, y, ROW_H, number(points), normal, KHISHT)
    elif doubled:
        draw.rectangle((px + 2, y + 2, px + POINTS_W - 2, y + ROW_H - 2), fill=PREMIUM_BG)
        draw.ellipse(
            (px + 8, y + 3, px + POINTS_W - 8, y + ROW_H - 3), outline=PREMIUM_RING, width=4
        )
        cell(px, POINTS_W, y, ROW_H, number(points), normal, INK)
    else:
        cell(px, POINTS_W, y, ROW_H, number(points), normal, MADE if made else FAINT)
    if struck:
        mid = y + ROW_H // 2
        draw.line((px + 8, mid, px + POINTS_W - 8, mid), fill=STRUCK, width=4)
