"""The Telegram layer's bookkeeping: which message shows a table or a hand, and what.

Owned by the bot's Telegram side (``handlers``); the game tables know nothing of it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from storage.sql import Queries

__all__ = ["HandMessageRow", "Messages", "Retiring", "TableMessageRow"]

Retiring = Mapping[tuple[int, int], str | None]
"""DM messages (chat, message) to delete, each with the text to leave it
showing, without buttons, if too old to delete (None: it only loses them)."""


@dataclass(frozen=True, slots=True)
class TableMessageRow:
    table_id: int
    message_id: int | None
    kind: str
    """``text`` or ``photo``: a text message cannot be edited into a photo."""
    digest: str | None
    announced: int
    """Moves whose announcements (score sheets, the result) were posted."""
    pinned: bool
    """The bot pinned it, while the game runs."""
    announced_posts: int = 0
    """Posts of the move after :attr:`announced` already made (a move may call
    for several)."""


@dataclass(frozen=True, slots=True)
class HandMessageRow:
    table_id: int
    seat: int
    chat_id: int
    message_id: int
    digest: str | None
    at_move: int | None
    """The move count its buttons were drawn at; None: no buttons."""
    acting: bool
    """Drawn while the seat could act."""
    focus: str | None = None
    """The sub-menu it shows, drawn at :attr:`at_move` (None: none)."""


class Messages(Queries):
    async def table_message(self, table_id: int) -> TableMessageRow:
        row = await self._one(
            "SELECT table_id, message_id, kind, digest, announced, pinned, announced_posts"
            " FROM table_messages WHERE table_id = ?",
            (table_id,),
        )
        if row is None:
            return TableMessageRow(table_id, None, "text", None, 0, False)
        return TableMessageRow(row[0], row[1], row[2], row[3], row[4], bool(row[5]), row[6])

    async def set_table_message(
        self, table_id: int, message_id: int | None, kind: str, digest: str | None
    ) -> None:
        await self._run(
            "INSERT INTO table_messages (table_id, message_id, kind, digest) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (table_id) DO UPDATE SET message_id = excluded.message_id,"
            " kind = excluded.kind, digest = excluded.digest",
            (table_id, message_id, kind, digest),
        )

    async def set_pinned(self, table_id: int, pinned: bool) -> None:
        await self._run(
            "UPDATE table_messages SET pinned = ? WHERE table_id = ?", (int(pinned), table_id)
        )

    async def set_announced(self, table_id: int, moves: int, posts: int = 0) -> None:
        """The announcements of the first ``moves`` moves were posted, and
        ``posts`` of the next move's; a cursor never goes back."""
        greatest = self._dialect.greatest
        await self._run(
            "INSERT INTO table_messages (table_id, announced, announced_posts) VALUES (?, ?, ?)"
            " ON CONFLICT (table_id) DO UPDATE SET"
            f" announced = {greatest}(table_messages.announced, excluded.announced),"
            " announced_posts = CASE"
            "  WHEN excluded.announced > table_messages.announced THEN excluded.announced_posts"
            "  WHEN excluded.announced < table_messages.announced"
            "   THEN table_messages.announced_posts"
            f"  ELSE {greatest}(table_messages.announced_posts, excluded.announced_posts) END",
            (table_id, moves, posts),
        )

    async def hands(self, table_id: int) -> dict[int, HandMessageRow]:
        rows = await self._all(
            "SELECT table_id, seat, chat_id, message_id, digest, at_move, acting, focus"
            " FROM hand_messages WHERE table_id = ?",
            (table_id,),
        )
        return {
            r[1]: HandMessageRow(r[0], r[1], r[2], r[3], r[4], r[5], bool(r[6]), r[7]) for r in rows
        }

    async def set_hands(self, rows: Iterable[HandMessageRow]) -> None:
        await self._many(
            "INSERT INTO hand_messages (table_id, seat, chat_id, message_id, digest, at_move,"
            " acting, focus) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (table_id, seat) DO UPDATE SET chat_id = excluded.chat_id,"
            " message_id = excluded.message_id, digest = excluded.digest,"
            " at_move = excluded.at_move, acting = excluded.acting, focus = excluded.focus",
            [
                (
                    row.table_id,
                    row.seat,
                    row.chat_id,
                    row.message_id,
                    row.digest,
                    row.at_move,
                    int(row.acting),
                    row.focus,
                )
                for row in rows
            ],
        )

    async def retiring(self, table_id: int) -> dict[tuple[int, int], str | None]:
        rows = await self._all(
            "SELECT chat_id, message_id, text FROM retiring_messages WHERE table_id = ?",
            (table_id,),
        )
        return {(r[0], r[1]): r[2] for r in rows}

    async def add_retiring(self, table_id: int, messages: Retiring) -> None:
        await self._many(
            "INSERT INTO retiring_messages (chat_id, message_id, table_id, text)"
            " VALUES (?, ?, ?, ?)"
            " ON CONFLICT (chat_id, message_id) DO UPDATE SET text = excluded.text",
            [
                (chat_id, message_id, table_id, text)
                for (chat_id, message_id), text in messages.items()
            ],
        )

    async def drop_retiring(self, messages: Iterable[tuple[int, int]]) -> None:
        await self._many(
            "DELETE FROM retiring_messages WHERE chat_id = ? AND message_id = ?", list(messages)
        )

    async def warnings(self, table_id: int) -> dict[int, tuple[int, int]]:
        """Per seat, the turn warning (chat, message) still in its DM."""
        rows = await self._all(
            "SELECT seat, chat_id, message_id FROM turn_warnings WHERE table_id = ?",
            (table_id,),
        )
        return {r[0]: (r[1], r[2]) for r in rows}

    async def set_warning(self, table_id: int, seat: int, chat_id: int, message_id: int) -> None:
        await self._many(
            "INSERT INTO turn_warnings (table_id, seat, chat_id, message_id) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (table_id, seat) DO UPDATE"
            " SET chat_id = excluded.chat_id, message_id = excluded.message_id",
            [(table_id, seat, chat_id, message_id)],
        )

    async def drop_warnings(self, table_id: int, seats: Iterable[int]) -> None:
        await self._many(
            "DELETE FROM turn_warnings WHERE table_id = ? AND seat = ?",
            [(table_id, seat) for seat in seats],
        )

    async def tables_to_resume(self, since: float, chat_id: int | None = None) -> list[int]:
        """Open tables, tables whose announcements are behind their moves, and
        tables changed since ``since`` (of ``chat_id`` only, if given)."""
        chat = "" if chat_id is None else " AND t.chat_id = ?"
        rows = await self._all(
            "SELECT t.id FROM tables t LEFT JOIN table_messages m ON m.table_id = t.id"
            " WHERE (t.status IN ('lobby', 'playing') OR t.moves > COALESCE(m.announced, 0)"
            f" OR t.updated_at > ?){chat} ORDER BY t.id",
            (since,) if chat_id is None else (since, chat_id),
        )
        return [r[0] for r in rows]

    # --- game choosers -----------------------------------------------------------

    async def chooser(self, chat_id: int, thread_id: int) -> int | None:
        """The open game chooser of the chat's topic, unless a table took it
        over (it became the lobby)."""
        row = await self._one(
            "SELECT c.message_id FROM game_choosers c WHERE c.chat_id = ? AND c.thread_id = ?"
            " AND NOT EXISTS (SELECT 1 FROM table_messages m JOIN tables t ON t.id = m.table_id"
            "  WHERE t.chat_id = c.chat_id AND m.message_id = c.message_id)",
            (chat_id, thread_id),
        )
        return None if row is None else int(row[0])

    async def set_chooser(self, chat_id: int, thread_id: int, message_id: int) -> None:
        await self._run(
            "INSERT INTO game_choosers (chat_id, thread_id, message_id) VALUES (?, ?, ?)"
            " ON CONFLICT (chat_id, thread_id) DO UPDATE SET message_id = excluded.message_id",
            (chat_id, thread_id, message_id),
        )

    async def drop_chooser(self, chat_id: int, message_id: int) -> None:
        """The chooser is closed, or a table took it over."""
        await self._run(
            "DELETE FROM game_choosers WHERE chat_id = ? AND message_id = ?",
            (chat_id, message_id),
        )
