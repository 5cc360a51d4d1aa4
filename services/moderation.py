"""Ending and policing tables: cancel, remove a player, the bot leaving a chat.

Each is one change of the table (:meth:`services.tables.Tables.change`); a
removal from a running game is a move of its log, made by the admin.
"""

from __future__ import annotations

import contextlib

from games.core import RESIGN
from services.directory import Person
from services.errors import ServiceError
from services.snapshots import Snapshot, Snapshots
from services.table_change import TableChange
from services.tables import Tables
from storage import Actor, EndReason, SeatRow, Status, TableRow

__all__ = ["Moderation", "seated_named"]


class Moderation:
    def __init__(self, tables: Tables, snapshots: Snapshots) -> None:
        self._tables = tables
        self._snapshots = snapshots

    async def cancel(self, table_id: int, person: Person, *, is_admin: bool) -> Snapshot:
        """End an open table (a lobby or a running game) without a result."""
        async with self._tables.change(table_id) as change:
            self._open(change)
            if person.id != change.table.creator_id and not is_admin:
                raise ServiceError("error.only_creator_cancels")
            await change.close(EndReason.CANCELLED, by=person.id)
        return change.snapshot

    async def kick(
        self, table_id: int, user_id: int, person: Person, *, is_admin: bool
    ) -> Snapshot:
        """Remove a player: unseated from a lobby; in a running game he leaves it
        as the game's rules require (a move of the log, made by the admin)."""
        async with self._tables.change(table_id) as change:
            table = self._open(change)
            if person.id != table.creator_id and not is_admin:
                raise ServiceError("error.only_creator_kicks")
            seat = table.seat_of(user_id)
            if seat is None:
                raise ServiceError("error.kick_not_seated")
            if table.status is Status.LOBBY:
                await change.unseat_person(seat)
            else:
                await change.move(seat, RESIGN, Actor.ADMIN)
        return change.snapshot

    async def bot_removed(self, chat_id: int) -> list[Snapshot]:
        """The bot was removed from a chat: its open tables end there."""
        closed = []
        for table in await self._snapshots.tables_in_chat(chat_id):
            with contextlib.suppress(ServiceError):  # ended meanwhile
                async with self._tables.change(table.id) as change:
                    self._open(change)
                    await change.close(EndReason.BOT_REMOVED)
                closed.append(change.snapshot)
        return closed

    @staticmethod
    def _open(change: TableChange) -> TableRow:
        if not change.table.is_open:
            raise ServiceError("error.no_table")
        return change.table


def seated_named(table: TableRow, name: str) -> list[SeatRow]:
    """The people seated at ``table`` whom ``name`` names: ``@username``
    names the one with that username; a bare word, everyone whose first name
    or username it is (case does not matter)."""
    word = name.strip().casefold()
    people = [seat for seat in table.seats if seat.is_human]
    if word.startswith("@"):
        return [s for s in people if (s.username or "").casefold() == word[1:]]
    return [
        s
        for s in people
        if word in ((s.first_name or "").casefold(), (s.username or "").casefold())
    ]
