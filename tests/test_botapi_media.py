"""Photos on the fake Telegram server, driven by the real python-telegram-bot client."""

from __future__ import annotations

import json
import struct
import zlib
from collections.abc import AsyncIterator

import aiohttp
import pytest
from telegram import (
    Bot,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    Message,
    MessageEntity,
    ReplyParameters,
    Update,
)
from telegram.error import BadRequest
from telegram.ext import CallbackQueryHandler, ContextTypes

from playground.botapi import FakeTelegram, SentMessage, application_builder, polling
from playground.botapi.media import image_info, photo_size_boxes

TOKEN = "123456:TEST-token"
ANNA, BORIS = 101, 102
GROUP = -1001
Context = ContextTypes.DEFAULT_TYPE


def png(width: int, height: int, rgb: tuple[int, int, int] = (200, 30, 30)) -> bytes:
    """A valid RGB PNG of one colour, built by hand."""
    row = b"\x00" + bytes(rgb) * width  # filter type 0, then the pixels
    return png_chunks(width, height, zlib.compress(row * height))


def png_chunks(width: int, height: int, idat: bytes) -> bytes:
    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")
    )


def jpeg_header(width: int, height: int) -> bytes:
    """SOI, a JFIF APP0 and a baseline frame header: enough for the size to be read."""
    app0 = b"\xff\xe0" + struct.pack(">H", 16) + b"JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"
    components = b"\x01\x22\x00\x02\x11\x01\x03\x11\x01"
    sof0 = b"\xff\xc0" + struct.pack(">HBHHB", 17, 8, height, width, 3) + components
    return b"\xff\xd8" + app0 + b"\xff\xff" + sof0 + b"\xff\xd9"


RED, BLUE = png(8, 6), png(8, 6, (20, 20, 220))


@pytest.fixture
async def server() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(token=TOKEN, bot_username="koloda_test_bot") as fake:
        fake.add_user(ANNA, "Anna", username="anna", started=True)
        fake.add_user(BORIS, "Boris", started=True)
        fake.add_group(GROUP, "Joker night", creator=ANNA)
        yield fake


@pytest.fixture
async def bot(server: FakeTelegram) -> AsyncIterator[Bot]:
    async with Bot(TOKEN, base_url=server.base_url, base_file_url=server.base_file_url) as b:
        yield b


def keyboard(*labels: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[InlineKeyboardButton(t, callback_data=t) for t in labels]])


def last_error(server: FakeTelegram, method: str) -> str | None:
    """The exact description the fake answered (PTB re-capitalises what it shows)."""
    return server.calls_to(method)[-1].description


def shown(server: FakeTelegram, chat_id: int, message_id: int) -> SentMessage:
    return server.bot_message(chat_id, message_id)


# --------------------------------------------------------------------- sending


async def test_an_uploaded_photo_is_a_photo_message(server: FakeTelegram, bot: Bot) -> None:
    sent = await bot.send_photo(
        GROUP,
        RED,
        caption="  <b>Joker</b> · round 1\n",
        parse_mode="HTML",
        reply_markup=keyboard("Next"),
        disable_notification=True,
    )
    assert [(s.width, s.height) for s in sent.photo] == [(8, 6)]
    assert sent.caption == "Joker · round 1"
    assert [(e.type, e.offset, e.length) for e in sent.caption_entities] == [("bold", 0, 5)]
    assert sent.text is None
    assert sent.reply_markup == keyboard("Next")

    message = shown(server, GROUP, sent.message_id)
    assert (message.kind, message.text, message.html, message.history) == ("photo", "", "", [])
    assert message.photo_bytes == RED
    assert (message.width, message.height) == (8, 6)
    assert message.photo is not None
    assert message.photo.mime_type == "image/png"
    assert message.photo.file_id == sent.photo[-1].file_id
    assert message.caption == message.body == "Joker · round 1"
    assert message.caption_html == "  <b>Joker</b> · round 1\n"
    assert message.caption_entities == [{"type": "bold", "offset": 0, "length": 5}]
    assert message.rows == [[("Next", "Next")]]
    assert message.disable_notification
    assert server.transcript(GROUP) == ["@koloda_test_bot: [photo 8x6] Joker · round 1 ['Next']"]
    with pytest.raises(BadRequest, match="There is no text in the message to edit"):
        await bot.edit_message_text("text now", GROUP, sent.message_id)
    call = server.calls_to("sendPhoto")[0]
    assert (call.ok, call.chat_id, call.params["photo"]) == (
        True,
        GROUP,
        "<file application.octet-stream>",
    )


