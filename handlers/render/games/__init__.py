"""Each game's renderer, by registry key."""

from __future__ import annotations

from handlers.render.base import GameUI
from handlers.render.games.durak import DurakUI

__all__ = ["ui_for"]

_UIS: dict[str, GameUI] = {
    "durak": DurakUI(),
}


def ui_for(game_key: str) -> GameUI:
    return _UIS[game_key]
