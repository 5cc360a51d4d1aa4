"""What one player's hand shows of a table (in his DM, or in the group as an
ephemeral message), beyond what the ledger records."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ANSWER_WINDOW", "LOOKING", "SeatScreen"]

LOOKING = 15.0
"""Seconds after a press during which the player is taken to be looking at the
message he pressed (a quick game's turns come round within a few)."""
ANSWER_WINDOW = 12.0
"""Seconds after a press in the group during which a bot that is no
administrator may still answer it with an ephemeral message: Telegram allows
about 15, and the send itself takes some of them."""


@dataclass(slots=True)
class SeatScreen:
    """A seated player's screen of one table (his DM, or the group): the
    sub-menu open on it, whether his next hand must be a new message, the
    message he last pressed, his last press in the group (which an ephemeral
    message may answer), where he asked for his hand this run, and whether the
    group was told that he cannot be reached.  Lives in memory only: a restart
    forgets presses, which is safe; the sub-menu is recorded with the hand
    (:attr:`storage.HandMessageRow.focus`) and found open again
    (:meth:`resume_menu`)."""

    focus: str | None = None
    focus_at: int = 0
    """The table's move count when the sub-menu opened."""
    focus_known: bool = False
    """Whether this run knows the sub-menu: he opened or closed one, or his
    hand was synced once."""
    fresh: bool = False
    """His next hand is a new message (asked for by a link): it notifies."""
    pressed: int | None = None
    """The message he last pressed a button of this table on."""
    pressed_at: float = 0.0
    told_unreachable: bool = False
    query: str | None = None
    """His last press in the group (a button of the table message or of his
    hand there), which an ephemeral message may answer for a few seconds."""
    query_at: float = 0.0
    in_group: bool | None = None
    """Where he asked for his hand this run ("my cards", or "to my DM"); None:
    as his stored choice and his DM say."""
    dm_refused: bool = False
    """His DM refused a hand this run (he blocked the bot): the group it is."""
    lost: bool = False
    """His hand in the group can no longer be edited (lost, or gone from his
    app): a new one is sent when Telegram allows, else at his next press."""

    def open_menu(self, moves: int, focus: str | None) -> None:
        """A sub-menu (None closes it), open until the table moves."""
        self.focus, self.focus_at, self.focus_known = focus, moves, True

    def resume_menu(self, at_move: int | None, focus: str | None) -> None:
        """The first time this run shows his hand: the sub-menu it showed
        (drawn at ``at_move``) is open, as he left it before a restart."""
        if not self.focus_known:
            self.focus_known = True
            if focus is not None and at_move is not None:
                self.focus, self.focus_at = focus, at_move

    def menu(self, moves: int) -> str | None:
        """The sub-menu open at move ``moves`` (one opened before has closed)."""
        if self.focus is not None and self.focus_at != moves:
            self.focus = None
        return self.focus

    def press(self, message_id: int, now: float) -> None:
        self.pressed, self.pressed_at = message_id, now

    def press_in_group(self, query_id: str, now: float) -> None:
        self.query, self.query_at = query_id, now

    def answerable(self, now: float) -> str | None:
        """His last press in the group, while an ephemeral message may still
        answer it."""
        if self.query is not None and now - self.query_at <= ANSWER_WINDOW:
            return self.query
        return None

    def pressed_lately(self, message_id: int, now: float) -> bool:
        """He pressed a button of this very message within :data:`LOOKING` seconds."""
        return self.pressed == message_id and now - self.pressed_at <= LOOKING
