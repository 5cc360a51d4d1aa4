"""The fake Telegram server, driven by the real python-telegram-bot client over HTTP."""

from __future__ import annotations

import asyncio
import datetime as dtm
import json
import os
import signal
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.constants import ParseMode
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Conflict,
    EndPointNotFound,
    Forbidden,
    InvalidToken,
    RetryAfter,
)
from telegram.ext import CallbackQueryHandler, CommandHandler, ContextTypes

from playground.botapi import FakeTelegram, application_builder, polling
from playground.botapi.faults import FloodLimit

TOKEN = "123456:TEST-token"
ANNA, BORIS = 101, 102
GROUP = -1001
Context = ContextTypes.DEFAULT_TYPE


@pytest.fixture
async def server() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(token=TOKEN, bot_username="koloda_test_bot") as fake:
        fake.add_user(ANNA, "Anna", username="anna", started=True)
        fake.add_user(BORIS, "Boris")
        fake.add_group(GROUP, "Durak night", creator=ANNA)
        yield fake


@pytest.fixture
async def bot(server: FakeTelegram) -> AsyncIterator[Bot]:
    async with Bot(TOKEN, base_url=server.base_url, base_file_url=server.base_file_url) as b:
        yield b


def keyboard(*rows: list[tuple[str, str]]) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(text, callback_data=data) for text, data in row] for row in rows]
    )


# --------------------------------------------------------------------- with a polling bot


async def test_command_reaches_the_handler_and_the_reply_lands(server: FakeTelegram) -> None:
    seen: list[str] = []

    async def join(update: Update, context: Context) -> None:
        assert update.effective_message is not None
        assert update.effective_user is not None
        seen.append(update.effective_message.text or "")
        await update.effective_message.reply_text(
            f"<b>{update.effective_user.first_name}</b> joined",
            parse_mode=ParseMode.HTML,
            reply_markup=keyboard([("Leave", "leave:1")]),
        )

    app = application_builder(server).build()
    app.add_handler(CommandHandler("join", join))
    async with polling(app):
        server.send(ANNA, GROUP, "/join@koloda_test_bot")
        server.send(BORIS, GROUP, "/join")
        await server.wait_idle(quiet=0.1)

    assert seen == ["/join@koloda_test_bot", "/join"]
    replies = server.chat_messages(GROUP)
    assert [m.text for m in replies] == ["Anna joined", "Boris joined"]
    assert replies[0].html == "<b>Anna</b> joined"
    assert replies[0].entities == [{"type": "bold", "offset": 0, "length": 4}]
    assert replies[0].rows == [[("Leave", "leave:1")]]
    assert replies[0].reply_to_message_id is not None
    startup = [c.method for c in server.calls[:2]]
    assert startup == ["getMe", "deleteWebhook"]
    assert server.calls[-1].method == "getUpdates"
    assert server.pending_updates == []  # the shutdown poll confirmed everything


async def test_a_button_press_reaches_the_callback_handler(server: FakeTelegram) -> None:
    async def on_press(update: Update, context: Context) -> None:
        query = update.callback_query
        assert query is not None
        await query.answer(f"got {query.data}", show_alert=True)
        await query.edit_message_text("Pressed")

    app = application_builder(server).build()
    app.add_handler(CallbackQueryHandler(on_press))
    async with polling(app):
        sent = await app.bot.send_message(ANNA, "Pick", reply_markup=keyboard([("Take", "t")]))
        query_id = server.press_button(ANNA, ANNA, sent.message_id, "tak")
        answer = await server.answered(query_id, timeout=5)
        await server.wait_idle(quiet=0.1)

    assert answer == {"text": "got t", "show_alert": True, "url": None, "cache_time": 0}
    message = server.bot_message(ANNA, sent.message_id)
    assert (message.text, message.edit_count) == ("Pressed", 1)
    assert message.history == ["Pick", "Pressed"]
    assert message.buttons == []  # an edit without reply_markup drops the keyboard


