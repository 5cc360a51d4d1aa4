"""Several workers behind one webhook: each update reaches its chat's worker
through the database.

Telegram posts every update of a bot to one URL, and a load balancer in front
of several workers hands each post to any of them.  Correctness must not
depend on which: a chat is acted on by the one worker that holds its lease
(:mod:`services.leases`).  So the worker that receives an update does not
handle it: it works out the update's chat (:func:`chat_of`), files it in the
inbox (a repeated ``update_id`` is dropped: Telegram redelivers what was not
answered in time), ``NOTIFY``s, and answers 200 at once.  The chat's holder,
woken by ``LISTEN`` (and by a look every :data:`POLL` seconds, since a
notification sent while a listener reconnects is lost), hands the chat's
updates in Telegram's order (by ``update_id``) to PTB's
``Application.process_update`` and marks each handled once it was: an update
is handled at least once, and a press handled twice is refused by the table's
version check as any doubled press is.  A chat nobody holds is taken by the
worker that received its update.

Long polling (one process) and SQLite keep the direct path: PTB hands every
update to the handlers as it comes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from typing import Any

from aiohttp import web
from telegram import Update
from telegram.ext import Application

from delivery import callback_data as cd
from delivery.publisher import BACK, Publisher
from services import CHANNEL, ChatLeases, ServiceError, Services

__all__ = ["POLL", "Inbox", "MalformedUpdate", "WebhookServer", "chat_of"]

log = logging.getLogger(__name__)

App = Application[Any, Any, Any, Any, Any, Any]

POLL = 1.5
"""Seconds between looks for updates waiting for this worker's chats."""
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"  # noqa: S105 - a header's name

_TABLE_BUTTONS = (
    cd.MoveButton,
    cd.MenuButton,
    cd.LobbyButton,
    cd.CardsButton,
    cd.DmButton,
    cd.RematchButton,
    cd.DuplicateButton,
)
"""Buttons that act on a table: their update belongs to the table's chat."""
_TABLE_LINKS = ("j", "h")
"""``/start`` payloads naming a table (joining it, a hand again)."""


async def chat_of(update: Update, services: Services) -> int:
    """The chat whose worker handles ``update``: a table's button or deep link
    -> the table's (group) chat; anything else in a chat -> that chat; else
    the user's private chat (0 for an update with neither)."""
    table_id = _table_named(update)
    if table_id is not None:
        try:
            return (await services.snapshots.table(table_id)).chat_id
        except ServiceError:
            pass  # no such table: its chat answers that
    chat = update.effective_chat
    if chat is not None:
        return chat.id
    user = update.effective_user
    return 0 if user is None else user.id


def _table_named(update: Update) -> int | None:
    query = update.callback_query
    if query is not None:
        try:
            button = cd.parse(query.data)
        except cd.CallbackDataError:
            return None
        return button.table_id if isinstance(button, _TABLE_BUTTONS) else None
    message = update.message
    if message is not None and message.text and message.chat.type == "private":
        words = message.text.split()
        if len(words) == 2 and words[0].split("@")[0] == "/start":
            link = words[1]
            if link[:1] in _TABLE_LINKS and link[1:].isdigit():
                return int(link[1:])
    return None


class MalformedUpdate(ValueError):
    """A post that is no Telegram update."""


