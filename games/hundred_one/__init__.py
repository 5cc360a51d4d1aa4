"""101 ("Czech durak", the Russian Mau-Mau): a match of rounds until one
player is left under the ceiling.

The engine is :class:`HundredOne` (views, zones and events are described in
:mod:`games.hundred_one.engine`), the options :class:`HundredOneRules`, the
moves in :mod:`games.hundred_one.actions`; the rules are in
``docs/rules/101.md``.
"""

from __future__ import annotations

from games.hundred_one.actions import Draw, NextRound, Order, Pass, Play
from games.hundred_one.engine import HundredOne, card_points, effect
from games.hundred_one.rules import (
    PRESETS,
    AceMode,
    DrawMode,
    HundredOneRules,
    Master,
    NineMode,
    Scoring,
    SmallDeck,
    seat_range,
)
from games.spec import GameSpec

__all__ = [
    "PRESETS",
    "SPEC",
    "AceMode",
    "Draw",
    "DrawMode",
    "HundredOne",
    "HundredOneRules",
    "Master",
    "NextRound",
    "NineMode",
    "Order",
    "Pass",
    "Play",
    "Scoring",
    "SmallDeck",
    "card_points",
    "effect",
    "seat_range",
]

SPEC = GameSpec(
    key="101",
    name_key="game.101",
    game=HundredOne,
    rules=HundredOneRules,
    presets=PRESETS,
    seat_range=seat_range,
)
