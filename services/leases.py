"""Several workers on one database: which chats this worker acts on.

Everything a worker keeps in memory about a chat (its tables' timers and
computers, what the publisher owes it, the group's budget, the ledger's
records) is right only while no other worker acts on the chat.  So a worker
acts on a chat only under a lease (:class:`storage.cluster.Cluster`), held for
:data:`TTL` seconds and renewed every :data:`RENEW` seconds for all its chats
in one statement.  A worker whose leases went unrenewed for half the TTL
(a watchdog, whatever a renewal is waiting for) stops acting on its chats
(its holders forget them) before anybody else may take them, so that nothing
is done twice by two workers that both thought they held a chat.

Taking a chat over is what a restart does, for that chat only: the holders
(the directory's cached settings, timers, computers, the publisher, the
inbox, in that order) are told
:meth:`ChatHolder.chat_taken` with the time the chat was unheld, which its
deadlines get back.  Every :data:`SCAN` seconds a worker takes chats with work
that nobody holds (a dead worker's), at most its fair share of them, so that
they spread over the live workers.  A stopping worker releases its chats, and
the others take them at once.

A single process (SQLite, or long polling) runs without leases: it holds
every chat (:data:`EVERY_CHAT`).
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import random
import secrets
import socket
from collections.abc import Callable, Iterable
from typing import Protocol

from services.background import Background
from services.clock import Clock
from storage import Database

__all__ = [
    "CHANNEL",
    "EVERY_CHAT",
    "RENEW",
    "SCAN",
    "TTL",
    "ChatHolder",
    "ChatLeases",
    "Holding",
    "worker_id",
]

log = logging.getLogger(__name__)

TTL = 10.0
"""Seconds a lease lasts unless renewed."""
RENEW = 3.0
"""Seconds between renewals of all of a worker's leases."""
SCAN = 2.0
"""Seconds between looks for chats nobody holds."""
INBOX_KEPT = 3600.0
"""Seconds a handled update is kept, so that a late redelivery is dropped."""
OWED_WINDOW = 24 * 3600.0
"""A table changed this long ago or less may still owe its chat an announcement
(the window the publisher resumes, :data:`delivery.publisher.RESUME_WINDOW`)."""
IDLE = 600.0
"""Seconds after which a chat without work, and without an update, is released."""
SENDS_KEPT = 60.0
"""Seconds a group's send is kept: its budget's window."""
CHANNEL = "koloda_inbox"
"""The notification channel: its payload is the chat whose updates came,
empty when chats were released, or news from a worker (:meth:`ChatLeases.tell_others`)."""
FROM = " from "
"""Between a notification's news and the worker that sent it."""


def worker_id(env: str | None = None) -> str:
    """``WORKER_ID`` when given, else ``hostname:pid:random``."""
    if env:
        return env
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


class Holding(Protocol):
    def holds(self, chat_id: int) -> bool:
        """This worker acts on ``chat_id`` now."""
        ...


class _EveryChat:
    def holds(self, chat_id: int) -> bool:
        return True


EVERY_CHAT: Holding = _EveryChat()
"""One process: it acts on every chat."""


class ChatHolder(Protocol):
    async def chat_taken(self, chat_id: int, given_back: float) -> None:
        """This worker now holds ``chat_id``, which nobody held for ``given_back`` seconds."""
        ...

    def chat_dropped(self, chat_id: int) -> None:
        """This worker no longer holds ``chat_id``: stop acting on it, forget it."""
        ...


