"""Inline keyboards: a screen's keys and the bot's own buttons, as Telegram markup."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from handlers import callback_data as cd
from handlers.screens.base import Key

__all__ = ["button", "markup", "markup_json", "move_rows", "url_button"]

Rows = list[list[InlineKeyboardButton]]


def move_rows(keys: Sequence[Sequence[Key]], table_id: int, at_move: int) -> Rows:
    """A screen's keys as buttons carrying the table and its move count."""
    rows: Rows = []
    for row in keys:
        buttons = []
        for key in row:
            if key.action is not None:
                data = cd.pack(cd.MoveButton(table_id, at_move, key.action))
            else:
                data = cd.pack(cd.MenuButton(table_id, at_move, key.focus or "back"))
            buttons.append(InlineKeyboardButton(key.label, callback_data=data))
        if buttons:
            rows.append(buttons)
    return rows


def button(label: str, data: cd.Button) -> InlineKeyboardButton:
    return InlineKeyboardButton(label, callback_data=cd.pack(data))


def url_button(label: str, url: str) -> InlineKeyboardButton:
    return InlineKeyboardButton(label, url=url)


def markup(rows: Rows) -> InlineKeyboardMarkup | None:
    return InlineKeyboardMarkup(rows) if rows else None


def markup_json(keyboard: InlineKeyboardMarkup) -> str:
    """The keyboard as the Bot API's JSON.  Built from the two kinds of button
    this bot draws: PTB's generic ``to_dict`` cost more of a move's CPU than
    drawing the hand it belongs to, and a hand's keyboard is serialised twice
    (for its digest and to send it)."""
    rows = [[_button_json(b) for b in row] for row in keyboard.inline_keyboard]
    return json.dumps({"inline_keyboard": rows}, ensure_ascii=False, separators=(",", ":"))


def _button_json(b: InlineKeyboardButton) -> dict[str, Any]:
    if isinstance(b.callback_data, str):
        return {"text": b.text, "callback_data": b.callback_data}
    if b.url is not None:
        return {"text": b.text, "url": b.url}
    return b.to_dict()
