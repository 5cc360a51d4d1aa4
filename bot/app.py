"""The composition root: builds the PTB Application with every service wired in."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterable

from telegram import BotCommand, BotCommandScopeAllGroupChats, BotCommandScopeAllPrivateChats
from telegram.ext import (
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)
from telegram.request import BaseRequest

from bot.catalog import CATALOG, Catalog
from bot.config import Config
from bot.transport import AiohttpRequest
from bot.worker import Inbox
from delivery.group_window import GroupWindow
from delivery.ledger import Ledger
from delivery.limiter import AdaptiveRateLimiter
from delivery.publisher import Publisher
from delivery.seasons import SeasonHerald
from delivery.telegram_io import TelegramIO
from handlers import membership
from handlers.callbacks import on_callback
from handlers.commands import COMMANDS, PRIVATE_COMMANDS, plain_text, unknown
from handlers.context import KEY, Koloda, KolodaContext
from handlers.errors import on_error
from i18n import LANGUAGES, t
from services import Clock, Services, SystemClock, Thinking, worker_id
from storage import Database

__all__ = ["INBOX", "build_application", "inbox_of"]

log = logging.getLogger(__name__)

DRAIN_SECONDS = 5.0
"""At a stop, how long deliveries in hand may take to finish."""
INBOX = "koloda_inbox"
"""The key of the worker's :class:`~bot.worker.Inbox` in ``bot_data``."""


def inbox_of(app: Application) -> Inbox | None:  # type: ignore[type-arg]
    """The inbox of a worker among several (None: one process, the direct path)."""
    inbox = app.bot_data.get(INBOX)
    return inbox if isinstance(inbox, Inbox) else None


