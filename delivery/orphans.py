"""Copies of messages left behind by sends whose answer never came.

Telegram has no idempotent send.  When the connection breaks (or Telegram
answers 5xx) after the message was made, the bot cannot know it was, sends it
again, and the first copy stays in the chat with its buttons live.  Message
ids grow by one per chat, so such a copy comes after the newest message known
when the doubtful send began, and before any message a send begun after the
doubt made (the *bound*).  After a call to the chat, once no send to it is in
flight (and none may start), the ids in that range that are not the bot's
known messages are probed with an edit of the reply markup, which Telegram
accepts only on the bot's own messages; those are deleted.

Without a bound, the probing stops at the first id with no message: most often
nothing was made after it.  But it may be a hole (a message deleted since), so
the range is probed again, past the holes, as soon as a later send bounds it.
A sweep cut short (a probe or a delete failed) is owed and tried again later,
even if nothing else is ever sent to the chat.

An id this process does not know is another's message when another process
sends to the chat too: with several workers, copies are looked for only in
the groups a worker holds, and no longer once it hands one over
(:meth:`Orphans.abandon`).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field

__all__ = ["MAX_PROBES", "Orphans", "Sweep", "Ticket"]

MAX_PROBES = 12
"""Ids probed per sweep at most (others' messages in a busy group are skipped
one probe each)."""


@dataclass(frozen=True, slots=True)
class Ticket:
    """A send in flight: the newest id known when it began, and which doubt
    (if any was open) the message it makes will bound."""

    newest: int | None
    bounds: int | None = None


@dataclass(frozen=True, slots=True)
class Sweep:
    """Probe the ids after ``after`` (and before ``before``, if known) that are
    not in ``known``."""

    after: int
    known: frozenset[int]
    before: int | None
    doubt: int

    def ids(self) -> Iterator[int]:
        ids: Iterator[int] = itertools.count(self.after + 1)
        if self.before is not None:
            ids = iter(range(self.after + 1, self.before))
        return itertools.filterfalse(self.known.__contains__, ids)


@dataclass
class _Chat:
    newest: int | None = None
    made: set[int] = field(default_factory=set)
    inflight: int = 0
    doubt_from: int | None = None
    doubts: int = 0
    """Doubtful sends so far: a bound is good only for the doubts raised before it."""
    bound: int | None = None
    needs_bound: bool = False


class Orphans:
    """What the sends to each chat made, and what they may have made unseen."""

    def __init__(self) -> None:
        self._chats: dict[int, _Chat] = {}

    def begin(self, chat_id: int) -> Ticket:
        chat = self._chats.setdefault(chat_id, _Chat())
        chat.inflight += 1
        return Ticket(chat.newest, chat.doubts if chat.doubt_from is not None else None)

    def made(self, chat_id: int, message_id: int, ticket: Ticket | None = None) -> None:
        """A message of the bot's exists (or a copy found was deleted): sweeps skip it."""
        chat = self._chats[chat_id]
        chat.made.add(message_id)
        chat.newest = max(chat.newest or 0, message_id)
        if ticket is not None and ticket.bounds == chat.doubts and chat.doubt_from is not None:
            chat.bound = message_id if chat.bound is None else min(chat.bound, message_id)

    def doubtful(self, chat_id: int, ticket: Ticket) -> None:
        """The send may have made a message nobody heard of."""
        if ticket.newest is None:
            return  # no bound below: nothing can be looked for
        chat = self._chats[chat_id]
        chat.doubts += 1
        chat.bound = None
        chat.needs_bound = False
        self._look_after(chat, ticket.newest)

    def cut_short(self, chat_id: int, message_id: int, sweep: Sweep) -> None:
        """A sweep stopped (a call failed) before it probed past ``message_id``."""
        chat = self._chats[chat_id]
        self._look_after(chat, message_id)
        if sweep.doubt == chat.doubts and sweep.before is not None:
            chat.bound = sweep.before if chat.bound is None else min(chat.bound, sweep.before)

    def empty_at(self, chat_id: int, message_id: int, sweep: Sweep) -> None:
        """An unbounded sweep found no message at ``message_id``: look past it
        once a later send gives the range a bound (it may be a hole)."""
        chat = self._chats[chat_id]
        if sweep.doubt == chat.doubts and chat.doubt_from is None:
            chat.needs_bound = True
        self._look_after(chat, message_id - 1)

    def end(self, chat_id: int) -> None:
        """The send is over."""
        chat = self._chats[chat_id]
        chat.inflight -= 1
        if not chat.inflight and chat.doubt_from is None:
            # Later sends begin knowing the newest id: older ones need no memory.
            chat.made = {chat.newest} if chat.newest is not None else set()

    def abandon(self, chat_id: int) -> None:
        """Another process sends to the chat now: ids this one does not know
        may be its messages, so no copy is looked for there."""
        chat = self._chats.get(chat_id)
        if chat is not None:
            chat.doubt_from = chat.bound = None
            chat.needs_bound = False

    def owed(self, chat_id: int) -> bool:
        """Copies may still exist in the chat, and probing now could find them."""
        chat = self._chats.get(chat_id)
        return chat is not None and chat.doubt_from is not None and not self._waiting(chat)

    def due(self, chat_id: int) -> Sweep | None:
        """What to probe now, if copies may exist and no send is in flight."""
        chat = self._chats.get(chat_id)
        if chat is None or chat.inflight or chat.doubt_from is None or self._waiting(chat):
            return None
        after = chat.doubt_from
        known = frozenset(i for i in chat.made if i > after)
        sweep = Sweep(after, known, chat.bound, chat.doubts)
        chat.doubt_from = None
        chat.bound = None
        chat.needs_bound = False
        return sweep

    @staticmethod
    def _waiting(chat: _Chat) -> bool:
        return chat.needs_bound and chat.bound is None

    @staticmethod
    def _look_after(chat: _Chat, message_id: int) -> None:
        if chat.doubt_from is None or message_id < chat.doubt_from:
            chat.doubt_from = message_id
