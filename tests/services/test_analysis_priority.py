"""An analysis never holds a computer's move up: its slice waits while a
search runs, and it runs in a worker of its own at the lowest CPU priority."""

from __future__ import annotations

import asyncio

from players.analysis import NICENESS
from services import Thinking
from tests.services import timed_jobs


async def test_analysis_slices_wait_for_the_computers_search_and_run_niced() -> None:
    thinking = Thinking(workers=1)
    try:
        await thinking.search(timed_jobs.tell, {})  # the search worker started
        search = asyncio.create_task(thinking.search(timed_jobs.sleep_then_tell, {"seconds": 1.0}))
        await asyncio.sleep(0)  # the search is asked for
        analysed = await thinking.analyse(timed_jobs.tell, {})
        searched = await search
        assert analysed >= searched  # it ran only once the search was answered
        assert await thinking.analyse(timed_jobs.niceness, {}) == NICENESS
    finally:
        thinking.close()


async def test_an_analysis_cancelled_as_its_wait_for_quiet_ends_stays_cancelled() -> None:
    """Cancelled at any step, its wait for the computers to pause ending at
    the same step too, a slice ends cancelled: it is not handed on to run
    for a bot that is stopping (Python 3.11's ``asyncio.wait_for`` returned
    the wait's result instead, after one step)."""
    thinking = Thinking(workers=1)
    try:
        for steps in range(6):
            analysis = asyncio.create_task(thinking.analyse(timed_jobs.tell, {}))
            for _ in range(steps):
                await asyncio.sleep(0)
            analysis.cancel()
            (ended,) = await asyncio.gather(analysis, return_exceptions=True)
            assert isinstance(ended, asyncio.CancelledError), f"after {steps} steps: {ended!r}"
    finally:
        thinking.close()
