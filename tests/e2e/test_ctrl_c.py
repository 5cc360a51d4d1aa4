"""Ctrl-C in the terminal running the bot with a token: the terminal signals
the whole process group, the computers' worker processes too.  The bot stops
as on any SIGINT (exit code 0, every table kept) and nobody prints a traceback
(the playground's case is in ``tests/test_playground.py``)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from playground.botapi import FakeTelegram
from tests.e2e.harness import ROOT, seat_players, wait_exit
from tests.e2e.test_first_run import settings
from tests.e2e.test_seats import add_computers
from tests.processes import alive, search_workers

pytestmark = pytest.mark.slow  # the bot runs in a process of its own


async def test_ctrl_c_while_computers_think_stops_the_bot_without_a_traceback(
    server: FakeTelegram, db_path: Path, tmp_path: Path
) -> None:
    log = tmp_path / "bot.log"
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(ROOT)}
    env.update(settings(server, db_path, LOG_LEVEL="WARNING", COMPUTER_PAUSE_MS="0"))
    with log.open("wb") as out:
        process = subprocess.Popen(  # noqa: ASYNC220 - started once, before any await
            [sys.executable, "-m", "bot"],
            cwd=tmp_path,
            env=env,
            stdout=out,
            stderr=out,
            start_new_session=True,  # its own process group, as a terminal's foreground job
        )
    try:
        table = seat_players(server, ["Anna"])
        await table.open("durak")
        await add_computers(table, 3)
        await table.press_text(table.players[0], table.lobby(), "▶️")
        # Hard computers (a new table's level) search: the pool starts at the
        # first search, whoever attacks first; Anna moves until it has.
        for _ in range(600):
            workers = search_workers(process.pid)
            if workers:
                break
            hand = table.hand(table.players[0])
            if hand is not None:
                data = table.rng.choice(hand.callback_datas)
                # A press the bot refuses (stale by now) is answered all the same.
                query = server.press(table.players[0], hand.chat_id, hand.message_id, data)
                await server.answered(query, timeout=30)
            await asyncio.sleep(0.1)
        else:
            raise AssertionError("no computer searched")
        os.killpg(process.pid, signal.SIGINT)
        assert await wait_exit(process, 30) == 0
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    output = log.read_text(encoding="utf-8")
    assert "Traceback" not in output, output
    assert "KeyboardInterrupt" not in output, output
    assert not alive(workers)  # the bot waited for them
