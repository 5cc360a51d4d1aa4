"""The ratings as people read them: standings (``/rating``, ``/top``), the
lines a finished game adds to its result, a person's ratings and
achievements (``/stats``) with his rating history drawn, and a season's end."""

from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import date

from babel.dates import format_date
from PIL import Image, ImageDraw

from games.spec import GameSpec
from i18n import t, tn
from screens.base import Picture, Screen
from screens.drawing import drawable, encoded, fit, typeface
from screens.numbers import number
from services import TableRow
from services.ratings import PROVISIONAL_GAMES, Board, Card, Line, SeasonEnd, TableRatings

__all__ = [
    "card_lines",
    "family_name",
    "history_picture",
    "result_lines",
    "season_name",
    "season_text",
    "standings_text",
    "with_ratings",
]

_PROVISIONAL = "?"


def family_name(lang: str, family: str, specs: Mapping[str, GameSpec]) -> str:
    """``Дурак · переводной`` (the game's name for a game of one family)."""
    game, _, variant = family.partition("/")
    spec = specs.get(game)
    if spec is None:
        return family
    name = t(lang, spec.name_key)
    return f"{name} · {t(lang, f'preset.{game}.{variant}')}" if variant else name


def season_name(lang: str, season: str) -> str:
    """A season (``2026-11``, a calendar month) as its readers name it:
    ``ноябрь 2026``, ``November 2026`` (the month standing alone, in the
    language's own words)."""
    year, _, month = season.partition("-")
    try:
        first = date(int(year), int(month), 1)
    except ValueError:
        return season  # not a month: shown as stored
    return format_date(first, "LLLL y", locale=lang)


def _who(lang: str, line: Line) -> str:
    if line.level is not None:
        return f"🤖 {t(lang, f'lobby.level.{line.level}')}"
    return html.escape(line.name or "?")


def _line(lang: str, line: Line) -> str:
    mark = _PROVISIONAL if line.provisional else ""
    return t(
        lang, "rating.line", place=line.place, name=_who(lang, line), rating=f"{line.rating}{mark}"
    )


def standings_text(
    lang: str,
    boards: Sequence[Board],
    specs: Mapping[str, GameSpec],
    *,
    season: str | None,
) -> str:
    """A chat's season (``season``) or the standings across chats (None)."""
    if not boards:
        return t(lang, "rating.empty" if season is not None else "rating.top_empty")
    title = (
        t(lang, "rating.title", season=season_name(lang, season))
        if season
        else t(lang, "rating.top_title")
    )
    lines = [title]
    for board in boards:
        lines += ["", f"<b>{family_name(lang, board.family, specs)}</b>"]
        lines += [_line(lang, line) for line in board.top]
        if board.own is not None:
            lines += ["…", _line(lang, board.own)]
    lines += ["", tn(lang, "rating.how", PROVISIONAL_GAMES)]
    return "\n".join(lines)


def result_lines(lang: str, rated: TableRatings, names: Mapping[int, str]) -> list[str]:
    """What the game did to its players' ratings in the chat, and the
    achievements it gave; ``names`` are HTML-escaped, by user id."""
    if rated.skipped == "trivial":
        return [t(lang, "rating.unrated_trivial")]
    lines = []
    if rated.changes:
        changes = [
            t(
                lang,
                "rating.change",
                name=names.get(c.user_id, "?"),
                before=c.before,
                after=f"{c.after}{_PROVISIONAL if c.provisional else ''}",
                delta=f"{c.after - c.before:+d}".replace("-", "−"),
            )
            for c in rated.changes
        ]
        lines.append(t(lang, "rating.changes", changes=", ".join(changes)))
        if any(c.provisional for c in rated.changes):
            lines.append(tn(lang, "rating.provisional_legend", PROVISIONAL_GAMES))
    for user_id, code in rated.achievements:
        lines.append(
            t(
                lang,
                "rating.achievement",
                name=names.get(user_id, "?"),
                title=t(lang, f"achievement.{code}"),
                about=t(lang, f"achievement.{code}.about"),
            )
        )
    return lines


def with_ratings(
    lang: str, result: Screen, rated: TableRatings, table: TableRow, names: Sequence[str]
) -> Screen:
    """A game's result with what it did to the ratings below it; ``names`` are
    the seats' display names."""
    by_user = {s.user_id: names[s.seat] for s in table.seats if s.user_id is not None}
    lines = result_lines(lang, rated, by_user)
    if not lines:
        return result
    return replace(result, text="\n".join([result.text, "", *lines]))


def card_lines(lang: str, card: Card, specs: Mapping[str, GameSpec]) -> list[str]:
    """``/stats``: each rating across chats with its peak and the place in
    this chat's season, then the achievements."""
    lines = []
    if card.families:
        lines += ["", t(lang, "stats.ratings")]
    for family in card.families:
        mark = _PROVISIONAL if family.provisional else ""
        line = tn(
            lang,
            "stats.rating",
            family.games,
            family=family_name(lang, family.family, specs),
            rating=f"{family.rating}{mark}",
            peak=family.peak,
        )
        if family.season_place is not None:
            line += " · " + t(lang, "stats.season_place", place=family.season_place)
        lines.append(line)
    if any(family.provisional for family in card.families):
        lines.append(tn(lang, "rating.provisional_legend", PROVISIONAL_GAMES))
    if card.achievements:
        titles = ", ".join(t(lang, f"achievement.{code}") for code in card.achievements)
        lines += ["", t(lang, "stats.achievements", titles=titles)]
    return lines


