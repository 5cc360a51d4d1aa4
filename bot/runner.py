"""Starting, running and stopping the bot.

This is python-telegram-bot's ``run_polling``/``run_webhook`` done by hand
(initialize, post_init, updater, start; then the same in reverse), so that each
failure an operator can fix ends in one clear line instead of tracebacks:

* Telegram rejects the token -- at start or later, whichever part of the bot
  notices -- :class:`Fatal` with one translated line (exit code 2);
* the database cannot be opened (checked once Telegram has accepted the
  token), the webhook URL is refused, the webhook port is taken: :class:`Fatal`
  as well;
* Telegram cannot be reached at start: retried for as long as it takes, with a
  growing pause (up to a minute) and one log line per attempt -- a service
  should come back by itself when the network does.

A bug still ends in a traceback (with the token blanked, see :mod:`bot.logs`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Awaitable
from typing import Any
from urllib.parse import urlparse

from telegram import Update
from telegram.error import BadRequest, InvalidToken, NetworkError, RetryAfter, TelegramError
from telegram.ext import Application

from bot.app import build_application, inbox_of
from bot.config import Config
from bot.logs import TokenRejectedWatch
from bot.worker import WebhookServer
from i18n import t
from storage import Database, DatabaseError
from storage.url import DatabaseUrl

__all__ = ["MAX_PAUSE", "App", "Fatal", "bring_up", "pause_before", "run", "tear_down"]

log = logging.getLogger(__name__)

App = Application[Any, Any, Any, Any, Any, Any]

MAX_PAUSE = 60.0  # seconds between attempts to reach Telegram, at most
WEBHOOK_SERVER = "koloda_webhook_server"
"""A worker's own webhook server, in ``bot_data`` (one of several workers)."""


class Fatal(Exception):
    """A failure the operator has to fix; its text is the one line to show."""


def pause_before(attempt: int) -> float:
    """Seconds to wait after failed attempt number ``attempt`` (1, 2, 4... up to a minute)."""
    return min(MAX_PAUSE, 2.0 ** min(attempt - 1, 16))


async def run(config: Config, watch: TokenRejectedWatch) -> None:
    """Run until SIGINT or SIGTERM; raise :class:`Fatal` for what the operator must fix."""
    lang = config.default_language
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()

    def rejected() -> None:
        loop.call_soon_threadsafe(stop.set)

    watch.on_rejected = rejected
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    try:
        application = await bring_up(config, stop)
        if application is not None:
            try:
                await stop.wait()
            finally:
                await tear_down(application)
    except InvalidToken:
        watch.rejected = True
    finally:
        watch.on_rejected = None
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(signum)
    if watch.rejected:
        raise Fatal(t(lang, "startup.token_rejected"))


async def check_database(config: Config) -> None:
    """Open (create, migrate) the database and close it: a clear line if it cannot be."""
    lang = config.default_language
    shown = DatabaseUrl.parse(config.database_url).safe()
    try:
        db = await Database.open(config.database_url)
        await db.close()
    except OSError as exc:
        where = f" ({exc.filename})" if exc.filename else ""
        reason = f"{exc.strerror or exc}{where}"
        raise Fatal(t(lang, "startup.database", path=shown, reason=reason)) from None
    except DatabaseError as exc:
        raise Fatal(t(lang, "startup.database", path=shown, reason=str(exc))) from None


def _retryable(exc: BaseException) -> bool:
    """Telegram is out of reach or busy, as opposed to refusing what the bot asked."""
    return isinstance(exc, RetryAfter) or (
        isinstance(exc, NetworkError) and not isinstance(exc, BadRequest)
    )


async def bring_up(config: Config, stop: asyncio.Event) -> App | None:
    """A started application, or None if stopped before Telegram could be reached."""
    attempt = 0
    while True:
        attempt += 1
        application: App = build_application(config)
        try:
            started = await _unless_stopped(_start(application, config), stop)
        except TelegramError as exc:
            await tear_down(application)
            if not _retryable(exc):
                raise
            pause = pause_before(attempt)
            reason = " ".join(str(exc).split())  # one line, whatever the library said
            log.warning(
                "cannot reach Telegram (%s): attempt %d failed, retrying in %g s",
                reason,
                attempt,
                pause,
            )
            if await _unless_stopped(asyncio.sleep(pause), stop):
                continue
            return None
        except BaseException:
            await tear_down(application)
            raise
        if not started:
            await tear_down(application)
            return None
        name = application.bot.username
        log.info("running as @%s — add it to a group: https://t.me/%s?startgroup=true", name, name)
        return application


