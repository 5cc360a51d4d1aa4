"""Running the real bot against the fake Bot API and playing as users would."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import weakref
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg

from bot.app import build_application
from bot.catalog import CATALOG, Catalog
from bot.config import Config
from bot.transport import AiohttpRequest
from games.core import Game
from handlers.context import KEY, Koloda
from i18n import t
from playground.botapi import FakeTelegram, SentMessage
from playground.botapi.direct import DirectRequest
from storage.translate import postgres_query
from storage.url import DatabaseUrl, sqlite_url
from tests.clock import FakeClock
from tests.engines.playout import cards_in

ROOT = Path(__file__).resolve().parents[2]
GROUP_ID = -1001
MOVE_DATA = re.compile(r"^[mu]:")
THINKING_PERCENT = 2
"""Searching computers think 2% of their level's time (hard: 20 ms a move), so
that games with them are as quick as the rest of the suite."""
HORIZON = 3.0
"""Waits of the bot up to this long (its group budget, a computer's pause) pass
by themselves when everything else is idle; longer ones (turn timers) only when
a test moves the clock on."""
IDLE_POLL = 0.002
"""Seconds between looks at whether the bot is idle (it handles a press in a
few milliseconds)."""
LOOP_ROUNDS = 5
"""Rounds of the event loop a settled bot must stay idle through."""

QUICK_OPTIONS: dict[str, dict[str, str]] = {
    "daytona": {"До очков": "10"},  # a match of one race
    "joker": {"Сдачи": "короткая (12)"},  # two pulkas: every size of deal, premiums
    "durak/blind": {"Колода": "24"},
}
"""Lobby options that shorten a whole game of random presses without leaving
out any kind of move.  Blind durak's random positions make a wrong card, and so
a taken bout, the common case: with 36 cards three players' random game runs
to 800 moves on average, with 24 to 380."""


def quick_options(game: str, preset: str | None = None) -> dict[str, str]:
    """:data:`QUICK_OPTIONS` for a game and preset."""
    return {**QUICK_OPTIONS.get(game, {}), **QUICK_OPTIONS.get(f"{game}/{preset}", {})}


def bot_config(server: FakeTelegram, db_path: Path, **overrides: Any) -> Config:
    values: dict[str, Any] = {
        "token": server.token,
        "api_base_url": server.base_url,
        "file_base_url": server.base_file_url,
        "database_url": sqlite_url(db_path),
        "group_edits_per_minute": 60,
        "overall_rate": 10_000.0,
        "computer_thinking_percent": THINKING_PERCENT,
        "computer_workers": 1,  # each spawned worker costs half a second of CPU
    }
    values.update(overrides)
    return Config(**values)


@asynccontextmanager
async def running_bot(
    config: Config,
    clock: FakeClock | None = None,
    catalog: Catalog = CATALOG,
    seeds: Callable[[], int] | None = None,
    over_http: bool = False,
) -> AsyncIterator[Any]:
    """The bot as ``run_polling`` runs it, hooks included, in this event loop, on
    a fake clock (the one given, or its own); ``seeds`` gives the games' seeds
    when a test needs its deals to repeat.  Its requests go straight to the
    stand-in (:class:`DirectRequest`), or ``over_http`` for tests of the
    network path (storms)."""
    clock = clock or FakeClock()
    application = build_application(
        config,
        catalog=catalog,
        clock=clock,
        heartbeat=3600.0,
        seeds=seeds,
        requests=AiohttpRequest if over_http else DirectRequest,
    )
    application.bot_data["test_clock"] = clock
    await application.initialize()
    try:
        assert application.post_init is not None
        await application.post_init(application)
        await application.start()
        assert application.updater is not None
        await application.updater.start_polling(poll_interval=0, timeout=1)
        try:
            yield application
        finally:
            await application.updater.stop()
            await application.stop()
            assert application.post_stop is not None
            await application.post_stop(application)
    finally:
        await application.shutdown()
        assert application.post_shutdown is not None
        await application.post_shutdown(application)


async def settle(
    server: FakeTelegram,
    application: Any | None,
    *,
    patience: float = 10.0,
    until: float | None = None,
) -> None:
    """Wait until the bot has fetched and fully handled every update, and has
    delivered everything it owes; on the fake clock, short waits pass meanwhile
    (none past ``until``).  ``patience``: the seconds of real time the bot may
    take to get there.

    In-process (a polling bot, as :func:`running_bot` starts it), the
    application itself tells whether an update is still being handled and
    whether its background work is idle; for a bot in another process only the
    server's quiet time can."""
    if application is None:
        await server.wait_idle(quiet=0.15)
        return
    koloda = application.bot_data.get(KEY)
    clock: FakeClock = application.bot_data["test_clock"]

    def idle() -> bool:
        return (
            server.unfetched_count == 0
            and server.active_polls > 0  # it asked again, so what it fetched is in its queue
            and application.update_queue.empty()
            and application.update_processor.current_concurrent_updates == 0
            and (
                not isinstance(koloda, Koloda)
                or (koloda.resumed.is_set() and koloda.services.background.idle)
            )
        )

    while True:
        await server.wait_for(
            idle, patience, interval=IDLE_POLL, message="the bot to handle every update"
        )
        # What the last step set going (an update's handler, a worker given
        # work, a sleeper the clock woke) runs in the loop's next rounds: the
        # bot is idle only if it still is after them.
        for _ in range(LOOP_ROUNDS):
            await asyncio.sleep(0)
        if not idle():
            continue
        wake = clock.next_wake()
        if wake is None or wake > clock.now() + HORIZON or (until is not None and wake > until):
            return
        clock.wake_next()


async def advance(server: FakeTelegram, application: Any, seconds: float) -> None:
    """Let ``seconds`` of the bot's time pass, everything due meanwhile done;
    the clock ends at most :data:`HORIZON` past them."""
    clock: FakeClock = application.bot_data["test_clock"]
    target = clock.now() + seconds
    while True:
        await settle(server, application, until=target)
        wake = clock.next_wake()
        if wake is None or wake > target:
            break
        clock.wake_next()
    clock.set(target)
    # Short waits the bot begins by then pass too, but the clock stops short of
    # chaining them on (a countdown's edits would carry it to any deadline).
    await settle(server, application, until=target + HORIZON)


STALE_BUTTON = t("ru", "error.stale_button")
STALE_RETRIES = 3
"""How often a press on a hand that a bot in another process had just replaced
is tried again on the hands it shows once it is quiet."""
STALE_QUIET = 1.0


@dataclass
class Table:
    """A group with players, and helpers to act as them."""

    server: FakeTelegram
    group_id: int
    players: list[int]
    application: Any | None = None
    rng: random.Random = field(default_factory=lambda: random.Random(7))

    def hand(self, user_id: int) -> SentMessage | None:
        """The user's current DM message with move buttons, if any."""
        return _last_with(self.server, user_id, ("m:", "u:"), live=True)

    def group_move(self) -> SentMessage | None:
        """The group message with move buttons (e.g. 101's next round), if any."""
        return _last_with(self.server, self.group_id, ("m:",))

    def group_messages(self) -> list[SentMessage]:
        return self.server.chat_messages(self.group_id)

    def lobby(self) -> SentMessage:
        message = _last_with(self.server, self.group_id, ("l:",))
        if message is None:
            raise AssertionError("no lobby message in the group")
        return message

    async def command(self, user_id: int, text: str, chat_id: int | None = None) -> None:
        self.server.send(user_id, self.group_id if chat_id is None else chat_id, text)
        await settle(self.server, self.application)

    async def press(self, user_id: int, message: SentMessage, data: str) -> dict[str, Any]:
        query = self.server.press(user_id, message.chat_id, message.message_id, data)
        if self.application is not None:
            # Settled, the bot has answered, unless its answer waits for a retry.
            await settle(self.server, self.application)
            settled = self.server.callback_answer(query)
            if settled is not None:
                return settled
        answer = await self.server.answered(query)
        await settle(self.server, self.application)
        return answer

    async def press_text(self, user_id: int, message: SentMessage, text: str) -> dict[str, Any]:
        return await self.press(user_id, message, message.callback_data(text))

    async def start_bots(self) -> None:
        """Every player opens the bot's DM and presses Start."""
        for user_id in self.players:
            self.server.start_bot(user_id)
        await settle(self.server, self.application)

    async def open_and_start(
        self,
        game: str = "durak",
        preset: str | None = None,
        *,
        timer: bool = False,
        options: Mapping[str, str] | None = None,
    ) -> None:
        """Open a table, set its ``options`` (a button's name to the value it
        shows), seat everybody and start; without ``timer`` the turn timer is
        switched off first (random presses take their time)."""
        await self.open(game, preset)
        await self.set_options(options or {})
        for user_id in self.players[1:]:
            await self.press(user_id, self.lobby(), self.lobby().callback_data("🙋"))
        if not timer:
            await self.set_turn_time("без лимита")
        await self.press(self.players[0], self.lobby(), self.lobby().callback_data("▶️"))

    async def open(self, game: str = "durak", preset: str | None = None) -> None:
        await self.start_bots()
        before = _last_with(self.server, self.group_id, ("l:",))
        await self.command(self.players[0], f"/newgame {game} {preset or ''}".strip())
        if self.application is None:
            # A bot in another process, starved of CPU, can be quiet for the
            # moment settle() waits before it has sent the lobby.
            def opened() -> SentMessage | None:
                lobby = _last_with(self.server, self.group_id, ("l:",))
                if lobby is None or (before is not None and lobby.message_id == before.message_id):
                    return None
                return lobby

            await self.server.wait_for(opened, 30, message="the new table's lobby")

    async def set_turn_time(self, shown: str) -> None:
        """The creator cycles the lobby's turn time until it reads ``shown``."""
        await self.set_option("На ход", shown)

    async def set_options(self, options: Mapping[str, str]) -> None:
        for name, shown in options.items():
            await self.set_option(name, shown)

    async def set_option(self, name: str, shown: str) -> None:
        """The creator opens the lobby's settings and cycles the option whose
        button starts with ``name`` until it reads ``shown``."""
        creator = self.players[0]

        def label() -> str | None:
            return next((b for b in self.lobby().button_texts if b.startswith(name)), None)

        await self.press(creator, self.lobby(), self.lobby().callback_data("⚙️"))

        def changed(before: str) -> Callable[[], bool]:
            return lambda: label() != before

        for _ in range(8):
            current = await self.server.wait_for(label)
            if current.endswith(shown):
                break
            await self.press(creator, self.lobby(), self.lobby().callback_data(name))
            await self.server.wait_for(changed(current))
        else:
            raise AssertionError(f"no {name} {shown!r}")
        await self.press(creator, self.lobby(), self.lobby().callback_data("« Назад"))
        await self.server.wait_for(lambda: label() is None)

    def random_press(self, rng: random.Random) -> tuple[int, SentMessage, str] | None:
        """A press some player could make now, chosen at random: a button of
        somebody's live hand, else a move on the group's message (None: nobody
        has a button)."""
        options = [(u, m) for u in self.players if (m := self.hand(u)) is not None]
        if options:
            user_id, message = rng.choice(options)
            return (
                user_id,
                message,
                rng.choice([d for d in message.callback_datas if MOVE_DATA.match(d)]),
            )
        group = self.group_move()
        if group is None:
            return None
        data = rng.choice([d for d in group.callback_datas if d.startswith("m:")])
        return rng.choice(self.players), group, data

    async def play_random_move(self) -> str | None:
        """One random button press by some player who can act; returns the
        callback data pressed (None when nobody can act)."""
        for attempt in range(STALE_RETRIES + 1):
            options = [(u, m) for u in self.players if (m := self.hand(u)) is not None]
            if not options:
                break
            user_id, message = self.rng.choice(options)
            data = self.rng.choice([d for d in message.callback_datas if MOVE_DATA.match(d)])
            answer = await self.press(user_id, message, data)
            if (
                self.application is None
                and attempt < STALE_RETRIES
                and answer.get("text") == STALE_BUTTON
            ):
                # A bot in another process may still be redrawing after a
                # quiet moment (a loaded machine, a restart sending the hands
                # anew): the hand pressed was already replaced.
                await self.server.wait_idle(quiet=STALE_QUIET)
                continue
            assert not answer.get("show_alert"), f"a legal button was refused: {answer}"
            return data
        group = self.group_move()
        if group is None:
            return None
        # A group button may be pressed by anybody; players who are out of
        # the match are refused, so somebody else presses it.
        data = self.rng.choice([d for d in group.callback_datas if d.startswith("m:")])
        for user_id in self.rng.sample(self.players, len(self.players)):
            if not (await self.press(user_id, group, data)).get("show_alert"):
                return data
        raise AssertionError(f"nobody could press {data}")

    async def play_to_the_end(self, max_moves: int = 2000, probe: Probe | None = None) -> int:
        """Random legal presses until nobody has buttons; with a ``probe``, check
        after every move that the group saw no hidden card."""
        watch = None if probe is None else HiddenCardsWatch(self, probe)
        moves = 0
        while moves < max_moves:
            pressed = await self.play_random_move()
            if pressed is None:
                return moves
            moves += not pressed.startswith("u:")  # "u:" only opens a sub-menu
            if watch is not None:
                watch.check()
        raise AssertionError("the game did not end")


@dataclass
class GroupTable(Table):
    """A table whose players never opened the bot: each one's hand is an
    ephemeral message in the group, which he alone sees."""

    def hand(self, user_id: int) -> SentMessage | None:
        """The user's latest ephemeral message in the group with move buttons."""
        for message in reversed(self.server.ephemeral_messages(self.group_id, user_id)):
            if any(MOVE_DATA.match(d) for d in message.callback_datas):
                return message
        return None

    def seen(self, user_id: int) -> list[SentMessage]:
        """The ephemeral messages the user sees in the group."""
        return self.server.ephemeral_messages(self.group_id, user_id)

    def table_message(self) -> SentMessage:
        """The group's table message (the one with "my cards")."""
        message = _last_with(self.server, self.group_id, ("c:",), live=True)
        if message is None:
            raise AssertionError("no table message with 'my cards' in the group")
        return message

    async def press(self, user_id: int, message: SentMessage, data: str) -> dict[str, Any]:
        if message.receiver_id is None:
            return await super().press(user_id, message, data)
        query = self.server.press_ephemeral(user_id, message.chat_id, message.message_id, data)
        await settle(self.server, self.application)
        answer = self.server.callback_answer(query)
        if answer is None:
            answer = await self.server.answered(query)
            await settle(self.server, self.application)
        return answer

    async def my_cards(self, user_id: int) -> dict[str, Any]:
        """The user presses "🂠 My cards" on the table message."""
        message = self.table_message()
        return await self.press(user_id, message, message.callback_data("🂠"))

    async def start_bots(self) -> None:
        """Nobody opens the bot's DM."""

    def dms(self) -> list[SentMessage]:
        """Every message the bot sent to any player's private chat."""
        return [m for u in self.players for m in self.server.chat_messages(u)]


def seat_group_players(
    server: FakeTelegram,
    names: list[str],
    application: Any | None = None,
    *,
    admin: bool = False,
    told: bool = True,
    group_id: int = GROUP_ID,
) -> GroupTable:
    """Players who never opened the bot, in a group where the bot is an
    administrator or not (``told``: with the update that says so, else one
    that the bot never got)."""
    players = []
    for i, name in enumerate(names):
        server.add_user(100 + i, name)
        players.append(100 + i)
    server.add_group(
        group_id, "Friends", supergroup=True, creator=players[0], bot_is_admin=admin and not told
    )
    if admin and told:
        server.set_bot_admin(group_id)
    return GroupTable(server, group_id, players, application)


def _last_with(
    server: FakeTelegram, chat_id: int, prefixes: tuple[str, ...], *, live: bool = False
) -> SentMessage | None:
    """The chat's latest bot message with a button whose data starts with one of
    ``prefixes`` (``live``: deleted ones skipped), as a snapshot.  It looks through
    the server's own records, copying only the message found: a long game's chat
    holds thousands of messages."""
    for message in reversed(server.bot_messages(chat_id)):
        if live and message.deleted:
            continue
        if any(d.startswith(prefixes) for d in message.callback_datas):
            return message.snapshot()
    return None


def seat_players(
    server: FakeTelegram,
    names: list[str],
    application: Any | None = None,
    *,
    group_id: int = GROUP_ID,
    supergroup: bool = True,
    first_user: int = 100,
) -> Table:
    players = []
    for i, name in enumerate(names):
        user_id = first_user + i
        server.add_user(user_id, name)
        players.append(user_id)
    server.add_group(group_id, "Friends", supergroup=supergroup, creator=players[0])
    return Table(server, group_id, players, application)


FACE = re.compile(r"(?:10|[2-9JQKA])[♠♣♦♥]")
FACE_TO_CODE = {
    **{f"{r}{s}": f"{r}{c}" for r in "23456789JQKA" for s, c in zip("♠♣♦♥", "scdh", strict=True)},
    **{f"10{s}": f"T{c}" for s, c in zip("♠♣♦♥", "scdh", strict=True)},
}


def faces_in(text: str) -> set[str]:
    """Card codes of every card face in a text."""
    return {FACE_TO_CODE[f] for f in FACE.findall(text)}


class Probe:
    """Reads the bot's database from the test, as a second connection would
    (the games of ``catalog``: those of the bot under test): an SQLite file,
    or any ``DATABASE_URL``."""

    def __init__(self, database: Path | str, catalog: Catalog = CATALOG) -> None:
        self.url = DatabaseUrl.parse(database)
        self.catalog = catalog
        self._conn: sqlite3.Connection | None = None
        self._postgres: psycopg.Connection[tuple[Any, ...]] | None = None

    def query(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """Rows of a query (SQLite's SQL, ``?`` parameters), read on one
        connection kept open (a whole game asks thousands of times, and each
        new connection reads the schema again).  In autocommit mode it holds no
        snapshot between queries, so each sees every commit the bot made before
        it, across the bot's restarts too."""
        if self.url.postgres:
            if self._postgres is None:
                self._postgres = psycopg.connect(self.url.url, autocommit=True)
                # Closed with the probe where a test does not close it: left
                # to the garbage collector, it warns in whatever test runs then.
                weakref.finalize(self, self._postgres.close)
            return list(self._postgres.execute(postgres_query(sql), params).fetchall())
        if self._conn is None:
            assert self.url.path is not None
            self._conn = sqlite3.connect(
                self.url.path, isolation_level=None, check_same_thread=False
            )
        return list(self._conn.execute(sql, params).fetchall())

    def close(self) -> None:
        if self._postgres is not None:
            self._postgres.close()
            self._postgres = None
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def table(self, table_id: int = 1) -> tuple[str, int]:
        ((status, moves),) = self.query(
            "SELECT status, moves FROM tables WHERE id = ?", (table_id,)
        )
        return str(status), int(moves)

    def game(self, table_id: int = 1) -> Game[Any, Any, Any, Any] | None:
        """The table's game as it stands (None: not dealt yet)."""
        ((key, state),) = self.query("SELECT game, state FROM tables WHERE id = ?", (table_id,))
        return None if state is None else self.catalog.specs[key].game.load(json.loads(state))

    def public_view(self, table_id: int = 1) -> Any:
        """The table's public view now, of the game's own view type."""
        game = self.game(table_id)
        assert game is not None, "no game dealt yet"
        return game.public_view()

    def public_cards(self, table_id: int = 1) -> set[str]:
        """Every card the table has publicly seen: cards in events so far and
        cards in the current public view."""
        seen: set[str] = set()
        for (events,) in self.query("SELECT events FROM moves WHERE table_id = ?", (table_id,)):
            for event in json.loads(events):
                seen.update(event.get("cards", ()))
        return seen | self.public_view_cards(table_id)

    def public_view_cards(self, table_id: int = 1) -> set[str]:
        """The cards in the table's current public view."""
        game = self.game(table_id)
        return set() if game is None else {card.code for card in cards_in(game.public_view())}

    def deadlines(self, table_id: int = 1) -> list[tuple[int, float]]:
        """(seat, due time) of the table's running deadlines."""
        rows = self.query(
            "SELECT seat, due_at FROM deadlines WHERE table_id = ? ORDER BY seat", (table_id,)
        )
        return [(int(r[0]), float(r[1])) for r in rows]

    def alive_at(self) -> float | None:
        rows = self.query("SELECT value FROM meta WHERE key = 'alive_at'")
        return float(rows[0][0]) if rows else None

    def moves(self, table_id: int = 1) -> list[tuple[int, float, str, int]]:
        """(number, time, actor, seat) of every move."""
        rows = self.query(
            "SELECT n, at, actor, seat FROM moves WHERE table_id = ? ORDER BY n", (table_id,)
        )
        return [(int(r[0]), float(r[1]), str(r[2]), int(r[3])) for r in rows]

    def scores(self) -> list[tuple[int, str, int, int, int]]:
        return [
            (int(r[0]), str(r[1]), int(r[2]), int(r[3]), int(r[4]))
            for r in self.query(
                "SELECT chat_id, game, user_id, played, wins FROM scores ORDER BY user_id"
            )
        ]


def check_no_hidden_cards(table: Table, probe: Probe, table_id: int = 1) -> None:
    """No group message shows a card the table has not seen played."""
    HiddenCardsWatch(table, probe, table_id).check()


class HiddenCardsWatch:
    """:func:`check_no_hidden_cards` after every move of a whole game, at the
    cost of what changed since the last check rather than of the game so far:
    the move log is read on from where it was left, and a message's faces are
    read again only when it was edited.  Every group message is still held
    against the cards played so far and the current public view."""

    def __init__(self, table: Table, probe: Probe, table_id: int = 1) -> None:
        self.table = table
        self.probe = probe
        self.table_id = table_id
        self.played: set[str] = set()
        self._moves_read = 0
        self._faces: dict[int, tuple[int, set[str]]] = {}  # message id: (edit count, faces)
        self._deck: set[str] | None = None  # every card of the game, once it is dealt

    def check(self) -> None:
        rows = self.probe.query(
            "SELECT n, events FROM moves WHERE table_id = ? AND n > ? ORDER BY n",
            (self.table_id, self._moves_read),
        )
        for n, events in rows:
            for event in json.loads(events):
                self.played.update(event.get("cards", ()))
            self._moves_read = int(n)
        public = self.played | self.probe.public_view_cards(self.table_id)
        if self._deck is None:
            game = self.probe.game(self.table_id)
            self._deck = None if game is None else {c.code for z in game.zones() for c in z.cards}
        for message in self.table.server.bot_messages(self.table.group_id):
            known = self._faces.get(message.message_id)
            if known is None or known[0] != message.edit_count:
                known = (message.edit_count, faces_in(message.text))
                self._faces[message.message_id] = known
            # Only a card of the game can be hidden: a joker played at its face
            # value names a six the deck does not hold ("🃏 как 6♣").
            leaked = (known[1] - public) & (self._deck or known[1])
            text = message.text
            assert not leaked, f"group message shows unplayed cards {sorted(leaked)}:\n{text}"


def spawn_bot(env: dict[str, str], workdir: Path, log: Path) -> subprocess.Popen[bytes]:
    """``python -m bot`` in another process, with only the given settings; everything
    it prints, on stdout or stderr, goes to ``log``."""
    full = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(ROOT), **env}
    with log.open("ab") as output:  # the child keeps its own copy of the handle
        return subprocess.Popen(
            [sys.executable, "-m", "bot"],
            cwd=workdir,
            env=full,
            stdout=output,
            stderr=output,
        )


def start_bot_process(
    server: FakeTelegram, db_path: Path, workdir: Path, log: Path, *, log_level: str = "WARNING"
) -> subprocess.Popen[bytes]:
    """``python -m bot`` against ``server`` on real time, as an operator runs it."""
    env = {
        "BOT_TOKEN": server.token,
        "TELEGRAM_API_BASE_URL": server.base_url,
        "TELEGRAM_FILE_BASE_URL": server.base_file_url,
        "DATABASE_PATH": str(db_path),
        "GROUP_EDITS_PER_MINUTE": "60",
        "TELEGRAM_MAX_RATE": "10000",
        "COMPUTER_PAUSE_MS": "100",
        "COMPUTER_THINKING_PERCENT": str(THINKING_PERCENT),
        "COMPUTER_WORKERS": "1",
        "LOG_LEVEL": log_level,
    }
    return spawn_bot(env, workdir, log)


WEBHOOK_PATH = "/koloda-hook"
WEBHOOK_SECRET = "fleet-secret_0123"


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_worker_process(
    server: FakeTelegram,
    database_url: str,
    workdir: Path,
    log: Path,
    *,
    webhook_url: str,
    port: int,
    worker_id: str,
    group_edits_per_minute: int = 20,
    computer_pause_ms: int = 100,
    lease_seconds: int = 10,
    log_level: str = "WARNING",
) -> subprocess.Popen[bytes]:
    """One of several workers, as an operator runs them behind a load balancer:
    ``python -m bot`` in webhook mode on ``port``, every worker given the same
    ``webhook_url`` (the balancer's) and database."""
    env = {
        "BOT_TOKEN": server.token,
        "TELEGRAM_API_BASE_URL": server.base_url,
        "TELEGRAM_FILE_BASE_URL": server.base_file_url,
        "DATABASE_URL": database_url,
        "WEBHOOK_URL": webhook_url,
        "WEBHOOK_LISTEN": "127.0.0.1",
        "WEBHOOK_PORT": str(port),
        "WEBHOOK_SECRET": WEBHOOK_SECRET,
        "WORKER_ID": worker_id,
        "LEASE_SECONDS": str(lease_seconds),
        "GROUP_EDITS_PER_MINUTE": str(group_edits_per_minute),
        "TELEGRAM_MAX_RATE": "10000",
        "COMPUTER_PAUSE_MS": str(computer_pause_ms),
        "COMPUTER_THINKING_PERCENT": str(THINKING_PERCENT),
        "COMPUTER_WORKERS": "1",
        "LOG_LEVEL": log_level,
    }
    return spawn_bot(env, workdir, log)


async def stop_bot_process(process: subprocess.Popen[bytes]) -> None:
    """SIGINT, as a service manager stops it; a kill if it does not stop."""
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGINT)
    try:
        await wait_exit(process, 15)
    except TimeoutError:
        process.kill()
        await wait_exit(process, 5)


async def wait_exit(process: subprocess.Popen[bytes], timeout: float) -> int:  # noqa: ASYNC109
    """Wait for the process without blocking the loop the fake server runs in."""
    async with asyncio.timeout(timeout):
        return await asyncio.to_thread(process.wait)
