"""The one error handler: log without secrets, tell the user something broke."""

from __future__ import annotations

import logging

from telegram import Update
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from handlers.context import koloda, language_for
from i18n import t

__all__ = ["on_error"]

log = logging.getLogger(__name__)


async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    log.error("error while handling an update", exc_info=context.error)
    if not isinstance(update, Update):
        return
    try:
        lang = await language_for(koloda(context), update)
        text = t(lang, "error.internal")
        if update.callback_query is not None:
            await update.callback_query.answer(text, show_alert=True)
        elif update.effective_message is not None:
            message = update.effective_message
            await koloda(context).publisher.io.send(
                message.chat.id, text, thread_id=message.message_thread_id or 0
            )
    except (TelegramError, KeyError, RuntimeError):
        log.warning("could not tell the user about the error", exc_info=True)
