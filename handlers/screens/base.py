"""The screen model: what a game's screens give the bot to show.

A :class:`Screen` is an HTML text, an optional picture and rows of keys; the
Telegram layer turns it into a message (a photo with a caption when there is a
picture).  Screens are plain functions of the engine's views; they never see a
Telegram type or the game object, so they are easy to test and cannot leak
what a view does not hold.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from games.core import Action, Event, Outcome

__all__ = ["GameScreens", "Key", "Picture", "Screen"]


@dataclass(frozen=True, slots=True)
class Key:
    """One button: an engine action (a move), or a sub-menu of the seat's own
    screen (``focus``), which only changes what that screen shows."""

    label: str
    action: str | None = None
    focus: str | None = None


@dataclass(frozen=True, slots=True)
class Picture:
    """A picture drawn on demand (off the event loop): ``draw()`` returns PNG
    bytes.  ``key`` names exactly what it shows, so that an unchanged picture
    is neither drawn nor sent again."""

    key: str
    draw: Callable[[], bytes]


@dataclass(frozen=True, slots=True)
class Screen:
    text: str
    """HTML; a picture's caption when there is one."""
    keys: tuple[tuple[Key, ...], ...] = ()
    picture: Picture | None = None


class GameScreens(Protocol):
    """A game's screens.  ``names`` are the seats' display names (HTML-escaped)."""

    def table(self, lang: str, view: Mapping[str, Any], names: Sequence[str]) -> Screen:
        """The game's part of the group's table message, from the public view."""

    def hand(
        self,
        lang: str,
        view: Mapping[str, Any],
        actions: Sequence[Action],
        names: Sequence[str],
        focus: str | None,
    ) -> Screen:
        """A seat's own screen (its DM): its cards, and a key per move it may
        make there (``actions`` are its legal moves made in the hand)."""

    def table_key(self, lang: str, action: Action, view: Mapping[str, Any]) -> str:
        """The label of a move made on the table message (``Place.TABLE``)."""

    def event(self, lang: str, event: Event, names: Sequence[str]) -> str | None:
        """One line for the table message's list of what happened (None: not shown)."""

    def announcements(
        self, lang: str, events: Sequence[Event], view: Mapping[str, Any], names: Sequence[str]
    ) -> list[Screen]:
        """Group messages that moves call for, besides the table (a round's score sheet)."""

    def result(
        self, lang: str, outcome: Outcome, view: Mapping[str, Any], names: Sequence[str]
    ) -> Screen:
        """The end-of-game announcement."""
