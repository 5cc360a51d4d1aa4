"""Turn timers: warn a player whose time runs out, play for him when it has,
and close lobbies nobody started.

Deadlines live in the database in absolute time (the table service writes them with
every change, as :mod:`services.turns` says), so they survive a restart.  The
bot writes a heartbeat while it runs; at start the time it was down is added to
every running deadline, and so is any time a chat's messages were held back by
Telegram's flood limits, so that nobody times out because of the bot.

With several workers (:mod:`services.leases`) a worker runs the deadlines of
the chats it holds only: a chat taken over gets back the time nobody held it,
as the whole bot does after a restart.  Two workers that briefly both run a
deadline fire it once: the firing transaction reads the table locked
(``FOR UPDATE``) and then finds the deadline due, or already played and gone
(:meth:`services.tables.Tables.timeout`).
"""

from __future__ import annotations

import asyncio
import heapq
import logging
from collections.abc import Iterable, Mapping

from services.background import Background
from services.clock import Clock
from services.leases import EVERY_CHAT, Holding
from services.snapshots import Snapshot
from services.tables import Tables
from storage import Database, DeadlineRow

__all__ = ["Timers"]

log = logging.getLogger(__name__)

WARN, DUE = 0, 1


class Timers:
    def __init__(
        self,
        db: Database,
        tables: Tables,
        clock: Clock,
        background: Background,
        *,
        heartbeat: float = 1.0,
        holding: Holding = EVERY_CHAT,
    ) -> None:
        self._db = db
        self._holding = holding
        self._tables = tables
        self._clock = clock
        self._background = background
        self._heartbeat = heartbeat
        self._current: dict[int, Mapping[int, DeadlineRow]] = {}
        self._chats: dict[int, int] = {}
        """The chat of each table armed (with several workers)."""
        self._queue: list[tuple[float, int, int, int]] = []  # (when, WARN/DUE, table, seat)
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        """Add the time the bot was down to the deadlines, then run them (with
        several workers: run those of the chats taken, :meth:`chat_taken`)."""
        if self._holding is not EVERY_CHAT:
            self._tasks = [self._background.spawn(self._run(), "deadlines")]
            return
        async with self._db.transaction() as tx:
            alive = await tx.deadlines.alive_at()
            now = self._clock.now()
            if alive is not None and now > alive:
                await tx.deadlines.postpone(now - alive)
                log.info("the bot was down %.1f s: deadlines postponed", now - alive)
            await tx.deadlines.set_alive_at(now)
            rows = await tx.deadlines.all()
        by_table: dict[int, dict[int, DeadlineRow]] = {}
        for row in rows:
            by_table.setdefault(row.table_id, {})[row.seat] = row
        for table_id, deadlines in by_table.items():
            self._arm(table_id, deadlines)
        self._tasks = [
            self._background.spawn(self._run(), "deadlines"),
            self._background.spawn(self._beat(), "heartbeat"),
        ]

    async def stop(self) -> None:
        await self._background.cancel(self._tasks)
        self._tasks = []
        try:
            async with self._db.transaction() as tx:
                await tx.deadlines.set_alive_at(self._clock.now())
        except Exception:  # a stop goes on: the last heartbeat stands
            log.exception("writing the last heartbeat failed")

    async def postpone(self, table_ids: Iterable[int], seconds: float) -> None:
        """The tables' messages were held back (a flood wait): their players get
        that time back."""
        ids = sorted(set(table_ids))
        if not ids or seconds <= 0:
            return
        async with self._db.transaction() as tx:
            await tx.deadlines.postpone(seconds, ids)
            rows = {t: await tx.deadlines.of_table(t) for t in ids}
        for table_id, deadlines in rows.items():
            if table_id in self._current or self._holding is EVERY_CHAT:
                self._arm(table_id, {d.seat: d for d in deadlines})

    # --- the chats of this worker (services.leases) ------------------------------

    async def chat_taken(self, chat_id: int, given_back: float) -> None:
        """Run the chat's deadlines, with the time nobody held it given back."""
        async with self._db.transaction() as tx:
            rows = await tx.deadlines.of_chat(chat_id)
            if given_back > 0 and rows:
                await tx.deadlines.postpone(given_back, sorted({r.table_id for r in rows}))
                rows = await tx.deadlines.of_chat(chat_id)
        by_table: dict[int, dict[int, DeadlineRow]] = {}
        for row in rows:
            by_table.setdefault(row.table_id, {})[row.seat] = row
        for table_id, deadlines in by_table.items():
            self._arm(table_id, deadlines, chat_id)

    def chat_dropped(self, chat_id: int) -> None:
        """Forget the chat's deadlines (their queue entries are outdated by it)."""
        for table_id in [t for t, c in self._chats.items() if c == chat_id]:
            del self._chats[table_id]
            self._current.pop(table_id, None)

    # --- observer -------------------------------------------------------------

    def table_changed(self, snapshot: Snapshot) -> None:
        if self._holding.holds(snapshot.table.chat_id):
            self._arm(snapshot.table.id, snapshot.deadlines, snapshot.table.chat_id)

    def seat_warned(self, snapshot: Snapshot, seat: int) -> None:
        """Nothing to do: the warning was this service's own."""

    # --- running --------------------------------------------------------------

    def _arm(
        self, table_id: int, deadlines: Mapping[int, DeadlineRow], chat_id: int | None = None
    ) -> None:
        self._current[table_id] = deadlines
        if chat_id is not None:
            self._chats[table_id] = chat_id
        if not deadlines:
            del self._current[table_id]
            self._chats.pop(table_id, None)
        for row in deadlines.values():
            heapq.heappush(self._queue, (row.due_at, DUE, table_id, row.seat))
            if row.warn_at is not None:
                heapq.heappush(self._queue, (row.warn_at, WARN, table_id, row.seat))
        self._wake.set()

    def _still_due(self, when: float, kind: int, table_id: int, seat: int) -> bool:
        """Queue entries are never removed, only outdated: check against the
        deadline as it now stands."""
        row = self._current.get(table_id, {}).get(seat)
        if row is None:
            return False
        return (row.due_at if kind == DUE else row.warn_at) == when

    def _acts_on(self, table_id: int) -> bool:
        """This process acts on the table's chat (one process: on every chat)."""
        chat_id = self._chats.get(table_id)
        if chat_id is None:
            return self._holding is EVERY_CHAT
        return self._holding.holds(chat_id)

    async def _run(self) -> None:
        while True:
            now = self._clock.now()
            while self._queue and self._queue[0][0] <= now:
                when, kind, table_id, seat = heapq.heappop(self._queue)
                if self._still_due(when, kind, table_id, seat) and self._acts_on(table_id):
                    await self._fire(kind, table_id, seat)
            # Sleep until the next deadline that still stands: a busy table
            # leaves one outdated entry a move, and waking for each of them
            # would cost a wake-up a move a minute later.
            while self._queue and not self._still_due(*self._queue[0]):
                heapq.heappop(self._queue)
            await self._sleep(self._queue[0][0] - now if self._queue else None)

    async def _fire(self, kind: int, table_id: int, seat: int) -> None:
        try:
            if kind == WARN:
                await self._tables.warn(table_id, seat)
            else:
                await self._tables.timeout(table_id, seat)
        except Exception:
            log.exception("deadline of table %s seat %s failed", table_id, seat)

    async def _sleep(self, seconds: float | None) -> None:
        """Until the next deadline, or until the deadlines change."""
        self._wake.clear()
        waits: list[asyncio.Future[object]] = [asyncio.ensure_future(self._wake.wait())]
        if seconds is not None:
            waits.append(asyncio.ensure_future(self._clock.sleep(seconds)))
        try:
            await self._background.wait(asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED))
        finally:
            for wait in waits:
                wait.cancel()

    async def _beat(self) -> None:
        while True:
            await self._background.wait(self._clock.sleep(self._heartbeat))
            try:
                async with self._db.transaction() as tx:
                    await tx.deadlines.set_alive_at(self._clock.now())
            except Exception:
                log.exception("writing the heartbeat failed")
