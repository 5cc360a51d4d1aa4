"""FakeTelegram: the world served over HTTP like api.telegram.org, plus what tests observe."""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

import aiohttp
from aiohttp import hdrs, web

from . import api as bot_api
from . import ephemeral as _ephemeral  # noqa: F401 - registers the ephemeral messages' methods
from .errors import (
    ApiError,
    bad_request,
    conflict,
    default_description,
    not_found,
    too_many_requests,
    unauthorized,
)
from .faults import Fault, FloodLimit, Storm
from .models import ApiCall, SentMessage, WebhookPost
from .multipart import MultipartError, boundary_of, read_form
from .params import Params, Upload
from .world import TelegramWorld

JsonDict = dict[str, Any]
T = TypeVar("T")

_QUIET_METHODS = frozenset({"getUpdates"})
# bots upload files of up to 50 MB; a larger body gets aiohttp's 413 like Telegram's nginx
MAX_REQUEST_BYTES = 51 * 1024 * 1024
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"  # noqa: S105 - a header's name
WEBHOOK_TIMEOUT = 30.0
"""Seconds a post to the webhook may take before it counts as failed."""
WEBHOOK_ACTIVE = (
    "can't use getUpdates method while webhook is active;"
    " use deleteWebhook to delete the webhook first"
)


@dataclass
class _Injected:
    code: int
    description: str
    parameters: JsonDict | None
    times: int


_SERVING: dict[str, FakeTelegram] = {}
"""The started stand-ins of this process, by :attr:`FakeTelegram.url`."""


def serving(url: str) -> FakeTelegram | None:
    """The stand-in started in this process that serves ``url`` (its scheme,
    host and port), if any."""
    return _SERVING.get(url)


class _Dropped(Exception):
    """The storm closed the connection: no answer goes back."""


