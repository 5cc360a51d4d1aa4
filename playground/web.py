"""The playground's web page: a simulated Telegram, seen and played in a browser.

The page (``static/``) shows the group chat and each person's private chat
with the bot, as a Telegram client would, and lets whoever sits at it type and
press buttons as any of the simulated people.  This module serves it, and a
small JSON API over the stand-in Bot API's world:

* ``GET /api/state`` — the people, the chats and their messages, and the
  page's own texts in the playground's language (from the bot's catalogs,
  ``playground.page.*``: a language the catalogs have is a language the page
  speaks);
* ``GET /api/events`` — server-sent events: a number that grows with every
  change, so that the page fetches the state again;
* ``POST /api/send`` ``{user, chat, text}`` — a person writes;
* ``POST /api/press`` ``{user, chat, message, data}`` — a person presses a
  button; the bot's answer (a toast or an alert) comes back in the state;
* ``POST /api/start`` ``{user, payload}`` — a person opens the bot's chat and
  presses Start, after following a ``t.me`` link to the bot
  (``?start=payload``) or not (``""``);
* ``POST /api/people`` ``{name, opened}`` — one more person, who has opened
  the bot (and is greeted) or not: then the bot cannot write to them (403)
  until they press Start;
* ``POST /api/reset`` ``{language?}`` — a new, empty playground (in another
  language if given);
* ``GET /photo/{file_id}`` — a picture the bot sent.

Everything listens on 127.0.0.1 only.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from importlib import resources
from typing import Any, Protocol

from aiohttp import web

from i18n import LANGUAGES, t
from playground.botapi import FakeTelegram, SentMessage, TelegramWorld
from playground.botapi.world import MessageRecord

__all__ = ["FIRST_PERSON", "HOST", "PAGE_TEXTS", "Host", "PlaygroundSite"]

HOST = "127.0.0.1"
FIRST_PERSON = 101
"""The user id of the first person; the next ones count on from it."""
NAME_LENGTH = 64  # Telegram's limit for a first name
JsonDict = dict[str, Any]

PAGE_TEXTS = (
    "title",
    "hint",
    "you_are",
    "you_are_label",
    "language",
    "new_playground",
    "add_person",
    "name",
    "not_opened",
    "add",
    "cancel",
    "name_taken",
    "private_chat",
    "not_started",
    "start",
    "message_bot",
    "message_group",
    "message_to",
    "send",
    "only_you",
    "edited",
    "new_messages",
    "ok",
)
"""The page's own texts: ``playground.page.<name>`` in the catalogs."""


class Host(Protocol):
    """What the page plays in: the current world and its language."""

    @property
    def language(self) -> str: ...

    def world(self) -> FakeTelegram: ...

    async def reset(self, language: str) -> None:
        """A new world (and database) in ``language``."""


