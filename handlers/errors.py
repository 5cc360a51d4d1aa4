"""The one error handler: log without secrets, tell the user something broke."""

from __future__ import annotations

import logging

from telegram import Update
from telegram.error import TelegramError

from handlers.context import KolodaContext, language_for, presser_language, reply
from i18n import t

__all__ = ["on_error"]

log = logging.getLogger(__name__)


async def on_error(update: object, context: KolodaContext) -> None:
    log.error("error while handling an update", exc_info=context.error)
    if not isinstance(update, Update):
        return
    try:
        app = context.koloda
        query = update.callback_query
        if query is not None:  # a toast speaks the presser's own language
            lang = await presser_language(app, query.from_user)
            await query.answer(t(lang, "error.internal"), show_alert=True)
        elif update.effective_message is not None:
            await reply(app, update, t(await language_for(app, update), "error.internal"))
    except (TelegramError, KeyError, RuntimeError):
        log.warning("could not tell the user about the error", exc_info=True)
