"""What a sync of a table's messages came to, handed back to the publisher.

A sync (the group's table message and announcements, or a table's DMs) does
not act on what Telegram answered beyond its own messages: it says what
happened, and the publisher acts on it (tries again later, gives the players
a flood wait's time back, moves the chat's tables to the supergroup, tells
the group that a player cannot be reached).
"""

from __future__ import annotations

from dataclasses import dataclass

from delivery.telegram_io import Delivery, Sent

__all__ = ["Done", "Migrated", "Retry", "Synced", "judged"]


@dataclass(frozen=True, slots=True)
class Done:
    """Nothing is left to try again."""

    unreachable: tuple[int, ...] = ()
    """Seats whose player gets no DMs, to tell the group of (once)."""


@dataclass(frozen=True, slots=True)
class Retry:
    """Something is worth trying again later."""

    after: float = 0.0
    """Seconds of flood wait Telegram asked for (0: none said), which the
    table's players get back on their clocks."""
    unreachable: tuple[int, ...] = ()
    """As :attr:`Done.unreachable`."""


@dataclass(frozen=True, slots=True)
class Migrated:
    """The group ``chat`` became the supergroup ``to``: its tables move there,
    and the sync is tried again."""

    chat: int
    to: int


Synced = Done | Retry | Migrated


def judged(sent: Sent, chat_id: int) -> Synced:
    """What a delivery to the group ``chat_id`` calls for."""
    match sent.delivery:
        case Delivery.RETRY:
            return Retry(sent.retry_after or 0.0)
        case Delivery.MIGRATED:
            assert sent.migrated_to is not None
            return Migrated(chat_id, sent.migrated_to)
        case _:
            return Done()