async def test_photo_sizes_are_telegrams(server: FakeTelegram, bot: Bot) -> None:
    big = png(1000, 500)
    sent = await bot.send_photo(ANNA, big)
    assert [(s.width, s.height) for s in sent.photo] == [
        (90, 45),
        (320, 160),
        (800, 400),
        (1000, 500),
    ]
    assert len({s.file_id for s in sent.photo}) == len({s.file_unique_id for s in sent.photo}) == 4
    assert all(s.file_id.startswith("AgAC") and s.file_size == len(big) for s in sent.photo)
    assert sent.caption is None
    assert server.transcript(ANNA) == ["@koloda_test_bot: [photo 1000x500]"]
    assert photo_size_boxes(3000, 1500)[-1] == ("w", 2560, 1280)
    assert photo_size_boxes(60, 40) == [("s", 60, 40)]


async def test_a_photo_is_sent_again_by_file_id(server: FakeTelegram, bot: Bot) -> None:
    first = await bot.send_photo(ANNA, RED)
    again = await bot.send_photo(GROUP, first.photo[-1].file_id, caption="again")
    assert [s.file_id for s in again.photo] == [s.file_id for s in first.photo]
    assert shown(server, GROUP, again.message_id).photo_bytes == RED
    with pytest.raises(BadRequest, match="Wrong file identifier/http url specified"):
        await bot.send_photo(ANNA, "AgACAgIAAxkDAAIBnope")
    assert last_error(server, "sendPhoto") == (
        "Bad Request: wrong file identifier/HTTP URL specified"
    )


async def test_a_photo_keeps_the_topic_and_the_reply(server: FakeTelegram, bot: Bot) -> None:
    forum = server.add_group(-1002, "Tables", forum=True, creator=ANNA)
    topic = server.create_topic(forum.id, "Daytona")
    asked = server.send(BORIS, forum.id, "/track", thread_id=topic)
    sent = await bot.send_photo(
        forum.id,
        RED,
        message_thread_id=topic,
        reply_parameters=ReplyParameters(asked["message_id"]),
    )
    assert (sent.message_thread_id, sent.is_topic_message) == (topic, True)
    assert sent.reply_to_message is not None
    assert sent.reply_to_message.text == "/track"
    message = shown(server, forum.id, sent.message_id)
    assert (message.thread_id, message.reply_to_message_id) == (topic, asked["message_id"])
    assert server.transcript(forum.id, thread_id=topic)[-1] == "@koloda_test_bot: [photo 8x6]"
    with pytest.raises(BadRequest, match="Message thread not found"):
        await bot.send_photo(forum.id, RED, message_thread_id=9999)


async def test_a_jpeg_is_measured_from_its_frame_header(server: FakeTelegram, bot: Bot) -> None:
    sent = await bot.send_photo(ANNA, jpeg_header(640, 480))
    assert (sent.photo[-1].width, sent.photo[-1].height) == (640, 480)
    file = await bot.get_file(sent.photo[-1].file_id)
    assert file.file_path is not None
    assert file.file_path.endswith(".jpg")


# --------------------------------------------------------------------- refusals when sending


async def test_what_is_not_a_picture_is_refused(server: FakeTelegram, bot: Bot) -> None:
    for garbage in (b"GIF89a not really", b"", RED[:-12], RED.replace(b"IDAT", b"IDAX")):
        with pytest.raises(BadRequest, match="Image_process_failed"):
            await bot.send_photo(ANNA, garbage or b"\x00")
        assert last_error(server, "sendPhoto") == "Bad Request: IMAGE_PROCESS_FAILED"
    with pytest.raises(BadRequest, match="Image_process_failed"):
        await bot.send_photo(ANNA, jpeg_header(640, 480)[:20])
    for width, height in ((1, 21), (9000, 1001)):  # a ratio over 20, sides over 10000 in sum
        with pytest.raises(BadRequest, match="Photo_invalid_dimensions"):
            await bot.send_photo(ANNA, png_chunks(width, height, zlib.compress(b"")))
    assert image_info(png(1, 20)).width == 1
    with pytest.raises(BadRequest, match="Photo_save_file_invalid"):
        await bot.send_photo(ANNA, png_chunks(10, 10, b"\x00" * (10 * 1024 * 1024)))
    assert server.chat_messages(ANNA) == []


