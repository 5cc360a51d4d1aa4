"""A bot killed outright (``kill -9``, the out-of-memory killer) leaves none of
its worker processes behind: searches, analyses, multiprocessing's resource
tracker."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from players.workers import PARENT_CHECK

ROOT = Path(__file__).resolve().parents[2]
BOT = """
import asyncio
from services import Thinking
from tests.services import timed_jobs

async def main() -> None:
    thinking = Thinking(workers=2)
    await asyncio.gather(*(thinking.search(timed_jobs.pid, {}) for _ in range(4)))
    await thinking.analyse(timed_jobs.pid, {})
    print("ready", flush=True)
    await asyncio.sleep(60)

asyncio.run(main())
"""
"""A bot's thinking: both pools started, then nothing until it is killed."""


def children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (Linux's /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue  # gone meanwhile
            if int(stat.rpartition(")")[2].split()[1]) == pid:
                found.add(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_bot_killed_outright_leaves_no_worker_behind() -> None:
    with subprocess.Popen(  # noqa: S603 - our own code
        [sys.executable, "-c", BOT],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,  # the tracker's farewell about the bot's semaphores
        text=True,
    ) as bot:
        try:
            assert bot.stdout is not None
            assert bot.stdout.readline() == "ready\n"
            workers = children(bot.pid)
            assert len(workers) >= 4  # two searchers, the analyst, the resource tracker
        finally:
            bot.send_signal(signal.SIGKILL)
            bot.wait()
    deadline = time.monotonic() + 10 * PARENT_CHECK
    while (left := {pid for pid in workers if alive(pid)}) and time.monotonic() < deadline:
        time.sleep(0.1)
    for pid in left:  # not to leave them to the next test run either
        os.kill(pid, signal.SIGKILL)
    assert not left, f"{len(left)} of {len(workers)} workers outlived the bot"


def test_a_worker_started_after_its_bot_was_killed_leaves_at_once() -> None:
    """A worker slow to start may begin after its bot is gone: it knows its
    bot by the id the bot gave it, not by whoever is its parent by then."""
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    worker = subprocess.run(  # noqa: S603 - our own code
        [
            sys.executable,
            "-c",
            "import sys, time\n"
            "from players.workers import search_worker_started\n"
            "search_worker_started(int(sys.argv[1]))\n"
            "time.sleep(60)",
            gone.stdout.strip(),
        ],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=30,  # it would sleep a minute, were it still there
        check=False,
    )
    assert worker.returncode == 0
