"""Users and chats, and a group's upgrade to a supergroup."""

from __future__ import annotations

from dataclasses import dataclass

from storage.sql import Queries

__all__ = ["ChatRow", "People", "UserRow"]


@dataclass(frozen=True, slots=True)
class UserRow:
    id: int
    first_name: str
    username: str | None
    language: str | None
    """Chosen with /language in the DM."""
    dm_ok: bool
    locale: str | None = None
    """The language Telegram reports for him."""
    hand_in: str | None = None
    """Where his hands go: "dm", "group" (ephemeral messages), None: the DM
    when it works, else the group."""


@dataclass(frozen=True, slots=True)
class ChatRow:
    id: int
    kind: str
    title: str | None
    language: str | None
    pictures: bool = True
    """Pictures are shown (off: a picture's text is sent instead)."""
    bot_admin: bool | None = False
    """The bot is an administrator of the group (None: not known, never told
    nor asked)."""


class People(Queries):
    async def upsert_user(
        self, user_id: int, first_name: str, username: str | None, locale: str | None = None
    ) -> None:
        await self._run(
            "INSERT INTO users (id, first_name, username, locale, updated_at)"
            " VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (id) DO UPDATE SET first_name = excluded.first_name,"
            " username = excluded.username, locale = COALESCE(excluded.locale, users.locale),"
            " updated_at = excluded.updated_at",
            (user_id, first_name, username, locale, self._now()),
        )

    async def get_user(self, user_id: int) -> UserRow | None:
        row = await self._one(
            "SELECT id, first_name, username, language, dm_ok, locale, hand_in"
            " FROM users WHERE id = ?",
            (user_id,),
        )
        if row is None:
            return None
        return UserRow(row[0], row[1], row[2], row[3], bool(row[4]), row[5], row[6])

    async def set_dm_ok(self, user_id: int, ok: bool) -> bool:
        """Record whether the DM works; True if that changed."""
        changed = await self._changed(
            "UPDATE users SET dm_ok = ? WHERE id = ? AND dm_ok != ?", (int(ok), user_id, int(ok))
        )
        return changed > 0

    async def set_hand_in(self, user_id: int, hand_in: str | None) -> None:
        await self._run("UPDATE users SET hand_in = ? WHERE id = ?", (hand_in, user_id))

    async def set_user_language(self, user_id: int, language: str) -> None:
        await self._run("UPDATE users SET language = ? WHERE id = ?", (language, user_id))

    async def upsert_chat(
        self, chat_id: int, kind: str, title: str | None, first_language: str | None = None
    ) -> None:
        """Record a chat; a new one starts in ``first_language``."""
        await self._run(
            "INSERT INTO chats (id, kind, title, language, updated_at) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, title = excluded.title,"
            " updated_at = excluded.updated_at",
            (chat_id, kind, title, first_language, self._now()),
        )

    async def get_chat(self, chat_id: int) -> ChatRow | None:
        row = await self._one(
            "SELECT id, kind, title, language, pictures, bot_admin, bot_admin_known"
            " FROM chats WHERE id = ?",
            (chat_id,),
        )
        if row is None:
            return None
        admin = bool(row[5]) if row[6] else None
        return ChatRow(row[0], row[1], row[2], row[3], bool(row[4]), admin)

    async def set_chat_language(self, chat_id: int, language: str) -> None:
        await self._run("UPDATE chats SET language = ? WHERE id = ?", (language, chat_id))

    async def set_chat_pictures(self, chat_id: int, pictures: bool) -> None:
        await self._run("UPDATE chats SET pictures = ? WHERE id = ?", (int(pictures), chat_id))

    async def set_bot_admin(self, chat_id: int, admin: bool) -> None:
        await self._run(
            "UPDATE chats SET bot_admin = ?, bot_admin_known = 1 WHERE id = ?",
            (int(admin), chat_id),
        )

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
                (new_id, self._now(), old_id),
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
            "INSERT INTO scores (chat_id, game, user_id, with_computers, played, wins, losses,"
            " draws) SELECT ?, game, user_id, with_computers, played, wins, losses, draws"
            " FROM scores WHERE chat_id = ?"
            " ON CONFLICT (chat_id, game, user_id, with_computers) DO UPDATE SET"
            " played = scores.played + excluded.played, wins = scores.wins + excluded.wins,"
            " losses = scores.losses + excluded.losses, draws = scores.draws + excluded.draws",
            (new_id, old_id),
        )
        await self._run("DELETE FROM scores WHERE chat_id = ?", (old_id,))
        await self._run("DELETE FROM chats WHERE id = ?", (old_id,))
        return True
