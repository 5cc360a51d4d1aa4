"""A replay's frame: a finished game at one move, every hand face up.

Painted from the game's own registration only (its ``GameScreens``): the
table the group saw at that move (``table`` from the public view), every
seat's own screen (``hand`` from the seat's view, without keys), and the move's
caption from the game's event lines.  So a game listed in the catalog gets
replays without a line here.  A blind Durak player's own cards are backs in
his view, but face up in every other seat's, so each card is shown.
"""

from __future__ import annotations

from itertools import islice
from typing import Any

from i18n import t
from screens.base import GameScreens
from screens.common import game_title, names_of
from services import History

__all__ = ["replay_text"]


def replay_text(lang: str, history: History, screens: GameScreens[Any, Any], at: int) -> str:
    """The frame after the first ``at`` moves (0: the deal); HTML."""
    total = len(history.moves)
    if not 0 <= at <= total:
        raise ValueError(f"the game has {total} moves")
    table = history.table
    names = names_of(lang, table)
    title = game_title(lang, history.spec, history.spec.rules.from_json(table.rules))
    lines = [t(lang, "replay.title", id=table.id, game=title)]
    if at == 0:
        game = history.start()
        lines.append(t(lang, "replay.deal", total=total))
    else:
        step = next(islice(history.steps(), at - 1, None))
        game = step.game
        said = [screens.event(lang, event, names) for event in step.events]
        what = "; ".join(line for line in said if line) or names[step.move.seat]
        lines.append(t(lang, "replay.move", n=at, total=total, what=what))
    lines += ["", screens.table(lang, game.public_view(), names, live=False).text]
    if history.spec.private_hands:
        lines += ["", t(lang, "replay.hands")]
        for seat, name in enumerate(names):
            hand = screens.hand(lang, game.view(seat), (), names, None, live=False).text
            lines += ["", f"<b>{name}</b>", hand]
    return "\n".join(lines)
