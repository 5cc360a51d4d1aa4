"""The bot's overall Bot API budget, learnt from Telegram's refusals.

Telegram's Bot FAQ gives about 30 messages a second for *bulk notifications*
to many users, one a second per chat and 20 a minute per group, says the
exact limits are not fixed, and asks bots to wait the ``retry_after`` of a 429
before trying again.  A fixed 30 a second is a guess: under it the bot can
still be refused, and each refusal costs the players of that table the wait.
So the overall rate here is additive-increase / multiplicative-decrease, like
TCP's congestion window:

* a 429 on any call (an answer to a press included) cuts the rate to 80 %,
  once a second at most so that one burst of refusals counts as one, never
  below the floor (a tenth of the ceiling);
* that chat is held for its ``retry_after``: until it ends, a call to it is
  answered here as Telegram would answer it, a flood wait of the time left,
  without a request; the other chats' calls go on.  The callers already deal
  with flood waits (the publisher waits them out and gives the players that
  time back), and a wait here would stall an update's handler instead;
* each second without a 429 gives back a thirtieth of the ceiling (1 a second
  at 30), never above the ceiling (``TELEGRAM_MAX_RATE``): a cut from 30 to
  24 comes back in 6 s, the floor in 27 s;
* at most a fifth of a second's budget goes out at once after a quiet spell,
  so that a burst does not meet the limit the rate keeps under;
* calls to private chats (a player's hand) go ahead of calls to groups, a
  group's after every three (:class:`Turns`).

Measured with ``bench.bot --telegram-limit 20`` (the stand-in refusing past
20 sends and edits a second, 30 tables at a second's think): PTB's fixed 30 a
second met 313 refusals in 30 s for 6.9 moves a second, this rate 18 for 7.0
(docs/scaling.md).

Only calls that name a chat are paced, as PTB's ``AIORateLimiter`` does:
``answerCallbackQuery`` (the answer to a person's own press, which is not a
bulk notification, and which a spinning button waits for) and ``getUpdates``
never queue behind sends and edits.

Why a :class:`~telegram.ext.BaseRateLimiter` of our own rather than
``AIORateLimiter`` or its ``aiolimiter.AsyncLimiter``: the leaky bucket keeps
time on the event loop (``loop.time()``, ``loop.call_at``), which the tests'
fake clock cannot drive, and its rate is fixed at construction; wrapping it
would mean replacing the bucket on every change and losing its queue.  The
pacing here is a few lines (a queue of turns and the virtual-scheduling form
of a token bucket, GCRA) on :class:`services.Clock`, so every test runs on the
fake clock.  The limiter never retries a call: the publisher retries flood waits
itself and gives the players that time back (``delivery/telegram_io.py``), and
each group's 20 a minute is the publisher's too (``delivery/group_window.py``).

The state is per process, as PTB's was: with several workers each one's
ceiling is its share of the token's budget (:meth:`AdaptiveRateLimiter.share`,
told the live workers at every heartbeat), and a 429 slows the worker that met
it (the others meet their own).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
from collections import deque
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from telegram.error import RetryAfter
from telegram.ext import BaseRateLimiter

from services import Background, Clock

__all__ = ["AdaptiveRateLimiter", "Budget", "Tuning", "Turns"]

log = logging.getLogger(__name__)

PRIVATE_RUN = 3
"""Private chats' calls that may go ahead of a waiting group's call in a row."""
HELD_CHATS_KEPT = 10_000
"""Chats whose flood wait is remembered before the expired ones are dropped."""

Result = bool | dict[str, Any] | list[dict[str, Any]]


@dataclass(frozen=True, slots=True)
class Tuning:
    """How the rate moves (the defaults were measured with ``bench.bot
    --telegram-limit``: see docs/scaling.md)."""

    cut: float = 0.8
    """The share of the rate kept after a 429."""
    cut_spacing: float = 1.0
    """Seconds after a cut during which further 429s do not cut again (they
    were sent at the rate before it)."""
    quiet: float = 1.0
    """Seconds without a 429 before each step of recovery."""
    step_share: float = 1 / 30
    """Each step of recovery, as a share of the ceiling (1 a second at 30)."""
    floor_share: float = 0.1
    """The floor, as a share of the ceiling."""
    burst: float = 0.2
    """How much of a second's budget may go out at once after an idle spell."""


