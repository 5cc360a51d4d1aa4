"""Replays: a finished game stepped through move by move with every hand face
up, read through :class:`~services.history.History`.

Nothing hidden is shown before the game is over: a game still being played is
refused.  Once it is over its cards are public anyway (its seed is revealed in
the group, and the seed deals every hand again), so anyone may replay any
finished game by its number.
"""

from __future__ import annotations

from services.errors import ServiceError
from services.history import Histories, History
from storage import Database

__all__ = ["Replays"]


class Replays:
    def __init__(self, db: Database, histories: Histories) -> None:
        self._db = db
        self._histories = histories

    async def find(
        self, chat_id: int | None, user_id: int, table_id: int | None, at: int = 0
    ) -> History:
        """The game ``/replay`` asks for: ``table_id`` (in a group: a table of
        that chat), else the last game over in ``chat_id``, or, in a private
        chat (``chat_id`` None), the last game over that ``user_id`` played;
        refused when it has fewer than ``at`` moves (the frame asked for)."""
        async with self._db.read() as tx:
            if table_id is None:
                if chat_id is None:
                    table_id = await tx.tables.last_over_of_user(user_id)
                else:
                    table_id = await tx.tables.last_over(chat_id)
                if table_id is None:
                    raise ServiceError("replay.none")
            table = await tx.tables.get(table_id)
        if table is None or (chat_id is not None and table.chat_id != chat_id):
            raise ServiceError("replay.unknown", id=table_id)
        history = await self.of(table_id)
        if at > len(history.moves):
            raise ServiceError("replay.no_move", id=table_id, total=len(history.moves))
        return history

    async def of(self, table_id: int) -> History:
        """A game that is over (refused while it is played, and for a table
        never dealt)."""
        try:
            history = await self._histories.of(table_id)
        except ServiceError:
            raise ServiceError("replay.unknown", id=table_id) from None
        if not history.over:
            raise ServiceError("replay.in_play", id=table_id)
        return history