async def test_caption_limit_counts_the_text_after_entities(server: FakeTelegram, bot: Bot) -> None:
    with pytest.raises(BadRequest, match="Message caption is too long"):
        await bot.send_photo(ANNA, RED, caption="x" * 1025)
    assert last_error(server, "sendPhoto") == "Bad Request: message caption is too long"
    sent = await bot.send_photo(
        ANNA, RED, caption="<i>" + "&lt;" * 1024 + "</i>", parse_mode="HTML"
    )
    assert sent.caption == "<" * 1024
    with pytest.raises(BadRequest, match="Can't parse entities"):
        await bot.send_photo(ANNA, RED, caption="<b>open", parse_mode="HTML")
    italic = await bot.send_photo(
        ANNA,
        sent.photo[-1].file_id,
        caption="Ход",
        caption_entities=[MessageEntity("italic", 0, 3)],
    )
    assert shown(server, ANNA, italic.message_id).caption_entities == [
        {"type": "italic", "offset": 0, "length": 3}
    ]


async def test_send_photo_without_a_photo(server: FakeTelegram) -> None:
    async with aiohttp.ClientSession() as http:
        url = f"{server.base_url}{TOKEN}/sendPhoto"
        async with http.post(url, json={"chat_id": ANNA, "caption": "x"}) as r:
            assert (r.status, (await r.json())["description"]) == (
                400,
                "Bad Request: there is no photo in the request",
            )
        form = aiohttp.FormData({"chat_id": str(ANNA), "photo": "attach://pic"})
        form.add_field("pic", RED, filename="track.png", content_type="image/png")
        async with http.post(url, data=form) as r:  # attach:// works in sendPhoto too
            assert r.status == 200
            assert (await r.json())["result"]["photo"][-1]["width"] == 8


# --------------------------------------------------------------------- editing


async def test_edit_media_caption_and_markup(server: FakeTelegram, bot: Bot) -> None:
    sent = await bot.send_photo(GROUP, RED, caption="lap 1", reply_markup=keyboard("Go"))
    first_id = sent.photo[-1].file_id

    edited = await bot.edit_message_media(
        InputMediaPhoto(BLUE, caption="<b>lap 2</b>", parse_mode="HTML"),
        GROUP,
        sent.message_id,
        reply_markup=keyboard("Go"),
    )
    assert isinstance(edited, Message)
    assert edited.photo[-1].file_id != first_id
    assert edited.caption == "lap 2"
    message = shown(server, GROUP, sent.message_id)
    assert message.photo_bytes == BLUE
    assert [p.data for p in message.photo_history] == [RED, BLUE]
    assert message.caption_history == ["lap 1", "lap 2"]
    assert message.caption_entities == [{"type": "bold", "offset": 0, "length": 5}]
    assert (message.edit_count, message.rows) == (1, [[("Go", "Go")]])
    media_call = server.calls_to("editMessageMedia")[0]
    assert media_call.params["media"]["media"].startswith("attach://")

    await bot.edit_message_caption(GROUP, sent.message_id, caption="lap 2, boxes")
    message = shown(server, GROUP, sent.message_id)
    assert (message.caption, message.caption_entities, message.buttons) == ("lap 2, boxes", [], [])
    assert message.photo_bytes == BLUE  # the caption edit keeps the picture

    await bot.edit_message_reply_markup(GROUP, sent.message_id, reply_markup=keyboard("Stop"))
    message = shown(server, GROUP, sent.message_id)
    assert (message.rows, message.caption, message.edit_count) == (
        [[("Stop", "Stop")]],
        "lap 2, boxes",
        3,
    )
    assert server.transcript(GROUP) == ["@koloda_test_bot: [photo 8x6] lap 2, boxes ['Stop']"]

    # media given by file_id: an earlier picture comes back, caption and keyboard as given
    back = await bot.edit_message_media(InputMediaPhoto(first_id), GROUP, sent.message_id)
    assert isinstance(back, Message)
    assert back.photo[-1].file_id == first_id
    assert back.caption is None
    assert back.reply_markup is None
    message = shown(server, GROUP, sent.message_id)
    assert (message.photo_bytes, message.caption) == (RED, "")


