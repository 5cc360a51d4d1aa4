"""The screen model: what a game's screens give the bot to show.

A :class:`Screen` is an HTML text, an optional picture and rows of keys; the
Telegram layer turns it into a message (a photo with a caption when there is a
picture).  Screens are plain functions of the engine's views; they never see a
Telegram type or the game object, so they are easy to test and cannot leak
what a view does not hold.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar, runtime_checkable

from games.core import Action, Event, Outcome, Rules
from services import ScoreRow

__all__ = ["GameScreens", "Key", "OutScreens", "Picture", "Screen", "SheetScreens", "Tone"]

P = TypeVar("P", contravariant=True)
"""The game's public view."""
S = TypeVar("S", contravariant=True)
"""The game's view for one seat."""


class Tone(enum.StrEnum):
    """What a decisive key does, shown as its colour (the Bot API's button
    ``style``; the value is its name there)."""

    GIVE_UP = "danger"
    """A red key: giving in (taking the cards)."""
    DONE = "success"
    """A green key: ending one's part (pass, done)."""


@dataclass(frozen=True, slots=True)
class Key:
    """One button: an engine action (a move), a sub-menu of the seat's own
    screen (``focus``), which only changes what that screen shows, or neither:
    shown disabled (a card that cannot be played now), doing nothing."""

    label: str
    action: str | None = None
    focus: str | None = None
    tone: Tone | None = None

    @property
    def disabled(self) -> bool:
        return self.action is None and self.focus is None


@dataclass(frozen=True, slots=True)
class Picture:
    """A picture drawn on demand (off the event loop): ``draw()`` returns JPEG
    bytes (:func:`screens.drawing.encoded`).  ``key`` names exactly what it
    shows, so that an unchanged picture is neither drawn nor sent again."""

    key: str
    draw: Callable[[], bytes]


@dataclass(frozen=True, slots=True)
class Screen:
    text: str
    """HTML; a picture's caption when there is one."""
    keys: tuple[tuple[Key, ...], ...] = ()
    picture: Picture | None = None


class GameScreens(Protocol[P, S]):
    """A game's screens, painted from its views (typed: ``P`` the public view,
    ``S`` a seat's).  ``names`` are the seats' display names (HTML-escaped).
    ``live`` is False once the game is over or was cancelled: nothing then asks
    anybody to move."""

    def table(self, lang: str, view: P, names: Sequence[str], *, live: bool) -> Screen:
        """The game's part of the group's table message, from the public view."""

    def hand(
        self,
        lang: str,
        view: S,
        actions: Sequence[Action],
        names: Sequence[str],
        focus: str | None,
        *,
        live: bool,
    ) -> Screen:
        """A seat's own screen (its DM): its cards and, while it may act, what it
        needs to decide and a key per move it may make (``actions``, its legal
        moves: those made in the hand, and those made on the table, such as
        101's next round, which it may make from its DM too).  Every line is
        written to its reader: "you" for his own role and moves."""

    def held(self, lang: str, views: Sequence[S], seat: int) -> str:
        """The cards ``seat`` holds, face up, for a replay, which shows every
        hand under its holder's name to whoever watches it: the faces alone,
        no "your" ("" for none).  ``views`` are every seat's at that moment, so
        that a card its holder does not see (blind Durak) is read from another's."""

    def turn(self, lang: str, view: P | S, names: Sequence[str]) -> str | None:
        """Whose move it is, for a player waiting (None when nobody's): ``view``
        is his own (its ``seat`` says who reads it: the defender reads "you
        take", not his own name), or the public view for the group."""

    def table_key(self, lang: str, action: Action, view: P | S) -> str:
        """The label of a move made on the table message (``Place.TABLE``)."""

    def event(
        self, lang: str, event: Event, names: Sequence[str], viewer: int | None = None
    ) -> str | None:
        """One line of what happened (None: not worth a line); ``viewer`` is the
        seat whose DM shows it, addressed in the second person where it is
        concerned, None for the group."""

    def move_name(self, lang: str, event: Event) -> str | None:
        """A seat's own move as its analysis names it, without who made it
        ("7♠️", "bid 2"), where the seat's event line is no sentence ("You:
        7♠️"); None where the event line says it well ("You throw in 7♠️")."""

    @property
    def announced_after(self) -> frozenset[str]:
        """The kinds of event that may make a move call for announcements (a
        round's end): other moves are not asked, so that a post made late
        rebuilds the position after its move only where one may be owed."""

    @property
    def round_opened_by(self) -> frozenset[str]:
        """The kinds of event that begin a new round (a deal): a player's hand
        tells nothing of what happened before the latest of them."""

    def announcements(
        self, lang: str, events: Sequence[Event], view: P, names: Sequence[str]
    ) -> list[Screen]:
        """Group messages that a move calls for, besides the table (a round's
        score sheet): ``events`` are the move's, ``view`` the position right
        after it, however late the post is made."""

    def result(self, lang: str, outcome: Outcome, view: P, names: Sequence[str]) -> Screen:
        """The end-of-game announcement."""

    def own_result(self, lang: str, outcome: Outcome, view: S, names: Sequence[str]) -> str:
        """One line of how the game ended for the seat whose ``view`` this is."""

    def score_line(self, lang: str, place: int, name: str, row: ScoreRow) -> str:
        """A leaderboard line in the words this game's players use."""

    def summary(self, lang: str, rules: Rules) -> str:
        """One line of what matters most in these rules, for the lobby."""


@runtime_checkable
class RuleDetails(Protocol):
    """The screens of a game whose options change rules that its general rules
    and a variant's one-line hint do not tell (101's jack as master card, its
    pentagon's card values); games without such options need not say anything."""

    def details(self, lang: str, rules: Rules) -> list[str]:
        """A sentence for each such rule these ``rules`` have, for ``/rules``."""


@runtime_checkable
class SheetScreens(Protocol[P]):
    """The screens of a game that keeps a score sheet, which ``/sheet`` shows
    (games without one need not say anything)."""

    def sheet(self, lang: str, view: P, names: Sequence[str]) -> Screen | None:
        """The score sheet so far, from the public view (None: nothing on it yet)."""


@runtime_checkable
class OutScreens(Protocol[S]):
    """The screens of a game a player may be out of while it goes on (101's
    eliminated players; games without such players need not say anything)."""

    def out(self, lang: str, view: S, names: Sequence[str]) -> Screen | None:
        """The whole own screen of a seat out of the game while the others
        play on (None: still in it), from his ``view``: shown in place of his
        hand, of what the others do and of whose turn it is, it says he is out
        and stays as it is, so that his message is left alone (no edit, no
        buzz) until the game ends."""
