"""The simulated Telegram: users, chats, messages, the update queue, and what users do.

Everything here is synchronous and runs in the event loop of the server, so a test can call
``send`` or ``press`` between awaits without locks. The HTTP side lives in ``server.py``, the
Bot API methods in ``api.py``.
"""

from __future__ import annotations

import base64
import hashlib
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from .errors import BLOCKED, CANT_INITIATE, bad_request, forbidden
from .formatting import detect_entities
from .keyboard import Button
from .media import image_info, photo_size_boxes
from .models import CallbackQueryRecord, FakeChat, FakeUser, Photo, SentMessage, StoredFile

JsonDict = dict[str, Any]

DEFAULT_UPDATE_TYPES = frozenset(
    {
        "message",
        "edited_message",
        "channel_post",
        "edited_channel_post",
        "callback_query",
        "inline_query",
        "chosen_inline_result",
        "my_chat_member",
        "chat_join_request",
    }
)
FIRST_UPDATE_ID = 700_000_001
_MESSAGE_BASICS = frozenset(
    {"message_id", "from", "chat", "date", "message_thread_id", "is_topic_message"}
)


@dataclass
class MessageRecord:
    """A message in a chat: from a user (``raw``) or from the bot (``sent``)."""

    chat_id: int
    message_id: int
    raw: JsonDict | None = None
    sent: SentMessage | None = None
    sender_id: int | None = None
    thread_id: int | None = None
    deleted: bool = False


