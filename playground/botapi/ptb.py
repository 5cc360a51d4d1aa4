"""Running a python-telegram-bot Application against the fake server inside a test."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

from telegram.ext import Application, ApplicationBuilder

from .server import FakeTelegram

if TYPE_CHECKING:
    from telegram.ext._applicationbuilder import InitApplicationBuilder

AnyApplication = Application[Any, Any, Any, Any, Any, Any]


def application_builder(server: FakeTelegram) -> InitApplicationBuilder:
    """ApplicationBuilder with the fake's token and URLs; add handlers after build()."""
    return (
        ApplicationBuilder()
        .token(server.token)
        .base_url(server.base_url)
        .base_file_url(server.base_file_url)
    )


@asynccontextmanager
async def polling(app: AnyApplication, *, poll_timeout: int = 1) -> AsyncIterator[AnyApplication]:
    """initialize + start + start_polling, and on exit stop everything in reverse order.

    ``poll_timeout`` is the getUpdates long-poll; the fake answers as soon as an update arrives,
    and stopping cancels the pending poll, so a short one only matters for idle CPU.
    """
    async with app:  # initialize() (getMe) ... shutdown()
        await app.start()
        assert app.updater is not None
        await app.updater.start_polling(poll_interval=0, timeout=poll_timeout)  # deleteWebhook
        try:
            yield app
        finally:
            if app.updater.running:
                await app.updater.stop()  # one last getUpdates(timeout=0) confirms offsets
            if app.running:
                await app.stop()
