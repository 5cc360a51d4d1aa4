"""Durak's rules as declarative axes, the lobby options among them, and the
seat counts they allow.

Every variant is a point in these axes (the presets are in ``games.durak``):
how an attack is shaped, who throws in, what beats what, how the trump is
chosen, whether the defender may pass the attack on, teams, whether covers
lie face down, and whether a player sees his own hand.  The
engine's speed tables are generated from them (:mod:`games.durak.tables`), so a
new combination is data, not code.  ``docs/rules/durak.md`` describes them all.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Self

from games.core import JSON, Rules, RulesError, option

__all__ = [
    "DECK_SIZES",
    "HAND_SIZE",
    "Covers",
    "DurakRules",
    "FirstAttack",
    "Shape",
    "ThrowIn",
    "Transfers",
    "Trump",
    "seat_range",
    "teams",
]

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


class Shape(enum.Enum):
    """What cards a bout's lead may hold."""

    RANK = "rank"
    """One card, or several of one rank."""
    SUIT = "suit"
    """Akulina: one card, or several of one suit."""


class ThrowIn(enum.Enum):
    """Who may add cards under a defender after the lead."""

    EVERYONE = "everyone"
    """Podkidnoy: every other player holding cards."""
    OPPONENTS = "opponents"
    """Teams: only the defender's opponents."""
    NOBODY = "nobody"
    """Simple durak (Akulina, believe / don't believe): only the lead."""


class Covers(enum.Enum):
    """How the defender lays his covers."""

    FACE_UP = "face_up"
    FACE_DOWN = "face_down"
    """Believe / don't believe: face down, any card on each attack card, until
    the attacker believes or doubts them."""


class Transfers(enum.Enum):
    """Whether the defender may pass the attack on (perevodnoy)."""

    NONE = "none"
    TRANSFER = "transfer"
    """Perevodnoy: a card of the attack's rank passes it to the next player."""
    REFUSAL = "refusal"
    """Perevodnoy with refusal: with two players left, the attacker's last
    cards may be sent back, and he must take them."""


class Trump(enum.Enum):
    """How the trump suit is chosen."""

    TURNED = "turned"
    """The card after the deal is turned up."""
    DIAMONDS = "diamonds"
    """Diamonds, always (diamonds durak)."""
    TURNED_NO_SPADES = "turned_no_spades"
    """Turned up, but a spade goes into the middle of the stock and the next
    card is turned (diamonds durak, option 5.a)."""
    SPADE_PODKIDNOY = "spade_podkidnoy"
    """Turned up (diamonds durak, option 5.a), but a turned spade makes the
    game ordinary podkidnoy with spades trump ("в некоторых компаниях")."""
    SPADE_NAMED = "spade_named"
    """Turned up (diamonds durak, option 5.a), but when a spade is turned the
    dealer names the trump, clubs, diamonds or hearts, before the first bout
    ("назначаются перед игрой"); the spade stays under the stock."""


