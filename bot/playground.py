"""``python -m bot --playground``: the real bot on a stand-in Telegram, played in a browser.

Needs no token and no network: the stand-in Bot API (:mod:`playground.botapi`)
and the page (:mod:`playground.web`) listen on 127.0.0.1 only.  Two people and
a group are there to start with (more can be added on the page); computers fill
the other seats.  Everything speaks the bot's default language: the page, the
people (their Telegram ``language_code``), the group.  The database is a
temporary file unless one is given, and "new playground" on the page starts
everything afresh, in the language chosen there.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import tempfile
from dataclasses import dataclass
from pathlib import Path

from bot.config import Config
from bot.runner import App, Fatal, bring_up, tear_down
from i18n import t
from playground.botapi import FakeTelegram
from playground.web import FIRST_PERSON, PlaygroundSite
from storage.url import sqlite_url

__all__ = ["DEFAULT_PORT", "run_playground"]

log = logging.getLogger(__name__)

DEFAULT_PORT = 8080
GROUP = -1001
PEOPLE = 2
"""The people there to start with, named by ``playground.person.<n>``."""


@dataclass
class _Session:
    world: FakeTelegram
    application: App
    database: Path


class Playground:
    def __init__(self, *, language: str, database: Path | None, port: int) -> None:
        self._language = language
        self._database = database
        self._folder = tempfile.TemporaryDirectory(prefix="koloda-playground-")
        self._runs = 0
        self._session: _Session | None = None
        self.site = PlaygroundSite(self, port=port)

    @property
    def language(self) -> str:
        return self._language

    def world(self) -> FakeTelegram:
        assert self._session is not None
        return self._session.world

    async def open(self, stop: asyncio.Event) -> None:
        world = FakeTelegram(bot_username="koloda_playground_bot", bot_name="Koloda")
        await world.start()
        self._people(world)
        self._runs += 1
        database = self._database or Path(self._folder.name) / f"playground-{self._runs}.sqlite3"
        config = Config(
            token=world.token,
            api_base_url=world.base_url,
            file_base_url=world.base_file_url,
            database_url=sqlite_url(database),
            default_language=self._language,
        )
        application = await bring_up(config, stop)
        if application is None:
            await world.stop()
            return
        world.listeners.append(self.site.changed)
        self._session = _Session(world, application, database)
        for user_id in sorted(world.users):
            world.start_bot(user_id)  # as if each had pressed Start in the bot's DM

    async def close(self) -> None:
        if self._session is not None:
            session, self._session = self._session, None
            await tear_down(session.application)
            await session.world.stop()

    async def reset(self, language: str) -> None:
        """A new world and a new database (a given database is kept)."""
        await self.close()
        self._language = language
        await self.open(asyncio.Event())

    def cleanup(self) -> None:
        self._folder.cleanup()

    def _people(self, world: FakeTelegram) -> None:
        for n in range(1, PEOPLE + 1):
            name = t(self._language, f"playground.person.{n}")
            world.add_user(FIRST_PERSON + n - 1, name, language_code=self._language, started=True)
        title = t(self._language, "playground.group")
        world.add_group(GROUP, title, supergroup=True, creator=FIRST_PERSON, bot_is_admin=True)


async def run_playground(*, language: str, database: Path | None, port: int) -> None:
    """Serve the playground until SIGINT or SIGTERM."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    playground = Playground(language=language, database=database, port=port)
    try:
        try:
            await playground.site.start()
        except OSError as exc:
            reason = exc.strerror or str(exc)
            raise Fatal(t(language, "playground.port", port=port, reason=reason)) from None
        await playground.open(stop)
        print(t(language, "playground.ready", url=playground.site.url), flush=True)
        await stop.wait()
    finally:
        await playground.close()
        await playground.site.stop()
        playground.cleanup()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(signum)
