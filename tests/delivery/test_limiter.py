"""The adaptive overall rate, on the fake clock: paced at the ceiling, cut by
a 429 and the chat held for its wait, recovered slowly, between its floor and
its ceiling, and answers to presses never queued behind sends."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Coroutine
from typing import Any

import pytest
from telegram.error import RetryAfter

from delivery.limiter import AdaptiveRateLimiter, Tuning
from tests.clock import FakeClock

Call = tuple[str, int | str | None, float]


@pytest.fixture(autouse=True)
def _timedelta_flood_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PTB_TIMEDELTA", "1")  # as bot.app sets it


class Api:
    """Calls through the limiter, each recorded with the fake time it went
    out at; ``floods[chat]`` 429s answer that chat's next calls."""

    def __init__(self, limiter: AdaptiveRateLimiter, clock: FakeClock) -> None:
        self.limiter = limiter
        self.clock = clock
        self.start = clock.now()
        self.calls: list[Call] = []
        self.floods: dict[int | str | None, list[int]] = {}

    async def call(self, endpoint: str, data: dict[str, Any]) -> bool:
        chat = data.get("chat_id")

        async def callback() -> bool:
            self.calls.append((endpoint, chat, self.clock.now() - self.start))
            if self.floods.get(chat):
                raise RetryAfter(self.floods[chat].pop(0))
            return True

        return bool(await self.limiter.process_request(callback, (), {}, endpoint, data, None))

    def send(self, chat: int | str) -> Coroutine[Any, Any, bool]:
        return self.call("sendMessage", {"chat_id": chat, "text": "x"})

    def answer(self) -> Coroutine[Any, Any, bool]:
        return self.call("answerCallbackQuery", {"callback_query_id": "1"})

    async def run(
        self, *calls: Coroutine[Any, Any, bool] | asyncio.Future[bool]
    ) -> list[bool | BaseException]:
        """Run ``calls`` side by side to their ends, the time moving only
        when every one of them waits on it."""
        tasks = [asyncio.ensure_future(c) for c in calls]
        while not all(task.done() for task in tasks):
            for _ in range(20):
                await asyncio.sleep(0)
            if not all(task.done() for task in tasks):
                assert self.clock.next_wake() is not None, "stuck without a sleeper"
                self.clock.wake_next()
        return list(await asyncio.gather(*tasks, return_exceptions=True))

    def at(self, endpoint: str = "sendMessage") -> list[float]:
        return [when for name, _, when in self.calls if name == endpoint]


QUIET = 5.0
ROUND = Tuning(cut=0.5, quiet=QUIET, step_share=0.1, burst=1.0)
"""Figures easy to follow: a 429 halves the rate, 5 quiet seconds give back a
tenth of the ceiling, a second's budget may go out at once."""


def api(ceiling: float, floor: float | None = None, tuning: Tuning = ROUND) -> Api:
    clock = FakeClock()
    return Api(AdaptiveRateLimiter(clock, ceiling, floor, tuning), clock)


async def test_limiter_lets_a_seconds_budget_out_at_once_then_paces_at_the_ceiling() -> None:
    bot = api(8)
    await bot.run(*(bot.send(chat) for chat in range(12)))
    assert bot.at() == [0.0] * 8 + [0.125, 0.25, 0.375, 0.5]


async def test_limiter_cuts_the_rate_on_a_429_and_holds_that_chat_for_its_wait() -> None:
    bot = api(8)
    bot.floods[1] = [3]
    [refused] = await bot.run(bot.send(1))
    assert isinstance(refused, RetryAfter)  # the publisher retries it, not the limiter
    assert bot.limiter.rate == 4
    assert bot.limiter.budget.refused == 1
    bot.clock.set(bot.clock.now() + 2.5)
    held, other = await bot.run(bot.send(1), bot.send(2))
    # the refused chat's wait is told without a request, the other chat's call goes
    assert isinstance(held, RetryAfter)
    assert held.retry_after == dt.timedelta(seconds=0.5)
    assert other is True
    bot.clock.set(bot.clock.now() + 0.5)
    await bot.run(bot.send(1))
    assert [(chat, when) for _, chat, when in bot.calls] == [(1, 0.0), (2, 2.5), (1, 3.0)]


async def test_limiter_paces_at_the_cut_rate() -> None:
    bot = api(8)
    bot.floods[0] = [1]
    await bot.run(bot.send(0))
    assert bot.limiter.rate == 4
    bot.clock.set(bot.clock.now() + 1.0)  # idle a second: a full second's budget
    await bot.run(*(bot.send(chat) for chat in range(1, 9)))
    # 4 a second now: 4 at once, then 0.25 s apart
    assert bot.at()[1:] == [1.0] * 4 + [1.25, 1.5, 1.75, 2.0]


async def test_limiter_counts_a_burst_of_429s_as_one_cut() -> None:
    bot = api(8)
    for chat in range(3):
        bot.floods[chat] = [1]
    await bot.run(*(bot.send(chat) for chat in range(3)))
    assert bot.limiter.budget.refused == 3
    assert bot.limiter.rate == 4  # not 1: the three were sent at the old rate
    bot.clock.set(bot.clock.now() + 1.0)
    bot.floods[5] = [1]
    await bot.run(bot.send(5))
    assert bot.limiter.rate == 2


