"""Durak and its family (seed 003): podkidnoy, perevodnoy and its refusal,
teams, blind, diamonds durak, Akulina, believe / don't believe.

``SPEC`` registers the game; :class:`Durak` is the engine, :class:`DurakRules`
its axes and lobby options.  Rules in full: ``docs/rules/durak.md``.  Test
positions: :meth:`Durak.position` (a bout about to start, hands given) and
:meth:`Durak.deal` (a deal from a pack in a given order).
"""

from __future__ import annotations

from games.durak.achievements import achievements
from games.durak.actions import Attack, Beat, DurakAction, Pass, Take, Throw, Transfer
from games.durak.engine import Durak
from games.durak.rules import (
    Covers,
    DurakRules,
    FirstAttack,
    Shape,
    ThrowIn,
    Transfers,
    Trump,
    rating_family,
    rating_trivial,
    seat_range,
    teams,
)
from games.spec import GameSpec, Rated

__all__ = [
    "PRESETS",
    "SPEC",
    "Attack",
    "Beat",
    "Covers",
    "Durak",
    "DurakAction",
    "DurakRules",
    "FirstAttack",
    "Pass",
    "Shape",
    "Take",
    "Throw",
    "ThrowIn",
    "Transfer",
    "Transfers",
    "Trump",
]

PRESETS: dict[str, DurakRules] = {
    "podkidnoy": DurakRules(),
    "perevodnoy": DurakRules(transfer=Transfers.TRANSFER),
    "refusal": DurakRules(transfer=Transfers.REFUSAL),
    "teams": DurakRules(teams=True, throw_in=ThrowIn.OPPONENTS),
    "blind": DurakRules(blind=True),
    "diamonds": DurakRules(trump=Trump.DIAMONDS, spades_by_spades=True),
    "akulina": DurakRules(shape=Shape.SUIT, throw_in=ThrowIn.NOBODY, unbeatable_queen=True),
    "believe": DurakRules(throw_in=ThrowIn.NOBODY, covers=Covers.FACE_DOWN),
}
"""The variants by the names ``/newgame durak <name>`` takes (RULINGS.md)."""

SPEC = GameSpec(
    key="durak",
    name_key="game.durak",
    game=Durak,
    rules=DurakRules,
    presets=PRESETS,
    seat_range=seat_range,
    teams=teams,
    rated=Rated(family=rating_family, trivial=rating_trivial, achievements=achievements),
)