async def test_privacy_mode_hides_plain_group_chatter(server: FakeTelegram) -> None:
    server.send(ANNA, GROUP, "hello all")
    server.send(ANNA, GROUP, "/start@other_bot")
    server.send(ANNA, GROUP, "/rules")
    server.send(ANNA, ANNA, "hi in private")
    texts = [u["message"]["text"] for u in server.pending_updates]
    assert texts == ["/rules", "hi in private"]
    with pytest.raises(TimeoutError, match="2 never fetched"):
        await server.wait_idle(quiet=0.05, timeout=0.2)  # nobody polls


SUBPROCESS_BOT = """
import os
from telegram.ext import ApplicationBuilder, CommandHandler

async def start(update, context):
    await update.effective_message.reply_text("hello from a process")

app = (
    ApplicationBuilder().token(os.environ["BOT_TOKEN"])
    .base_url(os.environ["TELEGRAM_API_BASE_URL"]).build()
)
app.add_handler(CommandHandler("start", start))
app.run_polling(poll_interval=0, timeout=1)
"""


async def test_a_bot_in_another_process_runs_polling(server: FakeTelegram, tmp_path: Path) -> None:
    env = {**os.environ, "BOT_TOKEN": TOKEN, "TELEGRAM_API_BASE_URL": server.base_url}
    log = tmp_path / "bot.log"
    with log.open("wb") as sink:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-c", SUBPROCESS_BOT, env=env, stdout=sink, stderr=sink
        )
        try:
            await server.wait_for(lambda: server.active_polls, 10, message=f"polling ({log})")
            server.start_bot(BORIS)
            await server.wait_for(lambda: server.last_bot_message(BORIS), timeout=5)
            proc.send_signal(signal.SIGINT)  # run_polling stops cleanly on SIGINT
            async with asyncio.timeout(10):
                assert await proc.wait() == 0, log.read_text()
        finally:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
    assert server.transcript(BORIS) == ["Boris: /start", "@koloda_test_bot: hello from a process"]
    assert [c.method for c in server.calls][:2] == ["getMe", "deleteWebhook"]
    assert server.calls[-1].params["timeout"] == "0"  # the confirming poll at shutdown
    assert server.pending_updates == []


# --------------------------------------------------------------------- refusals


async def test_identical_edit_is_not_modified(server: FakeTelegram, bot: Bot) -> None:
    markup = keyboard([("A", "a")])
    sent = await bot.send_message(GROUP, "<i>x</i>", parse_mode="HTML", reply_markup=markup)
    with pytest.raises(BadRequest, match=r"^Message is not modified"):
        await bot.edit_message_text("<em>x</em>", GROUP, sent.message_id, parse_mode="HTML",
                                    reply_markup=markup)  # fmt: skip
    await bot.edit_message_reply_markup(GROUP, sent.message_id)
    with pytest.raises(BadRequest, match="not modified"):
        await bot.edit_message_reply_markup(GROUP, sent.message_id)
    with pytest.raises(BadRequest, match="Message to edit not found"):
        await bot.edit_message_text("y", GROUP, 999)
    assert await bot.delete_message(GROUP, sent.message_id)
    with pytest.raises(BadRequest, match="Message to delete not found"):
        await bot.delete_message(GROUP, sent.message_id)
    assert server.chat_messages(GROUP)[0].deleted
    assert server.last_bot_message(GROUP) is None


async def test_private_chats_need_start_and_no_block(server: FakeTelegram, bot: Bot) -> None:
    with pytest.raises(Forbidden, match="bot can't initiate conversation with a user"):
        await bot.send_message(BORIS, "hi")
    server.start_bot(BORIS, payload="g42")
    assert server.pending_updates[-1]["message"]["text"] == "/start g42"
    await bot.send_message(BORIS, "hi")
    server.block(BORIS)
    with pytest.raises(Forbidden, match="bot was blocked by the user"):
        await bot.send_message(BORIS, "hi again")
    assert server.pending_updates[-1]["my_chat_member"]["new_chat_member"]["status"] == "kicked"
    with pytest.raises(BadRequest, match="Chat not found"):
        await bot.send_message(424242, "nobody")
    failed = server.calls_to("sendMessage", chat_id=BORIS)
    assert [c.error_code for c in failed] == [403, None, 403]


