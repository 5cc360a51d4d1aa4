"""A fake Telegram Bot API server for end-to-end tests of the bot.

The real bot (python-telegram-bot) talks to it over HTTP on 127.0.0.1; tests act as users
(``send``, ``start_bot``, ``press``...) and read what the bot did (``chat_messages``,
``callback_answer``, ``calls``). Modules: ``world`` (state and user actions), ``api`` (Bot API
methods), ``server`` (HTTP, long polling, waiting), ``formatting`` (HTML parse_mode),
``keyboard`` (reply_markup), ``params`` (request decoding), ``models``, ``errors``,
``ptb`` (running a python-telegram-bot Application against it).
"""

from .errors import ApiError
from .keyboard import Button
from .models import ApiCall, FakeChat, FakeUser, SentMessage
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
    "SentMessage",
    "TelegramWorld",
    "application_builder",
    "polling",
]