class FakeTelegram(TelegramWorld):
    """A fake Bot API server on 127.0.0.1 with the test-side controls of ``TelegramWorld``.

    ``async with FakeTelegram() as server:`` starts and stops it; so do ``start``/``stop``.
    """

    def __init__(
        self,
        token: str = "123456:TEST-token",  # noqa: S107 - a fake token for a fake server
        bot_username: str = "koloda_test_bot",
        *,
        bot_name: str = "Koloda",
        privacy_mode: bool = True,
        host: str = "127.0.0.1",
        port: int = 0,
        deliver_webhooks: bool = False,
        webhook_retry: tuple[float, float] = (0.05, 2.0),
    ) -> None:
        super().__init__(token, bot_username, bot_name=bot_name, privacy_mode=privacy_mode)
        self.host = host
        self.port = port
        self.deliver_webhooks = deliver_webhooks
        """Post every update to the webhook that setWebhook set (with its secret
        token header, up to its max_connections at once), as Telegram does,
        instead of waiting for a test to post them; getUpdates is refused
        while a webhook is set, as Telegram refuses it."""
        self.webhook_retry = webhook_retry
        """(first, longest) pause in seconds before an update the webhook did
        not take (no answer, or not 2xx) is posted again; it doubles each time."""
        self.webhook_posts: list[WebhookPost] = []
        """Every post of an update to the webhook, in the order they ended."""
        self._posting: dict[int, asyncio.Task[None]] = {}  # update id: its post under way
        self._retry_at: dict[int, tuple[float, int]] = {}  # update id: (not before, failures)
        self._delivery: asyncio.Task[None] | None = None
        self._http: aiohttp.ClientSession | None = None
        self._webhook_wake = asyncio.Event()
        self.api = bot_api.BotApi(self)
        self._calls: list[ApiCall] = []
        self._injected: dict[str, list[_Injected]] = {}
        self.storm: Storm | None = None
        """Random faults on the bot's calls while set (see :mod:`.faults`)."""
        self.flood_limit: FloodLimit | None = None
        """An overall limit of sends and edits a second while set (see :mod:`.faults`)."""
        self._runner: web.AppRunner | None = None
        self._update_event = asyncio.Event()
        self._poll_generation = 0
        self._closing = False
        self._inflight = 0
        self.active_polls = 0  # getUpdates requests waiting right now
        self.stamp: Callable[[], float] = time.monotonic
        """What ``ApiCall.clock_at`` records: set it to a bot's fake clock to see
        calls in the bot's own time."""
        self._last_activity = time.monotonic()

    # ----------------------------------------------------------------- lifecycle

    @property
    def url(self) -> str:
        if self._runner is None:
            raise RuntimeError("the fake Telegram server is not started")
        return f"http://{self.host}:{self.port}"

    @property
    def base_url(self) -> str:
        """For ApplicationBuilder().base_url(...) / Bot(base_url=...): the token is appended."""
        return f"{self.url}/bot"

    @property
    def base_file_url(self) -> str:
        return f"{self.url}/file/bot"

    async def start(self) -> None:
        if self._runner is not None:
            return
        app = web.Application(client_max_size=MAX_REQUEST_BYTES)
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        app.router.add_get("/file/bot{token}/{path:.+}", self._download)
        app.router.add_route("*", "/{tail:.*}", self._not_found)
        # handler_cancellation: a long poll the client gave up on (PTB cancels its pending
        # getUpdates on stop) ends at once instead of later answering into a closed socket
        runner = web.AppRunner(
            app,
            handle_signals=False,
            access_log=None,
            handler_cancellation=True,
            shutdown_timeout=1.0,
        )
        await runner.setup()
        self._update_event = asyncio.Event()  # bound to this loop on first use
        site = web.TCPSite(runner, self.host, self.port)
        await site.start()
        self._runner = runner
        self._closing = False
        self.port = runner.addresses[0][1]
        _SERVING[self.url] = self
        if self.deliver_webhooks:
            self._webhook_wake = asyncio.Event()
            self._http = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=WEBHOOK_TIMEOUT))
            self._delivery = asyncio.create_task(self._deliver())

    async def stop(self) -> None:
        if self._runner is None:
            return
        self._closing = True
        self._update_event.set()
        posts = [task for task in (self._delivery, *self._posting.values()) if task is not None]
        for task in posts:
            task.cancel()
        await asyncio.gather(*posts, return_exceptions=True)
        self._delivery = None
        if self._http is not None:
            await self._http.close()
            self._http = None
        _SERVING.pop(self.url, None)
        runner, self._runner = self._runner, None
        await runner.cleanup()

    async def __aenter__(self) -> FakeTelegram:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    # ----------------------------------------------------------------- test controls

    def inject_error(
        self,
        method: str,
        code: int = 429,
        retry_after: int = 1,
        times: int = 1,
        *,
        description: str | None = None,
    ) -> None:
        """The next ``times`` calls of ``method`` (any case; "*" for all) fail with ``code``.

        429 carries parameters.retry_after like Telegram's flood control.
        """
        if code == 429:
            error = too_many_requests(retry_after)
            text, parameters = description or error.description, error.parameters
        else:
            text, parameters = description or default_description(code), None
        key = method.lower()
        self._injected.setdefault(key, []).append(_Injected(code, text, parameters, times))

    @property
    def calls(self) -> list[ApiCall]:
        """Every answered request, in the order the answers left (getUpdates included)."""
        return list(self._calls)

    def calls_to(self, method: str, chat_id: int | None = None) -> list[ApiCall]:
        name = method.lower()
        return [
            call
            for call in self._calls
            if call.method.lower() == name and (chat_id is None or call.chat_id == chat_id)
        ]

    def chat_messages(self, chat_id: int, *, thread_id: int | None = None) -> list[SentMessage]:
        """Every message the bot has sent in the chat (deleted ones flagged), oldest first."""
        return [
            sent.snapshot()
            for sent in self.bot_messages(chat_id)
            if thread_id is None or sent.thread_id == thread_id
        ]

    def visible_messages(self, chat_id: int, *, thread_id: int | None = None) -> list[SentMessage]:
        """The bot's messages still in the chat."""
        return [m for m in self.chat_messages(chat_id, thread_id=thread_id) if not m.deleted]

    def last_bot_message(
        self, chat_id: int, *, thread_id: int | None = None, include_deleted: bool = False
    ) -> SentMessage | None:
        messages = self.chat_messages(chat_id, thread_id=thread_id)
        live = messages if include_deleted else [m for m in messages if not m.deleted]
        return live[-1] if live else None

    def transcript(self, chat_id: int, *, thread_id: int | None = None) -> list[str]:
        """The chat as lines "<sender>: <text>", users and bot, deleted ones marked."""
        return [
            self.describe_message(record)
            for record in self.records(chat_id)
            if thread_id is None or record.thread_id == thread_id
        ]

    def bot_message(self, chat_id: int, message_id: int) -> SentMessage:
        record = self.message(chat_id, message_id)
        if record is None or record.sent is None:
            raise LookupError(f"the bot has no message {message_id} in chat {chat_id}")
        return record.sent.snapshot()

    def file_url(self, file_id: str) -> str:
        """Where the file with this file_id (a size of a photo the bot sent) downloads from.

        The same URL python-telegram-bot builds from getFile's file_path and base_file_url.
        """
        stored = self.stored_file(file_id)
        if stored is None:
            raise LookupError(f"no file with file_id {file_id!r}")
        return f"{self.base_file_url}{self.token}/{stored.file_path}"

    def callback_answer(self, query_id: str) -> JsonDict | None:
        query = self.query(query_id)
        return dict(query.answer) if query is not None and query.answer is not None else None

    def my_commands(self, scope: JsonDict | None = None, language_code: str = "") -> list[JsonDict]:
        key = json.dumps(scope or {"type": "default"}, sort_keys=True)
        return list(self.commands.get((key, language_code), []))

    # ----------------------------------------------------------------- waiting

    async def wait_for(
        self,
        predicate: Callable[[], T | None],
        timeout: float = 10.0,  # noqa: ASYNC109 - the documented test API
        *,
        interval: float = 0.01,
        message: str | None = None,
    ) -> T:
        """Poll ``predicate`` until it returns something truthy, and return that."""
        deadline = time.monotonic() + timeout
        while True:
            value = predicate()
            if value:
                return value
            if time.monotonic() >= deadline:
                what = message or getattr(predicate, "__qualname__", repr(predicate))
                raise TimeoutError(f"waited {timeout}s for {what}\n{self.describe()}")
            await asyncio.sleep(interval)

    async def wait_idle(
        self,
        quiet: float = 0.3,
        timeout: float = 10.0,  # noqa: ASYNC109 - the documented test API
    ) -> None:
        """Until every queued update was fetched and the bot made no call for ``quiet`` s.

        getUpdates does not count as activity; fetching an update does.
        """

        def idle() -> bool:
            return (
                self.unfetched_count == 0
                and self._inflight == 0
                and time.monotonic() - self._last_activity >= quiet
            )

        await self.wait_for(
            idle, timeout, interval=min(0.02, quiet / 4) or 0.01, message="the bot to go idle"
        )

    async def answered(
        self,
        query_id: str,
        timeout: float = 10.0,  # noqa: ASYNC109 - the documented test API
    ) -> JsonDict:
        """Wait until the callback query got its answerCallbackQuery; return the answer."""
        if self.query(query_id) is None:
            raise LookupError(f"no callback query {query_id!r}")
        return await self.wait_for(
            lambda: self.callback_answer(query_id),
            timeout,
            message=f"an answer to callback query {query_id}",
        )

    def describe(self, last_calls: int = 8) -> str:
        """A summary of the server's state for failure messages."""
        lines = [
            f"updates: {len(self._updates)} unconfirmed, {self.unfetched_count} never fetched; "
            f"requests in flight: {self._inflight}",
            f"last {last_calls} non-polling calls:",
        ]
        recent = [c for c in self._calls if c.method not in _QUIET_METHODS][-last_calls:]
        for call in recent:
            outcome = "ok" if call.ok else f"{call.error_code} {call.description}"
            text = call.params.get("text", call.params.get("caption"))
            shown = f" {str(text)[:60]!r}" if text is not None else ""
            lines.append(f"  {call.method} chat={call.chat_id}{shown} -> {outcome}")
        if not recent:
            lines.append("  (none)")
        return "\n".join(lines)

    @property
    def unfetched_count(self) -> int:
        """Updates no getUpdates answer has carried yet; delivering webhooks,
        the updates the webhook has not taken yet."""
        if self.deliver_webhooks:
            return len(self._updates)
        return super().unfetched_count

    # ----------------------------------------------------------------- webhooks

    async def _deliver(self) -> None:
        """Post the pending updates to the webhook, for as long as the server runs."""
        while True:
            self._webhook_wake.clear()
            pause = self._post_due()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(pause):
                    await self._webhook_wake.wait()

    def _post_due(self) -> float | None:
        """Start posting the updates that may be posted now, in their order;
        return the seconds until a retry falls due (None: none is waiting)."""
        hook = self.webhook
        if hook is None or not hook["url"]:
            return None
        now = time.monotonic()
        soonest: float | None = None
        for update in self._updates:
            if len(self._posting) >= self.webhook_connections:
                break
            update_id = update["update_id"]
            if update_id in self._posting:
                continue
            retry = self._retry_at.get(update_id)
            if retry is not None and retry[0] > now:
                soonest = min(soonest or math.inf, retry[0] - now)
                continue
            self._posting[update_id] = asyncio.create_task(self._post(dict(hook), update))
        return soonest

    async def _post(self, hook: dict[str, str], update: JsonDict) -> None:
        assert self._http is not None
        update_id = update["update_id"]
        sent = time.monotonic()
        headers: dict[str, str] = {"Content-Type": "application/json"}
        if hook["secret_token"]:
            headers[SECRET_HEADER] = hook["secret_token"]
        status: int | None = None
        error: str | None = None
        self._inflight += 1
        self._last_activity = sent
        try:
            async with self._http.post(
                hook["url"], data=json.dumps(update), headers=headers
            ) as response:
                await response.read()
                status = response.status
        except (aiohttp.ClientError, TimeoutError) as exc:
            error = f"{type(exc).__name__}: {exc}"
        finally:
            self._inflight -= 1
            self._last_activity = time.monotonic()
            del self._posting[update_id]
            self._webhook_wake.set()
        self.webhook_posts.append(WebhookPost(update_id, sent, status, error))
        if status is not None and 200 <= status < 300:
            self._retry_at.pop(update_id, None)
            self.acknowledge(update_id)
        else:
            failures = self._retry_at.get(update_id, (0.0, 0))[1] + 1
            first, longest = self.webhook_retry
            pause = min(longest, first * 2 ** (failures - 1))
            self._retry_at[update_id] = (time.monotonic() + pause, failures)
        self.changed()

    # ----------------------------------------------------------------- HTTP

    def _on_update(self) -> None:
        self._update_event.set()
        self._webhook_wake.set()

    async def _not_found(self, request: web.Request) -> web.Response:
        return _json_response(not_found().payload(), 404)

    async def _download(self, request: web.Request) -> web.Response:
        """A file by its getFile file_path, like https://api.telegram.org/file/bot<token>/..."""
        status, body, mime = self.download(request.match_info["token"], request.match_info["path"])
        return web.Response(status=status, body=body, content_type=mime)

    def download(self, token: str, path: str) -> tuple[int, bytes, str]:
        """The HTTP status, body and content type of a file's download."""
        if token != self.token:
            return 401, json_body(unauthorized().payload()), "application/json"
        stored = self.file_at(path)
        if stored is None:
            return 404, json_body(not_found().payload()), "application/json"
        return 200, stored.data, stored.mime_type

    async def _handle(self, request: web.Request) -> web.Response:
        answer = await self.answer(
            request.match_info["token"],
            request.match_info["method"],
            lambda: _read_params(request),
            query=request.query,
        )
        if answer is None:
            if request.transport is not None:
                request.transport.close()
            return web.Response(status=499)  # never reaches the closed connection
        status, payload = answer
        return _json_response(payload, status)

    async def answer(
        self,
        token: str,
        method: str,
        read: Callable[[], Awaitable[Params]],
        *,
        query: Mapping[str, str] | None = None,
    ) -> tuple[int, JsonDict] | None:
        """One call of the bot, however it came (over HTTP, or handed over in
        this process by :class:`~playground.botapi.direct.DirectRequest`): the
        HTTP status and the payload, or None when the storm closed its
        connection and no answer goes back.  ``read`` reads the parameters;
        ``query`` is what a refused token's call records of them."""
        arrived = time.monotonic()
        name = bot_api.canonical_name(method) or method
        if token != self.token:
            error = unauthorized()
            self._record(name, Params(query or {}), arrived, error=error)
            return error.code, error.payload()
        quiet = name in _QUIET_METHODS
        if not quiet:
            self._inflight += 1
            self._last_activity = arrived
        params = Params({})
        fault = self.storm.draw(name) if self.storm is not None else None
        try:
            params = await read()
            await self._suffer(fault)
            if self.flood_limit is not None and not self.flood_limit.admit(name, arrived):
                raise too_many_requests(1)
            result = await self._dispatch(name, params)
        except ApiError as error:
            self._record(name, params, arrived, error=error, fault=fault)
            return error.code, error.payload()
        except _Dropped:
            self._record(name, params, arrived, fault=fault)
            return None
        finally:
            if not quiet:
                self._inflight -= 1
                self._last_activity = time.monotonic()
        self._record(name, params, arrived, result=result, fault=fault)
        if fault is Fault.LOST:
            return None
        return 200, {"ok": True, "result": result}

    async def _suffer(self, fault: Fault | None) -> None:
        """What a storm does before a call is applied."""
        storm = self.storm
        if fault is None or storm is None:
            return
        match fault:
            case Fault.SLOW:
                await asyncio.sleep(storm.delay())
            case Fault.FLOOD:
                raise too_many_requests(storm.flood_wait())
            case Fault.SERVER_ERROR:
                code = storm.server_error()
                raise ApiError(code, default_description(code))
            case Fault.DROPPED:
                raise _Dropped

    async def _dispatch(self, name: str, params: Params) -> Any:
        if bot_api.canonical_name(name) is None:
            raise not_found()
        self._raise_injected(name)
        if name == "getUpdates":
            if self.deliver_webhooks and self.webhook is not None and self.webhook["url"]:
                raise conflict(WEBHOOK_ACTIVE)
            return await self._get_updates(params)
        result = self.api.call(name, params)
        if name in ("setWebhook", "deleteWebhook"):
            self._webhook_wake.set()
        return result

    def _raise_injected(self, name: str) -> None:
        for key in (name.lower(), "*"):
            queue = self._injected.get(key)
            if queue:
                injected = queue[0]
                injected.times -= 1
                if injected.times <= 0:
                    queue.pop(0)
                raise ApiError(injected.code, injected.description, injected.parameters)

    async def _get_updates(self, params: Params) -> list[JsonDict]:
        self._poll_generation += 1
        generation = self._poll_generation
        self._update_event.set()  # an older long poll ends with 409 Conflict
        offset = params.opt_integer("offset")
        limit = params.opt_integer("limit") or 100
        timeout = max(0, params.opt_integer("timeout") or 0)
        bot_api.set_allowed_updates(self, params.nested("allowed_updates", "allowed updates"))
        self.confirm_updates(offset)
        deadline = time.monotonic() + timeout
        self.active_polls += 1
        try:
            while True:
                if generation != self._poll_generation:
                    raise conflict()
                batch = self.take_updates(limit)
                if batch:
                    self._last_activity = time.monotonic()
                    return batch
                remaining = deadline - time.monotonic()
                if remaining <= 0 or self._closing:
                    return []
                self._update_event.clear()
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(remaining):
                        await self._update_event.wait()
        finally:
            self.active_polls -= 1

    def _record(
        self,
        name: str,
        params: Params,
        arrived: float,
        *,
        result: Any = None,
        error: ApiError | None = None,
        fault: Fault | None = None,
    ) -> None:
        chat_id: int | str | None = None
        with contextlib.suppress(ApiError):
            chat_id = params.opt_chat("chat_id")
        if chat_id is None and name == "answerCallbackQuery":
            with contextlib.suppress(ApiError):
                query = self.query(params.string("callback_query_id"))
                chat_id = query.chat_id if query is not None else None
        self._calls.append(
            ApiCall(
                method=name,
                params=params.as_json(),
                at=arrived,
                clock_at=self.stamp(),
                chat_id=chat_id,
                ok=error is None and fault is not Fault.DROPPED,
                error_code=error.code if error else None,
                description=error.description if error else None,
                result=result,
                duration=time.monotonic() - arrived,
                fault=fault.value if fault is not None else None,
            )
        )
        if name != "getUpdates":
            self.changed()


