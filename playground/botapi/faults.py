"""Fault storms: Telegram failing the way it does in real life, at random.

A :class:`Storm` decides, call by call, whether a Bot API call fails and how:
a flood wait, a server error, a connection dropped before the call was applied,
a response lost after it was (the message exists but the bot never hears of
it), or just a slow answer.  Seeded, so that a failing run can be repeated.
"""

from __future__ import annotations

import enum
import random
from collections import Counter, deque
from dataclasses import dataclass, field

__all__ = ["Fault", "FloodLimit", "Storm"]


class Fault(enum.Enum):
    FLOOD = "flood"
    """429 Too Many Requests with a retry_after."""
    SERVER_ERROR = "server_error"
    """500 or 502, nothing applied."""
    DROPPED = "dropped"
    """The connection closes before the call is applied."""
    LOST = "lost"
    """The call is applied, then the connection closes before the answer."""
    SLOW = "slow"
    """The call is applied and answered, after a delay."""


FLOODABLE = frozenset(
    {
        "sendMessage",
        "sendPhoto",
        "editMessageText",
        "editMessageCaption",
        "editMessageMedia",
        "editMessageReplyMarkup",
        "deleteMessage",
        "pinChatMessage",
        "unpinChatMessage",
    }
)
"""Telegram's flood control answers sending and editing; the rest of the calls
meet the other faults only."""


@dataclass
class Storm:
    """Hits a share ``rate`` of the calls (getUpdates excepted) with one of ``faults``."""

    rate: float
    seed: int = 0
    faults: tuple[Fault, ...] = tuple(Fault)
    retry_after: tuple[int, int] = (1, 5)
    slow_seconds: tuple[float, float] = (0.05, 0.4)
    counts: Counter[Fault] = field(default_factory=Counter)
    """How many of each fault were dealt so far."""

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    def draw(self, method: str) -> Fault | None:
        if method == "getUpdates" or self._rng.random() >= self.rate:
            return None
        choices = [f for f in self.faults if f is not Fault.FLOOD or method in FLOODABLE]
        if not choices:
            return None
        fault = self._rng.choice(choices)
        self.counts[fault] += 1
        return fault

    def flood_wait(self) -> int:
        return self._rng.randint(*self.retry_after)

    def server_error(self) -> int:
        return self._rng.choice((500, 502))

    def delay(self) -> float:
        return self._rng.uniform(*self.slow_seconds)

    @property
    def total(self) -> int:
        return sum(self.counts.values())


@dataclass
class FloodLimit:
    """Telegram's overall flood control, stood in for: past ``per_second``
    sends and edits (:data:`FLOODABLE`) in any second, a call is answered 429
    with a ``retry_after`` of one second.  Only the calls let through count,
    so a bot going too fast loses the excess, not the whole second."""

    per_second: int
    refused: int = 0
    _passed: deque[float] = field(default_factory=deque)

    def admit(self, method: str, now: float) -> bool:
        if method not in FLOODABLE:
            return True
        while self._passed and self._passed[0] <= now - 1.0:
            self._passed.popleft()
        if len(self._passed) >= self.per_second:
            self.refused += 1
            return False
        self._passed.append(now)
        return True
