"""Three bot workers on one PostgreSQL database behind a round-robin balancer,
as an operator runs them: the stand-in Bot API posts every update to the
webhook as Telegram does (again, until a worker takes it), the balancer hands
each post to the next worker, and any worker may get any update.  A dozen
games of every kind are played to their results by people pressing at once
at every table, with computers at some, while the workers are SIGKILLed and
started again at random.

Nothing may depend on which worker got what: no move is lost or applied twice
(the move log against the presses made and the moves answered as applied),
every game finishes and shows its end in its group, the turn timer of a player
who never presses fires once, no message is sent twice and no table message
is duplicated (the stand-in records every send), and each group's budget of
20 messages a minute holds across the workers."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import signal
import socket
import subprocess
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from playground.botapi import ApiCall, FakeTelegram, Fault, RoundRobin, SentMessage
from playground.botapi.errors import ApiError
from playground.botapi.params import Params
from tests.e2e.harness import (
    MOVE_DATA,
    WEBHOOK_PATH,
    Probe,
    Table,
    free_port,
    seat_players,
    start_worker_process,
    stop_bot_process,
    wait_exit,
)
from tests.e2e.test_seats import add_computers
from tests.postgres import Cluster
from tests.processes import without_orphaned_workers

NAMES = ["Anna", "Boris", "Vera", "Gleb"]
WORKERS = 3
GROUP_BUDGET = 20
"""Messages and edits a minute per group: the production default, held by
the workers together."""
MINUTE = 60.0
LEASE_SECONDS = 6
"""How long a worker's hold on a chat lasts unless renewed (10 s in
production): a killed worker's chats are taken over within a few seconds."""
TIMED_TURN = "30 с"
"""The shortest turn there is, at the tables with a player who never presses."""
KILLS = 8
"""SIGKILLs, each of a worker chosen at random, while the games are played
(a dead worker's chats wait for its leases to run out: more kills cost the
games' time more than they add cases)."""
KILL_EVERY = (2.0, 5.0)
"""Seconds between kills, at random."""
DOWN_FOR = (0.0, 2.0)
"""Seconds a killed worker stays down, at random (more kills may fall meanwhile)."""
ANSWER_WAIT = 30.0
"""Seconds a player waits for the answer to a press: Telegram posts an update
again until a worker takes it, so a press is answered unless the worker that
applied it died before answering."""
SHOWN_WAIT = 1.0
"""Seconds a player waits after an answer for the table to show something new."""
IDLE_PAUSE = 0.05
"""Seconds a player waits when no button is his to press (a computer thinks)."""
STALL_SECONDS = 60.0
"""Seconds without a move anywhere that mean the games are stuck."""
UNRECORDED = 1.0
"""Seconds after a send within which a kill may leave it unrecorded (the
ledger writes it in its next group commit, milliseconds later on an idle
machine)."""
PROGRESS_EVERY = 10.0
"""Seconds between lines saying how far the games got."""


@dataclass(frozen=True)
class Seating:
    key: str
    preset: str
    people: int
    computers: int = 0
    quiet: int = 0
    """The last ``quiet`` people never press a move: the turn timer (30 s) plays
    out each one's turn once and marks him away, and a computer plays on."""
    options: tuple[tuple[str, str], ...] = ()
    """Lobby options set before the start: (the button's name, the value shown)."""


GAMES = [
    Seating("durak", "podkidnoy", people=2),
    Seating("durak", "teams", people=4),
    Seating("durak", "diamonds", people=1, computers=1),
    Seating("durak", "believe", people=1, computers=1),
    Seating("durak", "podkidnoy", people=2, quiet=1),
    Seating("101", "crocodile", people=1, computers=1),
    Seating("101", "crocodile", people=1, computers=1, quiet=1),
    Seating("joker", "classic", people=1, computers=3, options=(("Сдачи", "короткая (12)"),)),
    Seating("daytona", "sprint", people=1, computers=2, quiet=1),
]
"""A table of each kind a dying worker leaves to the others: people alone, a
team game, computers, a player the turn timer stands in for, and every game.
The Durak variants differ only in their engine, which the kills do not reach
(the engines' tests play them all).  Random presses make long games: the
people's seats are few where a game is long (101 is played to 101 points,
Joker has a dozen deals even short)."""


