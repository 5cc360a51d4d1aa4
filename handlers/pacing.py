"""A group's message budget: what Telegram allows one chat, held by the bot itself.

Telegram lets a bot send about 20 messages (edits included) per minute to a
group and about one per second.  :class:`GroupWindow` keeps, per group, the
times of the last sends: a message goes out at once when the last minute has
room and the last send is a second old, and otherwise waits exactly until it
does.  Waiting happens on the bot's clock, as idle time.
"""

from __future__ import annotations

import asyncio
from collections import deque

from services import Background, Clock

__all__ = ["GroupWindow"]

WINDOW = 60.0


class GroupWindow:
    def __init__(
        self, clock: Clock, background: Background, per_minute: int, gap: float = 1.0
    ) -> None:
        self._clock = clock
        self._background = background
        self.per_minute = per_minute
        self.gap = min(gap, WINDOW / per_minute)
        self._sent: dict[int, deque[float]] = {}
        self._locks: dict[int, asyncio.Lock] = {}

    def delay(self, chat_id: int) -> float:
        """Seconds until the group may get its next message."""
        now = self._clock.now()
        sent = self._sent.get(chat_id)
        if not sent:
            return 0.0
        while sent and sent[0] <= now - WINDOW:
            sent.popleft()
        if not sent:
            return 0.0
        wait = sent[-1] + self.gap - now
        if len(sent) >= self.per_minute:
            wait = max(wait, sent[0] + WINDOW - now)
        return max(wait, 0.0)

    async def turn(self, chat_id: int) -> None:
        """Wait for the group's next slot and take it.  Private chats (positive
        ids) are not paced here."""
        if chat_id > 0:
            return
        lock = self._locks.setdefault(chat_id, asyncio.Lock())
        async with lock:
            while (wait := self.delay(chat_id)) > 0:
                await self._background.wait(self._clock.sleep(wait))
            self._sent.setdefault(chat_id, deque()).append(self._clock.now())
