"""A group's message budget: what Telegram allows one chat, held by the bot itself.

Telegram lets a bot send about 20 messages (edits included) per minute to a
group and about one per second.  :class:`GroupWindow` keeps, per group, the
times of the last sends: a message goes out at once when the last minute has
room and the last send is a second old, and otherwise waits exactly until it
does.  Waiting happens on the bot's clock, as idle time.

Edits of a running game's table message can wait (the wait coalesces them),
so they are *spread*: evenly, within three quarters of the budget (one per
4 s at 20 a minute).  A fast game thus never spends the minute's budget in
a burst of edits, which would leave its result and the next lobby waiting up
to a minute for the window to clear: the quarter left over is room for the
posts people wait for, at once.

A send counts from when its call *returns*, not from when its slot was
taken: Telegram counts a message when it arrives, and between the slot and
the arrival the call may wait in the bot's overall queue
(:mod:`delivery.limiter`, where private chats go first) or on a slow
network.  Counted from the slot, a message taken a moment before the last
one left the minute could arrive within it, the 21st.  So a call is made in
a :meth:`GroupWindow.slot`, which takes the slot and, when the call is
done, moves the send to that time.

With several workers a group is served by the one that holds it
(:mod:`services.leases`), and its sends are recorded in the database as they
go (``SendLog``), each as its slot is taken and moved when its call returns:
a worker taking the group over reads the last minute's sends and goes on
within the same budget instead of a fresh one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import AsyncIterator, Awaitable
from typing import Protocol

from services import Background, Clock

__all__ = ["GroupWindow", "SendLog"]

log = logging.getLogger(__name__)

WINDOW = 60.0
EDIT_SHARE = 0.75
"""Of a group's budget, what spread edits may use."""


class SendLog(Protocol):
    """Where a group's sends are kept beyond this process."""

    async def group_sends(self, chat_id: int) -> list[float]:
        """The group's sends of the last minute."""
        ...

    async def group_sent(self, chat_id: int, at: float) -> None: ...

    async def group_landed(self, chat_id: int, sent: float, at: float) -> None:
        """The send recorded at ``sent`` counts from ``at``."""
        ...


class GroupWindow:
    def __init__(
        self,
        clock: Clock,
        background: Background,
        per_minute: int,
        gap: float = 1.0,
        sends: SendLog | None = None,
    ) -> None:
        self._clock = clock
        self._log = sends
        self._background = background
        self.per_minute = per_minute
        self.spacing = WINDOW / max(1, int(per_minute * EDIT_SHARE))
        self.gap = min(gap, self.spacing)
        self._sent: dict[int, deque[float]] = {}
        self._locks: dict[int, asyncio.Lock] = {}

    def delay(self, chat_id: int, *, spread: bool = False) -> float:
        """Seconds until the group may get its next message (a spread one)."""
        now = self._clock.now()
        sent = self._sent.get(chat_id)
        if not sent:
            return 0.0
        while sent and sent[0] <= now - WINDOW:
            sent.popleft()
        if not sent:
            return 0.0
        wait = sent[-1] + (self.spacing if spread else self.gap) - now
        if len(sent) >= self.per_minute:
            wait = max(wait, sent[0] + WINDOW - now)
        return max(wait, 0.0)

    @contextlib.asynccontextmanager
    async def slot(self, chat_id: int, *, spread: bool = False) -> AsyncIterator[None]:
        """Wait for the group's next slot and take it for the call made within;
        ``spread``: for an edit that can wait.  Private chats (positive ids)
        are not paced here."""
        if chat_id > 0:
            yield
            return
        taken = await self._take(chat_id, spread)
        try:
            yield
        finally:
            await self._landed(chat_id, taken)

    async def _take(self, chat_id: int, spread: bool) -> float:
        lock = self._locks.setdefault(chat_id, asyncio.Lock())
        # Behind another sender to the group (the season's post behind the
        # outbox), which waits on the clock: idle time as much as its wait.
        await self._background.wait(lock.acquire())
        try:
            while (wait := self.delay(chat_id, spread=spread)) > 0:
                await self._background.wait(self._clock.sleep(wait))
            now = self._clock.now()
            self._sent.setdefault(chat_id, deque()).append(now)
            if self._log is not None:
                await self._record(self._log.group_sent(chat_id, now))
        finally:
            lock.release()
        return now

    async def _landed(self, chat_id: int, taken: float) -> None:
        """The call made in the slot taken at ``taken`` is done: the send counts
        from now (every time kept is earlier, so the times stay in order)."""
        now = self._clock.now()
        sent = self._sent.get(chat_id)
        if sent is None or now == taken:
            return  # the group was let go of meanwhile, or nothing moves
        if taken in sent:  # (not when the call took a minute)
            sent.remove(taken)
        sent.append(now)
        if self._log is not None:
            await self._record(self._log.group_landed(chat_id, taken, now))

    async def _record(self, recording: Awaitable[None]) -> None:
        try:
            await recording
        except Exception:  # the send goes on: its budget is held here
            log.exception("recording a group's send failed")

    async def load(self, chat_id: int) -> None:
        """Take in the group's sends of the last minute, by whichever worker."""
        if self._log is None or chat_id > 0:
            return
        stored = await self._log.group_sends(chat_id)
        kept = self._sent.get(chat_id, deque())
        self._sent[chat_id] = deque(sorted(set(kept) | set(stored)))

    def forget(self, chat_id: int) -> None:
        """Another worker serves the group now."""
        self._sent.pop(chat_id, None)