def season_text(lang: str, ended: SeasonEnd, specs: Mapping[str, GameSpec]) -> str:
    lines = [t(lang, "rating.season_end", season=season_name(lang, ended.season))]
    for family, champion in ended.champions:
        lines.append(
            t(
                lang,
                "rating.champion",
                family=family_name(lang, family, specs),
                name=_who(lang, champion),
                rating=champion.rating,
            )
        )
    lines += ["", standings_text(lang, ended.boards, specs, season=ended.season)]
    lines += ["", t(lang, "rating.season_next")]
    return "\n".join(lines)


# --- the rating history picture --------------------------------------------------

_W, _H, _M = 900, 480, 60
_PAPER, _INK, _GRID = (250, 248, 240), (40, 40, 40), (215, 210, 200)
_COLOURS = [(200, 60, 50), (40, 110, 190), (50, 150, 80), (150, 90, 170), (220, 140, 30)]


def history_picture(lang: str, card: Card, specs: Mapping[str, GameSpec]) -> Picture | None:
    """Each family's rating across chats after every game, one line each."""
    series = [
        (family_name(lang, f.family, specs), f.history, _PROVISIONAL if f.provisional else "")
        for f in card.families
        if len(f.history) >= 2  # a line
    ]
    if not series:
        return None
    key = f"rating:{lang}:" + ";".join(f"{name}:{len(v)}:{v[-1]}{m}" for name, v, m in series)
    games = t(lang, "rating.chart_games")

    def draw() -> bytes:
        return _draw(series, games)

    return Picture(key, draw)


def grid_values(low: int, high: int) -> list[int]:
    """Round values for a chart's grid lines, from ``low`` or below to ``high``
    or above, some three to six of them: a step of 1, 2 or 5 times a power of
    ten, as a reader counts."""
    rough = max((high - low) / 4, 1)
    power = 10 ** math.floor(math.log10(rough))
    step = next(int(m * power) for m in (1, 2, 5, 10) if m * power >= rough)
    first, last = math.floor(low / step) * step, math.ceil(high / step) * step
    return list(range(first, last + 1, step))


def game_ticks(games: int) -> list[int]:
    """Where a chart of ``games`` games marks its count along the bottom: round
    numbers from 0 (the start) to ``games`` at most."""
    return [n for n in grid_values(0, max(games, 1)) if n <= games]


def _draw(series: Sequence[tuple[str, Sequence[int], str]], games: str) -> bytes:
    """The chart: each line's name, values and the mark of a provisional
    rating; ``games`` names its bottom axis (the games played)."""
    image = Image.new("RGB", (_W, _H), _PAPER)
    pen = ImageDraw.Draw(image)
    small, label = typeface(20), typeface(22, bold=True)
    grid = grid_values(
        min(min(v) for _, v, _ in series) - 20, max(max(v) for _, v, _ in series) + 20
    )
    low, high = grid[0], grid[-1]
    longest = max(len(v) for _, v, _ in series)
    legend, ticks = 28, 30
    left, right, top = _M + 20, _W - _M, _M / 2
    bottom = _H - _M / 2 - legend * len(series) - ticks

    def x(i: int) -> float:
        return left + (right - left) * i / max(longest - 1, 1)

    def y(value: float) -> float:
        return bottom - (bottom - top) * (value - low) / (high - low)

    for value in grid:
        pen.line((left, y(value), right, y(value)), fill=_GRID, width=1)
        pen.text((left - 8, y(value)), number(value), font=small, fill=_INK, anchor="rm")
    # The axis's name under its right end, where the legend leaves room.
    row = bottom + ticks + legend / 2
    pen.text((right, row), games, font=small, fill=_INK, anchor="rm")
    room = right - left - pen.textlength(games, font=small) - 24
    for n in game_ticks(longest - 1):
        pen.line((x(n), bottom, x(n), bottom + 6), fill=_INK, width=2)
        pen.text((x(n), bottom + ticks / 2 + 4), str(n), font=small, fill=_INK, anchor="mm")
    for n, (name, values, mark) in enumerate(series):
        colour = _COLOURS[n % len(_COLOURS)]
        points = [(x(i), y(v)) for i, v in enumerate(values)]
        pen.line(points, fill=colour, width=4, joint="curve")
        end = points[-1]
        pen.ellipse((end[0] - 6, end[1] - 6, end[0] + 6, end[1] + 6), fill=colour)
        text = fit(pen, f"{drawable(name)}: {values[-1]}{mark}", label, room)
        pen.text(
            (left, row + legend * n),
            text,
            font=label,
            fill=colour,
            anchor="lm",
        )
    return encoded(image)
