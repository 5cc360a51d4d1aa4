"""Several workers of the real bot on one PostgreSQL database, in this test
process, against the stand-in Bot API: each update is posted to whichever
worker a test chooses, as a load balancer would, and reaches its chat's
worker through the inbox (bot/worker.py)."""

from __future__ import annotations

import asyncio
import json
import random
import signal
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.app import build_application, inbox_of
from bot.worker import SECRET_HEADER
from handlers.context import KEY, Koloda
from playground.botapi import FakeTelegram, SentMessage
from services import ChatLeases
from services.leases import RENEW, SCAN, TTL
from storage import Actor, Database, Status
from tests.clock import FakeClock
from tests.e2e.harness import bot_config, free_port, spawn_bot, wait_exit
from tests.e2e.test_webhook import SECRET

pytestmark = pytest.mark.parametrize("database", ["postgres"], indirect=True)

GROUP = -1001
ANNA, BORIS = 1, 2
IDLE_POLL = 0.005


def koloda(app: Any) -> Koloda:
    found = app.bot_data[KEY]
    assert isinstance(found, Koloda)
    return found


def leases(app: Any) -> ChatLeases:
    found = koloda(app).services.leases
    assert found is not None
    return found


def held(app: Any) -> frozenset[int]:
    return leases(app).held


@asynccontextmanager
async def worker(
    server: FakeTelegram, database: str, clock: FakeClock, name: str
) -> AsyncIterator[Any]:
    """A worker as the runner starts one, but with the updates posted to its
    inbox by the test instead of its webhook server."""
    config = bot_config(server, Path("unused"), database_url=database)
    app = build_application(config, clock=clock, heartbeat=3600.0, worker=name)
    await app.initialize()
    try:
        assert app.post_init is not None
        await app.post_init(app)
        await app.start()
        try:
            async with asyncio.timeout(10):
                await koloda(app).resumed.wait()
            yield app
        finally:
            await app.stop()
            assert app.post_stop is not None
            await app.post_stop(app)
    finally:
        await app.shutdown()
        assert app.post_shutdown is not None
        await app.post_shutdown(app)


async def kill(app: Any) -> None:
    """The worker dies: nothing it runs goes on, nothing is released."""
    await koloda(app).services.background.stop()


async def post(server: FakeTelegram, app: Any) -> list[dict[str, Any]]:
    """Post the updates the stand-in holds to ``app``'s inbox, as its webhook
    server would."""
    updates = server.take_updates(100)
    if updates:
        server.confirm_updates(updates[-1]["update_id"] + 1)
    inbox = inbox_of(app)
    assert inbox is not None
    for update in updates:
        await inbox.receive(update)
    return updates


async def pending(db: Database) -> int:
    async with db.read() as tx:
        return len(await tx.cluster.waiting_chats())


async def settle(*apps: Any) -> None:
    """Until every update filed is handled and every worker only waits."""
    db = koloda(apps[0]).services.db
    quiet = 0
    for _ in range(int(20 / IDLE_POLL)):
        await asyncio.sleep(IDLE_POLL)
        idle = all(koloda(app).services.background.idle for app in apps)
        quiet = quiet + 1 if idle and await pending(db) == 0 else 0
        if quiet >= 3:
            return
    raise AssertionError("the workers did not settle")


async def advance(clock: FakeClock, seconds: float, *apps: Any) -> None:
    target = clock.now() + seconds
    while True:
        await settle(*apps)
        wake = clock.next_wake()
        if wake is None or wake > target:
            break
        clock.wake_next()
    clock.set(target)
    await settle(*apps)


async def open_durak(
    server: FakeTelegram, clock: FakeClock, receivers: tuple[Any, Any, Any], *apps: Any
) -> None:
    """Anna opens a Durak table in the group, Boris sits down and Anna starts
    it, each update posted to the worker of ``receivers`` in turn."""
    opening, joining, starting = receivers
    server.send(ANNA, GROUP, "/newgame durak")
    await post(server, opening)
    await advance(clock, 2, *apps)
    lobby = with_buttons(server, GROUP, "l:")
    server.press(BORIS, GROUP, lobby.message_id, lobby.callback_data("🙋"))
    await post(server, joining)
    await advance(clock, 2, *apps)
    lobby = with_buttons(server, GROUP, "l:")
    server.press(ANNA, GROUP, lobby.message_id, lobby.callback_data("▶️"))
    await post(server, starting)
    await advance(clock, 2, *apps)


