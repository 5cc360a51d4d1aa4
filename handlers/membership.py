"""Chats changing under us: group upgrades, users blocking or unblocking the bot."""

from __future__ import annotations

import logging

from telegram import ChatMember, Update
from telegram.ext import ContextTypes

from handlers.context import koloda

__all__ = ["on_migrate", "on_my_chat_member"]

log = logging.getLogger(__name__)


async def on_migrate(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A group became a supergroup: its tables and scores move with it."""
    message = update.effective_message
    if message is None:
        return
    if message.migrate_to_chat_id:
        old, new = message.chat.id, message.migrate_to_chat_id
    elif message.migrate_from_chat_id:
        old, new = message.migrate_from_chat_id, message.chat.id
    else:
        return
    if await koloda(context).services.directory.migrate_chat(old, new):
        log.info("moved chat %s to supergroup %s", old, new)


async def on_my_chat_member(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """In a private chat: the user blocked (kicked) or unblocked the bot."""
    change = update.my_chat_member
    if change is None or change.chat.type != "private":
        return
    app = koloda(context)
    status = change.new_chat_member.status
    ok = status not in (ChatMember.BANNED, ChatMember.LEFT)
    await app.services.directory.set_dm_ok(change.chat.id, ok)
    if ok:
        await app.publisher.welcome_back(change.chat.id)