@dataclass(frozen=True)
class DurakRules(Rules):
    """One point in Durak's axes.  Lobby options first; the fields after them
    define the variant and are set by its preset."""

    deck_size: int = option(36, 24, 36, 52)
    """24 (9..A), 36 (6..A) or 52 (2..A) cards."""
    transfer: Transfers = option(Transfers.NONE)  # noqa: RUF009 - option() is a dataclasses.field
    """Perevodnoy, and its refusal."""
    first_bout_five: bool = option(False)
    """The first bout of each game holds at most five attack cards."""
    later_first_attack: FirstAttack = option(FirstAttack.LOWEST_TRUMP)  # noqa: RUF009
    """Who starts a game that follows another one."""
    blind: bool = option(False)
    """Nobody sees his own hand, only everybody else's: each plays his cards
    by position, and a wrong cover, transfer or throw-in takes the bout's
    cards (podkidnoy and perevodnoy only)."""
    trump: Trump = option(Trump.TURNED)  # noqa: RUF009
    """How the trump is chosen (a lobby option of diamonds durak only: the
    turned card needs the spade rule off, the others need it on)."""
    shape: Shape = Shape.RANK
    throw_in: ThrowIn = ThrowIn.EVERYONE
    spades_by_spades: bool = False
    """Spades are beaten only by higher spades (diamonds durak)."""
    unbeatable_queen: bool = False
    """No card beats the queen of spades (Akulina)."""
    teams: bool = False
    """Two teams (2×2 or 3×3) of partners seated alternately: seats 0, 2, 4
    against 1, 3, 5."""
    covers: Covers = Covers.FACE_UP

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> Self:
        """As :meth:`Rules.from_json`; a format-1 ``transfer`` bool still reads."""
        if isinstance(data, Mapping) and isinstance(data.get("transfer"), bool):
            data = {**data, "transfer": "transfer" if data["transfer"] else "none"}
        return super().from_json(data)

    def __post_init__(self) -> None:
        self.validate()

    def validate(self) -> None:
        if isinstance(self.deck_size, bool) or self.deck_size not in DECK_SIZES:
            raise RulesError(f"deck_size must be one of {DECK_SIZES}")
        kinds = {
            "transfer": Transfers,
            "later_first_attack": FirstAttack,
            "trump": Trump,
            "shape": Shape,
            "throw_in": ThrowIn,
            "covers": Covers,
        }
        for name, kind in kinds.items():
            if not isinstance(getattr(self, name), kind):
                raise RulesError(f"{name} must be a {kind.__name__}")
        for name in ("first_bout_five", "blind", "spades_by_spades", "unbeatable_queen", "teams"):
            if not isinstance(getattr(self, name), bool):
                raise RulesError(f"{name} must be a boolean")
        if self.spades_by_spades != (self.trump is not Trump.TURNED):
            raise RulesError("the spade rule goes with diamonds durak's trump")
        if self.transfer is not Transfers.NONE and self.shape is Shape.SUIT:
            raise RulesError("transfers need attacks of one rank")
        if self.teams != (self.throw_in is ThrowIn.OPPONENTS):
            raise RulesError("in teams (and only there) opponents alone throw in")
        if self.teams and self.transfer is Transfers.REFUSAL:
            raise RulesError("refusal is between the last two players, not teams")
        if self.covers is Covers.FACE_DOWN and (
            self.throw_in is not ThrowIn.NOBODY
            or self.shape is not Shape.RANK
            or self.transfer is not Transfers.NONE
        ):
            raise RulesError("believe / don't believe is simple durak: no throw-ins, no transfers")
        if self.blind and not self._podkidnoy_like:
            raise RulesError("blind durak is played on podkidnoy or perevodnoy")
        if self.teams and self.max_seats < 4:
            raise RulesError("two teams of two need six cards each")
        suits_ok = self.deck_size == 36 and self.throw_in is ThrowIn.NOBODY
        if self.shape is Shape.SUIT and not suits_ok:
            raise RulesError("Akulina is played with 36 cards and no throw-ins")

    def applies(self, name: str) -> bool:
        """The lobby hides options that the variant does not use."""
        if name == "transfer":
            return self.shape is Shape.RANK and self.covers is Covers.FACE_UP
        if name == "trump":
            return self.spades_by_spades
        if name == "blind":
            return self._podkidnoy_like
        if name == "deck_size":
            return self.shape is Shape.RANK  # Akulina is played with 36 cards
        return True

    @property
    def _podkidnoy_like(self) -> bool:
        """Podkidnoy or perevodnoy, which blind durak is played on."""
        return (
            self.shape is Shape.RANK
            and self.throw_in is ThrowIn.EVERYONE
            and self.covers is Covers.FACE_UP
            and self.trump is Trump.TURNED
            and not self.unbeatable_queen
        )

    @property
    def max_seats(self) -> int:
        """Six cards each must fit in the deck; Akulina is for two to four."""
        most = min(6, self.deck_size // HAND_SIZE)
        return min(most, 4) if self.shape is Shape.SUIT else most


def seat_range(rules: DurakRules) -> range:
    """2..6 players with 36 or 52 cards, 2..4 with 24 or in Akulina; two teams
    of two or three."""
    if rules.teams:
        return range(4, rules.max_seats + 1, 2)
    return range(2, rules.max_seats + 1)


def teams(rules: DurakRules, seats: int) -> tuple[tuple[int, ...], ...]:
    """The teams at a table of ``seats`` (none without the teams axis)."""
    if not rules.teams:
        return ()
    return tuple(range(0, seats, 2)), tuple(range(1, seats, 2))


def rating_family(rules: DurakRules) -> str:
    """Ratings are kept apart for the team game, perevodnoy (with or without
    refusal) and every other option set (podkidnoy's family): the skills
    differ more between these than within them."""
    if rules.teams:
        return "teams"
    if rules.transfer is not Transfers.NONE:
        return "perevodnoy"
    return "podkidnoy"


def rating_trivial(rules: DurakRules, seats: int) -> bool:
    """Blind durak is chance alone: nobody sees his own cards."""
    return rules.blind
