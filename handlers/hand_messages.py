"""Each player's DM: his hand and the buttons of his moves.

One hand message per seat.  When a seat becomes able to act it gets a fresh
message (so that the phone notifies) and the previous one is deleted;
otherwise the message is edited, and only when what it shows changed.
Computers have no DM; a game without private hands sends none.
"""

from __future__ import annotations

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
    """The seat's DM, and whether it asks the seat to act."""
    table = snapshot.table
    names = common.names_of(lang, table)
    actions = [a for a in snapshot.legal(seat) if a.place is Place.HAND]
    body = screens.hand(lang, snapshot.view(seat), actions, names, focus)
    header = t(lang, "hand.header", game=t(lang, snapshot.spec.name_key), table=table.id)
    lines = [header, body.text]
    keys: list[tuple[Key, ...]] = list(body.keys)
    row = snapshot.seat(seat)
    deadline = snapshot.deadlines.get(seat)
    acting = bool(actions)
    if table.status is Status.PLAYING and row.absent:
        lines.append(t(lang, f"hand.absent.{table.on_absence.value}"))
        keys.append((Key(t(lang, "hand.back_button"), focus=BACK),))
    elif acting and deadline is not None and snapshot.waits().get(seat) is Wait.DECIDE:
        lines.append(t(lang, "hand.time_left", time=common.duration(lang, deadline.due_at - now)))
    if table.status is Status.CANCELLED:
        lines.append(common.closed_text(lang, table.end_reason))
    rows: Rows = move_rows(keys, table.id, table.moves)
    return Composed("\n".join(lines), markup(rows), body.picture), acting