class TelegramWorld:
    """State of the fake Telegram and the user-side actions tests perform."""

    def __init__(
        self,
        token: str = "123456:TEST-token",  # noqa: S107 - a fake token for a fake server
        bot_username: str = "koloda_test_bot",
        *,
        bot_name: str = "Koloda",
        privacy_mode: bool = True,
    ) -> None:
        bot_id, sep, secret = token.partition(":")
        if not (bot_id.isdigit() and sep and secret):
            raise ValueError(f"token must look like '<bot id>:<secret>', got {token!r}")
        self.token = token
        self.privacy_mode = privacy_mode
        self.wall_clock: Callable[[], float] = time.time
        """Where the dates on messages and updates come from: set it to a fixed
        time to compare two sessions whose seconds may tick over between them."""
        self.bot = FakeUser(int(bot_id), bot_name, username=bot_username, is_bot=True)
        self.users: dict[int, FakeUser] = {}
        self.chats: dict[int, FakeChat] = {}
        self.commands: dict[tuple[str, str], list[JsonDict]] = {}
        self.webhook: dict[str, str] | None = None  # what setWebhook was given
        self.webhook_connections = 40
        """setWebhook's max_connections: updates posted to the webhook at once."""
        self.bot_texts: dict[tuple[str, str], str] = {}  # (kind, language_code) -> text
        self.menu_buttons: dict[int | None, JsonDict] = {}
        self.allowed_updates: frozenset[str] = DEFAULT_UPDATE_TYPES
        self._messages: dict[tuple[int, int], MessageRecord] = {}
        self._chat_messages: dict[int, dict[int, MessageRecord]] = {}
        """The same records by chat (a long game's world holds thousands)."""
        self._queries: dict[str, CallbackQueryRecord] = {}
        self._updates: list[JsonDict] = []  # fetched or not, until confirmed by an offset
        self._next_update_id = FIRST_UPDATE_ID
        self._delivered_upto = 0  # the highest update_id a getUpdates answer carried
        self._query_seq = 0
        self.listeners: list[Callable[[], None]] = []
        """Called after every change: a person's action, or a call of the bot."""
        self._ephemeral: dict[tuple[int, int], SentMessage] = {}  # (chat, ephemeral id)
        self._next_ephemeral = 0
        self.offline: set[int] = set()
        """Users whose ephemeral messages are lost while they are offline."""
        self._photos: dict[str, Photo] = {}  # file_id of any of its sizes -> photo
        self._files: dict[str, StoredFile] = {}  # file_id -> file
        self._file_paths: dict[str, StoredFile] = {}  # file_path -> file

    def date(self) -> int:
        """The date, in Unix seconds, that Telegram writes on what happens now."""
        return int(self.wall_clock())

    # ----------------------------------------------------------------- set-up by tests

    def add_user(
        self,
        user_id: int,
        first_name: str,
        *,
        last_name: str | None = None,
        username: str | None = None,
        language_code: str | None = "ru",
        started: bool = False,
    ) -> FakeUser:
        """A Telegram user; ``started`` means they already pressed Start in the bot's DM."""
        if user_id <= 0:
            raise ValueError("user ids are positive")
        if user_id in self.users or user_id == self.bot.id:
            raise ValueError(f"user {user_id} already exists")
        user = FakeUser(user_id, first_name, last_name, username, language_code, started)
        self.users[user_id] = user
        self.chats[user_id] = FakeChat(user_id, "private", user=user)
        return user

    def add_group(
        self,
        chat_id: int,
        title: str,
        *,
        supergroup: bool = False,
        forum: bool = False,
        creator: int | None = None,
        admins: Iterable[int] = (),
        username: str | None = None,
        bot_is_admin: bool = False,
        added_by: int | None = None,
    ) -> FakeChat:
        """A group with the bot in it; members join by writing or pressing buttons.

        ``forum`` implies a supergroup. With ``added_by`` the bot receives the updates of
        being added (my_chat_member and a new_chat_members message) like in real life.
        """
        if chat_id >= 0:
            raise ValueError("group chat ids are negative")
        if chat_id in self.chats:
            raise ValueError(f"chat {chat_id} already exists")
        people = [uid for uid in (creator, added_by, *admins) if uid is not None]
        for uid in people:
            self.user(uid)
        chat = FakeChat(
            chat_id,
            "supergroup" if supergroup or forum else "group",
            title=title,
            username=username,
            is_forum=forum,
            creator_id=creator,
            admin_ids=set(admins),
            member_ids=set(people),
            bot_is_admin=bot_is_admin,
        )
        self.chats[chat_id] = chat
        if added_by is not None:
            status = "administrator" if bot_is_admin else "member"
            self._my_chat_member(chat, added_by, "left", status)
            self._service_message(chat, added_by, new_chat_members=[self.bot.to_api()])
        return chat

    def create_topic(self, chat_id: int, name: str, *, by_user_id: int | None = None) -> int:
        """Open a forum topic (a forum_topic_created service message); returns its thread id."""
        chat = self.group(chat_id)
        if not chat.is_forum:
            raise ValueError(f"chat {chat_id} is not a forum")
        record = self._service_message(
            chat, by_user_id or chat.creator_id, forum_topic_created={"name": name, "icon_color": 0}
        )
        chat.topics[record.message_id] = name
        assert record.raw is not None
        record.raw.update(message_thread_id=record.message_id, is_topic_message=True)
        record.thread_id = record.message_id
        return record.message_id

    # ----------------------------------------------------------------- lookups

    def user(self, user_id: int) -> FakeUser:
        try:
            return self.users[user_id]
        except KeyError:
            raise ValueError(f"unknown user {user_id}: call add_user() first") from None

    def group(self, chat_id: int) -> FakeChat:
        chat = self.chats.get(chat_id)
        if chat is None or chat.type == "private":
            raise ValueError(f"unknown group {chat_id}: call add_group() first")
        if chat.migrated_to is not None:
            raise ValueError(f"group {chat_id} migrated to {chat.migrated_to}; use the new id")
        return chat

    def message(self, chat_id: int, message_id: int) -> MessageRecord | None:
        return self._messages.get((chat_id, message_id))

    def records(self, chat_id: int) -> list[MessageRecord]:
        """Every message of the chat (users', service and the bot's), oldest first."""
        chat = self._chat_messages.get(chat_id, {})
        return [chat[message_id] for message_id in sorted(chat)]

    def describe_message(self, record: MessageRecord) -> str:
        if record.sent is not None:
            sent = record.sent
            sender, text = f"@{self.bot.username}", sent.text
            if sent.photo is not None:
                text = f"[photo {sent.photo.width}x{sent.photo.height}]"
                text += f" {sent.caption}" if sent.caption else ""
            if sent.buttons:
                text += f" {sent.button_texts}"
        else:
            raw = record.raw or {}
            sender = raw.get("from", {}).get("first_name", "?")
            service = [k for k in raw if k not in _MESSAGE_BASICS]
            text = raw.get("text", f"<{', '.join(service)}>")
        return f"{sender}: {text}" + (" [deleted]" if record.deleted else "")

    def bot_messages(self, chat_id: int) -> list[SentMessage]:
        return [record.sent for record in self.records(chat_id) if record.sent is not None]

    def query(self, query_id: str) -> CallbackQueryRecord | None:
        return self._queries.get(query_id)

    # ----------------------------------------------------------------- what users do

    def send(
        self,
        user_id: int,
        chat_id: int,
        text: str,
        *,
        thread_id: int | None = None,
        reply_to: int | None = None,
    ) -> JsonDict:
        """A user writes ``text`` in a chat (``chat_id == user_id``: the bot's DM).

        Commands and @mentions get their entities. In groups with privacy mode on (the
        default, as for a new bot) the bot only gets commands, replies to its messages and
        service messages, unless it is an admin. Returns the Message object.
        """
        user = self.user(user_id)
        if chat_id == user_id:
            if user.blocked:
                raise ValueError(f"user {user_id} blocked the bot: unblock() or start_bot() first")
            user.started = True
            chat = self.chats[user_id]
        elif chat_id > 0:
            raise ValueError("a user writes to the bot only in their own private chat")
        else:
            chat = self.group(chat_id)
            chat.member_ids.add(user_id)
        if thread_id is not None and chat.is_forum and thread_id not in chat.topics:
            chat.topics[thread_id] = f"Topic {thread_id}"
        replied = None
        if reply_to is not None:
            replied = self.message(chat.id, reply_to)
            if replied is None or replied.deleted:
                raise ValueError(f"no message {reply_to} in chat {chat.id} to reply to")
            if thread_id is None and chat.is_forum:
                thread_id = replied.thread_id
        message: JsonDict = {
            "message_id": chat.next_message_id(),
            "from": user.to_api(),
            "chat": chat.to_api(),
            "date": self.date(),
            "text": text,
        }
        entities = detect_entities(text)
        if entities:
            message["entities"] = entities
        if thread_id is not None and chat.is_forum:
            message.update(message_thread_id=thread_id, is_topic_message=True)
        if replied is not None:
            message["reply_to_message"] = self.message_json(replied, nested=True)
        record = MessageRecord(
            chat.id,
            message["message_id"],
            raw=message,
            sender_id=user_id,
            thread_id=thread_id if chat.is_forum else None,
        )
        self._store(record)
        if self._bot_sees(chat, entities, text, replied):
            self._enqueue("message", message)
        else:
            self.changed()  # the bot does not see it, but the chat shows it
        return message

    def start_bot(self, user_id: int, payload: str | None = None) -> JsonDict:
        """The user opens the bot's DM and presses Start (or Restart after blocking)."""
        user = self.user(user_id)
        if user.blocked:
            self.unblock(user_id)
        user.started = True
        return self.send(user_id, user_id, "/start" if payload is None else f"/start {payload}")

    def block(self, user_id: int) -> None:
        """The user blocks the bot: sends fail with 403, the bot gets my_chat_member."""
        user = self.user(user_id)
        if not user.blocked:
            user.blocked = True
            self._my_chat_member(self.chats[user_id], user_id, "member", "kicked")

    def unblock(self, user_id: int) -> None:
        user = self.user(user_id)
        if user.blocked:
            user.blocked = False
            self._my_chat_member(self.chats[user_id], user_id, "kicked", "member")

    def remove_bot(self, chat_id: int, *, by_user_id: int | None = None) -> None:
        """Someone removes the bot from a group: later requests there get 403."""
        chat = self.group(chat_id)
        old = "administrator" if chat.bot_is_admin else "member"
        chat.bot_status = "kicked"
        chat.bot_is_admin = False
        self._my_chat_member(chat, by_user_id or chat.creator_id, old, "kicked")

    def press(
        self,
        user_id: int,
        chat_id: int,
        message_id: int,
        callback_data: str,
        *,
        forged: bool = False,
    ) -> str:
        """The user presses an inline button; returns the callback query id.

        The data must be on one of the message's current buttons unless ``forged`` (for
        testing how the bot treats stale or crafted callback data).
        """
        user = self.user(user_id)
        chat = self.chats.get(chat_id)
        if chat is None:
            raise ValueError(f"unknown chat {chat_id}")
        if chat.migrated_to is not None:
            raise ValueError(f"chat {chat_id} migrated to {chat.migrated_to}")
        if chat.type == "private" and chat_id != user_id:
            raise ValueError(f"user {user_id} cannot see the private chat {chat_id}")
        record = self.message(chat_id, message_id)
        if record is None or record.sent is None or record.deleted:
            raise ValueError(f"no live bot message {message_id} in chat {chat_id}")
        sent = record.sent
        if not forged and callback_data not in sent.callback_datas:
            raise ValueError(
                f"message {message_id} has no button with callback_data {callback_data!r}; "
                f"buttons: {sent.rows}"
            )
        if chat.type != "private":
            chat.member_ids.add(user_id)
        self._query_seq += 1
        query_id = str(4_815_162_342_000_000 + self._query_seq * 7919)
        self._queries[query_id] = CallbackQueryRecord(
            query_id, user_id, chat_id, message_id, callback_data, time.monotonic()
        )
        self._enqueue(
            "callback_query",
            {
                "id": query_id,
                "from": user.to_api(),
                "message": self.message_json(record),
                "chat_instance": str(-7_000_000_000 - abs(chat_id) % 1_000_000_007),
                "data": callback_data,
            },
        )
        return query_id

    def press_button(self, user_id: int, chat_id: int, message_id: int, text_contains: str) -> str:
        """Press the button whose text contains the fragment (an exact match wins)."""
        record = self.message(chat_id, message_id)
        if record is None or record.sent is None or record.deleted:
            raise ValueError(f"no live bot message {message_id} in chat {chat_id}")
        button: Button = record.sent.button(text_contains)
        if button.callback_data is None:
            raise ValueError(f"button {button.text!r} is a link ({button.url}), not a callback")
        return self.press(user_id, chat_id, message_id, button.callback_data)

    # ----------------------------------------------------------------- ephemeral messages

    def set_bot_admin(
        self, chat_id: int, admin: bool = True, *, by_user_id: int | None = None
    ) -> None:
        """The bot is made an administrator of the group (or stops being one),
        with the my_chat_member update Telegram sends."""
        chat = self.group(chat_id)
        old = "administrator" if chat.bot_is_admin else "member"
        chat.bot_is_admin = admin
        new = "administrator" if admin else "member"
        self._my_chat_member(chat, by_user_id or chat.creator_id, old, new)

    def store_ephemeral(self, sent: SentMessage) -> SentMessage:
        """Keep an ephemeral message (``sent.message_id`` is given here); lost at
        once when its reader is offline."""
        self._next_ephemeral += 1
        sent.message_id = self._next_ephemeral
        sent.lost = sent.receiver_id in self.offline
        self._ephemeral[(sent.chat_id, sent.message_id)] = sent
        return sent

    def ephemeral(self, chat_id: int, ephemeral_id: int) -> SentMessage | None:
        return self._ephemeral.get((chat_id, ephemeral_id))

    def ephemeral_messages(self, chat_id: int, user_id: int) -> list[SentMessage]:
        """The ephemeral messages of a group that this member sees now, oldest
        first (what another member sees of them: nothing)."""
        return [
            sent.snapshot()
            for (chat, _), sent in self._ephemeral.items()
            if chat == chat_id
            and sent.receiver_id == user_id
            and not sent.deleted
            and not sent.lost
        ]

    def every_ephemeral(self) -> list[SentMessage]:
        """Every ephemeral message the bot sent, seen or not (for tests)."""
        return [sent.snapshot() for sent in self._ephemeral.values()]

    def forget_ephemeral(self, user_id: int) -> None:
        """The user's app drops the ephemeral messages it shows (they are not kept
        in the chat's history: a restart of the app, another device)."""
        for sent in self._ephemeral.values():
            if sent.receiver_id == user_id:
                sent.lost = True

    def age_presses(self, seconds: float) -> None:
        """Every press made so far happened ``seconds`` earlier (the window in
        which a bot that is no administrator may answer one with an ephemeral
        message closes)."""
        for query in self._queries.values():
            query.at -= seconds

    def press_ephemeral(self, user_id: int, chat_id: int, ephemeral_id: int, data: str) -> str:
        """The user presses a button of an ephemeral message he sees; returns the
        callback query id."""
        sent = self._ephemeral.get((chat_id, ephemeral_id))
        if sent is None or sent.deleted or sent.lost or sent.receiver_id != user_id:
            raise ValueError(f"user {user_id} sees no ephemeral message {ephemeral_id}")
        if data not in sent.callback_datas:
            raise ValueError(f"ephemeral message {ephemeral_id} has no button {data!r}")
        user = self.user(user_id)
        self._query_seq += 1
        query_id = str(4_815_162_342_000_000 + self._query_seq * 7919)
        self._queries[query_id] = CallbackQueryRecord(
            query_id, user_id, chat_id, ephemeral_id, data, time.monotonic(), ephemeral=True
        )
        self._enqueue(
            "callback_query",
            {
                "id": query_id,
                "from": user.to_api(),
                "message": self.ephemeral_json(sent),
                "chat_instance": str(-7_000_000_000 - abs(chat_id) % 1_000_000_007),
                "data": data,
            },
        )
        return query_id

    def ephemeral_json(self, sent: SentMessage) -> JsonDict:
        """The Bot API Message of an ephemeral message: ``ephemeral_message_id`` and
        ``receiver_user`` say what it is (its ``message_id`` is 0: no message of
        the chat's)."""
        assert sent.receiver_id is not None
        data: JsonDict = {
            "message_id": 0,
            "ephemeral_message_id": sent.message_id,
            "receiver_user": self.user(sent.receiver_id).to_api(),
            "from": self.bot.to_api(),
            "chat": self.chats[sent.chat_id].to_api(),
            "date": sent.date,
            "text": sent.text,
        }
        if sent.entities:
            data["entities"] = sent.entities
        if sent.thread_id is not None:
            data.update(message_thread_id=sent.thread_id, is_topic_message=True)
        if sent.buttons and sent.reply_markup is not None:
            data["reply_markup"] = sent.reply_markup
        return data

    def migrate(self, chat_id: int, new_chat_id: int, *, by_user_id: int | None = None) -> FakeChat:
        """The group becomes a supergroup with a new id, with Telegram's two service messages.

        Requests to the old id then fail with 400 and parameters.migrate_to_chat_id.
        """
        old = self.group(chat_id)
        if old.type != "group":
            raise ValueError(f"chat {chat_id} is already a supergroup")
        if new_chat_id >= 0 or new_chat_id in self.chats:
            raise ValueError(f"bad new supergroup id {new_chat_id}")
        new = FakeChat(
            new_chat_id,
            "supergroup",
            title=old.title,
            username=old.username,
            creator_id=old.creator_id,
            admin_ids=set(old.admin_ids),
            member_ids=set(old.member_ids),
            bot_is_admin=old.bot_is_admin,
            bot_status=old.bot_status,
        )
        self.chats[new_chat_id] = new
        actor = by_user_id or old.creator_id
        self._service_message(old, actor, migrate_to_chat_id=new_chat_id)
        old.migrated_to = new_chat_id
        self._service_message(new, actor, migrate_from_chat_id=chat_id)
        return new

    # ----------------------------------------------------------------- messages as JSON

    def message_json(self, record: MessageRecord, *, nested: bool = False) -> JsonDict:
        """The Bot API Message object for a stored message, in its current state."""
        if record.raw is not None:
            if nested:
                return {k: v for k, v in record.raw.items() if k != "reply_to_message"}
            return dict(record.raw)
        sent = record.sent
        assert sent is not None
        chat = self.chats[sent.chat_id]
        data: JsonDict = {
            "message_id": sent.message_id,
            "from": self.bot.to_api(),
            "chat": chat.to_api(),
            "date": sent.date,
        }
        if sent.thread_id is not None:
            data.update(message_thread_id=sent.thread_id, is_topic_message=True)
        if sent.reply_to_message_id is not None and not nested:
            replied = self.message(sent.chat_id, sent.reply_to_message_id)
            if replied is not None and not replied.deleted:
                data["reply_to_message"] = self.message_json(replied, nested=True)
        if sent.edit_date is not None:
            data["edit_date"] = sent.edit_date
        if sent.photo is not None:
            data["photo"] = sent.photo.to_api()
            if sent.caption:
                data["caption"] = sent.caption
            if sent.caption_entities:
                data["caption_entities"] = sent.caption_entities
        else:
            data["text"] = sent.text
            if sent.entities:
                data["entities"] = sent.entities
        if sent.buttons and sent.reply_markup is not None:
            data["reply_markup"] = sent.reply_markup
        return data

    def store_bot_message(self, sent: SentMessage) -> MessageRecord:
        record = MessageRecord(sent.chat_id, sent.message_id, sent=sent, thread_id=sent.thread_id)
        self._store(record)
        return record

    def _store(self, record: MessageRecord) -> None:
        self._messages[(record.chat_id, record.message_id)] = record
        self._chat_messages.setdefault(record.chat_id, {})[record.message_id] = record

    # ----------------------------------------------------------------- files

    def store_photo(self, data: bytes) -> Photo:
        """Keep an uploaded picture with a file per PhotoSize; Telegram's error if not a photo."""
        info = image_info(data)
        digest = hashlib.sha256(data).digest()
        sizes: list[StoredFile] = []
        for kind, width, height in photo_size_boxes(info.width, info.height):
            number = len(self._files)
            serial = number.to_bytes(4, "big")
            # ids look like Telegram's (base64url, photos start "AgAC"), unique per upload
            file_id = "AgACAgIAAxkDAAI" + _b64(serial + digest[:16] + kind.encode())
            unique_id = "AQAD" + _b64(serial + digest[:5])
            path = f"photos/file_{number}.{info.extension}"
            stored = StoredFile(file_id, unique_id, path, data, info.mime_type, width, height)
            self._files[file_id] = stored
            self._file_paths[path] = stored
            sizes.append(stored)
        photo = Photo(data, info.mime_type, info.width, info.height, tuple(sizes))
        for stored in sizes:
            self._photos[stored.file_id] = photo
        return photo

    def photo_by_file_id(self, file_id: str) -> Photo | None:
        """The photo one of whose sizes has this file_id."""
        return self._photos.get(file_id)

    def stored_file(self, file_id: str) -> StoredFile | None:
        return self._files.get(file_id)

    def file_at(self, file_path: str) -> StoredFile | None:
        """The file getFile named with this file_path."""
        return self._file_paths.get(file_path)

    # ----------------------------------------------------------------- chat access rules

    def resolve_chat(self, ref: int | str) -> FakeChat:
        """The chat a request names, or the error Telegram gives for it."""
        if isinstance(ref, str):
            name = ref.removeprefix("@").lower()
            found = [c for c in self.chats.values() if (c.username or "").lower() == name]
            if not found or found[0].type == "private":
                raise bad_request("chat not found")
            chat = found[0]
        else:
            maybe = self.chats.get(ref)
            if maybe is None:
                raise bad_request("chat not found")
            chat = maybe
        if chat.migrated_to is not None:
            raise bad_request(
                "group chat was upgraded to a supergroup chat",
                {"migrate_to_chat_id": chat.migrated_to},
            )
        if chat.type != "private" and chat.bot_status != "member":
            kind = "supergroup" if chat.type == "supergroup" else "group"
            if chat.bot_status == "kicked":
                raise forbidden(f"bot was kicked from the {kind} chat")
            raise forbidden(f"bot is not a member of the {kind} chat")
        return chat

    def writable_chat(self, ref: int | str) -> FakeChat:
        """As resolve_chat, plus the private-chat rules for sending."""
        chat = self.resolve_chat(ref)
        if chat.user is not None:
            if chat.user.blocked:
                raise forbidden(BLOCKED)
            if not chat.user.started:
                raise forbidden(CANT_INITIATE)
        return chat

    def inject_update(self, kind: str, payload: JsonDict) -> JsonDict:
        """Any update as given, however malformed or unlikely (a channel post, an
        edited message, a service message): for fuzzing."""
        return self._enqueue(kind, payload)

    def inject_press(self, user_id: int, data: str, message: JsonDict | None) -> str:
        """A callback query with any data, on any message as given (one deleted,
        in a chat that does not exist) or on none (an inline message); returns
        its id, which answerCallbackQuery accepts as a real one's."""
        user = self.user(user_id)
        self._query_seq += 1
        query_id = str(4_815_162_342_000_000 + self._query_seq * 7919)
        chat_id = int(message["chat"]["id"]) if message else 0
        message_id = int(message["message_id"]) if message else 0
        self._queries[query_id] = CallbackQueryRecord(
            query_id, user_id, chat_id, message_id, data, time.monotonic()
        )
        payload: JsonDict = {"id": query_id, "from": user.to_api(), "data": data}
        if message is None:
            payload["inline_message_id"] = f"inline-{query_id}"
            payload["chat_instance"] = "-1"
        else:
            payload["message"] = message
            payload["chat_instance"] = str(-7_000_000_000 - abs(chat_id) % 1_000_000_007)
        self._enqueue("callback_query", payload)
        return query_id

    # ----------------------------------------------------------------- the update queue

    def _enqueue(self, kind: str, payload: JsonDict) -> JsonDict:
        update = {"update_id": self._next_update_id, kind: payload}
        self._next_update_id += 1
        self._updates.append(update)
        self._on_update()
        self.changed()
        return update

    def changed(self) -> None:
        for listener in self.listeners:
            listener()

    def _on_update(self) -> None:
        """Hook: the server wakes a waiting long poll."""

    def confirm_updates(self, offset: int | None) -> None:
        """getUpdates' offset: forget updates below it (negative: keep only the last -N)."""
        if offset is None or offset == 0:
            return
        if offset < 0:
            self._updates = self._updates[offset:]
        else:
            self._updates = [u for u in self._updates if u["update_id"] >= offset]

    def take_updates(self, limit: int) -> list[JsonDict]:
        """The next unconfirmed updates the bot asked for, dropping kinds it does not want."""
        self._updates = [u for u in self._updates if _update_kind(u) in self.allowed_updates]
        batch = self._updates[: max(1, min(limit, 100))]
        if batch:
            self._delivered_upto = max(self._delivered_upto, batch[-1]["update_id"])
        return [dict(u) for u in batch]

    def acknowledge(self, update_id: int) -> None:
        """The webhook answered 2xx for this update: it is delivered for good."""
        self._updates = [u for u in self._updates if u["update_id"] != update_id]
        self._delivered_upto = max(self._delivered_upto, update_id)

    def drop_pending_updates(self) -> None:
        self._updates.clear()
        self._delivered_upto = self._next_update_id - 1

    @property
    def pending_updates(self) -> list[JsonDict]:
        """Updates not confirmed by the bot yet (fetched or not)."""
        return [dict(u) for u in self._updates]

    @property
    def unfetched_count(self) -> int:
        """Updates no getUpdates answer has carried yet."""
        return sum(1 for u in self._updates if u["update_id"] > self._delivered_upto)

    # ----------------------------------------------------------------- helpers

    def _bot_sees(
        self,
        chat: FakeChat,
        entities: list[JsonDict],
        text: str,
        replied: MessageRecord | None,
    ) -> bool:
        if chat.type != "private" and chat.bot_status != "member":
            return False
        if chat.type == "private" or not self.privacy_mode or chat.bot_is_admin:
            return True
        if replied is not None and replied.sent is not None:
            return True
        own = f"@{(self.bot.username or '').lower()}"
        for entity in entities:
            if entity["type"] != "bot_command":
                continue
            command = _utf16_slice(text, entity["offset"], entity["length"])
            _, at, target = command.partition("@")
            if not at or f"@{target.lower()}" == own:
                return True
        return False

    def _service_message(
        self, chat: FakeChat, actor_id: int | None, **content: object
    ) -> MessageRecord:
        message: JsonDict = {
            "message_id": chat.next_message_id(),
            "chat": chat.to_api(),
            "date": self.date(),
        }
        if actor_id is not None:
            message["from"] = self.user(actor_id).to_api()
        message.update(content)
        record = MessageRecord(chat.id, message["message_id"], raw=message, sender_id=actor_id)
        self._store(record)
        if chat.bot_status == "member" or "new_chat_members" in content:
            self._enqueue("message", message)
        return record

    def _my_chat_member(self, chat: FakeChat, actor_id: int | None, old: str, new: str) -> None:
        actor = self.users.get(actor_id) if actor_id is not None else None
        self._enqueue(
            "my_chat_member",
            {
                "chat": chat.to_api(),
                "from": (actor or chat.user or self.bot).to_api(),
                "date": self.date(),
                "old_chat_member": self.bot_member_json(old),
                "new_chat_member": self.bot_member_json(new),
            },
        )

    def bot_member_json(self, status: str) -> JsonDict:
        return member_json(self.bot, status)


def member_json(user: FakeUser, status: str) -> JsonDict:
    """A ChatMember object of the given status, with the fields PTB requires."""
    data: JsonDict = {"status": status, "user": user.to_api()}
    if status == "creator":
        data["is_anonymous"] = False
    elif status == "administrator":
        data.update(
            can_be_edited=False,
            is_anonymous=False,
            can_manage_chat=True,
            can_delete_messages=True,
            can_manage_video_chats=True,
            can_restrict_members=True,
            can_promote_members=False,
            can_change_info=True,
            can_invite_users=True,
            can_post_stories=False,
            can_edit_stories=False,
            can_delete_stories=False,
            can_pin_messages=True,
            can_manage_topics=True,
        )
    elif status == "kicked":
        data["until_date"] = 0
    return data


def _update_kind(update: JsonDict) -> str:
    return next(key for key in update if key != "update_id")


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def _utf16_slice(text: str, offset: int, length: int) -> str:
    raw = text.encode("utf-16-le")
    return raw[offset * 2 : (offset + length) * 2].decode("utf-16-le")
