"""The stand-in posting updates to a webhook, as Telegram does, and the
round-robin balancer that the multi-worker tests put in front of the workers."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import aiohttp
import pytest
from aiohttp import web

from playground.botapi import FakeTelegram, RoundRobin
from playground.botapi.world import FIRST_UPDATE_ID

TOKEN = "123456:TEST-token"
SECRET = "hook-secret"


class Hook:
    """A webhook server on a free port that answers with ``status()``."""

    def __init__(self, status: Callable[[], int] = lambda: 200) -> None:
        self.status = status
        self.received: list[tuple[int, str | None]] = []  # (update id, secret header)
        self.port = 0

    async def _handle(self, request: web.Request) -> web.Response:
        update = json.loads(await request.read())
        number = update["update_id"] - FIRST_UPDATE_ID + 1  # the first update the stand-in made: 1
        self.received.append((number, request.headers.get("X-Telegram-Bot-Api-Secret-Token")))
        return web.Response(status=self.status())

    @asynccontextmanager
    async def serving(self) -> AsyncIterator[Hook]:
        app = web.Application()
        app.router.add_post("/hook", self._handle)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", self.port)
        await site.start()
        self.port = runner.addresses[0][1]
        try:
            yield self
        finally:
            await runner.cleanup()


async def set_webhook(server: FakeTelegram, url: str, **extra: object) -> dict[str, object]:
    async with (
        aiohttp.ClientSession() as http,
        http.post(
            f"{server.base_url}{TOKEN}/setWebhook",
            json={"url": url, "secret_token": SECRET, **extra},
        ) as answer,
    ):
        result: dict[str, object] = await answer.json()
        return result


async def get_updates(server: FakeTelegram) -> dict[str, object]:
    async with (
        aiohttp.ClientSession() as http,
        http.post(f"{server.base_url}{TOKEN}/getUpdates", json={"timeout": 0}) as answer,
    ):
        result: dict[str, object] = await answer.json()
        return result


async def test_every_update_is_posted_to_the_webhook_with_its_secret_once() -> None:
    async with FakeTelegram(deliver_webhooks=True) as server, Hook().serving() as hook:
        server.add_user(7, "Anna")
        server.send(7, 7, "/start")  # before the webhook is set: kept until then
        assert (await set_webhook(server, f"http://127.0.0.1:{hook.port}/hook"))["ok"]
        server.send(7, 7, "/help")
        await server.wait_for(lambda: len(hook.received) == 2 and server.unfetched_count == 0)
        await server.wait_idle(quiet=0.05)
        assert hook.received == [(1, SECRET), (2, SECRET)]
        assert [post.status for post in server.webhook_posts] == [200, 200]
        assert server.pending_updates == []
        refused = await get_updates(server)
        assert refused["error_code"] == 409


async def test_an_update_the_webhook_does_not_take_is_posted_again_until_it_does() -> None:
    answers = iter([503, 500])
    async with (
        FakeTelegram(deliver_webhooks=True, webhook_retry=(0.01, 0.05)) as server,
        Hook(lambda: next(answers, 200)).serving() as hook,
    ):
        server.add_user(7, "Anna")
        await set_webhook(server, f"http://127.0.0.1:{hook.port}/hook")
        server.send(7, 7, "/help")
        await server.wait_for(lambda: server.unfetched_count == 0)
        assert [post.status for post in server.webhook_posts] == [503, 500, 200]
        assert [update_id for update_id, _ in hook.received] == [1, 1, 1]


async def test_no_webhook_listening_means_the_update_waits() -> None:
    async with FakeTelegram(deliver_webhooks=True, webhook_retry=(0.01, 0.02)) as server:
        async with Hook().serving() as gone:
            port = gone.port  # a port nothing listens on once it is closed
        server.add_user(7, "Anna")
        await set_webhook(server, f"http://127.0.0.1:{port}/hook")
        server.send(7, 7, "/help")
        await server.wait_for(lambda: len(server.webhook_posts) >= 3)
        assert all(post.status is None and post.error for post in server.webhook_posts)
        assert server.unfetched_count == 1
        # Listening again on the same port, the update gets through.
        hook = Hook()
        hook.port = port
        async with hook.serving():
            await server.wait_for(lambda: server.unfetched_count == 0)
        assert [update_id for update_id, _ in hook.received] == [1]


async def test_the_balancer_takes_turns_and_passes_a_post_on_past_a_dead_worker() -> None:
    async with Hook().serving() as first, Hook().serving() as second:
        async with Hook().serving() as dead:
            dead_port = dead.port
        async with RoundRobin([first.port, dead_port, second.port]) as front:
            async with aiohttp.ClientSession() as http:
                for number in range(1, 7):
                    async with http.post(
                        f"{front.url}/hook",
                        json={"update_id": FIRST_UPDATE_ID + number - 1},
                        headers={"X-Telegram-Bot-Api-Secret-Token": SECRET},
                    ) as answer:
                        assert answer.status == 200
            front.ports = [dead_port]
            async with (
                aiohttp.ClientSession() as http,
                http.post(f"{front.url}/hook", json={"update_id": FIRST_UPDATE_ID + 6}) as answer,
            ):
                assert answer.status == 502
    # Each post goes to the next worker in turn; the dead one's go on to the next.
    assert [u for u, _ in first.received] == [1, 4]
    assert [u for u, _ in second.received] == [2, 3, 5, 6]
    assert {secret for _, secret in first.received + second.received} == {SECRET}
    assert front.taken == {first.port: 2, second.port: 4}
    assert (front.passed_on, front.refused) == (3, 1)


@pytest.mark.parametrize("status", [403, 404])
async def test_the_balancer_hands_a_worker_refusal_back(status: int) -> None:
    async with (
        Hook(lambda: status).serving() as worker,
        RoundRobin([worker.port]) as front,
        aiohttp.ClientSession() as http,
        http.post(f"{front.url}/hook", json={"update_id": FIRST_UPDATE_ID}) as answer,
    ):
        assert answer.status == status
    assert front.passed_on == 0
