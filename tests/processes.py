"""Looking at the bot's processes from a test (Linux's /proc): the computers'
worker processes, for the tests that press Ctrl-C while they think; and a
killed bot's log, for the tests that kill it."""

from __future__ import annotations

import re
import signal
from pathlib import Path

__all__ = ["alive", "search_workers", "without_orphaned_workers"]

ORPHANED_WORKER = re.compile(
    r"Traceback \(most recent call last\):\n"
    r'  File "<string>", line 1, in <module>\n'
    r'(?:  File "[^"\n]*/multiprocessing/spawn\.py", line \d+, in \w+\n(?: {4}.*\n)*)+'
    r"EOFError: Ran out of input\n"
)
"""What a computers' worker process prints when the bot that was starting it
is killed first: it finds nothing to read where the bot was to send it its
setup, in Python's own bootstrap (``multiprocessing.spawn``), before any code
of ours runs."""


def search_workers(pid: int) -> set[int]:
    """The computers' worker processes ``pid`` started (``spawn`` children)
    that are up: past the interpreter's start, when SIGINT is caught (Python's
    KeyboardInterrupt) or ignored, no longer its default action."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            # "pid (name) state ppid ...": the name may hold spaces, not ")".
            fields = stat.read_text().rpartition(")")[2].split()
            if int(fields[1]) != pid:
                continue
            cmdline = (stat.parent / "cmdline").read_bytes()
            if b"spawn_main" in cmdline and _sigint_handled(stat.parent / "status"):
                found.add(int(stat.parent.name))
        except (OSError, IndexError, ValueError):
            continue  # gone meanwhile
    return found


def _sigint_handled(status: Path) -> bool:
    masks = dict(line.split(":\t", 1) for line in status.read_text().splitlines() if ":\t" in line)
    bit = 1 << (signal.SIGINT - 1)
    return bool((int(masks["SigCgt"], 16) | int(masks["SigIgn"], 16)) & bit)


def alive(pids: set[int]) -> set[int]:
    return {pid for pid in pids if Path(f"/proc/{pid}").exists()}


def without_orphaned_workers(log: str) -> str:
    """A killed bot's log less what its workers orphaned while starting print
    (:data:`ORPHANED_WORKER`): the kill's doing, not the bot's error."""
    return ORPHANED_WORKER.sub("", log)
