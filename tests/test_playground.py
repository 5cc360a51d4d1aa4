"""The playground: its page and API over a stand-in world, and the real bot in it."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.__main__ import main, playground_language
from bot.playground import GROUP, Playground
from i18n import LANGUAGES, catalog_keys
from playground.botapi import FakeTelegram
from playground.web import PAGE_TEXTS, PlaygroundSite
from tests.processes import alive, search_workers

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
async def world() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as fake:
        fake.add_user(101, "Anna", started=True)
        fake.add_group(-1001, "Friends", supergroup=True, creator=101)
        yield fake


class Stand:
    """The page's host: one world in one language; a reset is recorded, for
    the real one see the tests of :class:`Playground` below."""

    def __init__(self, world: FakeTelegram, language: str) -> None:
        self._world = world
        self.language = language
        self.resets: list[str] = []

    def world(self) -> FakeTelegram:
        return self._world

    async def reset(self, language: str) -> None:
        self.resets.append(language)
        self.language = language


@pytest.fixture
async def stand(world: FakeTelegram) -> Stand:
    return Stand(world, "en")


@pytest.fixture
async def site(world: FakeTelegram, stand: Stand) -> AsyncIterator[PlaygroundSite]:
    page = PlaygroundSite(stand, port=0)
    world.listeners.append(page.changed)
    await page.start()
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
        async with asyncio.timeout(5):
            first = await stream.content.readline()
        assert first.startswith(b"data: ")
        await stream.content.readline()  # the blank line ending the event
        world.send(101, -1001, "hello")
        async with asyncio.timeout(5):
            changed = await stream.content.readline()
        assert changed.startswith(b"data: ")
        assert int(changed.split()[1]) > int(first.split()[1])


async def test_reset_asks_for_a_new_world_in_the_language_chosen(
    site: PlaygroundSite, stand: Stand
) -> None:
    assert (await post(site, "api/reset", {}))[0] == 200
    assert (await post(site, "api/reset", {"language": "ru"}))[0] == 200
    assert (await post(site, "api/reset", {"language": "xx"}))[0] == 400
    assert stand.resets == ["en", "ru"]
    assert site.state()["language"] == "ru"


def test_every_language_of_the_catalogs_has_every_text_of_the_page() -> None:
    for language in LANGUAGES:
        keys = catalog_keys(language)
        missing = [name for name in PAGE_TEXTS if f"playground.page.{name}" not in keys]
        assert not missing, (language, missing)
        assert "playground.person.1" in keys
        assert "playground.person.2" in keys


async def test_the_page_speaks_the_playground_language(site: PlaygroundSite, stand: Stand) -> None:
    state = site.state()
    assert state["language"] == "en"
    assert state["languages"] == {"ru": "Русский", "en": "English", **state["languages"]}
    assert state["texts"]["send"] == "Send"
    assert state["texts"]["message_to"] == "message to {chat}"  # the page fills it in
    assert set(state["texts"]) == set(PAGE_TEXTS)
    stand.language = "ru"
    state = site.state()
    assert state["texts"]["send"] == "Отправить"
    assert state["texts"]["you_are"] == "Вы —"
    # The page's files carry no texts of their own: they all come from the state.
    _, page = await get(site, "")
    _, script = await get(site, "static/app.js")
    for english in ("Send", "You are", "New playground", "private chat with the bot"):
        assert english not in page
        assert f'"{english}' not in script


def test_the_playground_language_is_the_bots_default_language(tmp_path: Path) -> None:
    missing = tmp_path / "no.env"
    assert playground_language({}, missing) == "ru"
    assert playground_language({"DEFAULT_LANGUAGE": "en"}, missing) == "en"
    assert playground_language({"DEFAULT_LANGUAGE": "xx"}, missing) == "ru"
    dotenv = tmp_path / ".env"
    dotenv.write_text("DEFAULT_LANGUAGE=en\n", encoding="utf-8")
    assert playground_language({}, dotenv) == "en"
    assert playground_language({"DEFAULT_LANGUAGE": "ru"}, dotenv) == "ru"


async def send_as_the_bot(world: FakeTelegram, chat_id: int) -> tuple[int, Any]:
    """What the bot's sendMessage to ``chat_id`` gets from the stand-in Bot API."""
    body = {"chat_id": chat_id, "text": "hello"}
    async with (
        aiohttp.ClientSession() as session,
        session.post(f"{world.base_url}{world.token}/sendMessage", json=body) as response,
    ):
        return response.status, await response.json()