async def _unless_stopped(work: Awaitable[None], stop: asyncio.Event) -> bool:
    """Await ``work``; if ``stop`` is set first, cancel it and return False."""
    task = asyncio.ensure_future(work)
    stopped = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait((task, stopped), return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopped.cancel()
    if task.done():
        task.result()  # raises what the work raised
        return True
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    return False


async def _start(application: App, config: Config) -> None:
    lang = config.default_language
    bot = application.bot
    updater = application.updater
    assert updater is not None
    await application.initialize()  # getMe: checks the token
    # After the token (a wrong token creates nothing on disk), before post_init opens it.
    await check_database(config)
    if application.post_init is not None:
        await application.post_init(application)
    if config.webhook_url:
        # Set here, not only by the updater: the updater retries a refusal forever.
        try:
            await bot.set_webhook(
                config.webhook_url,
                allowed_updates=Update.ALL_TYPES,
                secret_token=config.webhook_secret,
            )
        except BadRequest as exc:
            raise Fatal(
                t(lang, "startup.webhook_refused", url=config.webhook_url, reason=exc.message)
            ) from None
        inbox = inbox_of(application)
        try:
            if inbox is not None:  # one of several workers: filed before answered
                server = WebhookServer(
                    inbox, urlparse(config.webhook_url).path, config.webhook_secret
                )
                await server.start(config.webhook_listen, config.webhook_port)
                application.bot_data[WEBHOOK_SERVER] = server
            else:
                await updater.start_webhook(
                    listen=config.webhook_listen,
                    port=config.webhook_port,
                    # Telegram posts to WEBHOOK_URL; the local server must serve its path.
                    url_path=urlparse(config.webhook_url).path.lstrip("/"),
                    webhook_url=config.webhook_url,
                    secret_token=config.webhook_secret,
                    allowed_updates=Update.ALL_TYPES,
                    bootstrap_retries=-1,
                )
        except OSError as exc:
            raise Fatal(
                t(
                    lang,
                    "startup.webhook_listen",
                    listen=config.webhook_listen,
                    port=config.webhook_port,
                    reason=exc.strerror or str(exc),
                )
            ) from None
    else:
        await bot.delete_webhook()  # here too, so that a failure is retried with a log line
        await updater.start_polling(
            allowed_updates=Update.ALL_TYPES,
            bootstrap_retries=-1,
            error_callback=_polling_failed,
        )
    await application.start()


def _polling_failed(exc: TelegramError) -> None:
    """One line instead of the library's traceback; it retries by itself."""
    log.warning("getUpdates failed: %s", " ".join(str(exc).split()))


async def tear_down(application: App) -> None:
    """The reverse of :func:`_start`, from wherever it got to.

    Every step is tried even if one before failed: post_shutdown closes the
    database, whose thread would otherwise keep the process from exiting."""
    updater = application.updater

    async def stop_updater() -> None:
        server = application.bot_data.pop(WEBHOOK_SERVER, None)
        if isinstance(server, WebhookServer):
            await server.stop()
        if updater is not None and updater.running:
            await updater.stop()  # re-raises what ended the polling loop

    async def stop_application() -> None:
        if application.running:
            await application.stop()
            if application.post_stop is not None:
                await application.post_stop(application)

    async def post_shutdown() -> None:
        if application.post_shutdown is not None:
            await application.post_shutdown(application)

    for step in (
        stop_updater,
        stop_application,
        application.shutdown,
        post_shutdown,
        application.bot.shutdown,  # its HTTP clients, if initialize failed half-way
    ):
        try:
            await step()
        except InvalidToken:
            pass  # already noticed: the bot is stopping because of it
        except Exception:
            log.exception("error while stopping")
