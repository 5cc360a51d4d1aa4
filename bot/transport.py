"""python-telegram-bot's requests over aiohttp instead of httpx.

PTB's own ``HTTPXRequest`` spends more of the bot's CPU than anything else
the bot does for a move: httpx, httpcore and anyio in pure Python around each
call.  aiohttp (a dependency already, for the playground) parses HTTP in C;
``bench.bot`` measured the difference (see the README).  Only what the bot
uses is here: HTTP/1.1 without a proxy.
"""

from __future__ import annotations

import aiohttp
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData

__all__ = ["AiohttpRequest"]

FORM = {"Content-Type": "application/x-www-form-urlencoded"}


class AiohttpRequest(BaseRequest):
    """A pool of up to ``pool_size`` keep-alive connections; the timeouts are
    PTB's (seconds, None for none), ``read_timeout`` the default of long polling."""

    def __init__(
        self,
        pool_size: int = 1,
        *,
        read_timeout: float | None = 5.0,
        write_timeout: float | None = 5.0,
        connect_timeout: float | None = 5.0,
        pool_timeout: float | None = 1.0,
        media_write_timeout: float | None = 20.0,
    ) -> None:
        self._pool_size = pool_size
        self._read_timeout = read_timeout
        self._write_timeout = write_timeout
        self._connect_timeout = connect_timeout
        self._pool_timeout = pool_timeout
        self._media_write_timeout = media_write_timeout
        self._session: aiohttp.ClientSession | None = None

    @property
    def read_timeout(self) -> float | None:
        return self._read_timeout

    async def initialize(self) -> None:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=self._pool_size),
                headers={"User-Agent": self.USER_AGENT},
                # Telegram's answers are read as bytes; nothing reads cookies.
                cookie_jar=aiohttp.DummyCookieJar(),
                auto_decompress=True,
            )

    async def shutdown(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()
        self._session = None

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
        session = self._session
        if session is None or session.closed:
            raise RuntimeError("AiohttpRequest is not initialized")
        files = request_data.multipart_data if request_data is not None else None
        body: aiohttp.FormData | bytes | None = None
        headers = None
        if files:
            form = aiohttp.FormData()
            for name, value in request_data.json_parameters.items():  # type: ignore[union-attr]
                form.add_field(name, value)
            for name, (filename, content, mime) in files.items():
                form.add_field(name, content, filename=filename, content_type=mime)
            body = form
        elif request_data is not None and request_data.parameters:
            body = request_data.url_encoded_parameters().encode()
            headers = FORM
        write = self._write_timeout if not files else self._media_write_timeout
        timeout = aiohttp.ClientTimeout(
            # Waiting for a free connection and connecting, together.
            connect=_sum(
                _given(pool_timeout, self._pool_timeout),
                _given(connect_timeout, self._connect_timeout),
            ),
            # aiohttp has no write timeout of its own: the reply's wait covers it.
            sock_read=_sum(_given(read_timeout, self._read_timeout), _given(write_timeout, write)),
        )
        try:
            async with session.request(
                method, url, data=body, headers=headers, timeout=timeout
            ) as response:
                return response.status, await response.read()
        except TimeoutError as exc:
            raise TimedOut from exc
        except aiohttp.ClientError as exc:
            raise NetworkError(f"aiohttp.{type(exc).__name__}: {exc}") from exc


def _given(value: object, default: float | None) -> float | None:
    """A timeout PTB passed, or ours when it passed its "default" marker."""
    if isinstance(value, int | float):
        return float(value)
    return None if value is None else default


def _sum(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None else a + b
