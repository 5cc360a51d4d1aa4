"""One group's outbox: what the group is owed, in order, by one worker."""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from delivery.backoff import Backoff
from delivery.keyboards import Keyboard
from screens.base import Picture
from services import Background, Clock

__all__ = ["Chooser", "GroupOutbox", "Say", "SyncTable"]

log = logging.getLogger(__name__)


@dataclass(slots=True)
class Say:
    """A one-off group message (a reply to a command, a notice)."""

    text: str
    markup: Keyboard | None
    thread_id: int
    picture: Picture | None = None
    notify: bool = True
    warns: tuple[int, int] | None = None
    """(table, seat) of the turn it warns of: recorded, to go when the turn ends."""


@dataclass(slots=True)
class Chooser:
    """The game chooser of /newgame: one per chat (and topic); a new one closes
    the one before."""

    text: str
    markup: Keyboard | None
    thread_id: int


@dataclass(slots=True)
class SyncTable:
    """Bring a table's group message and announcements up to date."""

    table_id: int


Item = Say | Chooser | SyncTable


class GroupOutbox:
    """A group's messages to deliver, worked through in order by the group's
    one worker task, which pauses longer after each failure in a row and tries
    the same item again.  A table's sync waits in it at most once (the sync
    shows the latest state when its turn comes).  It also remembers the chat's
    game choosers (by topic): the open one, closed by the next, and the one
    the next table opened takes over."""

    def __init__(self, chat_id: int, clock: Clock, background: Background) -> None:
        self.chat_id = chat_id
        self.items: deque[Item] = deque()
        self.task: asyncio.Task[None] | None = None
        self.choosers: dict[int, int] = {}
        """By topic: the message of the open game chooser."""
        self.adopted: dict[int, int] = {}
        """By topic: a chooser's message the next table opened there takes over."""
        self._waiting: set[int] = set()
        """Tables with a sync waiting in ``items`` (not yet started)."""
        self._backoff = Backoff(clock, background)
        self.dropped = False
        """The chat was dropped (with several workers): nothing more is sent."""

    def drop(self) -> None:
        """Deliver nothing more: the item under way stops before its next call
        to Telegram (one made is recorded, so that the chat's new holder does
        not make it again), and the rest are the new holder's."""
        self.dropped = True

    def add(self, item: Say | Chooser) -> None:
        self.items.append(item)

    def sync(self, table_id: int) -> None:
        """Queue a sync of the table, unless one is waiting already."""
        if table_id not in self._waiting:
            self._waiting.add(table_id)
            self.items.append(SyncTable(table_id))

    def syncing(self) -> set[int]:
        """Tables with a sync waiting or under way."""
        return {i.table_id for i in self.items if isinstance(i, SyncTable)}

    @property
    def forgettable(self) -> bool:
        """Nothing to send, nothing sending and nothing to remember."""
        return not self.items and self.task is None and not self.choosers and not self.adopted

    async def run(self, deliver: Callable[[Item], Awaitable[bool]]) -> None:
        """Deliver the items in order until none is left; ``deliver`` says
        False for an item to try again after a pause."""
        self._backoff.succeeded()
        while self.items and not self.dropped:
            item = self.items[0]
            if isinstance(item, SyncTable):
                self._waiting.discard(item.table_id)
            try:
                done = await deliver(item)
            except Exception:
                log.exception("delivering to chat %s failed", self.chat_id)
                done = True  # a bug: do not loop on it
            if done:
                self.items.popleft()
                self._backoff.succeeded()
                continue
            if isinstance(item, SyncTable):
                self._waiting.add(item.table_id)
            await self._backoff.wait()