async def test_limiter_recovers_a_tenth_of_the_ceiling_per_quiet_spell() -> None:
    bot = api(10)
    bot.floods[0] = [1]
    await bot.run(bot.send(0))
    assert bot.limiter.rate == 5
    cut_at = bot.clock.now()
    bot.clock.set(cut_at + QUIET - 0.5)
    assert bot.limiter.rate == 5
    bot.clock.set(cut_at + QUIET)
    assert bot.limiter.rate == 6
    bot.clock.set(cut_at + 3 * QUIET)
    assert bot.limiter.rate == 8
    bot.floods[0] = [1]  # a 429 during recovery cuts what was recovered
    await bot.run(bot.send(0))
    assert bot.limiter.rate == 4
    bot.clock.set(bot.clock.now() + 100 * QUIET)
    assert bot.limiter.rate == 10  # the ceiling, not above


async def test_limiter_never_goes_below_its_floor() -> None:
    bot = api(10, floor=2)
    for expected in (5, 2.5, 2, 2):
        bot.floods[0] = [1]
        await bot.run(bot.send(0))
        assert bot.limiter.rate == expected
        bot.clock.set(bot.clock.now() + 1.0)
    assert bot.limiter.budget.cuts == 4
    with pytest.raises(ValueError, match="floor"):
        AdaptiveRateLimiter(bot.clock, 10, floor=20)


async def test_limiter_never_queues_an_answer_to_a_press_behind_sends() -> None:
    bot = api(1)
    results = await bot.run(*(bot.send(chat) for chat in range(4)), bot.answer())
    assert all(result is True for result in results)
    assert bot.at() == [0.0, 1.0, 2.0, 3.0]  # 1 a second
    assert bot.at("answerCallbackQuery") == [0.0]  # not behind them


async def test_limiter_reads_a_chat_given_as_text_as_the_same_chat() -> None:
    bot = api(8)
    bot.floods["-100"] = [2]
    await bot.run(bot.send("-100"))
    [held] = await bot.run(bot.send(-100))
    assert isinstance(held, RetryAfter)
    assert bot.at() == [0.0]


async def test_limiter_by_default_keeps_four_fifths_recovers_1_a_second_smooths_bursts() -> None:
    bot = api(30, tuning=Tuning())
    await bot.run(*(bot.send(chat) for chat in range(10)))
    # a fifth of a second's budget at once, then 1/30 s apart
    assert bot.at() == pytest.approx([0.0] * 6 + [n / 30 for n in range(1, 5)], abs=1e-6)
    bot.clock.set(bot.clock.now() + 1.0)
    bot.floods[0] = [1]
    await bot.run(bot.send(0))
    assert bot.limiter.rate == pytest.approx(24)
    bot.clock.set(bot.clock.now() + 3.0)
    assert bot.limiter.rate == pytest.approx(27)
    bot.clock.set(bot.clock.now() + 30.0)
    assert bot.limiter.rate == 30
    assert bot.limiter.budget.floor == 3


async def test_limiter_lets_private_chats_ahead_of_groups_yet_never_starves_a_group() -> None:
    bot = api(1, floor=1)
    groups, people = [-1, -2, -3], [1, 2, 3, 4]
    await bot.run(*(bot.send(chat) for chat in groups + people))
    # -1 went at once and -2 found the turn free (it holds it till its second
    # comes); then three people, the last group, the fourth person
    assert [chat for _, chat, _ in bot.calls] == [-1, -2, 1, 2, 3, -3, 4]
    assert bot.at() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0]


async def test_limiter_passes_a_turn_on_when_its_waiter_is_cancelled() -> None:
    bot = api(1, floor=1)
    first = asyncio.ensure_future(bot.send(1))
    await asyncio.sleep(0)  # it goes at once and holds the turn till it is sent
    waiting = [asyncio.ensure_future(bot.send(chat)) for chat in (2, 3)]
    for _ in range(5):
        await asyncio.sleep(0)
    waiting[0].cancel()
    await bot.run(first, waiting[1])
    assert waiting[0].cancelled()
    assert [(chat, when) for _, chat, when in bot.calls] == [(1, 0.0), (3, 1.0)]


async def test_limiter_of_one_worker_among_several_sends_its_share_of_the_tokens_budget() -> None:
    bot = api(12, floor=3)
    bot.limiter.share(3)  # three live workers
    assert bot.limiter.budget.ceiling == 4
    assert bot.limiter.budget.floor == 1
    assert bot.limiter.rate == 4
    await bot.run(*(bot.send(chat) for chat in range(6)))
    assert bot.at() == [0.0] * 4 + [0.25, 0.5]
    bot.floods[0] = [1]
    await bot.run(bot.send(0))
    assert bot.limiter.rate == 2  # a 429 cuts this worker's share
    bot.limiter.share(2)  # one worker left: a larger share, the cut kept
    assert bot.limiter.budget.ceiling == 6
    assert bot.limiter.rate == 2
    bot.clock.set(bot.clock.now() + 100 * QUIET)
    assert bot.limiter.rate == 6
    bot.limiter.share(1)  # alone, at its ceiling: the whole budget at once
    assert bot.limiter.rate == 12
