"""The bot under flood waits end to end: Telegram (the stand-in) answers a run
of sends and edits with 429; the overall rate is cut and comes back, no call
reaches a refused chat before its ``retry_after`` is over, and the game is
played to its end with every move applied and shown."""

from __future__ import annotations

import logging
import random
from pathlib import Path

import pytest

from delivery.limiter import AdaptiveRateLimiter
from handlers.context import KEY, Koloda
from playground.botapi import FakeTelegram
from tests.clock import FakeClock
from tests.e2e.harness import Probe, advance, bot_config, running_bot, seat_players, settle
from tests.e2e.test_storms import Game, Play, _final_displays, _open, _play_under, _press

CEILING = 300.0
RETRY_AFTER = 2
FLOODS = {"editMessageText": 3, "sendMessage": 2}


async def test_limiter_backs_off_under_injected_429s_and_every_move_lands(
    server: FakeTelegram, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    probe = Probe(db_path)
    clock = FakeClock()
    server.stamp = clock.now  # the calls' times on the bot's clock
    async with running_bot(bot_config(server, db_path, overall_rate=CEILING), clock) as app:
        koloda: Koloda = app.bot_data[KEY]
        limiter = app.bot.rate_limiter
        assert isinstance(limiter, AdaptiveRateLimiter)
        table = seat_players(server, ["Anna", "Boris"], app)
        table.rng = random.Random(5)
        await _open(table, Game("durak"))
        assert limiter.budget.refused == 0
        assert limiter.rate == CEILING

        for method, times in FLOODS.items():
            server.inject_error(method, retry_after=RETRY_AFTER, times=times)
        play = Play(table, 1)
        table_id = 1
        # the first move meets the 429s: the rate is cut at once
        choice = play.choose(table.rng)
        assert choice is not None
        accepted = _press(server, play, *choice)
        await settle(server, app, until=clock.now())
        assert accepted()
        assert limiter.budget.refused >= 1
        assert limiter.rate < CEILING

        await _play_under(server, app, [play], probe, random.Random(6))
        await advance(server, app, 600)  # whatever is still owed goes out

        refusals = [c for c in server.calls if c.error_code == 429]
        assert len(refusals) == sum(FLOODS.values())
        assert limiter.budget.refused == len(refusals)
        assert 1 <= limiter.budget.cuts <= len(refusals)
        assert limiter.rate == CEILING  # recovered after the quiet
        for refused in refusals:
            during = [
                c
                for c in server.calls
                if "chat_id" in c.params  # not the answers to presses
                and c.chat_id == refused.chat_id
                and refused.clock_at < c.clock_at < refused.clock_at + RETRY_AFTER
            ]
            assert not during, f"called {refused.chat_id} during its flood wait: {during}"

        status, _ = probe.table(table_id)
        assert status == "finished"
        by_players = sum(1 for m in probe.moves(table_id) if m[2] == "player")
        assert play.accepted <= by_players <= play.accepted + play.unanswered
        await _final_displays(server, koloda, play, probe)
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]
