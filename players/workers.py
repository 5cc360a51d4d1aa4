"""How a process that runs searches for the bot starts: deaf to Ctrl-C, and
gone as soon as the bot is.

A pool's worker waits for its next task on a queue whose writing end it holds
too, so it never sees the bot go: a bot killed outright (``kill -9``, the
out-of-memory killer) left its workers behind for good, a pool of them at
every kill. Each worker therefore watches its parent and leaves once the
parent has gone (it is then the child of another process).
"""

from __future__ import annotations

import os
import signal
import threading
import time

__all__ = ["PARENT_CHECK", "ready", "search_worker_started"]

PARENT_CHECK = 1.0
"""Seconds between a worker's looks at whether its parent is still there."""


def search_worker_started(parent: int) -> None:
    """A search worker's start: deaf to Ctrl-C (the bot stops it; see
    :mod:`services.thinking`) and gone with ``parent``, the bot's process id
    as the bot gave it (a worker's own look could come after the bot's end,
    the worker being slow to start)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK)
        os._exit(0)  # no clean-up owed to anybody: the bot is gone

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def ready() -> None:
    """Nothing: a task that only has a worker started (and its modules imported)."""
