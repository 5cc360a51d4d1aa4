"""A sync says what came of it: done, try again (after a flood wait), the group
became a supergroup, the players it cannot reach; it acts on none of it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from delivery.publisher import Publisher
from delivery.synced import Done, Migrated, Retry, Synced
from delivery.table_delivery import TableDelivery
from handlers.context import KEY
from playground.botapi import FakeTelegram
from services import Services
from tests.e2e.harness import advance, bot_config, running_bot, seat_players, settle

GROUP, SUPERGROUP = -500, -1000500


@pytest.fixture
async def server() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as fake:
        yield fake


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "koloda.sqlite3"


def parts(app: Any) -> tuple[Services, Publisher]:
    koloda = app.bot_data[KEY]
    return koloda.services, koloda.publisher


async def reposting(
    app: Any, server: FakeTelegram, publisher: Publisher, delivery: TableDelivery
) -> Synced:
    """A sync that posts the table anew: the old message pointing below and
    the new one take a slot of the group's budget each, a second apart."""
    sync = asyncio.ensure_future(publisher.tables.sync(delivery))
    for _ in range(100):  # its database reads take real time: wait and look again
        await asyncio.wait([sync], timeout=0.05)
        if sync.done():
            break
        await advance(server, app, 1)
    assert sync.done(), "the sync never ended"
    return sync.result()


async def test_the_group_sync_says_retry_after_a_flood_wait_and_migrated(
    server: FakeTelegram, db_path: Path
) -> None:
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app, group_id=GROUP, supergroup=False)
        await table.open("durak")
        services, publisher = parts(app)
        lobby = await services.snapshots.snapshot(1)
        await advance(server, app, 120)  # the group's message budget is clear

        server.inject_error("sendMessage", 429, retry_after=7)
        reposted = TableDelivery(1, latest=lobby, repost=True)
        assert await reposting(app, server, publisher, reposted) == Retry(7.0)

        server.migrate(GROUP, SUPERGROUP)
        await settle(server, app)
        await advance(server, app, 120)
        stale = TableDelivery(1, latest=lobby, repost=True)  # still shows the old chat
        assert await reposting(app, server, publisher, stale) == Migrated(GROUP, SUPERGROUP)

        moved = await services.snapshots.snapshot(1)
        assert moved.table.chat_id == SUPERGROUP
        # The bot followed the group by itself; its message is up to date.
        assert await publisher.tables.sync(TableDelivery(1, latest=moved)) == Done()


async def test_the_hands_sync_names_the_players_it_cannot_reach_once(
    server: FakeTelegram, db_path: Path
) -> None:
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        await table.open_and_start("durak", timer=True)
        services, publisher = parts(app)
        snapshot = await services.snapshots.snapshot(1)
        assert snapshot.deadlines
        anna, boris = table.players
        boris_seat = snapshot.table.seat_of(boris)
        assert boris_seat is not None
        server.block(boris)
        await settle(server, app)

        hands = TableDelivery(1, latest=snapshot)
        hands.screen(boris).fresh = True  # a new message for him: it is refused
        # Tried again at once: his hands go to the group from now on.
        assert await publisher.hands.sync(hands, snapshot, "ru") == Retry(0.0, (boris_seat,))
        assert hands.screen(boris).told_unreachable
        assert hands.screen(boris).dm_refused
        # Told once.  In the group, where the bot is no administrator, his hand
        # waits for his press of "my cards".
        assert await publisher.hands.sync(hands, snapshot, "ru") == Done()
        assert server.every_ephemeral() == []

        hands.screen(boris).fresh = False
        hands.screen(anna).fresh = True
        server.inject_error("sendMessage", 429, retry_after=3)
        assert await publisher.hands.sync(hands, snapshot, "ru") == Retry(3.0)
        assert hands.screen(anna).fresh  # still owed
        # Nobody was given the time back: that is the publisher's to do.
        assert (await services.snapshots.snapshot(1)).deadlines == snapshot.deadlines
        # Her chat is in its flood wait: asked again at once, the bot's limiter
        # tells the time left without asking Telegram; after it, she gets it.
        assert await publisher.hands.sync(hands, snapshot, "ru") == Retry(3.0)
        clock = app.bot_data["test_clock"]
        clock.set(clock.now() + 3.0)
        assert await publisher.hands.sync(hands, snapshot, "ru") == Done()
        assert not hands.screen(anna).fresh
