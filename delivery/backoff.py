"""The growing pause before a failed delivery is tried again."""

from __future__ import annotations

from services import Background, Clock

__all__ = ["BACKOFF", "Backoff"]

BACKOFF = (1.0, 2.0, 5.0, 10.0, 30.0, 60.0)
"""Pauses before trying a failed delivery again (the last one repeats)."""


class Backoff:
    """One worker's failures in a row, and the pause the next one costs."""

    def __init__(self, clock: Clock, background: Background) -> None:
        self._clock = clock
        self._background = background
        self.failures = 0

    def succeeded(self) -> None:
        self.failures = 0

    def next_pause(self) -> float:
        """The pause after one more failure (counted)."""
        pause = BACKOFF[min(self.failures, len(BACKOFF) - 1)]
        self.failures += 1
        return pause

    async def wait(self) -> None:
        """Sleep the next pause on the bot's clock, as idle time."""
        await self._background.wait(self._clock.sleep(self.next_pause()))
