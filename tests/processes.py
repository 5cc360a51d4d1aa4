"""Looking at the bot's processes from a test (Linux's /proc): the computers'
worker processes, for the tests that press Ctrl-C while they think."""

from __future__ import annotations

import signal
from pathlib import Path

__all__ = ["alive", "search_workers"]


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
