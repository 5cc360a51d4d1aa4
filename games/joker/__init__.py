"""Joker (джокер, "расписной покер"): the Georgian trick-taking game of bids,
24 deals in four pulkas, with two jokers that take or give a trick at their
player's word.

``SPEC`` registers the game; :class:`Joker` is the engine (views and events in
:mod:`games.joker.views` and the engine's docstring), :class:`JokerRules` its
lobby options, :mod:`games.joker.scoring` the score sheet's arithmetic.  Rules
in full: ``docs/rules/joker.md``.  Test positions: :meth:`Joker.position`.
"""

from __future__ import annotations

from games.joker.achievements import achievements
from games.joker.actions import Bid, ChooseTrump, Deal, FollowJoker, JokerAction, LeadJoker, Play
from games.joker.engine import Joker
from games.joker.rules import PRESETS, Deals, JokerRules, Khisht, schedule, seat_range
from games.joker.scoring import Premium, deal_points, premium
from games.spec import GameSpec, Rated

__all__ = [
    "PRESETS",
    "SPEC",
    "Bid",
    "ChooseTrump",
    "Deal",
    "Deals",
    "FollowJoker",
    "Joker",
    "JokerAction",
    "JokerRules",
    "Khisht",
    "LeadJoker",
    "Play",
    "Premium",
    "deal_points",
    "premium",
    "schedule",
    "seat_range",
]

SPEC = GameSpec(
    key="joker",
    name_key="game.joker",
    game=Joker,
    rules=JokerRules,
    presets=PRESETS,
    seat_range=seat_range,
    rated=Rated(achievements=achievements),
)
