"""What a game's renderer gives the bot: texts (HTML) and button specs.

Renderers are plain functions of the engine's JSON views; they never see a
Telegram type, so they are easy to test and safe to share.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from games.core import Action, Event, Outcome

__all__ = ["GameUI", "Hand", "Key"]


@dataclass(frozen=True, slots=True)
class Key:
    """One button: an engine action, or a sub-menu focus that only changes
    what the hand keyboard shows."""

    label: str
    action: str | None = None
    focus: str | None = None


@dataclass(frozen=True, slots=True)
class Hand:
    text: str
    rows: list[list[Key]] = field(default_factory=list)


class GameUI(Protocol):
    def table(self, lang: str, view: dict[str, Any], names: Sequence[str]) -> str:
        """The game's part of the group table message (public view only)."""

    def hand(
        self,
        lang: str,
        view: dict[str, Any],
        actions: Sequence[Action],
        names: Sequence[str],
        focus: str | None,
    ) -> Hand:
        """A seat's DM: its cards and one button per legal move."""

    def event(self, lang: str, event: Event, names: Sequence[str]) -> str | None:
        """One line for the table message's event list (None: not shown)."""

    def group_keys(self, lang: str, view: dict[str, Any]) -> list[list[Key]]:
        """Buttons under the group table message, for actions any seated player
        takes there (e.g. "next round"); usually none."""

    def continue_action(self, view: dict[str, Any]) -> str | None:
        """The action ``/startgame`` takes on a running table (e.g. dealing
        the next round), or None."""

    def announcements(
        self, lang: str, events: Sequence[Event], view: dict[str, Any], names: Sequence[str]
    ) -> list[str]:
        """Extra group messages a move calls for (e.g. a round's score sheet)."""

    def result(
        self, lang: str, outcome: Outcome, view: dict[str, Any], names: Sequence[str]
    ) -> str:
        """The end-of-game announcement."""
