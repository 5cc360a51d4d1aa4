"""The aiohttp transport behind the bot's Telegram client, against the fake Bot API."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import BadRequest, NetworkError, RetryAfter, TimedOut

from bot.transport import AiohttpRequest
from playground.botapi import FakeTelegram, Fault, Storm
from tests.test_botapi_media import RED

TOKEN = "123456:TEST-token"
ANNA = 101
GROUP = -1001


@pytest.fixture
async def server() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(token=TOKEN, bot_username="koloda_test_bot") as fake:
        fake.add_user(ANNA, "Anna", started=True)
        fake.add_group(GROUP, "Durak night", creator=ANNA)
        yield fake


@pytest.fixture
async def bot(server: FakeTelegram) -> AsyncIterator[Bot]:
    request = AiohttpRequest(4, read_timeout=2.0)
    async with Bot(TOKEN, base_url=server.base_url, request=request) as b:
        yield b


async def test_texts_buttons_and_edits_arrive_as_sent(server: FakeTelegram, bot: Bot) -> None:
    markup = InlineKeyboardMarkup([[InlineKeyboardButton("Take & go", callback_data="m:1:2:t")]])
    sent = await bot.send_message(ANNA, "<b>Trump</b> ♠ «ёж»", parse_mode="HTML",
                                  reply_markup=markup)  # fmt: skip
    await bot.edit_message_text("10♥ beats 9♥", chat_id=ANNA, message_id=sent.message_id)
    message = server.last_bot_message(ANNA)
    assert message is not None
    assert message.message_id == sent.message_id
    assert message.text == "10♥ beats 9♥"
    assert message.history == ["Trump ♠ «ёж»", "10♥ beats 9♥"]
    assert sent.reply_markup == markup


async def test_a_photo_goes_as_multipart(server: FakeTelegram, bot: Bot) -> None:
    await bot.send_photo(GROUP, RED, caption="the track")
    message = server.last_bot_message(GROUP)
    assert message is not None
    assert (message.kind, message.photo_bytes, message.caption) == ("photo", RED, "the track")


async def test_telegram_refusals_keep_their_meaning(
    server: FakeTelegram, bot: Bot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PTB_TIMEDELTA", "1")  # as the bot sets it
    sent = await bot.send_message(GROUP, "x")
    with pytest.raises(BadRequest, match="not modified"):
        await bot.edit_message_text("x", chat_id=GROUP, message_id=sent.message_id)
    server.inject_error("sendMessage", 429, retry_after=7)
    with pytest.raises(RetryAfter, match="Retry in 0:00:07"):
        await bot.send_message(GROUP, "y")


async def test_a_dropped_connection_is_a_network_error(server: FakeTelegram, bot: Bot) -> None:
    server.storm = Storm(rate=1.0, faults=(Fault.DROPPED,))
    with pytest.raises(NetworkError) as failed:
        await bot.send_message(GROUP, "x")
    assert "aiohttp" in str(failed.value)


async def test_a_slow_answer_times_out(server: FakeTelegram) -> None:
    request = AiohttpRequest(read_timeout=0.1, write_timeout=0.1)
    async with Bot(TOKEN, base_url=server.base_url, request=request) as bot:
        server.storm = Storm(rate=1.0, faults=(Fault.SLOW,), slow_seconds=(0.5, 0.5))
        with pytest.raises(TimedOut):
            await bot.delete_message(GROUP, 1)


async def test_not_usable_before_initialize_nor_after_shutdown(server: FakeTelegram) -> None:
    request = AiohttpRequest()
    with pytest.raises(NetworkError, match="not initialized"):
        await request.post(f"{server.base_url}{TOKEN}/getMe")
    await request.initialize()
    me = await request.post(f"{server.base_url}{TOKEN}/getMe")
    assert isinstance(me, dict)
    assert me["username"] == "koloda_test_bot"
    await request.shutdown()
    await request.shutdown()  # twice is fine
    with pytest.raises(NetworkError, match="not initialized"):
        await request.post(f"{server.base_url}{TOKEN}/getMe")