class FleetTelegram(FakeTelegram):
    """The stand-in delivering by webhook, telling the players when one of
    their chats changed."""

    def __init__(self) -> None:
        super().__init__(deliver_webhooks=True, webhook_retry=(0.05, 1.0))
        self.touched: Counter[int] = Counter()
        """Calls that changed something, by chat."""
        self._waiting: set[asyncio.Event] = set()

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
        super()._record(name, params, arrived, result=result, error=error, fault=fault)
        call = self._calls[-1]
        if call.ok and isinstance(call.chat_id, int) and name != "answerCallbackQuery":
            self.touched[call.chat_id] += 1
            for news in self._waiting:
                news.set()

    async def until(self, condition: Callable[[], bool], timeout: float) -> bool:  # noqa: ASYNC109
        """Wait until ``condition`` holds after some chat changed, at most
        ``timeout`` seconds; whether it held."""
        deadline = time.monotonic() + timeout
        news = asyncio.Event()
        self._waiting.add(news)
        try:
            while True:
                news.clear()  # before the look: a change after it sets it again
                if condition():
                    return True
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(remaining):
                        await news.wait()
        finally:
            self._waiting.discard(news)


@dataclass
class Worker:
    name: str
    port: int
    log: Path
    process: subprocess.Popen[bytes] | None = None

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None


class Fleet:
    """The workers, started, killed and started again as the storm says."""

    def __init__(
        self, server: FakeTelegram, database_url: str, workdir: Path, webhook_url: str
    ) -> None:
        self.server = server
        self.database_url = database_url
        self.workdir = workdir
        self.webhook_url = webhook_url
        self.workers = [
            Worker(f"w{n}", free_port(), workdir / f"worker-{n}.log") for n in range(1, WORKERS + 1)
        ]
        self.kills = 0
        self.killed_at: list[float] = []
        """When each kill fell (time.monotonic(), as the stand-in's records)."""
        self.restarts: set[asyncio.Task[None]] = set()

    def start(self, worker: Worker) -> None:
        worker.process = start_worker_process(
            self.server,
            self.database_url,
            self.workdir,
            worker.log,
            webhook_url=self.webhook_url,
            port=worker.port,
            worker_id=worker.name,
            group_edits_per_minute=GROUP_BUDGET,
            computer_pause_ms=10,
            lease_seconds=LEASE_SECONDS,
            log_level="INFO",  # chats taken and dropped, calls that failed: a failure's story
        )

    async def listening(self) -> None:
        """Until every worker has set the webhook and takes connections."""
        await self.server.wait_for(lambda: self.server.webhook, timeout=60)
        for port in [w.port for w in self.workers]:
            await self.server.wait_for(partial(_listens, port), timeout=60)

    async def kill(self, worker: Worker, down_for: float) -> None:
        """SIGKILL, and start it again after ``down_for`` seconds."""
        assert worker.process is not None
        worker.process.send_signal(signal.SIGKILL)
        assert await wait_exit(worker.process, 10) == -signal.SIGKILL
        self.kills += 1
        self.killed_at.append(time.monotonic())

        async def restart() -> None:
            await asyncio.sleep(down_for)
            self.start(worker)

        task = asyncio.create_task(restart())
        self.restarts.add(task)
        task.add_done_callback(self.restarts.discard)

    async def stop(self) -> None:
        for task in list(self.restarts):
            task.cancel()
        await asyncio.gather(*self.restarts, return_exceptions=True)
        await asyncio.gather(
            *(stop_bot_process(w.process) for w in self.workers if w.process is not None)
        )