async def test_people_are_added_through_the_api(site: PlaygroundSite, world: FakeTelegram) -> None:
    status, body = await post(site, "api/people", {"name": "  Vera  ", "opened": False})
    assert status == 200
    assert json.loads(body) == {"id": 102}
    vera = world.users[102]
    assert (vera.first_name, vera.language_code, vera.started) == ("Vera", "en", False)
    state = site.state()
    assert state["people"] == [
        {"id": 101, "name": "Anna", "opened": True},
        {"id": 102, "name": "Vera", "opened": False},
    ]
    assert {"id": 102, "kind": "private", "title": "Vera", "messages": []} in state["chats"]
    # The bot cannot write to someone who never opened it, as in Telegram...
    status, refused = await send_as_the_bot(world, 102)
    assert status == 403
    assert refused["description"] == "Forbidden: bot can't initiate conversation with a user"
    # ...until they press Start (here after following the Join button's link).
    assert (await post(site, "api/start", {"user": 102, "payload": "j1"}))[0] == 200
    assert world.records(102)[-1].raw["text"] == "/start j1"  # type: ignore[index]
    assert site.state()["people"][1]["opened"] is True
    assert (await send_as_the_bot(world, 102))[0] == 200

    # Someone who had opened the bot before pressed Start back then.
    assert (await post(site, "api/people", {"name": "Gleb", "opened": True}))[0] == 200
    assert [r.raw["text"] for r in world.records(103) if r.raw] == ["/start"]
    assert (await send_as_the_bot(world, 103))[0] == 200

    # Mistakes are refused, adding nobody; a name taken is said in the page's language.
    status, taken = await post(site, "api/people", {"name": "vera", "opened": True})
    assert (status, taken) == (400, "There is already someone called vera")
    assert (await post(site, "api/people", {"name": "   ", "opened": True}))[0] == 400
    assert (await post(site, "api/people", {"name": "x" * 65, "opened": True}))[0] == 400
    assert (await post(site, "api/people", {"name": "Lev"}))[0] == 400
    assert (await post(site, "api/people", {"name": "Lev", "opened": "no"}))[0] == 400
    assert sorted(world.users) == [101, 102, 103]


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


async def test_people_added_in_russian_are_answered_in_russian_once_they_open_the_bot() -> None:
    playground = Playground(language="ru", database=None, port=0)
    await playground.site.start()
    try:
        await playground.open(asyncio.Event())
        site, world = playground.site, playground.world()
        assert site.state()["texts"]["start"] == "Запустить"
        assert [(u.first_name, u.language_code) for u in world.users.values()] == [
            ("Аня", "ru"),
            ("Борис", "ru"),
        ]
        assert world.chats[GROUP].title == "Игровая"
        _, body = await post(site, "api/people", {"name": "Вера", "opened": False})
        vera = json.loads(body)["id"]
        _, body = await post(site, "api/people", {"name": "Глеб", "opened": False})
        gleb = json.loads(body)["id"]
        assert world.users[vera].language_code == "ru"
        assert (await send_as_the_bot(world, vera))[0] == 403

        # Gleb opens the bot by himself: Start, and the welcome, in Russian.
        await post(site, "api/start", {"user": gleb, "payload": ""})
        welcome = await wait_until(lambda: world.last_bot_message(gleb))
        assert welcome.text.startswith("Привет! Я Колода")

        # Vera presses Join in the group: seated, though the bot cannot write
        # to her (her cards can come to her in the group); later she opens the
        # bot by the table's link, and is greeted there.
        await post(site, "api/send", {"user": 101, "chat": GROUP, "text": "/newgame durak"})
        lobby = await wait_until(lambda: world.last_bot_message(GROUP))
        join = {"message": lobby.message_id, "data": lobby.callback_data("🙋")}
        _, body = await post(site, "api/press", {"user": vera, "chat": GROUP, **join})
        query = json.loads(body)["query"]
        answer = await wait_until(lambda: site.state()["answers"][query].get("text"))
        assert answer == "Вы за столом."
        assert world.last_bot_message(vera) is None
        await wait_until(lambda: "Игроки (2/6)" in world.bot_messages(GROUP)[-1].text)
        await post(site, "api/start", {"user": vera, "payload": "j1"})
        seated = await wait_until(lambda: world.last_bot_message(vera))
        assert seated.text.startswith("👋 Привет, Вера! Я Колода")
        assert "✅ Вы за столом в чате «Игровая». Карты придут сюда" in seated.text
    finally:
        await playground.close()
        await playground.site.stop()
        playground.cleanup()


