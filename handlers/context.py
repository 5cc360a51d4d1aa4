"""What every handler reaches: the services, the publisher and the games' screens,
through the context PTB hands it."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from telegram import Chat, Update, User
from telegram.ext import CallbackContext, ExtBot

from delivery.keyboards import Keyboard
from delivery.publisher import Publisher
from games.spec import GameSpec
from i18n import from_telegram, normalize
from screens.base import GameScreens
from services import ChatInfo, Person, Services

__all__ = [
    "KEY",
    "Koloda",
    "KolodaContext",
    "chat_info",
    "language_for",
    "person",
    "presser_language",
    "reply",
    "sender",
    "thread_of",
]

KEY = "koloda"


@dataclass
class Koloda:
    services: Services
    publisher: Publisher
    games: Mapping[str, GameSpec]
    screens: Mapping[str, GameScreens[Any, Any]]
    resumed: asyncio.Event = field(default_factory=asyncio.Event)
    """Set once the tables were taken up again after the start."""


class KolodaContext(CallbackContext[ExtBot[None], dict[Any, Any], dict[Any, Any], dict[Any, Any]]):
    """The context of every update and job (``ContextTypes(context=...)`` in
    ``bot/app.py``): the bot's parts, typed."""

    @property
    def koloda(self) -> Koloda:
        app = self.bot_data.get(KEY)
        if not isinstance(app, Koloda):
            raise RuntimeError("an update before the application's post_init wired the bot")
        return app


def sender(update: Update) -> tuple[User, Chat]:
    """Who sent an update and where (every command handler has both)."""
    user, chat = update.effective_user, update.effective_chat
    if user is None or chat is None:
        raise RuntimeError("a command update without a user or chat")
    return user, chat


def person(user: User) -> Person:
    name = user.first_name or user.username or str(user.id)
    return Person(user.id, name, user.username, from_telegram(user.language_code))


def chat_info(chat: Chat) -> ChatInfo:
    return ChatInfo(chat.id, chat.type, chat.title)


def thread_of(update: Update) -> int:
    """The forum topic a message belongs to (0 outside forum topics)."""
    message = update.effective_message
    if message is not None and message.is_topic_message and message.message_thread_id:
        return message.message_thread_id
    return 0


async def reply(app: Koloda, update: Update, text: str, markup: Keyboard | None = None) -> None:
    """Answer in the chat (and topic) the update came from: in a group in
    its turn within the group's budget, in a private chat at once."""
    _, chat = sender(update)
    if chat.type == Chat.PRIVATE:
        await app.publisher.io.send(chat.id, text, markup)
    else:
        app.publisher.say(chat.id, text, markup, thread_id=thread_of(update))


async def language_for(app: Koloda, update: Update) -> str:
    chat = update.effective_chat
    user = update.effective_user
    if chat is not None and chat.type != Chat.PRIVATE:
        return await app.services.directory.chat_language(chat.id)
    if user is not None:
        return normalize(await app.services.directory.user_language(user.id))
    return app.services.directory.default_language


async def presser_language(app: Koloda, user: User) -> str:
    """The language a person reads his own answers in (a button's toast, also
    in a group of another language): his DM's, which is his choice there, else
    his Telegram app's."""
    return normalize(await app.services.directory.user_language(user.id))