def with_buttons(server: FakeTelegram, chat_id: int, prefix: str) -> SentMessage:
    for message in reversed(server.chat_messages(chat_id)):
        if not message.deleted and any(d.startswith(prefix) for d in message.callback_datas):
            return message
    raise AssertionError(f"no message with {prefix} buttons in chat {chat_id}")


def sends(server: FakeTelegram, chat_id: int) -> int:
    return len(server.calls_to("sendMessage", chat_id)) + len(server.calls_to("sendPhoto", chat_id))


@pytest.fixture
async def server() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as fake:
        fake.add_user(ANNA, "Anna", started=True)
        fake.add_user(BORIS, "Boris", started=True)
        fake.add_group(GROUP, "Friends", supergroup=True)
        yield fake


async def test_postgres_an_update_any_worker_receives_is_handled_by_its_chats_holder(
    server: FakeTelegram, database: str
) -> None:
    clock = FakeClock()
    async with (
        worker(server, database, clock, "a") as a,
        worker(server, database, clock, "b") as b,
    ):
        server.send(ANNA, GROUP, "/newgame durak")
        await post(server, a)  # nobody held the group: A takes it (or B's look does)
        await advance(clock, 2, a, b)
        assert (GROUP in held(a)) != (GROUP in held(b))
        if GROUP in held(b):
            a, b = b, a  # A is the group's worker, B the other one
        lobby = with_buttons(server, GROUP, "l:")
        query = server.press(BORIS, GROUP, lobby.message_id, lobby.callback_data("🙋"))
        await post(server, b)  # B files it; A, the group's holder, handles it
        await advance(clock, 2, a, b)
        assert GROUP not in held(b)
        assert server.callback_answer(query) is not None
        assert "Boris" in with_buttons(server, GROUP, "l:").text
        assert sends(server, GROUP) == 1  # the lobby, edited in place
        server.send(BORIS, BORIS, "/help")
        await post(server, a)
        await advance(clock, 1, a, b)
        assert (BORIS in held(a)) != (BORIS in held(b))  # one worker took his DM
        assert len(server.chat_messages(BORIS)) == 1


async def test_postgres_an_update_posted_twice_is_handled_once(
    server: FakeTelegram, database: str
) -> None:
    clock = FakeClock()
    async with (
        worker(server, database, clock, "a") as a,
        worker(server, database, clock, "b") as b,
    ):
        server.send(ANNA, ANNA, "/help")
        (update,) = await post(server, a)
        inbox = inbox_of(b)
        assert inbox is not None
        assert not await inbox.receive(update)  # Telegram's redelivery, to another worker
        await advance(clock, 1, a, b)
        assert not await inbox.receive(update)  # and once more, after it was handled
        await advance(clock, 1, a, b)
        assert len(server.chat_messages(ANNA)) == 1


async def test_postgres_a_dead_workers_table_is_taken_over_and_goes_on_with_nothing_sent_twice(
    server: FakeTelegram, database: str
) -> None:
    clock = FakeClock()
    async with (
        worker(server, database, clock, "a") as a,
        worker(server, database, clock, "b") as b,
    ):
        for user_id in (ANNA, BORIS):  # their hands go to their DMs
            server.send(user_id, user_id, "/start")
        await post(server, b)
        assert await leases(a).take(GROUP)  # A is the group's worker
        await open_durak(server, clock, (a, b, a), a, b)
        await advance(clock, 3, a, b)
        services = koloda(b).services
        (table,) = await services.snapshots.tables_in_chat(GROUP)
        snapshot = await services.snapshots.snapshot(table.id)
        assert snapshot.started
        (seat,) = snapshot.waits()
        mover = snapshot.seat(seat).user_id
        assert mover is not None
        due = snapshot.deadlines[seat].due_at
        before = {chat: sends(server, chat) for chat in (GROUP, ANNA, BORIS)}
        hand = with_buttons(server, mover, "m:")

        await kill(a)
        await advance(clock, TTL + SCAN + RENEW, b)
        assert GROUP in held(b)
        # B resumed the table from the database: everything was delivered, so
        # nothing is sent again.
        assert {chat: sends(server, chat) for chat in (GROUP, ANNA, BORIS)} == before
        assert with_buttons(server, mover, "m:").message_id == hand.message_id

        move = next(d for d in hand.callback_datas if d.startswith("m:"))
        server.press(mover, mover, hand.message_id, move)
        await post(server, b)
        await advance(clock, 3, b)
        after = await services.snapshots.snapshot(table.id)
        assert after.table.moves == 1
        # The next turn's deadline runs on B, and fires once.
        (nxt,) = after.waits()
        left = after.deadlines[nxt].due_at - clock.now()
        assert after.deadlines[nxt].due_at > due
        await advance(clock, left + 1, b)
        async with services.db.read() as tx:
            actors = [m.actor for m in await tx.tables.last_moves(table.id, 100)]
        assert actors.count(Actor.TIMER) >= 1
        assert actors[:2] == [Actor.PLAYER, Actor.TIMER]
        # Every DM hand and the group's message is still one message each.
        assert sends(server, GROUP) - before[GROUP] <= 1  # at most the turn's mention


