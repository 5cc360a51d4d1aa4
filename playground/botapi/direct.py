"""python-telegram-bot's requests handed straight to a stand-in in the same process.

A bot and the :class:`~playground.botapi.server.FakeTelegram` it talks to in
one event loop (the end-to-end tests) spend a third of their CPU on HTTP:
aiohttp's client and server, sockets, URL encoding.  :class:`DirectRequest`
gives the server's own :meth:`~playground.botapi.server.FakeTelegram.answer`
the parameters HTTP would have carried, as the strings a form carries them,
and gives the bot the JSON the server would have sent back, so that what the
bot sees is what it would have read from the socket.  What HTTP adds is kept:
a pool of connections with its timeout, the reply's timeout (a call that
outlives it is abandoned, as the server's handler is when its client hangs
up), and a connection the storm closes (a network error).  Tests of the
network path itself run the bot over HTTP.
"""

from __future__ import annotations

import asyncio
from typing import IO
from urllib.parse import unquote, urlsplit

from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData

from .params import Params, Upload
from .server import json_body, serving

__all__ = ["DirectRequest"]

API_PATH = "/bot"
FILE_PATH = "/file/bot"


class DirectRequest(BaseRequest):
    """Like ``bot.transport.AiohttpRequest(pool_size)``, for URLs a stand-in
    started in this process serves."""

    def __init__(
        self,
        pool_size: int = 1,
        *,
        read_timeout: float | None = 5.0,
        write_timeout: float | None = 5.0,
        pool_timeout: float | None = 1.0,
        media_write_timeout: float | None = 20.0,
    ) -> None:
        self._connections = asyncio.Semaphore(pool_size)
        self._read_timeout = read_timeout
        self._write_timeout = write_timeout
        self._pool_timeout = pool_timeout
        self._media_write_timeout = media_write_timeout

    @property
    def read_timeout(self) -> float | None:
        return self._read_timeout

    async def initialize(self) -> None:
        """Nothing to open."""

    async def shutdown(self) -> None:
        """Nothing to close."""

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: object = BaseRequest.DEFAULT_NONE,
        write_timeout: object = BaseRequest.DEFAULT_NONE,
        connect_timeout: object = BaseRequest.DEFAULT_NONE,
        pool_timeout: object = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        parts = urlsplit(url)
        path = unquote(parts.path)  # a file's URL comes quoted (the token's colon)
        server = serving(f"{parts.scheme}://{parts.netloc}")
        if server is None:
            raise NetworkError(f"nothing in this process serves {parts.netloc}")
        files = request_data.multipart_data if request_data is not None else {}
        write = self._media_write_timeout if files else self._write_timeout
        reply = _sum(_given(read_timeout, self._read_timeout), _given(write_timeout, write))
        try:
            async with asyncio.timeout(_given(pool_timeout, self._pool_timeout)):
                await self._connections.acquire()
        except TimeoutError as exc:
            raise TimedOut("Pool timeout: all connections in the pool are in use") from exc
        try:
            async with asyncio.timeout(reply):
                if path.startswith(FILE_PATH):
                    token, _, file_path = path.removeprefix(FILE_PATH).partition("/")
                    status, body, _ = server.download(token, file_path)
                    return status, body
                token, _, name = path.removeprefix(API_PATH).partition("/")
                values = dict(request_data.json_parameters) if request_data is not None else {}
                uploads = {
                    field: Upload(filename, mime, _content(content))
                    for field, (filename, content, mime) in files.items()
                }

                async def read() -> Params:
                    return Params(values, uploads)

                answer = await server.answer(token, name, read)
        except TimeoutError as exc:
            raise TimedOut from exc
        finally:
            self._connections.release()
        if answer is None:
            raise NetworkError("the stand-in closed the connection without an answer")
        status, payload = answer
        return status, json_body(payload)


def _content(content: bytes | IO[bytes]) -> bytes:
    return content if isinstance(content, bytes) else content.read()


def _given(value: object, default: float | None) -> float | None:
    """A timeout PTB passed, or ours when it passed its "default" marker."""
    if isinstance(value, int | float):
        return float(value)
    return None if value is None else default


def _sum(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None else a + b
