"""What the bot needs to know about a game before creating one."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from games.core import Game, Rules

__all__ = ["GameSpec", "UnknownPreset"]


class UnknownPreset(KeyError):
    pass


@dataclass(frozen=True)
class GameSpec:
    key: str
    """Command name and registry key, e.g. ``"durak"``."""
    name_key: str
    """Translation key of the game's display name, e.g. ``"game.durak"``."""
    game: type[Game[Any, Any, Any, Any]]
    rules: type[Rules]
    presets: Mapping[str, Rules]
    """Named option sets; the first one is the default."""
    seat_range: Callable[[Any], range]
    """Seat counts allowed under the given rules."""
    private_hands: bool = True
    """Seats hold cards only they may see, so each human player needs a
    private screen (a DM).  A game played wholly on the table (Daytona) says
    False: its players need not have opened the bot."""
    teams: Callable[[Any, int], tuple[tuple[int, ...], ...]] = lambda _rules, _seats: ()
    """The teams (as seats) a table of so many seats plays in under the
    given rules; none when empty.  The lobby shows them and lets the creator
    shuffle or pick them."""

    @property
    def default_preset(self) -> str:
        return next(iter(self.presets))

    def preset(self, name: str | None = None) -> Rules:
        if name is None:
            name = self.default_preset
        try:
            return self.presets[name]
        except KeyError:
            raise UnknownPreset(name) from None

    def preset_name(self, rules: Rules) -> str | None:
        """The preset these rules equal, if any."""
        return next((n for n, r in self.presets.items() if r == rules), None)

    def max_seats(self, rules: Rules) -> int:
        return self.seat_range(rules)[-1]
