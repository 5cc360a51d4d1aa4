"""Load benchmark: many tables played at once against the real bot.

Run it (from the repository root)::

    .venv/bin/python -m bench.bot                # 100 Durak tables x 2 players, 60 s measured
    .venv/bin/python -m bench.bot --quick        # 10 tables, 10 s: a smoke run
    .venv/bin/python -m bench.bot --tables 50 --players 3 --seconds 30
    .venv/bin/python -m bench.bot --think 2 --seconds 40   # open loop: users think 0..4 s
    .venv/bin/python -m bench.bot --game joker --players 2 --computers 2 --think 2
    .venv/bin/python -m bench.bot --profile /tmp/bot.svg   # + a py-spy flame graph of the bot
    .venv/bin/python -m bench.bot --tables 30 --think 1 --seconds 30 --telegram-limit 20
    .venv/bin/python -m bench.bot --workers 2 --database postgres-throwaway
    .venv/bin/python -m bench.bot --sitting --tables 50 --seconds 20   # SQLite, 1 and 2 workers

Closed loop (the default) measures how fast the bot can go: every user presses
the moment his buttons appear.  Open loop (``--think``) measures it at a
realistic pace: a user looks at his new buttons for a random 0..2 x SECONDS
before pressing, so 100 tables offer about 100 / (SECONDS + the bot's answer)
moves a second, and the figures that matter are the bot's CPU per move and the
latencies at that load.

The default run takes about 75 s (bot start, ~10 s of setup, 60 s measured, shutdown),
``--quick`` about 20 s.  ``--profile`` needs ``.venv/bin/pip install py-spy`` (not a
project dependency); ``FILE.txt`` gives collapsed stacks instead of a flame graph.

How it works
------------
* The bot runs as ``python -m bot`` in a subprocess (its CPU and memory are its
  own), with a fresh SQLite file in a temporary directory that is removed at
  the end.  On PostgreSQL (``--database postgres-throwaway``: a cluster
  started for the run as the tests start theirs, or a ``postgresql://`` URL)
  it runs as ``--workers N`` workers in webhook mode: the stand-in posts every
  update to the webhook, through a round-robin balancer in front of the
  workers' ports; their CPU is counted together, and a throwaway cluster's
  processes' CPU beside it.  ``--sitting`` runs SQLite, then one and two
  workers on one throwaway cluster, and prints a table of the three.  It
  gets ``TELEGRAM_MAX_RATE=100000`` so the bot's overall rate limiter never
  gates the benchmark, and the production default
  ``GROUP_EDITS_PER_MINUTE=20`` (group messages are coalesced, so they do not
  gate moves).
* This process runs the fake Bot API server (``playground.botapi``, on
  127.0.0.1) and one asyncio task per table that plays as its users: it picks
  a random player whose current DM hand has buttons (``m:`` moves and ``u:``
  sub-menus) and presses a random one, waits for the callback answer and for
  the bot to show the next state (a hand with buttons of the new table version,
  or the result message), then presses again, with no think time.  Only the
  newest buttons are pressed, so refusals should not happen; a press can queue
  behind the end of the previous move's rendering (the bot's per-table lock),
  as a very quick user's would.  When a game ends the
  table's creator presses Rematch (🔁) and then Start (▶️) in the new lobby,
  so every table plays for the whole measured period.
* Setup (``/start`` in every DM, ``/newgame <game>``, 🙋 joins, computers
  added, ▶️) happens before the measured period; only what happens inside it
  is counted.

What it prints (targets beside the figures)
-------------------------------------------
* moves per second across all tables: callback presses with ``m:`` data that
  were answered without ``show_alert`` (i.e. a move was applied); in open loop
  against the load offered;
* the bot's CPU per applied move (its process, all threads);
* latency from a press (the update enqueued in the fake server) to the bot's
  answerCallbackQuery for it, p50/p95/p99 — for applied moves and for every
  press; the fake server's own time is included;
* latency from a move's press to the next turn being shown (the hand with the
  new buttons in the next player's DM, or a move on the group message),
  p50/p95/p99;
* Bot API calls per applied move, all methods but getUpdates, and by method;
* the bot's peak memory (``VmHWM`` from ``/proc/<pid>/status``);
* database size (file + ``-wal`` after a checkpoint) per finished game and the number
  of finished games; when none finished (a random two-player game is ~90 moves), an
  estimate from bytes per logged move times the mean length of random engine games;
* refused presses (answered with ``show_alert``), which should be ~0;
* with ``--telegram-limit N`` (the stand-in answers 429 past N sends and edits
  a second, as Telegram's flood control does, and the bot runs at its default
  ``TELEGRAM_MAX_RATE``): the sends and edits let through and the calls refused;
* details: calls by method split by DM / group (and edits that remove buttons),
  CPU used by the bot (its event-loop thread apart) and by this process, to tell
  which side was the limit, and CPU used by other processes: on a busy machine
  the bot is starved and the report says its figures understate it.

Linux only (``/proc``).  Everything the run creates lives in the temporary
directory; the bot is always stopped (SIGINT, then SIGKILL).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ctypes
import dataclasses
import math
import os
import random
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import psycopg

from bot.catalog import CATALOG
from playground.botapi import FakeTelegram, Fault, RoundRobin, SentMessage
from playground.botapi.errors import ApiError
from playground.botapi.faults import FLOODABLE, FloodLimit
from playground.botapi.params import Params
from playground.botapi.world import MessageRecord
from storage.url import DatabaseUrl, sqlite_url
from tests.postgres import Cluster

ROOT = Path(__file__).resolve().parents[1]
T = TypeVar("T")

GROUP_EDITS_PER_MINUTE = 20  # the production default (bot/config.py)
MAX_RATE = 100_000  # the bot's overall limiter: out of the way for the benchmark
LIMITED_MAX_RATE = 30  # ... but its production default against --telegram-limit
NAMES = ["Anna", "Boris", "Vera", "Gleb", "Dasha", "Egor"]
THROWAWAY = "postgres-throwaway"
WEBHOOK_PATH = "/koloda-hook"
WEBHOOK_SECRET = "bench-secret"

TARGET_MOVES_PER_SECOND = 300.0  # closed loop: as fast as the bot goes
TARGET_TABLES = 100
TARGET_P99_MS = 50.0
TARGET_CALLS_PER_MOVE = 2.5
TARGET_PEAK_MB = 150.0
TARGET_CPU_MS_PER_MOVE = 5.0
TARGET_OFFERED_SHARE = 0.95  # open loop: the moves offered that the bot keeps up with

ANSWER_TIMEOUT = 30.0  # a press nobody answers in this long counts as unanswered
STATE_TIMEOUT = 10.0  # longest wait for the next state (the result message is paced)
MENU_TIMEOUT = 2.0  # a sub-menu press that changed nothing in this long: carry on
HAND_SCAN = 4  # the current hand is among the last few DM messages
PLAYOUTS = 200  # engine games for the game-length estimate when no game finished


class BenchError(RuntimeError):
    """The benchmark could not run (the bot failed to start, a table failed to open...)."""


# --------------------------------------------------------------------------- the fake server


@dataclass(frozen=True, slots=True)
class CallRecord:
    method: str
    at: float
    ok: bool
    error: str | None
    where: str  # "DM", "group" or "" (no chat)


@dataclass(frozen=True, slots=True)
class PressRecord:
    kind: str  # the callback data's prefix: m, u, l, r
    pressed_at: float
    answered_at: float | None
    alert: bool
    text: str | None


@dataclass
class BenchTable:
    """One group with its players, as the simulated users see it."""

    index: int
    group_id: int
    players: list[int]
    rng: random.Random
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    table_id: str | None = None  # base 36, as in callback data
    games_over: list[float] = field(default_factory=list)  # when result messages appeared
    stalls: int = 0

    @property
    def creator(self) -> int:
        return self.players[0]


class BenchTelegram(FakeTelegram):
    """The fake server, plus what the benchmark needs to watch it cheaply.

    Every bot message is indexed by chat (the base class would sort all messages of
    the world on each lookup), answered calls are reduced to small records instead of
    being kept whole, and the table whose chats a call touched is woken up.
    """

    def __init__(self, *, deliver_webhooks: bool = False) -> None:
        super().__init__(deliver_webhooks=deliver_webhooks)
        self.sent_in: defaultdict[int, list[SentMessage]] = defaultdict(list)
        self.watchers: dict[int, BenchTable] = {}
        self.call_log: list[CallRecord] = []

    def store_bot_message(self, sent: SentMessage) -> MessageRecord:
        record = super().store_bot_message(sent)
        self.sent_in[sent.chat_id].append(sent)  # the live object: edits show up in it
        return record

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
        call = self._calls.pop()
        reason = None if call.ok else f"{call.error_code} {call.description}"
        where = ""
        if isinstance(call.chat_id, int):
            where = "DM" if call.chat_id > 0 else "group"
            if call.method == "editMessageText" and "reply_markup" not in call.params:
                where += ", no buttons"
        self.call_log.append(CallRecord(call.method, call.at, call.ok, reason, where))
        if isinstance(call.chat_id, int):
            table = self.watchers.get(call.chat_id)
            if table is not None:
                table.changed.set()

    def recent(self, chat_id: int, count: int) -> list[SentMessage]:
        """The chat's last ``count`` bot messages still there, newest first."""
        messages = self.sent_in.get(chat_id, [])
        return [m for m in reversed(messages[-count:]) if not m.deleted]