async def test_injected_429_is_retry_after(
    server: FakeTelegram, bot: Bot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PTB_TIMEDELTA", "true")  # else .retry_after warns (PTB 22)
    server.inject_error("sendmessage", retry_after=7, times=2)
    for _ in range(2):
        with pytest.raises(RetryAfter) as caught:
            await bot.send_message(ANNA, "flood")
        assert caught.value.retry_after == dtm.timedelta(seconds=7)
    await bot.send_message(ANNA, "calm")
    assert [m.text for m in server.chat_messages(ANNA)] == ["calm"]


async def test_limiter_bench_flood_limit_refuses_sends_and_edits_past_n_a_second(
    server: FakeTelegram, bot: Bot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PTB_TIMEDELTA", "true")
    limit = FloodLimit(2)
    # Times given: the calls let through in the last second count, the refused do not.
    assert [limit.admit("sendMessage", at) for at in (0.0, 0.5, 0.9, 1.0, 1.2, 1.6)] == [
        True,
        True,
        False,
        True,
        False,
        True,
    ]
    assert limit.admit("answerCallbackQuery", 1.6)  # not a send nor an edit
    assert limit.refused == 2
    await bot.send_message(ANNA, "one")
    server.flood_limit = FloodLimit(0)  # the server's own clock: none let through
    await bot.get_me()
    with pytest.raises(RetryAfter) as caught:
        await bot.send_message(ANNA, "two")
    assert caught.value.retry_after == dtm.timedelta(seconds=1)
    server.flood_limit = None
    await bot.send_message(ANNA, "three")
    assert [m.text for m in server.chat_messages(ANNA)] == ["one", "three"]


async def test_long_callback_data_and_text_are_refused(server: FakeTelegram, bot: Bot) -> None:
    with pytest.raises(BadRequest, match="Button_data_invalid"):
        await bot.send_message(ANNA, "x", reply_markup=keyboard([("B", "й" * 33)]))
    await bot.send_message(ANNA, "x", reply_markup=keyboard([("B", "й" * 32)]))  # 64 bytes
    with pytest.raises(BadRequest, match="Message is too long"):
        await bot.send_message(ANNA, "x" * 4097)
    await bot.send_message(ANNA, "<b>" + "&lt;" * 4096 + "</b>", parse_mode="HTML")
    with pytest.raises(BadRequest, match="Can't parse entities"):
        await bot.send_message(ANNA, "<b>open <i>wrong</b></i>", parse_mode="HTML")
    with pytest.raises(BadRequest, match="Can't parse entities"):
        await bot.send_message(ANNA, "<blink>x</blink>", parse_mode="HTML")
    last = server.last_bot_message(ANNA)
    assert last is not None
    assert last.text == "<" * 4096


async def test_text_is_trimmed_and_entities_follow(server: FakeTelegram, bot: Bot) -> None:
    sent = await bot.send_message(ANNA, "\n  <b>Ход</b> 🂡 <i>x</i>\n\n", parse_mode="HTML")
    assert sent.text == "Ход 🂡 x"
    assert [(e.type, e.offset, e.length) for e in sent.entities] == [
        ("bold", 0, 3),
        ("italic", 7, 1),  # the card is two UTF-16 code units
    ]
    with pytest.raises(BadRequest, match="not modified"):
        await bot.edit_message_text(
            "<b>Ход</b> 🂡 <i>x</i>", ANNA, sent.message_id, parse_mode="HTML"
        )
    with pytest.raises(BadRequest, match="Message text is empty"):
        await bot.send_message(ANNA, "<b> </b>", parse_mode="HTML")


async def test_migrated_group_raises_chat_migrated(server: FakeTelegram, bot: Bot) -> None:
    server.migrate(GROUP, -1009001)
    with pytest.raises(ChatMigrated) as caught:
        await bot.send_message(GROUP, "still here?")
    assert caught.value.new_chat_id == -1009001
    kinds = [u["message"] for u in server.pending_updates]
    assert kinds[0]["migrate_to_chat_id"] == -1009001
    assert kinds[1]["migrate_from_chat_id"] == GROUP
    assert kinds[1]["chat"]["type"] == "supergroup"
    sent = await bot.send_message(-1009001, "moved")
    assert sent.chat.type == "supergroup"


async def test_callback_queries_are_answered_once(server: FakeTelegram, bot: Bot) -> None:
    sent = await bot.send_message(GROUP, "Bid?", reply_markup=keyboard([("Pass", "p")]))
    shown = server.last_bot_message(GROUP)
    assert shown is not None
    assert shown.callback_data("pas") == "p"
    with pytest.raises(ValueError, match="no button"):
        server.press(BORIS, GROUP, sent.message_id, "steal")
    forged = server.press(BORIS, GROUP, sent.message_id, "steal", forged=True)
    query_id = server.press(BORIS, GROUP, sent.message_id, "p")
    update = server.pending_updates[-1]["callback_query"]
    assert (update["data"], update["message"]["text"]) == ("p", "Bid?")
    assert await bot.answer_callback_query(query_id, text="ok")
    with pytest.raises(BadRequest, match="Query is too old"):
        await bot.answer_callback_query(query_id)
    with pytest.raises(BadRequest, match="Query is too old"):
        await bot.answer_callback_query("nonsense")
    assert server.callback_answer(query_id) == {
        "text": "ok",
        "show_alert": False,
        "url": None,
        "cache_time": 0,
    }
    assert server.callback_answer(forged) is None
    member = await bot.get_chat_member(GROUP, BORIS)  # pressing made Boris a member
    assert member.status == "member"


# --------------------------------------------------------------------- polling mechanics


async def test_get_updates_offsets_confirm_and_long_poll_wakes(
    server: FakeTelegram, bot: Bot
) -> None:
    server.send(ANNA, ANNA, "one")
    server.send(ANNA, ANNA, "two")
    first = await bot.get_updates(timeout=0)
    again = await bot.get_updates(timeout=0)
    assert [u.update_id for u in first] == [u.update_id for u in again]
    assert len(await bot.get_updates(offset=first[0].update_id + 1, limit=5)) == 1
    assert await bot.get_updates(offset=first[-1].update_id + 1, timeout=0) == ()

    async def later() -> None:
        await asyncio.sleep(0.1)
        server.send(ANNA, ANNA, "three")

    started = time.monotonic()
    poll = asyncio.create_task(bot.get_updates(offset=first[-1].update_id + 1, timeout=5))
    await later()
    woken = await poll
    assert time.monotonic() - started < 2
    assert [u.message.text for u in woken if u.message] == ["three"]


async def test_a_second_poller_ends_the_first_with_conflict(server: FakeTelegram, bot: Bot) -> None:
    first = asyncio.create_task(bot.get_updates(timeout=5))
    await server.wait_for(lambda: server.active_polls == 1, timeout=2)
    # a Bot's getUpdates connection pool holds one request: a second instance polls
    async with Bot(TOKEN, base_url=server.base_url) as other:
        second = asyncio.create_task(other.get_updates(timeout=5))
        with pytest.raises(Conflict, match="terminated by other getUpdates request"):
            await first
        server.send(ANNA, ANNA, "hi")
        assert [u.message.text for u in await second if u.message] == ["hi"]


async def test_raw_http_shapes(server: FakeTelegram) -> None:
    async with aiohttp.ClientSession() as http:
        url = f"{server.base_url}{TOKEN}"
        async with http.post(f"{url}/SENDMESSAGE", json={"chat_id": ANNA, "text": "j"}) as r:
            assert r.status == 200
            body: dict[str, Any] = await r.json()
            assert body["result"]["from"]["username"] == "koloda_test_bot"
        async with http.get(f"{url}/sendMessage", params={"chat_id": ANNA, "text": "q"}) as r:
            assert r.status == 200
        form = aiohttp.FormData({"chat_id": str(ANNA), "text": "m"})
        form.add_field("photo", b"jpeg", filename="x.jpg")  # forces multipart
        async with http.post(f"{url}/sendMessage", data=form) as r:
            assert r.status == 200
        async with http.post(f"{server.base_url}1:wrong/getMe") as r:
            assert (r.status, await r.json()) == (
                401,
                {"ok": False, "error_code": 401, "description": "Unauthorized"},
            )
        async with http.post(f"{url}/sendDice") as r:
            assert (r.status, (await r.json())["description"]) == (404, "Not Found")
        async with http.post(f"{url}/sendMessage", json={"chat_id": ANNA}) as r:
            assert (await r.json())["description"] == "Bad Request: message text is empty"
    assert [m.text for m in server.chat_messages(ANNA)] == ["j", "q", "m"]
    assert server.calls_to("sendMessage")[2].params["photo"] == "<file x.jpg>"


async def test_ptb_sees_token_and_method_errors(server: FakeTelegram, bot: Bot) -> None:
    me = await bot.get_me()
    assert (me.id, me.username, me.is_bot) == (123456, "koloda_test_bot", True)
    with pytest.raises(EndPointNotFound):
        await bot.do_api_request("sendTeleport", api_kwargs={"chat_id": ANNA})
    with pytest.raises(InvalidToken):
        async with Bot("123456:wrong", base_url=server.base_url):
            pass


async def test_groups_members_topics_and_commands(server: FakeTelegram, bot: Bot) -> None:
    forum = server.add_group(-1002, "Tables", forum=True, creator=ANNA, admins=[BORIS])
    topic = server.create_topic(forum.id, "Table 1", by_user_id=ANNA)
    sent = await bot.send_message(forum.id, "in topic", message_thread_id=topic)
    assert (sent.message_thread_id, sent.is_topic_message) == (topic, True)
    with pytest.raises(BadRequest, match="Message thread not found"):
        await bot.send_message(forum.id, "x", message_thread_id=9999)
    server.send(BORIS, forum.id, "/deal", thread_id=topic)
    incoming = (await bot.get_updates())[-1].message
    assert incoming is not None
    reply = await incoming.reply_text("dealt")  # PTB keeps the topic of a topic message
    assert reply.message_thread_id == topic
    assert server.transcript(forum.id, thread_id=topic) == [
        "Anna: <forum_topic_created>",
        "@koloda_test_bot: in topic",
        "Boris: /deal",
        "@koloda_test_bot: dealt",
    ]
    statuses = [(await bot.get_chat_member(forum.id, uid)).status for uid in (ANNA, BORIS)]
    assert statuses == ["creator", "administrator"]
    admins = await bot.get_chat_administrators(forum.id)
    assert [a.user.id for a in admins] == [ANNA, BORIS]
    chat = await bot.get_chat(forum.id)
    assert (chat.type, chat.is_forum, chat.title) == ("supergroup", True, "Tables")
    await bot.set_my_commands([("join", "Join")], language_code="ru")
    await bot.set_my_commands([("join", "Sit down")])
    assert [c.description for c in await bot.get_my_commands(language_code="ru")] == ["Join"]
    assert server.my_commands()[0] == {"command": "join", "description": "Sit down"}
    await bot.delete_my_commands(language_code="ru")
    assert await bot.get_my_commands(language_code="ru") == ()
    server.remove_bot(GROUP, by_user_id=ANNA)
    with pytest.raises(Forbidden, match="bot was kicked from the group chat"):
        await bot.send_message(GROUP, "still here")


# --------------------------------------------------------------------- ephemeral messages


async def ephemeral_send(bot: Bot, receiver: int, **extra: Any) -> Any:
    parameters = json.dumps({"receiver_user_id": receiver, **extra})
    return await bot.do_api_request(
        "sendmessage",
        api_kwargs={
            "chat_id": GROUP,
            "text": "your cards",
            "reply_markup": json.dumps(
                {
                    "inline_keyboard": [
                        [
                            {"text": "Take", "callback_data": "t", "style": "danger"},
                            {"text": "7♠", "disabled": {}},
                        ]
                    ]
                }
            ),
            "ephemeral_message_parameters": parameters,
        },
    )


async def test_an_ephemeral_message_is_its_receivers_alone(server: FakeTelegram, bot: Bot) -> None:
    server.set_bot_admin(GROUP)
    server.send(BORIS, GROUP, "/rules")  # Boris is a member now
    sent = await ephemeral_send(bot, ANNA)
    ephemeral_id = sent["ephemeral_message_id"]
    assert sent["receiver_user"]["id"] == ANNA
    (seen,) = server.ephemeral_messages(GROUP, ANNA)
    assert seen.text == "your cards"
    assert [(b.style, b.disabled, b.callback_data) for b in seen.buttons[0]] == [
        ("danger", False, "t"),
        (None, True, None),
    ]
    assert server.ephemeral_messages(GROUP, BORIS) == []
    assert server.chat_messages(GROUP) == []  # not among the group's own messages
    with pytest.raises(ValueError, match="sees no ephemeral message"):
        server.press_ephemeral(BORIS, GROUP, ephemeral_id, "t")

    # A press on it names it; edits and deletion name it by receiver and id.
    server.press_ephemeral(ANNA, GROUP, ephemeral_id, "t")
    (update,) = [u for u in server.pending_updates if "callback_query" in u]
    message = update["callback_query"]["message"]
    assert (message["ephemeral_message_id"], message["receiver_user"]["id"]) == (ephemeral_id, ANNA)
    ids = {"chat_id": GROUP, "receiver_user_id": ANNA, "ephemeral_message_id": ephemeral_id}
    assert await bot.do_api_request("editephemeralmessagetext", api_kwargs={**ids, "text": "x"})
    assert server.ephemeral_messages(GROUP, ANNA)[0].text == "x"
    with pytest.raises(BadRequest, match="not modified"):
        await bot.do_api_request("editephemeralmessagetext", api_kwargs={**ids, "text": "x"})
    wrong = {**ids, "receiver_user_id": BORIS}
    with pytest.raises(BadRequest, match="not found"):
        await bot.do_api_request("editephemeralmessagetext", api_kwargs={**wrong, "text": "y"})
    assert await bot.do_api_request("deleteephemeralmessage", api_kwargs=ids)
    assert server.ephemeral_messages(GROUP, ANNA) == []


async def test_ephemeral_messages_keep_telegrams_rules(server: FakeTelegram, bot: Bot) -> None:
    server.send(BORIS, GROUP, "/rules")
    # No administrator: only in answer to the receiver's own press, 15 s at most.
    with pytest.raises(BadRequest, match=r"(?i)not enough rights"):
        await ephemeral_send(bot, ANNA)
    table = await bot.send_message(GROUP, "table", reply_markup=keyboard([("My cards", "c")]))
    query = server.press(ANNA, GROUP, table.message_id, "c")
    with pytest.raises(BadRequest, match=r"(?i)query is too old"):
        await ephemeral_send(bot, BORIS, callback_query_id=query)  # not his press
    sent = await ephemeral_send(bot, ANNA, callback_query_id=query)
    with pytest.raises(BadRequest, match=r"(?i)must be false"):
        pressed = server.press_ephemeral(ANNA, GROUP, sent["ephemeral_message_id"], "t")
        await ephemeral_send(
            bot, ANNA, callback_query_id=pressed, replace_callback_query_message=True
        )
    server.age_presses(16)
    with pytest.raises(BadRequest, match=r"(?i)query is too old"):
        await ephemeral_send(bot, ANNA, callback_query_id=query)
    with pytest.raises(BadRequest, match=r"(?i)receiver user not found"):
        await ephemeral_send(bot, 999)
    with pytest.raises(BadRequest, match=r"(?i)button_style_invalid"):
        await bot.send_message(
            GROUP,
            "x",
            reply_markup=InlineKeyboardMarkup(
                [[InlineKeyboardButton("a", callback_data="a", style="purple")]]
            ),
        )

    # Lost on the way to an offline member, or dropped by his app: not seen,
    # and no longer editable.
    server.set_bot_admin(GROUP)
    server.offline.add(BORIS)
    lost = await ephemeral_send(bot, BORIS)
    assert server.ephemeral_messages(GROUP, BORIS) == []
    ids = {"chat_id": GROUP, "receiver_user_id": BORIS}
    with pytest.raises(BadRequest, match="not found"):
        await bot.do_api_request(
            "editephemeralmessagetext",
            api_kwargs={**ids, "ephemeral_message_id": lost["ephemeral_message_id"], "text": "y"},
        )
    server.offline.discard(BORIS)
    kept = await ephemeral_send(bot, BORIS)
    assert len(server.ephemeral_messages(GROUP, BORIS)) == 1
    server.forget_ephemeral(BORIS)
    assert server.ephemeral_messages(GROUP, BORIS) == []
    with pytest.raises(BadRequest, match="not found"):
        await bot.do_api_request(
            "editephemeralmessagetext",
            api_kwargs={**ids, "ephemeral_message_id": kept["ephemeral_message_id"], "text": "y"},
        )