def test_a_taken_port_is_one_clear_line(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["--playground", "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("koloda: ")
    assert str(port) in err
    assert len(err.strip().splitlines()) == 1


# ------------------------------------------------------------------ Ctrl-C


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def spawn_playground(
    tmp_path: Path, *, own_group: bool = False
) -> tuple[subprocess.Popen[bytes], str]:
    """``python -m bot`` with neither a token nor a language on a free port, and
    its page's address (once it printed it).  ``own_group``: in a process group
    of its own, as a terminal's foreground job, which Ctrl-C signals as a whole."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("BOT_TOKEN", "DEFAULT_LANGUAGE")}
    env.update(PYTHONPATH=str(ROOT))
    process = subprocess.Popen(  # noqa: S603 - our own entry point, our own arguments
        [sys.executable, "-m", "bot", "--port", str(port), "--database", str(tmp_path / "pg.db")],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=own_group,
    )
    url = f"http://127.0.0.1:{port}/"
    assert process.stdout is not None
    ready = process.stdout.readline()
    assert url.encode() in ready, ready + process.stderr.read() if process.stderr else b""
    return process, url


async def api(url: str, path: str, body: Any = None) -> Any:
    async with aiohttp.ClientSession() as session:
        if body is None:
            async with session.get(url + path) as response:
                return await response.json()
        async with session.post(url + path, json=body) as response:
            assert response.status == 200, await response.text()
            return await response.json()


async def press_labelled(
    url: str, chat: int, user: int, label: str, shown: str = "", times: int = 1
) -> None:
    """``user`` presses the latest button whose text contains ``label``, once
    its message shows ``shown`` ``times`` times (the previous press painted)."""

    async def find() -> tuple[int, str] | None:
        state = await api(url, "api/state")
        messages = next(c for c in state["chats"] if c["id"] == chat)["messages"]
        for message in reversed(messages):
            for row in message.get("buttons", []):
                for button in row:
                    if label in button["text"] and message["text"].count(shown) >= times:
                        return message["id"], button["data"]
        return None

    found = await wait_until_async(find)
    await api(url, "api/press", {"user": user, "chat": chat, "message": found[0], "data": found[1]})


async def wait_until_async(check: Any, timeout: float = 30) -> Any:  # noqa: ASYNC109
    for _ in range(int(timeout * 10)):
        value = await check()
        if value:
            return value
        await asyncio.sleep(0.1)
    raise AssertionError("timed out")


@pytest.mark.slow
async def test_ctrl_c_while_computers_think_exits_cleanly(tmp_path: Path) -> None:
    """Ctrl-C in a terminal signals the whole process group: the playground and
    the computers' worker processes alike.  It stops with exit code 0 (a stop
    asked for and done, as SIGINT to the bot with a token) and no traceback.
    (Without DEFAULT_LANGUAGE it all speaks Russian.)"""
    process, url = spawn_playground(tmp_path, own_group=True)
    try:
        state = await api(url, "api/state")
        assert (state["language"], state["texts"]["send"]) == ("ru", "Отправить")
        await api(url, "api/send", {"user": 101, "chat": GROUP, "text": "/newgame durak"})
        await press_labelled(url, GROUP, 101, "⚙️")
        for added in range(3):
            await press_labelled(url, GROUP, 101, "+ компьютер", "🤖", added)
        await press_labelled(url, GROUP, 101, "« Назад", "🤖", 3)
        await press_labelled(url, GROUP, 101, "▶️", "🤖", 3)
        # Hard computers (a new table's level) search: the pool starts at the
        # first search, whoever attacks first; Anna moves until it has.
        rng = random.Random(5)

        async def thinking() -> set[int]:
            workers = search_workers(process.pid)
            if not workers:
                state = await api(url, "api/state")
                anna = next(c for c in state["chats"] if c["id"] == 101)["messages"]
                buttons = [b for row in anna[-1].get("buttons", []) for b in row if b["data"]]
                if buttons:
                    pressed = rng.choice(buttons)["data"]
                    body = {"user": 101, "chat": 101, "message": anna[-1]["id"], "data": pressed}
                    async with aiohttp.ClientSession() as session:
                        await session.post(url + "api/press", json=body)  # a stale one is refused
            return workers

        workers = await wait_until_async(thinking, timeout=60)
        os.killpg(process.pid, signal.SIGINT)
        async with asyncio.timeout(30):
            _, err = await asyncio.to_thread(process.communicate)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    stderr = err.decode()
    assert "Traceback" not in stderr, stderr
    assert "KeyboardInterrupt" not in stderr, stderr
    assert process.returncode == 0, stderr
    assert not alive(workers)  # the bot waited for them
