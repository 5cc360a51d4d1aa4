"""Several workers on one database: their heartbeats, the chats' leases, the
inbox of updates, and the groups' recent sends (migration 0012)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from storage.sql import Queries

__all__ = ["Cluster", "Lease", "Pending", "Taken"]


@dataclass(frozen=True, slots=True)
class Lease:
    chat_id: int
    worker: str
    expires_at: float
    renewed_at: float
    epoch: int


@dataclass(frozen=True, slots=True)
class Taken:
    """A chat this worker now holds."""

    chat_id: int
    epoch: int
    unheld_since: float | None
    """When its previous holder last said it held it (None: this worker held
    it all along, or nobody is known to have acted on it)."""


@dataclass(frozen=True, slots=True)
class Pending:
    """An update waiting in the inbox."""

    id: int
    update_id: int
    payload: str


_LEASE = "SELECT chat_id, worker, expires_at, renewed_at, epoch FROM chat_leases"


class Cluster(Queries):
    # --- workers ---------------------------------------------------------------

    async def beat(self, worker: str) -> None:
        """The worker is alive now (its row is created at its first beat)."""
        now = self._now()
        await self._run(
            "INSERT INTO workers (id, started_at, alive_at) VALUES (?, ?, ?)"
            " ON CONFLICT (id) DO UPDATE SET alive_at = excluded.alive_at",
            (worker, now, now),
        )

    async def live_workers(self, since: float) -> int:
        """Workers whose heartbeat is no older than ``since`` (at least 1)."""
        row = await self._one("SELECT COUNT(*) FROM workers WHERE alive_at >= ?", (since,))
        return max(1, int(row[0]) if row is not None else 0)

    async def leave(self, worker: str) -> None:
        """The worker stops: its row goes, its leases expire now."""
        now = self._now()
        await self._run("DELETE FROM workers WHERE id = ?", (worker,))
        await self._run(
            "UPDATE chat_leases SET expires_at = ?, renewed_at = ?"
            " WHERE worker = ? AND expires_at > ?",
            (now, now, worker, now),
        )

    async def forget_workers(self, before: float) -> None:
        """Drop the rows of workers silent since before ``before`` (killed ones)."""
        await self._run("DELETE FROM workers WHERE alive_at < ?", (before,))

    # --- leases ------------------------------------------------------------------

    async def lease(self, chat_id: int) -> Lease | None:
        row = await self._one(f"{_LEASE} WHERE chat_id = ?", (chat_id,))
        return None if row is None else Lease(*row)

    async def take(
        self, chat_id: int, worker: str, ttl: float, never_held_since: float | None = None
    ) -> Taken | None:
        """Hold ``chat_id`` for ``ttl`` seconds from now if nobody else holds
        it (no lease, or one that expired); None if somebody does.  Taking a
        chat from another worker bumps its epoch.  ``never_held_since``: when
        a chat that never had a lease was last acted on (a single process's
        last heartbeat)."""
        now = self._now()
        held = await self._one(
            f"{_LEASE} WHERE chat_id = ?{self._dialect.row_lock('chat_leases')}", (chat_id,)
        )
        if held is None:
            inserted = await self._all(
                "INSERT INTO chat_leases (chat_id, worker, expires_at, renewed_at, epoch)"
                " VALUES (?, ?, ?, ?, 1) ON CONFLICT (chat_id) DO NOTHING RETURNING epoch",
                (chat_id, worker, now + ttl, now),
            )
            return Taken(chat_id, 1, never_held_since) if inserted else None
        lease = Lease(*held)
        if lease.worker != worker and lease.expires_at > now:
            return None
        mine = lease.worker == worker and lease.expires_at > now
        epoch = lease.epoch if mine else lease.epoch + 1
        await self._run(
            "UPDATE chat_leases SET worker = ?, expires_at = ?, renewed_at = ?, epoch = ?"
            " WHERE chat_id = ?",
            (worker, now + ttl, now, epoch, chat_id),
        )
        return Taken(chat_id, epoch, None if mine else lease.renewed_at)

    async def renew(self, worker: str, ttl: float) -> dict[int, int]:
        """Extend every lease the worker still holds, in one statement; its
        chats and their epochs (a chat taken over meanwhile is not among them)."""
        now = self._now()
        rows = await self._all(
            "UPDATE chat_leases SET expires_at = ?, renewed_at = ?"
            " WHERE worker = ? AND expires_at > ? RETURNING chat_id, epoch",
            (now + ttl, now, worker, now),
        )
        return {int(r[0]): int(r[1]) for r in rows}

    async def release(self, worker: str, chat_ids: Iterable[int]) -> None:
        """The worker gives these chats up: their leases expire now."""
        now = self._now()
        await self._many(
            "UPDATE chat_leases SET expires_at = ?, renewed_at = ?"
            " WHERE chat_id = ? AND worker = ?",
            [(now, now, chat_id, worker) for chat_id in chat_ids],
        )

    async def busy(self, since: float) -> list[tuple[int, str | None]]:
        """Chats with work (open tables, announcements owed by a table changed
        since ``since``, updates waiting), each with the worker holding it
        (None: nobody, or an expired lease)."""
        now = self._now()
        rows = await self._all(
            "SELECT busy.chat_id, l.worker FROM ("
            " SELECT chat_id FROM tables WHERE status IN ('lobby', 'playing')"
            " UNION SELECT t.chat_id FROM tables t"
            "  JOIN table_messages m ON m.table_id = t.id"
            "  WHERE t.updated_at > ? AND t.moves > m.announced"
            " UNION SELECT chat_id FROM inbox WHERE handled_at IS NULL"
            ") AS busy LEFT JOIN chat_leases l ON l.chat_id = busy.chat_id AND l.expires_at > ?"
            " ORDER BY busy.chat_id",
            (since, now),
        )
        return [(int(r[0]), r[1]) for r in rows]

    # --- the inbox -----------------------------------------------------------------

    async def receive(self, chat_id: int, update_id: int, payload: str) -> bool:
        """File an update for its chat's worker; False for an update_id seen before."""
        rows = await self._all(
            "INSERT INTO inbox (chat_id, update_id, payload, received_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (update_id) DO NOTHING RETURNING id",
            (chat_id, update_id, payload, self._now()),
        )
        return bool(rows)

    async def pending(self, chat_id: int, limit: int = 100) -> list[Pending]:
        """The chat's updates not handled yet, in Telegram's order."""
        rows = await self._all(
            "SELECT id, update_id, payload FROM inbox WHERE chat_id = ? AND handled_at IS NULL"
            " ORDER BY update_id LIMIT ?",
            (chat_id, limit),
        )
        return [Pending(*r) for r in rows]

    async def waiting_chats(self) -> list[int]:
        """The chats with updates not handled yet."""
        rows = await self._all("SELECT DISTINCT chat_id FROM inbox WHERE handled_at IS NULL")
        return [int(r[0]) for r in rows]

    async def handled(self, inbox_id: int) -> None:
        await self._run("UPDATE inbox SET handled_at = ? WHERE id = ?", (self._now(), inbox_id))

    async def purge_inbox(self, before: float) -> None:
        """Forget updates handled before ``before``."""
        await self._run("DELETE FROM inbox WHERE handled_at < ?", (before,))

    async def notify(self, channel: str, payload: str) -> None:
        """Wake the workers listening on ``channel`` at the commit (PostgreSQL's
        NOTIFY; nothing on SQLite, where one process does everything)."""
        if self._dialect.postgres:
            await self._run("SELECT pg_notify(?, ?)", (channel, payload))

    # --- a group's budget ----------------------------------------------------------

    async def group_sends(self, chat_id: int, since: float) -> list[float]:
        rows = await self._all(
            "SELECT at FROM group_sends WHERE chat_id = ? AND at >= ? ORDER BY at",
            (chat_id, since),
        )
        return [float(r[0]) for r in rows]

    async def record_sends(self, sends: Sequence[tuple[int, float]]) -> None:
        await self._many("INSERT INTO group_sends (chat_id, at) VALUES (?, ?)", sends)

    async def move_send(self, chat_id: int, sent: float, at: float) -> None:
        """The send recorded at ``sent`` counts from ``at`` (recorded anew if it
        was purged meanwhile)."""
        await self._run("DELETE FROM group_sends WHERE chat_id = ? AND at = ?", (chat_id, sent))
        await self._run("INSERT INTO group_sends (chat_id, at) VALUES (?, ?)", (chat_id, at))

    async def purge_sends(self, before: float) -> None:
        await self._run("DELETE FROM group_sends WHERE at < ?", (before,))