@pytest.mark.slow  # the bot runs in a process of its own
async def test_postgres_a_worker_process_files_each_post_before_answering_it(
    server: FakeTelegram, database: str, tmp_path: Path
) -> None:
    """``python -m bot`` with WEBHOOK_URL and a PostgreSQL DATABASE_URL is a
    worker among several: its webhook server files an update, then answers."""
    port = free_port()
    url = f"http://127.0.0.1:{port}/koloda-hook"
    env = {
        "BOT_TOKEN": server.token,
        "TELEGRAM_API_BASE_URL": server.base_url,
        "DATABASE_URL": database,
        "WEBHOOK_URL": url,
        "WEBHOOK_LISTEN": "127.0.0.1",
        "WEBHOOK_PORT": str(port),
        "WEBHOOK_SECRET": SECRET,
        "WORKER_ID": "worker-1",
        "LOG_LEVEL": "INFO",
    }
    log = tmp_path / "bot.log"
    process = spawn_bot(env, tmp_path, log)
    try:
        await server.wait_for(lambda: server.webhook, timeout=30)
        server.send(ANNA, ANNA, "/help")
        (update,) = server.take_updates(10)

        async def posted(secret: str, body: str) -> int:
            headers = {"Content-Type": "application/json", SECRET_HEADER: secret}
            async with aiohttp.ClientSession() as http:
                for _ in range(100):  # its server starts right after setWebhook
                    try:
                        async with http.post(url, data=body, headers=headers) as answer:
                            return answer.status
                    except aiohttp.ClientConnectionError:
                        await asyncio.sleep(0.1)
            raise AssertionError("the worker's webhook server did not start")

        assert await posted("wrong", json.dumps(update)) == 403
        assert await posted(SECRET, "not json") == 400
        assert await posted(SECRET, json.dumps({"update_id": 1, "message": "what"})) == 400
        assert await posted(SECRET, json.dumps(update)) == 200
        assert await posted(SECRET, json.dumps(update)) == 200  # Telegram's redelivery
        reply = await server.wait_for(lambda: server.last_bot_message(ANNA), timeout=20)
        assert "/newgame" in reply.text
        db = await Database.open(database)
        try:
            async with db.read() as tx:
                assert await tx.cluster.waiting_chats() == []
                lease = await tx.cluster.lease(ANNA)
        finally:
            await db.close()
        assert lease is not None
        assert lease.worker == "worker-1"
    finally:
        process.send_signal(signal.SIGTERM)
        await wait_exit(process, 20)
    output = log.read_text(encoding="utf-8")
    assert "Traceback" not in output
    assert "worker worker-1" in output
    assert len(server.chat_messages(ANNA)) == 1
    # A stopping worker releases its chats: another may take them at once.
    db = await Database.open(database)
    try:
        async with db.read() as tx:
            released = await tx.cluster.lease(ANNA)
    finally:
        await db.close()
    assert released is not None
    assert released.expires_at <= released.renewed_at


