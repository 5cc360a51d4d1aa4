"""Everything the publisher keeps in memory about one table's messages."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from delivery.seat_screen import SeatScreen
from services import Snapshot

__all__ = ["TableDelivery"]


@dataclass(slots=True)
class TableDelivery:
    """One table as the publisher delivers it: the latest snapshot, what the
    group's message is asked to show beyond it, the worker that brings the DMs
    in line, and each player's screen.  What the messages hold is the ledger's
    (in the database); this is what only the running bot knows, dropped once
    the table is over and delivered."""

    table_id: int
    latest: Snapshot | None = None
    """The newest snapshot handed over (None: none yet this run)."""
    options_open: bool = False
    """The lobby's options are open on the group message."""
    options_known: bool = False
    """Whether this run knows :attr:`options_open`: a press opened or closed
    them, or the message was synced once (a restart finds them as the
    message shows them, :meth:`delivery.table_messages.TableMessages.sync`)."""
    repost: bool = False
    """``/table`` asked for the group message anew."""
    dropped: bool = False
    """Its chat was dropped (with several workers): what is under way stops
    before its next call to Telegram, and the chat's new holder goes on from
    what the ledger recorded."""
    shown_moves: frozenset[str] | None = None
    """The moves the group's message offers, as this run last showed it (None:
    not known yet)."""
    hands_due: bool = False
    """The DMs are to be brought in line with :attr:`latest`."""
    hands_task: asyncio.Task[None] | None = None
    suspects: set[tuple[int, int]] = field(default_factory=set)
    """DM messages (chat, message) whose button was refused: unless one is
    its player's hand at the next sync, it is a copy a crash left, and goes."""
    screens: dict[int, SeatScreen] = field(default_factory=dict)
    """By user: each seated player's DM (a press names the user, not the seat)."""

    def take(self, snapshot: Snapshot) -> bool:
        """Keep ``snapshot`` as the latest unless a newer one is kept already."""
        if self.latest is not None and self.latest.table.version > snapshot.table.version:
            return False
        self.latest = snapshot
        return True

    def screen(self, user_id: int) -> SeatScreen:
        screen = self.screens.get(user_id)
        if screen is None:
            screen = self.screens[user_id] = SeatScreen()
        return screen

    @property
    def over(self) -> bool:
        """The table is closed (finished or cancelled)."""
        return self.latest is not None and not self.latest.table.is_open

    @property
    def hands_busy(self) -> bool:
        return self.hands_due or self.hands_task is not None