@dataclass
class Budget:
    """The overall rate, how it moved, and when the next call may go."""

    ceiling: float
    floor: float
    rate: float
    tuning: Tuning
    last_cut: float | None = None
    last_step: float = 0.0
    """When the rate was last cut or stepped up."""
    refused: int = 0
    """429s met so far."""
    cuts: int = 0
    theoretical: float = 0.0
    """GCRA's theoretical arrival time of the next call."""

    def adapt(self, now: float) -> None:
        """Recover the steps of quiet time since the last cut or step."""
        if self.rate >= self.ceiling:
            return
        quiet = self.tuning.quiet
        steps = int((now - self.last_step) // quiet)
        if steps > 0:
            step = self.ceiling * self.tuning.step_share
            self.rate = min(self.ceiling, self.rate + steps * step)
            self.last_step += steps * quiet

    def cut(self, now: float) -> bool:
        """A 429 came back; False when it belongs to a burst already cut for."""
        self.refused += 1
        if self.last_cut is not None and now - self.last_cut < self.tuning.cut_spacing:
            return False
        self.adapt(now)
        self.rate = max(self.floor, self.rate * self.tuning.cut)
        self.last_cut = self.last_step = now
        self.cuts += 1
        return True

    def delay(self, now: float) -> float:
        """How long the next call must wait (the budget is spent when it goes)."""
        self.adapt(now)
        interval = 1.0 / self.rate
        tolerance = max(0.0, (self.rate * self.tuning.burst - 1) * interval)
        return max(0.0, max(self.theoretical, now) - tolerance - now)

    def spend(self, now: float) -> None:
        self.theoretical = max(self.theoretical, now) + 1.0 / self.rate


class Turns:
    """Who goes next at the overall rate: calls to private chats (a player's
    own hand, a reply to his press or his turn coming) ahead of calls to
    groups, whose table messages the group outbox coalesces while they wait,
    yet a group's call after every :data:`PRIVATE_RUN` private ones, so that
    groups are never starved.  Within each kind, first come first served."""

    def __init__(self) -> None:
        self._busy = False
        self._private: deque[asyncio.Future[None]] = deque()
        self._groups: deque[asyncio.Future[None]] = deque()
        self._run = 0

    async def acquire(self, private: bool) -> None:
        if not self._busy:
            self._busy = True
            self._counted(private)
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        lane = self._private if private else self._groups
        lane.append(turn)
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self.release()  # given the turn as it was cancelled: pass it on
            else:
                lane.remove(turn)
            raise

    def release(self) -> None:
        for lane in self._order():
            while lane:
                turn = lane.popleft()
                if not turn.done():
                    self._counted(lane is self._private)
                    turn.set_result(None)
                    return
        self._busy = False

    def _order(self) -> tuple[deque[asyncio.Future[None]], ...]:
        if self._run >= PRIVATE_RUN:
            return (self._groups, self._private)
        return (self._private, self._groups)

    def _counted(self, private: bool) -> None:
        self._run = self._run + 1 if private else 0


class AdaptiveRateLimiter(BaseRateLimiter[None]):
    """PTB's rate limiter for the bot: the overall rate between ``ceiling``
    and its floor, learnt from 429s, and each chat's flood wait honoured."""

    def __init__(
        self, clock: Clock, ceiling: float, floor: float | None = None, tuning: Tuning = Tuning()
    ) -> None:
        floor = ceiling * tuning.floor_share if floor is None else floor
        if not 0 < floor <= ceiling:
            raise ValueError(f"need 0 < floor <= ceiling, got {floor} and {ceiling}")
        self._clock = clock
        self._whole = ceiling
        """The token's whole budget (``TELEGRAM_MAX_RATE``), shared by the workers."""
        self.budget = Budget(ceiling=ceiling, floor=floor, rate=ceiling, tuning=tuning)
        self._turns = Turns()
        self._held: dict[int | str, float] = {}
        self._background: Background | None = None

    def wait_as_idle(self, background: Background) -> None:
        """Count the waits of ``background``'s tasks here as their idle time,
        as their other waits on the clock are (the services are built after
        the application and its limiter)."""
        self._background = background

    def share(self, workers: int) -> None:
        """``workers`` live workers send with one token: the ceiling (and its
        floor) become this worker's share of the whole budget."""
        budget = self.budget
        ceiling = self._whole / max(1, workers)
        if ceiling == budget.ceiling:
            return
        at_ceiling = budget.rate >= budget.ceiling
        budget.floor = budget.floor * ceiling / budget.ceiling
        budget.ceiling = ceiling
        budget.rate = ceiling if at_ceiling else min(budget.rate, ceiling)

    @property
    def rate(self) -> float:
        """The overall rate now (calls a second)."""
        self.budget.adapt(self._clock.now())
        return self.budget.rate

    async def initialize(self) -> None:
        """Nothing to open."""

    async def shutdown(self) -> None:
        """Nothing to close."""

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, Result]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: None,
    ) -> Result:
        chat = data.get("chat_id")
        if isinstance(chat, int | str):
            with contextlib.suppress(ValueError):
                chat = int(chat)
            left = self._flood_wait_left(chat)
            if left > 0:
                raise RetryAfter(dt.timedelta(seconds=left))
            await self._take_turn(private=isinstance(chat, int) and chat > 0)
        else:
            chat = None  # a press's answer, getMe, …: not bulk, never paced
        try:
            return await callback(*args, **kwargs)
        except RetryAfter as exc:
            self._refused(chat, endpoint, exc)
            raise

    def _flood_wait_left(self, chat: int | str) -> float:
        until = self._held.get(chat)
        if until is None:
            return 0.0
        left = until - self._clock.now()
        if left <= 0:
            del self._held[chat]
        return left

    async def _take_turn(self, *, private: bool) -> None:
        """Wait for this call's place in the overall rate (see :class:`Turns`),
        each at the rate of the moment it reaches the head."""
        await self._turns.acquire(private)
        try:
            while (wait := self.budget.delay(self._clock.now())) > 0:
                await self._sleep(wait)
            self.budget.spend(self._clock.now())
        finally:
            self._turns.release()

    async def _sleep(self, seconds: float) -> None:
        if self._background is None:
            await self._clock.sleep(seconds)
        else:
            await self._background.wait(self._clock.sleep(seconds))

    def _refused(self, chat: int | str | None, endpoint: str, exc: RetryAfter) -> None:
        now = self._clock.now()
        wait = exc.retry_after
        seconds = wait if isinstance(wait, int | float) else wait.total_seconds()
        if chat is not None:
            if len(self._held) >= HELD_CHATS_KEPT:
                self._held = {c: until for c, until in self._held.items() if until > now}
            self._held[chat] = max(self._held.get(chat, now), now + seconds)
        if self.budget.cut(now):
            log.info(
                "%s to %s: flood wait of %s s; overall rate cut to %.1f/s",
                endpoint,
                chat,
                seconds,
                self.budget.rate,
            )