async def test_postgres_a_stopping_workers_chats_are_taken_at_once_by_the_others(
    server: FakeTelegram, database: str
) -> None:
    clock = FakeClock()
    async with worker(server, database, clock, "b") as b:
        async with worker(server, database, clock, "a") as a:
            assert await leases(a).take(GROUP)
            server.send(ANNA, GROUP, "/newgame durak")
            await post(server, a)
            await advance(clock, 2, a, b)
            assert GROUP in held(a)
            lobby = with_buttons(server, GROUP, "l:")
        # A released the group and said so: B takes it without waiting for
        # its lease to run out, or for its own next look (the clock stands).
        for _ in range(1000):
            if GROUP in held(b):
                break
            await asyncio.sleep(IDLE_POLL)
        assert GROUP in held(b)
        await settle(b)
        assert sends(server, GROUP) == 1
        query = server.press(BORIS, GROUP, lobby.message_id, lobby.callback_data("🙋"))
        await post(server, b)
        await advance(clock, 2, b)
        assert server.callback_answer(query) is not None
        assert "Boris" in with_buttons(server, GROUP, "l:").text
        assert sends(server, GROUP) == 1


@pytest.mark.slow  # a whole game
async def test_postgres_a_game_played_through_two_workers_one_killed_finishes_with_nothing_twice(
    server: FakeTelegram, database: str
) -> None:
    """Presses posted to both workers in turn; the group's worker is killed
    mid-game and the other carries the game to its end."""
    rng = random.Random(28)
    clock = FakeClock()
    async with (
        worker(server, database, clock, "a") as a,
        worker(server, database, clock, "b") as b,
    ):
        live = [a, b]

        async def press(user_id: int, message: SentMessage, data: str) -> None:
            server.press(user_id, message.chat_id, message.message_id, data)
            await post(server, live[rng.randrange(len(live))])
            await advance(clock, 1.5, *live)

        async def press_lobby(user_id: int, label: str) -> None:
            lobby = with_buttons(server, GROUP, "l:")
            await press(user_id, lobby, lobby.callback_data(label))

        for user_id in (ANNA, BORIS):
            server.send(user_id, user_id, "/start")
        await post(server, b)
        server.send(ANNA, GROUP, "/newgame durak")
        await post(server, a)
        await advance(clock, 2, *live)
        await press_lobby(BORIS, "🙋")
        await press_lobby(ANNA, "⚙️")
        for _ in range(8):  # no turn timer: the presses take their time
            turn = next(t for t in with_buttons(server, GROUP, "l:").button_texts if "На ход" in t)
            if turn.endswith("без лимита"):
                break
            await press_lobby(ANNA, "На ход")
        await press_lobby(ANNA, "« Назад")
        await press_lobby(ANNA, "▶️")
        services = koloda(b).services
        (table,) = await services.snapshots.tables_in_chat(GROUP)
        holder = a if GROUP in held(a) else b
        for step in range(400):
            if step == 12:
                await kill(holder)
                live.remove(holder)
                await advance(clock, TTL + SCAN + RENEW, *live)
                assert GROUP in held(live[0])
            hands = [
                (user_id, message)
                for user_id in (ANNA, BORIS)
                for message in server.chat_messages(user_id)
                if not message.deleted and any(d.startswith("m:") for d in message.callback_datas)
            ]
            if (await services.snapshots.table(table.id)).status is Status.FINISHED:
                break
            assert hands, "nobody can move"
            user_id, message = rng.choice(hands)
            data = rng.choice([d for d in message.callback_datas if d.startswith("m:")])
            await press(user_id, message, data)
        else:
            raise AssertionError("the game did not end")
        assert len(live) == 1  # the kill came mid-game
        await advance(clock, 5, *live)
        async with services.db.read() as tx:
            moves = await tx.tables.last_moves(table.id, 10_000)
        assert {m.actor for m in moves} == {Actor.PLAYER}  # no timer, no computer
        assert len(moves) > 12  # the game went on past the kill
        # Nothing was sent twice: no two messages of the group alike, and at
        # most one live hand with buttons per player (none after the end).
        texts = [m.text for m in server.chat_messages(GROUP)]
        assert len(texts) == len(set(texts)), texts
        for user_id in (ANNA, BORIS):
            assert not [
                m
                for m in server.chat_messages(user_id)
                if not m.deleted and any(d.startswith("m:") for d in m.callback_datas)
            ]


