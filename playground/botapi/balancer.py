"""A round-robin load balancer in front of several bot workers' webhook ports.

Telegram posts every update of a bot to one URL; an installation of several
workers puts a reverse proxy there (nginx, Caddy, HAProxy) that hands each post
to one of the workers, whichever it likes.  :class:`RoundRobin` is that proxy
for the tests and the benchmark: each post goes to the next worker in turn, and
a worker that cannot take it (the connection refused or broken, as a killed
worker's is, a timeout, or a 5xx) passes it on to the next one, as nginx's
``proxy_next_upstream`` does.  When no worker takes it the poster gets 502 and,
being Telegram, posts it again later.

    async with RoundRobin([8101, 8102, 8103]) as front:
        hook = front.url + "/koloda-hook"  # every worker's WEBHOOK_URL
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

import aiohttp
from aiohttp import hdrs, web

__all__ = ["RoundRobin"]

FORWARDED_HEADERS = (hdrs.CONTENT_TYPE, "X-Telegram-Bot-Api-Secret-Token")
BACKEND_TIMEOUT = 10.0
"""Seconds a worker may take to answer a post before the next one is tried."""


class RoundRobin:
    """Forwards every request to the workers at ``127.0.0.1:<port>``, in turn."""

    def __init__(self, ports: Iterable[int], *, host: str = "127.0.0.1", port: int = 0) -> None:
        self.ports = list(ports)
        """The workers' ports; a test may change the list while it runs."""
        self.host = host
        self.port = port
        self.taken: Counter[int] = Counter()
        """Posts each worker (by port) answered with less than 500."""
        self.passed_on = 0
        """Tries a worker could not take, so the next was asked."""
        self.refused = 0
        """Posts no worker took (answered 502)."""
        self._next = 0
        self._runner: web.AppRunner | None = None
        self._http: aiohttp.ClientSession | None = None

    @property
    def url(self) -> str:
        if self._runner is None:
            raise RuntimeError("the balancer is not started")
        return f"http://{self.host}:{self.port}"

    async def start(self) -> None:
        app = web.Application()
        app.router.add_route("*", "/{path:.*}", self._forward)
        runner = web.AppRunner(app, handle_signals=False, access_log=None, shutdown_timeout=1.0)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port)
        await site.start()
        self._runner = runner
        self.port = runner.addresses[0][1]
        self._http = aiohttp.ClientSession(
            timeout=aiohttp.ClientTimeout(total=BACKEND_TIMEOUT),
            # A new connection for each post: a worker killed and started again
            # on the same port leaves no stale pooled connection behind.
            connector=aiohttp.TCPConnector(force_close=True),
        )

    async def stop(self) -> None:
        if self._http is not None:
            await self._http.close()
            self._http = None
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()

    async def __aenter__(self) -> RoundRobin:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    async def _forward(self, request: web.Request) -> web.Response:
        assert self._http is not None
        body = await request.read()
        headers = {
            name: request.headers[name] for name in FORWARDED_HEADERS if name in request.headers
        }
        ports = list(self.ports)
        first = self._next
        self._next += 1
        for index in range(len(ports)):
            port = ports[(first + index) % len(ports)]
            url = f"http://127.0.0.1:{port}{request.rel_url}"
            try:
                async with self._http.request(
                    request.method, url, data=body, headers=headers
                ) as answer:
                    payload = await answer.read()
                    if answer.status < 500:
                        self.taken[port] += 1
                        return web.Response(
                            status=answer.status,
                            body=payload,
                            content_type=answer.content_type,
                        )
            except (aiohttp.ClientError, TimeoutError):
                pass
            self.passed_on += 1
        self.refused += 1
        return web.Response(status=502, text="no worker took it")
