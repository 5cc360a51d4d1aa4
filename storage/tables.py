"""Tables, their seats and the append-only move log.

Every change to a table bumps its ``version`` (optimistic concurrency: an
update names the version it read and fails if somebody got there first).
"""

from __future__ import annotations

import enum
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from storage.connection import POSTGRES, SQLITE, Dialect, IntegrityError
from storage.sql import Queries

__all__ = [
    "Actor",
    "EndReason",
    "MoveRow",
    "OnAbsence",
    "SeatRow",
    "StaleVersionError",
    "Status",
    "TableExistsError",
    "TableRow",
    "Tables",
]


class Status(enum.StrEnum):
    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"


OPEN = (Status.LOBBY, Status.PLAYING)


class EndReason(enum.StrEnum):
    """Why a table ended without a result."""

    CANCELLED = "cancelled"
    EXPIRED = "expired"
    """A lobby nobody started in time."""
    BOT_REMOVED = "bot_removed"


class OnAbsence(enum.StrEnum):
    """What happens to a player marked absent."""

    COMPUTER = "computer"
    """A computer plays his seat until he presses a button again."""
    REMOVE = "remove"
    """He leaves the game as its rules require."""


class Actor(enum.StrEnum):
    """Who made a move."""

    PLAYER = "player"
    COMPUTER = "computer"
    TIMER = "timer"
    ADMIN = "admin"


class StaleVersionError(RuntimeError):
    """Someone changed the table since it was read."""


class TableExistsError(RuntimeError):
    """The chat (or forum topic) already has an open table."""


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    user_id: int | None
    """The human player; None for a computer."""
    computer: int | None
    """A computer player's name number; None for a human."""
    first_name: str | None
    """The human's name (None for a computer)."""
    dm_ok: bool
    language: str | None
    timeouts: int
    """Timed-out turns since the player last pressed a button of the table; the
    deal sets it to one (he has pressed nothing in the game yet)."""
    absent: bool
    last_move: int = 0
    """The number of the seat's latest move (0: none yet)."""
    hand_in: str | None = None
    """Where the player wants his hands: "dm", "group", None: the DM when it
    works, else the group."""
    username: str | None = None
    """The human's Telegram @username, without the @ (None: he has none, or a
    computer)."""

    @property
    def is_human(self) -> bool:
        return self.user_id is not None

    @property
    def identity(self) -> tuple[str, int]:
        """Who sits here, across tables: a person, or a computer by its name."""
        if self.user_id is not None:
            return ("user", self.user_id)
        assert self.computer is not None
        return ("computer", self.computer)


@dataclass(frozen=True, slots=True)
class TableRow:
    id: int
    chat_id: int
    thread_id: int
    game: str
    rules: dict[str, Any]
    status: Status
    creator_id: int
    seed: int | None
    state: dict[str, Any] | None
    version: int
    moves: int
    previous_id: int | None
    turn_seconds: int
    on_absence: OnAbsence
    end_reason: EndReason | None
    seats: tuple[SeatRow, ...]
    chat_title: str | None = None
    """The group's title, for the players' DMs."""
    commitment: str | None = None
    """SHA-256 (hex) of the seed and the deal, shown while the game runs;
    None for games dealt before deals were committed."""
    computer_level: str = "easy"
    """How strong its computer seats play (``players.levels.Level``)."""
    scheme: str | None = None
    """How its game was dealt (``services.fairness``); None: before schemes
    were named (the first scheme's way)."""
    server_seed: str | None = None
    """The bot's secret seed, drawn when the table opened (None: a table dealt
    the first scheme's way), revealed when the game is over."""
    seed_commitment: str | None = None
    """SHA-256 (hex) of ``server_seed``, shown in the lobby."""
    contributions: tuple[str, ...] = ()
    """The players' contributions mixed into ``server_seed`` at the deal."""
    duplicate_of: int | None = None
    """The first table of the duplicate set this table belongs to (whose deal
    it plays again with the people turned round the seats); None: an
    ordinary table, or the set's first."""
    rotation: int = 0
    """Seats each person of the set's first table moved on (0 there)."""
    ended_by: int | None = None
    """The person who cancelled the table (None: it ended by itself, or
    before who ended it was kept)."""
    ended_by_name: str | None = None
    """His first name, as last seen."""

    @property
    def is_open(self) -> bool:
        return self.status in OPEN

    def seat_of(self, user_id: int) -> int | None:
        return next((s.seat for s in self.seats if s.user_id == user_id), None)

    @property
    def has_computers(self) -> bool:
        return any(not s.is_human for s in self.seats)


