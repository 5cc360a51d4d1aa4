"""Chats changing under us: group upgrades, the bot added to or removed from a
group, users blocking or unblocking it."""

from __future__ import annotations

import logging

from telegram import Chat, ChatMember, Update

from handlers.context import KolodaContext, chat_info

__all__ = ["on_migrate", "on_my_chat_member"]

log = logging.getLogger(__name__)

GONE = (ChatMember.BANNED, ChatMember.LEFT)


async def on_migrate(update: Update, context: KolodaContext) -> None:
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
    if await context.koloda.services.directory.migrate_chat(old, new):
        log.info("moved chat %s to supergroup %s", old, new)


async def on_my_chat_member(update: Update, context: KolodaContext) -> None:
    """In a private chat the user blocked (or unblocked) the bot; from a group
    the bot was removed, which ends that group's tables; in a group the bot was
    made an administrator or stopped being one (an administrator may bring a
    player his hand in the group when his turn comes)."""
    change = update.my_chat_member
    if change is None:
        return
    app = context.koloda
    gone = change.new_chat_member.status in GONE
    if change.chat.type == Chat.PRIVATE:
        await app.services.directory.set_dm_ok(change.chat.id, not gone)
        if not gone:
            await app.publisher.welcome_back(change.chat.id)
    elif gone:
        closed = await app.services.moderation.bot_removed(change.chat.id)
        if closed:
            log.info("removed from chat %s: %d tables ended", change.chat.id, len(closed))
    else:
        admin = change.new_chat_member.status == ChatMember.ADMINISTRATOR
        await app.services.directory.set_bot_admin(chat_info(change.chat), admin)