class Inbox:
    """Files updates for their chats' workers, and hands this worker's
    chats' updates to the application.  A :class:`~services.ChatHolder`."""

    def __init__(
        self, application: App, services: Services, leases: ChatLeases, publisher: Publisher
    ) -> None:
        self._app = application
        self._publisher = publisher
        self._services = services
        self._db = services.db
        self._leases = leases
        self._background = services.background
        self._clock = services.clock
        self._draining: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        self._tasks: list[asyncio.Task[None]] = []

    def start(self) -> None:
        """Listen for updates filed for this worker's chats, and look now and then."""
        self._tasks = [
            # Waiting for notifications is idle time, as waiting for the clock is.
            self._background.spawn(
                self._background.wait(self._db.listen(CHANNEL, self._noticed)), "inbox-listen"
            ),
            self._background.spawn(self._poll(), "inbox-poll"),
        ]

    # --- in: any worker ----------------------------------------------------------------

    async def receive(self, payload: dict[str, Any]) -> bool:
        """File one update posted to this worker; False for one filed before.
        Raises :class:`MalformedUpdate` for a payload that is no update, and
        what the database raised (the post is then answered with an error,
        and Telegram posts it again)."""
        try:
            update = Update.de_json(payload, self._app.bot)
        except Exception as exc:  # whatever the library chokes on
            raise MalformedUpdate(str(exc)) from exc
        chat_id = await chat_of(update, self._services)
        async with self._db.transaction() as tx:
            filed = await tx.cluster.receive(chat_id, update.update_id, json.dumps(payload))
            if filed:
                await tx.cluster.notify(CHANNEL, str(chat_id))
        if filed:
            if self._leases.holds(chat_id):
                self.wake(chat_id)
            else:
                # A chat nobody holds is taken here (its updates handed on then).
                self._background.spawn(self._take(chat_id), f"take-{chat_id}")
        return filed

    async def _take(self, chat_id: int) -> None:
        try:
            await self._leases.take(chat_id)
        except Exception:
            log.exception("taking chat %s failed", chat_id)

    # --- out: the chat's holder ------------------------------------------------------

    def wake(self, chat_id: int) -> None:
        """Hand the chat's waiting updates to the application (if held here)."""
        if not self._leases.holds(chat_id):
            return
        if chat_id in self._draining:
            self._again.add(chat_id)
            return
        self._draining[chat_id] = self._background.spawn(self._drain(chat_id), f"inbox-{chat_id}")

    async def chat_taken(self, chat_id: int, given_back: float) -> None:
        self.wake(chat_id)

    def chat_dropped(self, chat_id: int) -> None:
        self._again.discard(chat_id)
        task = self._draining.pop(chat_id, None)
        if task is not None:
            task.cancel()

    async def _drain(self, chat_id: int) -> None:
        try:
            while self._leases.holds(chat_id):
                self._again.discard(chat_id)
                async with self._db.read() as tx:
                    waiting = await tx.cluster.pending(chat_id)
                for update in waiting:
                    if not self._leases.holds(chat_id):
                        return
                    try:
                        await self._app.process_update(
                            Update.de_json(json.loads(update.payload), self._app.bot)
                        )
                    except Exception:  # PTB's error handlers had it: it is not tried again
                        log.exception("update %s of chat %s failed", update.update_id, chat_id)
                    async with self._db.transaction() as tx:
                        await tx.cluster.handled(update.id)
                    self._leases.used(chat_id)
                if not waiting and chat_id not in self._again:
                    return
        except Exception:
            log.exception("handing on the updates of chat %s failed", chat_id)
        finally:
            if self._draining.get(chat_id) is asyncio.current_task():
                del self._draining[chat_id]

    def _noticed(self, payload: str) -> None:
        if payload.lstrip("-").isdigit():
            self.wake(int(payload))
            return
        news = self._leases.news(payload)
        if news is not None:
            self._heard(news)
            return
        # Chats were released (or the listener is back): look for all of it.
        self._leases.wake_scan()
        for chat_id in self._leases.held:
            self.wake(chat_id)

    def _heard(self, news: str) -> None:
        """Another worker's news: a player is back (fresh hands at this
        worker's tables of his)."""
        user = news.removeprefix(BACK)
        if news.startswith(BACK) and user.isdigit():
            self._background.spawn(self._welcome_back(int(user)), f"back-{user}")

    async def _welcome_back(self, user_id: int) -> None:
        try:
            await self._publisher.welcome_back(user_id, tell_others=False)
        except Exception:
            log.exception("fresh hands for user %s failed", user_id)

    async def _poll(self) -> None:
        while True:
            await self._background.wait(self._clock.sleep(POLL))
            try:
                async with self._db.read() as tx:
                    waiting = await tx.cluster.waiting_chats()
            except Exception:
                log.exception("looking for waiting updates failed")
                continue
            for chat_id in waiting:
                self.wake(chat_id)

    async def stop(self) -> None:
        for task in [*self._tasks, *self._draining.values()]:
            task.cancel()
        for task in [*self._tasks, *self._draining.values()]:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks = []


class WebhookServer:
    """The webhook's HTTP server for several workers: each post is filed in
    the inbox before it is answered, so a worker killed after answering has
    lost nothing (PTB's own server answers before the update is handled)."""

    def __init__(self, inbox: Inbox, path: str, secret: str | None) -> None:
        self._inbox = inbox
        self._path = "/" + path.lstrip("/")
        self._secret = secret
        self._runner: web.AppRunner | None = None

    async def start(self, listen: str, port: int) -> None:
        app = web.Application()
        app.router.add_post(self._path, self._post)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, listen, port).start()

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _post(self, request: web.Request) -> web.Response:
        given = request.headers.get(SECRET_HEADER, "")
        if self._secret is not None and not secrets.compare_digest(given, self._secret):
            return web.Response(status=403)
        try:
            payload = await request.json()
        except ValueError:
            return web.Response(status=400)
        if not isinstance(payload, dict) or not isinstance(payload.get("update_id"), int):
            return web.Response(status=400)
        try:
            await self._inbox.receive(payload)
        except MalformedUpdate as exc:
            log.warning("refused a post that is no update: %s", exc)
            return web.Response(status=400)
        except Exception:
            log.exception("filing update %s failed", payload.get("update_id"))
            return web.Response(status=500)  # Telegram posts it again
        return web.Response(status=200)