async def _read_params(request: web.Request) -> Params:
    """Query string, then the body: JSON, urlencoded form or multipart (files kept apart)."""
    values: dict[str, object] = dict(request.query)
    files: dict[str, Upload] = {}
    if request.can_read_body:
        if request.content_type == "application/json":
            try:
                body = await request.json()
            except ValueError as exc:
                raise bad_request("can't parse JSON object") from exc
            if not isinstance(body, dict):
                raise bad_request("can't parse JSON object")
            values.update(body)
        elif request.content_type == "multipart/form-data":
            try:
                fields, uploads = read_form(
                    await request.read(), boundary_of(request.headers[hdrs.CONTENT_TYPE])
                )
            except MultipartError as exc:
                raise bad_request(f"can't parse the multipart body: {exc}") from exc
            values.update(fields)
            files.update(uploads)
        else:
            form = await request.post()
            for key in form:
                value = form.getone(key)
                if isinstance(value, web.FileField):
                    with value.file:
                        data = value.file.read()
                    files[key] = Upload(value.filename, value.content_type, data)
                elif isinstance(value, str):
                    values[key] = value
                else:
                    values[key] = value.decode("utf-8", "replace")
    return Params(values, files)


def _json_response(payload: JsonDict, status: int) -> web.Response:
    return web.Response(status=status, body=json_body(payload), content_type="application/json")


def json_body(payload: JsonDict) -> bytes:
    """An answer's body, as the server sends it."""
    return json.dumps(payload, ensure_ascii=False).encode("utf-8")
