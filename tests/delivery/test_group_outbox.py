"""A group's outbox: in order, a table's sync waiting once, the same item
again after a growing pause, and forgettable only with nothing to remember."""

from __future__ import annotations

import asyncio

from delivery.group_outbox import Chooser, GroupOutbox, Item, Say, SyncTable
from services import Background
from tests.clock import FakeClock


async def test_items_go_in_order_a_failed_one_again_after_a_growing_pause() -> None:
    clock, background = FakeClock(), Background()
    box = GroupOutbox(-1, clock, background)
    box.add(Say("hello", None, 0))
    box.sync(7)
    box.sync(7)  # waiting already: shows the latest state when its turn comes
    box.add(Chooser("games", None, 0))
    assert box.syncing() == {7}
    failures = {"hello": 2}
    resynced: list[int] = []
    delivered: list[tuple[str, float]] = []
    start = clock.now()

    async def deliver(item: Item) -> bool:
        name = item.text if isinstance(item, Say | Chooser) else f"sync {item.table_id}"
        delivered.append((name, clock.now() - start))
        if failures.get(name, 0):
            failures[name] -= 1
            return False
        if isinstance(item, SyncTable) and not resynced:
            resynced.append(item.table_id)
            box.sync(7)  # changed while its sync ran: it waits again, once
            box.sync(7)
        return True

    box.task = background.spawn(box.run(deliver))
    while not box.task.done():
        await asyncio.sleep(0)
        if background.idle and clock.next_wake() is not None:
            clock.wake_next()
    assert delivered == [
        ("hello", 0.0),
        ("hello", 1.0),  # after 1 s
        ("hello", 3.0),  # after 2 s more
        ("sync 7", 3.0),
        ("games", 3.0),
        ("sync 7", 3.0),
    ]
    assert not box.items


async def test_a_sync_asked_for_during_a_failed_try_goes_after_it_and_a_bug_does_not_loop() -> None:
    clock, background = FakeClock(), Background()
    box = GroupOutbox(-1, clock, background)
    box.sync(7)
    box.add(Say("boom", None, 0))
    tries: list[str] = []

    async def deliver(item: Item) -> bool:
        if isinstance(item, SyncTable):
            tries.append("sync")
            if len(tries) == 1:
                box.sync(7)  # asked for again while its first try was under way
                assert box.syncing() == {7}
                return False  # ... and that try fails: one sync waits, not two
            return True
        tries.append("boom")
        raise RuntimeError("a bug")

    box.task = background.spawn(box.run(deliver))
    while not box.task.done():
        await asyncio.sleep(0)
        if background.idle and clock.next_wake() is not None:
            clock.wake_next()
    assert tries == ["sync", "sync", "boom", "sync"]
    assert not box.items


def test_an_outbox_is_forgotten_only_with_nothing_to_send_or_remember() -> None:
    box = GroupOutbox(-1, FakeClock(), Background())

    def forgettable() -> bool:
        return box.forgettable

    assert forgettable()
    box.choosers[0] = 10
    assert not forgettable()
    del box.choosers[0]
    box.adopted[5] = 10
    assert not forgettable()
    box.adopted.clear()
    box.sync(3)
    assert not forgettable()