async def test_postgres_a_player_back_in_a_dm_one_worker_holds_gets_his_hand_from_the_other(
    server: FakeTelegram, database: str
) -> None:
    clock = FakeClock()
    async with (
        worker(server, database, clock, "a") as a,
        worker(server, database, clock, "b") as b,
    ):
        assert await leases(a).take(GROUP)  # A: the group and its table
        assert await leases(b).take(BORIS)  # B: Boris's DM
        for user_id in (ANNA, BORIS):
            server.send(user_id, user_id, "/start")
        await post(server, b)
        await open_durak(server, clock, (a, a, a), a, b)
        services = koloda(a).services
        (table,) = await services.snapshots.tables_in_chat(GROUP)

        async def move() -> None:
            """The first legal move of the seat on move."""
            snapshot = await services.snapshots.snapshot(table.id)
            (seat,) = snapshot.waits()
            code = snapshot.legal(seat)[0].encode()
            await services.tables.act(table.id, seat, code, actor=Actor.PLAYER)
            await advance(clock, 2, a, b)

        # He blocks the bot, and A meets it first: the fresh hand of his next
        # turn is refused.
        server.block(BORIS)
        server.take_updates(100)
        server.confirm_updates(server.pending_updates[-1]["update_id"] + 1)
        for _ in range(50):
            if not await services.directory.dm_ok(BORIS):
                break
            await move()
        assert not await services.directory.dm_ok(BORIS)
        hands_before = len(server.calls_to("sendMessage", BORIS))
        # He unblocks it: B, holding his DM, hears it; A sends his hand there.
        server.unblock(BORIS)
        await post(server, b)
        for _ in range(200):
            await advance(clock, 0.5, a, b)
            if len(server.calls_to("sendMessage", BORIS)) > hands_before:
                break
        assert await services.directory.dm_ok(BORIS)
        assert len(server.calls_to("sendMessage", BORIS)) == hands_before + 1
        fresh = server.last_bot_message(BORIS)
        assert fresh is not None
        assert fresh.text.startswith("Дурак · «Friends»")  # his hand


class HeldTelegram(FakeTelegram):
    """The stand-in holding one sendMessage, once asked, until let go: a call
    under way."""

    def __init__(self) -> None:
        super().__init__()
        self.arrived = asyncio.Event()
        self.hold: asyncio.Event | None = None

    async def _dispatch(self, name: str, params: Any) -> Any:
        if name == "sendMessage" and self.hold is not None:
            hold, self.hold = self.hold, None
            self.arrived.set()
            await hold.wait()
        return await super()._dispatch(name, params)


async def test_postgres_a_send_under_way_when_its_chat_is_dropped_is_recorded_and_not_made_again(
    database: str,
) -> None:
    """A worker whose leases lapse while it posts the lobby: the post is not
    cut off (Telegram would make the message all the same, and no record of
    it would be left) but finished and recorded, so that the chat's next
    holder edits that message instead of posting the lobby again."""
    clock = FakeClock()
    server = HeldTelegram()
    async with server:
        server.add_user(ANNA, "Anna", started=True)
        server.add_group(GROUP, "Friends", supergroup=True)
        async with (
            worker(server, database, clock, "a") as a,
            worker(server, database, clock, "b") as b,
        ):
            assert await leases(a).take(GROUP)
            server.hold = hold = asyncio.Event()
            server.send(ANNA, GROUP, "/newgame durak")
            await post(server, a)
            async with asyncio.timeout(10):
                await server.arrived.wait()  # the lobby's send is under way
            clock.set(clock.now() + TTL / 2 + 0.5)  # A's renewal is late...
            assert not leases(a).holds(GROUP)
            await asyncio.sleep(0)
            assert GROUP not in held(a)  # ...and it dropped the chat
            hold.set()
            await settle(a, b)
            await kill(a)
            await advance(clock, TTL + SCAN + RENEW, b)
            assert GROUP in held(b)
            assert sends(server, GROUP) == 1
            lobby = with_buttons(server, GROUP, "l:")
            server.press(ANNA, GROUP, lobby.message_id, lobby.callback_data("⚙️"))
            await post(server, b)
            await advance(clock, 2, b)
            assert sends(server, GROUP) == 1  # B edits the lobby A posted
