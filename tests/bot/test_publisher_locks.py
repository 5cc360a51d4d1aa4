"""The per-table lock serializes work on one table and is dropped when idle."""

from __future__ import annotations

import asyncio
from typing import Any, cast

from handlers.publisher import GroupPacer, Publisher


def make_publisher() -> Publisher:
    # The lock needs no Telegram or database: those parts are never touched.
    return Publisher(cast(Any, None), cast(Any, None), GroupPacer(20), "koloda_test_bot")


async def test_one_table_at_a_time_and_no_leftover_locks() -> None:
    publisher = make_publisher()
    order: list[str] = []

    async def work(name: str, table: int) -> None:
        async with publisher.table_lock(table):
            order.append(f"{name}+")
            await asyncio.sleep(0.01)
            order.append(f"{name}-")

    await asyncio.gather(work("a", 1), work("b", 1), work("c", 2))
    first_table = [x for x in order if x[0] in "ab"]
    assert first_table in (["a+", "a-", "b+", "b-"], ["b+", "b-", "a+", "a-"])
    assert order.index("c+") < order.index("a-") or order.index("c+") < order.index("b-")
    assert publisher._table_locks == {}


async def test_the_pacer_spaces_one_chat_but_not_others() -> None:
    pacer = GroupPacer(per_minute=600)  # 0.1 s apart
    loop = asyncio.get_running_loop()
    times: dict[int, list[float]] = {1: [], 2: []}

    async def send(chat: int) -> None:
        await pacer.turn(chat)
        times[chat].append(loop.time())

    await asyncio.gather(*(send(1) for _ in range(3)), send(2))
    gaps = [b - a for a, b in zip(times[1], times[1][1:], strict=False)]
    assert all(g >= 0.095 for g in gaps)
    assert times[2][0] - min(times[1]) < 0.05
