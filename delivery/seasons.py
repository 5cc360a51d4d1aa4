"""A season's end, told to its chat once: the final standings and the
champions, and where the bot is an administrator with the right to manage
member tags, the champions tagged for the next season (last season's
champions who did not win again lose the tag).

The loop wakes at each month's start on the bot's clock (and at the start
after a restart, which tells any season that ended while the bot was down).
A season is marked told once its post went out or cannot go out (the bot
left the chat); a flood wait or a network failure leaves it for the next try.
With several workers, the worker holding the chat tells it (a chat nobody
holds is taken first).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

from telegram import ChatMemberAdministrator
from telegram.error import TelegramError

from delivery.group_window import GroupWindow
from delivery.telegram_io import Delivery, TelegramIO
from games.spec import GameSpec
from i18n import t
from screens import ratings
from services import Services
from services.ratings import SeasonEnd, next_season_start

__all__ = ["SeasonHerald"]

log = logging.getLogger(__name__)

RETRY_SECONDS = 60.0
"""A season end that could not be posted is tried again after this long."""


class SeasonHerald:
    def __init__(
        self,
        io: TelegramIO,
        pacer: GroupWindow,
        services: Services,
        specs: Mapping[str, GameSpec],
    ) -> None:
        self._io = io
        self._pacer = pacer
        self._services = services
        self._specs = specs

    def start(self) -> None:
        self._services.background.spawn(self._run(), "seasons")

    async def _run(self) -> None:
        clock = self._services.clock
        while True:
            try:
                told = await self.tell()
            except Exception:
                log.exception("telling the season ends failed")
                told = False
            now = clock.now()
            wait = next_season_start(now) - now if told else RETRY_SECONDS
            await self._services.background.wait(clock.sleep(wait))

    async def tell(self) -> bool:
        """Post every ended season not told yet; False if one must wait."""
        for ended in await self._services.ratings.seasons_ended():
            if not await self._services.take(ended.chat_id):
                continue  # another worker holds the chat, and tells it
            lang = await self._services.directory.chat_language(ended.chat_id)
            text = ratings.season_text(lang, ended, self._specs)
            async with self._pacer.slot(ended.chat_id):  # within the group's budget, games or not
                sent = await self._io.send(ended.chat_id, text)
            if sent.delivery is Delivery.RETRY:
                return False
            await self._services.ratings.season_told(ended.chat_id, ended.season)
            if sent.ok:
                await self._tag(lang, ended)
        return True

    async def _tag(self, lang: str, ended: SeasonEnd) -> None:
        bot = self._io.bot
        try:
            me = await bot.get_chat_member(ended.chat_id, bot.id)
            if not (isinstance(me, ChatMemberAdministrator) and me.can_manage_tags):
                return
            champions = {line.who for _, line in ended.champions if line.level is None}
            before = await self._services.ratings.champions_before(ended.chat_id, ended.season)
            for who in sorted(before - champions):
                await bot.set_chat_member_tag(ended.chat_id, int(who[1:]), "")
            tag = t(lang, "rating.champion_tag")
            for who in sorted(champions):
                await bot.set_chat_member_tag(ended.chat_id, int(who[1:]), tag)
        except TelegramError as exc:
            # An admin or the group's owner cannot be tagged; a right taken
            # away since: the post said it all the same.
            log.info("no champion tag in chat %s: %s", ended.chat_id, exc)
