"""A stand-in for the Telegram Bot API: the playground runs the bot on it, and
the end-to-end tests do too.

The real bot (python-telegram-bot) talks to it over HTTP on 127.0.0.1, or in the same
process through ``direct``; people (the playground's page, or tests) act as users
(``send``, ``start_bot``, ``press``...) and read what the bot did (``chat_messages``,
``callback_answer``, ``calls``). Modules: ``world`` (state and user actions), ``api`` (Bot API
methods), ``server`` (HTTP, long polling or posts to the webhook, waiting, file downloads),
``balancer`` (a round-robin load balancer in front of several workers' webhooks),
``formatting`` (HTML parse_mode), ``keyboard`` (reply_markup), ``media`` (photo uploads),
``params`` (request decoding), ``models``, ``errors``, ``ptb`` (running a python-telegram-bot
Application against it), ``direct`` (a bot's requests handed to it in the same process, without
HTTP: the end-to-end tests' way).

Photos the bot sends are ``SentMessage``s of ``kind == "photo"`` with ``photo_bytes``,
``width``, ``height`` and ``caption``; ``server.file_url(file_id)`` is where a picture downloads.

    async with FakeTelegram() as server:  # 127.0.0.1, a free port
        server.add_user(101, "Anna", started=True)
        server.add_group(-1001, "Durak night", creator=101)
        app = application_builder(server).build()  # token, base_url, base_file_url set
        app.add_handler(...)
        async with polling(app):  # initialize, start, start_polling ... and back
            server.send(101, -1001, "/newgame")
            await server.wait_idle()
        assert "Durak" in server.last_bot_message(-1001).text

Everything runs in the test's event loop; a bot in a subprocess works as well (pass
``server.base_url`` as its API base URL). The server keeps no state between instances.
"""

from .balancer import RoundRobin
from .errors import ApiError
from .faults import Fault, Storm
from .keyboard import Button
from .models import ApiCall, FakeChat, FakeUser, Photo, SentMessage, StoredFile, WebhookPost
from .ptb import application_builder, polling
from .server import FakeTelegram
from .world import TelegramWorld

__all__ = [
    "ApiCall",
    "ApiError",
    "Button",
    "FakeChat",
    "FakeTelegram",
    "FakeUser",
    "Fault",
    "Photo",
    "RoundRobin",
    "SentMessage",
    "StoredFile",
    "Storm",
    "TelegramWorld",
    "WebhookPost",
    "application_builder",
    "polling",
]
