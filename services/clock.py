"""Time, injected: everything that waits asks a clock, so tests can run it fast."""

from __future__ import annotations

import asyncio
import time
from typing import Protocol

__all__ = ["Clock", "SystemClock"]


class Clock(Protocol):
    def now(self) -> float:
        """Seconds since the epoch (deadlines are stored in this time)."""

    async def sleep(self, seconds: float) -> None:
        """Wait ``seconds`` of this clock's time (at once if not positive)."""


class SystemClock:
    """The real time."""

    def now(self) -> float:
        return time.time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(seconds, 0.0))