# --------------------------------------------------------------------------- the bot process


def _die_with_parent() -> None:
    """In the child before exec: SIGTERM it if the benchmark itself dies."""
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


@dataclass(frozen=True)
class Deployment:
    """Where the bot keeps its data and how many workers serve it."""

    database_url: str
    workers: int = 1
    webhook_url: str | None = None
    """The balancer's URL every worker sets as its webhook (None: one process
    polling, as a single install runs)."""
    ports: tuple[int, ...] = ()
    """The workers' webhook ports, behind the balancer."""

    @property
    def label(self) -> str:
        backend = "PostgreSQL" if DatabaseUrl.parse(self.database_url).postgres else "SQLite"
        if self.webhook_url is None:
            return f"{backend}, one process polling"
        workers = "one worker" if self.workers == 1 else f"{self.workers} workers"
        return f"{backend}, {workers} behind a round-robin balancer (webhook)"


def bot_environment(
    server: FakeTelegram, deployment: Deployment, max_rate: int, worker: int = 0
) -> dict[str, str]:
    webhook: dict[str, str] = {}
    if deployment.webhook_url is not None:
        webhook = {
            "WEBHOOK_URL": deployment.webhook_url,
            "WEBHOOK_LISTEN": "127.0.0.1",
            "WEBHOOK_PORT": str(deployment.ports[worker]),
            "WEBHOOK_SECRET": WEBHOOK_SECRET,
            "WORKER_ID": f"bench-{worker + 1}",
        }
    return {
        "PATH": os.environ.get("PATH", ""),
        "PYTHONPATH": str(ROOT),
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONUTF8": "1",
        "BOT_TOKEN": server.token,
        "TELEGRAM_API_BASE_URL": server.base_url,
        "TELEGRAM_FILE_BASE_URL": server.base_file_url,
        "DATABASE_URL": deployment.database_url,
        "GROUP_EDITS_PER_MINUTE": str(GROUP_EDITS_PER_MINUTE),
        "TELEGRAM_MAX_RATE": str(max_rate),
        "LOG_LEVEL": "WARNING",
        **webhook,
    }


@asynccontextmanager
async def bot_processes(
    server: FakeTelegram,
    deployment: Deployment,
    workdir: Path,
    log: Path,
    measured: Measured,
    max_rate: int = MAX_RATE,
) -> AsyncIterator[list[subprocess.Popen[bytes]]]:
    """``python -m bot`` against the fake server, once per worker; stopped on the
    way out, whatever happens."""
    processes: list[subprocess.Popen[bytes]] = []
    try:
        for worker in range(deployment.workers):
            with log.open("ab") as stderr:  # the child keeps its own copy of the handle
                processes.append(
                    subprocess.Popen(  # noqa: ASYNC220 - returns at once; waits go to a thread
                        [sys.executable, "-m", "bot"],
                        cwd=workdir,  # no .env from the checkout is read
                        env=bot_environment(server, deployment, max_rate, worker),
                        stdin=subprocess.DEVNULL,
                        stdout=subprocess.DEVNULL,
                        stderr=stderr,
                        start_new_session=True,  # a Ctrl-C reaches the benchmark, which stops it
                        preexec_fn=_die_with_parent,  # no threads run yet in this process
                    )
                )
        yield processes
    finally:
        stopped = await asyncio.gather(*(stop_process(p) for p in processes))
        measured.stopped = "; ".join(dict.fromkeys(stopped)) or "not started"


async def stop_process(process: subprocess.Popen[bytes]) -> str:
    """SIGINT (PTB shuts down cleanly), SIGKILL after 20 s; says how it went."""
    if process.poll() is not None:
        return f"had exited by itself with {process.returncode}"
    asked = time.monotonic()
    process.send_signal(signal.SIGINT)
    try:
        async with asyncio.timeout(20):
            code = await asyncio.to_thread(process.wait)
    except TimeoutError:
        process.kill()
        async with asyncio.timeout(10):
            await asyncio.to_thread(process.wait)
        return "did not stop on SIGINT in 20 s: killed"
    return f"stopped on SIGINT in {time.monotonic() - asked:.1f} s, exit code {code}"


def proc_status_kb(pid: int, key: str) -> int | None:
    """A ``kB`` figure from /proc/<pid>/status (VmHWM, VmRSS), None if unreadable."""
    try:
        text = Path(f"/proc/{pid}/status").read_text(encoding="ascii")
    except OSError:
        return None
    for line in text.splitlines():
        name, _, value = line.partition(":")
        if name == key:
            return int(value.split()[0])
    return None


def proc_cpu_seconds(pid: int, tid: int | None = None) -> float | None:
    """utime + stime of a process (or of one of its threads), in seconds."""
    path = f"/proc/{pid}/stat" if tid is None else f"/proc/{pid}/task/{tid}/stat"
    try:
        raw = Path(path).read_text(encoding="ascii")
    except OSError:
        return None
    fields = raw.rsplit(")", 1)[1].split()
    ticks = int(fields[11]) + int(fields[12])  # fields 14 and 15 of stat(5)
    return ticks / os.sysconf("SC_CLK_TCK")