@dataclass(frozen=True, slots=True)
class MoveRow:
    n: int
    seat: int
    action: str
    events: list[dict[str, Any]]
    actor: Actor
    at: float


_COLUMNS = (
    "id",
    "chat_id",
    "thread_id",
    "game",
    "rules",
    "status",
    "creator_id",
    "seed",
    "state",
    "version",
    "moves",
    "previous_id",
    "turn_seconds",
    "on_absence",
    "end_reason",
    "commitment",
    "computer_level",
    "scheme",
    "server_seed",
    "seed_commitment",
    "contributions",
    "duplicate_of",
    "rotation",
    "ended_by",
)


def _select(dialect: Dialect) -> str:
    """The query of whole tables (``WHERE`` and the rest follow)."""
    seats = dialect.json_rows(
        "s.seat, s.user_id, s.computer, u.first_name, COALESCE(u.dm_ok, 0),"
        " COALESCE(u.language, u.locale), s.timeouts, s.absent, COALESCE((SELECT m.n FROM moves m"
        " WHERE m.table_id = s.table_id AND m.seat = s.seat ORDER BY m.n DESC LIMIT 1), 0),"
        " u.hand_in, u.username"
    )
    return (
        "SELECT "
        + ", ".join(f"t.{c}" for c in _COLUMNS)
        # The seats come along as one JSON array, so that reading a table is
        # one query: each query of a move's transaction is a round trip while
        # the transaction holds the connection.
        + f", c.title, (SELECT {seats}"
        " FROM seats s LEFT JOIN users u ON u.id = s.user_id WHERE s.table_id = t.id),"
        " (SELECT e.first_name FROM users e WHERE e.id = t.ended_by)"
        " FROM tables t LEFT JOIN chats c ON c.id = t.chat_id"
    )


_SELECT = {dialect: _select(dialect) for dialect in (SQLITE, POSTGRES)}


