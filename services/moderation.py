"""Ending and policing tables: cancel, remove a player, the bot leaving a chat."""

from __future__ import annotations

from games.core import RESIGN
from services.directory import Person
from services.errors import ServiceError
from services.tables import Snapshot, Tables
from storage import Actor, Database, EndReason, Status

__all__ = ["Moderation"]


class Moderation:
    def __init__(self, db: Database, tables: Tables) -> None:
        self._db = db
        self._tables = tables

    async def cancel(self, table_id: int, person: Person, *, is_admin: bool) -> Snapshot:
        """End an open table (a lobby or a running game) without a result."""
        async with self._tables.lock(table_id), self._db.transaction() as tx:
            table = await self._tables.get(tx, table_id)
            if not table.is_open:
                raise ServiceError("error.no_table")
            if person.id != table.creator_id and not is_admin:
                raise ServiceError("error.only_creator_cancels")
            await self._tables.close(tx, table, EndReason.CANCELLED)
        return await self._tables.changed(table_id)

    async def kick(
        self, table_id: int, user_id: int, person: Person, *, is_admin: bool
    ) -> Snapshot:
        """Remove a player: unseated from a lobby; in a running game he leaves it
        as the game's rules require (a move of the log, made by the admin)."""
        async with self._tables.lock(table_id), self._db.transaction() as tx:
            table = await self._tables.get(tx, table_id)
            if not table.is_open:
                raise ServiceError("error.no_table")
            if person.id != table.creator_id and not is_admin:
                raise ServiceError("error.only_creator_kicks")
            seat = table.seat_of(user_id)
            if seat is None:
                raise ServiceError("error.kick_not_seated")
            if table.status is Status.LOBBY:
                await tx.tables.remove_seat(table.id, seat)
                await tx.tables.update(table.id, table.version)
                lobby = await self._tables.get(tx, table.id)
                await tx.deadlines.replace(table.id, self._tables.deadlines(lobby, None))
                move = None
            else:
                move = await self._tables.move(tx, table, seat, RESIGN, Actor.ADMIN)
        if move is None:
            return await self._tables.changed(table_id)
        return self._tables.committed(move)

    async def bot_removed(self, chat_id: int) -> list[Snapshot]:
        """The bot was removed from a chat: its open tables end there."""
        closed = []
        for table in await self._tables.tables_in_chat(chat_id):
            async with self._tables.lock(table.id), self._db.transaction() as tx:
                fresh = await self._tables.get(tx, table.id)
                if not fresh.is_open:
                    continue
                await self._tables.close(tx, fresh, EndReason.BOT_REMOVED)
            closed.append(await self._tables.changed(table.id))
        return closed
