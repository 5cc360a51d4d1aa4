"""Texts shared by every game: lobby, table frame, results, scores, help."""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from games import registry
from games.core import Rules
from games.spec import GameSpec
from i18n import t, tn
from storage import ScoreRow, TableRow

__all__ = [
    "game_title",
    "help_text",
    "lobby_text",
    "names_of",
    "option_label",
    "options_summary",
    "scores_text",
    "stats_text",
]


def names_of(table: TableRow) -> list[str]:
    """Seat names, HTML-escaped and made unique ("Anna", "Anna (2)")."""
    names: list[str] = []
    for seat in table.seats:
        name = html.escape(seat.first_name or "?")
        if name in names:
            name = f"{name} ({seat.seat + 1})"
        names.append(name)
    return names


def _value(lang: str, spec: GameSpec, name: str, value: Any) -> str:
    if isinstance(value, bool):
        return t(lang, "common.yes" if value else "common.no")
    if isinstance(value, int):
        return str(value)
    raw = getattr(value, "value", value)
    return t(lang, f"optval.{spec.key}.{name}.{raw}")


def option_label(lang: str, spec: GameSpec, rules: Rules, name: str) -> str:
    return (
        f"{t(lang, f'option.{spec.key}.{name}')}: {_value(lang, spec, name, getattr(rules, name))}"
    )


def options_summary(lang: str, spec: GameSpec, rules: Rules) -> str:
    return "\n".join(
        "• " + option_label(lang, spec, rules, name) for name, _ in spec.rules.options()
    )


def game_title(lang: str, spec: GameSpec, rules: Rules) -> str:
    preset = spec.preset_name(rules)
    title = f"<b>{t(lang, spec.name_key)}</b>"
    if preset is not None:
        return f"{title} · {t(lang, f'preset.{spec.key}.{preset}')}"
    return f"{title} · {t(lang, 'lobby.custom')}"


def lobby_text(lang: str, table: TableRow, rules: Rules, *, cancelled: bool = False) -> str:
    spec = registry.get(table.game)
    seats = spec.seat_range(rules)
    lines = [f"🃏 {game_title(lang, spec, rules)}", "", options_summary(lang, spec, rules), ""]
    lines.append(
        t(lang, "lobby.players", n=len(table.seats), max=seats[-1]) + (":" if table.seats else "")
    )
    lines.extend(f"{i + 1}. {name}" for i, name in enumerate(names_of(table)))
    lines.append("")
    if cancelled:
        lines.append(t(lang, "lobby.cancelled"))
    elif len(table.seats) < seats.start:
        lines.append(tn(lang, "lobby.need_more", seats.start - len(table.seats)))
    else:
        lines.append(t(lang, "lobby.can_start"))
    return "\n".join(lines)


def scores_text(lang: str, board: dict[str, list[ScoreRow]]) -> str:
    if not board:
        return t(lang, "scores.empty")
    lines = [t(lang, "scores.title")]
    for game, rows in board.items():
        name = t(lang, registry.get(game).name_key) if game in registry.GAMES else game
        lines += ["", f"<b>{name}</b>"]
        for place, row in enumerate(rows, start=1):
            lines.append(
                t(
                    lang,
                    "scores.row",
                    place=place,
                    name=html.escape(row.first_name),
                    played=row.played,
                    wins=row.wins,
                    losses=row.losses,
                )
            )
    return "\n".join(lines)


def stats_text(lang: str, name: str, rows: Sequence[ScoreRow]) -> str:
    if not rows:
        return t(lang, "stats.empty", name=html.escape(name))
    lines = [t(lang, "stats.title", name=html.escape(name))]
    for row in rows:
        game = t(lang, registry.get(row.game).name_key) if row.game in registry.GAMES else row.game
        lines.append(
            t(
                lang,
                "stats.row",
                game=game,
                played=row.played,
                wins=row.wins,
                losses=row.losses,
                draws=row.draws,
            )
        )
    return "\n".join(lines)


def help_text(lang: str) -> str:
    games = "\n".join(
        f"• <code>{spec.key}</code> — {t(lang, spec.name_key)}: "
        + ", ".join(f"<code>{p}</code>" for p in spec.presets)
        for spec in registry.GAMES.values()
    )
    return t(lang, "help.text", games=games)
