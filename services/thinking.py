"""Search players think in worker processes, so that the bot goes on answering
everybody while a computer thinks.

The pool is started as soon as a game under way has a searching computer
(:meth:`Thinking.warm`: a worker takes half a second to start, which would
otherwise delay that computer's first move) or at the first search
(``spawn``: a fresh interpreter that imports only the engines and players,
never a copy of the bot's event loop and threads), and sized to the cores.  A
worker receives plain data, the seat's situation (a world dealt from what the
seat knows), and returns the code of the move it chose.  The engine and the
computer are named by import path (:meth:`~players.search.Situation.to_json`,
:attr:`~players.computer.Computer.address`): a worker imports what the request
names and needs no registry of games.

An analysis of a finished game (:mod:`services.analysis`) runs beside them at
a lower priority, so that it never slows a game under way: in a worker of its
own whose CPU priority is lowered (``nice``), in slices of one decision each,
bounded in time, and a slice is only handed to it while no computer's search
is waiting or thinking, or after :data:`QUIET_WAIT` seconds without such a
pause (:meth:`Thinking.analyse`).  So a computer's search never waits for an
analysis: it only shares the CPU with a process the operating system runs
after it.

Ctrl-C in a terminal signals the whole process group, the workers too; only the
bot stops (it shuts the pool down on its way out), so workers ignore SIGINT.
A worker is spawned with SIGINT blocked (a signal mask survives ``exec``) and
ignores it once up (which also drops one that arrived meanwhile): a Ctrl-C
during its start-up is no traceback either.  A worker whose bot was killed
outright leaves within a second (:mod:`players.workers`).
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

from games.core import JSON
from players.analysis import low_priority
from players.computer import Computer
from players.levels import Level, request_for, think
from players.search import Situation
from players.workers import ready, search_worker_started

__all__ = ["Thinking", "ThinkingFailed"]

T = TypeVar("T")

QUIET_WAIT = 5.0
"""The longest an analysis slice waits for the computers' searches to pause:
on a bot whose computers are always thinking somewhere it then runs beside
them, in its low-priority worker, rather than never."""


class ThinkingFailed(Exception):
    """The worker pool broke (a worker was killed); the next search starts a
    new one."""


class Thinking:
    def __init__(self, *, workers: int | None = None, scale: float = 1.0) -> None:
        """``scale`` stretches or shrinks every level's time (tests think
        briefly)."""
        self._workers = workers or os.cpu_count() or 1
        self._scale = scale
        self._pool: ProcessPoolExecutor | None = None
        self._analysis_pool: ProcessPoolExecutor | None = None
        self._searches = 0
        """Computers' searches asked for and not yet answered."""
        self._quiet = asyncio.Event()
        """Set while no computer's search is waiting or thinking."""
        self._quiet.set()
        self._slice = asyncio.Lock()
        """One analysis slice at a time, whoever asked."""

    @property
    def scale(self) -> float:
        return self._scale

    async def choose(
        self, situation: Situation, computer: Computer, level: Level, seed: int
    ) -> str:
        """The code of the move ``computer``'s search at ``level`` chooses."""
        return await self.search(think, request_for(situation, computer, level, seed, self._scale))

    def warm(self) -> None:
        """Start every search worker now, unless the pool is up: a search
        is coming, and will find its worker ready."""
        if self._pool is not None:
            return
        pool = self._started()
        with _interrupts_blocked():  # the workers are spawned here
            for _ in range(self._workers):  # each task finding no idle worker starts one
                pool.submit(ready)

    async def search(
        self, job: Callable[[Mapping[str, JSON]], T], request: Mapping[str, JSON]
    ) -> T:
        """Run ``job(request)`` in a search worker with a computer's move's
        priority: analyses wait while it waits or runs."""
        pool = self._started()
        self._searches += 1
        self._quiet.clear()
        try:
            with _interrupts_blocked():  # a worker may be spawned here
                work = asyncio.get_running_loop().run_in_executor(pool, job, request)
            return await work
        except BrokenProcessPool as exc:
            if self._pool is pool:
                self._pool = None
                pool.shutdown(wait=False, cancel_futures=True)
            raise ThinkingFailed from exc
        finally:
            self._searches -= 1
            if not self._searches:
                self._quiet.set()

    async def analyse(
        self, job: Callable[[Mapping[str, JSON]], T], request: Mapping[str, JSON]
    ) -> T:
        """Run one slice of an analysis (``job(request)``, a function of
        :mod:`players.analysis`) in the low-priority worker, once no computer's
        search waits or thinks."""
        async with self._slice:
            # Not asyncio.wait_for: in Python 3.11 it swallows a cancel that
            # lands as the wait ends, and the slice would run for a bot that
            # is stopping.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(QUIET_WAIT):
                    await self._quiet.wait()
            pool = self._analysis_started()
            try:
                with _interrupts_blocked():
                    work = asyncio.get_running_loop().run_in_executor(pool, job, request)
                return await work
            except BrokenProcessPool as exc:
                if self._analysis_pool is pool:
                    self._analysis_pool = None
                    pool.shutdown(wait=False, cancel_futures=True)
                raise ThinkingFailed from exc

    def _analysis_started(self) -> ProcessPoolExecutor:
        if self._analysis_pool is None:
            self._analysis_pool = ProcessPoolExecutor(
                1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=low_priority,
                initargs=(os.getpid(),),
            )
        return self._analysis_pool

    def _started(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                self._workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=search_worker_started,
                initargs=(os.getpid(),),
            )
        return self._pool

    def close(self) -> None:
        """Stop the workers (searches under way are dropped)."""
        for pool in (self._pool, self._analysis_pool):
            if pool is not None:
                pool.shutdown(wait=True, cancel_futures=True)
        self._pool = self._analysis_pool = None


@contextlib.contextmanager
def _interrupts_blocked() -> Iterator[None]:
    """SIGINT held back from this thread (another thread or the end of the
    block takes it), so that a process spawned meanwhile starts with it
    blocked."""
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)
