"""Each player's DM: the hand, and the buttons of the moves made there.

One hand message per seat.  When a seat becomes able to act it gets a fresh
message (so that the phone notifies) and the previous one is deleted;
otherwise the message is edited, and only when what it shows changed.
Computers have no DM; a game without private hands sends none.
"""

from __future__ import annotations

import html

from games.core import Place, Wait
from handlers.composed import Composed
from handlers.keyboards import Rows, markup, move_rows
from handlers.screens import common
from handlers.screens.base import GameScreens, Key
from i18n import t
from services import Snapshot, Status

__all__ = ["compose_hand"]

BACK = "back"
"""The sub-menu focus that closes a sub-menu (and tells that an absent player is back)."""


def compose_hand(
    snapshot: Snapshot,
    seat: int,
    lang: str,
    screens: GameScreens,
    *,
    now: float,
    focus: str | None = None,
) -> tuple[Composed, bool]:
    """The seat's DM, and whether it must act now (a new message then notifies;
    a move it may make but need not, such as a throw-in, arrives silently)."""
    table = snapshot.table
    names = common.names_of(lang, table)
    live = table.status is Status.PLAYING
    actions = [a for a in snapshot.legal(seat) if a.place is Place.HAND]
    view = snapshot.view(seat)
    body = screens.hand(lang, view, actions, names, focus, live=live)
    title = html.escape(table.chat_title or "?")
    lines = [t(lang, "hand.header", game=t(lang, snapshot.spec.name_key), chat=title)]
    if actions:
        happened = [
            line
            for logged in snapshot.recent
            if logged.move == table.moves
            and (line := screens.event(lang, logged.event, names, viewer=seat))
        ]
        if happened:
            lines.append("<i>" + " · ".join(happened) + "</i>")
    lines.append(body.text)
    if live and not actions and (turn := screens.turn(lang, snapshot.public, names)):
        lines.append(turn)
    outcome = snapshot.outcome()
    if table.status is Status.FINISHED and outcome is not None:
        lines.append(screens.own_result(lang, outcome, view, names))
    if table.status is Status.CANCELLED:
        lines.append(common.closed_text(lang, table.end_reason))
    keys: list[tuple[Key, ...]] = list(body.keys)
    row = snapshot.seat(seat)
    deadline = snapshot.deadlines.get(seat)
    must_act = live and snapshot.waits().get(seat) is Wait.DECIDE
    if live and row.absent:
        lines.append(t(lang, f"hand.absent.{table.on_absence.value}"))
        keys.append((Key(t(lang, "hand.back_button"), focus=BACK),))
    elif must_act and deadline is not None:
        lines.append(t(lang, "hand.time_left", time=common.duration(lang, deadline.due_at - now)))
    rows: Rows = move_rows(keys, table.id, table.moves)
    return Composed("\n".join(lines), markup(rows), body.picture), must_act
