"""Durak: podkidnoy (throw-in) and perevodnoy (transfer) durak.

``SPEC`` registers the game; :class:`Durak` is the engine, :class:`DurakRules`
its lobby options.  Rules in full: ``docs/rules/durak.md``.  Test positions:
:meth:`Durak.from_position` (a bout about to start, hands given) and
:meth:`Durak.deal` (a deal from a pack in a given order).
"""

from __future__ import annotations

from games.durak.actions import Attack, Beat, DurakAction, Pass, Take, Throw, Transfer
from games.durak.engine import Durak
from games.durak.rules import DurakRules, FirstAttack, seat_range
from games.spec import GameSpec

__all__ = [
    "SPEC",
    "Attack",
    "Beat",
    "Durak",
    "DurakAction",
    "DurakRules",
    "FirstAttack",
    "Pass",
    "Take",
    "Throw",
    "Transfer",
]

SPEC = GameSpec(
    key="durak",
    name_key="game.durak",
    game=Durak,
    rules=DurakRules,
    presets={
        "podkidnoy": DurakRules(),
        "perevodnoy": DurakRules(transfer=True),
    },
    seat_range=seat_range,
)
