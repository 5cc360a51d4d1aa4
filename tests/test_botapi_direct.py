"""DirectRequest: the bot's requests handed to the stand-in in this process
give what the same requests over HTTP give."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import BadRequest, InvalidToken, NetworkError, RetryAfter, TimedOut
from telegram.request import BaseRequest

from bot.transport import AiohttpRequest
from playground.botapi import FakeTelegram, Fault, Storm
from playground.botapi.direct import DirectRequest
from tests.test_botapi_media import RED

TOKEN = "123456:TEST-token"
ANNA = 101
GROUP = -1001

Requests = Callable[..., BaseRequest]


async def stand_in() -> FakeTelegram:
    fake = FakeTelegram(token=TOKEN, bot_username="koloda_test_bot")
    await fake.start()
    fake.add_user(ANNA, "Anna", started=True)
    fake.add_group(GROUP, "Durak night", creator=ANNA)
    return fake


@pytest.fixture
async def server() -> AsyncIterator[FakeTelegram]:
    fake = await stand_in()
    yield fake
    await fake.stop()


async def a_session(bot: Bot, server: FakeTelegram) -> list[Any]:
    """Texts, buttons, edits, a refusal, a flood wait, a photo and its download:
    what each call returned, or the error it raised."""
    seen: list[Any] = []
    markup = InlineKeyboardMarkup([[InlineKeyboardButton("Взять", callback_data="m:1:2:t")]])
    sent = await bot.send_message(ANNA, "<b>Козырь</b> ♠ «ёж»", parse_mode="HTML",
                                  reply_markup=markup)  # fmt: skip
    seen.append(sent.to_dict())
    edited = await bot.edit_message_text("10♥ бьёт 9♥", chat_id=ANNA, message_id=sent.message_id)
    assert not isinstance(edited, bool)
    seen.append(edited.to_dict())
    with pytest.raises(BadRequest) as refused:
        await bot.edit_message_text("10♥ бьёт 9♥", chat_id=ANNA, message_id=sent.message_id)
    seen.append(refused.value.message)
    server.inject_error("sendMessage", 429, retry_after=7)
    with pytest.raises(RetryAfter) as flood:
        await bot.send_message(GROUP, "y")
    seen.append(flood.value.retry_after)
    photo = await bot.send_photo(GROUP, RED, caption="трасса")
    seen.append(photo.to_dict())
    file = await bot.get_file(photo.photo[-1].file_id)
    seen.append(bytes(await file.download_as_bytearray()))
    seen.append((await bot.get_me()).to_dict())
    return seen


async def test_a_session_is_the_same_over_http_and_handed_over_directly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PTB_TIMEDELTA", "1")  # as the bot sets it
    sessions = []
    for requests in (AiohttpRequest, DirectRequest):
        server = await stand_in()
        server.wall_clock = lambda: 1_795_939_867.0  # one date, whenever each session runs
        try:
            bot = Bot(
                TOKEN,
                base_url=server.base_url,
                base_file_url=server.base_file_url,
                request=requests(4),
            )
            async with bot:
                seen = await a_session(bot, server)
            calls = [(c.method, c.params, c.ok, c.error_code) for c in server.calls]
            sessions.append((seen, calls, server.transcript(ANNA), server.transcript(GROUP)))
        finally:
            await server.stop()
    over_http, direct = sessions
    assert direct == over_http
    assert RED in direct[0]


@pytest.mark.parametrize("requests", [AiohttpRequest, DirectRequest])
@pytest.mark.parametrize(
    ("fault", "sent"),
    [(Fault.DROPPED, []), (Fault.LOST, ["@koloda_test_bot: x"])],
    ids=["dropped before the call", "lost after it"],
)
async def test_a_closed_connection_is_a_network_error_whether_or_not_the_call_was_made(
    server: FakeTelegram, requests: Requests, fault: Fault, sent: list[str]
) -> None:
    async with Bot(TOKEN, base_url=server.base_url, request=requests()) as bot:
        server.storm = Storm(rate=1.0, faults=(fault,))
        with pytest.raises(NetworkError):
            await bot.send_message(GROUP, "x")
    assert server.transcript(GROUP) == sent


@pytest.mark.parametrize("requests", [AiohttpRequest, DirectRequest])
async def test_a_slow_answer_times_out(server: FakeTelegram, requests: Requests) -> None:
    request = requests(read_timeout=0.1, write_timeout=0.1)
    async with Bot(TOKEN, base_url=server.base_url, request=request) as bot:
        server.storm = Storm(rate=1.0, faults=(Fault.SLOW,), slow_seconds=(0.5, 0.5))
        with pytest.raises(TimedOut):
            await bot.send_message(GROUP, "x")


@pytest.mark.parametrize("requests", [AiohttpRequest, DirectRequest])
async def test_a_wrong_token_is_refused(server: FakeTelegram, requests: Requests) -> None:
    request = requests()
    bot = Bot("111:wrong-wrong", base_url=server.base_url, request=request)
    try:
        with pytest.raises(InvalidToken):
            await bot.initialize()
    finally:
        await request.shutdown()
    assert server.calls[-1].error_code == 401


async def test_calls_beyond_the_pool_wait_for_a_connection_and_time_out(
    server: FakeTelegram,
) -> None:
    request = DirectRequest(1, pool_timeout=0.05)
    async with Bot(TOKEN, base_url=server.base_url, request=request) as bot:
        server.storm = Storm(rate=1.0, faults=(Fault.SLOW,), slow_seconds=(0.3, 0.3))
        first = asyncio.create_task(bot.send_message(GROUP, "first"))
        await asyncio.sleep(0.05)  # it holds the only connection for 0.3 s
        with pytest.raises(TimedOut, match="Pool timeout"):
            await bot.send_message(GROUP, "second")
        await first
    assert server.transcript(GROUP) == ["@koloda_test_bot: first"]


async def test_nothing_served_in_this_process_is_a_network_error(server: FakeTelegram) -> None:
    url = server.base_url
    await server.stop()
    with pytest.raises(NetworkError, match="nothing in this process serves"):
        await DirectRequest().post(f"{url}{TOKEN}/getMe")
