"""The bot's background tasks in one place: started, stopped, and known to be idle.

Timers, computers and the Telegram layer's message workers run as tasks spawned
here.  A task tells when it is only waiting (for its clock or for new work), so
that a stop can let work in hand finish, and a test driving a fake clock knows
when everything has settled before it moves time on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Coroutine, Iterable
from typing import Any, TypeVar

__all__ = ["Background"]

log = logging.getLogger(__name__)

T = TypeVar("T")


class Background:
    def __init__(self) -> None:
        self._waiting: dict[asyncio.Task[Any], bool] = {}

    def spawn(self, work: Coroutine[Any, Any, None], name: str | None = None) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(work, name=name)
        self._waiting[task] = False
        task.add_done_callback(self._forget)
        return task

    async def wait(self, awaitable: Awaitable[T]) -> T:
        """Await ``awaitable`` as idle time: for the clock, or for new work."""
        task = asyncio.current_task()
        if task is None or task not in self._waiting:
            return await awaitable
        self._waiting[task] = True
        try:
            return await awaitable
        finally:
            if task in self._waiting:
                self._waiting[task] = False

    @property
    def idle(self) -> bool:
        """Every task is waiting (none is running or about to)."""
        return all(self._waiting.values())

    async def stop(self) -> None:
        """Cancel every task and wait for them to end."""
        await self.cancel(list(self._waiting))

    @staticmethod
    async def cancel(tasks: Iterable[asyncio.Task[Any]]) -> None:
        """Cancel ``tasks`` and wait for them to end."""
        tasks = list(tasks)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def _forget(self, task: asyncio.Task[Any]) -> None:
        self._waiting.pop(task, None)
        if not task.cancelled() and task.exception() is not None:
            log.error("background task %s failed", task.get_name(), exc_info=task.exception())
