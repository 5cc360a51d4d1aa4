"""Who and where: users and chats as the services see them (no Telegram types)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from storage import Database

__all__ = ["USERS_KEPT", "ChatInfo", "Directory", "Person"]

USERS_KEPT = 60.0
"""With several workers, seconds a user's language is kept before it is read again."""


@dataclass(frozen=True, slots=True)
class Person:
    id: int
    first_name: str
    username: str | None = None
    language: str | None = None
    """The language his Telegram app is in, when it is one of ours."""


@dataclass(frozen=True, slots=True)
class ChatInfo:
    id: int
    kind: str  # "private", "group", "supergroup", "channel"
    title: str | None = None


class Directory:
    """Remembers who and where; answers language questions."""

    def __init__(
        self,
        db: Database,
        default_language: str,
        *,
        now: Callable[[], float] | None = None,
        users_kept: float = USERS_KEPT,
    ) -> None:
        """With ``now`` (one of several workers), a user's language is read
        again after ``users_kept`` seconds: he may choose another in his DM,
        which another worker may hold."""
        self._db = db
        self.default_language = default_language
        self._now = now
        self._users_kept = users_kept
        self._user_read: dict[int, float] = {}
        # What was last written, so that the common update (a known user in a
        # known chat) costs no write at all.
        self._written: set[Person | ChatInfo] = set()
        self._chat_languages: dict[int, str] = {}
        self._chat_pictures: dict[int, bool] = {}
        self._bot_admin: dict[int, bool] = {}
        self._user_languages: dict[int, str] = {}

    async def seen(self, person: Person | None, chat: ChatInfo | None) -> None:
        if (person is None or person in self._written) and (chat is None or chat in self._written):
            return
        async with self._db.transaction() as tx:
            if person is not None:
                await tx.people.upsert_user(
                    person.id, person.first_name, person.username, person.language
                )
            if chat is not None and chat.kind != "channel":
                first = None if person is None else person.language
                await tx.people.upsert_chat(chat.id, chat.kind, chat.title, first)
                if chat.kind == "private" and person is not None and person.id == chat.id:
                    await tx.people.set_dm_ok(person.id, True)
        if len(self._written) > 50_000:  # caches, not registries: keep them bounded
            self._written.clear()
            self._chat_languages.clear()
            self._chat_pictures.clear()
            self._bot_admin.clear()
            self._user_languages.clear()
            self._user_read.clear()
        self._written.update(x for x in (person, chat) if x is not None)
        if person is not None:
            self._user_languages.pop(person.id, None)

    async def set_dm_ok(self, user_id: int, ok: bool) -> bool:
        """Returns True when this changed what we knew."""
        # A private chat seen again must write dm_ok again.
        self._written = {x for x in self._written if x.id != user_id}
        async with self._db.transaction() as tx:
            return await tx.people.set_dm_ok(user_id, ok)

    async def dm_ok(self, user_id: int) -> bool:
        async with self._db.read() as tx:
            user = await tx.people.get_user(user_id)
        return user is not None and user.dm_ok

    async def chat_language(self, chat_id: int) -> str:
        """Asked for on nearly every render, changed only by /language: cached."""
        cached = self._chat_languages.get(chat_id)
        if cached is None:
            async with self._db.read() as tx:
                chat = await tx.people.get_chat(chat_id)
            cached = (chat.language if chat else None) or self.default_language
            self._chat_languages[chat_id] = cached
        return cached

    async def chat_pictures(self, chat_id: int) -> bool:
        """Whether the chat shows pictures (asked for on every picture; cached)."""
        cached = self._chat_pictures.get(chat_id)
        if cached is None:
            async with self._db.read() as tx:
                chat = await tx.people.get_chat(chat_id)
            cached = self._chat_pictures[chat_id] = chat is None or chat.pictures
        return cached

    async def set_chat_pictures(self, chat_id: int, pictures: bool) -> None:
        async with self._db.transaction() as tx:
            await tx.people.set_chat_pictures(chat_id, pictures)
        self._chat_pictures.pop(chat_id, None)

    async def bot_admin(self, chat_id: int) -> bool | None:
        """Whether the bot is an administrator of the group (asked for on every
        hand sent to the group; cached), None while nothing said so or not:
        then it is for Telegram to tell (:meth:`bot_admin_asked`)."""
        cached = self._bot_admin.get(chat_id)
        if cached is None:
            async with self._db.read() as tx:
                chat = await tx.people.get_chat(chat_id)
            if chat is None or chat.bot_admin is None:
                return None
            cached = self._bot_admin[chat_id] = chat.bot_admin
        return cached

    async def set_bot_admin(self, chat: ChatInfo, admin: bool) -> None:
        """The bot was made an administrator of the group, or stopped being one."""
        async with self._db.transaction() as tx:
            await tx.people.upsert_chat(chat.id, chat.kind, chat.title)
            await tx.people.set_bot_admin(chat.id, admin)
        self._bot_admin[chat.id] = admin

    async def bot_admin_asked(self, chat_id: int, admin: bool) -> None:
        """Telegram said whether the bot is an administrator of the group (a
        group it knows: one with a table)."""
        async with self._db.transaction() as tx:
            await tx.people.set_bot_admin(chat_id, admin)
        self._bot_admin[chat_id] = admin

    async def set_hand_in(self, user_id: int, hand_in: str | None) -> None:
        """Where the person's hands go: "dm", "group", None (the DM when it works)."""
        async with self._db.transaction() as tx:
            await tx.people.set_hand_in(user_id, hand_in)

    async def chat_title(self, chat_id: int) -> str:
        async with self._db.read() as tx:
            chat = await tx.people.get_chat(chat_id)
        return (chat.title if chat else None) or "?"

    async def user_language(self, user_id: int) -> str:
        """The language of the user's DM: his own choice, else his Telegram
        app's, else the default."""
        cached = self._user_languages.get(user_id)
        if cached is None or self._stale(user_id):
            async with self._db.read() as tx:
                user = await tx.people.get_user(user_id)
            chosen = None if user is None else (user.language or user.locale)
            cached = chosen or self.default_language
            self._user_languages[user_id] = cached
            if self._now is not None:
                self._user_read[user_id] = self._now()
        return cached

    def _stale(self, user_id: int) -> bool:
        """With several workers: the user's language was read long enough ago
        that he may have chosen another, at another worker."""
        if self._now is None:
            return False
        return self._now() - self._user_read.get(user_id, 0.0) > self._users_kept

    async def set_language(self, chat: ChatInfo, user_id: int, language: str) -> None:
        async with self._db.transaction() as tx:
            if chat.kind == "private":
                await tx.people.set_user_language(user_id, language)
                self._user_languages.pop(user_id, None)
            else:
                await tx.people.set_chat_language(chat.id, language)
                self._chat_languages.pop(chat.id, None)

    # --- the chats of this worker (services.leases) ------------------------------

    async def chat_taken(self, chat_id: int, given_back: float) -> None:
        """What is cached of the chat may have changed while another worker
        held it (its language, pictures, the bot's rights): read it again."""
        self._forget(chat_id)

    def chat_dropped(self, chat_id: int) -> None:
        self._forget(chat_id)

    def _forget(self, chat_id: int) -> None:
        self._chat_languages.pop(chat_id, None)
        self._chat_pictures.pop(chat_id, None)
        self._bot_admin.pop(chat_id, None)
        self._user_languages.pop(chat_id, None)  # a private chat's id is its user's
        self._written = {x for x in self._written if x.id != chat_id}

    async def migrate_chat(self, old_id: int, new_id: int) -> bool:
        async with self._db.transaction() as tx:
            moved = await tx.people.migrate_chat(old_id, new_id)
            if moved:
                await tx.ratings.move_chat(old_id, new_id)
        self._chat_languages.pop(old_id, None)
        self._chat_languages.pop(new_id, None)
        self._chat_pictures.pop(old_id, None)
        self._bot_admin.pop(old_id, None)
        self._bot_admin.pop(new_id, None)
        self._chat_pictures.pop(new_id, None)
        return moved