class PlaygroundSite:
    """Serves the page for whichever world the host has now (a reset makes a
    new one)."""

    def __init__(self, host: Host, *, port: int = 8080) -> None:
        self._host = host
        self.port = port
        self._runner: web.AppRunner | None = None
        self._changed = asyncio.Condition()
        self.version = 0
        self._answers: dict[str, JsonDict] = {}

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}/"

    def changed(self) -> None:
        """Something in the world changed: tell the pages."""
        self.version += 1
        asyncio.get_running_loop().create_task(self._wake())

    async def _wake(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/", self._index)
        app.router.add_get("/static/{name}", self._static)
        app.router.add_get("/api/state", self._state)
        app.router.add_get("/api/events", self._events)
        app.router.add_post("/api/send", self._send)
        app.router.add_post("/api/press", self._press)
        app.router.add_post("/api/start", self._start)
        app.router.add_post("/api/people", self._add_person)
        app.router.add_post("/api/reset", self._do_reset)
        app.router.add_get("/photo/{file_id}", self._photo)
        runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=1.0)
        await runner.setup()
        site = web.TCPSite(runner, HOST, self.port)
        await site.start()
        self._runner = runner
        self.port = runner.addresses[0][1]

    async def stop(self) -> None:
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()

    # --- the page -------------------------------------------------------------

    async def _index(self, request: web.Request) -> web.Response:
        return self._file("index.html", "text/html")

    async def _static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        kinds = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}
        kind = next((k for suffix, k in kinds.items() if name.endswith(suffix)), None)
        if kind is None or "/" in name or name.startswith("."):
            raise web.HTTPNotFound
        return self._file(name, kind)

    @staticmethod
    def _file(name: str, kind: str) -> web.Response:
        item = resources.files("playground") / "static" / name
        if not item.is_file():
            raise web.HTTPNotFound
        return web.Response(
            body=item.read_bytes(),
            content_type=kind,
            charset="utf-8",
            headers={"Cache-Control": "no-store"},
        )

    # --- the API --------------------------------------------------------------

    async def _state(self, request: web.Request) -> web.Response:
        return web.json_response(self.state(), dumps=_dumps)

    def state(self) -> JsonDict:
        """Everything the page shows."""
        world = self._host.world()
        language = self._host.language
        people = sorted(world.users.values(), key=lambda u: u.id)
        chats = []
        for chat in sorted(world.chats.values(), key=lambda c: (c.type == "private", c.id)):
            if chat.migrated_to is not None:
                continue
            chats.append(
                {
                    "id": chat.id,
                    "kind": chat.type,
                    "title": chat.user.first_name if chat.user is not None else chat.title,
                    "messages": [
                        self._message(world, r) for r in world.records(chat.id) if not r.deleted
                    ],
                }
            )
            if chat.type != "private":
                # Each seen by its receiver alone: the page shows them in the
                # view of the person chosen as "you".
                chats[-1]["ephemeral"] = [
                    self._shown(world, sent)
                    for user in people
                    for sent in world.ephemeral_messages(chat.id, user.id)
                ]
        return {
            "version": self.version,
            "language": language,
            "languages": {code: t(code, "language.name") for code in LANGUAGES},
            "texts": {name: t(language, f"playground.page.{name}") for name in PAGE_TEXTS},
            "bot": {"username": world.bot.username, "name": world.bot.first_name},
            "people": [{"id": u.id, "name": u.first_name, "opened": u.started} for u in people],
            "chats": chats,
            "answers": self._answers,
        }

    def _message(self, world: FakeTelegram, record: MessageRecord) -> JsonDict:
        if record.sent is None:
            raw = record.raw or {}
            return {
                "id": record.message_id,
                "from": raw.get("from", {}).get("first_name", ""),
                "bot": False,
                "text": raw.get("text", ""),
                "entities": raw.get("entities", []),
            }
        return self._shown(world, record.sent)

    @staticmethod
    def _shown(world: FakeTelegram, sent: SentMessage) -> JsonDict:
        """A bot's message as the page paints it (an ephemeral one names its
        one receiver)."""
        photo = sent.photo
        return {
            "id": sent.message_id,
            "receiver": sent.receiver_id,
            "from": world.bot.first_name,
            "bot": True,
            "text": sent.body,
            "entities": sent.caption_entities if sent.kind == "photo" else sent.entities,
            "photo": None if photo is None else f"/photo/{photo.file_id}",
            "width": None if photo is None else photo.width,
            "height": None if photo is None else photo.height,
            "edited": sent.edit_count > 0,
            "pinned": sent.pinned,
            "buttons": [
                [
                    {
                        "text": b.text,
                        "data": b.callback_data,
                        "url": b.url,
                        "style": b.style,
                        "disabled": b.disabled,
                    }
                    for b in row
                ]
                for row in sent.buttons
            ],
        }

    async def _events(self, request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store"}
        )
        await response.prepare(request)
        seen = -1
        with contextlib.suppress(ConnectionResetError, asyncio.CancelledError):
            while True:
                if seen != self.version:
                    seen = self.version
                    await response.write(f"data: {seen}\n\n".encode())
                async with self._changed:
                    with contextlib.suppress(TimeoutError):
                        async with asyncio.timeout(15):
                            await self._changed.wait()
                if seen == self.version:
                    await response.write(b": still here\n\n")  # keeps proxies from closing it
        return response

    async def _send(self, request: web.Request) -> web.Response:
        body = await _body(request, user=int, chat=int, text=str)
        text = body["text"].strip()
        if not text or len(text) > 4096:
            raise web.HTTPBadRequest(text="write something (at most 4096 characters)")
        self._act(lambda world: world.send(body["user"], body["chat"], text))
        return web.json_response({"ok": True})

    async def _press(self, request: web.Request) -> web.Response:
        body = await _body(request, user=int, chat=int, message=int, data=str)
        ephemeral = bool((await _json(request)).get("ephemeral"))
        press = TelegramWorld.press_ephemeral if ephemeral else TelegramWorld.press
        query = self._act(
            lambda world: press(world, body["user"], body["chat"], body["message"], body["data"])
        )
        self._answers[str(query)] = {"pending": True}
        asyncio.get_running_loop().create_task(self._await_answer(str(query)))
        return web.json_response({"query": str(query)})

    async def _await_answer(self, query: str) -> None:
        with contextlib.suppress(TimeoutError):
            answer = await self._host.world().answered(query, timeout=30)
            self._answers[query] = {
                "text": answer.get("text"),
                "alert": bool(answer.get("show_alert")),
                "url": answer.get("url"),
            }
            while len(self._answers) > 200:  # the page only needs the recent ones
                del self._answers[next(iter(self._answers))]
            self.changed()

    async def _start(self, request: web.Request) -> web.Response:
        body = await _body(request, user=int, payload=str)
        payload = body["payload"] or None
        self._act(lambda world: world.start_bot(body["user"], payload))
        return web.json_response({"ok": True})

    async def _add_person(self, request: web.Request) -> web.Response:
        body = await _body(request, name=str, opened=bool)
        name = " ".join(body["name"].split())
        if not name or len(name) > NAME_LENGTH:
            raise web.HTTPBadRequest(text=f"name: 1 to {NAME_LENGTH} characters")
        world = self._host.world()
        if any(u.first_name.casefold() == name.casefold() for u in world.users.values()):
            text = t(self._host.language, "playground.page.name_taken", name=name)
            raise web.HTTPBadRequest(text=text)
        user_id = max(world.users, default=FIRST_PERSON - 1) + 1
        world.add_user(user_id, name, language_code=self._host.language, started=body["opened"])
        if body["opened"]:
            world.start_bot(user_id)  # they pressed Start before: the bot greeted them
        else:
            self.changed()  # nothing reaches the bot, but the page shows one more person
        return web.json_response({"id": user_id})

    async def _do_reset(self, request: web.Request) -> web.Response:
        language = (await _json(request)).get("language", self._host.language)
        if language not in LANGUAGES:
            raise web.HTTPBadRequest(text=f"language: one of {', '.join(LANGUAGES)}")
        await self._host.reset(language)
        self._answers.clear()
        self.changed()
        return web.json_response({"ok": True})

    async def _photo(self, request: web.Request) -> web.Response:
        photo = self._host.world().photo_by_file_id(request.match_info["file_id"])
        if photo is None:
            raise web.HTTPNotFound
        return web.Response(body=photo.data, content_type=photo.mime_type)

    def _act(self, action: Callable[[FakeTelegram], Any]) -> Any:
        """Do what a person does (the world tells of the change itself); what
        the world refuses is the page's mistake."""
        try:
            return action(self._host.world())
        except (ValueError, KeyError) as exc:
            raise web.HTTPBadRequest(text=str(exc)) from None


async def _json(request: web.Request) -> JsonDict:
    """The JSON object the request carries."""
    try:
        raw = await request.json()
    except (ValueError, UnicodeDecodeError):
        raise web.HTTPBadRequest(text="expected a JSON object") from None
    if not isinstance(raw, dict):
        raise web.HTTPBadRequest(text="expected a JSON object")
    return raw


async def _body(request: web.Request, **fields: type) -> JsonDict:
    """The JSON body, with exactly the fields asked for, of their types."""
    raw = await _json(request)
    out: JsonDict = {}
    for name, kind in fields.items():
        value = raw.get(name)
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
            raise web.HTTPBadRequest(text=f"{name}: expected {kind.__name__}")
        out[name] = value
    return out


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)