class ChatLeases:
    """The chats this worker holds, and keeping them."""

    def __init__(
        self,
        db: Database,
        clock: Clock,
        background: Background,
        worker: str,
        *,
        ttl: float = TTL,
    ) -> None:
        """``ttl``: how long a lease lasts; renewals and looks for chats
        nobody holds come as often in proportion (every 3 s and 2 s at 10 s)."""
        self._db = db
        self._clock = clock
        self._background = background
        self.worker = worker
        self.ttl = ttl
        self.renew_every = ttl * RENEW / TTL
        self.scan_every = min(SCAN, ttl * SCAN / TTL)
        self._held: dict[int, int] = {}
        """Chat -> the epoch under which this worker took it."""
        self._used: dict[int, float] = {}
        """When each chat held was taken or last had an update handled."""
        self._renewed = 0.0
        """When the leases were last renewed (or first taken)."""
        self._single_alive: float | None = None
        """The heartbeat found at start: a chat that never had a lease gets the
        time since given back, as a single process's restart would."""
        self._taking: dict[int, asyncio.Lock] = {}
        self._lapsing = False
        self._holders: list[ChatHolder] = []
        self._workers = 1
        self._on_workers: list[Callable[[int], None]] = []
        self._tasks: list[asyncio.Task[None]] = []
        self._scan_now = asyncio.Event()

    def add(self, holder: ChatHolder) -> None:
        """Told of every chat taken and dropped, in the order added (dropped: reversed)."""
        self._holders.append(holder)

    def on_workers(self, told: Callable[[int], None]) -> None:
        """Call ``told`` with the number of live workers at every heartbeat."""
        self._on_workers.append(told)

    @property
    def held(self) -> frozenset[int]:
        return frozenset(self._held)

    def holds(self, chat_id: int) -> bool:
        if chat_id not in self._held:
            return False
        if self._fresh():
            return True
        self._lapse()
        return False

    # --- running ---------------------------------------------------------------------

    async def start(self) -> None:
        """Say this worker is alive, then keep its leases and look for chats nobody holds."""
        async with self._db.read() as tx:
            # Before this worker's own beat overwrites it: when a single
            # process (an installation before several workers) last ran.
            self._single_alive = await tx.deadlines.alive_at()
        await self._beat()
        self._renewed = self._clock.now()
        self._tasks = [
            self._background.spawn(self._keep(), "leases"),
            self._background.spawn(self._watch(), "lease-watch"),
            self._background.spawn(self._scan(), "lease-scan"),
        ]

    async def stop(self) -> None:
        """Stop acting on every chat and release them, so that others take them at once."""
        await self._background.cancel(self._tasks)
        self._tasks = []
        for chat_id in list(self._held):
            self._drop(chat_id)
        try:
            async with self._db.transaction() as tx:
                await tx.cluster.leave(self.worker)
                await tx.cluster.notify(CHANNEL, "")
        except Exception:
            log.exception("releasing the chats of worker %s failed", self.worker)

    async def tell_others(self, news: str) -> None:
        """Tell every other worker ``news`` (a notification: lost by a worker
        whose listener is reconnecting)."""
        async with self._db.transaction() as tx:
            await tx.cluster.notify(CHANNEL, f"{news}{FROM}{self.worker}")

    def news(self, payload: str) -> str | None:
        """The news in a notification another worker sent (None: not news, or
        this worker's own)."""
        news, sep, sender = payload.partition(FROM)
        return news if sep and sender != self.worker else None

    def wake_scan(self) -> None:
        """Look for chats nobody holds now (another worker released some)."""
        self._scan_now.set()

    async def take(self, chat_id: int) -> bool:
        """Hold ``chat_id`` if nobody else does (its holders told first); True
        if this worker holds it now."""
        if chat_id in self._held:
            return True
        if not self._fresh():
            return False  # not renewed for too long: acts on no chat
        lock = self._taking.setdefault(chat_id, asyncio.Lock())
        try:
            async with lock:
                return chat_id in self._held or await self._take(chat_id)
        finally:
            if not lock.locked():
                self._taking.pop(chat_id, None)

    async def _take(self, chat_id: int) -> bool:
        async with self._db.transaction() as tx:
            taken = await tx.cluster.take(chat_id, self.worker, self.ttl, self._single_alive)
        if taken is None:
            return False
        given_back = 0.0
        if taken.unheld_since is not None:
            given_back = max(0.0, self._clock.now() - taken.unheld_since)
            log.info("took chat %s (epoch %d, unheld %.1f s)", chat_id, taken.epoch, given_back)
        self._held[chat_id] = taken.epoch
        self._used[chat_id] = self._clock.now()
        for holder in self._holders:
            try:
                await holder.chat_taken(chat_id, given_back)
            except Exception:
                log.exception("taking chat %s failed in %s", chat_id, type(holder).__name__)
        return True

    def _fresh(self) -> bool:
        """The leases were renewed within half their TTL."""
        return self._clock.now() - self._renewed <= self.ttl / 2

    def _lapse(self) -> None:
        """The leases went unrenewed for half their TTL, and somebody was told
        that a chat is not held: every chat is dropped, right after the asker's
        step, even if the late renewal comes through meanwhile.  The asker has
        let go of what it was doing for the chat (a computer's turn, a deadline,
        an edit) as another worker's, and only the next taker of the chat (this
        worker again, or another) resumes all of it."""
        if not self._lapsing:
            self._lapsing = True
            asyncio.get_running_loop().call_soon(self._drop_lapsed)

    def _drop_lapsed(self) -> None:
        self._lapsing = False
        if self._held:
            log.warning(
                "leases not renewed for %.1f s: dropping every chat",
                self._clock.now() - self._renewed,
            )
            self._drop_all(self._held)

    def _drop(self, chat_id: int) -> None:
        self._used.pop(chat_id, None)
        if self._held.pop(chat_id, None) is None:
            return
        for holder in reversed(self._holders):
            try:
                holder.chat_dropped(chat_id)
            except Exception:
                log.exception("dropping chat %s failed in %s", chat_id, type(holder).__name__)

    def _drop_all(self, chat_ids: Iterable[int]) -> None:
        for chat_id in list(chat_ids):
            self._drop(chat_id)

    async def _beat(self) -> None:
        now = self._clock.now()
        async with self._db.transaction() as tx:
            await tx.cluster.beat(self.worker)
            await tx.deadlines.set_alive_at(now)
            workers = await tx.cluster.live_workers(now - self.ttl)
        if workers != self._workers:
            log.info("%d workers live", workers)
        self._workers = workers
        for told in self._on_workers:
            told(workers)

    async def _keep(self) -> None:
        """Renew the leases; drop the chats another worker took meanwhile."""
        while True:
            await self._background.wait(self._clock.sleep(self.renew_every))
            started = self._clock.now()
            held = dict(self._held)
            try:
                async with self._db.transaction() as tx:
                    kept = await tx.cluster.renew(self.worker, self.ttl)
                self._renewed = started  # they run out TTL after it, not after the commit
                # Taken over by another worker (a chat taken while the renewal
                # ran may be missing from it: it is renewed next time).
                self._drop_all(
                    c for c, e in held.items() if self._held.get(c) == e and kept.get(c) != e
                )
                # Leases this worker stopped acting on (not one it is taking).
                stray = [c for c in kept if c not in self._held and c not in self._taking]
                if stray:  # others may take them
                    async with self._db.transaction() as tx:
                        await tx.cluster.release(self.worker, stray)
                await self._beat()
            except Exception:
                log.exception("renewing the leases of worker %s failed", self.worker)

    async def _watch(self) -> None:
        """Stop acting on every chat once the leases went unrenewed for half
        their TTL, however long a renewal hangs: nobody may take them for as
        long again."""
        while True:
            left = self._renewed + self.ttl / 2 - self._clock.now()
            if left <= 0:
                self._drop_lapsed()
                left = self.renew_every
            await self._background.wait(self._clock.sleep(left))

    async def _scan(self) -> None:
        """Take chats with work that nobody holds, this worker's share of them."""
        while True:
            self._scan_now.clear()
            try:
                await self._scan_once()
            except Exception:
                log.exception("looking for chats nobody holds failed")
            await self._background.wait(self._sleep_or_woken(self.scan_every))

    async def _scan_once(self) -> None:
        now = self._clock.now()
        async with self._db.transaction() as tx:
            busy = await tx.cluster.busy(now - OWED_WINDOW)
            await tx.cluster.purge_inbox(now - INBOX_KEPT)
            await tx.cluster.purge_sends(now - SENDS_KEPT)
            await tx.cluster.forget_workers(now - 10 * self.ttl)
        await self._release_idle({chat_id for chat_id, _ in busy})
        unheld = [chat_id for chat_id, worker in busy if worker is None]
        if not unheld:
            return
        # This worker's share of the chats with work, less those it holds.
        mine = sum(1 for _, worker in busy if worker == self.worker)
        share = math.ceil(len(busy) / self._workers) - mine
        random.shuffle(unheld)  # workers scanning together mostly want different chats
        for chat_id in unheld:
            if share <= 0:
                break
            if await self.take(chat_id):
                share -= 1

    def used(self, chat_id: int) -> None:
        """An update of the chat was handled here: it is not idle."""
        if chat_id in self._held:
            self._used[chat_id] = self._clock.now()

    async def _release_idle(self, busy: set[int]) -> None:
        """Give up the chats without work that had no update for a while (a
        private chat's, mostly), so that the renewals stay small."""
        since = self._clock.now() - IDLE
        idle = [c for c in self._held if c not in busy and self._used.get(c, 0.0) < since]
        if not idle:
            return
        self._drop_all(idle)
        async with self._db.transaction() as tx:
            await tx.cluster.release(self.worker, idle)

    async def _sleep_or_woken(self, seconds: float) -> None:
        sleep = asyncio.ensure_future(self._clock.sleep(seconds))
        woken = asyncio.ensure_future(self._scan_now.wait())
        try:
            await asyncio.wait((sleep, woken), return_when=asyncio.FIRST_COMPLETED)
        finally:
            sleep.cancel()
            woken.cancel()

    # --- a group's budget, kept across takeovers ------------------------------------------

    async def group_sends(self, chat_id: int) -> list[float]:
        """The group's sends of the last minute (by whichever worker)."""
        async with self._db.read() as tx:
            return await tx.cluster.group_sends(chat_id, self._clock.now() - SENDS_KEPT)

    async def group_sent(self, chat_id: int, at: float) -> None:
        async with self._db.transaction() as tx:
            await tx.cluster.record_sends([(chat_id, at)])

    async def group_landed(self, chat_id: int, sent: float, at: float) -> None:
        async with self._db.transaction() as tx:
            await tx.cluster.move_send(chat_id, sent, at)
