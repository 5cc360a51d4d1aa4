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
