"""A group's message budget: at once while the window has room, then exactly in time."""

from __future__ import annotations

import asyncio

from delivery.group_window import GroupWindow
from services import Background
from tests.clock import FakeClock


async def run(clock: FakeClock, window: GroupWindow, chats: list[int]) -> list[tuple[int, float]]:
    """Send to ``chats`` in order (all at once), returning (chat, time) as sent."""
    sent: list[tuple[int, float]] = []

    async def send(chat: int) -> None:
        async with window.slot(chat):
            sent.append((chat, clock.now()))

    tasks = [asyncio.ensure_future(send(chat)) for chat in chats]
    while not all(t.done() for t in tasks):
        await asyncio.sleep(0)
        if clock.next_wake() is not None:
            clock.wake_next()
    return sent


async def test_a_burst_goes_out_a_second_apart_within_twenty_a_minute() -> None:
    clock = FakeClock()
    window = GroupWindow(clock, Background(), per_minute=20)
    start = clock.now()
    sent = await run(clock, window, [-1] * 25)
    times = [when - start for _, when in sent]
    assert times[:20] == [float(i) for i in range(20)]
    assert times[20] == 60.0  # the window is full: the 21st waits for the first to age out
    assert times[21:] == [61.0, 62.0, 63.0, 64.0]


async def test_groups_do_not_wait_for_each_other_and_private_chats_are_not_paced() -> None:
    clock = FakeClock()
    window = GroupWindow(clock, Background(), per_minute=20)
    start = clock.now()
    sent = await run(clock, window, [-1, -1, -2, 5, 5, 5])
    assert sorted((chat, when - start) for chat, when in sent) == [
        (-2, 0.0),
        (-1, 0.0),
        (-1, 1.0),
        (5, 0.0),
        (5, 0.0),
        (5, 0.0),
    ]


async def test_a_quiet_group_gets_its_reply_at_once() -> None:
    clock = FakeClock()
    window = GroupWindow(clock, Background(), per_minute=20)
    await run(clock, window, [-1])
    clock.set(clock.now() + 5)
    assert window.delay(-1) == 0.0
    before = clock.now()
    sent = await run(clock, window, [-1])
    assert sent == [(-1, before)]


async def test_spread_edits_leave_room_for_the_posts_people_wait_for() -> None:
    """A fast game's edits go out one per four seconds, not twenty in twenty
    seconds and then nothing for forty: its result, asked for after a minute of
    edits, goes out at once instead of at the end of the minute."""
    clock = FakeClock()
    window = GroupWindow(clock, Background(), per_minute=20)
    start = clock.now()
    sent: list[float] = []

    async def edit() -> None:
        async with window.slot(-1, spread=True):
            sent.append(clock.now() - start)

    edits = [asyncio.ensure_future(edit()) for _ in range(16)]
    while not all(e.done() for e in edits):
        await asyncio.sleep(0)
        if clock.next_wake() is not None:
            clock.wake_next()
    assert sent == [4.0 * i for i in range(16)]  # 15 within any minute
    clock.set(start + 60.5)  # the 16th edit was at 60 s
    results = await run(clock, window, [-1, -1])
    assert [when - start for _, when in results] == [61.0, 62.0]  # the usual second apart


async def test_a_send_counts_from_when_its_call_returns() -> None:
    """A call that waited after its slot was taken (in the bot's overall
    queue, on a slow network) arrives later than the slot: Telegram counts it
    then, so the minute that makes room for the 21st runs from its return."""
    clock = FakeClock()
    window = GroupWindow(clock, Background(), per_minute=20)
    start = clock.now()
    async with window.slot(-1):
        clock.set(start + 0.5)  # the first call takes half a second
    sent = await run(clock, window, [-1] * 20)
    times = [when - start for _, when in sent]
    assert times[:19] == [1.5 + i for i in range(19)]  # a second after the first returned
    assert times[19] == 60.5  # not at 60, when the first had only been asked for