def proc_cpu_wait_seconds(pid: int) -> float | None:
    """Time the process's main thread (the event loop) spent runnable but waiting for a
    CPU, from /proc/<pid>/schedstat."""
    try:
        return int(Path(f"/proc/{pid}/schedstat").read_text(encoding="ascii").split()[1]) / 1e9
    except (OSError, ValueError, IndexError):
        return None


def machine_busy_seconds() -> float | None:
    """CPU seconds all CPUs of the machine spent busy since boot (/proc/stat)."""
    try:
        with Path("/proc/stat").open(encoding="ascii") as stat:
            fields = [int(x) for x in stat.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    guests = sum(fields[8:10])  # guest time is counted in user time already
    return (sum(fields) - guests - idle) / os.sysconf("SC_CLK_TCK")


def log_tail(log: Path, lines: int = 30) -> str:
    try:
        return "\n".join(log.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


# --------------------------------------------------------------------------- the players


def parse_keys(message: SentMessage) -> list[tuple[str, str, int, str]]:
    """(data, table id, version, kind) of the DM hand buttons (m: moves, u: menus)."""
    keys = []
    for data in message.callback_datas:
        parts = data.split(":")
        if len(parts) == 4 and parts[0] in ("m", "u"):
            keys.append((data, parts[1], int(parts[2], 36), parts[0]))
    return keys


class Players:
    """The simulated users of every table, and what they observed."""

    def __init__(self, server: BenchTelegram, options: Options) -> None:
        self.server = server
        self.players = options.players
        self.seed = options.seed
        self.game = options.game
        self.computers = options.computers
        self.think = options.think
        self.presses: list[PressRecord] = []
        self.next_state_at: list[tuple[float, float]] = []  # (pressed, next player's turn shown)
        self.unanswered = 0
        self.press_errors = 0
        self.refusals: Counter[str] = Counter()

    def seat(self, index: int) -> BenchTable:
        group_id = -1_001_000_000_000 - index
        players = []
        for seat in range(self.players):
            user_id = 1_000_000 + index * 10 + seat
            self.server.add_user(user_id, NAMES[seat % len(NAMES)], language_code="ru")
            players.append(user_id)
        self.server.add_group(group_id, f"Durak night {index}", supergroup=True, creator=players[0])
        table = BenchTable(index, group_id, players, random.Random(self.seed * 100_003 + index))
        for chat_id in (group_id, *players):
            self.server.watchers[chat_id] = table
        return table

    # --- waiting and pressing ----------------------------------------------------

    async def wait(
        self,
        table: BenchTable,
        predicate: Callable[[], T | None],
        timeout: float,  # noqa: ASYNC109 - a deadline per condition, not per call
    ) -> T | None:
        """Until ``predicate`` is truthy (checked whenever the bot touches the table's
        chats); None after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            table.changed.clear()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(remaining):
                    await table.changed.wait()

    async def press(
        self, table: BenchTable, user_id: int, message: SentMessage, data: str
    ) -> PressRecord | None:
        """Press a button and wait for its answer; None if none came."""
        try:
            query_id = self.server.press(user_id, message.chat_id, message.message_id, data)
        except ValueError:  # the message went away in the meantime: look again
            self.press_errors += 1
            return None
        query = self.server.query(query_id)
        assert query is not None
        answer = await self.wait(table, lambda: query.answer, ANSWER_TIMEOUT)
        if answer is None:
            self.unanswered += 1
            return None
        record = PressRecord(
            kind=data.split(":", 1)[0],
            pressed_at=query.at,
            answered_at=query.answered_at,
            alert=bool(answer.get("show_alert")),
            text=answer.get("text"),
        )
        self.presses.append(record)
        if record.alert:
            self.refusals[f"{record.kind}: {record.text}"] += 1
        return record

    # --- what the users see --------------------------------------------------------

    def candidates(
        self, table: BenchTable, at_least: int
    ) -> list[tuple[int, SentMessage, list[str]]]:
        """Players whose hand shows the newest buttons of the current table (made at
        version ``at_least`` or later), with the data of those buttons."""
        found: list[tuple[int, SentMessage, list[str], int]] = []
        for user_id in table.players:
            for message in self.server.recent(user_id, HAND_SCAN):
                keys = [k for k in parse_keys(message) if k[1] == table.table_id]
                if keys:
                    version = max(k[2] for k in keys)
                    if version >= at_least:
                        found.append((user_id, message, [k[0] for k in keys], version))
                    break
        if not found:
            return self.group_moves(table, at_least)
        newest = max(f[3] for f in found)
        return [(u, m, d) for u, m, d, v in found if v == newest]

    def group_moves(
        self, table: BenchTable, at_least: int
    ) -> list[tuple[int, SentMessage, list[str]]]:
        """A move made on the group's table message (101's next round), by anybody."""
        for message in self.server.recent(table.group_id, 3):
            keys = [k for k in parse_keys(message) if k[1] == table.table_id and k[0][0] == "m"]
            if keys and max(k[2] for k in keys) >= at_least:
                return [(table.rng.choice(table.players), message, [k[0] for k in keys])]
        return []

    def group_button(self, table: BenchTable, test: Callable[[str], bool]) -> SentMessage | None:
        for message in self.server.recent(table.group_id, 6):
            if any(test(d) for d in message.callback_datas):
                return message
        return None

    def result_message(self, table: BenchTable) -> SentMessage | None:
        return self.group_button(table, lambda d: d == f"r:{table.table_id}")

    def new_lobby(self, table: BenchTable) -> tuple[SentMessage, str] | None:
        """The lobby message of a table other than the current one, and its id."""
        for message in self.server.recent(table.group_id, 6):
            for data in message.callback_datas:
                parts = data.split(":")
                if parts[0] == "l" and parts[-1] == "s" and parts[1] != table.table_id:
                    return message, parts[1]
        return None

    # --- a table's life -------------------------------------------------------------

    async def open_table(self, table: BenchTable) -> None:
        """/start in every DM, /newgame durak, everybody joins, the creator starts."""
        for user_id in table.players:
            self.server.start_bot(user_id)
        for user_id in table.players:  # the welcome means the bot knows the DM works

            def welcomed(user_id: int = user_id) -> bool:
                return bool(self.server.recent(user_id, 1))

            if not await self.wait(table, welcomed, STATE_TIMEOUT):
                raise BenchError(f"table {table.index}: no answer to /start")
        self.server.send(table.creator, table.group_id, f"/newgame {self.game}")
        found = await self.wait(table, lambda: self.new_lobby(table), STATE_TIMEOUT)
        if found is None:
            raise BenchError(f"table {table.index}: no lobby after /newgame")
        lobby, table.table_id = found
        for user_id in table.players[1:]:
            joined = await self.press(table, user_id, lobby, f"l:{table.table_id}:j")
            if joined is None or joined.alert:
                raise BenchError(f"table {table.index}: joining failed: {joined}")
        if self.computers:
            await self.lobby_press(table, "o", "a")  # the options hold the computer keys
            for _ in range(self.computers):
                await self.lobby_press(table, "a", "a")
            await self.lobby_press(table, "b", "s")
            back = self.group_button(table, lambda d: d == f"l:{table.table_id}:s")
            if back is None:
                raise BenchError(f"table {table.index}: the lobby went away")
            lobby = back
        started = await self.press(table, table.creator, lobby, f"l:{table.table_id}:s")
        if started is None or started.alert:
            raise BenchError(f"table {table.index}: starting failed: {started}")

    async def lobby_press(self, table: BenchTable, command: str, then: str) -> None:
        """The creator presses the lobby key ``command``, then waits until the
        lobby shows the key ``then``."""
        data = f"l:{table.table_id}:{command}"
        shown = await self.wait(table, lambda: self.group_button(table, lambda d: d == data), 5)
        pressed = None if shown is None else await self.press(table, table.creator, shown, data)
        if pressed is None or pressed.alert:
            raise BenchError(f"table {table.index}: lobby key {command!r} failed: {pressed}")
        ready = f"l:{table.table_id}:{then}"
        if not await self.wait(table, lambda: self.group_button(table, lambda d: d == ready), 5):
            raise BenchError(f"table {table.index}: the lobby shows no key {then!r}")

    async def play(self, table: BenchTable) -> None:
        """Random presses of current buttons, a rematch after every game, forever.
        In open loop (``think``) a user looks at his new buttons for a random
        0..2 x ``think`` seconds before he presses one."""
        at_least = 0
        pressed_at: float | None = None  # the last move, until the next turn is shown
        rested = False
        while True:

            def next_state(
                at_least: int = at_least,
            ) -> tuple[str, Any] | None:
                ready = self.candidates(table, at_least)
                if ready:
                    return "move", ready
                over = self.result_message(table)
                return ("over", over) if over is not None else None

            state = await self.wait(table, next_state, STATE_TIMEOUT)
            if state is None:
                table.stalls += 1
                at_least = 0  # take whatever buttons there are
                continue
            if state[0] == "over":
                table.games_over.append(time.monotonic())
                pressed_at = None
                await self.rematch(table, state[1])
                at_least = 0
                continue
            if pressed_at is not None:
                self.next_state_at.append((pressed_at, time.monotonic()))
                pressed_at = None
            if self.think and not rested:
                await asyncio.sleep(table.rng.uniform(0, 2 * self.think))
                rested = True
                continue  # look again: computers or timers may have moved meanwhile
            rested = False
            user_id, message, datas = table.rng.choice(state[1])
            data = table.rng.choice(datas)
            before = message.callback_datas
            pressed = await self.press(table, user_id, message, data)
            if pressed is None or pressed.alert:
                continue
            version = int(data.split(":")[2], 36)
            if data.startswith("m:"):
                at_least = version + 1
                pressed_at = pressed.pressed_at
            else:  # a sub-menu: wait until the keyboard shows it

                def shown(message: SentMessage = message, before: list[str] = before) -> bool:
                    return message.deleted or message.callback_datas != before

                if not await self.wait(table, shown, MENU_TIMEOUT):
                    table.stalls += 1
                at_least = version

    async def rematch(self, table: BenchTable, result: SentMessage) -> None:
        pressed = await self.press(table, table.creator, result, f"r:{table.table_id}")
        if pressed is None or pressed.alert:
            table.stalls += 1
            await asyncio.sleep(0.5)
            return
        found = await self.wait(table, lambda: self.new_lobby(table), STATE_TIMEOUT)
        if found is None:
            table.stalls += 1
            return
        lobby, table.table_id = found
        await self.press(table, table.creator, lobby, f"l:{table.table_id}:s")


# --------------------------------------------------------------------------- figures


@dataclass(frozen=True)
class Options:
    tables: int
    players: int
    seconds: float
    seed: int
    profile: Path | None = None
    game: str = "durak"
    computers: int = 0
    think: float = 0.0
    """Open loop: a user's mean think time, in seconds (0: press at once)."""
    telegram_limit: int = 0
    """The stand-in's overall flood limit in the measured period (0: none)."""
    workers: int = 1
    sitting: bool = False
    """SQLite, then one and two workers on PostgreSQL, one run after another."""
    database: str = "sqlite"
    """``sqlite`` (a file in a temporary directory), ``postgres-throwaway`` (a
    cluster started for the run, as the tests start theirs) or a
    ``postgresql://`` URL of an empty database."""

    @property
    def max_rate(self) -> int:
        """The bot's ``TELEGRAM_MAX_RATE``: its default against a flood limit."""
        return LIMITED_MAX_RATE if self.telegram_limit else MAX_RATE


@dataclass
class Measured:
    started: float = 0.0
    ended: float = 0.0
    setup_seconds: float = 0.0
    bot_cpu: float | None = None
    bench_cpu: float = 0.0
    peak_kb: int | None = None
    rss_kb: int | None = None
    db_bytes: int = 0
    wal_bytes: int = 0
    statuses: dict[str, int] = field(default_factory=dict)
    stalls: int = 0
    games_over: int = 0
    log_errors: int = 0
    log_tail: str = ""
    profile: str | None = None
    stopped: str = "not started"
    moves_per_game: float | None = None
    bot_cpu_wait: float | None = None
    bot_loop_cpu: float | None = None
    machine_busy: float | None = None
    others_cpu: float | None = None
    database_cpu: float | None = None
    """The PostgreSQL server's CPU in the measured period (a throwaway cluster's)."""
    db_moves: int = 0
    wall_started: float = 0.0  # the measured period on the clock the move log uses
    wall_ended: float = 0.0
    window_moves: Counter[str] = field(default_factory=Counter)  # logged in it, by actor


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile of a non-empty list."""
    ordered = sorted(values)
    rank = min(max(1, math.ceil(q / 100 * len(ordered))), len(ordered))
    return ordered[rank - 1]


def verdict(ok: bool) -> str:
    return "PASS" if ok else "MISS"


def report(
    options: Options,
    deployment: Deployment,
    server: BenchTelegram,
    players: Players,
    m: Measured,
) -> str:
    span = m.ended - m.started

    def inside(t: float | None) -> bool:
        return t is not None and m.started <= t <= m.ended

    answered = [p for p in players.presses if inside(p.answered_at)]
    moves = [p for p in answered if p.kind == "m" and not p.alert]
    refused = [p for p in answered if p.alert]
    calls = [c for c in server.call_log if inside(c.at)]
    bot_calls = [c for c in calls if c.method != "getUpdates"]
    by_method = Counter(c.method for c in bot_calls)
    by_place = Counter((c.method, c.where) for c in bot_calls)
    failed = Counter(f"{c.method} {c.error}" for c in calls if not c.ok)
    polls = sum(1 for c in calls if c.method == "getUpdates")

    def latencies(records: list[PressRecord]) -> list[float]:
        return [(p.answered_at - p.pressed_at) * 1000 for p in records if p.answered_at is not None]

    move_ms = latencies(moves)
    all_ms = latencies(answered)
    next_ms = [(shown - at) * 1000 for at, shown in players.next_state_at if inside(shown)]
    rate = len(moves) / span if span > 0 else 0.0
    applied = sum(m.window_moves.values()) or len(moves)  # computers' and timers' too
    per_move = len(bot_calls) / applied if applied else float("nan")
    finished = m.statuses.get("finished", 0)
    db_total = m.db_bytes + m.wal_bytes
    peak_mb = m.peak_kb / 1024 if m.peak_kb is not None else None

    out: list[str] = []
    add = out.append
    add("")
    add("=" * 78)
    computers = f" + {options.computers} computers" if options.computers else ""
    pace = (
        f"open loop, think 0..{2 * options.think:g} s"
        if options.think
        else "closed loop, no think time"
    )
    add(
        f"Koloda bot benchmark: {options.game}, {options.tables} tables x {options.players} "
        f"players{computers}, {pace}, {span:.1f} s measured"
    )
    add("=" * 78)
    add(f"bot:    python -m bot in subprocesses: {deployment.label}")
    add(
        f"        TELEGRAM_MAX_RATE={options.max_rate} "
        f"({'the default' if options.telegram_limit else 'generous, for the benchmark'}); "
        f"GROUP_EDITS_PER_MINUTE={GROUP_EDITS_PER_MINUTE}"
    )
    add("        (the production default: group edits are coalesced and do not gate moves)")
    add(
        f"users:  simulated in this process against the fake Bot API on {server.host}:{server.port}"
    )
    add(f"setup:  {options.tables} tables opened, joined and started in {m.setup_seconds:.1f} s")
    add("")

    def row(label: str, value: str, target: str = "", ok: bool | None = None) -> None:
        mark = "" if ok is None else verdict(ok)
        add(f"  {label:<38}{value:>14}   {target:<22}{mark}".rstrip())

    add(f"  {'':<38}{'measured':>14}   {'target':<22}")
    if options.think:
        # At each table one user at a time presses, once per think time plus
        # the bot's answer; sub-menu presses and rematches take a turn too.
        turn = options.think + (statistics.mean(next_ms) / 1000 if next_ms else 0.0)
        offered = options.tables / turn
        pressed = len(answered) / span if span > 0 else 0.0
        row("moves per second, all tables", f"{rate:.1f}/s")
        if options.computers:  # people wait on the computers: no fixed offer
            row("presses per second, all tables", f"{pressed:.1f}/s")
        else:
            row(
                "presses per second, all tables",
                f"{pressed:.1f}/s",
                f"~{offered:.0f}/s offered",
                pressed >= TARGET_OFFERED_SHARE * offered,
            )
    else:
        row(
            "moves per second, all tables",
            f"{rate:.1f}/s",
            f">= {TARGET_MOVES_PER_SECOND:.0f}/s ({TARGET_TABLES} tables)",
            rate >= TARGET_MOVES_PER_SECOND and options.tables >= TARGET_TABLES,
        )
    if m.bot_cpu is not None and applied:
        cpu_ms = m.bot_cpu * 1000 / applied
        row(
            "bot CPU per applied move",
            f"{cpu_ms:.1f} ms",
            f"<= {TARGET_CPU_MS_PER_MOVE:.0f} ms",
            cpu_ms <= TARGET_CPU_MS_PER_MOVE,
        )
        if m.database_cpu is not None:
            row(
                "PostgreSQL server CPU per applied move",
                f"{m.database_cpu * 1000 / applied:.1f} ms",
            )
    if move_ms:
        p50, p95, p99 = (percentile(move_ms, q) for q in (50, 95, 99))
        row("press -> answer latency  p50", f"{p50:.1f} ms")
        row("  (applied moves)        p95", f"{p95:.1f} ms")
        row(
            "                         p99",
            f"{p99:.1f} ms",
            f"< {TARGET_P99_MS:.0f} ms",
            p99 < TARGET_P99_MS,
        )
    else:
        row("press -> answer latency", "no moves")
    if next_ms:
        n50, n95, n99 = (percentile(next_ms, q) for q in (50, 95, 99))
        row("press -> next turn shown    p50", f"{n50:.1f} ms")
        row("  (the next player's DM)    p95", f"{n95:.1f} ms")
        row("                            p99", f"{n99:.1f} ms")
    row(
        "Bot API calls per move",
        f"{per_move:.2f}",
        f"<= {TARGET_CALLS_PER_MOVE:g}",
        per_move <= TARGET_CALLS_PER_MOVE,
    )
    if peak_mb is not None:
        row(
            "peak memory of the bot (VmHWM)",
            f"{peak_mb:.1f} MB",
            f"< {TARGET_PEAK_MB:.0f} MB",
            peak_mb < TARGET_PEAK_MB,
        )
    else:
        row("peak memory of the bot (VmHWM)", "unreadable")
    if not db_total:
        row("database size per finished game", "n/a", "(SQLite's file only)")
    elif finished:
        row("database size per finished game", f"{db_total / finished / 1024:.1f} KB")
    elif m.db_moves and m.moves_per_game:
        estimate = db_total / m.db_moves * m.moves_per_game
        row("database size per finished game", f"~{estimate / 1024:.1f} KB", "estimate, see below")
    else:
        row("database size per finished game", "n/a", "(no game finished)")
    row("finished games (in the database)", str(finished))
    row("refused presses (stale / illegal)", str(len(refused)), "~0", len(refused) <= 1)
    if options.telegram_limit and span > 0:
        floods = sum(1 for c in bot_calls if c.error is not None and c.error.startswith("429"))
        passed = sum(1 for c in bot_calls if c.ok and c.method in FLOODABLE)
        limit = f"<= {options.telegram_limit}/s"
        row("sends and edits let through", f"{passed / span:.1f}/s", limit)
        row("calls refused with 429", f"{floods} ({floods / span:.1f}/s)")
    add("")
    add("details")
    add(
        f"  applied moves {len(moves)}; presses answered {len(answered)} "
        f"(moves, sub-menus, rematches, starts)"
    )
    if m.window_moves:
        by_actor = ", ".join(f"{actor} {n}" for actor, n in m.window_moves.most_common())
        add(f"  moves logged in the measured period: {by_actor}")
    add(
        f"  unanswered presses {players.unanswered}; presses on vanished messages "
        f"{players.press_errors}; waits for the next state that timed out {m.stalls}"
    )
    if all_ms:
        add(
            "  latency of every press: "
            + ", ".join(f"p{q} {percentile(all_ms, q):.1f} ms" for q in (50, 95, 99))
            + f", max {max(all_ms):.1f} ms"
        )
    if move_ms:
        mean = sum(move_ms) / len(move_ms)
        add(f"  slowest applied move: {max(move_ms):.1f} ms; mean {mean:.1f} ms")
    add(f"  result messages posted in the measured period: {m.games_over}")
    add(f"  Bot API calls: {len(bot_calls)} ({len(bot_calls) / span:.0f}/s) + {polls} getUpdates")
    for method, count in by_method.most_common():
        share = count / applied if applied else float("nan")
        add(f"    {method:<28}{count:>8}   {share:6.2f} per move")
        places = sorted((w, n) for (name, w), n in by_place.items() if name == method and w)
        if len(places) > 1:
            for where, n in places:
                part = n / applied if applied else float("nan")
                add(f"      {'in ' + where:<26}{n:>8}   {part:6.2f}")
    if failed:
        add("  failed calls:")
        for what, count in failed.most_common(8):
            add(f"    {count:>6}  {what}")
    if players.refusals:
        add("  refusals:")
        for what, count in players.refusals.most_common(8):
            add(f"    {count:>6}  {what}")
    if db_total:
        add(
            f"  database: {m.db_bytes / 1024:.0f} KB file + {m.wal_bytes / 1024:.0f} KB wal after "
            f"a checkpoint; tables by status {dict(sorted(m.statuses.items()))}"
        )
    else:
        add(f"  database: tables by status {dict(sorted(m.statuses.items()))}")
    if db_total and not finished and m.db_moves and m.moves_per_game:
        add(
            f"    no game finished, so per game is estimated: {db_total / m.db_moves:.0f} bytes "
            f"per logged move x {m.moves_per_game:.0f} moves, the mean length of "
            f"{PLAYOUTS} random {options.players + options.computers}-seat games played by "
            "the rules engine"
        )
    if m.db_moves:
        add(
            f"    {m.db_moves} moves logged, {db_total / m.db_moves:.0f} bytes of database per "
            "move (the whole file: users, chats, seats, unfinished tables included)"
        )
    if m.rss_kb is not None:
        add(f"  bot RSS at the end: {m.rss_kb / 1024:.1f} MB")
    if m.bot_cpu is not None:
        add(
            f"  CPU in the measured period: bot {m.bot_cpu:.1f} s ({m.bot_cpu / span:.0%} of a "
            f"core), benchmark + fake server {m.bench_cpu:.1f} s ({m.bench_cpu / span:.0%}); "
            f"{os.cpu_count()} CPUs"
        )
    if m.database_cpu is not None:
        add(
            f"  PostgreSQL server: {m.database_cpu:.1f} s of CPU "
            f"({m.database_cpu / span:.0%} of a core)"
        )
    if m.bot_cpu is not None and m.bot_loop_cpu is not None:
        add(
            f"    of the bot's CPU: event-loop threads {m.bot_loop_cpu:.1f} s, other threads "
            f"(the database driver's) {m.bot_cpu - m.bot_loop_cpu:.1f} s"
        )
    busy = False
    if m.others_cpu is not None:
        busy = m.others_cpu / span > 0.25
        add(
            f"  other processes on this machine used {m.others_cpu:.1f} s of CPU "
            f"({m.others_cpu / span:.0%} of a core) in the period"
        )
    if m.bot_cpu_wait is not None:
        add(
            f"  the bot's event-loop thread waited {m.bot_cpu_wait:.1f} s for a CPU "
            f"({m.bot_cpu_wait / span:.0%} of the period) while runnable"
        )
    if busy:
        add(
            "  warning: the machine was busy with other work, which took CPU from the bot: "
            "these figures understate it; run again on a quiet machine"
        )
    if m.bot_cpu is not None and move_ms and span > 0:
        bot_share, bench_share = m.bot_cpu / span, m.bench_cpu / span
        p50 = percentile(move_ms, 50)
        if busy:
            pass
        elif bot_share < 0.8 and bench_share < 0.8 and p50 > TARGET_P99_MS:
            add(
                f"  note: presses waited {p50:.0f} ms (p50) while the bot used {bot_share:.0%} "
                f"of a core and this process {bench_share:.0%}: neither was CPU-bound, so the "
                "wait is inside the bot (a lock or a queue), not in the harness"
            )
        elif bot_share >= 0.8:
            add("  note: the bot was close to a full core: it is CPU-bound at this load")
    if m.profile is not None:
        add(f"  {m.profile}")
    add(f"  bot process: {m.stopped}")
    add(f"  bot log: {m.log_errors} lines with ERROR or Traceback")
    if m.log_errors:
        add("  last lines of the bot's log:")
        add("    " + m.log_tail.replace("\n", "\n    "))
    return "\n".join(out)


def mean_game_length(key: str, players: int, games: int, seed: int) -> float:
    """Moves in a random game (default rules), from engine playouts in this process."""
    spec = CATALOG.specs[key]
    rules = spec.preset(None)
    rng = random.Random(seed)
    total = 0
    for _ in range(games):
        game = spec.game.new(rules, players, rng)
        for _ in range(100_000):
            actors = sorted(game.to_move())
            if not actors:
                break
            seat = rng.choice(actors)
            game.apply(seat, rng.choice(game.legal_actions(seat)))
            total += 1
    return total / games


def database_figures(database_url: str, measured: Measured) -> None:
    """Checkpoint the WAL into the file, then take sizes and table counts (on
    PostgreSQL: the database's size and the same counts)."""
    url = DatabaseUrl.parse(database_url)
    if url.postgres:
        postgres_figures(url.url, measured)
        return
    db_path = url.path
    assert db_path is not None
    if not db_path.exists():
        return
    with closing(sqlite3.connect(db_path)) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        (moves,) = conn.execute("SELECT count(*) FROM moves").fetchone()
        measured.db_moves = int(moves)
        measured.window_moves = Counter(
            {
                str(actor): int(count)
                for actor, count in conn.execute(
                    "SELECT actor, count(*) FROM moves WHERE at BETWEEN ? AND ? GROUP BY actor",
                    (measured.wall_started, measured.wall_ended),
                )
            }
        )
        measured.statuses = {
            str(status): int(count)
            for status, count in conn.execute("SELECT status, count(*) FROM tables GROUP BY status")
        }
    wal = db_path.with_name(db_path.name + "-wal")
    measured.db_bytes = db_path.stat().st_size
    measured.wal_bytes = wal.stat().st_size if wal.exists() else 0


def postgres_figures(url: str, measured: Measured) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        measured.db_moves = int(_one(conn, "SELECT count(*) FROM moves"))
        measured.window_moves = Counter(
            {
                str(actor): int(count)
                for actor, count in conn.execute(
                    "SELECT actor, count(*) FROM moves WHERE at BETWEEN %s AND %s GROUP BY actor",
                    (measured.wall_started, measured.wall_ended),
                )
            }
        )
        measured.statuses = {
            str(status): int(count)
            for status, count in conn.execute("SELECT status, count(*) FROM tables GROUP BY status")
        }


def _one(conn: psycopg.Connection[tuple[Any, ...]], sql: str) -> Any:
    row = conn.execute(sql.encode()).fetchone()
    assert row is not None
    return row[0]


# --------------------------------------------------------------------------- the run


async def run(options: Options, cluster: Cluster | None = None) -> str:
    """One run; ``cluster``: the throwaway PostgreSQL cluster a sitting shares."""
    measured = Measured()
    with tempfile.TemporaryDirectory(prefix="koloda-bench-") as tmp:
        workdir = Path(tmp)
        log = workdir / "bot.log"
        async with database(options.database, workdir, cluster) as (database_url, server_pids):
            postgres = DatabaseUrl.parse(database_url).postgres
            # On PostgreSQL the bot runs as workers behind a balancer, in webhook
            # mode (what makes it a worker among several); SQLite polls.
            ports = tuple(free_port() for _ in range(options.workers)) if postgres else ()
            server = BenchTelegram(deliver_webhooks=postgres)
            await server.start()
            try:
                async with contextlib.AsyncExitStack() as stack:
                    webhook_url = None
                    if postgres:
                        front = await stack.enter_async_context(RoundRobin(ports))
                        webhook_url = front.url + WEBHOOK_PATH
                    deployment = Deployment(database_url, options.workers, webhook_url, ports)
                    players = Players(server, options)
                    processes = await stack.enter_async_context(
                        bot_processes(server, deployment, workdir, log, measured, options.max_rate)
                    )
                    await measure(
                        options, server, players, deployment, processes, log, measured, server_pids
                    )
            finally:
                await server.stop()
            database_figures(database_url, measured)
        if not measured.statuses.get("finished"):
            measured.moves_per_game = mean_game_length(
                options.game, options.players + options.computers, PLAYOUTS, options.seed
            )
        text = log.read_text(encoding="utf-8", errors="replace") if log.exists() else ""
        measured.log_errors = sum(
            1 for line in text.splitlines() if " ERROR " in line or "Traceback" in line
        )
        measured.log_tail = log_tail(log)
        return report(options, deployment, server, players, measured)


@asynccontextmanager
async def database(
    option: str, workdir: Path, cluster: Cluster | None
) -> AsyncIterator[tuple[str, Callable[[], list[int]]]]:
    """The run's ``DATABASE_URL``, and what lists the database server's
    processes (none for SQLite, nor for a server of somebody else's)."""
    if option == "sqlite":
        yield sqlite_url(workdir / "data" / "koloda.sqlite3"), list
        return
    if option != THROWAWAY:
        yield option, list
        return
    own = cluster is None
    if cluster is None:
        print("starting a throwaway PostgreSQL cluster...", file=sys.stderr, flush=True)
        cluster = await asyncio.to_thread(Cluster.start)
    url = cluster.create()
    try:
        folder = cluster.folder
        yield url, lambda: cluster_pids(folder)
    finally:
        cluster.drop(url)
        if own:
            cluster.stop()


def cluster_pids(folder: Path) -> list[int]:
    """The postmaster of the cluster in ``folder`` and its children (the
    connections' backends, the writer, the WAL writer...)."""
    try:
        postmaster = int((folder / "data" / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return []
    pids = [postmaster]
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if int(fields[1]) == postmaster:
            pids.append(int(stat.parent.name))
    return pids


def cpu_of(pids: list[int]) -> float:
    return sum(proc_cpu_seconds(pid) or 0.0 for pid in pids)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def listening(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


async def measure(
    options: Options,
    server: BenchTelegram,
    players: Players,
    deployment: Deployment,
    processes: list[subprocess.Popen[bytes]],
    log: Path,
    measured: Measured,
    server_pids: Callable[[], list[int]],
) -> None:
    deadline = time.monotonic() + 60

    def started() -> bool:
        if deployment.webhook_url is None:
            return bool(server.active_polls)
        return server.webhook is not None and all(listening(p) for p in deployment.ports)

    while not started():
        for process in processes:
            if process.poll() is not None:
                raise BenchError(f"the bot exited with {process.returncode}:\n{log_tail(log)}")
        if time.monotonic() > deadline:
            raise BenchError(f"the bot did not start in 60 s:\n{log_tail(log)}")
        await asyncio.sleep(0.05)
    tables = [players.seat(i) for i in range(options.tables)]
    setup_start = time.monotonic()
    print(f"setting up {options.tables} tables...", file=sys.stderr, flush=True)
    try:
        async with asyncio.TaskGroup() as group:
            for table in tables:
                group.create_task(players.open_table(table))
    except* BenchError as errors:
        first = errors.exceptions[0]
        raise BenchError(f"{len(errors.exceptions)} table(s) could not open: {first}") from None
    measured.setup_seconds = time.monotonic() - setup_start

    print(f"playing for {options.seconds:.0f} s...", file=sys.stderr, flush=True)
    pids = [p.pid for p in processes]
    tasks = [asyncio.create_task(players.play(table)) for table in tables]
    with cancelling(tasks):
        profiler = start_profiler(options, pids[0], workdir=log.parent)
        cpu_before = cpu_of(pids)
        loop_before = sum(proc_cpu_seconds(pid, pid) or 0.0 for pid in pids)
        database_before = cpu_of(server_pids())
        bench_before = time.process_time()
        bot_wait = sum(proc_cpu_wait_seconds(pid) or 0.0 for pid in pids)
        busy_before = machine_busy_seconds()
        if options.telegram_limit:
            server.flood_limit = FloodLimit(options.telegram_limit)
        measured.started = time.monotonic()
        measured.wall_started = time.time()
        end = measured.started + options.seconds
        while time.monotonic() < end:
            await asyncio.sleep(min(0.5, end - time.monotonic()))
            failed = [t for t in tasks if t.done()]
            if failed:
                failed[0].result()  # raises what stopped a table
                raise BenchError("a table stopped playing")
            for process in processes:
                if process.poll() is not None:
                    raise BenchError(f"the bot exited with {process.returncode}:\n{log_tail(log)}")
        measured.ended = time.monotonic()
        measured.wall_ended = time.time()
        server.flood_limit = None
        measured.bot_cpu = cpu_of(pids) - cpu_before
        measured.bot_loop_cpu = sum(proc_cpu_seconds(pid, pid) or 0.0 for pid in pids) - loop_before
        database_pids = server_pids()
        if database_pids:
            measured.database_cpu = cpu_of(database_pids) - database_before
        measured.bench_cpu = time.process_time() - bench_before
        measured.bot_cpu_wait = sum(proc_cpu_wait_seconds(pid) or 0.0 for pid in pids) - bot_wait
        busy_after = machine_busy_seconds()
        if busy_before is not None and busy_after is not None:
            measured.machine_busy = busy_after - busy_before
        if measured.machine_busy is not None:
            measured.others_cpu = max(
                0.0,
                measured.machine_busy
                - (measured.bot_cpu or 0.0)
                - (measured.database_cpu or 0.0)
                - measured.bench_cpu,
            )
        peaks = [proc_status_kb(pid, "VmHWM") for pid in pids]
        measured.peak_kb = max((kb for kb in peaks if kb is not None), default=None)
        measured.rss_kb = proc_status_kb(pids[0], "VmRSS")
        if profiler is not None:
            measured.profile = await finish_profiler(profiler, options)
    measured.stalls = sum(t.stalls for t in tables)
    measured.games_over = sum(
        1 for t in tables for at in t.games_over if measured.started <= at <= measured.ended
    )


def start_profiler(options: Options, pid: int, workdir: Path) -> subprocess.Popen[bytes] | None:
    """py-spy sampling the bot for the measured period, if asked for."""
    if options.profile is None:
        return None
    venv_spy = Path(sys.executable).with_name("py-spy")
    spy = str(venv_spy) if venv_spy.exists() else shutil.which("py-spy")
    if spy is None:
        raise BenchError("--profile needs py-spy (e.g. .venv/bin/pip install py-spy)")
    kind = "raw" if options.profile.suffix == ".txt" else "flamegraph"
    return subprocess.Popen(  # noqa: S603 - py-spy from the venv or PATH, fixed arguments
        [
            spy,
            "record",
            "--pid",
            str(pid),
            "--duration",
            str(round(options.seconds)),
            "--rate",
            "200",
            "--format",
            kind,
            "--nonblocking",
            "--output",
            str(options.profile.resolve()),
        ],
        cwd=workdir,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


async def finish_profiler(profiler: subprocess.Popen[bytes], options: Options) -> str:
    try:
        async with asyncio.timeout(30):
            _, err = await asyncio.to_thread(profiler.communicate)
    except TimeoutError:
        profiler.kill()
        await asyncio.to_thread(profiler.wait)
        return "py-spy did not finish"
    if profiler.returncode != 0:
        return f"py-spy failed: {err.decode(errors='replace').strip()[-300:]}"
    return f"py-spy profile of the bot written to {options.profile}"


@contextlib.contextmanager
def cancelling(tasks: list[asyncio.Task[None]]) -> Iterator[None]:
    try:
        yield
    finally:
        for task in tasks:
            task.cancel()


SITTING = (("sqlite", 1), (THROWAWAY, 1), (THROWAWAY, 2))
"""The runs of ``--sitting``: (database, workers)."""


async def sitting(options: Options) -> str:
    """The same load on SQLite, then on one and two PostgreSQL workers, in one
    sitting (one throwaway cluster for both), each run's report, then a table."""
    print("starting a throwaway PostgreSQL cluster...", file=sys.stderr, flush=True)
    cluster = await asyncio.to_thread(Cluster.start)
    reports: list[str] = []
    rows: list[str] = []
    try:
        for database, workers in SITTING:
            one = dataclasses.replace(options, database=database, workers=workers, sitting=False)
            print(f"{database}, {workers} worker(s)...", file=sys.stderr, flush=True)
            text = await run(one, cluster)
            reports.append(text)
            rows.append(f"| {database}, {workers} | " + " | ".join(summary(text)) + " |")
    finally:
        cluster.stop()
    table = [
        "| database, workers | moves/s | bot CPU per move | PostgreSQL CPU per move "
        "| press -> answer p99 | next turn p99 |",
        "|---|---|---|---|---|---|",
        *rows,
    ]
    return "\n\n".join([*reports, "\n".join(table)])


def summary(text: str) -> list[str]:
    """The sitting table's figures, read back from one run's report's rows
    (label in columns 2-40, value in 40-54): moves a second, the bot's and
    PostgreSQL's CPU per move, and the two p99s (the answer, the next turn)."""
    rows = [(line[2:40].strip(), line[40:54].strip()) for line in text.splitlines()]
    values = dict(reversed(rows))  # the first row of a label wins
    p99s = [value for label, value in rows if label == "p99"]
    return [
        values.get("moves per second, all tables", "-"),
        values.get("bot CPU per applied move", "-"),
        values.get("PostgreSQL server CPU per applied move", "-"),
        *[*p99s, "-", "-"][:2],
    ]


def parse_args(argv: list[str] | None = None) -> Options:
    parser = argparse.ArgumentParser(
        prog="python -m bench.bot",
        description="Many tables played at once against the bot in a subprocess.",
    )
    parser.add_argument("--tables", type=int, help="concurrent tables (default 100; quick 10)")
    parser.add_argument("--players", type=int, default=2, help="players per table, 2-6")
    parser.add_argument("--seconds", type=float, help="measured period (default 60; quick 10)")
    parser.add_argument("--quick", action="store_true", help="10 tables for 10 s")
    parser.add_argument("--seed", type=int, default=1, help="seed of the users' choices")
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="open loop: each user thinks a random 0..2 x SECONDS before a press (default 0: "
        "closed loop, press at once)",
    )
    parser.add_argument(
        "--game", default="durak", choices=sorted(CATALOG.specs), help="the game (default durak)"
    )
    parser.add_argument(
        "--computers", type=int, default=0, help="computer seats per table, beside the players"
    )
    parser.add_argument(
        "--telegram-limit",
        type=int,
        default=0,
        metavar="N",
        help="the stand-in refuses sends and edits past N a second overall (429, retry_after "
        f"1 s) in the measured period, and the bot runs at TELEGRAM_MAX_RATE={LIMITED_MAX_RATE}",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="bot processes (PostgreSQL only): N workers in webhook mode behind a round-robin "
        "balancer (default 1)",
    )
    parser.add_argument(
        "--database",
        default="sqlite",
        metavar="URL",
        help=f"sqlite (a file in a temporary directory, the default), {THROWAWAY} (a "
        "PostgreSQL cluster started for the run, as the tests start theirs) or the "
        "postgresql:// URL of an empty database",
    )
    parser.add_argument(
        "--sitting",
        action="store_true",
        help="one run after another on SQLite, then one and two workers on a throwaway "
        "PostgreSQL cluster, and a table of the three",
    )
    parser.add_argument(
        "--profile",
        type=Path,
        metavar="FILE",
        help="sample the bot with py-spy during the measured period (needs py-spy on PATH "
        "or in the venv): FILE.svg a flame graph, FILE.txt collapsed stacks",
    )
    args = parser.parse_args(argv)
    tables = args.tables if args.tables is not None else (10 if args.quick else 100)
    seconds = args.seconds if args.seconds is not None else (10.0 if args.quick else 60.0)
    if not 1 <= tables <= 1000:
        parser.error("--tables must be between 1 and 1000")
    if not 2 <= args.players <= 6:
        parser.error("--players must be between 2 and 6")
    if not 1 <= seconds <= 600:
        parser.error("--seconds must be between 1 and 600")
    if not 0 <= args.think <= 60:
        parser.error("--think must be between 0 and 60 seconds")
    if not 0 <= args.computers <= 5:
        parser.error("--computers must be between 0 and 5")
    if args.telegram_limit < 0:
        parser.error("--telegram-limit must not be negative")
    if not 1 <= args.workers <= 16:
        parser.error("--workers must be between 1 and 16")
    database = args.database
    if database not in ("sqlite", THROWAWAY):
        try:
            postgres = DatabaseUrl.parse(database).postgres
        except ValueError as exc:
            parser.error(f"--database: {exc}")
        if not postgres:
            parser.error(f"--database: sqlite, {THROWAWAY} or a postgresql:// URL")
    if args.workers > 1 and database == "sqlite":
        parser.error("--workers needs PostgreSQL: several workers share a database server")
    return Options(
        tables=tables,
        players=args.players,
        seconds=seconds,
        seed=args.seed,
        profile=args.profile,
        game=args.game,
        computers=args.computers,
        think=args.think,
        telegram_limit=args.telegram_limit,
        workers=args.workers,
        database=database,
        sitting=args.sitting,
    )


def main(argv: list[str] | None = None) -> int:
    options = parse_args(argv)
    # SIGTERM stops the run like Ctrl-C does: the bot is stopped, the temp dir removed.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        print(asyncio.run(sitting(options) if options.sitting else run(options)))
    except BenchError as exc:
        print(f"benchmark failed: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
