"""Inline keyboards: a screen's keys and the bot's own buttons, ready for Telegram.

A keyboard is a tuple of rows of :class:`Button` and goes to the Bot API as
its JSON text (:func:`markup_json`).  PTB's own button objects cost more to
build and to serialise than drawing the hand they belong to, and a hand's
keyboard is made for every move of either player; only the few typed PTB
calls (photos) get PTB's objects (:func:`ptb_markup`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from delivery import callback_data as cd
from screens.base import Key

__all__ = [
    "Button",
    "Keyboard",
    "button",
    "markup",
    "markup_json",
    "move_rows",
    "ptb_markup",
    "url_button",
]


@dataclass(frozen=True, slots=True)
class Button:
    """A button that sends ``data`` back to the bot, or opens ``url``."""

    label: str
    data: str | None = None
    url: str | None = None
    style: str | None = None
    """The Bot API's colour for it ("danger", "success", "primary"); None: the app's."""
    disabled: bool = False
    """Shown, but does nothing when pressed (Bot API 10.3's ``disabled``)."""


Rows = list[list[Button]]
Keyboard = tuple[tuple[Button, ...], ...]


def move_rows(keys: Sequence[Sequence[Key]], table_id: int, at_move: int) -> Rows:
    """A screen's keys as buttons carrying the table and its move count."""
    rows: Rows = []
    for row in keys:
        buttons = []
        for key in row:
            style = None if key.tone is None else key.tone.value
            if key.disabled:
                buttons.append(Button(key.label, style=style, disabled=True))
                continue
            if key.action is not None:
                data = cd.pack(cd.MoveButton(table_id, at_move, key.action))
            else:
                data = cd.pack(cd.MenuButton(table_id, at_move, key.focus or "back"))
            buttons.append(Button(key.label, data, style=style))
        if buttons:
            rows.append(buttons)
    return rows


def button(label: str, data: cd.Button) -> Button:
    return Button(label, cd.pack(data))


def url_button(label: str, url: str) -> Button:
    return Button(label, url=url)


def markup(rows: Sequence[Sequence[Button]]) -> Keyboard | None:
    keyboard = tuple(tuple(row) for row in rows if row)
    return keyboard or None


def markup_json(keyboard: Keyboard) -> str:
    """The keyboard as the Bot API's ``InlineKeyboardMarkup`` JSON."""
    rows = [[_button_json(b) for b in row] for row in keyboard]
    return json.dumps({"inline_keyboard": rows}, ensure_ascii=False, separators=(",", ":"))


def _button_json(b: Button) -> dict[str, object]:
    made: dict[str, object]
    if b.url is not None:
        made = {"text": b.label, "url": b.url}
    elif b.disabled:
        made = {"text": b.label, "disabled": {}}  # a DisabledButton holds nothing
    else:
        assert b.data is not None
        made = {"text": b.label, "callback_data": b.data}
    if b.style is not None:
        made["style"] = b.style
    return made


def ptb_markup(keyboard: Keyboard | None) -> InlineKeyboardMarkup | None:
    """The keyboard as PTB's objects, for its typed methods."""
    if keyboard is None:
        return None
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(
                    b.label,
                    callback_data=b.data,
                    url=b.url,
                    style=b.style,
                    api_kwargs={"disabled": {}} if b.disabled else None,
                )
                for b in row
            ]
            for row in keyboard
        ]
    )