def build_application(
    config: Config,
    *,
    catalog: Catalog = CATALOG,
    clock: Clock | None = None,
    heartbeat: float = 1.0,
    seeds: Callable[[], int] | None = None,
    worker: str | None = None,
    requests: Callable[[int], BaseRequest] = AiohttpRequest,
) -> Application:  # type: ignore[type-arg]
    """The bot playing the games of ``catalog``.  ``clock`` and ``heartbeat``
    are for tests that drive time, ``seeds`` for tests whose deals must repeat
    (by default every game is shuffled from the system's secure source).
    ``requests`` makes the bot's requests to Telegram, given their pool's
    size (tests hand them to a stand-in in the same process).

    With ``worker`` (a name), or a config for several workers (webhook mode
    on PostgreSQL), it is one worker among several: it acts on the chats it
    holds, and the updates it receives go to their chats' workers through
    the inbox (:mod:`bot.worker`, :func:`inbox_of`)."""
    if worker is None and config.several_workers:
        worker = worker_id(config.worker_id)
    clock = clock or SystemClock()
    limiter = AdaptiveRateLimiter(clock, config.overall_rate)
    # Flood waits as timedelta, as python-telegram-bot's next major version
    # gives them (the handlers read either); without it each one warns.
    os.environ.setdefault("PTB_TIMEDELTA", "1")

    async def post_init(app: Application) -> None:  # type: ignore[type-arg]
        db = await Database.open(config.database_url, now=clock.now)
        services = Services.create(
            db,
            games=catalog.specs,
            computers=catalog.computers,
            clock=clock,
            default_language=config.default_language,
            heartbeat=heartbeat,
            pause=(config.computer_pause_ms / 2000, config.computer_pause_ms / 1000),
            thinking=Thinking(
                workers=config.computer_workers or None,
                scale=config.computer_thinking_percent / 100,
            ),
            seeds=seeds,
            worker=worker,
            lease_seconds=config.lease_seconds,
        )
        limiter.wait_as_idle(services.background)
        leases = services.leases
        pacer = GroupWindow(clock, services.background, config.group_edits_per_minute, sends=leases)
        publisher = Publisher(
            TelegramIO(app.bot, clock, services.background, shared_dms=leases is not None),
            services,
            catalog.screens,
            pacer,
            Ledger(db, services.background),
            app.bot.username,
        )
        services.tables.observe(publisher)
        if leases is not None:
            log.info("worker %s", leases.worker)
            leases.add(publisher)
            leases.on_workers(limiter.share)
            inbox = Inbox(app, services, leases, publisher)
            leases.add(inbox)  # last: a chat's updates once the rest resumed it
            app.bot_data[INBOX] = inbox
        app.bot_data[KEY] = Koloda(services, publisher, catalog.specs, catalog.screens)
        await _introduce(app)
        # The job queue starts with the application, right after this hook.
        assert app.job_queue is not None
        app.job_queue.run_once(_resume, when=0, name="resume-tables")

    async def post_stop(app: Application) -> None:  # type: ignore[type-arg]
        koloda = app.bot_data.get(KEY)
        inbox = inbox_of(app)
        if inbox is not None:
            await inbox.stop()
        if isinstance(koloda, Koloda):
            await koloda.publisher.drain(DRAIN_SECONDS)
            await koloda.services.stop()

    async def post_shutdown(app: Application) -> None:  # type: ignore[type-arg]
        koloda = app.bot_data.pop(KEY, None)
        if isinstance(koloda, Koloda):
            await koloda.services.db.close()

    application = (
        ApplicationBuilder()
        .token(config.token)
        .base_url(config.api_base_url)
        .base_file_url(config.file_base_url)
        # The overall rate only, learnt from 429s under the configured ceiling:
        # each group's budget is the publisher's, and so are flood retries (it
        # gives the players of the table that time back).
        .rate_limiter(limiter)
        .concurrent_updates(64)
        # Several connections, so that one move's messages go out side by side.
        .request(requests(16))
        .get_updates_request(requests(1))
        .context_types(ContextTypes(context=KolodaContext))
        .post_init(post_init)
        .post_stop(post_stop)
        .post_shutdown(post_shutdown)
        .build()
    )
    for name, handler in COMMANDS.items():
        application.add_handler(CommandHandler(name, handler))
    # After the commands: in a group the first matching handler wins.
    application.add_handler(MessageHandler(filters.COMMAND & filters.ChatType.PRIVATE, unknown))
    application.add_handler(
        MessageHandler(filters.TEXT & ~filters.COMMAND & filters.ChatType.PRIVATE, plain_text)
    )
    application.add_handler(CallbackQueryHandler(on_callback))
    application.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, membership.on_migrate))
    application.add_handler(
        ChatMemberHandler(membership.on_my_chat_member, ChatMemberHandler.MY_CHAT_MEMBER)
    )
    application.add_error_handler(on_error)
    return application


async def _introduce(app: Application) -> None:  # type: ignore[type-arg]
    """What Telegram shows of the bot, in every language: its commands (those
    of groups in groups, those of private chats there), its description (on
    the empty chat a deep link opens) and its short description (its profile)."""
    bot = app.bot
    for language in LANGUAGES:
        code = None if language == LANGUAGES[0] else language

        def commands(names: Iterable[str], lang: str = language) -> list[BotCommand]:
            return [BotCommand(name, t(lang, f"cmd.{name}")) for name in names]

        group = [name for name in COMMANDS if name != "start"]
        await bot.set_my_commands(
            commands(group), scope=BotCommandScopeAllGroupChats(), language_code=code
        )
        await bot.set_my_commands(
            commands(PRIVATE_COMMANDS), scope=BotCommandScopeAllPrivateChats(), language_code=code
        )
        await bot.set_my_description(t(language, "bot.description"), language_code=code)
        await bot.set_my_short_description(t(language, "bot.short_description"), language_code=code)


async def _resume(context: KolodaContext) -> None:
    """Run the deadlines (with the time the bot was down given back), let
    computers whose turn it is move, and paint every table that may be behind."""
    koloda = context.koloda
    await koloda.services.start()
    await koloda.publisher.resume()
    inbox = inbox_of(context.application)
    if inbox is not None:
        inbox.start()
    SeasonHerald(koloda.publisher.io, koloda.publisher.pacer, koloda.services, koloda.games).start()
    koloda.resumed.set()
