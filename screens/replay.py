"""A replay's frame: a finished game at one move, every hand face up.

Painted from the game's own registration only (its ``GameScreens``): the
table the group saw at that move (``table`` from the public view), every
seat's cards under its holder's name (``held``, from the seats' views, never
"your cards": the replay's reader is not each player), and the move's caption
from the game's event lines.  So a game listed in the catalog gets replays
without a line here.  A blind Durak player's own cards are backs in his view,
but face up in every other seat's, so each card is shown.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import islice
from typing import Any

from games.core import Game
from i18n import t
from screens.base import GameScreens
from screens.common import actor_mark, game_title, names_of
from services import History, Step

__all__ = ["replay_frames", "replay_text"]


def replay_text(lang: str, history: History, screens: GameScreens[Any, Any], at: int) -> str:
    """The frame after the first ``at`` moves (0: the deal); HTML."""
    total = len(history.moves)
    if not 0 <= at <= total:
        raise ValueError(f"the game has {total} moves")
    step = None if at == 0 else next(islice(history.steps(), at - 1, None))
    game = history.start() if step is None else step.game
    return _Painter(lang, history, screens).frame(game, step, at)


def replay_frames(lang: str, history: History, screens: GameScreens[Any, Any]) -> Iterator[str]:
    """Every frame in order, from the deal to the last move, in one pass."""
    painter = _Painter(lang, history, screens)
    yield painter.frame(history.start(), None, 0)
    for at, step in enumerate(history.steps(), 1):
        yield painter.frame(step.game, step, at)


class _Painter:
    def __init__(self, lang: str, history: History, screens: GameScreens[Any, Any]) -> None:
        self._lang = lang
        self._history = history
        self._screens = screens
        table = history.table
        self._names: Sequence[str] = names_of(lang, table)
        rules = history.spec.rules.from_json(table.rules)
        self._title = t(
            lang, "replay.title", id=table.id, game=game_title(lang, history.spec, rules)
        )

    def frame(self, game: Game[Any, Any, Any, Any], step: Step | None, at: int) -> str:
        lang, names, screens = self._lang, self._names, self._screens
        total = len(self._history.moves)
        lines = [self._title]
        if step is None:
            lines.append(t(lang, "replay.deal", total=total))
        else:
            said = [screens.event(lang, event, names) for event in step.events]
            what = "; ".join(line for line in said if line) or names[step.move.seat]
            what = actor_mark(self._history.table, step.move.seat, step.move.actor) + what
            lines.append(t(lang, "replay.move", n=at, total=total, what=what))
        lines += ["", screens.table(lang, game.public_view(), names, live=False).text]
        if self._history.spec.private_hands:
            # Each hand under its holder's name, in nobody's second person:
            # whoever watches the replay, these are not his cards.
            lines += ["", t(lang, "replay.hands")]
            views = [game.view(seat) for seat in range(len(names))]
            for seat, name in enumerate(names):
                cards = screens.held(lang, views, seat) or t(lang, "replay.no_cards")
                lines.append(t(lang, "replay.held", name=name, cards=cards))
        return "\n".join(lines)
