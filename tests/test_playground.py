"""The playground: its page and API over a stand-in world, and the real bot in it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.__main__ import main
from bot.playground import GROUP, Playground
from playground.botapi import FakeTelegram
from playground.web import PlaygroundSite


@pytest.fixture
async def world() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as fake:
        fake.add_user(101, "Anna", started=True)
        fake.add_group(-1001, "Friends", supergroup=True, creator=101)
        yield fake


@pytest.fixture
async def site(world: FakeTelegram) -> AsyncIterator[PlaygroundSite]:
    resets: list[int] = []

    async def reset() -> None:
        resets.append(1)

    page = PlaygroundSite(lambda: world, reset, port=0)
    world.listeners.append(page.changed)
    await page.start()
    page.resets = resets  # type: ignore[attr-defined]
    yield page
    await page.stop()


async def get(site: PlaygroundSite, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(site.url + path) as response:
        return response.status, await response.text()


async def post(site: PlaygroundSite, path: str, body: Any) -> tuple[int, Any]:
    async with aiohttp.ClientSession() as session, session.post(site.url + path, json=body) as r:
        return r.status, await r.text()


async def test_the_page_and_its_files_are_served_and_nothing_else(site: PlaygroundSite) -> None:
    assert site.url.startswith("http://127.0.0.1:")
    status, page = await get(site, "")
    assert status == 200
    assert "/static/app.js" in page
    assert (await get(site, "static/app.js"))[0] == 200
    assert (await get(site, "static/style.css"))[0] == 200
    assert (await get(site, "static/..%2Fweb.py"))[0] == 404
    assert (await get(site, "static/secret.py"))[0] == 404
    assert (await get(site, "photo/nothing"))[0] == 404


async def test_people_write_and_press_through_the_api(
    site: PlaygroundSite, world: FakeTelegram
) -> None:
    status, _ = await post(site, "api/send", {"user": 101, "chat": -1001, "text": "/help"})
    assert status == 200
    assert world.records(-1001)[-1].raw is not None
    state = site.state()
    group = next(c for c in state["chats"] if c["id"] == -1001)
    assert group["messages"][-1] == {
        "id": 1,
        "from": "Anna",
        "bot": False,
        "text": "/help",
        "entities": [{"type": "bot_command", "offset": 0, "length": 5}],
    }
    assert [p["name"] for p in state["people"]] == ["Anna"]
    # Mistakes of the page are refused with a reason, changing nothing.
    assert (await post(site, "api/send", {"user": 101, "chat": -1001}))[0] == 400
    assert (await post(site, "api/send", {"user": 999, "chat": -1001, "text": "x"}))[0] == 400
    assert (await post(site, "api/press", {"user": 101, "chat": -1001, "message": 1, "data": "x"}))[
        0
    ] == 400
    assert (await post(site, "api/send", ["not", "an", "object"]))[0] == 400


async def test_the_event_stream_tells_of_every_change(
    site: PlaygroundSite, world: FakeTelegram
) -> None:
    async with (
        aiohttp.ClientSession() as session,
        session.get(site.url + "api/events") as stream,
    ):
        first = await asyncio.wait_for(stream.content.readline(), 5)
        assert first.startswith(b"data: ")
        await stream.content.readline()  # the blank line ending the event
        world.send(101, -1001, "hello")
        changed = await asyncio.wait_for(stream.content.readline(), 5)
        assert changed.startswith(b"data: ")
        assert int(changed.split()[1]) > int(first.split()[1])


async def test_reset_asks_for_a_new_world(site: PlaygroundSite) -> None:
    assert (await post(site, "api/reset", {}))[0] == 200
    assert site.resets == [1]  # type: ignore[attr-defined]


async def wait_until(check: Any, timeout: float = 15) -> Any:  # noqa: ASYNC109
    for _ in range(int(timeout * 20)):
        value = check()
        if value:
            return value
        await asyncio.sleep(0.05)
    raise AssertionError("timed out")


async def test_the_real_bot_plays_in_the_playground_and_a_reset_starts_afresh(
    tmp_path: Path,
) -> None:
    playground = Playground(language="en", database=None, port=0)
    await playground.site.start()
    try:
        await playground.open(asyncio.Event())
        site = playground.site
        # Both people pressed Start: the bot greeted them in their chats.
        state = await wait_until(
            lambda: (
                (s := site.state())
                and all(len(c["messages"]) >= 2 for c in s["chats"] if c["kind"] == "private")
                and s
            )
        )
        assert [p["name"] for p in state["people"]] == ["Anna", "Boris"]
        await post(site, "api/send", {"user": 101, "chat": GROUP, "text": "/newgame durak"})

        def lobby() -> Any:
            group = next(c for c in site.state()["chats"] if c["id"] == GROUP)
            return next((m for m in group["messages"] if m["bot"] and m["buttons"]), None)

        message = await wait_until(lobby)
        assert "Players (1/6)" in message["text"]
        join = next(b for row in message["buttons"] for b in row if "🙋" in b["text"])
        status, _ = await post(
            site,
            "api/press",
            {"user": 102, "chat": GROUP, "message": message["id"], "data": join["data"]},
        )
        assert status == 200
        await wait_until(lambda: "Players (2/6)" in lobby()["text"])
        await post(site, "api/reset", {})
        await wait_until(lambda: lobby() is None and site.state()["chats"])
    finally:
        await playground.close()
        await playground.site.stop()
        playground.cleanup()


def test_a_taken_port_is_one_clear_line(capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["--playground", "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("koloda: ")
    assert str(port) in err
    assert len(err.strip().splitlines()) == 1
