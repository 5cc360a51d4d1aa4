"""Each game's renderer, by registry key."""

from __future__ import annotations

from handlers.render.base import GameUI
from handlers.render.games.durak import DurakUI
from handlers.render.games.hundred_one import HundredOneUI

__all__ = ["ui_for"]

_UIS: dict[str, GameUI] = {
    "durak": DurakUI(),
    "101": HundredOneUI(),
}


def ui_for(game_key: str) -> GameUI:
    return _UIS[game_key]
