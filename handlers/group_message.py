"""The group's one live message for a table: the lobby, then the table.

Composed from a snapshot only, so a restart (or a retry) composes it again.
"""

from __future__ import annotations

from collections.abc import Callable

from games.core import Place, Wait
from handlers import callback_data as cd
from handlers.composed import Composed
from handlers.keyboards import Rows, button, markup, move_rows, url_button
from handlers.screens import common
from handlers.screens.base import GameScreens, Key
from i18n import t
from services import Actor, Setting, Snapshot, Status

__all__ = ["RECENT_LINES", "compose_group"]

RECENT_LINES = 4
"""Lines of what just happened under the table."""
_ACTOR_MARKS = {Actor.TIMER: "⏰ ", Actor.COMPUTER: "🤖 ", Actor.ADMIN: "⛔ "}
"""How the group tells a move nobody pressed for (computers' names carry 🤖 too)."""


def compose_group(
    snapshot: Snapshot,
    lang: str,
    screens: GameScreens,
    *,
    now: float,
    deep_link: Callable[[str], str],
    options_open: bool = False,
) -> Composed:
    table = snapshot.table
    if not snapshot.started:
        if table.status is Status.LOBBY:
            return _lobby(snapshot, lang, screens, options_open)
        text = common.lobby_text(lang, snapshot, screens).rsplit("\n", 1)[0]
        return Composed(f"{text}\n{common.closed_text(lang, table.end_reason)}")
    return _table(snapshot, lang, screens, now, deep_link)


def _lobby(snapshot: Snapshot, lang: str, screens: GameScreens, options_open: bool) -> Composed:
    table, spec, rules = snapshot.table, snapshot.spec, snapshot.rules
    text = common.lobby_text(lang, snapshot, screens)

    def lobby(label: str, command: str, arg: str | None = None) -> list:  # type: ignore[type-arg]
        return [button(label, cd.LobbyButton(table.id, command, arg))]

    rows: Rows
    if options_open:
        preset = spec.preset_name(rules)
        preset_label = t(lang, f"preset.{spec.key}.{preset}") if preset else "—"
        rows = [lobby(t(lang, "lobby.preset", preset=preset_label), "p")]
        rows += [
            lobby(common.option_label(lang, spec, rules, name), "t", name)
            for name, _ in spec.rules.options()
            if rules.applies(name)
        ]
        rows.append(lobby(common.setting_label(lang, table, Setting.TURN), "g", Setting.TURN))
        if table.turn_seconds:
            label = common.setting_label(lang, table, Setting.ABSENCE)
            rows.append(lobby(label, "g", Setting.ABSENCE))
        rows.append(
            [
                button(t(lang, "lobby.add_computer"), cd.LobbyButton(table.id, "a")),
                button(t(lang, "lobby.remove_computer"), cd.LobbyButton(table.id, "x")),
            ]
        )
        rows.append(lobby(t(lang, "lobby.back"), "b"))
        return Composed(text, markup(rows))
    rows = [
        [
            button(t(lang, "lobby.join"), cd.LobbyButton(table.id, "j")),
            button(t(lang, "lobby.leave"), cd.LobbyButton(table.id, "v")),
        ],
        [
            button(t(lang, "lobby.start"), cd.LobbyButton(table.id, "s")),
            button(t(lang, "lobby.options"), cd.LobbyButton(table.id, "o")),
        ],
        [button(t(lang, "lobby.cancel"), cd.LobbyButton(table.id, "c"))],
    ]
    return Composed(text, markup(rows))


def _table(
    snapshot: Snapshot,
    lang: str,
    screens: GameScreens,
    now: float,
    deep_link: Callable[[str], str],
) -> Composed:
    table = snapshot.table
    names = common.names_of(lang, table)
    body = screens.table(lang, snapshot.public, names, live=table.status is Status.PLAYING)
    lines = [f"🃏 {common.game_title(lang, snapshot.spec, snapshot.rules)}", "", body.text]
    shown = []
    for logged in snapshot.recent:
        line = screens.event(lang, logged.event, names)
        if line:
            shown.append(f"{_ACTOR_MARKS.get(logged.actor, '')}{line}")
    if shown:
        lines += ["", *(f"<i>{line}</i>" for line in shown[-RECENT_LINES:])]
    waiting = _waiting_line(snapshot, lang, names, now)
    if waiting:
        lines += ["", waiting]
    if table.status is Status.CANCELLED:
        lines += ["", common.closed_text(lang, table.end_reason)]
    rows: Rows = []
    if table.status is Status.PLAYING:
        rows = move_rows(_table_keys(snapshot, lang, screens), table.id, table.moves)
        if snapshot.spec.private_hands:
            rows.append([url_button(t(lang, "table.my_cards"), deep_link(f"h{table.id}"))])
    return Composed("\n".join(lines), markup(rows), body.picture)


def _table_keys(snapshot: Snapshot, lang: str, screens: GameScreens) -> list[list[Key]]:
    """Moves made on the table message (e.g. "next round"), each once."""
    keys: dict[str, Key] = {}
    for seat in range(len(snapshot.table.seats)):
        for action in snapshot.legal(seat):
            if action.place is Place.TABLE:
                code = action.encode()
                keys.setdefault(code, Key(screens.table_key(lang, action, snapshot.public), code))
    return [[key] for key in keys.values()]


def _waiting_line(snapshot: Snapshot, lang: str, names: list[str], now: float) -> str | None:
    """Whose decision the table waits for, with the time left on each clock."""
    waits = snapshot.waits()
    parts = []
    for seat, wait in sorted(waits.items()):
        deadline = snapshot.deadlines.get(seat)
        if wait is not Wait.DECIDE or deadline is None:
            continue
        left = common.duration(lang, max(deadline.due_at - now, 0))
        absent = " 💤" if snapshot.seat(seat).absent else ""
        parts.append(f"{names[seat]}{absent} — {left}")
    if not parts:
        return None
    return "⏳ " + ", ".join(parts)
