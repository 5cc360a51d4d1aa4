"""What one player's DM shows of a table, beyond what the ledger records."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["LOOKING", "SeatScreen"]

LOOKING = 15.0
"""Seconds after a press during which the player is taken to be looking at the
message he pressed (a quick game's turns come round within a few)."""


@dataclass(slots=True)
class SeatScreen:
    """A seated player's screen of one table (his DM): the sub-menu open on it,
    whether his next hand must be a new message, the message he last pressed,
    and whether the group was told that he cannot be reached.  Lives in memory
    only: a restart closes menus and forgets presses, which is safe."""

    focus: str | None = None
    focus_at: int = 0
    """The table's move count when the sub-menu opened."""
    fresh: bool = False
    """His next hand is a new message (asked for by a link): it notifies."""
    pressed: int | None = None
    """The message he last pressed a button of this table on."""
    pressed_at: float = 0.0
    told_unreachable: bool = False

    def open_menu(self, moves: int, focus: str | None) -> None:
        """A sub-menu (None closes it), open until the table moves."""
        self.focus, self.focus_at = focus, moves

    def menu(self, moves: int) -> str | None:
        """The sub-menu open at move ``moves`` (one opened before has closed)."""
        if self.focus is not None and self.focus_at != moves:
            self.focus = None
        return self.focus

    def press(self, message_id: int, now: float) -> None:
        self.pressed, self.pressed_at = message_id, now

    def pressed_lately(self, message_id: int, now: float) -> bool:
        """He pressed a button of this very message within :data:`LOOKING` seconds."""
        return self.pressed == message_id and now - self.pressed_at <= LOOKING
