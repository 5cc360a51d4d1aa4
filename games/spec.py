"""What the bot needs to know about a game before creating one."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.core import Game, Rules

__all__ = ["GameSpec", "Rated", "UnknownPreset"]


class UnknownPreset(KeyError):
    pass


def _one_family(_rules: Any) -> str:
    return ""


def _never_trivial(_rules: Any, _seats: int) -> bool:
    return False


def _no_achievements(
    _game: Any, _moves: Sequence[tuple[int, str]]
) -> Mapping[int, tuple[str, ...]]:
    return {}


@dataclass(frozen=True)
class Rated:
    """What the ratings need to know of a game beyond its outcome (whose
    ``places`` rank the seats, ties shared, and whose teams are the spec's).
    The defaults rate any game: one family, no trivial option set, no
    achievements."""

    family: Callable[[Any], str] = _one_family
    """The variant family of a table's rules: a preset's name whose ratings
    these rules share ("" for the game's one rating)."""
    trivial: Callable[[Any, int], bool] = _never_trivial
    """Options (and seat count) that leave nothing to skill: not rated."""
    achievements: Callable[[Any, Sequence[tuple[int, str]]], Mapping[int, tuple[str, ...]]] = (
        _no_achievements
    )
    """The achievements (their codes, per seat) of a finished game, from its
    final position and its moves as ``(seat, action code)``."""


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
    rated: Rated = Rated()
    """How the ratings read the game's results."""

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

    def based_on(self, rules: Rules) -> str:
        """The preset these rules are nearest to: equal to, or the one they
        differ from in the fewest fields (the earliest of equals), so that
        rules changed by hand are told as a variant with changes."""
        mine = rules.to_json()

        def changes(preset: Rules) -> int:
            theirs = preset.to_json()
            return sum(mine.get(name) != value for name, value in theirs.items())

        return min(self.presets, key=lambda name: changes(self.presets[name]))

    def max_seats(self, rules: Rules) -> int:
        return self.seat_range(rules)[-1]
