"""High card, a game that lives only in the tests: the proof that a game joins
the house by one registration (``test_one_registration.py``).  Laid out as a
game package (``state``, ``engine``, ``views``, ``persistence``, ``rules``,
``actions``), with its screens (``screens``), its computer (``computer``) and
its texts (``locales``, a domain of its own).

``LISTING`` is everything the house needs of it; ``CATALOG.adding(LISTING)``
registers it.
"""

from __future__ import annotations

from importlib import resources

from bot.catalog import Listing
from games.spec import GameSpec
from i18n import Domain
from tests.one_registration.computer import COMPUTER
from tests.one_registration.engine import HighCard
from tests.one_registration.rules import PRESETS, HighCardRules, seat_range
from tests.one_registration.screens import HighCardScreens

__all__ = ["LISTING", "SPEC"]

SPEC = GameSpec(
    key=HighCard.key,
    name_key="game.highcard",
    game=HighCard,
    rules=HighCardRules,
    presets=PRESETS,
    seat_range=seat_range,
)
TEXTS = Domain("highcard", resources.files(__name__) / "locales")
LISTING = Listing(SPEC, HighCardScreens(), COMPUTER, TEXTS)
