"""Daytona: a card race for two to four players round a track of cards, two
decks and four jokers, races repeated to a target score.

``SPEC`` registers the game; :class:`Daytona` is the engine (views in
:mod:`games.daytona.views`, the track in :mod:`games.daytona.track`),
:class:`DaytonaRules` its lobby options.  Rules in full: ``docs/rules/daytona.md``.
Daytona has no private hands: it is played on the group's table message.
"""

from __future__ import annotations

from games.daytona.actions import AS_JOKER, AS_TWO, DRAW, NEXT, DaytonaAction, Deuce, Draw, Next
from games.daytona.engine import PLACE_POINTS, Daytona, Phase
from games.daytona.rules import PRESETS, DaytonaRules, DrawLimit, seat_range
from games.daytona.track import BEFORE_START, FINISHED, TRACK_CARDS, lay_out, moved, value
from games.spec import GameSpec

__all__ = [
    "AS_JOKER",
    "AS_TWO",
    "BEFORE_START",
    "DRAW",
    "FINISHED",
    "NEXT",
    "PLACE_POINTS",
    "PRESETS",
    "SPEC",
    "TRACK_CARDS",
    "Daytona",
    "DaytonaAction",
    "DaytonaRules",
    "Deuce",
    "Draw",
    "DrawLimit",
    "Next",
    "Phase",
    "lay_out",
    "moved",
    "seat_range",
    "value",
]

SPEC = GameSpec(
    key="daytona",
    name_key="game.daytona",
    game=Daytona,
    rules=DaytonaRules,
    presets=PRESETS,
    seat_range=seat_range,
    private_hands=False,
)