def _listens(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


class FleetTable(Table):
    """A table whose players, after each action, wait for the bot to show
    something new at their table (not for the whole bot to fall quiet, as a
    dozen tables playing at once never do)."""

    server: FleetTelegram

    def shown(self) -> int:
        """How many calls changed the group or the players' chats so far."""
        touched = self.server.touched
        return touched[self.group_id] + sum(touched[user_id] for user_id in self.players)

    async def press(self, user_id: int, message: SentMessage, data: str) -> dict[str, Any]:
        before = self.shown()
        query = self.server.press(user_id, message.chat_id, message.message_id, data)
        answer = await self.server.answered(query, timeout=ANSWER_WAIT)
        await self.server.until(lambda: self.shown() != before, SHOWN_WAIT)
        return answer

    async def command(self, user_id: int, text: str, chat_id: int | None = None) -> None:
        before = self.shown()
        self.server.send(user_id, self.group_id if chat_id is None else chat_id, text)
        assert await self.server.until(lambda: self.shown() != before, ANSWER_WAIT)

    async def start_bots(self) -> None:
        for user_id in self.players:
            before = self.shown()
            self.server.start_bot(user_id)
            assert await self.server.until(lambda: self.shown() != before, ANSWER_WAIT)  # noqa: B023


@dataclass
class Play:
    """A table played through the storm, and what its presses came to."""

    seating: Seating
    table: FleetTable
    table_id: int
    rng: random.Random
    pressed: Counter[tuple[int, str]] = field(default_factory=Counter)
    """Every move pressed, (user, action), however it was answered."""
    accepted: Counter[tuple[int, str]] = field(default_factory=Counter)
    """Moves answered as applied."""
    presses: int = 0
    seconds: float = 0.0
    refused: int = 0
    unanswered: int = 0

    @property
    def active(self) -> list[int]:
        """The people who press (the quiet ones never do)."""
        return self.table.players[: self.seating.people - self.seating.quiet]

    def choose(self) -> tuple[int, SentMessage, str] | None:
        """A press an active player could make now: a button of his hand, else
        a move on the group's message."""
        hands = [(u, m) for u in self.active if (m := self.table.hand(u)) is not None]
        if hands:
            user_id, message = self.rng.choice(hands)
            moves = [d for d in message.callback_datas if MOVE_DATA.match(d)]
            return user_id, message, self.rng.choice(moves)
        group = self.table.group_move()
        if group is None or not self.active:
            return None
        moves = [d for d in group.callback_datas if d.startswith("m:")]
        return self.rng.choice(self.active), group, self.rng.choice(moves)


def _action(data: str) -> str:
    """The action of a move's callback data ``m:<table>:<at_move>:<action>``."""
    return data.split(":", 3)[3]


async def _play(server: FleetTelegram, probe: Probe, play: Play) -> None:
    began = time.monotonic()
    while probe.table(play.table_id)[0] == "playing":
        choice = play.choose()
        if choice is None:
            await asyncio.sleep(IDLE_PAUSE)
            continue
        user_id, message, data = choice
        before = play.table.shown()
        query = server.press(user_id, message.chat_id, message.message_id, data)
        play.presses += 1
        is_move = data.startswith("m:")
        if is_move:
            play.pressed[(user_id, _action(data))] += 1
        try:
            answer = await server.answered(query, timeout=ANSWER_WAIT)
        except TimeoutError:
            play.unanswered += 1
            continue
        if answer.get("show_alert"):  # a move on the table message is toasted
            play.refused += 1
        elif is_move:
            play.accepted[(user_id, _action(data))] += 1
        await server.until(lambda: play.table.shown() != before, SHOWN_WAIT)  # noqa: B023
    play.seconds = time.monotonic() - began


async def _storm(fleet: Fleet, rng: random.Random, over: asyncio.Event) -> None:
    while fleet.kills < KILLS and not over.is_set():
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(rng.uniform(*KILL_EVERY)):
                await over.wait()
        running = [w for w in fleet.workers if w.running]
        if over.is_set() or not running:
            continue
        await fleet.kill(rng.choice(running), rng.uniform(*DOWN_FOR))


async def _watch(probe: Probe, plays: list[Play], over: asyncio.Event) -> None:
    """Fail when no table has moved for :data:`STALL_SECONDS`."""
    moves, since, shown = -1, time.monotonic(), time.monotonic()
    while not over.is_set():
        now = sum(probe.table(p.table_id)[1] for p in plays)
        if now != moves:
            moves, since = now, time.monotonic()
        stuck = [p for p in plays if probe.table(p.table_id)[0] == "playing"]
        if not stuck:
            return
        if time.monotonic() - shown >= PROGRESS_EVERY:  # shown with -s, or when it fails
            shown = time.monotonic()
            left = ", ".join(f"{p.seating.key} {p.seating.preset}" for p in stuck)
            print(f"{moves} moves, playing: {left}", flush=True)
        assert time.monotonic() - since < STALL_SECONDS, _describe(stuck)
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(1.0):
                await over.wait()


def _describe(plays: list[Play]) -> str:
    lines = ["the games stopped moving:"]
    for play in plays:
        seating = play.seating
        lines.append(f"{seating.key} {seating.preset} (table {play.table_id}):")
        for message in play.table.group_messages()[-2:]:
            lines.append(f"  group: {message.text[:200]!r} {message.callback_datas}")
        for user_id in play.table.players:
            last = play.table.server.last_bot_message(user_id)
            if last is not None:
                lines.append(f"  dm {user_id}: {last.text[:200]!r} {last.callback_datas}")
    return "\n".join(lines)


async def _seat(server: FleetTelegram, index: int, seating: Seating) -> Play:
    seated = seat_players(
        server,
        [f"{name}{index}" for name in NAMES[: seating.people]],
        group_id=-1001 - index,
        first_user=100 + 10 * index,
    )
    table = FleetTable(server, seated.group_id, seated.players)
    await table.open(seating.key, seating.preset)
    table_id = int(table.lobby().callback_datas[0].split(":")[1], 36)  # l:<table>:...
    if seating.computers:
        await add_computers(table, seating.computers)
    for user_id in table.players[1:]:
        await table.press(user_id, table.lobby(), table.lobby().callback_data("🙋"))
    for name, shown in seating.options:
        await table.set_option(name, shown)
    await table.set_turn_time(TIMED_TURN if seating.quiet else "без лимита")
    await table.press(table.players[0], table.lobby(), table.lobby().callback_data("▶️"))
    return Play(seating, table, table_id, random.Random(index))


def _check_moves(probe: Probe, play: Play) -> None:
    """The move log is whole; every move answered as applied is in it, and
    each of its people's moves was pressed (none applied twice, none made up)."""
    moves = probe.query(
        "SELECT n, actor, seat, action FROM moves WHERE table_id = ? ORDER BY n",
        (play.table_id,),
    )
    _, count = probe.table(play.table_id)
    assert [int(n) for n, *_ in moves] == list(range(1, count + 1))
    users = dict(
        probe.query("SELECT seat, user_id FROM seats WHERE table_id = ?", (play.table_id,))
    )
    made = Counter(
        (int(users[seat]), str(action)) for _, actor, seat, action in moves if actor == "player"
    )
    assert not play.accepted - made, (
        f"moves answered as applied but not logged: {play.accepted - made}"
    )
    assert not made - play.pressed, f"moves logged but never pressed: {made - play.pressed}"


def _check_timers(probe: Probe, play: Play) -> int:
    """Each quiet player's turn timer fired once: his seat's timer moves are
    one burst (one timeout plays out one whole turn), and no deadline is left."""
    users = dict(
        probe.query("SELECT user_id, seat FROM seats WHERE table_id = ?", (play.table_id,))
    )
    timed = probe.query(
        "SELECT seat, at FROM moves WHERE table_id = ? AND actor = 'timer'", (play.table_id,)
    )
    firings = 0
    for user_id in play.table.players[len(play.active) :]:
        times = [float(at) for seat, at in timed if seat == users[user_id]]
        assert times, f"the timer never played for {user_id}"
        assert max(times) - min(times) < 5.0, f"the timer fired more than once: {times}"
        firings += 1
    assert probe.deadlines(play.table_id) == []
    return firings


def _sends(server: FakeTelegram) -> list[ApiCall]:
    return [c for c in server.calls if c.ok and c.method in ("sendMessage", "sendPhoto")]


def _check_no_send_twice(server: FakeTelegram, kills: list[float], logs: list[Path]) -> int:
    """No chat got the same message twice (text and buttons alike), but where
    its sender was killed right after sending it, before it could record it
    (a send and its record cannot be one transaction): then the chat's next
    holder sends it again, as a restarted single process does.  Returns how
    many were sent again so."""
    sent: defaultdict[tuple[Any, ...], list[float]] = defaultdict(list)
    for call in _sends(server):
        text = call.params.get("text", call.params.get("caption"))
        markup = json.dumps(call.params.get("reply_markup"), sort_keys=True)
        sent[(call.chat_id, text, markup)].append(call.at)

    def killed_after(first: float, again: float) -> bool:
        return any(first < kill < again and kill - first <= UNRECORDED for kill in kills)

    twice = {key: at for key, at in sent.items() if len(at) > 1}
    doubled = {
        key: at
        for key, at in twice.items()
        if not all(killed_after(a, b) for a, b in itertools.pairwise(at))
    }
    assert not doubled, _describe_doubles(server, doubled, kills, logs)
    return sum(len(at) - 1 for at in twice.values())


def _describe_doubles(
    server: FakeTelegram,
    doubled: dict[tuple[Any, ...], list[float]],
    kills: list[float],
    logs: list[Path],
) -> str:
    """Each message sent more than once: every copy (when it came, how long its
    answer took, whether it was deleted later), and what the workers logged
    about its chat."""
    lines = [f"sent more than once (the kills at {[round(k, 1) for k in kills]}):"]
    for (chat_id, text, _), at in doubled.items():
        lines.append(f"chat {chat_id}: {str(text)[:120]!r}")
        for call in _sends(server):
            if call.chat_id == chat_id and call.at in at:
                message_id = (
                    call.result.get("message_id") if isinstance(call.result, dict) else None
                )
                deleted = any(
                    c.method == "deleteMessage" and c.params.get("message_id") == message_id
                    for c in server.calls
                    if c.chat_id == chat_id
                )
                lines.append(
                    f"  {call.method} at {call.at:.2f}, answered in {call.duration:.2f} s,"
                    f" message {message_id}{', deleted later' if deleted else ''}"
                )
        for log in logs:
            for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
                if str(chat_id) in line or "leases not renewed" in line:
                    lines.append(f"  {log.name}: {line[:300]}")
    return "\n".join(lines)


def _check_one_table_message(server: FakeTelegram, play: Play) -> None:
    """At most one live message in the group carries the table's buttons."""

    def of_table(data: str) -> bool:
        kind, _, rest = data.partition(":")
        return kind in ("m", "u", "c") and int(rest.split(":")[0], 36) == play.table_id

    live = [
        m
        for m in server.chat_messages(play.table.group_id)
        if not m.deleted and any(of_table(d) for d in m.callback_datas)
    ]
    assert len(live) <= 1, [m.text for m in live]


def _check_group_budgets(server: FakeTelegram, groups: list[int]) -> int:
    """No group got more than :data:`GROUP_BUDGET` messages and edits in any
    minute; returns the most any group got in one."""
    counted: defaultdict[int, list[Any]] = defaultdict(list)
    for call in server.calls:
        if call.ok and call.chat_id in groups and call.method.startswith(("send", "editMessage")):
            counted[int(call.chat_id)].append(call)
    most = 0
    for chat_id, calls in counted.items():
        calls.sort(key=lambda c: c.at)
        start = 0
        for end, call in enumerate(calls):
            while calls[start].at <= call.at - MINUTE:
                start += 1
            most = max(most, end - start + 1)
            assert end - start + 1 <= GROUP_BUDGET, "\n".join(
                [f"group {chat_id}: {end - start + 1} messages within a minute:"]
                + [
                    f"  {c.method} at {c.at:.2f}, answered in {c.duration:.2f} s:"
                    f" {str(c.params.get('text') or c.params.get('caption') or '')[:60]!r}"
                    for c in calls[start : end + 1]
                ]
            )
    return most


@pytest.mark.slow  # left out of a quick run (-m "not slow") too
@pytest.mark.soak
async def test_three_workers_on_postgres_killed_at_random_lose_and_double_nothing(
    postgres: Cluster, tmp_path: Path
) -> None:
    database_url = postgres.create()
    rng = random.Random(28)
    probe = Probe(database_url)
    server = FleetTelegram()
    await server.start()
    fleet: Fleet | None = None
    try:
        async with RoundRobin([]) as front:
            fleet = Fleet(server, database_url, tmp_path, front.url + WEBHOOK_PATH)
            front.ports = [w.port for w in fleet.workers]
            for worker in fleet.workers:
                fleet.start(worker)
            await fleet.listening()
            started = time.monotonic()
            plays = await asyncio.gather(
                *(_seat(server, i, seating) for i, seating in enumerate(GAMES))
            )
            seated = time.monotonic()

            over = asyncio.Event()
            storm = asyncio.create_task(_storm(fleet, rng, over))
            watch = asyncio.create_task(_watch(probe, plays, over))
            try:
                players = [asyncio.create_task(_play(server, probe, p)) for p in plays]
                done, _ = await asyncio.wait([*players, watch], return_when=asyncio.FIRST_EXCEPTION)
                for task in done:
                    task.result()  # a stall or a failed press, with its message
            finally:
                over.set()
                await asyncio.gather(storm, watch, return_exceptions=True)
            await asyncio.gather(*players)
            played = time.monotonic()
            for play in plays:
                group = play.table.group_messages
                await server.wait_for(lambda: any("🏁" in m.body for m in group()), timeout=60)  # noqa: B023
            await server.wait_idle(quiet=1.0, timeout=60)
            await fleet.stop()
            balancer = (front.passed_on, front.refused)
    finally:
        if fleet is not None:
            await fleet.stop()
        await server.stop()

    for play in plays:
        _check_moves(probe, play)
        _check_one_table_message(server, play)
    firings = sum(_check_timers(probe, p) for p in plays if p.seating.quiet)
    again = _check_no_send_twice(server, fleet.killed_at, [w.log for w in fleet.workers])
    busiest = _check_group_budgets(server, [p.table.group_id for p in plays])
    for worker in fleet.workers:
        log = without_orphaned_workers(worker.log.read_text(encoding="utf-8", errors="replace"))
        assert "Traceback" not in log, log
        assert " ERROR " not in log, log
    moves = sum(probe.table(p.table_id)[1] for p in plays)
    for play in plays:
        print(
            f"{play.seating.key} {play.seating.preset}: {probe.table(play.table_id)[1]} moves,"
            f" {play.presses} presses in {play.seconds:.1f} s"
        )
    probe.close()
    postgres.drop(database_url)
    retried = sum(1 for post in server.webhook_posts if post.status != 200)
    print(
        f"\nworkers: {len(plays)} games, {moves} moves, "
        f"{sum(p.presses for p in plays)} presses ({sum(p.refused for p in plays)} refused, "
        f"{sum(p.unanswered for p in plays)} never answered), {fleet.kills} kills, "
        f"{firings} timers fired, {retried} webhook posts not taken, "
        f"balancer: {balancer[0]} passed on, {balancer[1]} refused; "
        f"busiest group minute {busiest}/{GROUP_BUDGET}; messages sent twice: 0 "
        f"({again} sent again after their sender was killed before recording them); "
        f"set up {seated - started:.1f} s, played {played - seated:.1f} s"
    )