async def test_not_modified_edits_of_a_photo(server: FakeTelegram, bot: Bot) -> None:
    markup = keyboard("Go")
    sent = await bot.send_photo(
        ANNA, RED, caption="<i>x</i>", parse_mode="HTML", reply_markup=markup
    )
    file_id = sent.photo[-1].file_id
    with pytest.raises(BadRequest, match=r"^Message is not modified"):
        await bot.edit_message_caption(ANNA, sent.message_id, caption="<em>x</em>",
                                       parse_mode="HTML", reply_markup=markup)  # fmt: skip
    with pytest.raises(BadRequest, match=r"^Message is not modified"):
        await bot.edit_message_media(
            InputMediaPhoto(file_id, caption="<i>x</i>", parse_mode="HTML"),
            ANNA,
            sent.message_id,
            reply_markup=markup,
        )
    with pytest.raises(BadRequest, match=r"^Message is not modified"):
        await bot.edit_message_reply_markup(ANNA, sent.message_id, reply_markup=markup)
    assert last_error(server, "editMessageReplyMarkup") == (
        "Bad Request: message is not modified: specified new message content and reply markup "
        "are exactly the same as a current content and reply markup of the message"
    )
    # a fresh upload of the very same bytes is a new file: a change
    await bot.edit_message_media(
        InputMediaPhoto(RED, caption="<i>x</i>", parse_mode="HTML"),
        ANNA,
        sent.message_id,
        reply_markup=markup,
    )
    message = shown(server, ANNA, sent.message_id)
    assert message.photo is not None
    assert message.photo.file_id != file_id
    assert (message.edit_count, message.photo_bytes) == (1, RED)
    # the same file_id with another caption is a change too
    await bot.edit_message_media(InputMediaPhoto(message.photo.file_id, caption="y"), ANNA,
                                 sent.message_id, reply_markup=markup)  # fmt: skip
    assert shown(server, ANNA, sent.message_id).caption == "y"


async def test_edits_that_do_not_fit_the_message(server: FakeTelegram, bot: Bot) -> None:
    photo = await bot.send_photo(ANNA, RED, caption="track")
    text = await bot.send_message(ANNA, "score")
    with pytest.raises(BadRequest, match="There is no text in the message to edit"):
        await bot.edit_message_text("new", ANNA, photo.message_id)
    assert last_error(server, "editMessageText") == (
        "Bad Request: there is no text in the message to edit"
    )
    with pytest.raises(BadRequest, match="There is no caption in the message to edit"):
        await bot.edit_message_caption(ANNA, text.message_id, caption="new")
    assert last_error(server, "editMessageCaption") == (
        "Bad Request: there is no caption in the message to edit"
    )
    with pytest.raises(BadRequest, match="There is no media in the message to edit"):
        await bot.edit_message_media(InputMediaPhoto(BLUE), ANNA, text.message_id)
    assert last_error(server, "editMessageMedia") == (
        "Bad Request: there is no media in the message to edit"
    )
    with pytest.raises(BadRequest, match="Message caption is too long"):
        await bot.edit_message_caption(ANNA, photo.message_id, caption="y" * 1025)
    with pytest.raises(BadRequest, match="Message caption is too long"):
        await bot.edit_message_media(InputMediaPhoto(BLUE, caption="y" * 1025), ANNA,
                                     photo.message_id)  # fmt: skip
    with pytest.raises(BadRequest, match="Image_process_failed"):
        await bot.edit_message_media(InputMediaPhoto(b"<html>"), ANNA, photo.message_id)
    with pytest.raises(BadRequest, match="Message to edit not found"):
        await bot.edit_message_caption(ANNA, 999, caption="x")
    message = shown(server, ANNA, photo.message_id)
    assert (message.caption, message.photo_bytes, message.edit_count) == ("track", RED, 0)
    assert shown(server, ANNA, text.message_id).text == "score"


