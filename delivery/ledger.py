"""The Telegram layer's own records: which message shows a table or a hand
(and which DM holds a turn warning to delete when the turn ends).

Kept in the bot's database (``storage.messages``) but owned by this layer: the
game tables know nothing of message ids.  Nothing else writes these records,
so each is read from the database once and then kept in memory, written
through on every change, until the table is forgotten.

The writes are small and come several to a move (both hands, the group's
message, the announcement cursor) from many tables at once, while the
database takes one transaction at a time.  So they are group-committed: a
write returns once it is durable, and every write queued while the database
is busy commits with the others in one transaction.  Under load that is one
transaction for the ledger's writes of many moves, not two or three per move
(``bench.bot``: 271 moves a second instead of 206).  A write that fails fails
its whole batch.  The committer is a task of the bot's
:class:`~services.background.Background`, like every other, so a stop ends it.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, replace

from services import Background
from storage import Database, HandMessageRow, Messages, Retiring, TableMessageRow

__all__ = ["HandMessageRow", "Ledger", "Retiring", "TableMessageRow"]

Write = Callable[[Messages], Awaitable[None]]


@dataclass(slots=True)
class _Kept:
    """What is kept of one table's records, each read when first asked for
    (None: not read yet)."""

    table: TableMessageRow | None = None
    hands: dict[int, HandMessageRow] | None = None
    retiring: dict[tuple[int, int], str | None] | None = None
    warnings: dict[int, tuple[int, int]] | None = None


class Ledger:
    def __init__(self, db: Database, background: Background) -> None:
        self._db = db
        self._background = background
        self._kept: dict[int, _Kept] = {}
        self._writing: Counter[int] = Counter()
        """Writes under way, by table."""
        self._written: Counter[int] = Counter()
        """Writes ended (committed or failed), by table."""
        self._ended = asyncio.Condition()
        """Notified when a table's last write under way ends."""
        self._queued: list[Write] = []
        self._next_commit: asyncio.Future[None] | None = None
        """Resolved when the queued writes are committed."""
        self._committer: asyncio.Task[None] | None = None

    def _of(self, table_id: int) -> _Kept:
        kept = self._kept.get(table_id)
        if kept is None:
            kept = self._kept[table_id] = _Kept()
        return kept

    async def table_message(self, table_id: int) -> TableMessageRow:
        row = self._of(table_id).table
        if row is None:
            mark = await self._settled(table_id)
            async with self._db.read() as tx:
                row = await tx.messages.table_message(table_id)
            if self._unchanged(table_id, mark):
                self._of(table_id).table = row
        return row

    async def set_table_message(
        self, table_id: int, message_id: int | None, kind: str, digest: str | None
    ) -> None:
        await self._write(
            table_id, lambda m: m.set_table_message(table_id, message_id, kind, digest)
        )
        if (kept := self._kept.get(table_id)) is not None and kept.table is not None:
            kept.table = replace(kept.table, message_id=message_id, kind=kind, digest=digest)

    async def set_pinned(self, table_id: int, pinned: bool) -> None:
        await self._write(table_id, lambda m: m.set_pinned(table_id, pinned))
        if (kept := self._kept.get(table_id)) is not None and kept.table is not None:
            kept.table = replace(kept.table, pinned=pinned)

    async def set_announced(self, table_id: int, moves: int, posts: int = 0) -> None:
        """The cursor of announcements: ``moves`` moves posted, and ``posts``
        of the next one's (:meth:`storage.Messages.set_announced`)."""
        await self._write(table_id, lambda m: m.set_announced(table_id, moves, posts))
        if (kept := self._kept.get(table_id)) is not None and (row := kept.table) is not None:
            cursor = max((row.announced, row.announced_posts), (moves, posts))
            kept.table = replace(row, announced=cursor[0], announced_posts=cursor[1])

    async def chooser(self, chat_id: int, thread_id: int) -> int | None:
        """The open game chooser of the chat's topic recorded (by an earlier
        run), not taken over by a table."""
        async with self._db.read() as tx:
            return await tx.messages.chooser(chat_id, thread_id)

    async def set_chooser(self, chat_id: int, thread_id: int, message_id: int) -> None:
        """The chat's topic has a new open game chooser (the next one closes it)."""
        async with self._db.transaction() as tx:
            await tx.messages.set_chooser(chat_id, thread_id, message_id)

    async def drop_chooser(self, chat_id: int, message_id: int) -> None:
        async with self._db.transaction() as tx:
            await tx.messages.drop_chooser(chat_id, message_id)

    async def hands(self, table_id: int) -> dict[int, HandMessageRow]:
        rows = self._of(table_id).hands
        if rows is None:
            mark = await self._settled(table_id)
            async with self._db.read() as tx:
                rows = await tx.messages.hands(table_id)
            if self._unchanged(table_id, mark):
                self._of(table_id).hands = rows
        return dict(rows)

    async def save_hands(
        self, table_id: int, rows: Iterable[HandMessageRow], retiring: Retiring | None = None
    ) -> None:
        """Record hands, and (in the same transaction) the DM messages they
        make to delete: a kill between the two must not forget the latter."""
        rows = list(rows)
        retiring = dict(retiring or {})
        if not rows and not retiring:
            return

        async def write(messages: Messages) -> None:
            if rows:
                await messages.set_hands(rows)
            if retiring:
                await messages.add_retiring(table_id, retiring)

        await self._write(table_id, write)
        if (kept := self._kept.get(table_id)) is not None:
            if kept.hands is not None:
                kept.hands.update((row.seat, row) for row in rows)
            if kept.retiring is not None:
                kept.retiring.update(retiring)

    async def retiring(self, table_id: int) -> dict[tuple[int, int], str | None]:
        """The table's DM messages still to delete."""
        owed = self._of(table_id).retiring
        if owed is None:
            mark = await self._settled(table_id)
            async with self._db.read() as tx:
                owed = await tx.messages.retiring(table_id)
            if self._unchanged(table_id, mark):
                self._of(table_id).retiring = owed
        return dict(owed)

    async def retired(self, table_id: int, messages: Iterable[tuple[int, int]]) -> None:
        """These DM messages are gone (or have lost their buttons)."""
        messages = list(messages)
        if not messages:
            return
        await self._write(table_id, lambda m: m.drop_retiring(messages))
        if (kept := self._kept.get(table_id)) is not None and kept.retiring is not None:
            for message in messages:
                kept.retiring.pop(message, None)

    async def warnings(self, table_id: int) -> dict[int, tuple[int, int]]:
        """Per seat, the turn warning (chat, message) still in its DM."""
        warnings = self._of(table_id).warnings
        if warnings is None:
            mark = await self._settled(table_id)
            async with self._db.read() as tx:
                warnings = await tx.messages.warnings(table_id)
            if self._unchanged(table_id, mark):
                self._of(table_id).warnings = warnings
        return dict(warnings)

    async def set_warning(self, table_id: int, seat: int, chat_id: int, message_id: int) -> None:
        await self._write(table_id, lambda m: m.set_warning(table_id, seat, chat_id, message_id))
        if (kept := self._kept.get(table_id)) is not None and kept.warnings is not None:
            kept.warnings[seat] = (chat_id, message_id)

    async def drop_warnings(self, table_id: int, seats: Iterable[int]) -> None:
        """These seats' warnings are gone."""
        seats = list(seats)
        if not seats:
            return
        await self._write(table_id, lambda m: m.drop_warnings(table_id, seats))
        if (kept := self._kept.get(table_id)) is not None and kept.warnings is not None:
            for seat in seats:
                kept.warnings.pop(seat, None)

    async def _settled(self, table_id: int) -> int:
        """Once no write of the table is under way, how many have ended: a
        read waits for this worker's own writes (a sync of a chat taken back a
        moment ago must not read the cursor its last sync is still writing)."""
        if self._writing[table_id]:
            async with self._ended:
                await self._ended.wait_for(lambda: not self._writing[table_id])
        return self._written[table_id]

    def _unchanged(self, table_id: int, mark: int) -> bool:
        """No write of the table began since a read settled at ``mark``: what
        it read may be kept.  (Kept otherwise, a read begun before a write's
        commit and ended after it would hide the write from every later
        reader: a sync taking the old announcement cursor would post a sheet
        again.)"""
        return not self._writing[table_id] and self._written[table_id] == mark

    async def _write(self, table_id: int, write: Write) -> None:
        """Queue ``write`` (of the table's records) and return once it is
        committed (or raise what the transaction that carried it raised)."""
        self._writing[table_id] += 1
        try:
            await self._queue(write)
        finally:
            self._writing[table_id] -= 1
            self._written[table_id] += 1
            if not self._writing[table_id]:
                del self._writing[table_id]
                async with self._ended:
                    self._ended.notify_all()

    async def _queue(self, write: Write) -> None:
        self._queued.append(write)
        if self._next_commit is None:
            self._next_commit = asyncio.get_running_loop().create_future()
            # Retrieved even if every writer waiting on it was cancelled.
            self._next_commit.add_done_callback(lambda f: f.cancelled() or f.exception())
        commit = self._next_commit
        if self._committer is None or self._committer.done():
            self._committer = self._background.spawn(self._commit_queued(), "ledger-commit")
        # A writer given up on (a drain's timeout) does not cancel the others'.
        await asyncio.shield(commit)

    async def _commit_queued(self) -> None:
        while self._queued:
            commit: asyncio.Future[None] | None = None
            try:
                async with self._db.transaction() as tx:
                    # Taken once the connection is ours, so that what queued
                    # while waiting for it goes in too.
                    writes, commit = self._take()
                    for write in writes:
                        await write(tx.messages)
            except asyncio.CancelledError:
                for waiting in (commit, self._take()[1]):
                    if waiting is not None:
                        waiting.cancel()
                raise
            except Exception as exc:  # handed to every writer of the batch
                if commit is None:  # the transaction did not begin
                    _, commit = self._take()
                assert commit is not None
                commit.set_exception(exc)
            else:
                assert commit is not None
                commit.set_result(None)

    def _take(self) -> tuple[list[Write], asyncio.Future[None] | None]:
        """The queued writes and the future their commit resolves; the queue is left empty."""
        writes, self._queued = self._queued, []
        commit, self._next_commit = self._next_commit, None
        return writes, commit

    def forget(self, table_id: int) -> None:
        """Drop what is kept of a table (it is read again if asked for)."""
        self._kept.pop(table_id, None)

    async def to_resume(self, since: float, chat_id: int | None = None) -> list[int]:
        """Tables (of ``chat_id``, or all) whose messages may be behind: open
        ones, those owing announcements, and those changed since ``since``."""
        async with self._db.read() as tx:
            return await tx.messages.tables_to_resume(since, chat_id)