class Tables(Queries):
    # --- reading ---------------------------------------------------------------

    @property
    def _whole(self) -> str:
        """The query of whole tables in this connection's dialect."""
        return _SELECT[self._dialect]

    async def get(self, table_id: int) -> TableRow | None:
        """The table; inside a transaction on PostgreSQL its row stays locked
        until the commit (the moves of a table are serialized by the database)."""
        lock = self._dialect.row_lock("t") if self._conn.locks_rows else ""
        rows = await self._tables(f"{self._whole} WHERE t.id = ?{lock}", (table_id,))
        return rows[0] if rows else None

    async def open_in(self, chat_id: int, thread_id: int) -> TableRow | None:
        """The chat's (or forum topic's) open table."""
        rows = await self._tables(
            f"{self._whole} WHERE t.chat_id = ? AND t.thread_id = ?"
            " AND t.status IN ('lobby', 'playing')",
            (chat_id, thread_id),
        )
        return rows[0] if rows else None

    async def last_played_in(self, chat_id: int, thread_id: int) -> TableRow | None:
        """The chat's (or forum topic's) open table, else the one whose game
        finished last (a cancelled table was not played)."""
        rows = await self._tables(
            f"{self._whole} WHERE t.chat_id = ? AND t.thread_id = ?"
            " AND t.status IN ('lobby', 'playing', 'finished')"
            " ORDER BY t.status = 'finished', t.id DESC LIMIT 1",
            (chat_id, thread_id),
        )
        return rows[0] if rows else None

    async def all_open(self) -> list[TableRow]:
        return await self._tables(
            f"{self._whole} WHERE t.status IN ('lobby', 'playing') ORDER BY t.id"
        )

    async def open_in_chat(self, chat_id: int) -> list[TableRow]:
        """Every open table of a chat, in all its forum topics."""
        return await self._tables(
            f"{self._whole} WHERE t.chat_id = ? AND t.status IN ('lobby', 'playing') ORDER BY t.id",
            (chat_id,),
        )

    async def open_of_user(self, user_id: int) -> list[TableRow]:
        return await self._tables(
            f"{self._whole} JOIN seats s ON s.table_id = t.id"
            " WHERE s.user_id = ? AND t.status IN ('lobby', 'playing') ORDER BY t.id",
            (user_id,),
        )

    async def last_finished_of(self, user_id: int) -> TableRow | None:
        """The last finished game ``user_id`` played, in any chat."""
        rows = await self._tables(
            f"{self._whole} JOIN seats s ON s.table_id = t.id"
            " WHERE s.user_id = ? AND t.status = 'finished' ORDER BY t.id DESC LIMIT 1",
            (user_id,),
        )
        return rows[0] if rows else None

    async def _tables(self, sql: str, params: Sequence[Any] = ()) -> list[TableRow]:
        rows = await self._all(sql, params)
        return [
            TableRow(
                id=r[0],
                chat_id=r[1],
                thread_id=r[2],
                game=r[3],
                rules=json.loads(r[4]),
                status=Status(r[5]),
                creator_id=r[6],
                seed=r[7],
                state=None if r[8] is None else json.loads(r[8]),
                version=r[9],
                moves=r[10],
                previous_id=r[11],
                turn_seconds=r[12],
                on_absence=OnAbsence(r[13]),
                end_reason=None if r[14] is None else EndReason(r[14]),
                seats=_seats(r[25]),
                commitment=r[15],
                computer_level=r[16],
                scheme=r[17],
                server_seed=r[18],
                seed_commitment=r[19],
                contributions=() if r[20] is None else tuple(json.loads(r[20])),
                duplicate_of=r[21],
                rotation=r[22],
                chat_title=r[24],
                ended_by=r[23],
                ended_by_name=r[26],
            )
            for r in rows
        ]

    # --- writing ---------------------------------------------------------------

    async def create(
        self,
        chat_id: int,
        thread_id: int,
        game: str,
        rules: dict[str, Any],
        creator_id: int,
        *,
        turn_seconds: int,
        on_absence: OnAbsence,
        computer_level: str,
        previous_id: int | None = None,
        duplicate_of: int | None = None,
        rotation: int = 0,
    ) -> int:
        now = self._now()
        try:
            rows = await self._all(
                "INSERT INTO tables (chat_id, thread_id, game, rules, status, creator_id,"
                " previous_id, turn_seconds, on_absence, computer_level, duplicate_of, rotation,"
                " created_at, updated_at)"
                " VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (
                    chat_id,
                    thread_id,
                    game,
                    json.dumps(rules),
                    creator_id,
                    previous_id,
                    turn_seconds,
                    on_absence.value,
                    computer_level,
                    duplicate_of,
                    rotation,
                    now,
                    now,
                ),
            )
        except IntegrityError as exc:
            if exc.unique:
                raise TableExistsError(chat_id) from exc
            raise
        return int(rows[0][0])

    async def update(
        self,
        table_id: int,
        expected_version: int,
        *,
        status: Status | None = None,
        rules: dict[str, Any] | None = None,
        seed: int | None = None,
        state: dict[str, Any] | None = None,
        deal: dict[str, Any] | None = None,
        commitment: str | None = None,
        moves: int | None = None,
        turn_seconds: int | None = None,
        on_absence: OnAbsence | None = None,
        computer_level: str | None = None,
        end_reason: EndReason | None = None,
        ended_by: int | None = None,
        creator_id: int | None = None,
        scheme: str | None = None,
        server_seed: str | None = None,
        seed_commitment: str | None = None,
    ) -> int:
        """Change a table if nobody changed it since ``expected_version``;
        returns the new version or raises :class:`StaleVersionError`."""
        sets = ["version = version + 1", "updated_at = ?"]
        params: list[Any] = [self._now()]
        for column, value in (
            ("status", status),
            ("rules", None if rules is None else json.dumps(rules)),
            ("seed", seed),
            ("state", None if state is None else json.dumps(state, separators=(",", ":"))),
            ("deal", None if deal is None else json.dumps(deal, separators=(",", ":"))),
            ("commitment", commitment),
            ("moves", moves),
            ("turn_seconds", turn_seconds),
            ("on_absence", on_absence),
            ("computer_level", computer_level),
            ("end_reason", end_reason),
            ("ended_by", ended_by),
            ("creator_id", creator_id),
            ("scheme", scheme),
            ("server_seed", server_seed),
            ("seed_commitment", seed_commitment),
        ):
            if value is not None:
                sets.append(f"{column} = ?")
                params.append(value)
        params += [table_id, expected_version]
        changed = await self._changed(
            f"UPDATE tables SET {', '.join(sets)} WHERE id = ? AND version = ?", params
        )
        if changed != 1:
            raise StaleVersionError(table_id)
        return expected_version + 1

    async def add_contribution(self, table_id: int, contribution: str) -> None:
        """Append a player's contribution to the table's list (see
        :mod:`services.fairness`)."""
        append = self._dialect.json_append("COALESCE(contributions, '[]')")
        await self._run(
            f"UPDATE tables SET contributions = {append} WHERE id = ?", (contribution, table_id)
        )

    async def add_seat(
        self, table_id: int, *, user_id: int | None = None, computer: int | None = None
    ) -> int:
        """Seat a human or a computer at the next free place; returns the seat."""
        row = await self._one(
            "SELECT COALESCE(MAX(seat) + 1, 0) FROM seats WHERE table_id = ?", (table_id,)
        )
        assert row is not None
        seat = int(row[0])
        await self._run(
            "INSERT INTO seats (table_id, seat, user_id, computer) VALUES (?, ?, ?, ?)",
            (table_id, seat, user_id, computer),
        )
        return seat

    async def reorder_seats(self, table_id: int, order: list[int]) -> None:
        """Seat again (lobbies only): the player at seat ``order[i]`` moves to
        seat ``i``."""
        await self._run("UPDATE seats SET seat = -1 - seat WHERE table_id = ?", (table_id,))
        for new, old in enumerate(order):
            await self._run(
                "UPDATE seats SET seat = ? WHERE table_id = ? AND seat = ?",
                (new, table_id, -1 - old),
            )

    async def remove_seat(self, table_id: int, seat: int) -> None:
        """Unseat ``seat`` and close the gap so seats stay 0..n-1 (lobbies only)."""
        await self._run("DELETE FROM seats WHERE table_id = ? AND seat = ?", (table_id, seat))
        rest = await self._all(
            "SELECT seat FROM seats WHERE table_id = ? AND seat > ? ORDER BY seat",
            (table_id, seat),
        )
        for (later,) in rest:
            await self._run(
                "UPDATE seats SET seat = ? WHERE table_id = ? AND seat = ?",
                (later - 1, table_id, later),
            )

    async def set_presence(self, table_id: int, seat: int, *, timeouts: int, absent: bool) -> None:
        await self._run(
            "UPDATE seats SET timeouts = ?, absent = ? WHERE table_id = ? AND seat = ?",
            (timeouts, int(absent), table_id, seat),
        )

    # --- the move log ----------------------------------------------------------

    async def append_move(
        self,
        table_id: int,
        n: int,
        seat: int,
        action: str,
        events: list[dict[str, Any]],
        actor: Actor,
    ) -> None:
        await self._run(
            "INSERT INTO moves (table_id, n, seat, action, events, actor, at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                table_id,
                n,
                seat,
                action,
                json.dumps(events, separators=(",", ":")),
                actor.value,
                self._now(),
            ),
        )

    async def removals(self, table_id: int, code: str) -> dict[int, Actor]:
        """The seats whose move ``code`` (the game's resign) is in the log, and
        who made it: an admin (removed by /kick) or the timer (left absent)."""
        rows = await self._all(
            "SELECT seat, actor FROM moves WHERE table_id = ? AND action = ? ORDER BY n",
            (table_id, code),
        )
        return {int(r[0]): Actor(r[1]) for r in rows}

    async def last_dealt(self, chat_id: int) -> int | None:
        """The last table in the chat whose game was dealt (being played or over)."""
        rows = await self._all(
            "SELECT id FROM tables WHERE chat_id = ? AND seed IS NOT NULL ORDER BY id DESC LIMIT 1",
            (chat_id,),
        )
        return rows[0][0] if rows else None

    async def last_over(self, chat_id: int) -> int | None:
        """The last table in the chat whose dealt game is over (finished, or
        cancelled after the deal)."""
        rows = await self._all(
            "SELECT id FROM tables WHERE chat_id = ? AND deal IS NOT NULL"
            " AND status != 'playing' ORDER BY id DESC LIMIT 1",
            (chat_id,),
        )
        return rows[0][0] if rows else None

    async def last_over_of_user(self, user_id: int) -> int | None:
        """The last table whose dealt game is over that ``user_id`` sat at."""
        rows = await self._all(
            "SELECT t.id FROM tables t JOIN seats s ON s.table_id = t.id WHERE s.user_id = ?"
            " AND t.deal IS NOT NULL AND t.status != 'playing' ORDER BY t.id DESC LIMIT 1",
            (user_id,),
        )
        return rows[0][0] if rows else None

    async def duplicates(self, first_id: int) -> list[TableRow]:
        """The tables of the duplicate set that began with ``first_id``: that
        table, then its duplicates by rotation (the latest opened of each)."""
        return await self._tables(
            f"{self._whole} WHERE t.id = ? OR t.duplicate_of = ? ORDER BY t.rotation, t.id",
            (first_id, first_id),
        )

    async def deal(self, table_id: int) -> dict[str, Any] | None:
        """The game as it was dealt (see :mod:`services.fairness`)."""
        rows = await self._all("SELECT deal FROM tables WHERE id = ?", (table_id,))
        return None if not rows or rows[0][0] is None else json.loads(rows[0][0])

    async def moves_after(self, table_id: int, after: int, limit: int) -> list[MoveRow]:
        """Up to ``limit`` moves numbered above ``after``, oldest first."""
        rows = await self._all(
            "SELECT n, seat, action, events, actor, at FROM moves WHERE table_id = ? AND n > ?"
            " ORDER BY n LIMIT ?",
            (table_id, after, limit),
        )
        return [_move(r) for r in rows]

    async def last_moves(self, table_id: int, limit: int) -> list[MoveRow]:
        """The latest ``limit`` moves, oldest first."""
        rows = await self._all(
            "SELECT n, seat, action, events, actor, at FROM moves WHERE table_id = ?"
            " ORDER BY n DESC LIMIT ?",
            (table_id, limit),
        )
        return [_move(r) for r in reversed(rows)]


def _seats(seats_json: str) -> tuple[SeatRow, ...]:
    seats = [
        SeatRow(s[0], s[1], s[2], s[3], bool(s[4]), s[5], s[6], bool(s[7]), s[8], s[9], s[10])
        for s in json.loads(seats_json)
    ]
    return tuple(sorted(seats, key=lambda s: s.seat))


def _move(row: Any) -> MoveRow:
    return MoveRow(row[0], row[1], row[2], json.loads(row[3]), Actor(row[4]), row[5])