async def test_edit_media_refusals_in_telegrams_words(server: FakeTelegram, bot: Bot) -> None:
    photo = await bot.send_photo(ANNA, RED)
    async with aiohttp.ClientSession() as http:
        url = f"{server.base_url}{TOKEN}/editMessageMedia"

        async def refusal(media: object, **parts: bytes) -> str:
            form = aiohttp.FormData({"chat_id": str(ANNA), "message_id": str(photo.message_id)})
            if media is not None:
                form.add_field("media", media if isinstance(media, str) else json.dumps(media))
            for name, data in parts.items():
                form.add_field(name, data, filename=f"{name}.png")
            async with http.post(url, data=form) as r:
                assert r.status == 400
                description: str = (await r.json())["description"]
                return description

        assert await refusal(None, x=BLUE) == 'Bad Request: parameter "media" is required'
        assert await refusal("{oops") == "Bad Request: can't parse input media JSON object"
        assert await refusal([1]) == "Bad Request: can't parse InputMedia: expected an Object"
        assert await refusal({"type": "photo", "media": "attach://gone"}, x=BLUE) == (
            "Bad Request: can't parse InputMedia: media not found"
        )
        assert await refusal({"media": "attach://x"}, x=BLUE) == (
            "Bad Request: can't parse InputMedia: Can't find field \"type\""
        )
        assert await refusal({"type": "sticker", "media": "attach://x"}, x=BLUE) == (
            'Bad Request: can\'t parse InputMedia: type "sticker" is unsupported'
        )
        assert await refusal({"type": "video", "media": "attach://x"}, x=BLUE) == (
            'Bad Request: media of type "video" is not supported by the fake server'
        )
        bad_html = {"type": "photo", "media": "attach://x", "caption": "<b>", "parse_mode": "HTML"}
        assert await refusal(bad_html, x=BLUE) == (
            "Bad Request: can't parse InputMedia: Can't parse entities: "
            'Can\'t find end tag corresponding to start tag "b"'
        )
    assert shown(server, ANNA, photo.message_id).edit_count == 0


async def test_photo_messages_are_deleted_like_texts(server: FakeTelegram, bot: Bot) -> None:
    sent = await bot.send_photo(GROUP, RED, caption="gone soon")
    assert await bot.delete_message(GROUP, sent.message_id)
    with pytest.raises(BadRequest, match="Message to edit not found"):
        await bot.edit_message_caption(GROUP, sent.message_id, caption="x")
    assert server.chat_messages(GROUP)[0].deleted
    assert server.transcript(GROUP) == ["@koloda_test_bot: [photo 8x6] gone soon [deleted]"]


# --------------------------------------------------------------------- files


async def test_get_file_and_download_return_the_uploaded_bytes(
    server: FakeTelegram, bot: Bot
) -> None:
    sent = await bot.send_photo(ANNA, RED)
    largest = sent.photo[-1]
    file = await bot.get_file(largest.file_id)
    assert (file.file_id, file.file_unique_id, file.file_size) == (
        largest.file_id,
        largest.file_unique_id,
        len(RED),
    )
    assert bytes(await file.download_as_bytearray()) == RED
    url = server.file_url(largest.file_id)
    assert file.file_path == url  # PTB puts base_file_url and the token in front
    async with aiohttp.ClientSession() as http:
        async with http.get(url) as r:
            assert (r.status, r.content_type, await r.read()) == (200, "image/png", RED)
        async with http.get(url.replace("/file_", "/nofile_")) as r:
            assert (r.status, (await r.json())["description"]) == (404, "Not Found")
        async with http.get(url.replace(TOKEN, "123456:wrong")) as r:
            assert r.status == 401
    with pytest.raises(BadRequest, match="Invalid file_id"):
        await bot.get_file("AgACAgIAAxkDAAIBnope")
    assert last_error(server, "getFile") == "Bad Request: invalid file_id"
    with pytest.raises(LookupError):
        server.file_url("nope")


# --------------------------------------------------------------------- with a polling bot


async def test_a_button_under_a_picture_redraws_it(server: FakeTelegram) -> None:
    async def on_press(update: Update, context: Context) -> None:
        query = update.callback_query
        assert query is not None
        assert isinstance(query.message, Message)
        assert query.message.photo
        turn = int(query.data or "0") + 1
        picture = png(8, 6, (turn * 40, 0, 0))
        await query.answer()
        await query.edit_message_media(
            InputMediaPhoto(picture, caption=f"turn {turn}"), reply_markup=keyboard(str(turn))
        )

    app = application_builder(server).build()
    app.add_handler(CallbackQueryHandler(on_press))
    async with polling(app):
        sent = await app.bot.send_photo(GROUP, RED, caption="turn 0", reply_markup=keyboard("0"))
        for turn in range(3):
            query_id = server.press(BORIS, GROUP, sent.message_id, str(turn))
            await server.answered(query_id, timeout=5)

            def redrawn(turn: int = turn) -> bool:
                return shown(server, GROUP, sent.message_id).edit_count == turn + 1

            await server.wait_for(redrawn, timeout=5)
    message = shown(server, GROUP, sent.message_id)
    assert message.caption_history == ["turn 0", "turn 1", "turn 2", "turn 3"]
    assert len({p.file_id for p in message.photo_history}) == 4
    assert message.photo_bytes == png(8, 6, (120, 0, 0))
