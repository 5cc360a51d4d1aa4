"""Whether the bot may send a player his hand in the group unasked: an
administrator of the group may send an ephemeral message at any time, any other
bot only in answer to a press a few seconds old.

The group's my_chat_member updates say when the bot becomes an administrator or
stops being one (``handlers.membership``).  A group that never said (the bot
made an administrator before Koloda kept it, or an update that never came) is
asked of Telegram once, at the first hand that would go there unasked, and the
answer is kept like an update's."""

from __future__ import annotations

import asyncio

from delivery.telegram_io import TelegramIO
from services import Services

__all__ = ["ASK_AGAIN", "BotStatus"]

ASK_AGAIN = 60.0
"""Seconds before a group Telegram did not answer for is asked again."""


class BotStatus:
    def __init__(self, io: TelegramIO, services: Services) -> None:
        self._io = io
        self._services = services
        self._asking: dict[int, asyncio.Lock] = {}
        self._not_before: dict[int, float] = {}

    async def admin(self, chat_id: int) -> bool:
        """Whether the bot is an administrator of the group (False while
        Telegram cannot say)."""
        directory = self._services.directory
        known = await directory.bot_admin(chat_id)
        if known is not None:
            return known
        async with self._asking.setdefault(chat_id, asyncio.Lock()):
            known = await directory.bot_admin(chat_id)  # asked while this one waited
            if known is not None:
                return known
            now = self._services.clock.now()
            if now < self._not_before.get(chat_id, 0.0):
                return False
            asked = await self._io.bot_is_admin(chat_id)
            if asked is None:
                self._not_before[chat_id] = now + ASK_AGAIN
                return False
            await directory.bot_admin_asked(chat_id, asked)
        self._asking.pop(chat_id, None)
        self._not_before.pop(chat_id, None)
        return asked
