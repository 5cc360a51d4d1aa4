"""A clock that moves only when a test says so, for services and the bot alike."""

from __future__ import annotations

import asyncio
import heapq
import itertools

__all__ = ["FakeClock"]

START = 1_800_000_000.0
"""An arbitrary fixed epoch time (January 2027)."""


class FakeClock:
    """``now()`` stands still; ``sleep`` waits until :meth:`advance` moves the
    time past its end.  Sleepers wake in time order, one moment at a time."""

    def __init__(self, start: float = START) -> None:
        self._now = start
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self._now

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self._now + seconds, next(self._order), future))
        await future

    def next_wake(self) -> float | None:
        """When the earliest sleeper wakes (None: nobody sleeps)."""
        while self._sleepers and self._sleepers[0][2].done():
            heapq.heappop(self._sleepers)  # cancelled
        return self._sleepers[0][0] if self._sleepers else None

    def wake_next(self) -> None:
        """Move to the earliest sleeper's time and wake everyone due then."""
        when = self.next_wake()
        if when is None:
            return
        self._now = max(self._now, when)
        while self._sleepers and self._sleepers[0][0] <= self._now:
            _, _, future = heapq.heappop(self._sleepers)
            if not future.done():
                future.set_result(None)

    def set(self, when: float) -> None:
        """Move the time on to ``when`` without waking anybody (the caller
        wakes the due sleepers in order first)."""
        self._now = max(self._now, when)
