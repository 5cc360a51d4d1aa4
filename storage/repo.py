"""Every query the bot runs, as methods of one transaction object.

Rows come back as frozen dataclasses; JSON columns are decoded.  Nothing here
knows about Telegram or about any particular game.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import aiosqlite

__all__ = [
    "ChatRow",
    "MoveRow",
    "ScoreDelta",
    "ScoreRow",
    "SeatRow",
    "StaleVersionError",
    "TableExistsError",
    "TableRow",
    "Tx",
    "UserRow",
]

OPEN_STATUSES = ("lobby", "playing")


class StaleVersionError(RuntimeError):
    """Someone changed the table since it was read."""


class TableExistsError(RuntimeError):
    """The chat (or forum topic) already has an open table."""


@dataclass(frozen=True, slots=True)
class UserRow:
    id: int
    first_name: str
    username: str | None
    language: str | None
    dm_ok: bool


@dataclass(frozen=True, slots=True)
class ChatRow:
    id: int
    kind: str
    title: str | None
    language: str | None


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    user_id: int
    first_name: str
    dm_ok: bool
    language: str | None
    hand_message_id: int | None
    hand_digest: str | None
    keyboard: int | None
    acting: bool


@dataclass(frozen=True, slots=True)
class TableRow:
    id: int
    chat_id: int
    thread_id: int
    game: str
    rules: dict[str, Any]
    status: str
    creator_id: int
    seed: int | None
    state: dict[str, Any] | None
    version: int
    moves: int
    message_id: int | None
    previous_id: int | None
    seats: tuple[SeatRow, ...]

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES

    def seat_of(self, user_id: int) -> int | None:
        return next((s.seat for s in self.seats if s.user_id == user_id), None)

    def user_ids(self) -> list[int]:
        return [s.user_id for s in self.seats]


@dataclass(frozen=True, slots=True)
class MoveRow:
    n: int
    seat: int
    action: str
    events: list[dict[str, Any]]
    at: float


@dataclass(frozen=True, slots=True)
class ScoreRow:
    user_id: int
    first_name: str
    game: str
    played: int
    wins: int
    losses: int
    draws: int


@dataclass(frozen=True, slots=True)
class ScoreDelta:
    user_id: int
    win: bool
    loss: bool
    draw: bool


_TABLE_COLUMNS = (
    "id, chat_id, thread_id, game, rules, status, creator_id, seed, state, version, moves,"
    " message_id, previous_id"
)


class Tx:
    """Queries inside one transaction (see ``Database.transaction``)."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None:
        async with self._conn.execute(sql, params) as cur:
            row: Any = await cur.fetchone()
        return row  # type: ignore[no-any-return]

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        async with self._conn.execute(sql, params) as cur:
            return list(await cur.fetchall())

    async def _run(self, sql: str, params: Sequence[Any] = ()) -> int:
        async with self._conn.execute(sql, params) as cur:
            return cur.rowcount

    # --- users -----------------------------------------------------------------

    async def upsert_user(self, user_id: int, first_name: str, username: str | None) -> None:
        await self._run(
            "INSERT INTO users (id, first_name, username, updated_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (id) DO UPDATE SET first_name = excluded.first_name,"
            " username = excluded.username, updated_at = excluded.updated_at",
            (user_id, first_name, username, time.time()),
        )

    async def get_user(self, user_id: int) -> UserRow | None:
        row = await self._one(
            "SELECT id, first_name, username, language, dm_ok FROM users WHERE id = ?", (user_id,)
        )
        return None if row is None else UserRow(row[0], row[1], row[2], row[3], bool(row[4]))

    async def set_dm_ok(self, user_id: int, ok: bool) -> bool:
        """Record whether the DM works; True if that changed."""
        changed = await self._run(
            "UPDATE users SET dm_ok = ? WHERE id = ? AND dm_ok != ?", (int(ok), user_id, int(ok))
        )
        return changed > 0

    async def set_user_language(self, user_id: int, language: str) -> None:
        await self._run("UPDATE users SET language = ? WHERE id = ?", (language, user_id))

    # --- chats -----------------------------------------------------------------

    async def upsert_chat(self, chat_id: int, kind: str, title: str | None) -> None:
        await self._run(
            "INSERT INTO chats (id, kind, title, updated_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, title = excluded.title,"
            " updated_at = excluded.updated_at",
            (chat_id, kind, title, time.time()),
        )

    async def get_chat(self, chat_id: int) -> ChatRow | None:
        row = await self._one(
            "SELECT id, kind, title, language FROM chats WHERE id = ?", (chat_id,)
        )
        return None if row is None else ChatRow(row[0], row[1], row[2], row[3])

    async def set_chat_language(self, chat_id: int, language: str) -> None:
        await self._run("UPDATE chats SET language = ? WHERE id = ?", (language, chat_id))

    async def migrate_chat(self, old_id: int, new_id: int) -> bool:
        """A group became a supergroup: move its tables, results and scores.

        Returns False when there was nothing to move (already migrated)."""
        old = await self.get_chat(old_id)
        if old is None:
            return False
        if await self.get_chat(new_id) is None:
            # Renaming the key cascades to tables, results and scores.
            await self._run(
                "UPDATE chats SET id = ?, kind = 'supergroup', updated_at = ? WHERE id = ?",
                (new_id, time.time(), old_id),
            )
            return True
        # The supergroup already exists (it spoke first): merge into it.
        await self._run(
            "UPDATE chats SET language = COALESCE(language, ?) WHERE id = ?",
            (old.language, new_id),
        )
        for table in ("tables", "results"):
            await self._run(f"UPDATE {table} SET chat_id = ? WHERE chat_id = ?", (new_id, old_id))
        await self._run(
            "INSERT INTO scores (chat_id, game, user_id, played, wins, losses, draws)"
            " SELECT ?, game, user_id, played, wins, losses, draws FROM scores WHERE chat_id = ?"
            " ON CONFLICT (chat_id, game, user_id) DO UPDATE SET"
            " played = played + excluded.played, wins = wins + excluded.wins,"
            " losses = losses + excluded.losses, draws = draws + excluded.draws",
            (new_id, old_id),
        )
        await self._run("DELETE FROM scores WHERE chat_id = ?", (old_id,))
        await self._run("DELETE FROM chats WHERE id = ?", (old_id,))
        return True

    # --- tables ----------------------------------------------------------------

    async def create_table(
        self,
        chat_id: int,
        thread_id: int,
        game: str,
        rules: dict[str, Any],
        creator_id: int,
        previous_id: int | None = None,
    ) -> int:
        now = time.time()
        try:
            async with self._conn.execute(
                "INSERT INTO tables (chat_id, thread_id, game, rules, status, creator_id,"
                " previous_id, created_at, updated_at) VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?)",
                (chat_id, thread_id, game, json.dumps(rules), creator_id, previous_id, now, now),
            ) as cur:
                table_id = cur.lastrowid
        except sqlite3.IntegrityError as exc:
            if "tables_one_open_per_chat" in str(exc) or "UNIQUE" in str(exc):
                raise TableExistsError(chat_id) from exc
            raise
        assert table_id is not None
        return table_id

    async def get_table(self, table_id: int) -> TableRow | None:
        row = await self._one(f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,))
        return None if row is None else await self._table(row)

    async def open_table(self, chat_id: int, thread_id: int) -> TableRow | None:
        row = await self._one(
            f"SELECT {_TABLE_COLUMNS} FROM tables"
            " WHERE chat_id = ? AND thread_id = ? AND status IN ('lobby', 'playing')",
            (chat_id, thread_id),
        )
        return None if row is None else await self._table(row)

    async def open_tables(self) -> list[TableRow]:
        rows = await self._all(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE status IN ('lobby', 'playing') ORDER BY id"
        )
        return [await self._table(r) for r in rows]

    async def open_tables_of_user(self, user_id: int) -> list[TableRow]:
        rows = await self._all(
            f"SELECT {', '.join('t.' + c.strip() for c in _TABLE_COLUMNS.split(','))}"
            " FROM tables t JOIN seats s ON s.table_id = t.id"
            " WHERE s.user_id = ? AND t.status IN ('lobby', 'playing') ORDER BY t.id",
            (user_id,),
        )
        return [await self._table(r) for r in rows]

    async def _table(self, row: Any) -> TableRow:
        seats = await self._all(
            "SELECT s.seat, s.user_id, u.first_name, u.dm_ok, u.language, s.hand_message_id,"
            " s.hand_digest, s.keyboard, s.acting"
            " FROM seats s JOIN users u ON u.id = s.user_id WHERE s.table_id = ? ORDER BY s.seat",
            (row[0],),
        )
        return TableRow(
            id=row[0],
            chat_id=row[1],
            thread_id=row[2],
            game=row[3],
            rules=json.loads(row[4]),
            status=row[5],
            creator_id=row[6],
            seed=row[7],
            state=None if row[8] is None else json.loads(row[8]),
            version=row[9],
            moves=row[10],
            message_id=row[11],
            previous_id=row[12],
            seats=tuple(
                SeatRow(s[0], s[1], s[2], bool(s[3]), s[4], s[5], s[6], s[7], bool(s[8]))
                for s in seats
            ),
        )

    async def update_table(
        self,
        table_id: int,
        expected_version: int,
        *,
        status: str | None = None,
        rules: dict[str, Any] | None = None,
        seed: int | None = None,
        state: dict[str, Any] | None = None,
        moves: int | None = None,
        game: str | None = None,
    ) -> int:
        """Change a table if nobody changed it since ``expected_version``;
        returns the new version or raises :class:`StaleVersionError`."""
        sets = ["version = version + 1", "updated_at = ?"]
        params: list[Any] = [time.time()]
        for column, value in (
            ("status", status),
            ("rules", None if rules is None else json.dumps(rules)),
            ("seed", seed),
            ("state", None if state is None else json.dumps(state, separators=(",", ":"))),
            ("moves", moves),
            ("game", game),
        ):
            if value is not None:
                sets.append(f"{column} = ?")
                params.append(value)
        params += [table_id, expected_version]
        changed = await self._run(
            f"UPDATE tables SET {', '.join(sets)} WHERE id = ? AND version = ?",
            params,
        )
        if changed != 1:
            raise StaleVersionError(table_id)
        return expected_version + 1

    async def set_table_message(self, table_id: int, message_id: int | None) -> None:
        """Where the group message is; not game state, so no version bump."""
        await self._run("UPDATE tables SET message_id = ? WHERE id = ?", (message_id, table_id))

    async def add_seat(self, table_id: int, user_id: int) -> int:
        """Seat the user at the next free place; returns the seat number."""
        row = await self._one(
            "SELECT COALESCE(MAX(seat) + 1, 0) FROM seats WHERE table_id = ?", (table_id,)
        )
        assert row is not None
        seat = int(row[0])
        await self._run(
            "INSERT INTO seats (table_id, seat, user_id) VALUES (?, ?, ?)",
            (table_id, seat, user_id),
        )
        return seat

    async def remove_seat(self, table_id: int, user_id: int) -> bool:
        """Unseat the user and close the gap so seats stay 0..n-1."""
        row = await self._one(
            "SELECT seat FROM seats WHERE table_id = ? AND user_id = ?", (table_id, user_id)
        )
        if row is None:
            return False
        await self._run("DELETE FROM seats WHERE table_id = ? AND seat = ?", (table_id, row[0]))
        rest = await self._all(
            "SELECT seat FROM seats WHERE table_id = ? AND seat > ? ORDER BY seat",
            (table_id, row[0]),
        )
        for (seat,) in rest:
            await self._run(
                "UPDATE seats SET seat = ? WHERE table_id = ? AND seat = ?",
                (seat - 1, table_id, seat),
            )
        return True

    async def set_hand(
        self,
        table_id: int,
        seat: int,
        *,
        message_id: int | None,
        digest: str | None,
        keyboard: int | None,
        acting: bool,
    ) -> None:
        await self._run(
            "UPDATE seats SET hand_message_id = ?, hand_digest = ?, keyboard = ?, acting = ?"
            " WHERE table_id = ? AND seat = ?",
            (message_id, digest, keyboard, int(acting), table_id, seat),
        )

    async def invalidate_keyboard(self, table_id: int, seat: int) -> None:
        """The seat's buttons no longer apply (it just moved)."""
        await self._run(
            "UPDATE seats SET keyboard = NULL, hand_digest = NULL WHERE table_id = ? AND seat = ?",
            (table_id, seat),
        )

    # --- moves -----------------------------------------------------------------

    async def append_move(
        self, table_id: int, n: int, seat: int, action: str, events: list[dict[str, Any]]
    ) -> None:
        await self._run(
            "INSERT INTO moves (table_id, n, seat, action, events, at) VALUES (?, ?, ?, ?, ?, ?)",
            (table_id, n, seat, action, json.dumps(events, separators=(",", ":")), time.time()),
        )

    async def last_moves(self, table_id: int, limit: int) -> list[MoveRow]:
        rows = await self._all(
            "SELECT n, seat, action, events, at FROM moves WHERE table_id = ?"
            " ORDER BY n DESC LIMIT ?",
            (table_id, limit),
        )
        return [MoveRow(r[0], r[1], r[2], json.loads(r[3]), r[4]) for r in reversed(rows)]

    async def last_move_of(self, table_id: int, seat: int) -> int:
        """The number of the seat's latest move (0 if it has not moved)."""
        row = await self._one(
            "SELECT COALESCE(MAX(n), 0) FROM moves WHERE table_id = ? AND seat = ?",
            (table_id, seat),
        )
        assert row is not None
        return int(row[0])

    async def record_result(
        self, table_id: int, chat_id: int, game: str, outcome: dict[str, Any]
    ) -> None:
        await self._run(
            "INSERT INTO results (table_id, chat_id, game, outcome, finished_at)"
            " VALUES (?, ?, ?, ?, ?)",
            (table_id, chat_id, game, json.dumps(outcome), time.time()),
        )

    async def get_result(self, table_id: int) -> dict[str, Any] | None:
        row = await self._one("SELECT outcome FROM results WHERE table_id = ?", (table_id,))
        return None if row is None else dict(json.loads(row[0]))

    async def add_scores(self, chat_id: int, game: str, deltas: Iterable[ScoreDelta]) -> None:
        for d in deltas:
            await self._run(
                "INSERT INTO scores (chat_id, game, user_id, played, wins, losses, draws)"
                " VALUES (?, ?, ?, 1, ?, ?, ?)"
                " ON CONFLICT (chat_id, game, user_id) DO UPDATE SET played = played + 1,"
                " wins = wins + excluded.wins, losses = losses + excluded.losses,"
                " draws = draws + excluded.draws",
                (chat_id, game, d.user_id, int(d.win), int(d.loss), int(d.draw)),
            )

    async def leaderboard(self, chat_id: int, limit: int = 20) -> list[ScoreRow]:
        """Per game, best first (wins, then fewer losses, then games)."""
        rows = await self._all(
            "SELECT s.user_id, u.first_name, s.game, s.played, s.wins, s.losses, s.draws"
            " FROM scores s JOIN users u ON u.id = s.user_id WHERE s.chat_id = ?"
            " ORDER BY s.game, s.wins DESC, s.losses ASC, s.played DESC, u.first_name",
            (chat_id,),
        )
        out: list[ScoreRow] = []
        per_game: dict[str, int] = {}
        for r in rows:
            per_game[r[2]] = per_game.get(r[2], 0) + 1
            if per_game[r[2]] <= limit:
                out.append(ScoreRow(*r))
        return out

    async def user_stats(self, user_id: int, chat_id: int | None = None) -> list[ScoreRow]:
        """One user's figures per game, in one chat or summed over all chats."""
        where, params = ("s.user_id = ?", [user_id])
        if chat_id is not None:
            where += " AND s.chat_id = ?"
            params.append(chat_id)
        rows = await self._all(
            "SELECT s.user_id, u.first_name, s.game, SUM(s.played), SUM(s.wins), SUM(s.losses),"
            " SUM(s.draws) FROM scores s JOIN users u ON u.id = s.user_id"
            f" WHERE {where} GROUP BY s.game ORDER BY s.game",
            params,
        )
        return [ScoreRow(*r) for r in rows]
