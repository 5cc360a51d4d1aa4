"""Sending, editing and deleting messages the way Telegram really behaves.

* "message is not modified" is success;
* a message that is gone is reported, so the caller can send a new one;
* 403 (never started / blocked) marks the user's DM as not working;
* a group upgraded to a supergroup moves its tables and is retried there;
* flood limits are left to PTB's ``AIORateLimiter`` (it retries ``RetryAfter``);
* network failures are logged: every table is re-rendered on the next change
  or restart, so nothing is lost by giving up on one message.
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Sequence

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, LinkPreviewOptions
from telegram.error import BadRequest, ChatMigrated, Forbidden, NetworkError, TelegramError

from handlers import callback_data as cd
from handlers.render.base import Key
from services import Services

__all__ = ["Outcome", "TelegramIO", "keyboard"]

log = logging.getLogger(__name__)
NO_PREVIEW = LinkPreviewOptions(is_disabled=True)
MAX_TEXT = 4096


class Outcome(enum.Enum):
    OK = "ok"
    GONE = "gone"  # the message (or chat) no longer exists
    FORBIDDEN = "forbidden"  # the user has not started or has blocked the bot
    FAILED = "failed"


def keyboard(
    rows: Sequence[Sequence[Key]], table_id: int, version: int, *, group: bool = False
) -> InlineKeyboardMarkup | None:
    """Turn a renderer's keys into buttons carrying table id and version."""
    out: list[list[InlineKeyboardButton]] = []
    for row in rows:
        buttons = []
        for key in row:
            if key.action is not None:
                data = cd.pack(cd.MoveButton(table_id, version, key.action, group=group))
            else:
                data = cd.pack(cd.MenuButton(table_id, version, key.focus or "back"))
            buttons.append(InlineKeyboardButton(key.label, callback_data=data))
        if buttons:
            out.append(buttons)
    return InlineKeyboardMarkup(out) if out else None


def _clip(text: str) -> str:
    if len(text) <= MAX_TEXT:
        return text
    # Our texts are built from short lines; cut at a line boundary so no HTML
    # tag is split, and say that something was cut.
    cut = text[: MAX_TEXT - 2].rsplit("\n", 1)[0]
    return cut + "\n…"


class TelegramIO:
    def __init__(self, bot: Bot, services: Services) -> None:
        self.bot = bot
        self._services = services

    async def send(
        self,
        chat_id: int,
        text: str,
        markup: InlineKeyboardMarkup | None = None,
        *,
        thread_id: int = 0,
        notify: bool = True,
    ) -> tuple[Outcome, int | None]:
        """Send a message; returns the outcome and the new message id."""
        for _ in range(2):
            try:
                message = await self.bot.send_message(
                    chat_id,
                    _clip(text),
                    parse_mode="HTML",
                    reply_markup=markup,
                    message_thread_id=thread_id or None,
                    link_preview_options=NO_PREVIEW,
                    disable_notification=not notify,
                )
            except ChatMigrated as exc:
                chat_id = await self._migrated(chat_id, exc.new_chat_id)
                continue
            except Forbidden:
                await self._forbidden(chat_id)
                return Outcome.FORBIDDEN, None
            except BadRequest as exc:
                log.warning("sendMessage to %s refused: %s", chat_id, exc.message)
                return Outcome.GONE, None
            except (NetworkError, TelegramError) as exc:
                log.warning("sendMessage to %s failed: %s", chat_id, exc)
                return Outcome.FAILED, None
            return Outcome.OK, message.message_id
        return Outcome.FAILED, None

    async def edit(
        self,
        chat_id: int,
        message_id: int,
        text: str,
        markup: InlineKeyboardMarkup | None = None,
    ) -> Outcome:
        for _ in range(2):
            try:
                await self.bot.edit_message_text(
                    _clip(text),
                    chat_id=chat_id,
                    message_id=message_id,
                    parse_mode="HTML",
                    reply_markup=markup,
                    link_preview_options=NO_PREVIEW,
                )
            except ChatMigrated as exc:
                chat_id = await self._migrated(chat_id, exc.new_chat_id)
                continue
            except Forbidden:
                await self._forbidden(chat_id)
                return Outcome.FORBIDDEN
            except BadRequest as exc:
                if "not modified" in exc.message.lower():
                    return Outcome.OK
                log.info("editMessageText %s/%s refused: %s", chat_id, message_id, exc.message)
                return Outcome.GONE
            except (NetworkError, TelegramError) as exc:
                log.warning("editMessageText %s/%s failed: %s", chat_id, message_id, exc)
                return Outcome.FAILED
            return Outcome.OK
        return Outcome.FAILED

    async def delete(self, chat_id: int, message_id: int) -> Outcome:
        try:
            await self.bot.delete_message(chat_id, message_id)
        except Forbidden:
            return Outcome.FORBIDDEN
        except BadRequest:
            return Outcome.GONE
        except (NetworkError, TelegramError) as exc:
            log.warning("deleteMessage %s/%s failed: %s", chat_id, message_id, exc)
            return Outcome.FAILED
        return Outcome.OK

    async def _forbidden(self, chat_id: int) -> None:
        if chat_id > 0:  # a private chat: its id is the user's id
            await self._services.directory.set_dm_ok(chat_id, False)

    async def _migrated(self, old_id: int, new_id: int) -> int:
        log.info("chat %s migrated to %s", old_id, new_id)
        await self._services.directory.migrate_chat(old_id, new_id)
        return new_id
