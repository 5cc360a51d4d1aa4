"""The composition root: builds the PTB Application with every service wired in."""

from __future__ import annotations

import logging

from telegram import BotCommand, BotCommandScopeDefault
from telegram.ext import (
    AIORateLimiter,
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

from bot.config import Config
from handlers import membership
from handlers.callbacks import on_callback
from handlers.commands import COMMANDS, unknown
from handlers.context import KEY, Koloda
from handlers.errors import on_error
from handlers.publisher import GroupPacer, Publisher
from handlers.telegram_io import TelegramIO
from i18n import LANGUAGES, t
from services import Services
from storage import Database

__all__ = ["build_application"]

log = logging.getLogger(__name__)


def build_application(config: Config) -> Application:  # type: ignore[type-arg]
    async def post_init(app: Application) -> None:  # type: ignore[type-arg]
        db = await Database.open(config.database_path)
        services = Services.create(db, config.default_language)
        io = TelegramIO(app.bot, services)
        publisher = Publisher(
            io, services, GroupPacer(config.group_edits_per_minute), app.bot.username
        )
        app.bot_data[KEY] = Koloda(services, publisher)
        await _register_commands(app)
        # The job queue starts with the application, right after this hook.
        assert app.job_queue is not None
        app.job_queue.run_once(_resume, when=0, name="resume-tables")

    async def post_stop(app: Application) -> None:  # type: ignore[type-arg]
        koloda = app.bot_data.get(KEY)
        if isinstance(koloda, Koloda):
            await koloda.publisher.close()

    async def post_shutdown(app: Application) -> None:  # type: ignore[type-arg]
        koloda = app.bot_data.pop(KEY, None)
        if isinstance(koloda, Koloda):
            await koloda.services.db.close()

    application = (
        ApplicationBuilder()
        .token(config.token)
        .base_url(config.api_base_url)
        .base_file_url(config.file_base_url)
        .rate_limiter(
            AIORateLimiter(
                overall_max_rate=config.overall_rate,
                group_max_rate=config.group_edits_per_minute,
                max_retries=3,
            )
        )
        .concurrent_updates(64)
        # Several connections, so that one move's messages go out side by side.
        .connection_pool_size(16)
        .post_init(post_init)
        .post_stop(post_stop)
        .post_shutdown(post_shutdown)
        .build()
    )
    for name, handler in COMMANDS.items():
        application.add_handler(CommandHandler(name, handler))
    # After the commands: in a group the first matching handler wins.
    application.add_handler(MessageHandler(filters.COMMAND & filters.ChatType.PRIVATE, unknown))
    application.add_handler(CallbackQueryHandler(on_callback))
    application.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, membership.on_migrate))
    application.add_handler(
        ChatMemberHandler(membership.on_my_chat_member, ChatMemberHandler.MY_CHAT_MEMBER)
    )
    application.add_error_handler(on_error)
    return application


async def _register_commands(app: Application) -> None:  # type: ignore[type-arg]
    for language in LANGUAGES:
        commands = [BotCommand(name, t(language, f"cmd.{name}")) for name in COMMANDS]
        await app.bot.set_my_commands(
            commands,
            scope=BotCommandScopeDefault(),
            language_code=None if language == LANGUAGES[0] else language,
        )


async def _resume(context: ContextTypes.DEFAULT_TYPE) -> None:
    """Re-render every unfinished table: what was on screen may be stale."""
    koloda = context.bot_data[KEY]
    assert isinstance(koloda, Koloda)
    tables = await koloda.services.lobby.open_tables()
    log.info("resuming %d open tables", len(tables))
    for table in tables:
        try:
            async with koloda.publisher.table_lock(table.id):
                fresh = await koloda.services.lobby.table(table.id)
                if fresh.status == "lobby":
                    await koloda.publisher.show_lobby(fresh)
                else:
                    koloda.publisher.table_changed(fresh)
                    await koloda.publisher.refresh_hands(fresh)
        except Exception:
            log.exception("could not resume table %s", table.id)
