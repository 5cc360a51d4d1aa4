"""Copies of messages left behind by sends whose answer never came.

Telegram has no idempotent send.  When the connection breaks (or Telegram
answers 5xx) after the message was made, the bot cannot know it was, sends it
again, and the first copy stays in the chat with its buttons live.  Message
ids grow by one per chat, so such a copy comes after the newest message known
when the doubtful send began.  After a call to the chat, once no send to it is
in flight (and none may start), the ids
from there on that are not the bot's known messages are probed with an edit of
the reply markup, which Telegram accepts only on the bot's own messages; those
are deleted.  The probing stops at the first id with no message: nothing was
made after it.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

__all__ = ["MAX_PROBES", "Orphans", "Sweep", "Ticket"]

MAX_PROBES = 8
"""Ids probed per sweep at most (others' messages in a busy group are skipped
one probe each)."""


@dataclass(frozen=True, slots=True)
class Ticket:
    """A send in flight: the newest id known when it began."""

    newest: int | None


@dataclass(frozen=True, slots=True)
class Sweep:
    """Probe the ids after ``after`` that are not in ``known``."""

    after: int
    known: frozenset[int]

    def ids(self) -> itertools.filterfalse[int]:
        return itertools.filterfalse(self.known.__contains__, itertools.count(self.after + 1))


@dataclass
class _Chat:
    newest: int | None = None
    made: set[int] = field(default_factory=set)
    inflight: int = 0
    doubt_from: int | None = None


class Orphans:
    """What the sends to each chat made, and what they may have made unseen."""

    def __init__(self) -> None:
        self._chats: dict[int, _Chat] = {}

    def begin(self, chat_id: int) -> Ticket:
        chat = self._chats.setdefault(chat_id, _Chat())
        chat.inflight += 1
        return Ticket(chat.newest)

    def made(self, chat_id: int, message_id: int) -> None:
        """A message of the bot's exists: one that a send made, or a copy found."""
        chat = self._chats[chat_id]
        chat.made.add(message_id)
        chat.newest = max(chat.newest or 0, message_id)

    def doubtful(self, chat_id: int, ticket: Ticket) -> None:
        """The send may have made a message nobody heard of."""
        if ticket.newest is not None:  # else no bound below: nothing can be looked for
            self.look_after(chat_id, ticket.newest)

    def look_after(self, chat_id: int, message_id: int) -> None:
        """Messages after ``message_id`` may be copies (a sweep was cut short)."""
        chat = self._chats[chat_id]
        if chat.doubt_from is None or message_id < chat.doubt_from:
            chat.doubt_from = message_id

    def end(self, chat_id: int) -> None:
        """The send is over."""
        chat = self._chats[chat_id]
        chat.inflight -= 1
        if not chat.inflight and chat.doubt_from is None:
            # Later sends begin knowing the newest id: older ones need no memory.
            chat.made = {chat.newest} if chat.newest is not None else set()

    def due(self, chat_id: int) -> Sweep | None:
        """What to probe now, if copies may exist and no send is in flight."""
        chat = self._chats.get(chat_id)
        if chat is None or chat.inflight or chat.doubt_from is None:
            return None
        sweep = Sweep(chat.doubt_from, frozenset(i for i in chat.made if i > chat.doubt_from))
        chat.doubt_from = None
        return sweep
