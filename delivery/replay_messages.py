"""A replay's message: the frame (:func:`screens.replay.replay_text`) and its
buttons to the first move, one back, one on and the last.

A replay is one message, edited as its owner steps it: in his DM, or in a
group that asked for it (``/replay`` there), where each edit takes a slot of
the group's budget (:meth:`delivery.publisher.Publisher.edit_replay`).
"""

from __future__ import annotations

from typing import Any

from delivery import callback_data as cd
from delivery.keyboards import Keyboard, button, markup
from screens.base import GameScreens
from screens.replay import replay_text
from services import History

__all__ = ["replay_at", "replay_message", "replay_payload"]

FIRST, BACK, ON, LAST = "⏮", "◀", "▶", "⏭"


def replay_message(
    lang: str, history: History, screens: GameScreens[Any, Any], at: int, owner: int
) -> tuple[str, Keyboard | None]:
    """The replay of ``history`` after ``at`` moves, stepped by ``owner``;
    a button that would not move is left out."""
    table_id, total = history.table.id, len(history.moves)
    row = []
    if at > 0:
        row += [
            button(FIRST, cd.ReplayButton(table_id, 0, owner)),
            button(BACK, cd.ReplayButton(table_id, at - 1, owner)),
        ]
    if at < total:
        row += [
            button(ON, cd.ReplayButton(table_id, at + 1, owner)),
            button(LAST, cd.ReplayButton(table_id, total, owner)),
        ]
    return replay_text(lang, history, screens, at), markup([row])


def replay_payload(table_id: int, at: int) -> str:
    """The deep link's ``/start`` payload that opens a table's replay after
    its ``at``-th move (``p12_44``), as a move named in an analysis links."""
    return f"p{table_id}_{at}"


def replay_at(payload: str) -> tuple[int, int] | None:
    """The table and move of a :func:`replay_payload`, None for any other
    payload."""
    table, sep, at = payload.removeprefix("p").partition("_")
    if not payload.startswith("p") or not sep:
        return None
    if not (table.isdigit() and at.isdigit() and table.isascii() and at.isascii()):
        return None
    if len(table) > 18 or len(at) > 9:
        return None
    return int(table), int(at)
