"""Copies left by lost answers, when several workers send to the same private
chats (delivery/telegram_io.py, ``shared_dms``; delivery/orphans.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from telegram import Bot

from delivery.telegram_io import TelegramIO
from playground.botapi import FakeTelegram
from playground.botapi.faults import Fault, Storm
from services import Background
from tests.clock import FakeClock

ANNA = 7
GROUP = -1001


@pytest.fixture
async def server() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as fake:
        fake.add_user(ANNA, "Anna", started=True)
        fake.add_group(GROUP, "Friends", supergroup=True)
        yield fake


@pytest.fixture
async def bot(server: FakeTelegram) -> AsyncIterator[Bot]:
    async with Bot(server.token, base_url=server.base_url) as bot:
        yield bot


async def lost(server: FakeTelegram, io: TelegramIO, chat_id: int, text: str) -> None:
    """A send whose message is made but whose answer never comes."""
    server.storm = Storm(rate=1.0, faults=(Fault.LOST,))
    try:
        sent = await io.send(chat_id, text)
    finally:
        server.storm = None
    assert sent.unsure


def live(server: FakeTelegram, chat_id: int) -> list[str]:
    return [m.text for m in server.chat_messages(chat_id) if not m.deleted]


async def test_a_worker_looks_for_no_copies_in_a_dm_other_workers_send_to(
    server: FakeTelegram, bot: Bot
) -> None:
    clock = FakeClock()
    a = TelegramIO(bot, clock, Background(), shared_dms=True)
    b = TelegramIO(bot, clock, Background(), shared_dms=True)
    await a.send(ANNA, "A: one")
    await lost(server, a, ANNA, "A: two")
    await b.send(ANNA, "B: a hand")  # another worker's, in the range A doubts
    await a.send(ANNA, "A: three")
    assert "B: a hand" in live(server, ANNA)
    assert not [c for c in server.calls if c.method == "editMessageReplyMarkup"]


async def test_a_worker_still_clears_the_copies_in_a_group_it_holds(
    server: FakeTelegram, bot: Bot
) -> None:
    io = TelegramIO(bot, FakeClock(), Background(), shared_dms=True)
    await io.send(GROUP, "one")
    await lost(server, io, GROUP, "two")
    await io.send(GROUP, "two")  # sent again, not knowing the first was made
    assert live(server, GROUP) == ["one", "two"]


async def test_a_group_handed_to_another_worker_is_not_swept(
    server: FakeTelegram, bot: Bot
) -> None:
    clock = FakeClock()
    a = TelegramIO(bot, clock, Background(), shared_dms=True)
    b = TelegramIO(bot, clock, Background(), shared_dms=True)
    await a.send(GROUP, "A: one")
    await lost(server, a, GROUP, "A: two")
    a.hand_over(GROUP)  # A lost the group's lease; B holds it now
    await b.send(GROUP, "B: the table")
    await a.send(GROUP, "A: late")  # whatever A still had in hand
    assert "B: the table" in live(server, GROUP)
