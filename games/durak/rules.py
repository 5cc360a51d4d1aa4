"""Durak's lobby options and the seat counts they allow.

The options are the ones ``docs/rules/durak.md`` describes; presets live in
``games.durak`` (``SPEC``).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from games.core import Rules, RulesError, option

__all__ = ["DECK_SIZES", "HAND_SIZE", "DurakRules", "FirstAttack", "seat_range"]

DECK_SIZES = (24, 36, 52)
HAND_SIZE = 6
"""Cards dealt to each player, and the size hands are refilled to."""


class FirstAttack(enum.Enum):
    """Who makes the first attack of a game that follows another one."""

    LOWEST_TRUMP = "lowest_trump"
    """The holder of the lowest trump (as in the first game)."""
    UNDER_LOSER = "under_loser"
    """"Под дурака": the player on the loser's right attacks the loser; those
    first cards may not be transferred."""


@dataclass(frozen=True)
class DurakRules(Rules):
    """Podkidnoy durak, with perevodnoy (transfers) as an option."""

    deck_size: int = option(36, 24, 36, 52)
    """24 (9..A), 36 (6..A) or 52 (2..A) cards."""
    transfer: bool = option(False)
    """Perevodnoy: the defender may pass the attack on with a card of its rank."""
    first_bout_five: bool = option(False)
    """The first bout of each game holds at most five attack cards."""
    later_first_attack: FirstAttack = option(FirstAttack.LOWEST_TRUMP)  # noqa: RUF009 - option() is a dataclasses.field
    """Who starts a game that follows another one."""

    def validate(self) -> None:
        if isinstance(self.deck_size, bool) or self.deck_size not in DECK_SIZES:
            raise RulesError(f"deck_size must be one of {DECK_SIZES}")
        if not isinstance(self.later_first_attack, FirstAttack):
            raise RulesError("later_first_attack must be a FirstAttack")

    def __post_init__(self) -> None:
        self.validate()

    @property
    def max_seats(self) -> int:
        """Six cards each must fit in the deck."""
        return min(6, self.deck_size // HAND_SIZE)


def seat_range(rules: DurakRules) -> range:
    """2..6 players with 36 or 52 cards, 2..4 with 24."""
    return range(2, rules.max_seats + 1)
